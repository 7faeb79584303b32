/* The llama backend's token sampler (sample.h): llama.cpp's chain (top-k, top-p, min-p, temperature, dist)
 * computed over the logits in place, with vectorizable exponentials and a two-level draw. */
#define _GNU_SOURCE
#include "sample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* exp(x) for -87 <= x <= 0 (every argument here is a logit minus the maximum, clamped at -87 by the caller:
 * about 1e-38 instead of 0 there, which no draw can tell apart): Cephes expf's reduction x = n ln2 + r and its
 * degree-5 polynomial, relative error about 1e-7, branch-free so that the loops over the vocabulary vectorize
 * (gcc 12 does not vectorize the loop when the clamp is inside it). */
static inline float exp_neg(float x) {
  /* round to nearest by the 1.5 * 2^23 trick (no floorf, which needs SSE4.1 to vectorize) */
  float n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
  float r = x - n * 0.693359375f - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  float y = p * r * r + r + 1.0f;
  union { uint32_t u; float f; } scale = {(uint32_t)((int32_t)n + 127) << 23};
  return y * scale.f;
}

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256**, uniform in [0, 1) with 53 bits */
static double next_unit(gasp_sampler *s) {
  uint64_t *q = s->rng, r = rotl(q[1] * 5, 7) * 9, t = q[1] << 17;
  q[2] ^= q[0], q[3] ^= q[1], q[1] ^= q[2], q[0] ^= q[3], q[2] ^= t, q[3] = rotl(q[3], 45);
  return (double)(r >> 11) * 0x1.0p-53;
}

void gasp_sampler_init(gasp_sampler *s, double temperature, double top_p, double min_p, int top_k, uint64_t seed) {
  memset(s, 0, sizeof *s);
  s->temperature = temperature, s->top_p = top_p, s->min_p = min_p, s->top_k = top_k;
  for (int i = 0; i < 4; i++) s->rng[i] = splitmix64(&seed);
}

int gasp_sample_buf_reserve(gasp_sample_buf *b, int n) {
  if (n <= b->cap) return 0;
  int32_t *id = realloc(b->id, (size_t)n * sizeof *id);
  if (id) b->id = id;
  float *val = realloc(b->val, (size_t)n * sizeof *val);
  if (val) b->val = val;
  float *w = realloc(b->w, (size_t)n * sizeof *w);
  if (w) b->w = w;
  int32_t *idx = realloc(b->idx, (size_t)n * sizeof *idx);
  if (idx) b->idx = idx;
  if (!id || !val || !w || !idx) return -1;
  b->cap = n;
  return 0;
}

void gasp_sample_buf_free(gasp_sample_buf *b) {
  free(b->id), free(b->val), free(b->w), free(b->idx);
  memset(b, 0, sizeof *b);
}

static float max_of(const float *v, int n) {
  float m[8] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY};
  int i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; k++) m[k] = v[i + k] > m[k] ? v[i + k] : m[k];
  for (; i < n; i++) m[0] = v[i] > m[0] ? v[i] : m[0];
  for (int k = 1; k < 8; k++) m[0] = m[k] > m[0] ? m[k] : m[0];
  return m[0];
}

/* w[i] = exp((v[i] - m) * inv_t) for i < n, the argument clamped at -87 in a pass of its own (see exp_neg). */
static void exp_shifted(const float *v, int n, float m, float inv_t, float *w) {
  for (int i = 0; i < n; i++) {
    float x = (v[i] - m) * inv_t;
    w[i] = x < -87.0f ? -87.0f : x;
  }
  for (int i = 0; i < n; i++) w[i] = exp_neg(w[i]);
}

/* The sum of w[b0..e): eight float partial sums so that the adds vectorize without reassociation, then in
 * double (as llama.cpp's dist sums). */
static double block_sum(const float *w, int b0, int e) {
  float acc[8] = {0};
  int i = b0;
  for (; i + 8 <= e; i += 8)
    for (int k = 0; k < 8; k++) acc[k] += w[i + k];
  for (; i < e; i++) acc[0] += w[i];
  double s = 0;
  for (int k = 0; k < 8; k++) s += acc[k];
  return s;
}

