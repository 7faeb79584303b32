/* Coverage of what clang-19 emits for the kinds of task in the suite (tests/amdemu/coverage.cl) on gfx900,
 * gfx1030 and gfx1100: each kernel must run to completion in the emulator (no unsupported opcode) and match
 * the CPU reference below: exactly, or within the stated relative tolerance where the compiler may contract
 * a*b+c into one fused operation or expand sqrt/exp/log into refinement sequences. */
#include <math.h>

#include "check.h"
#include "test_amdemu_util.h"

#ifndef AMDEMU_DIR
#error AMDEMU_DIR must name tests/amdemu
#endif

enum { N = 1000, PAD = 64 };
typedef void (*ref_fn)(const void *x, const void *y, void *out, unsigned ws);

#define EWF(fn, expr) static void fn(const void *xv, const void *yv, void *ov, unsigned ws) { \
    const float *X = xv, *Y = yv; float *o = ov; (void)ws; \
    for (int i = 0; i < N; i++) { float x = X[i], y = Y[i]; (void)y; o[i] = (expr); } }
#define EWI(fn, T, expr) static void fn(const void *xv, const void *yv, void *ov, unsigned ws) { \
    const T *X = xv, *Y = yv; T *o = ov; (void)ws; \
    for (int i = 0; i < N; i++) { T x = X[i], y = Y[i]; (void)y; o[i] = (expr); } }

static float smooth(float x) { float t = fminf(fmaxf(x * 0.1f, 0.0f), 1.0f); return t * t * (3.0f - 2.0f * t); }
EWF(r_abs, fabsf(x))
EWF(r_neg, -x)
EWF(r_clamp, fminf(fmaxf(x, -1.0f), 1.0f))
EWF(r_leaky, x > 0.0f ? x : 0.01f * x)
EWF(r_lerp, x + 0.3f * (y - x))
EWF(r_fma, fmaf(x, y, 1.5f))
EWF(r_horner, ((0.5f * x + 1.25f) * x - 2.0f) * x + 3.0f)
EWF(r_sqrt, sqrtf(fabsf(x)))
EWF(r_div, x / y)
EWF(r_exp, expf(x * 0.1f))
EWF(r_log, logf(fabsf(x) + 1.0f))
EWF(r_cvt, (float)(int)x + (float)(uint32_t)fabsf(x))
EWF(r_smooth, smooth(x))
EWF(r_floor, floorf(x) + ceilf(y) + truncf(x * y) + rintf(x - y))
EWF(r_minmax, fminf(x, y) * 2.0f + fmaxf(x, y))
EWI(r_popc, uint32_t, (uint32_t)__builtin_popcount(x) + (uint32_t)__builtin_clz(y | 1u) + (uint32_t)__builtin_ctz(x | 0x80000000u))
EWI(r_mul_lo, uint32_t, x * y + (uint32_t)((int32_t)x >> 3) - (y >> 5))
EWI(r_shl, uint32_t, (x << (y & 31u)) ^ (y >> 7) ^ ((x & 0xff00ff00u) | 0x11u))
EWI(r_absdiff, uint32_t, x > y ? x - y : y - x)
EWI(r_sign, int32_t, x > 0 ? 1 : x < 0 ? -1 : 0)
EWI(r_divu, uint32_t, x / ((y & 0xffffu) + 1u) + x % ((y & 0xffu) + 3u))
static int32_t divs(int32_t x, int32_t y) { int32_t d = (y & 0xfff) - 2048 == 0 ? 7 : (y & 0xfff) - 2048; return x == INT32_MIN && d == -1 ? x : x / d; }
EWI(r_divs, int32_t, divs(x, y))
EWI(r_mul64, uint64_t, x * y + (x >> 7))
static int32_t powi(int32_t x, int32_t y) { int32_t b = x % 7; uint32_t r = 1; for (int k = 0; k < (y & 15); k++) r *= (uint32_t)b; return (int32_t)r; }
EWI(r_pow, int32_t, powi(x, y))
static uint32_t collatz(uint32_t x) { uint32_t v = (x & 0xffffu) + 1u, s = 0; while (v != 1u && s < 1000u) { v = (v & 1u) ? 3u * v + 1u : v >> 1; s++; } return s; }
EWI(r_collatz, uint32_t, collatz(x))
static uint32_t hash(uint32_t h) { h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16; return h; }
EWI(r_hash, uint32_t, hash(x))
static void r_rowsum(const void *xv, const void *yv, void *ov, unsigned ws) {
  const float *x = xv; float *o = ov; (void)yv; (void)ws;
  for (int i = 0; i < N / 16; i++) { float s = 0; for (int k = 0; k < 16; k++) s += x[i * 16 + k]; o[i] = s; }
}
static void r_reverse(const void *xv, const void *yv, void *ov, unsigned ws) {
  const int32_t *x = xv; int32_t *o = ov; (void)yv; (void)ws;
  for (int i = 0; i < N; i++) { int s = (i & ~63) + 63 - (i & 63); o[i] = s < N ? x[s] : 0; }
}
static void r_stencil(const void *xv, const void *yv, void *ov, unsigned ws) {
  const float *x = xv; float *o = ov; (void)yv; (void)ws;
  for (int i = 0; i < N; i++) o[i] = 0.25f * (i > 0 ? x[i - 1] : 0.0f) + 0.5f * x[i] + 0.25f * (i + 1 < N ? x[i + 1] : 0.0f);
}
static void r_scan(const void *xv, const void *yv, void *ov, unsigned ws) {
  const int32_t *x = xv; int32_t *o = ov; (void)yv; (void)ws;
  for (int i = 0; i < N; i++) { uint32_t s = 0; for (int j = i & ~63; j <= i; j++) s += (uint32_t)x[j]; o[i] = (int32_t)s; }
}
static void r_ballot(const void *xv, const void *yv, void *ov, unsigned ws) {
  const int32_t *x = xv; int32_t *o = ov; (void)yv;
  for (int i = 0; i < N; i++) {
    int first = i & ~(int)(ws - 1), c = 0;
    for (int j = first; j < first + (int)ws; j++) c += j < N && x[j] > 0;
    o[i] = c + x[first];
  }
}
static void r_swizzle(const void *xv, const void *yv, void *ov, unsigned ws) {
  const int32_t *x = xv; int32_t *o = ov; (void)yv; (void)ws;
  for (int i = 0; i < N; i++) { uint32_t s = 0; for (int j = i & ~31; j < (i & ~31) + 32; j++) s += j < N ? (uint32_t)x[j] : 0; o[i] = (int32_t)s; }
}
static void r_bperm(const void *xv, const void *yv, void *ov, unsigned ws) {
  const int32_t *x = xv; int32_t *o = ov; (void)yv;
  for (int i = 0; i < N; i++) {
    int first = i & ~(int)(ws - 1), m = INT32_MIN;
    for (int j = first; j < first + (int)ws; j++) { int v = x[j < N ? j : 0]; m = v > m ? v : m; }
    o[i] = m;
  }
}
static void r_dppscan(const void *xv, const void *yv, void *ov, unsigned ws) {
  const int32_t *x = xv; int32_t *o = ov; (void)yv; (void)ws;
  for (int i = 0; i < N; i++) { uint32_t s = 0; for (int j = i & ~15; j <= i; j++) s += (uint32_t)x[j]; o[i] = (int32_t)s; }
}
static void r_atomic(const void *xv, const void *yv, void *ov, unsigned ws) {
  const int32_t *x = xv; int32_t *o = ov; (void)yv; (void)ws;
  for (int i = 0; i < 8; i++) o[i] = 0;
  for (int i = 0; i < N; i++) o[x[i] & 7]++;
}

