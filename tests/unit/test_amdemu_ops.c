/* Instruction-level tests of the AMD emulator: each case is a small kernel (assembled by llvm-mc 19 for gfx900,
 * gfx1030 and gfx1100) that loads four inputs per lane into v1..v4, runs the snippet, and stores v5 and v6.
 * Expected values come from C reference arithmetic or hand-derived constants written here, never from the
 * emulator. Inputs mix random bits with the edge values (denormals, NaN, -0, inf, extremes). */
#include <math.h>

#include "test_amdemu_util.h"
#include "check.h"

typedef struct { uint32_t x, y, z, w; } in4;
typedef struct { uint32_t r5, r6; } out2;
typedef out2 (*ref_fn)(in4 a, unsigned lane, unsigned wave, const in4 *all, unsigned gen);

static float F(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t U(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static out2 O(uint32_t a, uint32_t b) { return (out2){a, b}; }

enum { POOL_F, POOL_I, POOL_SMALL, POOL_FDQ, POOL_FDX, POOL_Z };

typedef struct {
  const char *name;
  int pool;
  unsigned gens;          /* bit 0 gfx9, bit 1 gfx10, bit 2 gfx11 */
  const char *asm9;       /* snippet for gfx9 */
  const char *asm10;      /* snippet for gfx10 and gfx11, or NULL to reuse asm9 (with $VCC, $SM, $EXEC) */
  ref_fn ref;
  int denorm_mode;        /* .amdhsa_float_denorm_mode_32, -1: default 3 */
  int check6;             /* compare v6 too */
} op_case;

/* ---- reference functions ---- */
#define R1(name, expr) static out2 name(in4 a, unsigned lane, unsigned ws, const in4 *all, unsigned gen) { \
    (void)lane; (void)ws; (void)all; (void)gen; uint32_t x = a.x, y = a.y, z = a.z, w = a.w; (void)x; (void)y; (void)z; (void)w; \
    return expr; }

R1(r_add_f32, O(U(F(x) + F(y)), 0))
R1(r_sub_f32, O(U(F(x) - F(y)), 0))
R1(r_mul_f32, O(U(F(x) * F(y)), 0))
R1(r_fma_f32, O(U(fmaf(F(x), F(y), F(z))), 0))
R1(r_mad_f32, O(U((float)(F(x) * F(y)) + F(z)), 0))
static uint32_t flushd(uint32_t u) { return ((u & 0x7f800000) == 0) ? u & 0x80000000 : u; }
R1(r_add_flush, O(flushd(U(F(flushd(x)) + F(flushd(y)))), 0))
R1(r_mods, O(U(-F(x) + fabsf(F(y))), 0))
R1(r_omod2, O(U(F(x) * F(y) * 2.0f), 0))
static uint32_t clamp01(float f) { return U(isnan(f) ? 0.0f : f < 0 ? 0.0f : f > 1 ? 1.0f : f); }
R1(r_clamp, O(clamp01(F(x) + F(y)), 0))
/* IEEE minNum/maxNum with -0 < +0 (hand rule from the ISA manual) */
static uint32_t mn(uint32_t a, uint32_t b, int max) {
  if (isnan(F(a)) && isnan(F(b))) return a | 0x400000;
  if (isnan(F(a))) return b;
  if (isnan(F(b))) return a;
  if (F(a) == F(b)) return max ? (a & b) : (a | b);
  return (max ? F(a) > F(b) : F(a) < F(b)) ? a : b;
}
R1(r_min_f32, O(mn(x, y, 0), 0))
R1(r_max_f32, O(mn(x, y, 1), 0))
/* zeros only: min is -0 unless both are +0, max is +0 unless both are -0, in either operand order (RDNA2 ISA
 * V_MIN_F32/V_MAX_F32: explicit +0/-0 cases ahead of the compare; PTX min/max agree) */
R1(r_minmax_zeros, O(x | y, x & y))
static uint32_t cvti(float f) { return isnan(f) ? 0 : f >= 2147483648.0f ? 0x7fffffff : f <= -2147483648.0f ? 0x80000000 : (uint32_t)(int32_t)f; }
static uint32_t cvtu(float f) { return isnan(f) || f <= 0 ? 0 : f >= 4294967296.0f ? 0xffffffff : (uint32_t)f; }
R1(r_cvt_i32, O(cvti(F(x)), cvtu(F(x))))
R1(r_cvt_f32, O(U((float)(int32_t)x), U((float)x)))
R1(r_floor, O(U(floorf(F(x))), U(ceilf(F(x)))))
R1(r_trunc, O(U(truncf(F(x))), U(rintf(F(x)))))
R1(r_ldexp, O(U(ldexpf(F(x), (int32_t)(y & 31) - 15)), 0))
R1(r_cmp_lt_f32, O(F(x) < F(y), !(F(x) == F(y))))
R1(r_class, O(((x & 0x7fffffff) == 0) || x == 0x7f800000, 0))
R1(r_add_co, O(x + y, (uint32_t)(((uint64_t)x + y) >> 32)))
R1(r_sub_co, O(x - y, y > x))
R1(r_mad_u64, O((uint32_t)((uint64_t)x * y + ((uint64_t)w << 32 | z)), (uint32_t)(((uint64_t)x * y + ((uint64_t)w << 32 | z)) >> 32)))
R1(r_mul_lo_hi, O(x * y, (uint32_t)(((uint64_t)x * y) >> 32)))
R1(r_mul_hi_i32, O((uint32_t)(((int64_t)(int32_t)x * (int32_t)y) >> 32), (x & 0xffffff) * (y & 0xffffff)))
R1(r_shifts, O(x << (y & 31), (uint32_t)((int32_t)x >> (y & 31))))
R1(r_lshr, O(x >> (y & 31), 0))
R1(r_shl64, O((uint32_t)((((uint64_t)z << 32) | y) << (x & 63)), (uint32_t)(((((uint64_t)z << 32) | y) << (x & 63)) >> 32)))
R1(r_bfe, O((x >> 5) & 0x7f, (uint32_t)((int32_t)(x << 20) >> 25)))
R1(r_bfi, O((x & y) | (~x & z), 0))
R1(r_alignbit, O((uint32_t)((((uint64_t)x << 32) | y) >> (z & 31)), 0))
R1(r_lshl_add, O((x << 3) + y, x + y + z))
R1(r_lshl_or, O((x << 4) | y, (x & y) | z))
R1(r_minmax_i, O((int32_t)x < (int32_t)y ? x : y, x > y ? x : y))
static uint32_t med3i(int32_t a, int32_t b, int32_t c) {
  int32_t v[3] = {a, b, c};
  for (int i = 0; i < 2; i++) for (int j = 0; j < 2 - i; j++) if (v[j] > v[j + 1]) { int32_t t = v[j]; v[j] = v[j + 1]; v[j + 1] = t; }
  return (uint32_t)v[1];
}
R1(r_med3, O(med3i((int32_t)x, (int32_t)y, (int32_t)z), 0))
static uint32_t clz(uint32_t v) { uint32_t n = 0; if (!v) return ~0u; while (!(v & 0x80000000u)) v <<= 1, n++; return n; }
static uint32_t ctz(uint32_t v) { uint32_t n = 0; if (!v) return ~0u; while (!(v & 1)) v >>= 1, n++; return n; }
R1(r_ffb, O(clz(x), ctz(x)))
static uint32_t brev(uint32_t v) { uint32_t r = 0; for (int i = 0; i < 32; i++) if (v >> i & 1) r |= 1u << (31 - i); return r; }
static uint32_t pop(uint32_t v) { uint32_t n = 0; while (v) n += v & 1, v >>= 1; return n; }
R1(r_brev_bcnt, O(brev(x), pop(x) + 3))
R1(r_cmp_i32, O((int32_t)x > (int32_t)y ? 11 : 22, x >= y ? 1 : 0))
R1(r_cmp_u64, O((((uint64_t)y << 32) | x) < (((uint64_t)w << 32) | z), 0))
R1(r_exec_mask, O(x > y ? z : 7, 0))
R1(r_mbcnt, O(lane, 0))
/* lane 0's inputs drive scalar code (v_readfirstlane) */
static out2 r_salu(in4 a, unsigned lane, unsigned ws, const in4 *all, unsigned gen) {
  (void)a; (void)lane; (void)ws; (void)gen;
  uint32_t x = all[0].x, y = all[0].y;
  uint64_t s = (uint64_t)x + y;
  uint32_t sum = (uint32_t)s, scc = (uint32_t)(s >> 32);
  return O(scc ? sum : ~sum, (x >> 3) & 0x1f);
}
static out2 r_salu2(in4 a, unsigned lane, unsigned ws, const in4 *all, unsigned gen) {
  (void)a; (void)lane; (void)ws; (void)gen;
  uint32_t x = all[0].x, y = all[0].y;
  return O((int32_t)x < (int32_t)y ? x : y, x ? ctz(x) : ~0u);
}
static out2 r_lds_neighbour(in4 a, unsigned lane, unsigned ws, const in4 *all, unsigned gen) {
  (void)a; (void)gen;
  return O(all[lane ^ 1].x, all[(lane + 1) % ws].x);
}
static out2 r_swizzle(in4 a, unsigned lane, unsigned ws, const in4 *all, unsigned gen) {
  (void)a; (void)ws; (void)gen;
  return O(all[lane ^ 1].x, all[(lane & ~3u) | (3 - (lane & 3))].x);
}
static out2 r_dpp(in4 a, unsigned lane, unsigned ws, const in4 *all, unsigned gen) {
  (void)a; (void)ws; (void)gen;
  return O((lane & 15) == 0 ? 0x12345 : all[lane - 1].x, all[(lane & ~3u) | ((lane & 3) ^ 1)].x);
}
R1(r_vopd, O(U(F(x) * F(y)), U(F(y) + F(z))))
R1(r_cndmask_e64, O(F(x) >= F(y) ? z : w, 0))
/* VOP3 cndmask with |src0| and -src1: sign-bit operations on the selected source (v5); v6 selects from the
 * same sources with the modifiers swapped */
R1(r_cndmask_mods, O(F(x) >= F(y) ? (z ^ 0x80000000u) : (w & 0x7fffffffu), F(x) >= F(y) ? (z & 0x7fffffffu) : (w ^ 0x80000000u)))
/* GFX11 v_maxmin_f32 = min(max(S0, S1), S2), v_minmax_f32 = max(min(S0, S1), S2), each step IEEE minNum/maxNum */
R1(r_maxmin_f32, O(mn(mn(x, y, 1), z, 0), mn(mn(x, y, 0), z, 1)))
static uint32_t smx(uint32_t a, uint32_t b, int max) { return (max ? (int32_t)a > (int32_t)b : (int32_t)a < (int32_t)b) ? a : b; }
static uint32_t umx(uint32_t a, uint32_t b, int max) { return (max ? a > b : a < b) ? a : b; }
R1(r_maxmin_i32, O(smx(smx(x, y, 1), z, 0), umx(umx(x, y, 0), z, 1)))
R1(r_xor_not, O(~(x ^ y), ~x))
R1(r_div, O(U(F(x) / F(y)), 0))
R1(r_flat, O(y, w))
R1(r_sdwa, O((z & 0xffffu) | ((((x >> 8) & 0xff) + (y & 0xffff)) & 0xffff) << 16, (uint32_t)(int32_t)(int8_t)(x >> 24)))
static uint32_t perm(uint32_t s0, uint32_t s1, uint32_t sel) {
  /* V_PERM_B32 (Vega ISA manual): selector bytes 0-3 pick bytes of S1, 4-7 bytes of S0, 8-11 replicate the
   * sign bits 15, 31, 47, 63 of {S0, S1}, 12 gives 0x00, 13-255 give 0xff */
  uint64_t v = (uint64_t)s0 << 32 | s1;
  uint32_t r = 0;
  for (int i = 0; i < 4; i++) {
    uint32_t k = (sel >> (8 * i)) & 0xff, byte;
    if (k <= 7) byte = (uint32_t)(v >> (8 * k)) & 0xff;
    else if (k == 8) byte = (v >> 15 & 1) ? 0xff : 0;
    else if (k == 9) byte = (v >> 31 & 1) ? 0xff : 0;
    else if (k == 10) byte = (v >> 47 & 1) ? 0xff : 0;
    else if (k == 11) byte = (v >> 63 & 1) ? 0xff : 0;
    else if (k == 12) byte = 0;
    else byte = 0xff;
    r |= byte << (8 * i);
  }
  return r;
}
R1(r_perm, O(perm(x, y, z & 0x0f0f0f0f), 0))
static out2 r_lane(in4 a, unsigned lane, unsigned ws, const in4 *all, unsigned gen) {
  (void)ws; (void)gen;
  return O(all[5].x, lane == 3 ? all[5].x : a.y);
}
/* med3 of non-NaN values: the middle one; -0 sorts below +0 */
static int fless(uint32_t a, uint32_t b) { return F(a) < F(b) || (F(a) == F(b) && (a >> 31) > (b >> 31)); }
static uint32_t fmed(uint32_t a, uint32_t b, uint32_t c) {
  if (fless(b, a)) { uint32_t t = a; a = b; b = t; }
  if (fless(c, b)) { uint32_t t = b; b = c; c = t; }
  if (fless(b, a)) { uint32_t t = a; a = b; b = t; }
  return b;
}
/* with a NaN operand the Vega ISA manual defines V_MED3_F32 as V_MIN3_F32: the least non-NaN operand */
static uint32_t fmin3nan(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t v[3] = {a, b, c}, best = 0x7fc00000u;
  int have = 0;
  for (int i = 0; i < 3; i++)
    if (!isnan(F(v[i])) && (!have || fless(v[i], best))) best = v[i], have = 1;
  return best;
}
R1(r_med3f, O(isnan(F(x)) || isnan(F(y)) || isnan(F(z)) ? fmin3nan(x, y, z) : fmed(x, y, z), 0))

/* v_sqrt_f32: the other faithful rounding where the root is inexact (the emulator gives the 1-ulp result the GPU
 * may give, not the correctly rounded one), denormal inputs flushed. Worked out here in double, where a float's
 * square is exact. */
static out2 r_sqrt1(in4 a, unsigned lane, unsigned ws, const in4 *all, unsigned gen) {
  (void)lane; (void)ws; (void)all; (void)gen;
  float x = F(flushd(a.x)), r = sqrtf(x);
  double d = (double)x - (double)r * (double)r; /* the exact root - r has the sign of x - r*r */
  if (isnan(r) || isinf(r) || r == 0 || d == 0) return O(U(r), 0);
  float g = nextafterf(r, d > 0 ? INFINITY : -INFINITY);
  return O(U(isinf(g) ? r : g), 0);
}
#define ALL 7
#define G10 6

/* The f32 division sequence clang emits (-cl-fp32-correctly-rounded-divide-sqrt), wave64 (GFX9) then wave32: the
 * assembly of the three fdiv cases below, which differ in their operand pools. */
#define FDIV_SEQ                                                                                                    \
  "v_div_scale_f32 v7, s[10:11], v2, v2, v1\nv_rcp_f32 v8, v7\n"                                                     \
  "v_div_scale_f32 v9, vcc, v1, v2, v1\nv_fma_f32 v12, -v7, v8, 1.0\nv_fma_f32 v8, v12, v8, v8\n"                  \
  "v_mul_f32 v12, v9, v8\nv_fma_f32 v13, -v7, v12, v9\nv_fma_f32 v12, v13, v8, v12\n"                              \
  "v_fma_f32 v7, -v7, v12, v9\nv_div_fmas_f32 v7, v7, v8, v12\nv_div_fixup_f32 v5, v7, v2, v1",                    \
  "v_div_scale_f32 v7, s10, v2, v2, v1\nv_rcp_f32 v8, v7\nv_div_scale_f32 v9, vcc_lo, v1, v2, v1\n"                \
  "v_fma_f32 v12, -v7, v8, 1.0\nv_fma_f32 v8, v12, v8, v8\nv_mul_f32 v12, v9, v8\n"                                \
  "v_fma_f32 v13, -v7, v12, v9\nv_fma_f32 v12, v13, v8, v12\nv_fma_f32 v7, -v7, v12, v9\n"                         \
  "v_div_fmas_f32 v7, v7, v8, v12\nv_div_fixup_f32 v5, v7, v2, v1"

static const op_case cases[] = {
    {"v_add_f32", POOL_F, ALL, "v_add_f32 v5, v1, v2", NULL, r_add_f32, -1, 0},
    {"v_sub_f32", POOL_F, ALL, "v_sub_f32 v5, v1, v2", NULL, r_sub_f32, -1, 0},
    {"v_mul_f32", POOL_F, ALL, "v_mul_f32 v5, v1, v2", NULL, r_mul_f32, -1, 0},
    {"v_fma_f32", POOL_F, ALL, "v_fma_f32 v5, v1, v2, v3", NULL, r_fma_f32, -1, 0},
    {"v_fmac_f32", POOL_F, G10, NULL, "v_mov_b32 v5, v3\nv_fmac_f32 v5, v1, v2", r_fma_f32, -1, 0},
    {"v_mac_f32", POOL_F, 1, "v_mov_b32 v5, v3\nv_mac_f32 v5, v1, v2", NULL, r_mad_f32, -1, 0},
    {"v_add_f32 flush", POOL_F, ALL, "v_add_f32 v5, v1, v2", NULL, r_add_flush, 0, 0},
    {"vop3 neg abs", POOL_F, ALL, "v_add_f32_e64 v5, -v1, |v2|", NULL, r_mods, -1, 0},
    {"vop3 omod", POOL_F, ALL, "v_mul_f32_e64 v5, v1, v2 mul:2", NULL, r_omod2, -1, 0},
    {"vop3 clamp", POOL_F, ALL, "v_add_f32_e64 v5, v1, v2 clamp", NULL, r_clamp, -1, 0},
    {"v_min_f32", POOL_F, ALL, "v_min_f32 v5, v1, v2", NULL, r_min_f32, -1, 0},
    {"v_max_f32", POOL_F, ALL, "v_max_f32 v5, v1, v2", NULL, r_max_f32, -1, 0},
    /* clang-19's fminf/fmaxf in IEEE mode: canonicalize both (v_max_f32 x, x), then v_min/v_max */
    {"v_min/max_f32 +-0", POOL_Z, ALL, "v_max_f32 v1, v1, v1\nv_max_f32 v2, v2, v2\nv_min_f32 v5, v1, v2\n"
     "v_max_f32 v6, v2, v1", NULL, r_minmax_zeros, -1, 1},
    {"v_cvt_i32/u32_f32", POOL_F, ALL, "v_cvt_i32_f32 v5, v1\nv_cvt_u32_f32 v6, v1", NULL, r_cvt_i32, -1, 1},
    {"v_cvt_f32_i32/u32", POOL_I, ALL, "v_cvt_f32_i32 v5, v1\nv_cvt_f32_u32 v6, v1", NULL, r_cvt_f32, -1, 1},
    {"v_floor/ceil", POOL_F, ALL, "v_floor_f32 v5, v1\nv_ceil_f32 v6, v1", NULL, r_floor, -1, 1},
    {"v_trunc/rndne", POOL_F, ALL, "v_trunc_f32 v5, v1\nv_rndne_f32 v6, v1", NULL, r_trunc, -1, 1},
    {"v_ldexp_f32", POOL_F, ALL, "v_and_b32 v7, 31, v2\nv_subrev_u32 v7, 15, v7\nv_ldexp_f32 v5, v1, v7",
     "v_and_b32 v7, 31, v2\nv_subrev_nc_u32 v7, 15, v7\nv_ldexp_f32 v5, v1, v7", r_ldexp, -1, 0},
    {"v_cmp_lt/neq_f32", POOL_F, ALL, "v_cmp_lt_f32 $VCC, v1, v2\nv_cndmask_b32 v5, 0, 1, $VCC\n"
     "v_cmp_neq_f32_e64 $SM, v1, v2\nv_cndmask_b32_e64 v6, 0, 1, $SM", NULL, r_cmp_lt_f32, -1, 1},
    {"v_cmp_class_f32", POOL_F, ALL, "s_movk_i32 s10, 0x260\nv_cmp_class_f32_e64 $SM, v1, s10\n"
     "v_cndmask_b32_e64 v5, 0, 1, $SM", NULL, r_class, -1, 0},
    {"v_cndmask e64", POOL_F, ALL, "v_cmp_ge_f32_e64 $SM, v1, v2\nv_cndmask_b32_e64 v5, v4, v3, $SM", NULL, r_cndmask_e64, -1, 0},
    {"v_cndmask e64 |abs| -neg", POOL_F, ALL, "v_cmp_ge_f32_e64 $SM, v1, v2\nv_cndmask_b32_e64 v5, |v4|, -v3, $SM\n"
     "v_cndmask_b32_e64 v6, -v4, |v3|, $SM", NULL, r_cndmask_mods, -1, 1},
    {"v_maxmin/minmax_f32", POOL_F, 4, "v_maxmin_f32 v5, v1, v2, v3\nv_minmax_f32 v6, v1, v2, v3", NULL, r_maxmin_f32, -1, 1},
    {"v_maxmin_i32/minmax_u32", POOL_I, 4, "v_maxmin_i32 v5, v1, v2, v3\nv_minmax_u32 v6, v1, v2, v3", NULL, r_maxmin_i32, -1, 1},
    /* the acquire clang emits after s_barrier on GFX10/11: a no-op for coherent memory, result untouched */
    {"buffer_gl0_inv/gl1_inv", POOL_F, G10, "buffer_gl0_inv\nbuffer_gl1_inv\nv_add_f32 v5, v1, v2", NULL, r_add_f32, -1, 0},
    {"v_add_co/addc", POOL_I, ALL, "v_mov_b32 v7, 0\nv_add_co_u32_e32 v5, vcc, v1, v2\nv_addc_co_u32_e32 v6, vcc, 0, v7, vcc",
     "v_mov_b32 v7, 0\nv_add_co_u32 v5, vcc_lo, v1, v2\nv_add_co_ci_u32_e32 v6, vcc_lo, 0, v7, vcc_lo", r_add_co, -1, 1},
    {"v_sub_co", POOL_I, ALL, "v_sub_co_u32_e64 v5, s[10:11], v1, v2\nv_cndmask_b32_e64 v6, 0, 1, s[10:11]",
     "v_sub_co_u32 v5, s10, v1, v2\nv_cndmask_b32_e64 v6, 0, 1, s10", r_sub_co, -1, 1},
    {"v_mad_u64_u32", POOL_I, ALL, "v_mad_u64_u32 v[5:6], s[10:11], v1, v2, v[3:4]",
     "v_mad_u64_u32 v[5:6], s10, v1, v2, v[3:4]", r_mad_u64, -1, 1},
    {"v_mul_lo/hi_u32", POOL_I, ALL, "v_mul_lo_u32 v5, v1, v2\nv_mul_hi_u32 v6, v1, v2", NULL, r_mul_lo_hi, -1, 1},
    {"v_mul_hi_i32/u24", POOL_I, ALL, "v_mul_hi_i32 v5, v1, v2\nv_mul_u32_u24 v6, v1, v2", NULL, r_mul_hi_i32, -1, 1},
    {"shifts", POOL_I, ALL, "v_lshlrev_b32 v5, v2, v1\nv_ashrrev_i32 v6, v2, v1", NULL, r_shifts, -1, 1},
    {"v_lshrrev_b32", POOL_I, ALL, "v_lshrrev_b32 v5, v2, v1", NULL, r_lshr, -1, 0},
    {"v_lshlrev_b64", POOL_I, ALL, "v_lshlrev_b64 v[5:6], v1, v[2:3]", NULL, r_shl64, -1, 1},
    {"v_bfe", POOL_I, ALL, "v_bfe_u32 v5, v1, 5, 7\nv_bfe_i32 v6, v1, 5, 7", NULL, r_bfe, -1, 1},
    {"v_bfi_b32", POOL_I, ALL, "v_bfi_b32 v5, v1, v2, v3", NULL, r_bfi, -1, 0},
    {"v_alignbit_b32", POOL_I, ALL, "v_alignbit_b32 v5, v1, v2, v3", NULL, r_alignbit, -1, 0},
    {"v_lshl_add/add3", POOL_I, ALL, "v_lshl_add_u32 v5, v1, 3, v2\nv_add3_u32 v6, v1, v2, v3", NULL, r_lshl_add, -1, 1},
    {"v_lshl_or/and_or", POOL_I, ALL, "v_lshl_or_b32 v5, v1, 4, v2\nv_and_or_b32 v6, v1, v2, v3", NULL, r_lshl_or, -1, 1},
    {"v_min_i32/max_u32", POOL_I, ALL, "v_min_i32 v5, v1, v2\nv_max_u32 v6, v1, v2", NULL, r_minmax_i, -1, 1},
    {"v_med3_i32", POOL_I, ALL, "v_med3_i32 v5, v1, v2, v3", NULL, r_med3, -1, 0},
    {"v_ffbh/ffbl", POOL_I, ALL, "v_ffbh_u32 v5, v1\nv_ffbl_b32 v6, v1", NULL, r_ffb, -1, 1},
    {"v_bfrev/bcnt", POOL_I, ALL, "v_bfrev_b32 v5, v1\nv_bcnt_u32_b32 v6, v1, 3", NULL, r_brev_bcnt, -1, 1},
    {"v_xnor/not", POOL_I, ALL, "v_xor_b32 v5, v1, v2\nv_not_b32 v5, v5\nv_not_b32 v6, v1", "v_xnor_b32 v5, v1, v2\nv_not_b32 v6, v1", r_xor_not, -1, 1},
    {"v_cmp_gt_i32/ge_u32", POOL_I, ALL, "v_cmp_gt_i32 $VCC, v1, v2\nv_cndmask_b32 v5, 22, 11, $VCC\n"
     "v_cmp_ge_u32_e64 $SM, v1, v2\nv_cndmask_b32_e64 v6, 0, 1, $SM", NULL, r_cmp_i32, -1, 1},
    {"v_cmp_lt_u64", POOL_I, ALL, "v_cmp_lt_u64 $VCC, v[1:2], v[3:4]\nv_cndmask_b32 v5, 0, 1, $VCC", NULL, r_cmp_u64, -1, 0},
    {"exec masking", POOL_I, ALL, "v_mov_b32 v5, 7\nv_cmp_gt_u32 vcc, v1, v2\ns_and_saveexec_b64 s[10:11], vcc\n"
     "v_mov_b32 v5, v3\ns_or_b64 exec, exec, s[10:11]", "v_mov_b32 v5, 7\nv_cmp_gt_u32 vcc_lo, v1, v2\n"
     "s_and_saveexec_b32 s10, vcc_lo\nv_mov_b32 v5, v3\ns_or_b32 exec_lo, exec_lo, s10", r_exec_mask, -1, 0},
    {"v_mbcnt", POOL_I, ALL, "v_mbcnt_lo_u32_b32 v5, -1, 0\nv_mbcnt_hi_u32_b32 v5, -1, v5", "v_mbcnt_lo_u32_b32 v5, -1, 0",
     r_mbcnt, -1, 0},
    {"salu add/cselect/bfe", POOL_I, ALL, "v_readfirstlane_b32 s10, v1\nv_readfirstlane_b32 s11, v2\n"
     "s_add_u32 s12, s10, s11\ns_not_b32 s13, s12\ns_add_u32 s12, s10, s11\ns_cselect_b32 s14, s12, s13\ns_bfe_u32 s15, s10, 0x50003\n"
     "v_mov_b32 v5, s14\nv_mov_b32 v6, s15", NULL, r_salu, -1, 1},
    {"salu min/ff1", POOL_I, ALL, "v_readfirstlane_b32 s10, v1\nv_readfirstlane_b32 s11, v2\n"
     "s_min_i32 s12, s10, s11\ns_ff1_i32_b32 s13, s10\nv_mov_b32 v5, s12\nv_mov_b32 v6, s13", NULL, r_salu2, -1, 1},
    {"ds write/read, bpermute", POOL_I, ALL, "v_lshlrev_b32 v12, 2, v0\nds_write_b32 v12, v1\nv_xor_b32 v13, 4, v12\n"
     "s_waitcnt lgkmcnt(0)\nds_read_b32 v5, v13\nv_add_u32 v14, 4, v12\nv_and_b32 v14, $WSM, v14\n"
     "ds_bpermute_b32 v6, v14, v1\ns_waitcnt lgkmcnt(0)", "v_lshlrev_b32 v12, 2, v0\nds_write_b32 v12, v1\n"
     "v_xor_b32 v13, 4, v12\ns_waitcnt lgkmcnt(0)\nds_read_b32 v5, v13\nv_add_nc_u32 v14, 4, v12\n"
     "v_and_b32 v14, $WSM, v14\nds_bpermute_b32 v6, v14, v1\ns_waitcnt lgkmcnt(0)", r_lds_neighbour, -1, 1},
    {"ds_swizzle", POOL_I, ALL, "ds_swizzle_b32 v5, v1 offset:swizzle(SWAP,1)\n"
     "ds_swizzle_b32 v6, v1 offset:swizzle(QUAD_PERM,3,2,1,0)\ns_waitcnt lgkmcnt(0)", NULL, r_swizzle, -1, 1},
    {"dpp row_shr/quad_perm", POOL_I, ALL, "v_mov_b32 v5, 0x12345\n"
     "v_mov_b32_dpp v5, v1 row_shr:1 row_mask:0xf bank_mask:0xf\n"
     "v_mov_b32_dpp v6, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", NULL, r_dpp, -1, 1},
    {"vopd", POOL_F, 4, NULL, "v_dual_mul_f32 v5, v1, v2 :: v_dual_add_f32 v6, v2, v3", r_vopd, -1, 1},
    {"fdiv sequence", POOL_F, ALL, FDIV_SEQ, r_div, -1, 0},
    /* the same sequence on quotients below FLT_MIN (-FLT_MIN / 1.5 is 0x80555555), where v_div_scale scales the
     * numerator and v_div_fmas scales back */
    {"fdiv, denormal quotients", POOL_FDQ, ALL, FDIV_SEQ, r_div, -1, 0},
    /* operands of every exponent: tiny numerators over huge denominators (quotients that round to 0), huge over
     * tiny (overflow), denormal quotients. Before the emulator read v_div_scale's "denormal" tests before
     * rounding and scaled a huge denominator down, these gave inf for 0 or 1e30, and v_div_fmas rounded twice
     * (one ulp off on denormal quotients, g_ew_op_108) */
    {"fdiv, any exponents", POOL_FDX, ALL, FDIV_SEQ, r_div, -1, 0},
    {"sdwa", POOL_I, 3, "v_mov_b32 v5, v3\nv_add_u32_sdwa v5, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
     "src0_sel:BYTE_1 src1_sel:WORD_0\nv_mov_b32_sdwa v6, sext(v1) dst_sel:DWORD src0_sel:BYTE_3",
     "v_mov_b32 v5, v3\nv_add_nc_u32_sdwa v5, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 "
     "src1_sel:WORD_0\nv_mov_b32_sdwa v6, sext(v1) dst_sel:DWORD src0_sel:BYTE_3", r_sdwa, -1, 1},
    {"flat load/store", POOL_I, ALL, "v_add_co_u32_e32 v12, vcc, s4, v10\nv_mov_b32 v13, s5\n"
     "v_addc_co_u32_e32 v13, vcc, 0, v13, vcc\nflat_load_dword v5, v[12:13] offset:4\ns_waitcnt vmcnt(0) lgkmcnt(0)\n"
     "flat_store_dword v[12:13], v4\ns_waitcnt vmcnt(0) lgkmcnt(0)\nflat_load_dword v6, v[12:13]\ns_waitcnt vmcnt(0) lgkmcnt(0)",
     "v_add_co_u32 v12, vcc_lo, s4, v10\nv_mov_b32 v13, s5\nv_add_co_ci_u32_e32 v13, vcc_lo, 0, v13, vcc_lo\n"
     "flat_load_dword v5, v[12:13] offset:4\ns_waitcnt vmcnt(0) lgkmcnt(0)\nflat_store_dword v[12:13], v4\n"
     "s_waitcnt_vscnt null, 0\nflat_load_dword v6, v[12:13]\ns_waitcnt vmcnt(0) lgkmcnt(0)", r_flat, -1, 1},
    {"v_perm_b32", POOL_I, ALL, "v_and_b32 v7, 0x0f0f0f0f, v3\nv_perm_b32 v5, v1, v2, v7", NULL, r_perm, -1, 0},
    {"v_readlane/writelane", POOL_I, ALL, "v_readlane_b32 s10, v1, 5\nv_mov_b32 v5, s10\nv_mov_b32 v6, v2\n"
     "v_writelane_b32 v6, s10, 3", NULL, r_lane, -1, 1},
    {"v_med3_f32", POOL_F, ALL, "v_med3_f32 v5, v1, v2, v3", NULL, r_med3f, -1, 0},
    {"v_sqrt_f32 (1 ulp)", POOL_FDX, ALL, "v_sqrt_f32 v5, v1", NULL, r_sqrt1, -1, 0},
    {"v_sqrt_f32 (1 ulp, edges)", POOL_F, ALL, "v_sqrt_f32 v5, v1", NULL, r_sqrt1, -1, 0},
};

static const uint32_t f_edges[] = {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000,
                                   0x7fc00000, 0x7fa00000, 0x00000001, 0x807fffff, 0x00400000, 0x7f7fffff,
                                   0x4f000000, 0xcf000000, 0x4f800000, 0x3effffff, 0x3f000000, 0x3fc00000,
                                   0x40200000, 0xc0200000, 0x3f7fffff, 0x5f800000};
static const uint32_t i_edges[] = {0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 2, 31, 32, 33, 63, 0x00ffffff,
                                   0x01000000, 0xfffffffe, 0x12345678, 0x55555555, 0xaaaaaaaa};
static uint32_t rng = 777;
static uint32_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }

