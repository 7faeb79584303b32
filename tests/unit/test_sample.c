/* The llama backend's sampler (src/llm/sample.c):
 *  1. its distribution is llama.cpp's chain's (top-k, top-p, min-p, temperature, dist built as llama.c built it
 *     before): the same tokens kept (or one more or less, weighing under 1e-4, at a top-p boundary among
 *     thousands of near-equal tokens), probabilities within 2e-5, over random logits of a 32k vocabulary, peaked and
 *     flat, and over candidate lists (a grammar's allowed tokens);
 *  2. its draws follow that distribution (a chi-square over 50k draws), greedy takes the first maximum, and a
 *     seed gives the same draws again.
 * Part 1 needs libllama (GASP_HAVE_LLAMA); part 2 runs everywhere. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "llm/sample.h"
#ifdef GASP_HAVE_LLAMA
#include "llama.h"
#endif

#define NV 32000

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static double unit(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) * 0x1.0p-53;
}

/* logits as a model gives them: a spread `scale` wide, a few tokens lifted above the rest */
static void fill(float *l, int n, double scale, int lifted) {
  for (int i = 0; i < n; i++) l[i] = (float)((unit() - 0.5) * scale);
  for (int k = 0; k < lifted; k++) l[(int)(unit() * n)] += (float)(scale * (1 + unit()));
}

typedef struct {
  double temp, top_p, min_p;
  int top_k;
} setting;

static const setting settings[] = {
    {1.0, 1.0, 0, 0},  {0.7, 0.95, 0, 0}, {0.2, 0.95, 0, 0}, {1.0, 0.9, 0, 40}, {0.8, 1.0, 0.05, 0},
    {1.3, 0.5, 0.1, 0}, {1.0, 1.0, 0, 5},  {0.5, 0.99, 0.01, 100},
};
#define NSET (int)(sizeof settings / sizeof settings[0])

#ifdef GASP_HAVE_LLAMA
/* the chain llama.c used to build (make_chain), applied to the same candidates */
static int llama_dist(const setting *s, const float *logits, const int32_t *ids, int n, int32_t *out_id, float *out_p) {
  struct llama_sampler_chain_params cp = llama_sampler_chain_default_params();
  struct llama_sampler *c = llama_sampler_chain_init(cp);
  if (s->top_k > 0) llama_sampler_chain_add(c, llama_sampler_init_top_k(s->top_k));
  if (s->top_p > 0 && s->top_p < 1) llama_sampler_chain_add(c, llama_sampler_init_top_p((float)s->top_p, 1));
  if (s->min_p > 0) llama_sampler_chain_add(c, llama_sampler_init_min_p((float)s->min_p, 1));
  llama_sampler_chain_add(c, llama_sampler_init_temp((float)s->temp));
  llama_sampler_chain_add(c, llama_sampler_init_dist(1));
  llama_token_data *d = malloc((size_t)n * sizeof *d);
  for (int i = 0; i < n; i++) d[i] = (llama_token_data){ids ? ids[i] : i, logits[i], 0};
  llama_token_data_array arr = {d, (size_t)n, -1, false};
  llama_sampler_apply(c, &arr);
  for (size_t i = 0; i < arr.size; i++) out_id[i] = arr.data[i].id, out_p[i] = arr.data[i].p;
  int k = (int)arr.size;
  free(d);
  llama_sampler_free(c);
  return k;
}

/* p by token id (the two lists may be in different orders) */
static void by_id(const int32_t *id, const float *p, int n, float *p_of) {
  for (int i = 0; i < n; i++) p_of[id[i]] = p[i];
}

static void against_llama(void) {
  float *l = malloc(NV * sizeof *l), *pa = malloc(NV * sizeof *pa), *pb = malloc(NV * sizeof *pb);
  float *pa_of = calloc(NV, sizeof *pa_of), *pb_of = calloc(NV, sizeof *pb_of);
  int32_t *ia = malloc(NV * sizeof *ia), *ib = malloc(NV * sizeof *ib), *ids = malloc(NV * sizeof *ids);
  gasp_sample_buf buf = {0};
  int cases = 0, bad = 0;
  for (int round = 0; round < 24; round++) {
    double scale = round % 3 == 0 ? 2.0 : round % 3 == 1 ? 12.0 : 40.0; /* flat, model-like, peaked */
    fill(l, NV, scale, 1 + round % 7);
    /* odd rounds: a grammar's allowed tokens, a random subset in vocabulary order */
    int n = NV;
    const int32_t *idp = NULL;
    float *lv = l;
    float *sub = NULL;
    if (round % 2) {
      sub = malloc(NV * sizeof *sub);
      n = 0;
      double keep = round % 4 == 1 ? 0.002 : 0.2;
      for (int i = 0; i < NV; i++)
        if (unit() < keep) ids[n] = i, sub[n++] = l[i];
      if (!n) ids[n] = 7, sub[n++] = l[7];
      idp = ids, lv = sub;
    }
    for (int k = 0; k < NSET; k++) {
      const setting *s = &settings[k];
      gasp_sampler g;
      gasp_sampler_init(&g, s->temp, s->top_p, s->min_p, s->top_k, 1);
      int na = gasp_sampler_dist(&g, lv, idp, n, &buf, ia, pa);
      int nb = llama_dist(s, lv, idp, n, ib, pb);
      cases++;
      /* the same tokens with the same probabilities; at a top-p boundary among thousands of near-equal
       * tokens, float sums in another order may keep one token more or less: allowed when it weighs < 1e-4 */
      memset(pa_of, 0, NV * sizeof *pa_of), memset(pb_of, 0, NV * sizeof *pb_of);
      by_id(ia, pa, na, pa_of), by_id(ib, pb, nb, pb_of);
      double apart = 0, worst = 0;
      for (int i = 0; i < na; i++)
        if (pb_of[ia[i]] == 0) apart += pa_of[ia[i]];
      for (int i = 0; i < nb; i++) {
        if (pa_of[ib[i]] == 0) apart += pb_of[ib[i]];
        else worst = fmax(worst, fabs(pa_of[ib[i]] - pb_of[ib[i]]));
      }
      int same = abs(na - nb) <= 1 && apart < 1e-4 && worst <= 2e-5;
      if (!same && bad++ < 5)
        printf("  round %d (n %d, scale %.0f) temp %.1f top_p %.2f min_p %.2f top_k %d: gasp keeps %d, llama.cpp %d\n",
               round, n, scale, s->temp, s->top_p, s->min_p, s->top_k, na, nb);
    }
    free(sub);
  }
  CHECK(bad == 0, "%d of %d distributions differ from llama.cpp's chain", bad, cases);
  printf("against llama.cpp's chain: %d distributions, %d differ\n", cases, bad);
  gasp_sample_buf_free(&buf);
  free(l), free(pa), free(pb), free(pa_of), free(pb_of), free(ia), free(ib), free(ids);
}
#endif

