/* gasp corpus: the training corpus of issue 9. `gen` writes generated task families (src/corpus/); `build`
 * runs the reference backend over a task directory through gasp bench itself and turns the verified
 * records into (prompt, completion) pairs, one JSON line each. */
#define _GNU_SOURCE
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../corpus/corpus.h"
#include "../extract/extract.h"
#include "../prompt/prompt.h"
#include "../target/target.h"
#include "cli.h"
#include "common.h"

static int corpus_gen(int argc, char **argv) {
  const char *out = NULL, *fams = NULL;
  int seed = 1, count = 100, quiet = 0;
  gasp_opt opts[] = {
      {"seed", 's', OPT_INT, "S", "seed: the same seed writes the same bytes (default 1)", &seed},
      {"count", 'n', OPT_INT, "N", "tasks to write, spread over the families (default 100)", &count},
      {"output", 'o', OPT_STR, "DIR", "the directory to write (YAML tasks, DIR/amdgcn/*.cl), required", &out},
      {"families", 0, OPT_STR, "LIST", "comma-separated families (default all; listed below)", &fams},
      {"quiet", 'q', OPT_FLAG, NULL, "print nothing but errors", &quiet},
      {NULL, 0, 0, NULL, NULL, NULL}};
  gasp_cmd_spec spec = {
      "corpus gen", "--seed S --count N -o DIR [--families LIST]",
      "Write generated tasks (ids g_<family>_<n>) for the training corpus, excluding the benchmark's tasks.",
      "Families: ew_op (L0, one instruction, a snippet), ew_seq (L1, a straight-line snippet of up to six inputs),\n"
      "ew_idiom (L1, the short forms kernels are made of: dot products, lerp, clamp, polynomials, selects, bit\n"
      "fields; other orders, constants and names than the benchmark's), ew_kernel (L2 whole\n"
      "kernels with bounds guard; scalar parameters, strided and offset indexing), ew_gridstride (L3, grid-stride\n"
      "loops), loop (L3, a loop per element whose trip count is data), reduce (L4 warp and L5 block sum, min, max),\n"
      "scan (L4 warp and L5 block scans), transpose (L2 plain, L5 shared-memory tiles), arb (r300 ARB fragment and\n"
      "vertex programs over vec4), ew_near (L0/L1, the benchmark's one-instruction computations at another type or\n"
      "operand order, or as one step of two, never the computation itself), ew_array (L2, short kernels, a copy or\n"
      "one to three operations, whose parameters are named as kernels are: a, b -> c; in -> out; x, scale, bias ...),\n"
      "ew_order (L1, ew_idiom's shapes with their operands in every order: dot products in each chain order,\n"
      "interpolations and clamps with the roles permuted), ew_shape (L1, ew_idiom's forms, each as often as the\n"
      "others: the same computation under other register names is kept, so that clamps, selects and interpolations\n"
      "are not crowded out by polynomials), ew_kin (L1, the structures of clamp_f32, lerp_f32, dot3, select_sign and\n"
      "abs_diff_u32, operands in the benchmark's order, at the types the benchmark does not use: s32, u32, f64, f32\n"
      "for the absolute difference), ew_kin_order (L1, ew_kin's structures with the listed inputs read in another\n"
      "order, so that only the description binds the roles: lerp's addend, clamp's bounds), ew_array_near (L2,\n"
      "kernels around vector_add, relu_array and saxpy: their computation at f64 or an integer type, or one step\n"
      "away, with ew_array's names). ew_near, ew_array, ew_order, ew_shape, ew_kin, ew_kin_order and ew_array_near\n"
      "are made only when named:\n"
      "the default set is the others, so that a documented seed\n"
      "writes what it wrote. Types f32, f64, s32, u32 and conversions;\n"
      "f16 is not a task dtype, so there are no f16 tasks. Every task carries `map:` (its CPU reference, exact IEEE\n"
      "semantics), a CUDA reference and, except ARB tasks, an OpenCL C reference in DIR/amdgcn/. A generated task\n"
      "whose id or computation (canonical form) is one of the benchmark's ($GASP_TASKS_DIR or tasks/) is skipped.",
      opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 0);
  if (rc) return rc < 0 ? GASP_EXIT_OK : rc;
  if (!out || count < 1) {
    gasp_cli_error("corpus gen", "-o DIR and --count N >= 1 are required");
    return GASP_EXIT_USAGE;
  }
  /* an unknown family is a usage error */
  for (const char *p = fams; p && *p;) {
    size_t l = strcspn(p, ",");
    int ok = 0;
    for (const char *const *f = gasp_corpus_families(); *f; f++) ok |= strlen(*f) == l && !strncmp(*f, p, l);
    if (!ok) {
      gasp_cli_error("corpus gen", "unknown family '%.*s' (see 'gasp corpus gen --help')", (int)l, p);
      return GASP_EXIT_USAGE;
    }
    p += l + (p[l] == ',');
  }
  gasp_diags d;
  gasp_diags_init(&d);
  gasp_taskset bench;
  if (gasp_taskset_load(gasp_tasks_dir(), &bench, &d)) {
    cli_print_diags(&d, "tasks", stderr);
    return GASP_EXIT_ENV;
  }
  gasp_diags_free(&d);
  gasp_diags_init(&d);
  gasp_corpus_gen_opts o = {(uint64_t)seed, count, fams, &bench};
  gasp_corpus_gen_stats st;
  double t0 = gasp_now_s();
  rc = gasp_corpus_gen(&o, out, &st, &d);
  for (size_t i = 0; i < d.count; i++)
    if (d.items[i].sev == GASP_SEV_ERROR) gasp_cli_error("corpus gen", "%s", d.items[i].msg);
    else fprintf(stderr, "gasp corpus gen: warning: %s\n", d.items[i].msg);
  gasp_diags_free(&d);
  gasp_taskset_free(&bench);
  if (rc) return GASP_EXIT_ENV;
  /* every written task must load: the generator's self-check */
  gasp_taskset ts;
  gasp_diags_init(&d);
  gasp_taskset_load(out, &ts, &d);
  int bad = (int)d.count;
  cli_print_diags(&d, out, stderr);
  gasp_diags_free(&d);
  if (!quiet) {
    printf("wrote %d tasks into %s in %.1f s (%zu load)\n", st.written, out, gasp_now_s() - t0, ts.count);
    printf("skipped: %d with a benchmark id, %d the same computation as a benchmark task, %d duplicates\n",
           st.skipped_bench_id, st.skipped_bench_same, st.skipped_duplicate);
    const char *const *f = gasp_corpus_families();
    for (int i = 0; f[i]; i++)
      if (st.per_family[i]) printf("  %-14s %d\n", f[i], st.per_family[i]);
    for (int l = 0; l < 8; l++)
      if (st.per_level[l]) printf("  L%d %d\n", l, st.per_level[l]);
  }
  gasp_taskset_free(&ts);
  if (bad) {
    gasp_cli_error("corpus gen", "%d generated task(s) do not load", bad);
    return GASP_EXIT_ENV;
  }
  return GASP_EXIT_OK;
}

