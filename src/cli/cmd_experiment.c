/* gasp experiment: the source article's experiment rerun from data. For one model (backend), every target
 * x prompt variant x repair setting is benchmarked over the whole suite (each a `gasp bench` run of this
 * same executable, resumable), and the claims of the article are tabulated from the records, each with
 * its sample count and a 95% Wilson confidence interval. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../bench/results.h"
#include "../core/util.h"
#include "../prompt/prompt.h"
#include "cli.h"
#include "common.h"

extern char **environ;

/* Wilson score interval for k successes in n trials, z = 1.96. */
static void wilson(long k, long n, double *lo, double *hi) {
  if (n <= 0) {
    *lo = *hi = 0;
    return;
  }
  double z = 1.96, p = (double)k / (double)n, d = 1 + z * z / n;
  double c = (p + z * z / (2.0 * n)) / d, h = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;
  *lo = c - h < 0 ? 0 : c - h;
  *hi = c + h > 1 ? 1 : c + h;
}

typedef struct {
  const char *target_isa;  /* "PTX", "ARB" or NULL for any */
  int level_lo, level_hi;
  const char *variant;     /* NULL: any */
  const char *task_glob;   /* NULL: any */
  int turn_max;            /* count a candidate correct if it passed by this turn */
  int metric;              /* 0: correct; 1: assembled (passed check and assembly); 2: parsed by our parser */
} selector;

/* Candidates (turn-0 records, skipped and infra errors excluded) matching sel, and how many were correct
 * by turn sel->turn_max. */
static void count(const gasp_rows *rows, const selector *sel, long *n, long *k) {
  *n = *k = 0;
  for (size_t i = 0; i < rows->count; i++) {
    const gasp_row *a = &rows->rows[i];
    /* assembly and parsing are measured without a GPU too; correctness is not */
    if (a->turn != 0 || a->infra_error || (a->cls == GASP_CLASS_SKIPPED && sel->metric == 0)) continue;
    if (sel->metric == 2 && a->parsed < 0) continue;
    if (a->level < sel->level_lo || a->level > sel->level_hi) continue;
    if (sel->variant && strcmp(a->variant, sel->variant)) continue;
    if (sel->task_glob && !gasp_glob_match(sel->task_glob, a->task)) continue;
    const gasp_target *t = gasp_target_find(a->target);
    if (sel->target_isa && (!t || strcmp(t->isa, sel->target_isa))) continue;
    int ok = 0;
    if (sel->metric == 1) ok = a->stage >= GASP_STAGE_ASSEMBLE;
    if (sel->metric == 2) ok = a->parsed == 1;
    for (size_t j = 0; j < rows->count && !ok && sel->metric == 0; j++) {
      const gasp_row *b = &rows->rows[j];
      ok = b->cls == GASP_CLASS_PASS && b->turn <= sel->turn_max && b->sample == a->sample && b->seed == a->seed &&
           !strcmp(a->task, b->task) && !strcmp(a->target, b->target) && !strcmp(a->backend, b->backend) &&
           !strcmp(a->model, b->model) && !strcmp(a->variant, b->variant);
    }
    (*n)++;
    *k += ok;
  }
}

static void row(FILE *o, const char *claim, const char *article, const gasp_rows *rows, const selector *sel) {
  long n, k;
  count(rows, sel, &n, &k);
  double lo, hi;
  wilson(k, n, &lo, &hi);
  if (n)
    fprintf(o, "| %s | %s | %.1f%% (%ld/%ld) | %.1f-%.1f%% |\n", claim, article, 100.0 * k / n, k, n, 100 * lo, 100 * hi);
  else
    fprintf(o, "| %s | %s | - (no candidates ran) | - |\n", claim, article);
}

