/* A fork-join pool for the llama backend's sampling and grammar phases, run for every sequence of a step; when a
 * grammar state's mask is not cached it is computed over the whole vocabulary, and that masking dominates: one
 * full mask over 32k tokens took ~30 ms for our PTX grammar here. The
 * grammar's apply only reads its state (llama_grammar_apply_impl is const), so disjoint slices of one candidate
 * array are masked in parallel, and sequences in parallel. */
#ifndef GASP_LLM_FJPOOL_H
#define GASP_LLM_FJPOOL_H

typedef struct gasp_fjpool gasp_fjpool;

/* threads - 1 workers (the caller is the last); NULL when out of memory, which gasp_fjpool_run treats as none. */
gasp_fjpool *gasp_fjpool_open(int threads);
/* Runs fn(ctx, 0..items-1) on the pool's threads and the caller's; returns when all are done. One item, or no
 * workers, runs on the caller alone (no wake-up). */
void gasp_fjpool_run(gasp_fjpool *p, int items, void (*fn)(void *ctx, int item), void *ctx);
void gasp_fjpool_close(gasp_fjpool *p);

#endif
