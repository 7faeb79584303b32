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
  int parallel, grammar, tokens, seqs, truncated;
  double seconds;
} speed_row;

static int measure(const char *model, const gasp_target *t, const gasp_task *task, int parallel, int grammar,
                   int gpu_layers, int threads, int max_tokens, int rounds, speed_row *row, char *err, size_t cap) {
  gasp_backend_opts bo = {0};
  bo.model = model;
  bo.parallel = parallel;
  bo.grammar = grammar;
  bo.gpu_layers = gpu_layers;
  bo.threads = threads;
  gasp_backend *b = gasp_backend_open("llama", &bo, err, cap);
  if (!b) return -1;
  char *prompt = gasp_prompt_build(t, task, GASP_VARIANT_DEFAULT);
  memset(row, 0, sizeof *row);
  row->parallel = parallel;
  row->grammar = grammar;
  int rc = 0;
  /* round 0 warms up (context creation, grammar compile, first-touch of the weights) and is not counted */
  for (int r = 0; r <= rounds && !rc; r++) {
    gasp_gen_params gp;
    gasp_gen_params_default(&gp);
    gp.max_tokens = max_tokens;
    gp.temperature = 1.0; /* a random model at temperature 1: every sequence keeps going */
    gp.top_p = 1.0;
    gp.seed = 1000u * (unsigned)r + 1;
    gp.n_samples = parallel;
    for (int s = 0; s < parallel; s++) {
      gasp_answer a;
      gasp_diags d;
      gasp_diags_init(&d);
      if (b->generate(b, t, task, prompt, &gp, s, &a, &d)) {
        snprintf(err, cap, "%s", d.count ? d.items[0].msg : "generation failed");
        rc = -1;
      } else if (r > 0) {
        row->tokens += a.tokens;
        row->seqs++;
        row->truncated += a.truncated;
        if (s == 0) row->seconds += a.seconds; /* one batch: every answer carries the batch's time */
      }
      gasp_answer_free(&a);
      gasp_diags_free(&d);
      if (rc) break;
    }
  }
  free(prompt);
  gasp_backend_close(b);
  return rc;
}

int cmd_genspeed(int argc, char **argv) {
  const char *model = NULL, *target = "ptx-sm90", *task_id = "vector_add", *grammar = "both";
  int parallel = 32, tokens = 256, gpu_layers = 0, threads = 0, rounds = 2;
  gasp_opt opts[] = {
      {"model", 'm', OPT_STR, "M.gguf", "the model (default $GASP_MODEL, else the shipped models/gasp-small.gguf)", &model},
      {"target", 't', OPT_STR, "T", "the target whose grammar and prompt are used (default ptx-sm90)", &target},
      {"task", 0, OPT_STR, "ID", "the task whose prompt is decoded (default vector_add)", &task_id},
      {"parallel", 0, OPT_INT, "N", "the many-sequence case (default 32; 1 is always measured)", &parallel},
      {"tokens", 0, OPT_INT, "N", "tokens per sequence at most (default 256)", &tokens},
      {"grammar", 0, OPT_STR, "on|off|both", "with and/or without the grammar (default both)", &grammar},
      {"rounds", 0, OPT_INT, "N", "measured rounds after one warm-up round (default 2)", &rounds},
      {"gpu-layers", 0, OPT_INT, "N", "layers offloaded to the GPU (-1 all; default 0)", &gpu_layers},
      {"threads", 0, OPT_INT, "N", "CPU threads (default all cores)", &threads},
      {0}};
  gasp_cmd_spec spec = {"genspeed", "--model M.gguf [--parallel N] [--tokens N] [--grammar on|off|both]",
                        "Measure the llama backend's generation speed: 1 and N parallel sequences of one prompt, with "
                        "and without the target's grammar, side by side in one run.",
                        "Sampling runs at temperature 1 with a fresh seed per round. Sequences end early when the "
                        "model (or the grammar) ends them, so the table gives tokens actually generated.\n"
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
  int gon = !strcmp(grammar, "on") || !strcmp(grammar, "both"), goff = !strcmp(grammar, "off") || !strcmp(grammar, "both");
  if (!gon && !goff) {
    gasp_cli_error("genspeed", "--grammar must be on, off or both");
    return GASP_EXIT_USAGE;
  }
  if (parallel < 1 || parallel > 64 || tokens < 1 || rounds < 1) {
    gasp_cli_error("genspeed", "--parallel 1..64, --tokens and --rounds positive");
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
  speed_row rows[4];
  int n = 0, ps[2] = {1, parallel};
  char err[512];
  for (int g = 0; g < 2; g++) {
    if ((g == 0 && !goff) || (g == 1 && !gon)) continue;
    for (int k = 0; k < (parallel > 1 ? 2 : 1); k++) {
      if (measure(model, t, task, ps[k], g, gpu_layers, threads, tokens, rounds, &rows[n], err, sizeof err)) {
        gasp_cli_error("genspeed", "%s", err);
        gasp_taskset_free(&ts);
        return GASP_EXIT_ENV;
      }
      n++;
    }
  }
  printf("model %s, task %s, %s, up to %d tokens per sequence, %d round(s)\n\n", model, task_id, t->name, tokens, rounds);
  printf("%-9s %-8s %6s %8s %9s %10s %12s %9s\n", "grammar", "parallel", "seqs", "tokens", "seconds", "tokens/s",
         "per seq/s", "vs 1 seq");
  for (int i = 0; i < n; i++) {
    double tps = rows[i].seconds > 0 ? rows[i].tokens / rows[i].seconds : 0;
    double base = 0;
    for (int j = 0; j < n; j++)
      if (rows[j].grammar == rows[i].grammar && rows[j].parallel == 1 && rows[j].seconds > 0)
        base = rows[j].tokens / rows[j].seconds;
    printf("%-9s %-8d %6d %8d %9.3f %10.1f %12.1f %8.2fx\n", rows[i].grammar ? "on" : "off", rows[i].parallel,
           rows[i].seqs, rows[i].tokens, rows[i].seconds, tps, tps / rows[i].parallel,
           base > 0 ? tps / base : 0);
  }
  if (gon && goff) {
    printf("\ngrammar cost (1 - tokens/s with / without):");
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        if (rows[i].grammar == 0 && rows[j].grammar == 1 && rows[i].parallel == rows[j].parallel && rows[i].seconds > 0 &&
            rows[j].seconds > 0)
          printf("  %d seq: %.1f%%", rows[i].parallel,
                 100.0 * (1.0 - (rows[j].tokens / rows[j].seconds) / (rows[i].tokens / rows[i].seconds)));
    printf("\n");
  }
  gasp_taskset_free(&ts);
  return 0;
}
