/* CPU references for L2/L3/L6/L7 tasks: whole kernels over arrays.
 * Float math is single precision in the order the task states; a*b+c is never contracted by the host
 * compiler (see refs_elementwise.c), so fmaf appears exactly where the task asks for a fused operation. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#include <math.h>

#include "ref.h"

/* ---- L2: fixed-pattern kernels ---- */

static void vector_add(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(3); i++) F32(2)[i] = F32(0)[i] + F32(1)[i];
}

/* x, y, out, alpha, n */
static void saxpy(const gasp_ref_args *a) {
  float alpha = (float)SF(3);
  for (int64_t i = 0; i < SI(4); i++) F32(2)[i] = fmaf(alpha, F32(0)[i], F32(1)[i]);
}

/* x, scale, bias, out, rows, cols */
static void scale_bias(const gasp_ref_args *a) {
  int64_t rows = SI(4), cols = SI(5);
  for (int64_t i = 0; i < rows * cols; i++) {
    int64_t c = i % cols;
    F32(3)[i] = fmaf(F32(0)[i], F32(1)[c], F32(2)[c]);
  }
}

/* in, out, rows, cols (also transpose_smem) */
static void transpose(const gasp_ref_args *a) {
  int64_t rows = SI(2), cols = SI(3);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < cols; c++) F32(1)[c * rows + r] = F32(0)[r * cols + c];
}

static void vector_mul_s32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(3); i++) S32(2)[i] = (int32_t)((uint32_t)S32(0)[i] * (uint32_t)S32(1)[i]);
}

static void copy_f32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(2); i++) F32(1)[i] = F32(0)[i];
}

static void relu_array(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(2); i++) {
    float x = F32(0)[i];
    F32(1)[i] = x > 0.0f ? x : 0.0f;
  }
}

/* ---- L3: branches, loops, divergence ---- */

/* in, out, rows, cols: sequential sum from 0 */
static void row_sum(const gasp_ref_args *a) {
  int64_t rows = SI(2), cols = SI(3);
  for (int64_t r = 0; r < rows; r++) {
    float s = 0.0f;
    for (int64_t c = 0; c < cols; c++) s += F32(0)[r * cols + c];
    F32(1)[r] = s;
  }
}

static void collatz_steps(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(2); i++) {
    uint32_t v = U32(0)[i], s = 0;
    while (v != 1u && s < 1000u) {
      v = (v & 1u) ? 3u * v + 1u : v >> 1;
      s++;
    }
    U32(1)[i] = s;
  }
}

static void grid_stride_scale(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(2); i++) F32(1)[i] = F32(0)[i] * 3.0f;
}

static void branch_divergent(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(2); i++) {
    float v = F32(0)[i];
    F32(1)[i] = (i & 1) == 0 ? v * v : sqrtf(fabsf(v));
  }
}

/* in, out[T], thresh, n: thread t of T = grid*block counts in[t + kT] > thresh */
static void clamp_count(const gasp_ref_args *a) {
  int64_t T = (int64_t)a->grid[0] * a->block[0], n = SI(3);
  float th = (float)SF(2);
  for (int64_t t = 0; t < T && t < N(1); t++) {
    uint32_t c = 0;
    for (int64_t i = t; i < n; i += T) c += F32(0)[i] > th;
    U32(1)[t] = c;
  }
}

static void pow_int(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(3); i++) {
    uint32_t b = U32(0)[i], e = U32(1)[i], r = 1u;
    while (e) {
      if (e & 1u) r *= b;
      b *= b;
      e >>= 1;
    }
    U32(2)[i] = r;
  }
}

/* ---- L6: latency hiding, bandwidth ---- */

static void copy_bw(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(2); i++) U32(1)[i] = U32(0)[i];
}

static void vector_add_large(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(3); i++) F32(2)[i] = F32(0)[i] + F32(1)[i];
}

/* x, y, out, alpha, n */
static void saxpy_large(const gasp_ref_args *a) {
  float alpha = (float)SF(3);
  for (int64_t i = 0; i < SI(4); i++) F32(2)[i] = fmaf(alpha, F32(0)[i], F32(1)[i]);
}

/* ---- L7: translation ---- */

static float smoothstep(float e0, float e1, float x) {
  float t = (x - e0) / (e1 - e0);
  t = fminf(fmaxf(t, 0.0f), 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

/* x, out, e0, e1, n */
static void translate_smoothstep(const gasp_ref_args *a) {
  float e0 = (float)SF(2), e1 = (float)SF(3);
  for (int64_t i = 0; i < SI(4); i++) F32(1)[i] = smoothstep(e0, e1, F32(0)[i]);
}

static uint32_t hash32(uint32_t x, uint32_t i) {
  x ^= i * 0x9E3779B9u;
  x ^= x >> 16;
  x *= 0x85EBCA6Bu;
  x ^= x >> 13;
  x *= 0xC2B2AE35u;
  x ^= x >> 16;
  return x;
}

static void translate_hash32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(2); i++) U32(1)[i] = hash32(U32(0)[i], (uint32_t)i);
}

static uint32_t mandel(float cx, float cy) {
  float x = 0.0f, y = 0.0f;
  uint32_t k = 0;
  while (k < 256u) {
    float xx = x * x, yy = y * y;
    if (xx + yy > 4.0f) break;
    float xy = x * y;
    y = (xy + xy) + cy;
    x = (xx - yy) + cx;
    k++;
  }
  return k;
}

static void translate_mandel_iter(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(3); i++) U32(2)[i] = mandel(F32(0)[i], F32(1)[i]);
}

static void translate_softplus(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(2); i++) {
    float v = F32(0)[i];
    F32(1)[i] = v > 20.0f ? v : log1pf(expf(v));
  }
}

const gasp_ref gasp_refs_kernels[] = {
    {"vector_add", vector_add},
    {"saxpy", saxpy},
    {"scale_bias", scale_bias},
    {"transpose", transpose},
    {"vector_mul_s32", vector_mul_s32},
    {"copy_f32", copy_f32},
    {"relu_array", relu_array},
    {"row_sum", row_sum},
    {"collatz_steps", collatz_steps},
    {"grid_stride_scale", grid_stride_scale},
    {"branch_divergent", branch_divergent},
    {"clamp_count", clamp_count},
    {"pow_int", pow_int},
    {"copy_bw", copy_bw},
    {"vector_add_large", vector_add_large},
    {"saxpy_large", saxpy_large},
    {"translate_smoothstep", translate_smoothstep},
    {"translate_hash32", translate_hash32},
    {"translate_mandel_iter", translate_mandel_iter},
    {"translate_softplus", translate_softplus},
    {0, 0},
};
