/* `gasp tune`'s harvest: from a bench results file, the passing (prompt, answer) pairs as training pairs
 * (the corpus's JSONL shape), the prompt rebuilt exactly as bench built it (target, task, variant). */
#ifndef GASP_TRAIN_TUNE_H
#define GASP_TRAIN_TUNE_H

#include <stdint.h>
#include <stdio.h>

#include "../target/target.h"
#include "../task/task.h"

typedef struct {
  uint64_t *seen;   /* hashes of (task, answer) already kept, across rounds */
  size_t n, cap;
} gasp_tune_seen;

typedef struct {
  long records;     /* first-turn records of this target */
  long passed;      /* of which passed */
  long kept;        /* new pairs written (a passing answer seen before is kept once) */
} gasp_tune_harvest;

/* Reads results (JSONL from gasp bench) and appends a line {"task","family":"tune","level","target","prompt",
 * "completion","round","sample"} to pairs_out for every passing first-turn record of target t not seen before.
 * Returns 0, or -1 with the reason in err. */
int gasp_tune_harvest_pairs(const char *results, const gasp_taskset *ts, const gasp_target *t, int round,
                            FILE *pairs_out, gasp_tune_seen *seen, gasp_tune_harvest *h, char *err, size_t cap);
void gasp_tune_seen_free(gasp_tune_seen *s);

#endif
