/* gasp tune: improve a GGUF model on its own verified answers. Each round generates K samples per task with the
 * current model (gasp bench, llama backend, the grammar on where the target has one), keeps the answers that
 * pass verification as (prompt, answer) pairs, prepares them, fine-tunes (gasp train finetune, or an external
 * trainer run by argv), and measures the pass rate again: the lift of the round. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "../core/util.h"
#include "cli.h"
#include "common.h"

#ifdef GASP_HAVE_LLAMA
#include "../train/finetune.h"
#include "../train/prepare.h"
#include "../train/tune.h"
#endif

#ifdef GASP_HAVE_LLAMA
static int copy_file(const char *from, const char *to) {
  FILE *a = fopen(from, "rb"), *b = a ? fopen(to, "wb") : NULL;
  if (!a || !b) {
    if (a) fclose(a);
    return -1;
  }
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, a)) > 0)
    if (fwrite(buf, 1, n, b) != n) break;
  int bad = ferror(a) || ferror(b);
  fclose(a);
  bad |= fclose(b) != 0;
  return bad ? -1 : 0;
}

typedef struct {
  const char *target, *glob, *max_tokens, *samples, *seed;
  int grammar;
  const char *level; /* NULL: every level */
} bench_args;

/* one bench run of `model` into `out` (fresh), then its pass counts and passing pairs */
static int bench_round(const bench_args *ba, const char *model, const char *out, char *const *ctx_arg) {
  unlink(out);
  char *a[40];
  int n = 0;
  a[n++] = "gasp";
  a[n++] = "bench";
  a[n++] = "--target", a[n++] = (char *)ba->target;
  a[n++] = "--backend", a[n++] = "llama";
  a[n++] = "--model", a[n++] = (char *)model;
  a[n++] = "--tasks", a[n++] = (char *)ba->glob;
  a[n++] = "--samples", a[n++] = (char *)ba->samples;
  a[n++] = "--seed", a[n++] = (char *)ba->seed;
  a[n++] = "--max-tokens", a[n++] = (char *)ba->max_tokens;
  a[n++] = "--grammar", a[n++] = ba->grammar ? "on" : "off";
  a[n++] = "--no-time";
  if (ba->level) a[n++] = "--level", a[n++] = (char *)ba->level;
  a[n++] = "-q";
  for (int i = 0; ctx_arg[i]; i++) a[n++] = ctx_arg[i];
  a[n++] = "-o", a[n++] = (char *)out;
  a[n] = NULL;
  int rc = cli_run_self(a);
  return rc == 0 || rc == 1 ? 0 : rc;
}

static void print_progress(const char *m) { fprintf(stderr, "gasp tune: finetune: %s\n", m); }
#endif

