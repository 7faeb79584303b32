/* gasp bench: many tasks x samples x backends, each candidate through the whole pipeline, one JSONL
 * record per candidate appended and flushed as it finishes; --resume skips what is recorded. The work list
 * can be sharded (--shard, --mpi) and spread over worker processes (--workers, src/bench/sched.h). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench/merge.h"
#include "../bench/results.h"
#include "../bench/sched.h"
#include "../bench/stats.h"
#include "../core/util.h"
#include "../grammar/monitor.h"
#include "../llm/backend.h"
#include "../prompt/prompt.h"
#include "cli.h"
#include "common.h"

void cli_print_verdict(const gasp_record *rec, FILE *out);

/* The decoding configuration a record carries (gasp_record.grammar): the monitor counts where the target has
 * monitors, so that a run on a target without any is the same configuration as one with --monitor off. */
static int config_grammar(const gasp_backend *b, const gasp_target *t) {
  return b->grammar ? 1 + (b->monitor && gasp_monitor_target_has(t)) : 0;
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

/* bench_mpi.c: rank, size and node-local rank; the gather of every rank's part into one file */
int cli_mpi_begin(int *argc, char ***argv, int *rank, int *size, int *local_rank, char *err, size_t cap);
int cli_mpi_gather(const char *out, const char *part, int rank, int size, int resume, const gasp_taskset *ts, int quiet);
void cli_mpi_end(void);
int cli_mpi_fetch(const char *out, int rank, char *local, size_t cap);

/* One work item: a (task, backend, sample) cell, with all its repair turns. */
typedef struct {
  int task, backend, sample;
  int first_turn;        /* > 0: --resume continues a repair chain an interruption cut, after turn first_turn-1 */
  const char *prev_from; /* the results file holding that turn */
} bench_item;

/* Everything a worker needs to judge an item, and what the writer needs to record it. Each worker process
 * has its own copy (fork), so the GPU pool and the baseline cache below are never shared. */
typedef struct {
  const gasp_target *t;
  const gasp_taskset *ts;
  gasp_backend **bk;
  const char *variant;
  gasp_gen_params gp;
  int repair, rewrite, allow_hazards, no_time, seed, quiet, tty, fresh, spares, nworkers, first_device, ngpu;
  const bench_item *items;
  /* the writer (this process) */
  FILE *f;
  const char *out;
  int written, count, total, write_error;
  /* the worker */
  gasp_pool *pool;
  char why[256];
  int base_task, have_base;
  gasp_binary baseline;
  double base_ms;
} bench_ctx;

static int bench_worker_init(void *vc, int w) {
  bench_ctx *c = vc;
  c->base_task = -1;
  /* no GPU when the first worker was asked (why says so): every worker records the run stage as skipped */
  if (c->t->exec != GASP_EXEC_CUDA || c->pool || c->ngpu == 0) return 0;
  gasp_pool_opts po;
  gasp_pool_default_opts(&po);
  po.spares = c->fresh ? 0 : c->spares;
  po.fresh_per_job = c->fresh;
  /* workers go round the GPUs: with 2 GPUs and 4 workers, 0 and 2 share GPU 0 */
  po.device = c->ngpu > 0 ? (c->first_device + w) % c->ngpu : 0;
  c->pool = cli_open_pool(&po, c->why, sizeof c->why);
  if (!c->pool && !c->quiet)
    fprintf(stderr, "gasp bench: note: worker %d: no GPU run stage: %s; candidates are recorded as skipped\n", w, c->why);
  return 0;
}

static void bench_worker_fini(void *vc, int w) {
  bench_ctx *c = vc;
  gasp_binary_free(&c->baseline);
  if (c->pool && !c->quiet) {
    gasp_pool_stats st;
    gasp_pool_get_stats(c->pool, &st);
    char who[32] = "";
    if (c->nworkers > 1) snprintf(who, sizeof who, "worker %d, ", w);
    fprintf(stderr, "GPU: %s%s, %ld jobs, %ld worker restarts (%ld timeouts, %ld crashes), longest recovery %.0f ms\n",
            who, gasp_pool_device(c->pool), st.jobs, st.restarts, st.timeouts, st.crashes, st.max_restart_wait_ms);
  }
  gasp_pool_close(c->pool);
  c->pool = NULL;
}

/* One (task, backend, sample): turn 0 and its repair turns, each record handed to the writer. Returns -1
 * when the GPU pool broke for good (nothing recorded for that candidate, so --resume runs it again). */
static int bench_run_item(void *vc, gasp_sched_worker *w, size_t item) {
  bench_ctx *c = vc;
  const bench_item *it = &c->items[item];
  const gasp_task *task = &c->ts->items[it->task];
  const gasp_target *t = c->t;
  gasp_backend *b = c->bk[it->backend];
  if (c->base_task != it->task) {
    gasp_binary_free(&c->baseline);
    memset(&c->baseline, 0, sizeof c->baseline);
    c->base_task = it->task;
    c->have_base = 0;
    c->base_ms = 0;
  }
  if (c->pool && !c->no_time && !c->have_base && t->baseline) {
    gasp_diags bd;
    gasp_diags_init(&bd);
    c->have_base = t->baseline(t, task, &c->baseline, &bd) == 0 ? 1 : -1;
    cli_print_diags(&bd, task->path, stderr);
    gasp_diags_free(&bd);
  }
  int s = it->sample, rc = 0;
  /* turn 0 is the first answer; a failed candidate gets up to `repair` more turns, each prompt quoting
   * the previous answer and its failure (a repair turn is a new candidate that knows the old one) */
  char *prev_answer = NULL, *failure = NULL;
  if (it->first_turn > 0) {
    gasp_record prev;
    if (gasp_results_read_record(it->prev_from, task->id, t->name, b->name, b->model, c->variant, config_grammar(b, t), s,
                                 (uint64_t)c->seed, it->first_turn - 1, &prev) == 0) {
      prev_answer = gasp_strdup(prev.answer ? prev.answer : "");
      failure = gasp_record_describe_failure(&prev);
      gasp_record_free(&prev);
    }
  }
  for (int turn = prev_answer ? it->first_turn : 0; turn <= c->repair; turn++) {
    gasp_record rec;
    gasp_record_init(&rec);
    gasp_strlcpy(rec.task, task->id, sizeof rec.task);
    rec.level = task->level;
    gasp_strlcpy(rec.target, t->name, sizeof rec.target);
    gasp_strlcpy(rec.backend, b->name, sizeof rec.backend);
    gasp_strlcpy(rec.model, b->model, sizeof rec.model);
    gasp_strlcpy(rec.variant, c->variant, sizeof rec.variant);
    rec.grammar = config_grammar(b, t);
    rec.sample = s;
    rec.turn = turn;
    /* inputs depend on the run's seed only, so every sample of a task faces the same trials (and the
     * fixtures are made once); the model's sampling seed is seed + sample (+ turn) */
    rec.seed = (uint64_t)c->seed;
    char *prompt = turn ? gasp_prompt_repair(t, task, c->variant, prev_answer, failure)
                        : gasp_prompt_build(t, task, c->variant);
    gasp_answer ans;
    gasp_gen_params sp = c->gp;
    sp.turn = turn;
    int g = b->generate(b, t, task, prompt, &sp, s, &ans, &rec.diags);
    free(prompt);
    rec.t_generate_s = ans.seconds;
    rec.tokens = ans.tokens;
    if (ans.tokens && ans.seconds > 0) rec.tokens_per_s = ans.tokens / ans.seconds;
    rec.truncated = ans.truncated;
    rec.logprobs = ans.logprobs;
    rec.nlogprobs = ans.nlogprobs;
    ans.logprobs = NULL;
    int keep = 1;
    if (g) {
      rec.cls = GASP_CLASS_ERROR;
      rec.stage = GASP_STAGE_EXTRACT;
      rec.infra_error = 1;
    } else {
      rec.answer = ans.text;
      rec.answer_len = ans.len;
      gasp_eval_opts eo = {0};
      eo.pool = c->pool;
      eo.no_gpu_reason = c->why;
      eo.seed = rec.seed;
      eo.time = !c->no_time;
      eo.flush_l2 = 1;
      eo.baseline = c->have_base == 1 ? &c->baseline : NULL;
      eo.baseline_cache_ms = &c->base_ms;
      eo.rewrite = c->rewrite;
      eo.allow_hazards = c->allow_hazards;
      if (gasp_eval(t, task, &eo, &rec)) {
        /* not the candidate's doing: record nothing, so --resume runs it again */
        fprintf(stderr, "gasp bench: error: the GPU worker cannot be restarted; stopping (rerun with --resume)\n");
        rc = -1;
        keep = 0;
      }
    }
    if (keep) {
      char *line = gasp_record_to_json(&rec);
      if (!line || gasp_sched_emit(w, line, strlen(line))) rc = -1, keep = 0;
      free(line);
    }
    gasp_sched_note(w, gasp_class_name(rec.cls));
    int again = keep && !rec.infra_error && rec.cls != GASP_CLASS_PASS && rec.cls != GASP_CLASS_SKIPPED &&
                rec.cls != GASP_CLASS_ERROR;
    if (again && turn < c->repair) {
      free(prev_answer);
      free(failure);
      prev_answer = gasp_strdup(rec.answer ? rec.answer : "");
      failure = gasp_record_describe_failure(&rec);
    }
    gasp_record_free(&rec);
    if (!again || rc) break;
  }
  free(prev_answer);
  free(failure);
  return rc;
}

/* The writer: appends and flushes each line to disk as it comes (in work-list order). */
static int bench_write_line(void *vc, size_t item, const char *line, size_t len) {
  bench_ctx *c = vc;
  (void)item;
  int bad = fwrite(line, 1, len, c->f) != len || fputc('\n', c->f) == EOF || fflush(c->f);
  fsync(fileno(c->f));
  if (bad) {
    if (!c->write_error) gasp_cli_error("bench", "cannot append to '%s'", c->out);
    c->write_error = 1;
    return -1;
  }
  c->written++;
  return 0;
}

static void bench_item_done(void *vc, size_t item, const char *cls) {
  bench_ctx *c = vc;
  progress(++c->count, c->total, c->ts->items[c->items[item].task].id, cls, c->tty);
}

static void bench_item_lost(void *vc, size_t item, const char *why) {
  bench_ctx *c = vc;
  const bench_item *it = &c->items[item];
  fprintf(stderr, "gasp bench: error: %s sample %d not recorded: %s (rerun with --resume)\n",
          c->ts->items[it->task].id, it->sample, why);
}

/* Endpoint health and the like, from library code that does not print. */
static void cli_notice(const char *msg) { fprintf(stderr, "gasp bench: %s\n", msg); }

int cmd_bench(int argc, char **argv) {
  const char *target = NULL, *glob = "*", *out = NULL, *variant = GASP_VARIANT_DEFAULT, *answers = NULL,
             *model = NULL, *key_env = NULL, *shard = NULL;
  gasp_multi backends = {{0}, 0}, stops = {{0}, 0}, urls = {{0}, 0};
  int samples = 1, resume = 0, seed = 1, no_time = 0, level = -1, spares = 2, fresh = 0, chat = 0,
      max_tokens = 2048, retries = 3, quiet = 0, repair = 0, rewrite = 0, workers = 0, per_gpu = 0, mpi = 0,
      endpoint_limit = 0, request_timeout = 300, parallel = 0, gpu_layers = 0, ctx = 0, logprobs = 0, top_k = 0, kv_split = 0,
      threads = 0, allow_hazards = 0, lanes = 0;
  const char *grammar = "off", *monitor = "on";
  double temperature = 0.2, top_p = 0.95, min_p = 0;
  gasp_opt opts[] = {
      {"target", 't', OPT_STR, "T", CLI_TARGET_HELP, &target},
      {"tasks", 0, OPT_STR, "GLOB", "task ids to run (default all)", &glob},
      {"level", 0, OPT_INT, "L", "only tasks of level L (0-7)", &level},
      {"samples", 'k', OPT_INT, "K", "answers per task (default 1)", &samples},
      {"backend", 'b', OPT_MULTI, "B", "reference | files | openai | llama (repeatable; default llama when a model "
                                       "is there: --model PATH.gguf, GASP_MODEL or the shipped model; else reference)",
       &backends},
      {"output", 'o', OPT_STR, "FILE", "results file (JSONL), required", &out},
      {"resume", 0, OPT_FLAG, NULL, "skip candidates already in the results file", &resume},
      {"variant", 0, OPT_STR, "V", "prompt variant (default constrained+example+facts)", &variant},
      {"answers", 0, OPT_STR, "PATH", "files backend: directory of <task>.<sample>.txt or a JSONL file", &answers},
      {"url", 0, OPT_MULTI, "URL", "openai backend: base URL, e.g. http://127.0.0.1:8080/v1; repeat or comma-separate for a pool, URL#N limits one to N requests at once", &urls},
      {"endpoint-limit", 0, OPT_INT, "N", "openai backend: requests at once per endpoint unless URL#N says (default: no limit)", &endpoint_limit},
      {"model", 'm', OPT_STR, "M", "llama backend: the GGUF file (default $GASP_MODEL, else the shipped model); "
                                   "none: no model (reference backend); openai backend: model name", &model},
      {"grammar", 0, OPT_STR, "on|off", "llama backend: decode under the target's GBNF grammar (default off)", &grammar},
      {"monitor", 0, OPT_STR, "on|off", "llama backend with --grammar on: decode under the target's decoding monitor "
                                        "as well (PTX snippets: a register read only after a line wrote it, the answer "
                                        "ended only once every input was read and every output written; default on)",
       &monitor},
      {"parallel", 0, OPT_INT, "N", "llama backend: samples of one prompt decoded together in one batch (default: "
                                    "all samples, at most 32)", &parallel},
      {"gpu-layers", 0, OPT_INT, "N", "llama backend: layers offloaded to the GPU (-1 all; default 0)", &gpu_layers},
      {"ctx", 0, OPT_INT, "N", "llama backend: context for the prompt in tokens (default 4096)", &ctx},
      {"kv-split", 0, OPT_FLAG, NULL, "llama backend: a KV stream per parallel sample, the prompt copied into each "
                                      "(each attends over its own cells only; memory for samples x (ctx + max tokens) cells)", &kv_split},
      {"lanes", 0, OPT_INT, "N", "llama backend: contexts decoding shares of the parallel samples on their own threads, "
                                 "so one's host work overlaps another's step on the GPU (default 2 with --gpu-layers and 8 or more "
                                 "parallel samples, else 1)", &lanes},
      {"threads", 0, OPT_INT, "N", "llama backend: CPU threads (default all cores; lanes divide them)", &threads},
      {"logprobs", 0, OPT_FLAG, NULL, "llama backend: record each token's log-probability and top 5 alternatives", &logprobs},
      {"top-k", 0, OPT_INT, "K", "llama backend: top-k sampling (default off)", &top_k},
      {"min-p", 0, OPT_DOUBLE, "X", "llama backend: min-p sampling (default off)", &min_p},
      {"key-env", 0, OPT_STR, "VAR", "openai backend: environment variable with the API key (default GASP_API_KEY)", &key_env},
      {"chat", 0, OPT_FLAG, NULL, "openai backend: use /chat/completions instead of raw completions", &chat},
      {"temperature", 0, OPT_DOUBLE, "X", "sampling temperature (default 0.2)", &temperature},
      {"top-p", 0, OPT_DOUBLE, "X", "nucleus sampling (default 0.95)", &top_p},
      {"max-tokens", 0, OPT_INT, "N", "tokens per answer (default 2048)", &max_tokens},
      {"retries", 0, OPT_INT, "N", "openai backend: retries with backoff (default 3)", &retries},
      {"request-timeout", 0, OPT_INT, "S", "openai backend: seconds a request may take before it counts as failed (default 300)", &request_timeout},
      {"stop", 0, OPT_MULTI, "S", "stop string for generation (repeatable, at most 4)", &stops},
      {"rewrite", 0, OPT_FLAG, NULL, "apply the target's rewriters (e.g. split misaligned vector accesses) before checking", &rewrite},
      {"allow-hazards", 0, OPT_FLAG, NULL, "run binaries whose only errors are hazards (SASS), e.g. to calibrate "
       "latencies; the records keep the errors", &allow_hazards},
      {"repair", 0, OPT_INT, "N", "up to N repair turns for a failed candidate, quoting its failure (default 0)", &repair},
      {"seed", 0, OPT_INT, "N", "seed for sampling and inputs (default 1)", &seed},
      {"no-time", 0, OPT_FLAG, NULL, "do not time passing candidates against the reference", &no_time},
      {"spares", 0, OPT_INT, "N", "GPU workers kept started in reserve for fault recovery (default 2)", &spares},
      {"fresh-worker", 0, OPT_FLAG, NULL, "a new worker process per candidate (slow; for comparison)", &fresh},
      {"workers", 'j', OPT_INT, "K", "worker processes judging candidates at once (default: one per visible GPU)", &workers},
      {"workers-per-gpu", 0, OPT_INT, "K", "K workers on each visible GPU (or K in all without a GPU)", &per_gpu},
      {"shard", 0, OPT_STR, "I/N", "only the I-th of N deterministic shards of the work list (0 <= I < N)", &shard},
      {"mpi", 0, OPT_FLAG, NULL, "under mpirun: each rank a shard and a GPU; rank 0 gathers everything into -o FILE", &mpi},
      {"quiet", 'q', OPT_FLAG, NULL, "no progress bar and no summary", &quiet},
      {0}};
  gasp_cmd_spec spec = {
      "bench", "--target T [--tasks GLOB] [--samples K] [--backend B ...] -o results.jsonl [--resume]",
      "Generate answers with each backend and run every candidate through check, assembly, GPU run and verification.",
      "Each candidate becomes one JSON line in the results file, written and flushed as soon as it is judged,\n"
      "so an interrupted run loses nothing; --resume continues it. Without a GPU the run stage is recorded as\n"
      "skipped. The openai backend reads its key from $GASP_API_KEY (or --key-env); the key is never logged.\n"
      "Ends with the summary table ('gasp report FILE' prints it again). Exit 130 when interrupted.\n\n"
      "Scaling out. The work list is every (task, backend, sample) in suite order. --workers K runs K worker\n"
      "processes, each with its own GPU worker (workers go round the visible GPUs), taking one item at a time;\n"
      "records are still written in work-list order, so the file matches a one-worker run record for record\n"
      "(timings aside). --shard I/N keeps the I-th of N contiguous slices of the work list, cut between tasks\n"
      "when there are enough; 'gasp merge' joins the shards' files. --mpi (mpirun -n N gasp bench --mpi ...) gives rank R shard R/N and GPU (node-local rank\n"
      "mod GPUs); each rank writes FILE.part-R-of-N as it goes, and at the end rank 0 merges them into FILE\n"
      "and the parts are removed. After an interruption the parts stay: rerun with --resume (each rank skips\n"
      "what FILE and its part hold) or merge them with 'gasp merge'.\n\n"
      "Endpoint pools (openai). --url A --url B (or --url A,B) spreads requests over several servers: each\n"
      "request goes to the endpoint with the fewest requests in flight, below its limit (URL#N or\n"
      "--endpoint-limit N, shared by all workers); an endpoint that refuses, times out or answers 5xx is\n"
      "set aside for a growing while and the request fails over to the next; changes of health go to stderr.",
      opts};
  /* the help names the default model as this gasp would find it now */
  char details[4096];
  const char *shipped = cli_shipped_model();
  snprintf(details, sizeof details,
           "%s\n\nDefault model. Without --model and GASP_MODEL the llama backend loads the shipped model: "
           "$GASP_DATA_DIR/models/gasp-small.gguf, else %s. When one exists the default backend is llama, otherwise "
           "reference. Here: %s%s. --model none (or --backend reference) runs the reference backend whatever model "
           "is configured.",
           spec.details, GASP_SHIPPED_MODEL_PATH, shipped ? shipped : "none is present",
           shipped ? " (default backend llama)" : " (default backend reference)");
  spec.details = details;
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
  if (workers < 0 || workers > 256 || per_gpu < 0 || per_gpu > 64) {
    gasp_cli_error("bench", "--workers must be 1..256 and --workers-per-gpu 1..64");
    return GASP_EXIT_USAGE;
  }
  int shard_i = 0, shard_n = 1;
  if (shard) {
    char tail;
    if (sscanf(shard, "%d/%d%c", &shard_i, &shard_n, &tail) != 2 || shard_n < 1 || shard_i < 0 || shard_i >= shard_n) {
      gasp_cli_error("bench", "--shard wants I/N with 0 <= I < N, not '%s'", shard);
      return GASP_EXIT_USAGE;
    }
    if (mpi) {
      gasp_cli_error("bench", "--shard and --mpi exclude each other (--mpi shards by rank)");
      return GASP_EXIT_USAGE;
    }
  }
  if (!gasp_prompt_variant_valid(variant)) {
    gasp_cli_error("bench", "unknown variant '%s'", variant);
    return GASP_EXIT_USAGE;
  }
  const gasp_target *t = cli_target("bench", target);
  if (!t) return GASP_EXIT_USAGE;
  if (!strcmp(grammar, "on") && !t->grammar) {
    gasp_cli_error("bench", "target %s has no grammar for constrained decoding (use --grammar off)", t->name);
    return GASP_EXIT_USAGE;
  }
  int rank = 0, nranks = 1, local_rank = 0;
  if (mpi) {
    char merr[256];
    if (cli_mpi_begin(&argc, &argv, &rank, &nranks, &local_rank, merr, sizeof merr)) {
      gasp_cli_error("bench", "%s", merr);
      return GASP_EXIT_USAGE;
    }
    shard_i = rank;
    shard_n = nranks;
  }
  /* under MPI each rank writes its own part; rank 0 merges the parts into `out` at the end */
  char part[4200];
  snprintf(part, sizeof part, "%s.part-%d-of-%d", out, rank, nranks);
  const char *wpath = mpi ? part : out;
  if (strcmp(grammar, "on") && strcmp(grammar, "off")) {
    gasp_cli_error("bench", "--grammar must be on or off");
    return GASP_EXIT_USAGE;
  }
  if (strcmp(monitor, "on") && strcmp(monitor, "off")) {
    gasp_cli_error("bench", "--monitor must be on or off");
    return GASP_EXIT_USAGE;
  }
  if (!backends.n) backends.v[backends.n++] = cli_default_backend(model);
  /* the llama backend decodes a task's samples together in one batch, with threads (and maybe a CUDA context)
   * that a forked worker would not have: it keeps to one worker per process; more processes via --shard/--mpi */
  int has_llama = 0;
  for (int i = 0; i < backends.n; i++) has_llama |= !strcmp(backends.v[i], "llama");
  if (has_llama && (workers > 1 || per_gpu > 1)) {
    gasp_cli_error("bench", "the llama backend runs in one worker per process; use --shard or --mpi for more processes");
    return GASP_EXIT_USAGE;
  }
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
  char urlbuf[4096] = "";
  for (int i = 0; i < urls.n; i++)
    snprintf(urlbuf + strlen(urlbuf), sizeof urlbuf - strlen(urlbuf), "%s%s", i ? "," : "", urls.v[i]);
  gasp_backend *bk[16] = {0};
  gasp_backend_opts bo = {answers, urls.n ? urlbuf : NULL, model, key_env, request_timeout > 0 ? request_timeout : 300, retries};
  bo.gpu_layers = gpu_layers;
  bo.kv_split = kv_split;
  bo.lanes = lanes;
  bo.n_ctx = ctx;
  bo.parallel = parallel > 0 ? parallel : (samples < 32 ? samples : 32);
  bo.grammar = !strcmp(grammar, "on");
  bo.monitor = !strcmp(monitor, "on");
  bo.logprobs = logprobs;
  bo.threads = threads;
  bo.endpoint_limit = endpoint_limit;
  bo.notice = cli_notice;
  for (int i = 0; i < backends.n; i++) {
    char err[512];
    /* the llama backend's model may be the default one; other backends see --model as given */
    gasp_backend_opts bi = bo;
    bi.model = !strcmp(backends.v[i], "llama") ? cli_llama_model(model) : cli_model_none(model) ? NULL : model;
    if (!strcmp(backends.v[i], "llama") && !bi.model) {
      gasp_cli_error("bench", "the llama backend needs a model: --model PATH.gguf, GASP_MODEL, or the shipped %s",
                     "models/gasp-small.gguf (not present in this tree)");
      for (int k = 0; k < i; k++) gasp_backend_close(bk[k]);
      gasp_taskset_free(&ts);
      return GASP_EXIT_ENV;
    }
    bk[i] = gasp_backend_open(backends.v[i], &bi, err, sizeof err);
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
  gasp_rows done = {0}, done_part = {0};
  char err[256];
  char seen[4200] = "";
  if (resume) {
    /* under MPI rank 0's results file reaches every rank (no shared disk needed); each also has its part */
    if (mpi && cli_mpi_fetch(out, rank, seen, sizeof seen)) {
      gasp_cli_error("bench", "rank %d: cannot keep a copy of '%s' for --resume", rank, out);
      return GASP_EXIT_ENV;
    }
    int bad = gasp_rows_load(mpi ? seen : out, &done, err, sizeof err) ||
              (mpi && gasp_rows_load(part, &done_part, err, sizeof err));
    if (bad) {
      if (mpi && rank != 0 && seen[0]) unlink(seen);
      gasp_cli_error("bench", "%s", err);
      return GASP_EXIT_ENV;
    }
  }
  /* the work list: every (task, backend, sample) in suite order; a shard is one of N contiguous slices of it.
   * The cuts fall between (task, backend) rows when there are at least N rows, so a task's samples stay
   * together: the llama backend decodes them in one batch (a batch cut in two decodes differently), and the
   * fixtures and the baseline are made once. */
  int total_all = ntasks * samples * backends.n, skipped_resume = 0, k = 0, rows = ntasks * backends.n;
  int lo, hi;
  if (rows >= shard_n) {
    lo = (int)((long long)rows * shard_i / shard_n) * samples;
    hi = (int)((long long)rows * (shard_i + 1) / shard_n) * samples;
  } else {
    lo = (int)((long long)total_all * shard_i / shard_n);
    hi = (int)((long long)total_all * (shard_i + 1) / shard_n);
  }
  bench_item *items = calloc((size_t)total_all + 1, sizeof *items);
  size_t nitems = 0;
  for (size_t ti = 0; ti < ts.count; ti++) {
    const gasp_task *task = &ts.items[ti];
    if (!gasp_glob_match(glob, task->id) || (level >= 0 && task->level != level) || !gasp_task_fits(task, t->isa)) continue;
    for (int bi = 0; bi < backends.n; bi++)
      for (int s = 0; s < samples; s++, k++) {
        if (k < lo || k >= hi) continue;
        bench_item it = {(int)ti, bi, s, 0, NULL};
        if (resume) {
          /* the last recorded turn, in the results file or (under MPI) this rank's part */
          int c0 = 0, c1 = 0;
          int l0 = gasp_rows_last_turn(&done, task->id, t->name, bk[bi]->name, bk[bi]->model, variant, config_grammar(bk[bi], t),
                                       s, (uint64_t)seed, &c0);
          int l1 = gasp_rows_last_turn(&done_part, task->id, t->name, bk[bi]->name, bk[bi]->model, variant,
                                       config_grammar(bk[bi], t), s, (uint64_t)seed, &c1);
          int last = l1 > l0 ? l1 : l0, lcls = l1 > l0 ? c1 : c0;
          int open_chain = last >= 0 && last < repair && lcls != GASP_CLASS_PASS && lcls != GASP_CLASS_SKIPPED &&
                           lcls != GASP_CLASS_ERROR;
          if (open_chain) {
            /* an interruption cut this repair chain: continue it from the last recorded turn */
            it.first_turn = last + 1;
            it.prev_from = l1 > l0 ? part : (mpi ? seen : out);
          } else if (last >= 0) {
            skipped_resume++;
            continue;
          }
        }
        items[nitems++] = it;
      }
  }
  FILE *f = fopen(wpath, resume ? "ae" : "we"); /* close-on-exec: workers and tools must not inherit it */
  if (!f) {
    gasp_cli_error("bench", "cannot write '%s'", wpath);
    return GASP_EXIT_ENV;
  }
  if (resume) end_with_newline(f, wpath);
  bench_ctx c;
  memset(&c, 0, sizeof c);
  c.t = t;
  c.ts = &ts;
  c.bk = bk;
  c.variant = variant;
  gasp_gen_params_default(&c.gp);
  c.gp.temperature = temperature;
  c.gp.top_p = top_p;
  c.gp.max_tokens = max_tokens;
  c.gp.seed = (uint64_t)seed;
  c.gp.chat = chat;
  c.gp.top_k = top_k;
  c.gp.min_p = min_p;
  c.gp.n_samples = samples;
  for (int i = 0; i < stops.n && i < 4; i++) c.gp.stop[i] = stops.v[i];
  c.repair = repair;
  c.rewrite = rewrite;
  c.allow_hazards = allow_hazards;
  c.no_time = no_time;
  c.seed = seed;
  c.quiet = quiet;
  c.tty = !quiet && isatty(2);
  c.fresh = fresh;
  c.spares = spares;
  c.items = items;
  c.f = f;
  c.out = wpath;
  c.total = hi - lo;
  c.count = skipped_resume;
  /* the GPUs: the first worker tells how many this process sees (the CLI never loads libcuda itself) */
  gasp_pool_opts po;
  gasp_pool_default_opts(&po);
  /* asked for several workers (or a rank's GPU): this pool only counts the GPUs, so no spares for it */
  po.spares = fresh || workers > 1 || per_gpu || mpi ? 0 : spares;
  po.fresh_per_job = fresh;
  gasp_pool *pool = t->exec == GASP_EXEC_CUDA && nitems ? cli_open_pool(&po, c.why, sizeof c.why) : NULL;
  c.ngpu = pool ? gasp_pool_device_count(pool) : 0;
  if (c.ngpu < 1 && pool) c.ngpu = 1;
  c.nworkers = workers ? workers : per_gpu ? per_gpu * (c.ngpu > 0 ? c.ngpu : 1) : mpi ? 1 : (c.ngpu > 1 ? c.ngpu : 1);
  if ((size_t)c.nworkers > nitems) c.nworkers = nitems ? (int)nitems : 1;
  c.first_device = c.ngpu > 0 ? (local_rank * c.nworkers) % c.ngpu : 0;
  if (pool && (c.nworkers > 1 || c.first_device != 0)) {
    gasp_pool_close(pool); /* each worker opens its own, on its GPU */
    pool = NULL;
  }
  if (pool && po.spares != (fresh ? 0 : spares)) {
    gasp_pool_close(pool); /* counted without spares; the one worker here wants them */
    pool = NULL;
  }
  c.pool = pool;
  if (t->exec == GASP_EXEC_CUDA && !quiet && c.ngpu == 0 && c.why[0])
    fprintf(stderr, "gasp bench: note: no GPU run stage: %s; candidates are checked and assembled, and recorded as skipped\n", c.why);
  if (!quiet && (c.nworkers > 1 || shard_n > 1))
    fprintf(stderr, "gasp bench: %zu item(s)%s for %d worker(s)%s%s\n", nitems, shard_n > 1 ? " of this shard" : "",
            c.nworkers, c.ngpu ? " on " : "", c.ngpu ? (c.ngpu > 1 ? "several GPUs" : "one GPU") : "");
  signal(SIGINT, on_sigint);
  signal(SIGTERM, on_sigint);
  progress(c.count, c.total, "", "", c.tty && c.count);
  gasp_sched_opts so = {c.nworkers, &c, bench_worker_init, bench_run_item, bench_worker_fini, bench_write_line,
                        bench_item_done, bench_item_lost, &interrupted};
  gasp_sched_stats st;
  int srun = gasp_sched_run(&so, nitems, &st);
  int exit_code = GASP_EXIT_OK;
  if (st.fatal || st.write_failed || st.items_lost || (srun && !interrupted)) exit_code = GASP_EXIT_ENV;
  fclose(f);
  if (c.tty && c.count < c.total) fputc('\n', stderr);
  for (int i = 0; i < backends.n; i++) gasp_backend_close(bk[i]);
  gasp_rows_free(&done);
  gasp_rows_free(&done_part);
  free(items);
  if (mpi && rank != 0 && seen[0]) unlink(seen);
  int written = c.written;
  if (!quiet) fprintf(stderr, "%d record(s) written to %s%s\n", written, wpath,
                      skipped_resume ? " (the rest were recorded already)" : "");
  if (mpi) {
    int g = cli_mpi_gather(out, part, rank, nranks, resume, &ts, quiet);
    if (g && !exit_code) exit_code = g;
    cli_mpi_end();
  }
  gasp_taskset_free(&ts);
  if (!quiet && rank == 0) {
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
