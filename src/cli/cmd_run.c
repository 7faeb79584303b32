/* gasp run: one answer, assembled, run on the GPU and verified against its task. */
#include <stdlib.h>
#include <string.h>

#include "../bench/results.h"
#include "../core/util.h"
#include "cli.h"
#include "common.h"

void cli_print_verdict(const gasp_record *rec, FILE *out) {
  if (rec->cls == GASP_CLASS_PASS) {
    fprintf(out, "pass");
    const gasp_verdict *v = &rec->verdict;
    if (v->kernel_ms > 0) fprintf(out, "  kernel %.4f ms", v->kernel_ms);
    if (v->baseline_ms > 0) fprintf(out, "  reference %.4f ms  speedup %.2fx%s%s", v->baseline_ms, v->speedup,
                                    v->slow ? "  [slow]" : "", v->suspicious ? "  [suspicious: >10x faster]" : "");
    fprintf(out, "  (%d trials)\n", v->trials_run);
    return;
  }
  fprintf(out, "%s", gasp_class_name(rec->cls));
  if (rec->cls == GASP_CLASS_SKIPPED) fprintf(out, ": %s (assembled fine; not judged)", rec->skip_reason);
  else if (rec->verdict.detail[0]) fprintf(out, ": %s", rec->verdict.detail);
  else if (rec->diags.count) {
    for (size_t i = 0; i < rec->diags.count; i++)
      if (rec->diags.items[i].sev == GASP_SEV_ERROR) {
        fprintf(out, ": line %d col %d: %s", rec->diags.items[i].line, rec->diags.items[i].col, rec->diags.items[i].msg);
        break;
      }
  }
  fprintf(out, "\n");
}

int cmd_run(int argc, char **argv) {
  const char *target = NULL, *task_id = NULL;
  int json = 0, no_time = 0, seed = 1, fix = 0, allow_hazards = 0;
  gasp_opt opts[] = {
      {"target", 't', OPT_STR, "T", CLI_TARGET_HELP, &target},
      {"task", 0, OPT_STR, "ID", "the task FILE answers", &task_id},
      {"seed", 0, OPT_INT, "N", "seed for the inputs (default 1)", &seed},
      {"no-time", 0, OPT_FLAG, NULL, "skip timing against the nvcc reference", &no_time},
      {"json", 0, OPT_FLAG, NULL, "print the results record as JSON", &json},
      {"fix", 0, OPT_FLAG, NULL, "apply the target's rewriters first (SASS: repair hazards; same as --rewrite)", &fix},
      {"rewrite", 0, OPT_FLAG, NULL, "the same as --fix", &fix},
      {"allow-hazards", 0, OPT_FLAG, NULL, "run even when the only errors are hazards (SASS), to see what the GPU "
       "does with them; the record keeps the errors", &allow_hazards},
      {0}};
  gasp_cmd_spec spec = {
      "run", "--target T --task ID FILE [--json]",
      "Assemble FILE, run it on the GPU in an isolated worker and verify it against the task's CPU reference.",
      "Prints the verdict: pass (with timing against the nvcc-compiled reference), or the failure class with\n"
      "details such as the first wrong index, expected and got. Every output is poisoned before the run and\n"
      "guarded by bytes before and after; inputs must come back unchanged; several trials use fresh inputs.\n"
      "Without a usable GPU the run is reported as skipped (exit 4), never as a pass.\n"
      "AMD targets (gfx900, gfx1030, gfx1100) run on gasp's AMD emulator, no GPU needed. Where an AMD GPU and\n"
      "ROCm's libamdhip64.so are present they run on the GPU through HIP instead (GASP_AMD_NO_HIP=1 keeps the\n"
      "emulator); that HIP path is compiled but UNTESTED: no AMD GPU was available to its authors.",
      opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 1);
  if (rc) return rc < 0 ? 0 : rc;
  if (npos != 1 || !task_id) {
    gasp_cli_error("run", "expected --task ID and one FILE (see 'gasp run --help')");
    return GASP_EXIT_USAGE;
  }
  const gasp_target *t = cli_target("run", target);
  if (!t) return GASP_EXIT_USAGE;
  gasp_taskset ts;
  cli_load_tasks("run", &ts, 0);
  const gasp_task *task = gasp_taskset_find(&ts, task_id);
  if (task && !gasp_task_fits(task, t->isa)) {
    gasp_cli_error("run", "task '%s' is written for %s, not for target '%s'", task_id, task->isa, t->name);
    gasp_taskset_free(&ts);
    return GASP_EXIT_USAGE;
  }
  if (!task) {
    gasp_cli_error("run", "no task '%s' (see 'gasp tasks')", task_id);
    gasp_taskset_free(&ts);
    return GASP_EXIT_USAGE;
  }
  gasp_record rec;
  gasp_record_init(&rec);
  if (cli_read_answer("run", pos[0], &rec.answer, &rec.answer_len)) {
    gasp_taskset_free(&ts);
    return GASP_EXIT_ENV;
  }
  gasp_strlcpy(rec.task, task->id, sizeof rec.task);
  rec.level = task->level;
  gasp_strlcpy(rec.target, t->name, sizeof rec.target);
  gasp_strlcpy(rec.backend, "file", sizeof rec.backend);
  gasp_strlcpy(rec.model, pos[0], sizeof rec.model);
  gasp_strlcpy(rec.variant, "-", sizeof rec.variant);
  rec.seed = (uint64_t)seed;
  char why[256] = "";
  gasp_pool_opts po;
  gasp_pool_default_opts(&po);
  po.spares = 0;
  gasp_pool *pool = t->exec == GASP_EXEC_CUDA ? cli_open_pool(&po, why, sizeof why) : NULL;
  gasp_binary baseline;
  memset(&baseline, 0, sizeof baseline);
  int have_base = 0;
  gasp_diags bd;
  gasp_diags_init(&bd);
  if (pool && !no_time && t->baseline) have_base = t->baseline(t, task, &baseline, &bd) == 0;
  gasp_eval_opts eo = {0};
  eo.pool = pool;
  eo.no_gpu_reason = why;
  eo.seed = (uint64_t)seed;
  eo.time = !no_time;
  eo.flush_l2 = 1;
  eo.baseline = have_base ? &baseline : NULL;
  eo.rewrite = fix;
  eo.allow_hazards = allow_hazards;
  gasp_eval(t, task, &eo, &rec);
  cli_print_diags(&rec.diags, pos[0], stderr);
  cli_print_diags(&bd, task->path, stderr);
  if (json) {
    char *s = gasp_record_to_json(&rec);
    printf("%s\n", s);
    free(s);
  } else {
    cli_print_verdict(&rec, stdout);
  }
  int exit_code = rec.cls == GASP_CLASS_PASS      ? GASP_EXIT_OK
                  : rec.cls == GASP_CLASS_SKIPPED ? GASP_EXIT_SKIPPED
                  : rec.cls == GASP_CLASS_ERROR   ? GASP_EXIT_ENV
                                                  : GASP_EXIT_FAIL;
  gasp_pool_close(pool);
  gasp_binary_free(&baseline);
  gasp_diags_free(&bd);
  gasp_record_free(&rec);
  gasp_taskset_free(&ts);
  return exit_code;
}
