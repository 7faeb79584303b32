/* gasp genspeed: tokens per second of the llama backend, 1 and N parallel sequences, with and without the
 * grammar, side by side in one run (issue 3's speed goals: grammar costs <= 10%, 32 sequences >= 10x). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "../llm/backend.h"
#include "../prompt/prompt.h"
#include "cli.h"
#include "common.h"

typedef struct {
  int parallel, grammar, cache_mb, serial, monitor, lanes, tokens, seqs, truncated;
  double seconds;
  int have_stats;
  gasp_gen_stats st;   /* the measured rounds' share of the backend's totals */
} speed_row;

/* One configuration's backend, opened for the whole run: the configurations take turns round by round, so a
 * drift of the machine (clocks, other load) falls on all of them alike instead of on whichever ran last. */
static gasp_backend *open_config(const char *model, int parallel, int grammar, int cache_mb, int serial, int monitor, int cold,
                                 int kv_split, int lanes, int gpu_layers, int threads, speed_row *row, char *err, size_t cap) {
  gasp_backend_opts bo = {0};
  bo.model = model;
  bo.parallel = parallel;
  bo.grammar = grammar;
  bo.gpu_layers = gpu_layers;
  bo.threads = threads;
  bo.grammar_cache_mb = cache_mb > 0 ? cache_mb : -1;
  bo.grammar_cache_cold = cold;
  bo.kv_split = kv_split;
  bo.grammar_serial = serial;
  bo.monitor = monitor;
  bo.lanes = lanes;
  memset(row, 0, sizeof *row);
  row->parallel = parallel;
  row->grammar = grammar;
  row->cache_mb = grammar ? cache_mb : 0;
  row->serial = grammar && serial;
  row->monitor = grammar && monitor;
  row->lanes = lanes;
  return gasp_backend_open("llama", &bo, err, cap);
}

/* Round r of one configuration: its `parallel` samples of the prompt, decoded together in one batch. Round 0
 * warms up (context creation, grammar compile, first touch of the weights) and is not counted. */
static int run_round(gasp_backend *b, const gasp_target *t, const gasp_task *task, const char *prompt, int r,
                     int max_tokens, speed_row *row, char *err, size_t cap) {
  gasp_gen_params gp;
  gasp_gen_params_default(&gp);
  gp.max_tokens = max_tokens;
  gp.temperature = 1.0; /* a random model at temperature 1: every sequence keeps going */
  gp.top_p = 1.0;
  gp.seed = 1000u * (unsigned)r + 1;
  gp.n_samples = row->parallel;
  for (int s = 0; s < row->parallel; s++) {
    gasp_answer a;
    gasp_diags d;
    gasp_diags_init(&d);
    int rc = b->generate(b, t, task, prompt, &gp, s, &a, &d);
    if (rc)
      snprintf(err, cap, "%s", d.count ? d.items[0].msg : "generation failed");
    else if (r > 0) {
      row->tokens += a.tokens;
      row->seqs++;
      row->truncated += a.truncated;
      if (s == 0) row->seconds += a.seconds; /* one batch: every answer carries the batch's time */
    }
    gasp_answer_free(&a);
    gasp_diags_free(&d);
    if (rc) return -1;
  }
  return 0;
}

static const char *row_name(const speed_row *r) {
  return !r->grammar ? "off" : !r->cache_mb ? "on/nocache" : r->serial ? "on/serial" : r->monitor ? "on+monitor" : "on";
}

static int same_config(const speed_row *a, const speed_row *b) {
  return a->grammar == b->grammar && a->cache_mb == b->cache_mb && a->serial == b->serial && a->monitor == b->monitor;
}

/* Milliseconds per step in each phase (the prompts' decodes spread over the steps); "other" is the rest of
 * the measured time (building batches, appending text, creating samplers). */
