/* gasp merge: results files of shards (--shard i/n, Slurm array jobs, MPI ranks) into one, deduplicated by
 * the resume key, with overlaps, conflicts and missing work reported. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench/merge.h"
#include "../core/util.h"
#include "cli.h"
#include "common.h"

/* Prints what a merge found; returns the number of conflicts. Shared with bench --mpi. */
size_t cli_merge_report(const char *cmd, const gasp_merge_report *r, const gasp_diags *d, const char *out, int quiet) {
  for (size_t i = 0; i < d->count; i++)
    fprintf(stderr, "gasp %s: %s: %s\n", cmd, d->items[i].sev == GASP_SEV_ERROR ? "error" : "warning", d->items[i].msg);
  if (r->conflicts > 20) fprintf(stderr, "gasp %s: error: ... %zu conflicts in all\n", cmd, r->conflicts);
  if (r->missing > 20) fprintf(stderr, "gasp %s: warning: ... %zu (task, sample) cells missing in all\n", cmd, r->missing);
  if (!quiet)
    fprintf(stderr,
            "gasp %s: %zu input(s), %zu record line(s) -> %zu record(s) in %s; %zu duplicate(s) dropped, %zu conflict(s), "
            "%zu infra-error record(s) superseded, %zu unreadable line(s), %zu (task, sample) cell(s) missing\n",
            cmd, r->inputs, r->lines - r->bad_lines, r->written, out, r->duplicates, r->conflicts, r->superseded,
            r->bad_lines, r->missing);
  return r->conflicts;
}

/* Merges m into path through a temporary file and rename, so path may be one of the inputs and a crash
 * leaves either the old or the new file. Returns 0 or GASP_EXIT_ENV. */
int cli_merge_to(const char *cmd, gasp_merge *m, const char *path, gasp_merge_report *rep, gasp_diags *d) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.merge-tmp.%d", path, (int)getpid());
  FILE *f = fopen(tmp, "we");
  if (!f) {
    gasp_cli_error(cmd, "cannot write '%s'", tmp);
    return GASP_EXIT_ENV;
  }
  int rc = gasp_merge_write(m, f, rep, d);
  if (fsync(fileno(f))) rc = -1;
  if (fclose(f)) rc = -1;
  if (rc || rename(tmp, path)) {
    unlink(tmp);
    gasp_cli_error(cmd, "cannot write '%s'", path);
    return GASP_EXIT_ENV;
  }
  return 0;
}

int cmd_merge(int argc, char **argv) {
  const char *out = NULL, *target = NULL, *glob = "*";
  int strict = 0, quiet = 0, samples = 0, level = -1;
  gasp_opt opts[] = {
      {"output", 'o', OPT_STR, "FILE", "merged results file (JSONL), required; may be one of the inputs", &out},
      {"strict", 0, OPT_FLAG, NULL, "exit 1 when work is missing, not only on conflicts", &strict},
      {"target", 't', OPT_STR, "T", "the run's target: with --samples, missing work is counted against the suite", &target},
      {"tasks", 0, OPT_STR, "GLOB", "the run's --tasks (default all)", &glob},
      {"level", 0, OPT_INT, "L", "the run's --level", &level},
      {"samples", 'k', OPT_INT, "K", "the run's --samples (needs --target)", &samples},
      {"quiet", 'q', OPT_FLAG, NULL, "no summary line", &quiet},
      {0}};
  gasp_cmd_spec spec = {
      "merge", "A.jsonl B.jsonl ... -o ALL.jsonl [--strict] [--target T --samples K [--tasks GLOB] [--level L]]",
      "Merge results files (shards of one run) into one, deduplicated by the resume key.",
      "Records are copied verbatim. Two records are the same candidate when task, target, backend, model,\n"
      "variant, grammar, seed, sample and repair turn agree (the key --resume uses, plus the turn). The same candidate\n"
      "twice with the same content (answer, class, stage, diagnostics; timings aside) is an overlap, kept once;\n"
      "with different content it is a conflict: the first input's record is kept and the conflict reported\n"
      "(exit 1). An infra-error record gives way to a real one of the same key. Output order: the suite's task\n"
      "order, then target, backend, model, variant, seed, sample, turn (what a one-process bench with one\n"
      "backend writes). Missing work: for each configuration, every task present should have samples 0 up to\n"
      "the largest present; the cells that do not are listed (exit 1 with --strict). A task absent from every\n"
      "input cannot be seen that way: give the run's --target, --samples (and --tasks, --level) and the grid\n"
      "is the suite's tasks for that target times samples 0..K-1.",
      opts};
  const char *pos[256];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 256);
  if (rc) return rc < 0 ? 0 : rc;
  if (!out || !npos) {
    gasp_cli_error("merge", "%s", !out ? "-o FILE is required" : "name at least one results file");
    return GASP_EXIT_USAGE;
  }
  gasp_taskset ts;
  gasp_diags td;
  gasp_diags_init(&td);
  int have_suite = gasp_taskset_load(gasp_tasks_dir(), &ts, &td) == 0;
  gasp_diags_free(&td);
  if ((samples > 0) != (target != NULL) || samples < 0) {
    gasp_cli_error("merge", "--target and --samples go together");
    if (have_suite) gasp_taskset_free(&ts);
    return GASP_EXIT_USAGE;
  }
  gasp_merge *m = gasp_merge_new();
  if (have_suite) gasp_merge_set_suite(m, &ts);
  const char **ids = NULL;
  if (target) {
    const gasp_target *t = cli_target("merge", target);
    if (!t || !have_suite) {
      if (!have_suite) gasp_cli_error("merge", "--target needs the task suite ($GASP_TASKS_DIR)");
      gasp_merge_free(m);
      if (have_suite) gasp_taskset_free(&ts);
      return t ? GASP_EXIT_ENV : GASP_EXIT_USAGE;
    }
    ids = calloc(ts.count + 1, sizeof *ids);
    int n = 0;
    for (size_t i = 0; i < ts.count; i++)
      if (gasp_glob_match(glob, ts.items[i].id) && (level < 0 || ts.items[i].level == level) &&
          gasp_task_fits(&ts.items[i], t->isa))
        ids[n++] = ts.items[i].id;
    gasp_merge_expect(m, t->name, ids, n, samples);
  }
  for (int i = 0; i < npos; i++) {
    char err[512];
    if (gasp_merge_add_file(m, pos[i], err, sizeof err)) {
      gasp_cli_error("merge", "%s", err);
      gasp_merge_free(m);
      if (have_suite) gasp_taskset_free(&ts);
      return GASP_EXIT_ENV;
    }
  }
  gasp_merge_report rep;
  gasp_diags d;
  gasp_diags_init(&d);
  rc = cli_merge_to("merge", m, out, &rep, &d);
  if (!rc) {
    cli_merge_report("merge", &rep, &d, out, quiet);
    if (rep.conflicts || (strict && rep.missing)) rc = GASP_EXIT_FAIL;
  }
  gasp_diags_free(&d);
  gasp_merge_free(m);
  free(ids);
  if (have_suite) gasp_taskset_free(&ts);
  return rc;
}