static uint32_t draw(int pool) {
  uint32_t r = rnd();
  if (pool == POOL_Z) return r & 0x80000000; /* +0 or -0 */
  if (pool == POOL_FDX) /* any finite value: every exponent 0..254 (denormals included), any sign and mantissa */
    return (rnd() & 0x80000000) | (r % 255) << 23 | (rnd() & 0x7fffff);
  if (pool == POOL_FDQ) { /* half tiny normals (exponents 1..4), half values in [1, 4): many quotients are denormal */
    static const uint32_t dq[] = {0x80800000, 0x00800000, 0x00800001, 0x3fc00000, 0x40400000, 0x3fa00000};
    if (r % 3 == 0) return dq[rnd() % (sizeof dq / 4)];
    uint32_t e = r % 2 ? 1 + rnd() % 4 : 127 + rnd() % 2;
    return (rnd() & 0x80000000) | e << 23 | (rnd() & 0x7fffff);
  }
  if (pool == POOL_F) {
    if (r % 4 == 0) return f_edges[rnd() % (sizeof f_edges / 4)];
    /* moderate magnitudes mostly, some denormals */
    uint32_t e = r % 8 == 1 ? 0 : 100 + rnd() % 55;
    return (rnd() & 0x80000000) | e << 23 | (rnd() & 0x7fffff);
  }
  if (r % 4 == 0) return i_edges[rnd() % (sizeof i_edges / 4)];
  return rnd();
}