/* the family of a task: g_<family>_<n> for generated ones, "reference" for others */
static void family_of(const char *id, char *buf, size_t cap) {
  const char *last = strrchr(id, '_');
  if (!strncmp(id, "g_", 2) && last && last > id + 2) snprintf(buf, cap, "%.*s", (int)(last - id - 2), id + 2);
  else snprintf(buf, cap, "reference");
}

typedef struct {
  char family[32];
  int level;
  long pass, fail, skip, chars;
} tally;

static tally *tally_get(tally *tl, int *n, const char *family, int level) {
  for (int i = 0; i < *n; i++)
    if (!strcmp(tl[i].family, family) && tl[i].level == level) return &tl[i];
  if (*n == 64) return &tl[63];
  tally *t = &tl[(*n)++];
  memset(t, 0, sizeof *t);
  gasp_strlcpy(t->family, family, sizeof t->family);
  t->level = level;
  return t;
}

/* The task directory's tasks, or its load errors printed (file:line:col) and -1 */
static int load_tasks(const char *dir, gasp_taskset *ts) {
  gasp_diags d;
  gasp_diags_init(&d);
  int rc = gasp_taskset_load(dir, ts, &d);
  if (rc) cli_print_diags(&d, dir, stderr);
  gasp_diags_free(&d);
  return rc ? -1 : 0;
}

