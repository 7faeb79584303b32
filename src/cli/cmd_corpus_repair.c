/* gasp corpus repair: repair pairs for the training corpus (issue 9). A repair pair's prompt is the repair turn's
 * prompt (the task's prompt, a wrong answer, how gasp judged it) and its completion the verified answer. The wrong
 * answers are mutants of verified ones (src/corpus/corpus_mutate.c), judged by gasp bench itself through the
 * files backend, so that the diagnostics quoted are the ones a model's wrong answer would get; a mutant gasp
 * passes (an edit that changes nothing) never enters. */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../bench/results.h"
#include "../corpus/corpus.h"
#include "../extract/extract.h"
#include "../prompt/prompt.h"
#include "../target/target.h"
#include "cli.h"
#include "common.h"

/* one verified pair taken from the input: a task of the directory and its completion */
typedef struct {
  const gasp_task *task;
  char *completion;
  int first_mutant, nmutants; /* its mutants' indices in the mutant list */
} source_pair;

typedef struct {
  char *answer;      /* fenced, as a model would write it */
  const char *kind;
  int line;
  int pair;
  int sample;
} mutant;

/* per kind of edit: mutants made, judged wrong, passed (equivalent), not judged (run stage skipped) */
typedef struct {
  long made, wrong, equivalent, skipped;
} kind_tally;

static int kind_index(const char *k) {
  for (int i = 0; gasp_mutation_kinds[i]; i++)
    if (!strcmp(gasp_mutation_kinds[i], k)) return i;
  return -1;
}

/* The tasks the pairs name, linked into dir: gasp bench then runs only those (the files backend has answers for
 * them alone). Returns 0 or -1 (errno set). */
static int link_tasks(const char *dir, const char *src_dir, const source_pair *ps, int n) {
  char p[1400], q[1400];
  snprintf(p, sizeof p, "%s/amdgcn", dir);
  if ((mkdir(dir, 0755) && errno != EEXIST) || (mkdir(p, 0755) && errno != EEXIST)) return -1;
  for (int i = 0; i < n; i++) {
    char *abs = realpath(ps[i].task->path, NULL);
    if (!abs) return -1;
    const char *base = strrchr(abs, '/');
    snprintf(p, sizeof p, "%s/%s", dir, base + 1);
    unlink(p);
    int rc = symlink(abs, p);
    free(abs);
    if (rc) return -1;
    /* the OpenCL C reference beside it, when there is one (AMD targets) */
    snprintf(q, sizeof q, "%s/amdgcn/%s.cl", src_dir, ps[i].task->id);
    if ((abs = realpath(q, NULL))) {
      snprintf(p, sizeof p, "%s/amdgcn/%s.cl", dir, ps[i].task->id);
      unlink(p);
      rc = symlink(abs, p);
      free(abs);
      if (rc) return -1;
    }
  }
  return 0;
}