static void print_breakdown(const speed_row *rows, int n) {
  int any = 0;
  for (int i = 0; i < n; i++) any |= rows[i].have_stats && rows[i].st.steps > 0;
  if (!any) return;
  printf("\nms per step  %-10s %-8s %5s %6s %7s %7s %7s %7s %8s %7s %8s %6s %8s %6s %8s %9s\n", "grammar", "parallel",
         "lanes", "steps", "prompt", "decode", "wait", "sample", "g.check", "g.mask", "g.accept", "other", "masks/st", "hit%",
         "allowed", "cache KiB");
  for (int i = 0; i < n; i++) {
    const gasp_gen_stats *s = &rows[i].st;
    if (!rows[i].have_stats || s->steps <= 0) continue;
    double k = 1000.0 / (double)s->steps;
    /* lanes: each lane's steps and phases are its own, and the lanes run at once */
    double other = rows[i].seconds * (s->lanes > 1 ? s->lanes : 1) - s->prompt_s - s->decode_s - s->wait_s - s->sample_s - s->gcheck_s - s->gmask_s -
                   s->gaccept_s;
    printf("             %-10s %-8d %5d %6ld %7.3f %7.3f %7.3f %7.3f %8.3f %7.3f %8.3f %6.3f %8.2f %6.1f %8.0f %9.0f\n",
           row_name(&rows[i]), rows[i].parallel, rows[i].lanes, s->steps, s->prompt_s * k, s->decode_s * k, s->wait_s * k, s->sample_s * k,
           s->gcheck_s * k, s->gmask_s * k,
           s->gaccept_s * k, other * k, (double)s->masks / (double)s->steps,
           s->masks ? 100.0 * (double)s->mask_hits / (double)s->masks : 0.0,
           s->masks ? (double)s->allowed / (double)s->masks : 0.0, s->cache_bytes / 1024.0);
  }
  for (int i = 0; i < n; i++)
    if (rows[i].monitor && rows[i].have_stats && rows[i].st.masks > 0)
      printf("monitor      %-10s %-8d: %ld of %ld allowed tokens refused (%.2f a draw), overruled at %ld of %ld draws\n",
             row_name(&rows[i]), rows[i].parallel, rows[i].st.monitor_refused, rows[i].st.allowed,
             (double)rows[i].st.monitor_refused / (double)rows[i].st.masks, rows[i].st.monitor_open, rows[i].st.masks);
}