/* Draws against the distribution: chi-square over the kept tokens (binned where expected counts are small). */
static void draws_follow(void) {
  int n = 2000;
  float *l = malloc((size_t)n * sizeof *l), *p = malloc((size_t)n * sizeof *p);
  int32_t *id = malloc((size_t)n * sizeof *id);
  long *count = calloc((size_t)n, sizeof *count);
  gasp_sample_buf buf = {0};
  for (int k = 0; k < NSET; k++) {
    const setting *s = &settings[k];
    fill(l, n, 6.0, 3);
    gasp_sampler g;
    gasp_sampler_init(&g, s->temp, s->top_p, s->min_p, s->top_k, 42 + (uint64_t)k);
    int kept = gasp_sampler_dist(&g, l, NULL, n, &buf, id, p);
    double *p_of = calloc((size_t)n, sizeof *p_of);
    for (int i = 0; i < kept; i++) p_of[id[i]] = p[i];
    memset(count, 0, (size_t)n * sizeof *count);
    int draws = 50000, outside = 0;
    for (int d = 0; d < draws; d++) {
      int32_t t = gasp_sampler_draw(&g, l, NULL, n, &buf);
      if (t < 0 || t >= n || p_of[t] == 0) outside++;
      else count[t]++;
    }
    /* bins of expected count >= 20 (tokens in id order, merged) */
    double chi = 0, exp_acc = 0;
    long obs_acc = 0;
    int bins = 0;
    for (int t = 0; t < n; t++) {
      exp_acc += p_of[t] * draws, obs_acc += count[t];
      if (exp_acc >= 20 || (t == n - 1 && exp_acc > 0)) {
        chi += (obs_acc - exp_acc) * (obs_acc - exp_acc) / exp_acc;
        bins++, exp_acc = 0, obs_acc = 0;
      }
    }
    /* mean bins-1, sd sqrt(2(bins-1)): 6 sd is far beyond chance, a wrong draw is far beyond that */
    double limit = (bins - 1) + 6 * sqrt(2.0 * (bins > 1 ? bins - 1 : 1)) + 10;
    CHECK(outside == 0, "setting %d: %d draws outside the kept tokens", k, outside);
    CHECK(chi < limit, "setting %d: chi-square %.1f over %d bins (limit %.1f)", k, chi, bins, limit);
    free(p_of);
  }
  /* greedy: the first maximum, whatever the seed */
  for (int i = 0; i < n; i++) l[i] = (float)(i % 17);
  gasp_sampler g;
  gasp_sampler_init(&g, 0, 0.95, 0, 0, 3);
  CHECK(gasp_sampler_draw(&g, l, NULL, n, &buf) == 16, "greedy takes the first maximum");
  int32_t ids[3] = {5, 9, 700};
  float lv[3] = {1, 3, 3};
  CHECK(gasp_sampler_draw(&g, lv, ids, 3, &buf) == 9, "greedy over candidates names the candidate's token");
  /* the same seed, the same draws; another seed, others */
  fill(l, n, 3.0, 0);
  gasp_sampler a, b, c;
  gasp_sampler_init(&a, 1.0, 0.95, 0, 0, 7), gasp_sampler_init(&b, 1.0, 0.95, 0, 0, 7);
  gasp_sampler_init(&c, 1.0, 0.95, 0, 0, 8);
  int same = 1, differ = 0;
  for (int d = 0; d < 100; d++) {
    int32_t x = gasp_sampler_draw(&a, l, NULL, n, &buf), y = gasp_sampler_draw(&b, l, NULL, n, &buf),
            z = gasp_sampler_draw(&c, l, NULL, n, &buf);
    same &= x == y, differ += x != z;
  }
  CHECK(same, "one seed gives the same draws");
  CHECK(differ > 50, "another seed gives other draws (%d of 100 differ)", differ);
  CHECK(gasp_sampler_draw(&a, l, NULL, 0, &buf) == -1, "no candidates, no token");
  gasp_sample_buf_free(&buf);
  free(l), free(p), free(id), free(count);
}

int main(void) {
  draws_follow();
#ifdef GASP_HAVE_LLAMA
  against_llama();
#else
  printf("libllama not built: the comparison with llama.cpp's chain is skipped\n");
#endif
  return DONE();
}
