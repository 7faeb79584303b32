/* Summary statistics over results rows: the stage funnel, pass@1 and pass@k (the unbiased estimator of
 * Chen et al. 2021), fast_1 and counts per failure class, per level and overall. */
#ifndef GASP_STATS_H
#define GASP_STATS_H

#include <stdio.h>

#include "results.h"

/* 1 - C(n-c, k) / C(n, k), computed as a product to stay exact for large n. */
double gasp_pass_at_k(int n, int c, int k);

typedef struct {
  long n, extracted, assembled, loaded, ran, correct, fast, skipped;
  long classes[GASP_CLASS_COUNT];
  double pass1_sum, passk_sum; /* sums over task groups */
  long groups;
} gasp_bucket;

/* Writes the summary table (per level, then overall) for the given k. */
void gasp_summary_print(const gasp_rows *rows, int k, FILE *out);
/* Fills buckets[0..7] per level and buckets[8] overall. */
void gasp_summary_compute(const gasp_rows *rows, int k, gasp_bucket buckets[9]);

/* Repair lift: for candidates that had repair turns in the file, the share correct after turn 0, after at most
 * one repair, and so on. Prints nothing when no record has turn > 0. Fills lift[t] (shares) up to max_turns. */
int gasp_repair_compute(const gasp_rows *rows, double *lift, int max_turns, long *candidates);
void gasp_repair_print(const gasp_rows *rows, FILE *out);

#endif