int cmd_genspeed(int argc, char **argv) {
  const char *model = NULL, *target = "ptx-sm90", *task_id = "vector_add", *grammar = "both";
  int parallel = 32, tokens = 256, gpu_layers = 0, threads = 0, rounds = 2, cache_mb = 64, cold = 0, kv_split = 0, lanes = 1;
  gasp_opt opts[] = {
      {"model", 'm', OPT_STR, "M.gguf", "the model (default $GASP_MODEL, else the shipped models/gasp-small.gguf)", &model},
      {"target", 't', OPT_STR, "T", "the target whose grammar and prompt are used (default ptx-sm90)", &target},
      {"task", 0, OPT_STR, "ID", "the task whose prompt is decoded (default vector_add)", &task_id},
      {"parallel", 0, OPT_INT, "N", "the many-sequence case (default 32; 1 is always measured)", &parallel},
      {"tokens", 0, OPT_INT, "N", "tokens per sequence at most (default 256)", &tokens},
      {"grammar", 0, OPT_STR, "on|off|both|monitor|all",
       "with and/or without the grammar (default both; the grammar's rows without the decoding monitor); monitor: the "
       "grammar with and without the monitor (it checks PTX snippet tasks: --task clamp_f32); all adds the grammar "
       "without its mask cache, the grammar with its phases after the wait for the logits (serial) instead of beside "
       "the GPU, and the monitor", &grammar},
      {"grammar-cache", 0, OPT_INT, "MB", "memory for cached grammar masks (default 64; 0: none)", &cache_mb},
      {"cold", 0, OPT_FLAG, NULL, "forget the cached masks before each round, as a bench's next task starts", &cold},
      {"rounds", 0, OPT_INT, "N", "measured rounds after one warm-up round (default 2)", &rounds},
      {"gpu-layers", 0, OPT_INT, "N", "layers offloaded to the GPU (-1 all; default 0)", &gpu_layers},
      {"kv-split", 0, OPT_FLAG, NULL, "a KV stream per sequence, the prompt copied into each (default: one cache shared "
                                      "by all sequences)", &kv_split},
      {"lanes", 0, OPT_INT, "N", "contexts decoding shares of the N sequences on their own threads, so one's host work "
                                 "overlaps another's step on the GPU (default 1)", &lanes},
      {"threads", 0, OPT_INT, "N", "CPU threads (default all cores; lanes divide them)", &threads},
      {0}};
  gasp_cmd_spec spec = {"genspeed", "--model M.gguf [--parallel N] [--tokens N] [--grammar on|off|both]",
                        "Measure the llama backend's generation speed: 1 and N parallel sequences of one prompt, with "
                        "and without the target's grammar, side by side in one run.",
                        "Every configuration keeps its own backend open and they take turns round by round, so a "
                        "drift of the machine falls on all alike. "
                        "Sampling runs at temperature 1 with a fresh seed per round. Sequences end early when the "
                        "model (or the grammar) ends them, so the table gives tokens actually generated.\n"
                        "A second table splits each step (one decode of every running sequence) into milliseconds of "
                        "decode (building and launching it), wait (for its logits: the model finishing), sampling, "
                        "grammar check (cache lookups, the allowed tokens listed, prefilter), grammar mask (cache "
                        "misses over the vocabulary) and grammar accept, with the masks needed per step and the "
                        "share found in the cache, and the allowed tokens per mask (the draw's candidates). The "
                        "grammar's accept, lookups and masks run while the GPU computes the step (between decode and "
                        "wait), so on a GPU they cost only what exceeds the wait; on/serial runs them after the wait.\n"
                        "Last, the sampler alone against the llama.cpp sampler chain it replaced, on the same random "
                        "logits.\n"
                        "Make a model to measure with 'gasp mkmodel --size 100m -o m.gguf' (random weights).",
                        opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 0);
  if (rc) return rc < 0 ? 0 : rc;
  model = cli_llama_model(model);
  if (!model || !*model) {
    gasp_cli_error("genspeed", "--model M.gguf (or GASP_MODEL, or the shipped models/gasp-small.gguf) is required");
    return GASP_EXIT_USAGE;
  }
  int all = !strcmp(grammar, "all"), gmon = all || !strcmp(grammar, "monitor");
  int gon = all || gmon || !strcmp(grammar, "on") || !strcmp(grammar, "both"),
      goff = all || !strcmp(grammar, "off") || !strcmp(grammar, "both");
  if (!gon && !goff) {
    gasp_cli_error("genspeed", "--grammar must be on, off, both, monitor or all");
    return GASP_EXIT_USAGE;
  }
  if (parallel < 1 || parallel > 64 || tokens < 1 || rounds < 1 || cache_mb < 0 || lanes < 1 || lanes > 4) {
    gasp_cli_error("genspeed", "--parallel 1..64, --lanes 1..4, --tokens and --rounds positive, --grammar-cache 0 or more");
    return GASP_EXIT_USAGE;
  }
  const gasp_target *t = cli_target("genspeed", target);
  if (!t) return GASP_EXIT_USAGE;
  gasp_taskset ts;
  if (cli_load_tasks("genspeed", &ts, 0) && !ts.count) return GASP_EXIT_ENV;
  const gasp_task *task = gasp_taskset_find(&ts, task_id);
  if (!task || !gasp_task_fits(task, t->isa)) {
    gasp_cli_error("genspeed", "no task '%s' for target %s", task_id, t->name);
    gasp_taskset_free(&ts);
    return GASP_EXIT_USAGE;
  }
  speed_row rows[15];
  gasp_backend *bs[15] = {0};
  gasp_gen_stats warm[15];
  int n = 0, ps[2] = {1, parallel};
  char err[512];
  /* configurations: grammar off; on without the mask cache (all only); on with it, serial (all only); on; on with
   * the monitor (monitor, all) */
  int cfg_grammar[5] = {0, 1, 1, 1, 1}, cfg_cache[5] = {0, 0, cache_mb, cache_mb, cache_mb}, cfg_serial[5] = {0, 0, 1, 0, 0},
      cfg_monitor[5] = {0, 0, 0, 0, 1};
  rc = 0;
  for (int g = 0; g < 5 && !rc; g++) {
    if ((g == 0 && !goff) || (g == 1 && (!all || !cache_mb)) || (g == 2 && !all) || (g == 3 && !gon) || (g == 4 && !gmon))
      continue;
    /* 1 sequence; N in one lane; N in `lanes` lanes beside it */
    for (int k = 0; k < (parallel > 1 ? (lanes > 1 ? 3 : 2) : 1) && !rc; k++) {
      bs[n] = open_config(model, ps[k > 0], cfg_grammar[g], cfg_cache[g], cfg_serial[g], cfg_monitor[g], cold, kv_split, k == 2 ? lanes : 1,
                          gpu_layers, threads, &rows[n], err, sizeof err);
      if (!bs[n]) rc = -1;
      else n++;
    }
  }
  char *prompt = gasp_prompt_build(t, task, GASP_VARIANT_DEFAULT);
  for (int r = 0; r <= rounds && !rc; r++)
    for (int i = 0; i < n && !rc; i++) {
      if (r == 1 && bs[i]->stats) bs[i]->stats(bs[i], &warm[i]);
      rc = run_round(bs[i], t, task, prompt, r, tokens, &rows[i], err, sizeof err);
    }
  for (int i = 0; i < n; i++) {
    if (!rc && bs[i]->stats) {
      bs[i]->stats(bs[i], &rows[i].st);
      gasp_gen_stats_add(&rows[i].st, &warm[i], -1); /* the measured rounds: the totals less the warm-up's */
      rows[i].have_stats = 1;
    }
    gasp_backend_close(bs[i]);
  }
  free(prompt);
  if (rc) {
    gasp_cli_error("genspeed", "%s", err);
    gasp_taskset_free(&ts);
    return GASP_EXIT_ENV;
  }
  printf("model %s, task %s, %s, up to %d tokens per sequence, %d round(s), KV cache %s, %d lane(s)\n\n", model,
         task_id, t->name, tokens, rounds, kv_split ? "split (a stream per sequence)" : "unified", lanes);
  printf("%-10s %-8s %5s %6s %8s %9s %10s %12s %9s\n", "grammar", "parallel", "lanes", "seqs", "tokens", "seconds",
         "tokens/s", "per seq/s", "vs 1 seq");
  for (int i = 0; i < n; i++) {
    double tps = rows[i].seconds > 0 ? rows[i].tokens / rows[i].seconds : 0;
    double base = 0;
    for (int j = 0; j < n; j++)
      if (same_config(&rows[j], &rows[i]) && rows[j].parallel == 1 &&
          rows[j].seconds > 0)
        base = rows[j].tokens / rows[j].seconds;
    printf("%-10s %-8d %5d %6d %8d %9.3f %10.1f %12.1f %8.2fx\n", row_name(&rows[i]), rows[i].parallel, rows[i].lanes, rows[i].seqs,
           rows[i].tokens, rows[i].seconds, tps, tps / rows[i].parallel, base > 0 ? tps / base : 0);
  }
  print_breakdown(rows, n);
#ifdef GASP_HAVE_LLAMA
  /* the sampler alone, side by side with the llama.cpp chain it replaced (one thread, the model's vocabulary
   * size is what matters: 32000 for llama-spm) */
  for (int k = 0; k < 2; k++) {
    double ours, theirs, temp = k ? 0.7 : 1.0, top_p = k ? 0.95 : 1.0;
    gasp_llama_sampler_bench(32000, 400, temp, top_p, &ours, &theirs);
    printf("%ssampler alone, 32000 tokens, temperature %.1f top-p %.2f: gasp %.1f us/token, llama.cpp chain %.1f us/token "
           "(%.1fx)\n", k ? "" : "\n", temp, top_p, ours, theirs, ours > 0 ? theirs / ours : 0);
  }
#endif
  if (gon && goff) {
    /* 0: the grammar as decoded by default; 1: without the mask cache; 2: its phases serial */
    for (int kind = 0; kind < 3; kind++) {
      int any = 0;
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          if (rows[i].grammar == 0 && rows[j].grammar == 1 &&
              (kind == 0 ? rows[j].cache_mb && !rows[j].serial : kind == 1 ? !rows[j].cache_mb : rows[j].serial) &&
              rows[i].parallel == rows[j].parallel && rows[i].lanes == rows[j].lanes && rows[i].seconds > 0 &&
              rows[j].seconds > 0) {
            if (!any++)
              printf(kind == 1   ? "grammar cost without the mask cache:"
                     : kind == 2 ? "grammar cost with its phases serial (after the wait):"
                                 : "\ngrammar cost (1 - tokens/s with / without):");
            char lanes_note[32] = "";
            if (rows[i].lanes > 1) snprintf(lanes_note, sizeof lanes_note, ", %d lanes", rows[i].lanes);
            printf("  %d seq%s: %.1f%%", rows[i].parallel, lanes_note,
                   100.0 * (1.0 - (rows[j].tokens / rows[j].seconds) / (rows[i].tokens / rows[i].seconds)));
          }
      if (any) printf("\n");
    }
  }
  gasp_taskset_free(&ts);
  return 0;
}