enum { KF, KI, KU, KL };
typedef struct {
  const char *name;
  int kind;       /* element type of x, y and out */
  ref_fn ref;
  double rel;     /* 0: exact */
  int nout;       /* elements compared */
  int out_int;    /* out is int even though inputs are float (mandel) */
} cov_case;

static const cov_case cases[] = {
    {"c_abs", KF, r_abs, 0, N, 0}, {"c_neg", KF, r_neg, 0, N, 0}, {"c_clamp", KF, r_clamp, 0, N, 0},
    {"c_leaky", KF, r_leaky, 0, N, 0}, {"c_lerp", KF, r_lerp, -1e-5, N, 0}, {"c_fma", KF, r_fma, 0, N, 0},
    {"c_horner", KF, r_horner, 1e-5, N, 0}, {"c_sqrt", KF, r_sqrt, 2e-7, N, 0}, {"c_div", KF, r_div, 3e-7, N, 0},
    {"c_exp", KF, r_exp, 1e-6, N, 0}, {"c_log", KF, r_log, 1e-6, N, 0}, {"c_cvt", KF, r_cvt, 0, N, 0},
    {"c_smooth", KF, r_smooth, 1e-6, N, 0}, {"c_floor", KF, r_floor, 1e-6, N, 0}, {"c_minmax", KF, r_minmax, 1e-6, N, 0},
    {"c_popc", KU, r_popc, 0, N, 0}, {"c_mul_lo", KI, r_mul_lo, 0, N, 0}, {"c_shl", KU, r_shl, 0, N, 0},
    {"c_absdiff", KU, r_absdiff, 0, N, 0}, {"c_sign", KI, r_sign, 0, N, 0}, {"c_divu", KU, r_divu, 0, N, 0},
    {"c_divs", KI, r_divs, 0, N, 0}, {"c_mul64", KL, r_mul64, 0, N, 0}, {"c_pow_int", KI, r_pow, 0, N, 0},
    {"c_collatz", KU, r_collatz, 0, N, 0}, {"c_hash", KU, r_hash, 0, N, 0}, {"c_rowsum", KF, r_rowsum, 0, N / 16, 0},
    {"c_reverse", KI, r_reverse, 0, N, 0}, {"c_stencil", KF, r_stencil, 1e-6, N, 0}, {"c_scan", KI, r_scan, 0, N, 0},
    {"c_ballot", KI, r_ballot, 0, N, 0}, {"c_swizzle_sum", KI, r_swizzle, 0, N, 0}, {"c_bperm_max", KI, r_bperm, 0, N, 0},
    {"c_dpp_scan", KI, r_dppscan, 0, N, 0}, {"c_atomic", KI, r_atomic, 0, 8, 0}, {"c_mandel", KF, NULL, 0, N, 1},
};

