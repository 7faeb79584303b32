/* One candidate through the whole pipeline: extract -> prepare -> check/assemble -> run -> verify -> time.
 * The result is a gasp_record, the row of the results file. */
#ifndef GASP_EVAL_H
#define GASP_EVAL_H

#include <stdint.h>

#include "../core/diag.h"
#include "../exec/pool.h"
#include "../llm/backend.h"
#include "../target/target.h"
#include "../task/task.h"
#include "../verify/verify.h"

typedef struct {
  /* identity (the resume key is task, target, backend, model, variant, sample) */
  char task[64];
  int level;
  char target[32];
  char backend[32];
  char model[128];
  char variant[48];
  int sample;
  uint64_t seed;
  int turn;
  /* what happened */
  char *answer;            /* owned; may hold NUL bytes (answer_len counts them) */
  size_t answer_len;
  gasp_stage stage;        /* last stage reached */
  gasp_class cls;
  gasp_diags diags;
  gasp_verdict verdict;
  double t_generate_s, t_check_s, t_run_s;
  int gpu_ran;             /* 0 when the run stage was skipped (no GPU here) */
  char skip_reason[160];
  char device[128];
  double tokens_per_s;
  int tokens;
  int infra_error;         /* no answer could be had (backend down, file missing): --resume retries it */
  int rewrites;            /* changes the target's rewriters made before checking (--rewrite) */
  int grammar;             /* the answer was decoded under the target's grammar */
  int parsed;              /* our own parser (target->parse) accepted the extracted code: 1, 0; -1 not known */
  int truncated;           /* generation stopped at max tokens */
  gasp_tok_logprob *logprobs; /* owned; per generated token (llama backend with --logprobs) */
  int nlogprobs;
} gasp_record;

void gasp_record_init(gasp_record *r);
void gasp_record_free(gasp_record *r);

typedef struct {
  gasp_pool *pool;         /* NULL: no GPU here; run is skipped */
  const char *no_gpu_reason;
  uint64_t seed;
  int time;                /* time passing candidates against the baseline */
  int flush_l2;
  const gasp_binary *baseline;
  double *baseline_cache_ms;
  int stop_after_check;    /* `gasp check` / `asm`: no run */
  int rewrite;             /* run the target's rewriters before checking */
  gasp_binary *binary_out; /* when not NULL, receives the assembled binary */
  char **source_out;       /* when not NULL, receives the assembler input after the rewriters (malloc'd; the
                            * caller frees), e.g. SASS with the control codes --fix gave it */
  int allow_hazards;       /* run a binary the check refused for hazards alone (targets that assemble despite
                            * them, SASS): what the hardware does with them; the record keeps the errors */
} gasp_eval_opts;

/* Fills rec->stage, cls, diags, verdict from rec->answer. Returns 0, or -1 when the GPU pool broke for
 * good (the record says so too). */
int gasp_eval(const gasp_target *t, const gasp_task *task, const gasp_eval_opts *o, gasp_record *rec);

/* Extract, check and assemble one answer (no run). Returns 0 with *bin filled (caller frees), or -1 with
 * the diagnostics that stopped it. */
int gasp_assemble_answer(const gasp_target *t, const gasp_task *task, const char *answer, gasp_binary *bin,
                         gasp_diags *d);

#endif