int cmd_corpus_repair(int argc, char **argv) {
  const char *target = NULL, *dir = NULL, *out = NULL;
  int per = 4, seed = 1, workers = 0, resume = 0, quiet = 0;
  gasp_opt opts[] = {
      {"target", 't', OPT_STR, "T", "the target of the pairs (gfx900, gfx1030, gfx1100, r300, ptx-sm90, ...), required", &target},
      {"tasks-dir", 0, OPT_STR, "DIR", "the pairs' task directory (gasp corpus gen's output), required", &dir},
      {"output", 'o', OPT_STR, "FILE", "the repair pairs (JSONL), required; FILE.mutants.jsonl, FILE.results.jsonl "
                                       "and FILE.tasks/ are kept beside it", &out},
      {"mutants", 'k', OPT_INT, "K", "mutants per verified pair, one edit each (default 4, at most 16)", &per},
      {"seed", 0, OPT_INT, "N", "seed of the edits chosen and of the verification inputs (default 1)", &seed},
      {"workers", 'j', OPT_INT, "K", "worker processes judging mutants at once (gasp bench --workers)", &workers},
      {"resume", 0, OPT_FLAG, NULL, "continue an interrupted run (gasp bench --resume on FILE.results.jsonl)", &resume},
      {"quiet", 'q', OPT_FLAG, NULL, "no progress and no tables", &quiet},
      {NULL, 0, 0, NULL, NULL, NULL}};
  gasp_cmd_spec spec = {
      "corpus repair", "--target T --tasks-dir DIR -o repair.jsonl [--mutants K] PAIRS.jsonl...",
      "Write repair pairs: the repair prompt quoting a wrong answer and gasp's diagnostic, completed by the verified "
      "answer.",
      "The wrong answers are mutants of the verified pairs' answers, one edit each: a sibling opcode (add/sub,\n"
      "lt/gt, shl/shr), a type sibling (s32/u32/f32), two sources exchanged, a source register replaced by another\n"
      "of its file, another kernel parameter loaded, a constant changed, an instruction dropped. gasp bench judges\n"
      "every mutant (--backend files) like any answer; only those it fails enter, each with the prompt a repair turn\n"
      "would get (gasp bench --repair) and the verified answer as completion. Mutants gasp passes are equivalent and\n"
      "dropped. Without a GPU, PTX mutants that fail a static stage enter and those that would need the run stage are\n"
      "counted as not judged. Each line: {\"task\", \"family\", \"level\", \"target\", \"prompt\", \"completion\",\n"
      "\"verified\": true, \"repair\": {\"kind\", \"line\", \"class\", \"stage\"}}. A pairs file's lines for another\n"
      "target, or for a task not in DIR, are skipped; a task's later wordings share its first one's mutants.",
      opts};
  const char *pos[64];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 64);
  if (rc) return rc < 0 ? GASP_EXIT_OK : rc;
  if (!target || !dir || !out || npos < 1) {
    gasp_cli_error("corpus repair", "--target, --tasks-dir, -o and at least one pairs file are required");
    return GASP_EXIT_USAGE;
  }
  if (per < 1 || per > 16) {
    gasp_cli_error("corpus repair", "--mutants must be 1 to 16");
    return GASP_EXIT_USAGE;
  }
  const gasp_target *t = gasp_target_find(target);
  if (!t) {
    gasp_cli_error("corpus repair", "unknown target '%s' (see 'gasp targets')", target);
    return GASP_EXIT_USAGE;
  }
  gasp_diags d;
  gasp_diags_init(&d);
  gasp_taskset ts;
  if (gasp_taskset_load(dir, &ts, &d)) {
    cli_print_diags(&d, dir, stderr);
    gasp_diags_free(&d);
    return GASP_EXIT_ENV;
  }
  gasp_diags_free(&d);

  /* the verified pairs, one per task (the first line of a task: reworded files hold several) */
  source_pair *ps = NULL;
  int nps = 0, cps = 0;
  long lines_in = 0, other = 0;
  int *pair_of = malloc((ts.count + 1) * sizeof *pair_of); /* a task's pair, -1: none */
  for (size_t i = 0; i <= ts.count; i++) pair_of[i] = -1;
  for (int f = 0; f < npos; f++) {
    FILE *in = fopen(pos[f], "r");
    if (!in) {
      gasp_cli_error("corpus repair", "cannot read '%s'", pos[f]);
      rc = GASP_EXIT_ENV;
      goto done;
    }
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, in) > 0) {
      lines_in++;
      json_t *j = json_loads(line, 0, NULL);
      const char *id = json_string_value(json_object_get(j, "task"));
      const char *tg = json_string_value(json_object_get(j, "target"));
      const char *comp = json_string_value(json_object_get(j, "completion"));
      const gasp_task *task = id ? gasp_taskset_find(&ts, id) : NULL;
      if (!task || !comp || (tg && strcmp(tg, target)) || json_is_false(json_object_get(j, "verified"))) {
        other++;
        json_decref(j);
        continue;
      }
      size_t ti = (size_t)(task - ts.items);
      if (pair_of[ti] < 0) {
        pair_of[ti] = nps;
        if (nps == cps) ps = realloc(ps, (size_t)(cps = cps ? cps * 2 : 256) * sizeof *ps);
        ps[nps++] = (source_pair){task, strdup(comp), 0, 0};
      }
      json_decref(j);
    }
    free(line);
    fclose(in);
  }
  if (!nps) {
    gasp_cli_error("corpus repair", "no verified pair for target '%s' names a task of '%s' (%ld lines read)", target,
                   dir, lines_in);
    rc = GASP_EXIT_ENV;
    goto done;
  }

  /* the mutants, written as the files backend reads them: {task, sample, answer} */
  char mpath[1100], rpath[1100], tdir[1100];
  snprintf(mpath, sizeof mpath, "%s.mutants.jsonl", out);
  snprintf(rpath, sizeof rpath, "%s.results.jsonl", out);
  snprintf(tdir, sizeof tdir, "%s.tasks", out);
  mutant *ms = NULL;
  int nms = 0, cms = 0;
  kind_tally kt[16];
  memset(kt, 0, sizeof kt);
  FILE *mf = fopen(mpath, "w");
  if (!mf) {
    gasp_cli_error("corpus repair", "cannot write '%s'", mpath);
    rc = GASP_EXIT_ENV;
    goto done;
  }
  long no_code = 0;
  for (int i = 0; i < nps; i++) {
    gasp_extracted ex;
    gasp_diags ed;
    gasp_diags_init(&ed);
    int er = gasp_extract(ps[i].completion, strlen(ps[i].completion), t, &ex, &ed);
    gasp_diags_free(&ed);
    if (er) {
      no_code++;
      continue;
    }
    gasp_mutant *mm = NULL;
    int n = gasp_corpus_mutate(t->isa, ex.code, (uint64_t)seed, per, &mm);
    gasp_extracted_free(&ex);
    ps[i].first_mutant = nms;
    ps[i].nmutants = n;
    for (int k = 0; k < n; k++) {
      if (nms == cms) ms = realloc(ms, (size_t)(cms = cms ? cms * 2 : 1024) * sizeof *ms);
      ms[nms] = (mutant){gasp_corpus_completion(t->fence_tags, mm[k].code), mm[k].kind, mm[k].line, i, k};
      int ki = kind_index(mm[k].kind);
      if (ki >= 0) kt[ki].made++;
      json_t *row = json_pack("{s:s, s:i, s:s, s:s, s:i}", "task", ps[i].task->id, "sample", k, "answer", ms[nms].answer,
                              "kind", mm[k].kind, "line", mm[k].line);
      char *s = json_dumps(row, JSON_COMPACT | JSON_ENSURE_ASCII);
      fprintf(mf, "%s\n", s);
      free(s);
      json_decref(row);
      nms++;
    }
    gasp_mutants_free(mm, n);
  }
  fclose(mf);
  if (!nms) {
    gasp_cli_error("corpus repair", "no mutant could be made from the %d pairs", nps);
    rc = GASP_EXIT_FAIL;
    goto free_mutants;
  }
  if (link_tasks(tdir, dir, ps, nps)) {
    gasp_cli_error("corpus repair", "cannot link the tasks into '%s': %s", tdir, strerror(errno));
    rc = GASP_EXIT_ENV;
    goto free_mutants;
  }

  /* the judging is gasp bench itself, on the linked tasks, K samples each (a task with fewer mutants has its
   * missing samples recorded as errors, which are not mutants and are not counted) */
  if (!resume) unlink(rpath);
  double t0 = gasp_now_s();
  int brc = cli_run_bench(&(cli_bench_call){.target = target, .backend = "files", .results = rpath,
                                            .tasks_dir = tdir, .answers = mpath, .samples = per, .seed = seed,
                                            .workers = workers, .resume = resume, .quiet = quiet});
  double bench_s = gasp_now_s() - t0;
  int interrupted = brc == 130;
  if (brc != GASP_EXIT_OK && brc != GASP_EXIT_FAIL && !interrupted) {
    gasp_cli_error("corpus repair", "gasp bench failed (exit %d)", brc);
    rc = brc;
    goto free_mutants;
  }

  /* the judged mutants that failed: a repair pair each */
  FILE *in = fopen(rpath, "r"), *o = fopen(out, "w");
  if (!in || !o) {
    gasp_cli_error("corpus repair", "cannot %s '%s'", in ? "write" : "read", in ? out : rpath);
    if (in) fclose(in);
    if (o) fclose(o);
    rc = GASP_EXIT_ENV;
    goto free_mutants;
  }
  long classes[GASP_CLASS_COUNT] = {0}, written = 0;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, in)) > 0) {
    gasp_record rec;
    if (gasp_record_from_line(line, (size_t)len, &rec)) continue;
    const gasp_task *task = gasp_taskset_find(&ts, rec.task);
    const source_pair *sp = task && pair_of[task - ts.items] >= 0 ? &ps[pair_of[task - ts.items]] : NULL;
    if (!sp || rec.sample < 0 || rec.sample >= sp->nmutants || rec.turn) {
      gasp_record_free(&rec);
      continue;
    }
    const mutant *m = &ms[sp->first_mutant + rec.sample];
    int ki = kind_index(m->kind);
    kind_tally *k = ki >= 0 ? &kt[ki] : &kt[15];
    if (rec.cls == GASP_CLASS_PASS) {
      k->equivalent++;
    } else if (rec.cls == GASP_CLASS_SKIPPED || rec.cls == GASP_CLASS_UNSUPPORTED) {
      /* not judged: the run stage could not run here, or the emulator lacks an instruction the edit made */
      k->skipped++;
    } else if (rec.cls == GASP_CLASS_ERROR || strcmp(rec.answer, m->answer)) {
      /* not the mutant's verdict (the harness failed, or the answer recorded is not the one written) */
      k->skipped++;
    } else {
      k->wrong++;
      classes[rec.cls]++;
      char *failure = gasp_record_describe_failure(&rec);
      char *prompt = gasp_prompt_repair(t, task, GASP_VARIANT_DEFAULT, rec.answer, failure);
      char fam[32] = "reference";
      const char *last = strrchr(task->id, '_');
      if (!strncmp(task->id, "g_", 2) && last && last > task->id + 2)
        snprintf(fam, sizeof fam, "%.*s", (int)(last - task->id - 2), task->id + 2);
      json_t *p = json_pack("{s:s, s:s, s:i, s:s, s:s, s:s, s:b, s:{s:s, s:i, s:s, s:s}}", "task", task->id, "family",
                            fam, "level", task->level, "target", target, "prompt", prompt ? prompt : "", "completion",
                            sp->completion, "verified", 1, "repair", "kind", m->kind, "line", m->line, "class",
                            gasp_class_name(rec.cls), "stage", gasp_stage_name(rec.stage));
      char *s = json_dumps(p, JSON_COMPACT | JSON_ENSURE_ASCII);
      fprintf(o, "%s\n", s);
      free(s);
      json_decref(p);
      free(prompt);
      free(failure);
      written++;
    }
    gasp_record_free(&rec);
  }
  free(line);
  fclose(in);
  if (fclose(o)) {
    gasp_cli_error("corpus repair", "cannot write '%s'", out);
    rc = GASP_EXIT_ENV;
    goto free_mutants;
  }
  if (!quiet) {
    printf("\ncorpus repair %s: %d verified pairs, %d mutants, %ld repair pairs written to %s (gasp bench %.1f s)\n",
           target, nps, nms, written, out, bench_s);
    if (no_code) printf("%ld pairs had no code to extract (skipped)\n", no_code);
    printf("%-10s %8s %8s %11s %11s\n", "edit", "mutants", "wrong", "equivalent", "not judged");
    for (int i = 0; gasp_mutation_kinds[i]; i++)
      printf("%-10s %8ld %8ld %11ld %11ld\n", gasp_mutation_kinds[i], kt[i].made, kt[i].wrong, kt[i].equivalent,
             kt[i].skipped);
    printf("failure classes of the pairs:");
    for (int c = 0; c < GASP_CLASS_COUNT; c++)
      if (classes[c]) printf(" %s %ld", gasp_class_name((gasp_class)c), classes[c]);
    printf("\n");
  }
  rc = interrupted ? 130 : written ? GASP_EXIT_OK : GASP_EXIT_FAIL;
free_mutants:
  for (int i = 0; i < nms; i++) free(ms[i].answer);
  free(ms);
done:
  for (int i = 0; i < nps; i++) free(ps[i].completion);
  free(ps);
  free(pair_of);
  gasp_taskset_free(&ts);
  return rc;
}