static uint64_t rs = 99991;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (uint32_t)rs; }

int main(void) {
  char *src;
  size_t len;
  CHECK(gasp_read_file(AMDEMU_DIR "/coverage.cl", 1 << 20, &src, &len) == 0, "read coverage.cl");
  if (!src) return DONE();
  const char *gens[] = {"gfx900", "gfx1030", "gfx1100"};
  static uint64_t xb[N + PAD], yb[N + PAD], ob[N + PAD], want[N + PAD];
  for (int g = 0; g < 3; g++) {
    emu_fixture f;
    memset(&f, 0, sizeof f);
    f.mcpu = gens[g];
    f.obj = build_hsaco(src, 1, gens[g], &f.len);
    CHECK(f.obj != NULL, "build coverage.cl for %s", gens[g]);
    if (!f.obj) continue;
    unsigned ws = g == 0 ? 64 : 32;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      const cov_case *k = &cases[c];
      size_t es = k->kind == KL ? 8 : 4;
      for (int i = 0; i < N + PAD; i++) {
        uint64_t a = rnd() | (uint64_t)rnd() << 32, b = rnd() | (uint64_t)rnd() << 32;
        if (k->kind == KF) {
          float fx = (float)(int)(rnd() % 200001 - 100000) / 10000.0f, fy = (float)(int)(rnd() % 200001 - 100000) / 10000.0f;
          if (fy == 0.0f) fy = 0.5f;
          uint32_t ux, uy;
          memcpy(&ux, &fx, 4);
          memcpy(&uy, &fy, 4);
          ((uint32_t *)xb)[i] = ux;
          ((uint32_t *)yb)[i] = uy;
        } else if (es == 4) {
          ((uint32_t *)xb)[i] = (uint32_t)a;
          ((uint32_t *)yb)[i] = (uint32_t)b;
        } else {
          xb[i] = a;
          yb[i] = b;
        }
      }
      memset(ob, 0, sizeof ob);
      f.nreg = 0;
      uint64_t px = fx_buffer(&f, xb, es * (N + PAD)), py = fx_buffer(&f, yb, es * (N + PAD)), po = fx_buffer(&f, ob, es * (N + PAD));
      uint32_t n = N;
      memset(f.kernarg, 0, sizeof f.kernarg);
      fx_arg(&f, 0, &px, 8); fx_arg(&f, 8, &py, 8); fx_arg(&f, 16, &po, 8); fx_arg(&f, 24, &n, 4);
      gasp_emu_result r = fx_run(&f, k->name, (N + 63) / 64, 1, 64, 1, 0);
      CHECK(r.cls == GASP_CLASS_PASS, "%s on %s: %s: %s", k->name, gens[g], gasp_class_name(r.cls), r.detail);
      if (r.cls != GASP_CLASS_PASS) continue;
      if (!k->ref) { /* mandel: iteration counts in range; the escape test is sensitive to fused rounding */
        int bad = 0;
        for (int i = 0; i < N; i++) bad += ((uint32_t *)ob)[i] > 64;
        CHECK(bad == 0, "%s on %s: %d counts out of range", k->name, gens[g], bad);
        continue;
      }
      k->ref(xb, yb, want, ws);
      int bad = 0;
      for (int i = 0; i < k->nout && bad < 3; i++) {
        int ok;
        if (k->kind == KF) {
          float got = ((float *)ob)[i], w = ((float *)want)[i];
          /* rel < 0: an absolute tolerance (cancellation near zero with or without a fused multiply-add) */
          ok = got == w || (k->rel > 0 && fabs((double)got - w) <= k->rel * fabs((double)w) + 1e-30) ||
               (k->rel < 0 && fabs((double)got - w) <= -k->rel);
          if (!ok) CHECK(0, "%s on %s [%d]: got %.9g want %.9g (x %.9g y %.9g)", k->name, gens[g], i, got, w,
                         ((float *)xb)[i], ((float *)yb)[i]);
        } else if (es == 4) {
          ok = ((uint32_t *)ob)[i] == ((uint32_t *)want)[i];
          if (!ok) CHECK(0, "%s on %s [%d]: got 0x%x want 0x%x (x 0x%x y 0x%x)", k->name, gens[g], i, ((uint32_t *)ob)[i],
                         ((uint32_t *)want)[i], ((uint32_t *)xb)[i], ((uint32_t *)yb)[i]);
        } else {
          ok = ob[i] == want[i];
          if (!ok) CHECK(0, "%s on %s [%d]: got 0x%llx want 0x%llx", k->name, gens[g], i, (unsigned long long)ob[i],
                         (unsigned long long)want[i]);
        }
        bad += !ok;
      }
      CHECK(bad == 0, "%s on %s", k->name, gens[g]);
    }
    free((void *)f.obj);
  }
  free(src);
  return DONE();
}
