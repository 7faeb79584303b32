/* CPU references for L0/L1 tasks: one result per element from the same element of each input.
 * Float math is single precision with every operation rounded separately unless the task states a fused
 * multiply-add (fmaf); contraction of a*b+c into an fma is switched off below so the host compiler cannot
 * change the rounding (GCC's default for GNU C on targets with FMA is -ffp-contract=fast). */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#include <math.h>

#include "ref.h"

/* ---- L0: single instructions ---- */

static void add_f32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(2); i++) F32(2)[i] = F32(0)[i] + F32(1)[i];
}

static void sub_f32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(2); i++) F32(2)[i] = F32(0)[i] - F32(1)[i];
}

static void mul_f32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(2); i++) F32(2)[i] = F32(0)[i] * F32(1)[i];
}

static void fma_f32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(3); i++) F32(3)[i] = fmaf(F32(0)[i], F32(1)[i], F32(2)[i]);
}

static void min_f32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(2); i++) F32(2)[i] = fminf(F32(0)[i], F32(1)[i]);
}

static void max_f32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(2); i++) F32(2)[i] = fmaxf(F32(0)[i], F32(1)[i]);
}

static void abs_f32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(1); i++) F32(1)[i] = fabsf(F32(0)[i]);
}

static void neg_f32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(1); i++) F32(1)[i] = -F32(0)[i];
}

static void add_s32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(2); i++) S32(2)[i] = (int32_t)((uint32_t)S32(0)[i] + (uint32_t)S32(1)[i]);
}

static void mul_lo_s32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(2); i++) S32(2)[i] = (int32_t)((uint32_t)S32(0)[i] * (uint32_t)S32(1)[i]);
}

static void shl_b32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(2); i++) U32(2)[i] = U32(0)[i] << (U32(1)[i] & 31u);
}

static void xor_b32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(2); i++) U32(2)[i] = U32(0)[i] ^ U32(1)[i];
}

static void cvt_f32_s32(const gasp_ref_args *a) {
  /* the host conversion rounds to nearest even (the default rounding mode) */
  for (int64_t i = 0; i < N(1); i++) F32(1)[i] = (float)S32(0)[i];
}

static void sqrt_f32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(1); i++) F32(1)[i] = sqrtf(F32(0)[i]);
}

static void popc_b32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(1); i++) U32(1)[i] = (uint32_t)__builtin_popcount(U32(0)[i]);
}

/* ---- L1: straight-line sequences ---- */

static void dot3(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(6); i++) {
    float t = F32(0)[i] * F32(3)[i];
    t = fmaf(F32(1)[i], F32(4)[i], t);
    F32(6)[i] = fmaf(F32(2)[i], F32(5)[i], t);
  }
}

static void relu_leaky(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(1); i++) {
    float x = F32(0)[i];
    F32(1)[i] = x > 0.0f ? x : 0.01f * x;
  }
}

static void lerp_f32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(3); i++) F32(3)[i] = fmaf(F32(2)[i], F32(1)[i] - F32(0)[i], F32(0)[i]);
}

static void clamp_f32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(3); i++) F32(3)[i] = fminf(fmaxf(F32(0)[i], F32(1)[i]), F32(2)[i]);
}

static void horner_poly3(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(1); i++) {
    float x = F32(0)[i];
    float t = fmaf(0.5f, x, -1.25f);
    t = fmaf(t, x, 2.0f);
    F32(1)[i] = fmaf(t, x, 0.75f);
  }
}

static void select_sign(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(1); i++) {
    float x = F32(0)[i];
    F32(1)[i] = x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f);
  }
}

static void mad_s32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(3); i++)
    S32(3)[i] = (int32_t)((uint32_t)S32(0)[i] * (uint32_t)S32(1)[i] + (uint32_t)S32(2)[i]);
}

static void abs_diff_u32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(2); i++) {
    uint32_t x = U32(0)[i], y = U32(1)[i];
    U32(2)[i] = x >= y ? x - y : y - x;
  }
}

const gasp_ref gasp_refs_elementwise[] = {
    {"add_f32", add_f32},
    {"sub_f32", sub_f32},
    {"mul_f32", mul_f32},
    {"fma_f32", fma_f32},
    {"min_f32", min_f32},
    {"max_f32", max_f32},
    {"abs_f32", abs_f32},
    {"neg_f32", neg_f32},
    {"add_s32", add_s32},
    {"mul_lo_s32", mul_lo_s32},
    {"shl_b32", shl_b32},
    {"xor_b32", xor_b32},
    {"cvt_f32_s32", cvt_f32_s32},
    {"sqrt_f32", sqrt_f32},
    {"popc_b32", popc_b32},
    {"dot3", dot3},
    {"relu_leaky", relu_leaky},
    {"lerp_f32", lerp_f32},
    {"clamp_f32", clamp_f32},
    {"horner_poly3", horner_poly3},
    {"select_sign", select_sign},
    {"mad_s32", mad_s32},
    {"abs_diff_u32", abs_diff_u32},
    {0, 0},
};