/* w[i] = exp((v[i] - m) * inv_t); the sums of each block of DRAW_BLOCK in bsum, the total returned. */
#define DRAW_BLOCK 256
static double weigh(const float *v, int n, float m, float inv_t, float *w, double *bsum) {
  exp_shifted(v, n, m, inv_t, w);
  double total = 0;
  for (int b0 = 0, j = 0; b0 < n; b0 += DRAW_BLOCK, j++)
    total += bsum[j] = block_sum(w, b0, b0 + DRAW_BLOCK < n ? b0 + DRAW_BLOCK : n);
  return total;
}

/* The sum of w[0..n), block by block as weigh sums it. */
static double sum_of(const float *w, int n) {
  double total = 0;
  for (int b0 = 0; b0 < n; b0 += DRAW_BLOCK) total += block_sum(w, b0, b0 + DRAW_BLOCK < n ? b0 + DRAW_BLOCK : n);
  return total;
}

/* The index whose cumulative weight first reaches u * total: blocks first, then within one. */
static int pick(const float *w, int n, const double *bsum, double total, double u) {
  double target = u * total, run = 0;
  int nb = (n + DRAW_BLOCK - 1) / DRAW_BLOCK, last = -1;
  for (int j = 0; j < nb; j++) {
    if (run + bsum[j] < target && j + 1 < nb) {
      run += bsum[j];
      continue;
    }
    int e = (j + 1) * DRAW_BLOCK < n ? (j + 1) * DRAW_BLOCK : n;
    for (int i = j * DRAW_BLOCK; i < e; i++) {
      if (w[i] > 0) last = i;
      run += w[i];
      if (run >= target && w[i] > 0) return i;
    }
    run = run < target ? run : target; /* rounding left the target beyond this block: keep looking */
  }
  return last; /* rounding at the very end: the last token with weight */
}

static int cmp_idx_desc(const void *a, const void *b, void *ctx) {
  const float *v = ctx;
  float x = v[*(const int32_t *)a], y = v[*(const int32_t *)b];
  return x > y ? -1 : x < y ? 1 : (*(const int32_t *)a > *(const int32_t *)b) - (*(const int32_t *)a < *(const int32_t *)b);
}

static void sift_down(int32_t *h, int k, int i, const float *v) {
  for (;;) {
    int l = 2 * i + 1, r = l + 1, s = i;
    if (l < k && v[h[l]] < v[h[s]]) s = l;
    if (r < k && v[h[r]] < v[h[s]]) s = r;
    if (s == i) return;
    int32_t t = h[i];
    h[i] = h[s], h[s] = t, i = s;
  }
}

/* Sorts the `want` largest of val[0..n) to the front, descending, carrying id (a heap select, then a sort). */
static void sort_front(gasp_sample_buf *b, int n, int want) {
  int32_t *h = b->idx;
  if (want >= n) {
    for (int i = 0; i < n; i++) h[i] = i;
    want = n;
  } else {
    /* a min-heap of the `want` largest so far */
    for (int i = 0; i < want; i++) h[i] = i;
    for (int i = want / 2 - 1; i >= 0; i--) sift_down(h, want, i, b->val);
    for (int i = want; i < n; i++)
      if (b->val[i] > b->val[h[0]]) h[0] = i, sift_down(h, want, 0, b->val);
  }
  qsort_r(h, (size_t)want, sizeof *h, cmp_idx_desc, b->val);
  /* the chosen: values to w, ids over their heap slots, their old places marked (token ids are >= 0) */
  for (int i = 0; i < want; i++) {
    int32_t t = h[i];
    b->w[i] = b->val[t];
    h[i] = b->id[t];
    b->id[t] = -1;
  }
  /* the rest to [want, n) in their order, from the end (the write never passes the read) */
  for (int i = n - 1, out = n; i >= 0; i--)
    if (b->id[i] >= 0) out--, b->id[out] = b->id[i], b->val[out] = b->val[i];
  memcpy(b->id, h, (size_t)want * sizeof *h);
  memcpy(b->val, b->w, (size_t)want * sizeof *b->w);
}

