/* Helpers shared by subcommands: loading the suite, finding targets, opening the GPU, printing diagnostics. */
#ifndef GASP_CLI_COMMON_H
#define GASP_CLI_COMMON_H

#include <stdio.h>

#include "../eval/eval.h"
#include "../exec/pool.h"
#include "../target/target.h"
#include "../task/task.h"

/* Loads the suite; prints load errors to stderr. Returns 0, or GASP_EXIT_ENV. */
int cli_load_tasks(const char *cmd, gasp_taskset *ts, int strict);
const gasp_target *cli_target(const char *cmd, const char *name);
/* --target's help for the subcommands that take every target (the registry of src/target/registry.c; keep the two
 * in step) */
#define CLI_TARGET_HELP "the target: ptx-sm90, ptx-sm89, sass-sm90, sass-sm89, gfx900, gfx1030, gfx1100 or r300 ('gasp targets')"
/* The backend when none is named: the embedded llama once a model is configured (--model M.gguf, or
 * $GASP_MODEL without --model, or the shipped model), else the reference compiler. --model none: reference. */
const char *cli_default_backend(const char *model_opt);
/* The shipped default model when it is there: $GASP_DATA_DIR/models/gasp-small.gguf, else models/gasp-small.gguf
 * of the source tree gasp was built from (GASP_SHIPPED_MODEL); NULL when neither exists. */
const char *cli_shipped_model(void);
#ifdef GASP_SHIPPED_MODEL
#define GASP_SHIPPED_MODEL_PATH GASP_SHIPPED_MODEL
#else
#define GASP_SHIPPED_MODEL_PATH "models/gasp-small.gguf"
#endif
/* The GGUF the llama backend loads: --model (NULL for "none"), else $GASP_MODEL, else the shipped model. */
const char *cli_llama_model(const char *model_opt);
/* --model none: no model at all (not $GASP_MODEL, not the shipped one). */
int cli_model_none(const char *model_opt);
/* Opens the GPU pool unless GASP_NO_GPU is set; on failure returns NULL and fills why. */
gasp_pool *cli_open_pool(const gasp_pool_opts *o, char *why, size_t cap);
void cli_print_diags(const gasp_diags *d, const char *file, FILE *out);
/* Reads an answer file with the answer size limit (+1 so an oversized one is seen as such). */
int cli_read_answer(const char *cmd, const char *path, char **text, size_t *len);
/* Runs this gasp executable with argv[1..] (argv[0] is overwritten) and waits: its exit status, 128+signal,
 * or -1 when it could not start. */
int cli_run_self(char **argv);
/* Runs argv[0] (looked up in PATH, no shell) with argv and waits; as cli_run_self. */
int cli_run_argv(char **argv);
/* gasp bench run in this process for the corpus subcommands, which judge through it so that their records are
 * the benchmark's own: --target, --backend, -o and --seed always, --no-time (records that repeat byte for byte);
 * the rest only when set. Returns cmd_bench's exit status (130 when interrupted). */
typedef struct {
  const char *target, *backend, *results;
  const char *tasks_dir;  /* the task set bench loads ($GASP_TASKS_DIR for the call, restored after), or NULL */
  const char *answers;    /* --answers FILE (the files backend), or NULL */
  const char *tasks_glob; /* --tasks GLOB, or NULL */
  int samples;            /* --samples K when > 0 */
  int seed, workers;      /* --workers K when > 0 */
  int resume, quiet;
} cli_bench_call;
int cli_run_bench(const cli_bench_call *c);
/* A stand-in task for checking a file with no task: a whole module, no snippet, default budget. */
void cli_default_task(gasp_task *t);

#endif
