/* CPU references for L4 (warp-level) and L5 (shared memory, barriers) tasks: results per warp or block
 * use a->block and a->grid to find the groups. Sums of floats are taken in double and rounded once (the
 * tasks use positive inputs and a relative tolerance, so any summation order on the GPU passes); integer
 * sums wrap modulo 2^32 like the GPU's. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#include <math.h>

#include "ref.h"

#define WARP 32

static int64_t min64(int64_t x, int64_t y) { return x < y ? x : y; }

/* ---- L4: warp-level ---- */

/* in, out[cdiv(n,32)], n */
static void warp_reduce_sum(const gasp_ref_args *a) {
  int64_t n = SI(2);
  for (int64_t w = 0; w * WARP < n && w < N(1); w++) {
    double s = 0;
    for (int64_t j = w * WARP; j < min64(n, w * WARP + WARP); j++) s += F32(0)[j];
    F32(1)[w] = (float)s;
  }
}

static void warp_broadcast(const gasp_ref_args *a) {
  int64_t n = SI(2);
  for (int64_t i = 0; i < n; i++) F32(1)[i] = F32(0)[i / WARP * WARP];
}

static void warp_ballot_count(const gasp_ref_args *a) {
  int64_t n = SI(2);
  for (int64_t w = 0; w * WARP < n && w < N(1); w++) {
    uint32_t c = 0;
    for (int64_t j = w * WARP; j < min64(n, w * WARP + WARP); j++) c += S32(0)[j] > 0;
    U32(1)[w] = c;
  }
}

static void warp_inclusive_scan(const gasp_ref_args *a) {
  int64_t n = SI(2);
  uint32_t s = 0;
  for (int64_t i = 0; i < n; i++) {
    if (i % WARP == 0) s = 0;
    s += (uint32_t)S32(0)[i];
    S32(1)[i] = (int32_t)s;
  }
}

static void warp_max(const gasp_ref_args *a) {
  int64_t n = SI(2);
  for (int64_t w = 0; w * WARP < n && w < N(1); w++) {
    int32_t m = INT32_MIN;
    for (int64_t j = w * WARP; j < min64(n, w * WARP + WARP); j++)
      if (S32(0)[j] > m) m = S32(0)[j];
    S32(1)[w] = m;
  }
}

/* ---- L5: shared memory and barriers ---- */

/* in, out[cdiv(n,B)], n; B = block size */
static void block_reduce_sum(const gasp_ref_args *a) {
  int64_t n = SI(2), B = a->block[0];
  for (int64_t b = 0; b * B < n && b < N(1); b++) {
    double s = 0;
    for (int64_t j = b * B; j < min64(n, b * B + B); j++) s += F32(0)[j];
    F32(1)[b] = (float)s;
  }
}

static void transpose_smem(const gasp_ref_args *a) {
  int64_t rows = SI(2), cols = SI(3);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < cols; c++) F32(1)[c * rows + r] = F32(0)[r * cols + c];
}

static void block_scan(const gasp_ref_args *a) {
  int64_t n = SI(2), B = a->block[0];
  uint32_t s = 0;
  for (int64_t i = 0; i < n; i++) {
    if (i % B == 0) s = 0;
    s += (uint32_t)S32(0)[i];
    S32(1)[i] = (int32_t)s;
  }
}

static void reverse_block(const gasp_ref_args *a) {
  int64_t n = SI(2), B = a->block[0];
  for (int64_t base = 0; base < n; base += B) {
    int64_t L = min64(B, n - base);
    for (int64_t k = 0; k < L; k++) F32(1)[base + k] = F32(0)[base + L - 1 - k];
  }
}

/* out[i] = (0.25*in[i-1] + 0.5*in[i]) + 0.25*in[i+1], zero outside 0..n-1 */
static void stencil_1d(const gasp_ref_args *a) {
  int64_t n = SI(2);
  const float *in = F32(0);
  for (int64_t i = 0; i < n; i++) {
    float l = i > 0 ? in[i - 1] : 0.0f, c = in[i], r = i + 1 < n ? in[i + 1] : 0.0f;
    F32(1)[i] = (0.25f * l + 0.5f * c) + 0.25f * r;
  }
}

const gasp_ref gasp_refs_warp_block[] = {
    {"warp_reduce_sum", warp_reduce_sum},
    {"warp_broadcast", warp_broadcast},
    {"warp_ballot_count", warp_ballot_count},
    {"warp_inclusive_scan", warp_inclusive_scan},
    {"warp_max", warp_max},
    {"block_reduce_sum", block_reduce_sum},
    {"transpose_smem", transpose_smem},
    {"block_scan", block_scan},
    {"reverse_block", reverse_block},
    {"stencil_1d", stencil_1d},
    {0, 0},
};