typedef struct {
  float val;
  int32_t id;
} pair;

static int cmp_pair_desc(const void *a, const void *b) {
  const pair *x = a, *y = b;
  return x->val > y->val ? -1 : x->val < y->val ? 1 : (x->id > y->id) - (x->id < y->id);
}

/* llama.cpp's top-p: the probabilities at temperature 1 over every candidate, then the smallest set of the
 * most probable whose sum reaches p. Without sorting the vocabulary (llama.cpp sorts the top 256, then all
 * of it when they do not reach p, as with a flat distribution): the candidates are binned by logit below the
 * maximum (0.02 wide: a weight within 2% of its neighbours'), whole bins are kept while the sum stays below
 * p, and only the bin that crosses it is sorted. The survivors stay in candidate order (*sorted = 0). */
#define TOP_P_BINS 4096
#define TOP_P_RANGE 88.0f
static int top_p_stage(double top_p, gasp_sample_buf *b, int n, int *sorted) {
  float m = *sorted ? b->val[0] : max_of(b->val, n);
  float *w = b->w;
  exp_shifted(b->val, n, m, 1.0f, w);
  double target = top_p * sum_of(w, n), cum = 0;
  if (*sorted || n <= 64) {
    if (!*sorted) {
      sort_front(b, n, n);
      exp_shifted(b->val, n, m, 1.0f, w);
      *sorted = 1;
    }
    for (int i = 0; i < n; i++)
      if ((cum += w[i]) >= target) return i + 1;
    return n;
  }
  int32_t *bin = b->idx;
  static const float per = TOP_P_BINS / TOP_P_RANGE;
  for (int i = 0; i < n; i++) {
    float d = (m - b->val[i]) * per;
    bin[i] = d < (float)(TOP_P_BINS - 1) ? (int32_t)d : TOP_P_BINS - 1;
  }
  double *hist = calloc(TOP_P_BINS, sizeof *hist);
  int *count = calloc(TOP_P_BINS, sizeof *count);
  if (!hist || !count) {
    free(hist), free(count);
    return n; /* out of memory: no truncation rather than a wrong one */
  }
  for (int i = 0; i < n; i++) hist[bin[i]] += w[i], count[bin[i]]++;
  int cross = TOP_P_BINS;
  for (int j = 0; j < TOP_P_BINS; j++) {
    if (cum + hist[j] >= target) {
      cross = j;
      break;
    }
    cum += hist[j];
  }
  if (cross == TOP_P_BINS) { /* rounding kept the sum under p: everything */
    free(hist), free(count);
    return n;
  }
  pair *edge = malloc((size_t)count[cross] * sizeof *edge);
  int ne = 0, k = 0;
  if (!edge) {
    free(hist), free(count);
    return n;
  }
  for (int i = 0; i < n; i++) {
    if (bin[i] < cross) b->id[k] = b->id[i], b->val[k] = b->val[i], k++;
    else if (bin[i] == cross) edge[ne++] = (pair){b->val[i], b->id[i]};
  }
  qsort(edge, (size_t)ne, sizeof *edge, cmp_pair_desc);
  for (int e = 0; e < ne; e++) {
    b->id[k] = edge[e].id, b->val[k] = edge[e].val, k++;
    if ((cum += exp_neg(fmaxf(edge[e].val - m, -87.0f))) >= target) break;
  }
  free(hist), free(count), free(edge);
  *sorted = 0;
  return k;
}

/* Truncation stages over the candidates copied into b; returns how many survive, *sorted set when they are
 * in descending order. */