int cmd_tune(int argc, char **argv) {
  const char *model = NULL, *out = NULL, *target = NULL, *tasks_dir = NULL, *trainer = NULL, *glob = "*",
             *extra_pairs = NULL;
  int rounds = 1, samples = 8, epochs = 2, n_ctx = 256, seed = 1, max_tokens = 512, threads = 0, pairs_only = 0,
      level = -1;
  double lr = 1e-4;
  gasp_opt opts[] = {
      {"model", 'm', OPT_STR, "M.gguf", "the model to improve, llama architecture (required)", &model},
      {"output", 'o', OPT_STR, "M2.gguf", "the improved model (required); M2.tune.jsonl gets the rounds, "
                                          "M2.pairs.jsonl the kept pairs, M2.tune/ the work files", &out},
      {"target", 't', OPT_STR, "T", "the target whose tasks are generated and verified (required)", &target},
      {"tasks-dir", 0, OPT_STR, "DIR", "task files to generate on (default the suite's; keep the benchmark's own "
                                       "tasks out of training for honest scores)", &tasks_dir},
      {"tasks", 0, OPT_STR, "GLOB", "task ids (default all)", &glob},
      {"level", 0, OPT_INT, "L", "only tasks of level L (0-7)", &level},
      {"rounds", 0, OPT_INT, "R", "generate-verify-train rounds (default 1)", &rounds},
      {"samples", 'k', OPT_INT, "K", "samples per task and round (default 8)", &samples},
      {"max-tokens", 0, OPT_INT, "N", "tokens per answer (default 512)", &max_tokens},
      {"pairs", 0, OPT_STR, "FILE", "verified pairs (gasp corpus JSONL) added to the training data of every round", &extra_pairs},
      {"pairs-only", 0, OPT_FLAG, NULL, "train on --pairs alone, not on the model's own passing answers: the lift the "
                                        "given pairs bring to tasks they do not contain (held-out)", &pairs_only},
      {"trainer", 0, OPT_STR, "CMD", "an external trainer instead of 'gasp train finetune': words split on spaces, no "
                                     "shell; run as CMD --model CUR.gguf --data PREPARED_DIR -o NEXT.gguf", &trainer},
      {"epochs", 0, OPT_INT, "E", "finetune epochs per round (default 2)", &epochs},
      {"lr", 0, OPT_DOUBLE, "X", "finetune learning rate (default 1e-4)", &lr},
      {"ctx", 0, OPT_INT, "N", "finetune window in tokens (default 256)", &n_ctx},
      {"seed", 0, OPT_INT, "S", "sampling seed, the same in every round so rounds compare (default 1)", &seed},
      {"threads", 0, OPT_INT, "N", "CPU threads for fine-tuning (default all cores)", &threads},
      {0}};
  gasp_cmd_spec spec = {
      "tune", "--model M.gguf -o M2.gguf --target T [--tasks-dir DIR] [--rounds R] [--samples K] [--trainer CMD]",
      "Improve a GGUF model on its own verified answers: generate, verify, keep what passes, fine-tune, repeat.",
      "Each round: gasp bench with the current model (llama backend, the grammar on where the target has one) "
      "gives the pass rate before; its passing answers become (prompt, answer) pairs, appended to M2.pairs.jsonl; "
      "all pairs so far (plus --pairs) are prepared with the model's tokenizer and fine-tuned (llama.cpp's training "
      "API, or --trainer); a second bench with the new model gives the pass rate after (and the next round's "
      "before). Rounds with no pair to learn keep the model. A table of rounds goes to stdout and one JSON line per "
      "round to M2.tune.jsonl: pass rates before and after, the lift, pairs kept, the training loss.",
      opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 0);
  if (rc) return rc < 0 ? 0 : rc;
#ifndef GASP_HAVE_LLAMA
  (void)model, (void)out, (void)target, (void)tasks_dir, (void)trainer, (void)glob, (void)extra_pairs, (void)rounds;
  (void)samples, (void)epochs, (void)n_ctx, (void)seed, (void)max_tokens, (void)threads, (void)lr, (void)pairs_only;
  (void)level;
  gasp_cli_error("tune", "this gasp was built without llama.cpp (run tools/llama-build.sh, then rebuild)");
  return GASP_EXIT_ENV;
#else
  if (!model || !out || !target) {
    gasp_cli_error("tune", "--model M.gguf, -o M2.gguf and --target T are required");
    return GASP_EXIT_USAGE;
  }
  if (rounds < 1 || rounds > 100 || samples < 1 || samples > 1000 || max_tokens < 1 || epochs < 1 || !(lr > 0)) {
    gasp_cli_error("tune", "--rounds 1..100, --samples 1..1000, --max-tokens, --epochs and --lr positive");
    return GASP_EXIT_USAGE;
  }
  if (level > 7) {
    gasp_cli_error("tune", "--level 0..7");
    return GASP_EXIT_USAGE;
  }
  if (pairs_only && !extra_pairs) {
    gasp_cli_error("tune", "--pairs-only needs --pairs FILE");
    return GASP_EXIT_USAGE;
  }
  const gasp_target *t = cli_target("tune", target);
  if (!t) return GASP_EXIT_USAGE;
  if (access(model, R_OK)) {
    gasp_cli_error("tune", "cannot read the model '%s'", model);
    return GASP_EXIT_ENV;
  }
  if (extra_pairs && access(extra_pairs, R_OK)) {
    gasp_cli_error("tune", "cannot read --pairs '%s'", extra_pairs);
    return GASP_EXIT_ENV;
  }
  /* bench (a child) and the prompt rebuilder (here) read the same task files */
  if (tasks_dir) setenv("GASP_TASKS_DIR", tasks_dir, 1);
  gasp_taskset ts;
  if (cli_load_tasks("tune", &ts, 0) && !ts.count) return GASP_EXIT_ENV;

  char base[4096], work[4200], records[4200], pairs[4200];
  size_t n = strlen(out);
  snprintf(base, sizeof base, "%.*s", (int)(n > 5 && !strcmp(out + n - 5, ".gguf") ? n - 5 : n), out);
  snprintf(work, sizeof work, "%s.tune", base);
  snprintf(records, sizeof records, "%s.tune.jsonl", base);
  snprintf(pairs, sizeof pairs, "%s.pairs.jsonl", base);
  if (gasp_mkdir_p(work)) {
    gasp_cli_error("tune", "cannot create '%s': %s", work, strerror(errno));
    gasp_taskset_free(&ts);
    return GASP_EXIT_ENV;
  }
  FILE *rec = fopen(records, "w"), *pf = fopen(pairs, "w");
  if (!rec || !pf) {
    gasp_cli_error("tune", "cannot write '%s' or '%s'", records, pairs);
    if (rec) fclose(rec);
    if (pf) fclose(pf);
    gasp_taskset_free(&ts);
    return GASP_EXIT_ENV;
  }
  char ks[16], ss[16], mts[16], cs[16];
  snprintf(ks, sizeof ks, "%d", samples);
  snprintf(ss, sizeof ss, "%d", seed);
  snprintf(mts, sizeof mts, "%d", max_tokens);
  snprintf(cs, sizeof cs, "%d", n_ctx > 4096 ? n_ctx : 4096);
  char *ctx_arg[] = {"--ctx", cs, NULL};
  char ls[16];
  snprintf(ls, sizeof ls, "%d", level);
  bench_args ba = {t->name, glob, mts, ks, ss, t->grammar != NULL, level >= 0 ? ls : NULL};
  char cur[4300], res[4300];
  snprintf(cur, sizeof cur, "%s", model);
  snprintf(res, sizeof res, "%s/bench-0.jsonl", work);
  int status = 0;
  gasp_tune_seen seen = {0};
  gasp_tune_harvest before, after;
  char err[1024];
  fprintf(stderr, "gasp tune: round 0: generating with %s\n", cur);
  if (bench_round(&ba, cur, res, ctx_arg) ||
      gasp_tune_harvest_pairs(res, &ts, t, 0, pf, &seen, &before, err, sizeof err)) {
    gasp_cli_error("tune", "the first bench run failed%s%s", err[0] ? ": " : "", err);
    status = GASP_EXIT_ENV;
    goto out;
  }
  fflush(pf);
  long pairs_total = before.kept;
  printf("%-5s %-9s %-13s %-13s %-7s %-6s %-7s %s\n", "round", "target", "pass before", "pass after", "lift", "kept",
         "trained", "loss (train, before -> after)");
  for (int r = 1; r <= rounds; r++) {
    char prep[4300], next[4300], loss[128] = "-";
    snprintf(prep, sizeof prep, "%s/prep-%d", work, r);
    snprintf(next, sizeof next, "%s/model-%d.gguf", work, r);
    const char *inputs[2] = {pairs, extra_pairs};
    /* --pairs-only: the given pairs alone (the answers kept still go to M2.pairs.jsonl, unused) */
    gasp_prepare_opts po = {model, pairs_only ? inputs + 1 : inputs, pairs_only ? 1 : extra_pairs ? 2 : 1, prep,
                            n_ctx > 4096 ? n_ctx : 4096, NULL, NULL};
    gasp_prepare_stats pst;
    int trained = 0;
    const char *note = "";
    json_t *jl = json_null();
    if (gasp_train_prepare(&po, &pst, err, sizeof err)) {
      gasp_cli_error("tune", "round %d: prepare: %s", r, err);
      status = GASP_EXIT_ENV;
      goto out;
    }
    if (!pst.kept) note = "no pair to learn from: the model is kept";
    else if (trainer) {
      char *words = gasp_strdup(trainer), *a[64], *save = NULL;
      int na = 0;
      for (char *w = strtok_r(words, " ", &save); w && na < 56; w = strtok_r(NULL, " ", &save)) a[na++] = w;
      a[na++] = "--model", a[na++] = cur, a[na++] = "--data", a[na++] = prep, a[na++] = "-o", a[na++] = next;
      a[na] = NULL;
      unlink(next);
      fprintf(stderr, "gasp tune: round %d: trainer %s on %ld samples\n", r, trainer, pst.kept);
      int trc = na > 6 ? cli_run_argv(a) : -1;
      free(words);
      if (trc || access(next, R_OK)) {
        gasp_cli_error("tune", "round %d: the trainer failed (exit %d) or wrote no %s", r, trc, next);
        status = GASP_EXIT_ENV;
        goto out;
      }
      trained = 1;
    } else {
      char csv[4400];
      snprintf(csv, sizeof csv, "%s/model-%d.loss.csv", work, r);
      gasp_finetune_opts fo = {cur, prep, next, csv, epochs, lr, n_ctx, (uint64_t)seed + (uint64_t)r, threads,
                               print_progress};
      gasp_finetune_result fr;
      fprintf(stderr, "gasp tune: round %d: fine-tuning on %ld samples (%ld tokens)\n", r, pst.kept, pst.tokens);
      if (gasp_train_finetune(&fo, &fr, err, sizeof err)) {
        if (!strstr(err, "window")) {
          gasp_cli_error("tune", "round %d: finetune: %s", r, err);
          status = GASP_EXIT_ENV;
          goto out;
        }
        note = "too few tokens for one training window: the model is kept";
      } else {
        trained = 1;
        snprintf(loss, sizeof loss, "%.4f -> %.4f", fr.loss_before, fr.loss_after);
        jl = json_pack("{s:f, s:f, s:i}", "before", fr.loss_before, "after", fr.loss_after, "epochs", fr.epochs);
      }
    }
    const char *model_after = trained ? next : cur;
    char res2[4300];
    snprintf(res2, sizeof res2, "%s/bench-%d.jsonl", work, r);
    fprintf(stderr, "gasp tune: round %d: generating with %s\n", r, model_after);
    if (bench_round(&ba, model_after, res2, ctx_arg) ||
        gasp_tune_harvest_pairs(res2, &ts, t, r, pf, &seen, &after, err, sizeof err)) {
      gasp_cli_error("tune", "round %d: bench failed%s%s", r, err[0] ? ": " : "", err);
      json_decref(jl);
      status = GASP_EXIT_ENV;
      goto out;
    }
    fflush(pf);
    double pb = before.records ? (double)before.passed / before.records : 0,
           pa = after.records ? (double)after.passed / after.records : 0;
    printf("%-5d %-9s %5.1f%% %-6s %5.1f%% %-6s %+6.1f %-6ld %-7ld %s%s%s\n", r, t->name, 100 * pb, "", 100 * pa, "",
           100 * (pa - pb), before.kept, pst.kept, loss, *note ? "  " : "", note);
    json_t *row = json_pack("{s:i, s:s, s:s, s:s, s:i, s:{s:I, s:I, s:f}, s:{s:I, s:I, s:f}, s:f, s:I, s:I, s:I, "
                            "s:b, s:s, s:o, s:s}",
                            "round", r, "target", t->name, "model_before", cur, "model_after", model_after,
                            "samples_per_task", samples, "before", "candidates", (json_int_t)before.records, "passed",
                            (json_int_t)before.passed, "pass_rate", pb, "after", "candidates",
                            (json_int_t)after.records, "passed", (json_int_t)after.passed, "pass_rate", pa, "lift",
                            pa - pb, "pairs_kept", (json_int_t)before.kept, "pairs_total", (json_int_t)pairs_total,
                            "samples_trained", (json_int_t)pst.kept, "trained", trained, "trainer",
                            trainer ? trainer : "gasp train finetune", "loss", jl, "note", note);
    char *line = row ? json_dumps(row, JSON_COMPACT) : NULL;
    if (line) fprintf(rec, "%s\n", line), fflush(rec);
    free(line);
    json_decref(row);
    if (trained) snprintf(cur, sizeof cur, "%s", next);
    before = after;
    pairs_total += after.kept;
  }
  if (copy_file(cur, out)) {
    gasp_cli_error("tune", "cannot write '%s'", out);
    status = GASP_EXIT_ENV;
    goto out;
  }
  printf("wrote %s; rounds in %s, pairs in %s\n", out, records, pairs);
out:
  if (fclose(rec) && !status) status = GASP_EXIT_ENV;
  fclose(pf);
  gasp_tune_seen_free(&seen);
  gasp_taskset_free(&ts);
  return status;
#endif
}