static char *subst(const char *s, int gen) {
  static char out[4096];
  const char *vcc = gen == 9 ? "vcc" : "vcc_lo", *sm = gen == 9 ? "s[10:11]" : "s10", *wsm = gen == 9 ? "0xff" : "0x7f";
  size_t o = 0;
  while (*s && o < sizeof out - 16) {
    if (!strncmp(s, "$VCC", 4)) { o += (size_t)sprintf(out + o, "%s", vcc); s += 4; }
    else if (!strncmp(s, "$SM", 3)) { o += (size_t)sprintf(out + o, "%s", sm); s += 3; }
    else if (!strncmp(s, "$WSM", 4)) { o += (size_t)sprintf(out + o, "%s", wsm); s += 4; }
    else out[o++] = *s++;
  }
  out[o] = 0;
  return out;
}

int main(void) {
  const char *mcpus[] = {"gfx900", "gfx1030", "gfx1100"};
  int gens[] = {9, 10, 11};
  size_t ncase = sizeof cases / sizeof cases[0];
  for (int g = 0; g < 3; g++) {
    /* one code object per generation holding one kernel per case */
    size_t cap = 1 << 20, len = 0;
    char *src = malloc(cap);
    len += (size_t)snprintf(src + len, cap - len, ".text\n");
    for (size_t i = 0; i < ncase; i++) {
      const op_case *c = &cases[i];
      if (!(c->gens >> g & 1)) continue;
      const char *body = subst(gens[g] == 9 || !c->asm10 ? c->asm9 : c->asm10, gens[g]);
      len += (size_t)snprintf(src + len, cap - len,
                              ".globl case%zu\n.p2align 8\n.type case%zu,@function\ncase%zu:\n"
                              "s_load_dwordx4 s[4:7], s[0:1], 0x0\nv_lshlrev_b32 v10, 4, v0\nv_lshlrev_b32 v11, 3, v0\n"
                              "s_waitcnt lgkmcnt(0)\nglobal_load_dwordx4 v[1:4], v10, s[4:5]\ns_waitcnt vmcnt(0)\n"
                              "v_mov_b32 v6, 0\n%s\nglobal_store_dwordx2 v11, v[5:6], s[6:7]\ns_endpgm\n",
                              i, i, i, body);
    }
    len += (size_t)snprintf(src + len, cap - len, ".rodata\n");
    for (size_t i = 0; i < ncase; i++) {
      const op_case *c = &cases[i];
      if (!(c->gens >> g & 1)) continue;
      len += (size_t)snprintf(src + len, cap - len,
                              ".p2align 6\n.amdhsa_kernel case%zu\n.amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
                              ".amdhsa_next_free_vgpr 16\n.amdhsa_next_free_sgpr 16\n.amdhsa_group_segment_fixed_size 512\n"
                              ".amdhsa_float_denorm_mode_32 %d\n%s.end_amdhsa_kernel\n",
                              i, c->denorm_mode < 0 ? 3 : c->denorm_mode, gens[g] == 9 ? "" : ".amdhsa_wavefront_size32 1\n");
    }
    emu_fixture f;
    memset(&f, 0, sizeof f);
    f.mcpu = mcpus[g];
    f.obj = build_hsaco(src, 0, mcpus[g], &f.len);
    free(src);
    CHECK(f.obj != NULL, "assemble the op cases for %s", mcpus[g]);
    if (!f.obj) continue;
    unsigned ws = gens[g] == 9 ? 64 : 32;
    for (size_t i = 0; i < ncase; i++) {
      const op_case *c = &cases[i];
      if (!(c->gens >> g & 1)) continue;
      for (int rep = 0; rep < 4; rep++) {
        in4 in[64];
        out2 out[64];
        for (unsigned l = 0; l < ws; l++) in[l] = (in4){draw(c->pool), draw(c->pool), draw(c->pool), draw(c->pool)};
        /* the plain division row: values away from the scaling range (the FDQ and FDX rows keep their pools; an
         * override of every r_div row once hid that those rows never reached v_div_scale's scaling paths) */
        if (c->ref == r_div && c->pool == POOL_F)
          for (unsigned l = 0; l < ws; l++) {
            in[l].x = (rnd() & 0x80000000) | (110 + rnd() % 35) << 23 | (rnd() & 0x7fffff);
            in[l].y = (rnd() & 0x80000000) | (110 + rnd() % 35) << 23 | (rnd() & 0x7fffff);
          }
        memset(out, 0xee, sizeof out);
        f.nreg = 0;
        uint64_t pi = fx_buffer(&f, in, sizeof(in4) * ws), po = fx_buffer(&f, out, sizeof(out2) * ws);
        fx_arg(&f, 0, &pi, 8);
        fx_arg(&f, 8, &po, 8);
        char kname[32];
        snprintf(kname, sizeof kname, "case%zu", i);
        gasp_emu_result r = fx_run(&f, kname, 1, 1, ws, 1, 100000);
        CHECK(r.cls == GASP_CLASS_PASS, "%s on %s: %s: %s", c->name, mcpus[g], gasp_class_name(r.cls), r.detail);
        if (r.cls != GASP_CLASS_PASS) break;
        int bad = 0;
        for (unsigned l = 0; l < ws && bad < 3; l++) {
          out2 want = c->ref(in[l], l, ws, in, (unsigned)gens[g]);
          int ok5 = out[l].r5 == want.r5 || ((c->pool == POOL_F || c->pool == POOL_FDQ || c->pool == POOL_FDX) && isnan(F(out[l].r5)) && isnan(F(want.r5)));
          int ok6 = !c->check6 || out[l].r6 == want.r6 || ((c->pool == POOL_F || c->pool == POOL_FDQ || c->pool == POOL_FDX) && isnan(F(out[l].r6)) && isnan(F(want.r6)));
          if (!ok5 || !ok6) {
            bad++;
            CHECK(0, "%s on %s lane %u: in %08x %08x %08x %08x: got %08x %08x, want %08x %08x", c->name, mcpus[g], l,
                  in[l].x, in[l].y, in[l].z, in[l].w, out[l].r5, out[l].r6, want.r5, c->check6 ? want.r6 : 0);
          }
        }
        CHECK(bad == 0, "%s on %s", c->name, mcpus[g]);
        if (bad) break;
      }
    }
    free((void *)f.obj);
  }
  return DONE();
}