static int truncate_stages(const gasp_sampler *s, gasp_sample_buf *b, int n, int *sorted) {
  *sorted = 0;
  if (s->top_k > 0 && s->top_k < n) {
    sort_front(b, n, s->top_k);
    n = s->top_k, *sorted = 1;
  }
  if (s->top_p > 0 && s->top_p < 1 && n > 1) n = top_p_stage(s->top_p, b, n, sorted);
  if (s->min_p > 0 && n > 1) {
    float m = *sorted ? b->val[0] : max_of(b->val, n), thr = m + logf((float)s->min_p);
    int k = 0;
    for (int i = 0; i < n; i++)
      if (b->val[i] >= thr) b->id[k] = b->id[i], b->val[k] = b->val[i], k++;
    n = k;
  }
  return n;
}

static int greedy(const float *logits, int n) {
  int best = 0;
  for (int i = 1; i < n; i++)
    if (logits[i] > logits[best]) best = i;
  return best;
}

/* Where the draw happens: the candidates' logits and ids after the truncation stages (maybe in place). */
typedef struct {
  const float *val;
  const int32_t *id; /* NULL: index */
  int n;
} survivors;

static int stages(const gasp_sampler *s, const float *logits, const int32_t *ids, int n, gasp_sample_buf *b,
                  survivors *out) {
  int truncating = (s->top_k > 0 && s->top_k < n) || (s->top_p > 0 && s->top_p < 1) || s->min_p > 0;
  if (gasp_sample_buf_reserve(b, n)) return -1;
  if (!truncating) {
    *out = (survivors){logits, ids, n};
    return 0;
  }
  for (int i = 0; i < n; i++) b->id[i] = ids ? ids[i] : i;
  memcpy(b->val, logits, (size_t)n * sizeof *logits);
  int sorted;
  out->n = truncate_stages(s, b, n, &sorted);
  out->val = b->val, out->id = b->id;
  return 0;
}

int gasp_sampler_dist(const gasp_sampler *s, const float *logits, const int32_t *ids, int n, gasp_sample_buf *b,
                      int32_t *out_id, float *out_p) {
  if (n <= 0) return 0;
  if (s->temperature <= 0) {
    int g = greedy(logits, n);
    out_id[0] = ids ? ids[g] : g, out_p[0] = 1;
    return 1;
  }
  survivors v;
  if (stages(s, logits, ids, n, b, &v)) return 0;
  /* the survivors' weights go to out_p (b->w may hold the survivors' logits) */
  double *bsum = malloc(((size_t)v.n / DRAW_BLOCK + 1) * sizeof *bsum);
  if (!bsum) return 0;
  double z = weigh(v.val, v.n, max_of(v.val, v.n), (float)(1.0 / s->temperature), out_p, bsum);
  for (int i = 0; i < v.n; i++) out_id[i] = v.id ? v.id[i] : i, out_p[i] = (float)(out_p[i] / z);
  free(bsum);
  return v.n;
}

int32_t gasp_sampler_draw(gasp_sampler *s, const float *logits, const int32_t *ids, int n, gasp_sample_buf *b) {
  if (n <= 0) return -1;
  double u = next_unit(s); /* one draw per token whatever the stages, so seeds line up across settings */
  if (s->temperature <= 0) {
    int g = greedy(logits, n);
    return ids ? ids[g] : g;
  }
  survivors v;
  if (stages(s, logits, ids, n, b, &v)) return -1;
  if (v.n == 1) return v.id ? v.id[0] : 0;
  double bsum_small[64], *bsum = bsum_small;
  int nb = v.n / DRAW_BLOCK + 1;
  if (nb > 64 && !(bsum = malloc((size_t)nb * sizeof *bsum))) return -1;
  /* weights into b->w unless the survivors live there (they live in b->val and b->id) */
  double z = weigh(v.val, v.n, max_of(v.val, v.n), (float)(1.0 / s->temperature), b->w, bsum);
  int i = pick(b->w, v.n, bsum, z, u);
  if (bsum != bsum_small) free(bsum);
  if (i < 0) i = 0;
  return v.id ? v.id[i] : i;
}
