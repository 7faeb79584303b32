/* CPU references for the arb_* tasks (r300 target: ARB_fragment_program / ARB_vertex_program run on
 * Mesa's llvmpipe). Every array is w*h elements of 4 floats (x, y, z, w), element e at [4e..4e+3]; the out
 * array is the framebuffer. Float math is single precision with every operation rounded separately:
 * llvmpipe does not fuse MAD, and sums DP3/DP4 from the last component down
 * (((w*w' + z*z') + y*y') + x*x'), see src/exec/GL-NOTES.md. The references follow llvmpipe's order so the
 * reference programs match them bit for bit; the tolerances cover other orders. Contraction of a*b+c into
 * an fma is switched off below (GCC's default for GNU C on targets with FMA is -ffp-contract=fast). */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#include <math.h>

#include "ref.h"

/* (a + b) * 3.0 per component. Params: a, b, out. */
static void arb_add_mul3(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(2); i++) F32(2)[i] = (F32(0)[i] + F32(1)[i]) * 3.0f;
}

/* d = a.xyz . b.xyz in llvmpipe's DP3 order, written to all four components. Params: a, b, out. */
static void arb_dot3(const gasp_ref_args *a) {
  const float *x = F32(0), *y = F32(1);
  float *o = F32(2);
  for (int64_t e = 0; e < N(2) / 4; e++) {
    const float *p = x + 4 * e, *q = y + 4 * e;
    float t = p[2] * q[2];
    t = t + p[1] * q[1];
    t = t + p[0] * q[0];
    for (int k = 0; k < 4; k++) o[4 * e + k] = t;
  }
}

/* a + t * (b - a) per component: s = b - a, m = t * s, out = m + a (each rounded). Params: a, b, t, out. */
static void arb_lerp(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(3); i++) {
    float s = F32(1)[i] - F32(0)[i];
    float m = F32(2)[i] * s;
    F32(3)[i] = m + F32(0)[i];
  }
}

/* min(max(x, lo), hi) per component. Params: x, out, lo, hi. */
static void arb_clamp(const gasp_ref_args *a) {
  float lo = (float)SF(2), hi = (float)SF(3);
  for (int64_t i = 0; i < N(1); i++) {
    float v = F32(0)[i];
    v = v > lo ? v : lo;
    F32(1)[i] = v < hi ? v : hi;
  }
}

/* a < 0 ? a : b per component (-0 is not < 0). Params: a, b, out. */
static void arb_cmp_select(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(2); i++) F32(2)[i] = F32(0)[i] < 0.0f ? F32(0)[i] : F32(1)[i];
}

/* xyz / |xyz|, w passes through: len2 in DP3 order, r = 1/sqrt(len2) rounded once, out.xyz = v.xyz * r.
 * Params: v, out. */
static void arb_normalize(const gasp_ref_args *a) {
  const float *v = F32(0);
  float *o = F32(1);
  for (int64_t e = 0; e < N(1) / 4; e++) {
    const float *p = v + 4 * e;
    float l2 = p[2] * p[2];
    l2 = l2 + p[1] * p[1];
    l2 = l2 + p[0] * p[0];
    float r = (float)(1.0 / sqrt((double)l2));
    for (int k = 0; k < 3; k++) o[4 * e + k] = p[k] * r;
    o[4 * e + 3] = p[3];
  }
}

/* t = a*b + c; out = t*b + c per component, every multiply and add rounded. Params: a, b, c, out. */
static void arb_mad_chain(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(3); i++) {
    float b = F32(1)[i], c = F32(2)[i];
    float m = F32(0)[i] * b;
    float t = m + c;
    float u = t * b;
    F32(3)[i] = u + c;
  }
}

/* The fixed matrix of arb_vertex_transform (rows; the task text gives the same numbers). */
static const float ARB_M[4][4] = {
    {1.0f, 0.5f, -0.25f, 2.0f},
    {-1.5f, 1.0f, 0.75f, 0.0f},
    {0.25f, -2.0f, 1.0f, -0.5f},
    {0.0f, 0.125f, 0.5f, 1.0f},
};

/* out[r] = M[r] . v (DP4, llvmpipe order). Params: v, out. */
static void arb_vertex_transform(const gasp_ref_args *a) {
  const float *v = F32(0);
  float *o = F32(1);
  for (int64_t e = 0; e < N(1) / 4; e++) {
    const float *p = v + 4 * e;
    for (int r = 0; r < 4; r++) {
      float t = p[3] * ARB_M[r][3];
      t = t + p[2] * ARB_M[r][2];
      t = t + p[1] * ARB_M[r][1];
      t = t + p[0] * ARB_M[r][0];
      o[4 * e + r] = t;
    }
  }
}

/* x * scale + bias per component, the product rounded before the add. Params: x, out, scale, bias. */
static void arb_tex_scale_bias(const gasp_ref_args *a) {
  float s = (float)SF(2), b = (float)SF(3);
  for (int64_t i = 0; i < N(1); i++) {
    float m = F32(0)[i] * s;
    F32(1)[i] = m + b;
  }
}

const gasp_ref gasp_refs_arb[] = {
    {"arb_add_mul3", arb_add_mul3},
    {"arb_dot3", arb_dot3},
    {"arb_lerp", arb_lerp},
    {"arb_clamp", arb_clamp},
    {"arb_cmp_select", arb_cmp_select},
    {"arb_normalize", arb_normalize},
    {"arb_mad_chain", arb_mad_chain},
    {"arb_vertex_transform", arb_vertex_transform},
    {"arb_tex_scale_bias", arb_tex_scale_bias},
    {0, 0},
};
