/* gasp bench: many tasks x samples x backends, each candidate through the whole pipeline, one JSONL
 * record per candidate appended and flushed as it finishes; --resume skips what is recorded. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench/results.h"
#include "../bench/stats.h"
#include "../core/util.h"
#include "../llm/backend.h"
#include "../prompt/prompt.h"
#include "cli.h"
#include "common.h"

void cli_print_verdict(const gasp_record *rec, FILE *out);

/* What a repair prompt says about a failed candidate: class and stage, the first diagnostics with their
 * line and column, the verdict's details and the first mismatch. Caller frees. */
static char *cli_describe_failure(const gasp_record *rec) {
  gasp_str s;
  gasp_str_init(&s);
  gasp_str_printf(&s, "class %s at the %s stage\n", gasp_class_name(rec->cls), gasp_stage_name(rec->stage));
  int shown = 0;
  for (size_t i = 0; i < rec->diags.count && shown < 20; i++) {
    const gasp_diag *g = &rec->diags.items[i];
    if (g->sev == GASP_SEV_NOTE) continue;
    gasp_str_printf(&s, "line %d, column %d: %s: %s\n", g->line, g->col, gasp_class_name(g->cls), g->msg);
    shown++;
  }
  if (rec->verdict.detail[0]) gasp_str_printf(&s, "%s\n", rec->verdict.detail);
  /* the article's register-range and budget constraints, stated outright when those were the failure
   * (its measurement: register overflow 19% -> 0.3% once stated) */
  if (rec->cls == GASP_CLASS_RANGE)
    gasp_str_puts(&s, "Constraint: every register index must be below the count in its declaration (.reg .f32 %f<8> "
                      "declares %f0..%f7 only); declare enough registers, and use only predicates you declared.\n");
  if (rec->cls == GASP_CLASS_RESOURCE)
    gasp_str_puts(&s, "Constraint: stay within the register and shared-memory budget stated above; reuse registers "
                      "whose values are dead instead of keeping every value live.\n");
  if (rec->verdict.has_mismatch)
    gasp_str_printf(&s, "first wrong element: %s[%lld], expected %s, got %s\n", rec->verdict.param,
                    (long long)rec->verdict.index, rec->verdict.expected, rec->verdict.got);
  return gasp_str_take(&s);
}

static volatile sig_atomic_t interrupted;
static void on_sigint(int s) {
  (void)s;
  interrupted = 1;
}

static void progress(int done, int total, const char *what, const char *cls, int tty) {
  static double t0;
  static int passes;
  if (!tty) return;
  if (!t0) t0 = gasp_now_s();
  passes += !strcmp(cls, "pass");
  double el = gasp_now_s() - t0, eta = done ? el / done * (total - done) : 0;
  int width = 30, fill = total ? done * width / total : width;
  fprintf(stderr, "\r\033[K[%.*s%*s] %d/%d  %d pass  %.0fs left  %-22.22s %s", fill, "##############################",
          width - fill, "", done, total, passes, eta, what, cls);
  if (done == total) fputc('\n', stderr);
  fflush(stderr);
}

/* A results file whose last line was torn by a kill must end in a newline before we append. */
static void end_with_newline(FILE *f, const char *path) {
  FILE *r = fopen(path, "rb");
  if (!r) return;
  if (fseek(r, -1, SEEK_END) == 0 && fgetc(r) != '\n') fputc('\n', f);
  fclose(r);
}

