/* The llama backend's token sampler: top-k, top-p, min-p, temperature and the draw, in that order (llama.cpp's
 * chain order and semantics: top-p and min-p are judged at temperature 1), over raw logits or over a list of
 * candidates (the tokens a grammar allows). Why not llama.cpp's sampler chain: it works on an array of
 * {id, logit, p} structs that must first be built for the whole vocabulary, and its draw takes one expf per
 * token; on the H200 that was 0.3 ms of a 1.2 ms step for one sequence (docs/measurements-h200.md). This one
 * reads the logits in place, keeps only the survivors of each stage, and its exponentials vectorize.
 * tests/unit/test_sample.c holds it to llama.cpp's chain: same kept tokens, same probabilities. */
#ifndef GASP_LLM_SAMPLE_H
#define GASP_LLM_SAMPLE_H

#include <stdint.h>

typedef struct {
  double temperature; /* <= 0: greedy */
  double top_p;       /* 0 or >= 1: off */
  double min_p;       /* 0: off */
  int top_k;          /* 0: off */
  uint64_t rng[4];    /* xoshiro256** state */
} gasp_sampler;

/* Scratch for one sampler call: room for n candidates; one per thread. */
typedef struct {
  int cap;
  int32_t *id;
  float *val;
  float *w;
  int32_t *idx;
} gasp_sample_buf;

void gasp_sampler_init(gasp_sampler *s, double temperature, double top_p, double min_p, int top_k, uint64_t seed);
/* Grows b to hold n candidates; 0, or -1 when out of memory. */
int gasp_sample_buf_reserve(gasp_sample_buf *b, int n);
void gasp_sample_buf_free(gasp_sample_buf *b);

/* The distribution the sampler draws from: the tokens kept and their probabilities, in out_id/out_p (room for
 * n) by descending probability when a stage sorted them, else in candidate order. Candidates are
 * ids[i] with logits[i] for i < n; ids NULL means token i. Returns how many are kept (n > 0 keeps at least
 * one). */
int gasp_sampler_dist(const gasp_sampler *s, const float *logits, const int32_t *ids, int n, gasp_sample_buf *b,
                      int32_t *out_id, float *out_p);
/* Draws one token (advancing the random state); -1 when n is 0. */
int32_t gasp_sampler_draw(gasp_sampler *s, const float *logits, const int32_t *ids, int n, gasp_sample_buf *b);

#endif