int cmd_experiment(int argc, char **argv) {
  const char *out = NULL, *backend = NULL, *answers = NULL, *url = NULL, *model = NULL, *tasks = "*";
  gasp_multi targets = {{0}, 0};
  int samples = 1, repair = 3, seed = 1, max_tokens = 0;
  gasp_opt opts[] = {
      {"output", 'o', OPT_STR, "DIR", "directory for the results files and table.md (required)", &out},
      {"target", 't', OPT_MULTI, "T", "targets to compare (repeatable; default every target)", &targets},
      {"backend", 'b', OPT_STR, "B", "reference | files | openai | llama (default llama when --model is a .gguf "
                                     "file, GASP_MODEL is set or the shipped model is there, else reference)", &backend},
      {"answers", 0, OPT_STR, "PATH", "files backend: answers", &answers},
      {"url", 0, OPT_STR, "URL", "openai backend: base URL", &url},
      {"model", 'm', OPT_STR, "M", "llama backend: GGUF file (default $GASP_MODEL, else the shipped "
                                   "models/gasp-small.gguf); none: no model; openai backend: model name", &model},
      {"max-tokens", 0, OPT_INT, "N", "tokens per answer (default: bench's)", &max_tokens},
      {"tasks", 0, OPT_STR, "GLOB", "task ids (default all)", &tasks},
      {"samples", 'k', OPT_INT, "K", "answers per task and configuration (default 1)", &samples},
      {"repair", 0, OPT_INT, "N", "repair turns for the repaired arm (default 3; the other arm has 0)", &repair},
      {"seed", 0, OPT_INT, "N", "seed (default 1)", &seed},
      {0}};
  gasp_cmd_spec spec = {
      "experiment", "-o DIR [--target T ...] [--backend B ...] [--samples K]",
      "Rerun the source article's experiment for one model: targets x prompt variants, plus repair N and rewriter arms, "
      "over the whole suite, then the table of its claims with sample counts and 95% confidence intervals.",
      "Each configuration is a `gasp bench` run into DIR (resumable: run the same command again to continue).\n"
      "Writes DIR/table.md and prints it. With the llama backend a fourth arm decodes every variant under the\n"
      "target's grammar, and the table compares parse, assembly and correctness rates with and without it.",
      opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 0);
  if (rc) return rc < 0 ? 0 : rc;
  if (!out) {
    gasp_cli_error("experiment", "-o DIR is required");
    return GASP_EXIT_USAGE;
  }
  if (gasp_mkdir_p(out)) {
    gasp_cli_error("experiment", "cannot create '%s'", out);
    return GASP_EXIT_ENV;
  }
  if (!backend) backend = cli_default_backend(model);
  /* every arm runs the same file: the default model is resolved once, here */
  if (!strcmp(backend, "llama") && !model) model = cli_llama_model(NULL);
  int with_grammar = !strcmp(backend, "llama");
  if (!targets.n)
    for (const gasp_target *const *p = gasp_targets(); *p && targets.n < 16; p++) targets.v[targets.n++] = (*p)->name;
  /* arms: plain (every variant), repaired (best prompt, N turns), rewritten (best prompt, rewriters on), and
   * with the llama backend grammar-constrained (every variant) */
  char path[4][1200];
  snprintf(path[0], sizeof path[0], "%s/repair0.jsonl", out);
  snprintf(path[1], sizeof path[1], "%s/repair%d.jsonl", out, repair);
  snprintf(path[2], sizeof path[2], "%s/rewrite.jsonl", out);
  snprintf(path[3], sizeof path[3], "%s/grammar.jsonl", out);
  char ks[16], ss[16], rs[16], mt[16];
  snprintf(ks, sizeof ks, "%d", samples);
  snprintf(ss, sizeof ss, "%d", seed);
  snprintf(mt, sizeof mt, "%d", max_tokens);
  for (int arm = 0; arm < 3 + with_grammar; arm++) {
    snprintf(rs, sizeof rs, "%d", arm == 1 ? repair : 0);
    for (int ti = 0; ti < targets.n; ti++) {
      const gasp_target *tt = gasp_target_find(targets.v[ti]);
      if (arm == 3 && tt && !tt->grammar) continue; /* a target without a grammar has no grammar-on arm */
      for (const char *const *v = gasp_prompt_variants(); *v; v++) {
        /* the repaired arm is run with the full prompt only: it measures what repair adds to the best prompt */
        if ((arm == 1 || arm == 2) && strcmp(*v, GASP_VARIANT_DEFAULT)) continue;
        char *a[40];
        int n = 0;
        a[n++] = "gasp";
        a[n++] = "bench";
        a[n++] = "-q";
        a[n++] = "--resume";
        a[n++] = "--target";
        a[n++] = (char *)targets.v[ti];
        a[n++] = "--backend";
        a[n++] = (char *)backend;
        a[n++] = "--variant";
        a[n++] = (char *)*v;
        a[n++] = "--samples";
        a[n++] = ks;
        a[n++] = "--seed";
        a[n++] = ss;
        a[n++] = "--repair";
        a[n++] = rs;
        a[n++] = "--tasks";
        a[n++] = (char *)tasks;
        if (arm == 2) a[n++] = "--rewrite";
        if (with_grammar) { a[n++] = "--grammar"; a[n++] = arm == 3 ? "on" : "off"; }
        if (max_tokens > 0) { a[n++] = "--max-tokens"; a[n++] = mt; }
        if (answers) { a[n++] = "--answers"; a[n++] = (char *)answers; }
        if (url) { a[n++] = "--url"; a[n++] = (char *)url; }
        if (model) { a[n++] = "--model"; a[n++] = (char *)model; }
        a[n++] = "-o";
        a[n++] = path[arm];
        a[n] = NULL;
        fprintf(stderr, "experiment: %s, %s, repair %s%s\n", targets.v[ti], *v, rs,
                arm == 2 ? ", rewriters" : arm == 3 ? ", grammar on" : "");
        int r = cli_run_self(a);
        if (r == 2) {
          /* no task of this target matches: nothing to run there */
          continue;
        }
        if (r && r != 130) {
          gasp_cli_error("experiment", "bench failed (exit %d); rerun to resume", r);
          return GASP_EXIT_ENV;
        }
        if (r == 130) return 130;
      }
    }
  }
  gasp_rows r0, r1, r2, r3 = {0};
  char err[256];
  if (gasp_rows_load(path[0], &r0, err, sizeof err) || gasp_rows_load(path[1], &r1, err, sizeof err) ||
      gasp_rows_load(path[2], &r2, err, sizeof err) || (with_grammar && gasp_rows_load(path[3], &r3, err, sizeof err))) {
    gasp_cli_error("experiment", "%s", err);
    return GASP_EXIT_ENV;
  }
  char tpath[1300];
  snprintf(tpath, sizeof tpath, "%s/table.md", out);
  FILE *o = fopen(tpath, "w");
  if (!o) {
    gasp_cli_error("experiment", "cannot write '%s'", tpath);
    return GASP_EXIT_ENV;
  }
  fprintf(o, "# The article's claims, measured (backend %s%s%s, %d sample(s) per task, seed %d)\n\n", backend,
          model ? ", model " : "", model ? model : "", samples, seed);
  fprintf(o, "| claim | article | measured (correct/candidates) | 95%% CI |\n|---|---|---|---|\n");
  const char *full = GASP_VARIANT_DEFAULT;
  /* the claims, in the article's order; arm 0 is the plain run, 1 the repaired, 2 the rewritten */
  static const struct {
    const char *claim, *article;
    int arm;
    selector sel;
  } claims[] = {
      {"single instruction (L0), PTX", "> 92%", 0, {"PTX", 0, 0, GASP_VARIANT_DEFAULT, NULL, 0}},
      {"whole kernels (L2-L7), PTX", "22% (78% failure)", 0, {"PTX", 2, 7, GASP_VARIANT_DEFAULT, NULL, 0}},
      {"old side: R300 ARB programs, all levels", "92% (old AMD)", 0, {"ARB", 0, 7, GASP_VARIANT_DEFAULT, NULL, 0}},
      {"new side: PTX, all levels", "17% (4090 SASS)", 0, {"PTX", 0, 7, GASP_VARIANT_DEFAULT, NULL, 0}},
      {"new side: SASS (our assembler), all levels", "17% (4090 SASS)", 0, {"SASS", 0, 7, GASP_VARIANT_DEFAULT, NULL, 0}},
      {"AMD GCN/RDNA (gfx900, gfx1030, gfx1100; our emulator), all levels", "GFX9/10/11 reported", 0,
       {"AMDGCN", 0, 7, GASP_VARIANT_DEFAULT, NULL, 0}},
      {"whole kernels (L2-L7), AMD GCN/RDNA", "-", 0, {"AMDGCN", 2, 7, GASP_VARIANT_DEFAULT, NULL, 0}},
      {"dot product, bare prompt", "31%", 0, {NULL, 0, 7, "bare", "*dot3", 0}},
      {"dot product, three-layer template + example + facts", "89%", 0, {NULL, 0, 7, GASP_VARIANT_DEFAULT, "*dot3", 0}},
      {NULL, NULL, 0, {0}}, /* one row per prompt variant goes here */
      {"branches (L3), old side (R300: no branches, CMP)", "81%", 0, {"ARB", 3, 3, GASP_VARIANT_DEFAULT, NULL, 0}},
      {"branches (L3), PTX", "12%", 0, {"PTX", 3, 3, GASP_VARIANT_DEFAULT, NULL, 0}},
      {"warp-level (L4: shuffles, votes)", "fails (72% of failures: SHFL mask)", 0, {"PTX", 4, 4, GASP_VARIANT_DEFAULT, NULL, 0}},
      {"shared memory and barriers (L5)", "fails", 0, {"PTX", 5, 5, GASP_VARIANT_DEFAULT, NULL, 0}},
      {"all tasks, before repair (repaired arm, turn 0)", "-", 1, {NULL, 0, 7, GASP_VARIANT_DEFAULT, NULL, 0}},
      {NULL, NULL, 1, {0}}, /* after repair: turn_max is the run's --repair */
      {"all tasks, with the rewriters (alignment split, SASS hazards, AMD s_waitcnt)", "alignment checker: rewrite unaligned loads; 63% -> 1.2% hazards", 2,
       {NULL, 0, 7, GASP_VARIANT_DEFAULT, NULL, 0}},
  };
  const gasp_rows *arms[4] = {&r0, &r1, &r2, &r3};
  for (size_t c = 0; c < sizeof claims / sizeof claims[0]; c++) {
    if (claims[c].claim) {
      row(o, claims[c].claim, claims[c].article, arms[claims[c].arm], &claims[c].sel);
    } else if (claims[c].arm == 0) {
      for (const char *const *v = gasp_prompt_variants(); *v; v++) {
        char claim[96];
        snprintf(claim, sizeof claim, "all tasks, prompt variant %s", *v);
        selector s = {NULL, 0, 7, *v, NULL, 0};
        row(o, claim, "-", &r0, &s);
      }
    } else {
      char claim[96];
      snprintf(claim, sizeof claim, "all tasks, after up to %d repair turns", repair);
      selector s = {NULL, 0, 7, full, NULL, repair};
      row(o, claim, "19% -> 0.3% register overflow; 67% -> 5% conflicts", &r1, &s);
    }
  }
  if (with_grammar) {
    /* the grammar's promise is well-formed answers: parse and assembly rates are measured with or without a
     * GPU; correctness only where candidates ran */
    static const char *const what[] = {"correct", "assembled", "parsed by gasp's parser"};
    for (int g = 0; g < 2; g++)
      for (int m = 2; m >= 0; m--) {
        char claim[128];
        snprintf(claim, sizeof claim, "all tasks, grammar %s: %s", g ? "on" : "off", what[m]);
        selector s = {NULL, 0, 7, NULL, NULL, 0, m};
        row(o, claim, g ? "(not in the article: our addition)" : "-", g ? &r3 : &r0, &s);
      }
  }
  fprintf(o, "\n%s"
             "Correctness cells exclude candidates that could not run here (no GPU: class skipped); parse and assembly "
             "cells count them.\n",
          with_grammar ? "" : "Grammar on/off: only with the llama backend (--model M.gguf).\n");
  fclose(o);
  gasp_rows_free(&r0);
  gasp_rows_free(&r1);
  gasp_rows_free(&r2);
  gasp_rows_free(&r3);
  char *text;
  size_t len;
  if (gasp_read_file(tpath, 1 << 20, &text, &len) == 0) {
    fputs(text, stdout);
    free(text);
  }
  return 0;
}