int cmd_bench(int argc, char **argv) {
  const char *target = NULL, *glob = "*", *out = NULL, *variant = GASP_VARIANT_DEFAULT, *answers = NULL,
             *url = NULL, *model = NULL, *key_env = NULL;
  gasp_multi backends = {{0}, 0}, stops = {{0}, 0};
  int samples = 1, resume = 0, seed = 1, no_time = 0, level = -1, spares = 2, fresh = 0, chat = 0,
      max_tokens = 2048, retries = 3, quiet = 0, repair = 0, rewrite = 0, parallel = 0, gpu_layers = 0, ctx = 0,
      logprobs = 0, top_k = 0, threads = 0;
  const char *grammar = "off";
  double temperature = 0.2, top_p = 0.95, min_p = 0;
  gasp_opt opts[] = {
      {"target", 't', OPT_STR, "T", "the target (ptx-sm90, ptx-sm89)", &target},
      {"tasks", 0, OPT_STR, "GLOB", "task ids to run (default all)", &glob},
      {"level", 0, OPT_INT, "L", "only tasks of level L (0-7)", &level},
      {"samples", 'k', OPT_INT, "K", "answers per task (default 1)", &samples},
      {"backend", 'b', OPT_MULTI, "B", "reference | files | openai | llama (repeatable; default llama when a model "
                                       "is set by --model PATH.gguf or GASP_MODEL, else reference)", &backends},
      {"output", 'o', OPT_STR, "FILE", "results file (JSONL), required", &out},
      {"resume", 0, OPT_FLAG, NULL, "skip candidates already in the results file", &resume},
      {"variant", 0, OPT_STR, "V", "prompt variant (default constrained+example+facts)", &variant},
      {"answers", 0, OPT_STR, "PATH", "files backend: directory of <task>.<sample>.txt or a JSONL file", &answers},
      {"url", 0, OPT_STR, "URL", "openai backend: base URL, e.g. http://127.0.0.1:8080/v1", &url},
      {"model", 'm', OPT_STR, "M", "llama backend: the GGUF file (default $GASP_MODEL); openai backend: model name", &model},
      {"grammar", 0, OPT_STR, "on|off", "llama backend: decode under the target's GBNF grammar (default off)", &grammar},
      {"parallel", 0, OPT_INT, "N", "llama backend: samples of one prompt decoded together in one batch (default: "
                                    "all samples, at most 32)", &parallel},
      {"gpu-layers", 0, OPT_INT, "N", "llama backend: layers offloaded to the GPU (-1 all; default 0)", &gpu_layers},
      {"ctx", 0, OPT_INT, "N", "llama backend: context for the prompt in tokens (default 4096)", &ctx},
      {"threads", 0, OPT_INT, "N", "llama backend: CPU threads (default all cores)", &threads},
      {"logprobs", 0, OPT_FLAG, NULL, "llama backend: record each token's log-probability and top 5 alternatives", &logprobs},
      {"top-k", 0, OPT_INT, "K", "llama backend: top-k sampling (default off)", &top_k},
      {"min-p", 0, OPT_DOUBLE, "X", "llama backend: min-p sampling (default off)", &min_p},
      {"key-env", 0, OPT_STR, "VAR", "openai backend: environment variable with the API key (default GASP_API_KEY)", &key_env},
      {"chat", 0, OPT_FLAG, NULL, "openai backend: use /chat/completions instead of raw completions", &chat},
      {"temperature", 0, OPT_DOUBLE, "X", "sampling temperature (default 0.2)", &temperature},
      {"top-p", 0, OPT_DOUBLE, "X", "nucleus sampling (default 0.95)", &top_p},
      {"max-tokens", 0, OPT_INT, "N", "tokens per answer (default 2048)", &max_tokens},
      {"retries", 0, OPT_INT, "N", "openai backend: retries with backoff (default 3)", &retries},
      {"stop", 0, OPT_MULTI, "S", "stop string for generation (repeatable, at most 4)", &stops},
      {"rewrite", 0, OPT_FLAG, NULL, "apply the target's rewriters (e.g. split misaligned vector accesses) before checking", &rewrite},
      {"repair", 0, OPT_INT, "N", "up to N repair turns for a failed candidate, quoting its failure (default 0)", &repair},
      {"seed", 0, OPT_INT, "N", "seed for sampling and inputs (default 1)", &seed},
      {"no-time", 0, OPT_FLAG, NULL, "do not time passing candidates against the reference", &no_time},
      {"spares", 0, OPT_INT, "N", "GPU workers kept started in reserve for fault recovery (default 2)", &spares},
      {"fresh-worker", 0, OPT_FLAG, NULL, "a new worker process per candidate (slow; for comparison)", &fresh},
      {"quiet", 'q', OPT_FLAG, NULL, "no progress bar and no summary", &quiet},
      {0}};
  gasp_cmd_spec spec = {
      "bench", "--target T [--tasks GLOB] [--samples K] [--backend B ...] -o results.jsonl [--resume]",
      "Generate answers with each backend and run every candidate through check, assembly, GPU run and verification.",
      "Each candidate becomes one JSON line in the results file, written and flushed as soon as it is judged,\n"
      "so an interrupted run loses nothing; --resume continues it. Without a GPU the run stage is recorded as\n"
      "skipped. The openai backend reads its key from $GASP_API_KEY (or --key-env); the key is never logged.\n"
      "Ends with the summary table ('gasp report FILE' prints it again). Exit 130 when interrupted.",
      opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 0);
  if (rc) return rc < 0 ? 0 : rc;
  if (!out) {
    gasp_cli_error("bench", "-o FILE is required");
    return GASP_EXIT_USAGE;
  }
  if (repair < 0 || repair > 20) {
    gasp_cli_error("bench", "--repair must be 0..20");
    return GASP_EXIT_USAGE;
  }
  if (samples < 1 || samples > 10000) {
    gasp_cli_error("bench", "--samples must be 1..10000");
    return GASP_EXIT_USAGE;
  }
  if (!gasp_prompt_variant_valid(variant)) {
    gasp_cli_error("bench", "unknown variant '%s'", variant);
    return GASP_EXIT_USAGE;
  }
  const gasp_target *t = cli_target("bench", target);
  if (!t) return GASP_EXIT_USAGE;
  if (strcmp(grammar, "on") && strcmp(grammar, "off")) {
    gasp_cli_error("bench", "--grammar must be on or off");
    return GASP_EXIT_USAGE;
  }
  const char *env_model = getenv("GASP_MODEL");
  if (!backends.n) /* the embedded model is the default once one is configured */
    backends.v[backends.n++] = (model && gasp_str_ends_with(model, ".gguf")) || (!model && env_model && *env_model)
                                   ? "llama" : "reference";
  gasp_taskset ts;
  if (cli_load_tasks("bench", &ts, 0) && !ts.count) return GASP_EXIT_ENV;
  int ntasks = 0;
  for (size_t i = 0; i < ts.count; i++)
    ntasks += gasp_glob_match(glob, ts.items[i].id) && (level < 0 || ts.items[i].level == level) &&
              gasp_task_fits(&ts.items[i], t->isa);
  if (!ntasks) {
    gasp_cli_error("bench", "no task for target '%s' matches '%s'", t->name, glob);
    gasp_taskset_free(&ts);
    return GASP_EXIT_USAGE;
  }
  gasp_backend *bk[16] = {0};
  gasp_backend_opts bo = {answers, url, model, key_env, 300, retries};
  bo.gpu_layers = gpu_layers;
  bo.n_ctx = ctx;
  bo.parallel = parallel > 0 ? parallel : (samples < 32 ? samples : 32);
  bo.grammar = !strcmp(grammar, "on");
  bo.logprobs = logprobs;
  bo.threads = threads;
  for (int i = 0; i < backends.n; i++) {
    char err[512];
    bk[i] = gasp_backend_open(backends.v[i], &bo, err, sizeof err);
    if (!bk[i] && !strcmp(backends.v[i], "llama")) {
      gasp_cli_error("bench", "%s", err);
      for (int k = 0; k < i; k++) gasp_backend_close(bk[k]);
      gasp_taskset_free(&ts);
      return GASP_EXIT_ENV; /* a missing or broken model is the environment, not the command line */
    }
    if (!bk[i]) {
      gasp_cli_error("bench", "%s", err);
      for (int k = 0; k < i; k++) gasp_backend_close(bk[k]);
      gasp_taskset_free(&ts);
      return GASP_EXIT_USAGE;
    }
  }
  gasp_rows done = {0};
  char err[256];
  if (resume && gasp_rows_load(out, &done, err, sizeof err)) {
    gasp_cli_error("bench", "%s", err);
    return GASP_EXIT_ENV;
  }
  FILE *f = fopen(out, resume ? "ae" : "we"); /* close-on-exec: workers and tools must not inherit it */
  if (!f) {
    gasp_cli_error("bench", "cannot write '%s'", out);
    return GASP_EXIT_ENV;
  }
  if (resume) end_with_newline(f, out);
  char why[256] = "";
  gasp_pool_opts po;
  gasp_pool_default_opts(&po);
  po.spares = fresh ? 0 : spares;
  po.fresh_per_job = fresh;
  gasp_pool *pool = t->exec == GASP_EXEC_CUDA ? cli_open_pool(&po, why, sizeof why) : NULL;
  int tty = !quiet && isatty(2);
  if (!pool && t->exec == GASP_EXEC_CUDA && !quiet) fprintf(stderr, "gasp bench: note: no GPU run stage: %s; candidates are checked and assembled, and recorded as skipped\n", why);
  signal(SIGINT, on_sigint);
  signal(SIGTERM, on_sigint);
  gasp_gen_params gp;
  gasp_gen_params_default(&gp);
  gp.temperature = temperature;
  gp.top_p = top_p;
  gp.max_tokens = max_tokens;
  gp.seed = (uint64_t)seed;
  gp.chat = chat;
  gp.top_k = top_k;
  gp.min_p = min_p;
  gp.n_samples = samples;
  for (int i = 0; i < stops.n && i < 4; i++) gp.stop[i] = stops.v[i];
  int total = ntasks * samples * backends.n, count = 0, written = 0, skipped_resume = 0; /* progress counts samples */
  int exit_code = GASP_EXIT_OK;
  for (size_t ti = 0; ti < ts.count && !interrupted && exit_code == 0; ti++) {
    const gasp_task *task = &ts.items[ti];
    if (!gasp_glob_match(glob, task->id) || (level >= 0 && task->level != level) || !gasp_task_fits(task, t->isa)) continue;
    gasp_binary baseline;
    memset(&baseline, 0, sizeof baseline);
    int have_base = 0;
    double base_ms = 0;
    for (int bi = 0; bi < backends.n && !interrupted && !exit_code; bi++) {
      for (int s = 0; s < samples && !interrupted; s++) {
        count++;
        /* turn 0 is the first answer; a failed candidate gets up to `repair` more turns, each prompt quoting
         * the previous answer and its failure (a repair turn is a new candidate that knows the old one) */
        char *prev_answer = NULL, *failure = NULL;
        int first_turn = 0;
        if (resume) {
          int lcls = 0;
          int last = gasp_rows_last_turn(&done, task->id, t->name, bk[bi]->name, bk[bi]->model, variant,
                                         bk[bi]->grammar, s, (uint64_t)seed, &lcls);
          int open_chain = last >= 0 && last < repair && lcls != GASP_CLASS_PASS && lcls != GASP_CLASS_SKIPPED &&
                           lcls != GASP_CLASS_ERROR;
          gasp_record prev;
          if (open_chain && gasp_results_read_record(out, task->id, t->name, bk[bi]->name, bk[bi]->model, variant,
                                                     bk[bi]->grammar, s, (uint64_t)seed, last, &prev) == 0) {
            /* an interruption cut this repair chain: continue it from the last recorded turn */
            prev_answer = gasp_strdup(prev.answer ? prev.answer : "");
            failure = cli_describe_failure(&prev);
            gasp_record_free(&prev);
            first_turn = last + 1;
          } else if (last >= 0) {
            skipped_resume++;
            progress(count, total, task->id, "(recorded)", tty);
            continue;
          }
        }
        if (pool && !no_time && !have_base && t->baseline) {
          gasp_diags bd;
          gasp_diags_init(&bd);
          have_base = t->baseline(t, task, &baseline, &bd) == 0 ? 1 : -1;
          cli_print_diags(&bd, task->path, stderr);
          gasp_diags_free(&bd);
        }
        const char *last_cls = "";
        for (int turn = first_turn; turn <= repair && !exit_code; turn++) {
          gasp_record rec;
          gasp_record_init(&rec);
          gasp_strlcpy(rec.task, task->id, sizeof rec.task);
          rec.level = task->level;
          gasp_strlcpy(rec.target, t->name, sizeof rec.target);
          gasp_strlcpy(rec.backend, bk[bi]->name, sizeof rec.backend);
          gasp_strlcpy(rec.model, bk[bi]->model, sizeof rec.model);
          gasp_strlcpy(rec.variant, variant, sizeof rec.variant);
          rec.sample = s;
          rec.turn = turn;
          rec.grammar = bk[bi]->grammar;
          /* inputs depend on the run's seed only, so every sample of a task faces the same trials (and the
           * fixtures are made once); the model's sampling seed is seed + sample (+ turn) */
          rec.seed = (uint64_t)seed;
          char *prompt = turn ? gasp_prompt_repair(t, task, variant, prev_answer, failure)
                              : gasp_prompt_build(t, task, variant);
          gasp_answer ans;
          gasp_gen_params sp = gp;
          sp.turn = turn;
          int g = bk[bi]->generate(bk[bi], t, task, prompt, &sp, s, &ans, &rec.diags);
          free(prompt);
          rec.t_generate_s = ans.seconds;
          rec.tokens = ans.tokens;
          rec.truncated = ans.truncated;
          rec.logprobs = ans.logprobs;
          rec.nlogprobs = ans.nlogprobs;
          ans.logprobs = NULL;
          if (ans.tokens && ans.seconds > 0) rec.tokens_per_s = ans.tokens / ans.seconds;
          int keep = 1;
          if (g) {
            rec.cls = GASP_CLASS_ERROR;
            rec.stage = GASP_STAGE_EXTRACT;
            rec.infra_error = 1;
          } else {
            rec.answer = ans.text;
            rec.answer_len = ans.len;
            gasp_eval_opts eo = {0};
            eo.pool = pool;
            eo.no_gpu_reason = why;
            eo.seed = rec.seed;
            eo.time = !no_time;
            eo.flush_l2 = 1;
            eo.baseline = have_base == 1 ? &baseline : NULL;
            eo.baseline_cache_ms = &base_ms;
            eo.rewrite = rewrite;
            if (gasp_eval(t, task, &eo, &rec)) {
              /* not the candidate's doing: record nothing, so --resume runs it again */
              fprintf(stderr, "gasp bench: error: the GPU worker cannot be restarted; stopping (rerun with --resume)\n");
              exit_code = GASP_EXIT_ENV;
              keep = 0;
            }
          }
          if (keep && gasp_results_append(f, &rec)) {
            gasp_cli_error("bench", "cannot append to '%s'", out);
            exit_code = GASP_EXIT_ENV;
          }
          written += keep;
          last_cls = gasp_class_name(rec.cls);
          int again = keep && !rec.infra_error && rec.cls != GASP_CLASS_PASS && rec.cls != GASP_CLASS_SKIPPED &&
                      rec.cls != GASP_CLASS_ERROR;
          if (again && turn < repair) {
            free(prev_answer);
            free(failure);
            prev_answer = gasp_strdup(rec.answer ? rec.answer : "");
            failure = cli_describe_failure(&rec);
          }
          gasp_record_free(&rec);
          if (!again) break;
        }
        free(prev_answer);
        free(failure);
        progress(count, total, task->id, last_cls, tty);
        if (exit_code) break;
      }
    }
    gasp_binary_free(&baseline);
  }
  fclose(f);
  if (tty && count < total) fputc('\n', stderr);
  if (pool && !quiet) {
    gasp_pool_stats st;
    gasp_pool_get_stats(pool, &st);
    fprintf(stderr, "GPU: %s, %ld jobs, %ld worker restarts (%ld timeouts, %ld crashes), longest recovery %.0f ms\n",
            gasp_pool_device(pool), st.jobs, st.restarts, st.timeouts, st.crashes, st.max_restart_wait_ms);
  }
  gasp_pool_close(pool);
  for (int i = 0; i < backends.n; i++) gasp_backend_close(bk[i]);
  gasp_rows_free(&done);
  gasp_taskset_free(&ts);
  if (!quiet) fprintf(stderr, "%d record(s) written to %s%s\n", written, out,
                      skipped_resume ? " (the rest were recorded already)" : "");
  if (!quiet) {
    gasp_rows rows;
    if (gasp_rows_load(out, &rows, err, sizeof err) == 0) {
      printf("\n");
      gasp_summary_print(&rows, samples, stdout);
      gasp_repair_print(&rows, stdout);
      gasp_rows_free(&rows);
    }
  }
  if (interrupted) {
    fprintf(stderr, "interrupted: %d record(s) kept; continue with --resume\n", written);
    return 130;
  }
  return exit_code;
}