static int corpus_build(int argc, char **argv) {
  const char *target = NULL, *dir = NULL, *out = NULL, *results = NULL, *glob = NULL;
  int resume = 0, workers = 0, allow_unverified = 0, quiet = 0, seed = 1;
  gasp_opt opts[] = {
      {"target", 't', OPT_STR, "T", "the target (gfx900, gfx1030, gfx1100, r300, ptx-sm90, ...), required", &target},
      {"tasks-dir", 0, OPT_STR, "DIR", "the task directory (gasp corpus gen's output), required", &dir},
      {"output", 'o', OPT_STR, "FILE", "the pairs file (JSONL), required", &out},
      {"results", 0, OPT_STR, "FILE", "gasp bench's results file kept beside (default FILE.results.jsonl)", &results},
      {"tasks", 0, OPT_STR, "GLOB", "only task ids matching GLOB", &glob},
      {"resume", 0, OPT_FLAG, NULL, "continue an interrupted build (gasp bench --resume on the results file)", &resume},
      {"workers", 'j', OPT_INT, "K", "worker processes judging candidates at once (gasp bench --workers)", &workers},
      {"seed", 0, OPT_INT, "N", "seed of the verification inputs (default 1)", &seed},
      {"allow-unverified", 0, OPT_FLAG, NULL, "write pairs whose run stage was skipped (no GPU), marked \"verified\": false", &allow_unverified},
      {"quiet", 'q', OPT_FLAG, NULL, "no progress and no tables", &quiet},
      {NULL, 0, 0, NULL, NULL, NULL}};
  gasp_cmd_spec spec = {
      "corpus build", "--target T --tasks-dir DIR -o pairs.jsonl [--resume] [--workers K] [--allow-unverified]",
      "Verify every task's reference answer with gasp bench --backend reference and write the passing ones as "
      "(prompt, completion) pairs.",
      "Each line: {\"task\", \"family\", \"level\", \"target\", \"prompt\", \"completion\", \"verified\", \"checks\"}.\n"
      "prompt is exactly what 'gasp prompt' builds for the task and target (default variant); completion is the\n"
      "verified code in the fence the prompt asks for (```ptx, ```amdgcn, ```arb), ending with the closing fence.\n"
      "Only candidates whose final stage passed enter. Without a GPU the PTX run stage is skipped: then no pair is\n"
      "written unless --allow-unverified (exit 4 otherwise). The results file holds every record (failures too).",
      opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 0);
  if (rc) return rc < 0 ? GASP_EXIT_OK : rc;
  if (!target || !dir || !out) {
    gasp_cli_error("corpus build", "--target, --tasks-dir and -o are required");
    return GASP_EXIT_USAGE;
  }
  const gasp_target *t = gasp_target_find(target);
  if (!t) {
    gasp_cli_error("corpus build", "unknown target '%s' (see 'gasp targets')", target);
    return GASP_EXIT_USAGE;
  }
  char resbuf[1100];
  if (!results) {
    snprintf(resbuf, sizeof resbuf, "%s.results.jsonl", out);
    results = resbuf;
  }
  if (!resume) unlink(results);
  /* the verification is gasp bench itself: same pipeline, same records */
  double t0 = gasp_now_s();
  rc = cli_run_bench(&(cli_bench_call){.target = target, .backend = "reference", .results = results,
                                       .tasks_dir = dir, .tasks_glob = glob, .seed = seed, .workers = workers, .resume = resume,
                                       .quiet = quiet});
  /* interrupted (SIGINT, e.g. `timeout -s INT`): the pairs of what was judged are still written, and --resume
   * continues; every judged record is complete (bench writes it whole and flushes) */
  int interrupted = rc == 130;
  if (rc != GASP_EXIT_OK && rc != GASP_EXIT_FAIL && !interrupted) {
    gasp_cli_error("corpus build", "gasp bench failed (exit %d)", rc);
    return rc;
  }
  if (interrupted) fprintf(stderr, "gasp corpus build: interrupted: writing the pairs judged so far (--resume continues)\n");
  double bench_s = gasp_now_s() - t0;

  gasp_taskset ts;
  if (load_tasks(dir, &ts)) return GASP_EXIT_ENV;
  FILE *in = fopen(results, "rb");
  if (!in) {
    gasp_cli_error("corpus build", "cannot read '%s'", results);
    gasp_taskset_free(&ts);
    return GASP_EXIT_ENV;
  }
  /* first pass: what would enter, and whether anything was left unverified */
  tally tl[64];
  int ntl = 0;
  long skipped_total = 0, pass_total = 0, written = 0, prompt_chars = 0, completion_chars = 0, mismatched = 0;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  json_t **recs = NULL;
  size_t nrec = 0, rcap = 0;
  while ((len = getline(&line, &cap, in)) > 0) {
    json_t *j = json_loads(line, 0, NULL);
    if (!j) continue;
    const char *tgt = json_string_value(json_object_get(j, "target"));
    const char *backend = json_string_value(json_object_get(j, "backend"));
    if (!tgt || strcmp(tgt, target) || !backend || strcmp(backend, "reference")) {
      json_decref(j);
      continue;
    }
    if (nrec == rcap) {
      rcap = rcap ? rcap * 2 : 256;
      recs = realloc(recs, rcap * sizeof *recs);
    }
    recs[nrec++] = j;
    const char *cls = json_string_value(json_object_get(j, "class"));
    if (cls && !strcmp(cls, "skipped")) skipped_total++;
    if (json_is_true(json_object_get(j, "pass"))) pass_total++;
  }
  free(line);
  fclose(in);
  if (skipped_total && !allow_unverified) {
    gasp_cli_error("corpus build",
                   "%ld candidates were not run (no GPU here: run stage skipped); no pairs written. Run this on a machine "
                   "with the GPU, or pass --allow-unverified to write them marked \"verified\": false",
                   skipped_total);
    for (size_t i = 0; i < nrec; i++) json_decref(recs[i]);
    free(recs);
    gasp_taskset_free(&ts);
    return GASP_EXIT_SKIPPED;
  }
  FILE *o = fopen(out, "wb");
  if (!o) {
    gasp_cli_error("corpus build", "cannot write '%s'", out);
    for (size_t i = 0; i < nrec; i++) json_decref(recs[i]);
    free(recs);
    gasp_taskset_free(&ts);
    return GASP_EXIT_ENV;
  }
  for (size_t i = 0; i < nrec; i++) {
    json_t *j = recs[i];
    const char *id = json_string_value(json_object_get(j, "task"));
    const char *cls = json_string_value(json_object_get(j, "class"));
    const char *stage = json_string_value(json_object_get(j, "stage"));
    const char *answer = json_string_value(json_object_get(j, "answer"));
    const gasp_task *task = id ? gasp_taskset_find(&ts, id) : NULL;
    char fam[32];
    family_of(id ? id : "", fam, sizeof fam);
    int level = (int)json_integer_value(json_object_get(j, "level"));
    tally *ty = tally_get(tl, &ntl, fam, level);
    int pass = json_is_true(json_object_get(j, "pass")), skipped = cls && !strcmp(cls, "skipped");
    if (pass) ty->pass++;
    else if (skipped) ty->skip++;
    else ty->fail++;
    if (!task || !answer || !(pass || (skipped && allow_unverified))) {
      json_decref(j);
      continue;
    }
    /* the code the pipeline judged is what extraction takes from the reference's answer */
    gasp_extracted ex, back;
    memset(&back, 0, sizeof back);
    gasp_diags ed;
    gasp_diags_init(&ed);
    if (gasp_extract(answer, strlen(answer), t, &ex, &ed)) {
      gasp_diags_free(&ed);
      json_decref(j);
      mismatched++;
      continue;
    }
    char *completion = gasp_corpus_completion(t->fence_tags, ex.code);
    /* and a model emitting the completion must give back exactly that code */
    int same = gasp_extract(completion, strlen(completion), t, &back, &ed) == 0 && !strcmp(back.code, ex.code);
    if (back.code) gasp_extracted_free(&back);
    gasp_diags_free(&ed);
    char *prompt = gasp_prompt_build(t, task, GASP_VARIANT_DEFAULT);
    if (!same || !prompt) {
      mismatched++;
    } else {
      json_t *p = json_object();
      json_object_set_new(p, "task", json_string(id));
      json_object_set_new(p, "family", json_string(fam));
      json_object_set_new(p, "level", json_integer(task->level));
      json_object_set_new(p, "target", json_string(target));
      json_object_set_new(p, "prompt", json_string(prompt));
      json_object_set_new(p, "completion", json_string(completion));
      json_object_set_new(p, "verified", json_boolean(pass));
      json_t *ck = json_object();
      /* the stages every candidate goes through: a pass passed them all; a skipped candidate (no GPU) passed
       * those up to its record's stage (the last one completed) and skipped the rest */
      static const char *const stages[] = {"extract", "check", "assemble", "load", "run", "verify"};
      json_t *st = json_object();
      int reached = 1;
      for (int k = 0; k < 6; k++) {
        json_object_set_new(st, stages[k], json_string(pass || reached ? "pass" : "skipped"));
        if (stage && !strcmp(stage, stages[k])) reached = 0;
      }
      json_object_set_new(ck, "stages", st);
      json_object_set_new(ck, "stage", json_string(stage ? stage : ""));
      json_object_set_new(ck, "class", json_string(cls ? cls : ""));
      json_object_set(ck, "gpu_ran", json_object_get(j, "gpu_ran"));
      json_object_set(ck, "trials", json_object_get(j, "trials"));
      json_object_set(ck, "seed", json_object_get(j, "seed"));
      json_object_set_new(ck, "backend", json_string("reference"));
      json_object_set_new(p, "checks", ck);
      char *s = json_dumps(p, JSON_COMPACT | JSON_ENSURE_ASCII);
      fprintf(o, "%s\n", s);
      free(s);
      json_decref(p);
      written++;
      prompt_chars += (long)strlen(prompt);
      completion_chars += (long)strlen(completion);
      ty->chars += (long)(strlen(prompt) + strlen(completion));
    }
    free(prompt);
    free(completion);
    gasp_extracted_free(&ex);
    json_decref(j);
  }
  free(recs);
  fclose(o);
  gasp_taskset_free(&ts);
  if (!quiet) {
    printf("\ncorpus build %s: %ld pairs written to %s (%ld passed verification%s), gasp bench %.1f s\n", target, written,
           out, pass_total, skipped_total ? ", the others unverified: run stage skipped" : "", bench_s);
    printf("%-14s %5s %6s %6s %6s %10s\n", "family", "level", "pass", "fail", "skip", "chars");
    for (int i = 0; i < ntl; i++)
      printf("%-14s %5d %6ld %6ld %6ld %10ld\n", tl[i].family, tl[i].level, tl[i].pass, tl[i].fail, tl[i].skip, tl[i].chars);
    printf("prompt chars %ld (mean %.0f), completion chars %ld (mean %.0f)\n", prompt_chars,
           written ? (double)prompt_chars / written : 0.0, completion_chars, written ? (double)completion_chars / written : 0.0);
  }
  if (mismatched) {
    gasp_cli_error("corpus build", "%ld verified answers did not survive the fence round trip (not written)", mismatched);
    return GASP_EXIT_FAIL;
  }
  return interrupted ? 130 : GASP_EXIT_OK;
}

/* Whether the completion names one of the task's registers (%a, not %ab): then its parameters cannot be renamed
 * without changing the verified answer (PTX reads them by name; AMD's answer reads v2, v3, ... in order) */
static int names_params(const char *completion, const gasp_task *t) {
  for (int i = 0; i < t->nparams; i++) {
    size_t n = strlen(t->params[i].name);
    for (const char *p = strchr(completion, '%'); p; p = strchr(p + 1, '%'))
      if (!strncmp(p + 1, t->params[i].name, n) && !(isalnum((unsigned char)p[1 + n]) || p[1 + n] == '_')) return 1;
  }
  return 0;
}

static int corpus_reword(int argc, char **argv) {
  const char *dir = NULL, *out = NULL;
  int wordings = 3, rename = 0, quiet = 0, drop_perm = 0;
  gasp_opt opts[] = {
      {"tasks-dir", 0, OPT_STR, "DIR", "the task directory the pairs were built from, required", &dir},
      {"output", 'o', OPT_STR, "FILE", "the pairs file to write (JSONL), required", &out},
      {"wordings", 'k', OPT_INT, "K", "wordings of each pair, its own included (1-7, default 3)", &wordings},
      {"rename", 0, OPT_FLAG, NULL, "other register names too, where the answer does not name them (AMD)", &rename},
      {"drop-permuted", 0, OPT_FLAG, NULL, "leave out pairs whose task is a benchmark computation with its inputs in another order", &drop_perm},
      {"quiet", 'q', OPT_FLAG, NULL, "no summary", &quiet},
      {NULL, 0, 0, NULL, NULL, NULL}};
  gasp_cmd_spec spec = {
      "corpus reword", "--tasks-dir DIR [--wordings K] [--rename] [--drop-permuted] -o OUT.jsonl PAIRS.jsonl...",
      "Write each verified pair of a generated element-wise task again under other wordings of the same task: another "
      "description form, phrasing of the types and operations (\"popc(%a)\" or \"the number of 1 bits in %a\"), register "
      "sentence and title (and with --rename other register names).",
      "The map, and so the verified answer, is the same: the completion is copied unchanged and each new prompt is\n"
      "what 'gasp prompt' builds for the reworded task. Element-wise kernels keep their register names and the\n"
      "generator's sentences on indexing and launch. A pair whose task has one wording (reductions, scans,\n"
      "transposes, loops, ARB programs, tasks not generated) is written once. Every pair's own prompt is built again\n"
      "as 'gasp prompt' builds it now (a pair whose task is not in DIR keeps its prompt). Each line gains\n"
      "\"wording\": 0 for the pair's own, 1.. for the others. Exit 1 when a line is not a pair or a task could not\n"
      "be reworded (a kernel whose description is not the generator's: its pair is still written once).\n"
      "Why: a small model trained on one wording per task follows the wording, not the computation\n"
      "(tools/train/README.md, \"The fifth run\").\n"
      "--drop-permuted leaves out a pair whose task is one of the benchmark's computations with inputs of one type\n"
      "exchanged (fma(b, c, a) for fma_f32's fma(a, b, c), b - a for sub_f32): the generator skips the exact\n"
      "computations, so such permutations are all a model sees of that shape, and the tenth run's models answered\n"
      "with them (tools/train/README.md, \"The tenth run\").",
      opts};
  const char *pos[64];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 64);
  if (rc) return rc < 0 ? GASP_EXIT_OK : rc;
  if (!dir || !out || npos < 1) {
    gasp_cli_error("corpus reword", "--tasks-dir, -o and at least one pairs file are required");
    return GASP_EXIT_USAGE;
  }
  if (wordings < 1 || wordings > GASP_CORPUS_FORMS) {
    gasp_cli_error("corpus reword", "--wordings must be 1 to %d", GASP_CORPUS_FORMS);
    return GASP_EXIT_USAGE;
  }
  gasp_taskset ts;
  if (load_tasks(dir, &ts)) return GASP_EXIT_ENV;
  FILE *o = fopen(out, "wb");
  if (!o) {
    gasp_cli_error("corpus reword", "cannot write '%s'", out);
    gasp_taskset_free(&ts);
    return GASP_EXIT_ENV;
  }
  long pairs = 0, written = 0, as_is = 0, renamed = 0, bad = 0, unreworded = 0, dropped = 0;
  rc = GASP_EXIT_OK;
  for (int f = 0; f < npos && rc == GASP_EXIT_OK; f++) {
    FILE *in = fopen(pos[f], "rb");
    if (!in) {
      gasp_cli_error("corpus reword", "cannot read '%s'", pos[f]);
      rc = GASP_EXIT_ENV;
      break;
    }
    char *line = NULL;
    size_t cap = 0;
    long ln = 0;
    while (getline(&line, &cap, in) > 0) {
      ln++;
      json_error_t je;
      json_t *j = json_loads(line, 0, &je);
      const char *id = j ? json_string_value(json_object_get(j, "task")) : NULL;
      const char *tgt = j ? json_string_value(json_object_get(j, "target")) : NULL;
      const char *prompt = j ? json_string_value(json_object_get(j, "prompt")) : NULL;
      const char *completion = j ? json_string_value(json_object_get(j, "completion")) : NULL;
      if (!id || !tgt || !prompt || !completion) {
        fprintf(stderr, "%s:%ld: not a pair (task, target, prompt, completion): skipped\n", pos[f], ln);
        bad++;
        json_decref(j);
        continue;
      }
      pairs++;
      const gasp_task *t = gasp_taskset_find(&ts, id);
      const gasp_target *tg = gasp_target_find(tgt);
      if (drop_perm && t && t->map) {
        gasp_map m;
        char e[160];
        if (!gasp_map_parse(t->map, t, &m, NULL, e, sizeof e) && gasp_corpus_is_bench_permutation(&m, t, NULL, 0)) {
          dropped++;
          json_decref(j);
          continue;
        }
      }
      /* the pair's own wording under the prompt gasp builds now: a pair kept from an earlier build (tools/train/data)
       * trains on the prompt the benchmark will show (the Data line of 2026-12-05 came after most pairs were made) */
      char *own = t && tg ? gasp_prompt_build(tg, t, GASP_VARIANT_DEFAULT) : NULL;
      if (own) json_object_set_new(j, "prompt", json_string(own)), prompt = json_string_value(json_object_get(j, "prompt"));
      free(own);
      json_object_set_new(j, "wording", json_integer(0));
      char *s = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
      fprintf(o, "%s\n", s);
      free(s);
      written++;
      if (!t || !tg || !t->map) {
        as_is++;
        json_decref(j);
        continue;
      }
      char *seen[GASP_CORPUS_FORMS];
      int nseen = 0;
      seen[nseen++] = strdup(prompt);
      int can_rename = rename && !names_params(completion, t);
      for (int k = 1; k < wordings; k++) {
        gasp_task w;
        gasp_str desc;
        char err[240];
        int rr = gasp_corpus_reword(t, k, can_rename, &w, &desc, err, sizeof err);
        if (rr == -2) { /* one wording: kept as it is */
          as_is++;
          break;
        }
        if (rr) {
          fprintf(stderr, "%s:%ld: %s\n", pos[f], ln, err);
          unreworded++;
          break;
        }
        char *p = gasp_prompt_build(tg, &w, GASP_VARIANT_DEFAULT);
        gasp_str_free(&desc);
        int other_names = 0; /* a kernel is never renamed */
        for (int i = 0; i < t->nparams; i++) other_names |= strcmp(w.params[i].name, t->params[i].name) != 0;
        int dup = !p;
        for (int i = 0; p && i < nseen; i++) dup |= !strcmp(seen[i], p);
        if (dup) {
          free(p);
          continue;
        }
        seen[nseen++] = p;
        json_t *v = json_copy(j);
        json_object_set_new(v, "prompt", json_string(p));
        json_object_set_new(v, "wording", json_integer(k));
        s = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII);
        fprintf(o, "%s\n", s);
        free(s);
        json_decref(v);
        written++;
        renamed += other_names;
      }
      for (int i = 0; i < nseen; i++) free(seen[i]);
      json_decref(j);
    }
    free(line);
    fclose(in);
  }
  if (fclose(o) && rc == GASP_EXIT_OK) {
    gasp_cli_error("corpus reword", "cannot write '%s'", out);
    rc = GASP_EXIT_ENV;
  }
  gasp_taskset_free(&ts);
  if (!quiet && rc == GASP_EXIT_OK) {
    printf("corpus reword: %ld pairs in, %ld written to %s (%ld kept as they were: one wording only; %ld with other "
           "register names; %ld written once, not reworded: errors above); %ld lines skipped (not pairs)",
           pairs, written, out, as_is, renamed, unreworded, bad);
    if (drop_perm) printf("; %ld pairs left out: a benchmark computation with its inputs in another order", dropped);
    printf("\n");
  }
  return rc != GASP_EXIT_OK ? rc : bad || unreworded ? GASP_EXIT_FAIL : GASP_EXIT_OK;
}

int cmd_corpus(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "gen")) return corpus_gen(argc - 1, argv + 1);
  if (argc >= 2 && !strcmp(argv[1], "build")) return corpus_build(argc - 1, argv + 1);
  if (argc >= 2 && !strcmp(argv[1], "reword")) return corpus_reword(argc - 1, argv + 1);
  if (argc >= 2 && !strcmp(argv[1], "repair")) return cmd_corpus_repair(argc - 1, argv + 1);
  FILE *f = argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) ? stdout : stderr;
  fprintf(f, "usage: gasp corpus gen|build|reword|repair [options]\n\n"
             "  gen    write generated task families into a directory (gasp corpus gen --help)\n"
             "  build  verify a directory's reference answers and write (prompt, completion) pairs (gasp corpus build --help)\n"
             "  reword write verified pairs again under other wordings of their tasks (gasp corpus reword --help)\n"
             "  repair write repair pairs: a wrong mutant of a verified answer, gasp's diagnostic, the verified answer\n"
             "         (gasp corpus repair --help)\n");
  return f == stdout ? GASP_EXIT_OK : GASP_EXIT_USAGE;
}
