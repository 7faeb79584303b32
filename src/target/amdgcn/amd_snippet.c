/* A snippet task's known-good PTX snippet (straight-line 32-bit ALU code on %param registers) translated into
 * the AMD snippet the prompt asks for: inputs in v2.., the result left in its VGPR, temporaries from the first
 * free VGPR, predicates in s32.. (wave32) or s[32:33].. (wave64) -- the registers the AMD snippet prompt
 * offers (amdgcn.c, amd_constraints). It gives the reference backend and the training corpus a short answer in
 * the form the prompt asks for instead of clang's complete kernel. Anything outside the mapped subset (64-bit
 * types, memory, branches; integer division only by a constant; IEEE sqrt and division of f32 become clang's
 * refined sequences) returns NULL and the
 * caller keeps clang's source. The result is judged like any answer, so a mistranslation fails the task's
 * own verification rather than passing silently (the reference bench runs every snippet task). */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd.h"

#define MAX_REGS 64

typedef struct {
  char name[32];
  int pred;   /* 1: a predicate (an SGPR or SGPR pair holding a lane mask) */
  int index;  /* VGPR number, or the SGPR number of a predicate */
} sn_reg;

typedef struct {
  const gasp_amd_arch *a;
  const gasp_task *task;
  sn_reg regs[MAX_REGS];
  int nregs, next_v, next_s, tmp_v;
  gasp_str out;
} sn_ctx;

static sn_reg *find_reg(sn_ctx *c, const char *name) {
  for (int i = 0; i < c->nregs; i++)
    if (!strcmp(c->regs[i].name, name)) return &c->regs[i];
  return NULL;
}

static int declare(sn_ctx *c, const char *name, int pred) {
  if (c->nregs >= MAX_REGS || strlen(name) >= sizeof c->regs[0].name || find_reg(c, name)) return -1;
  sn_reg *r = &c->regs[c->nregs++];
  strcpy(r->name, name);
  r->pred = pred;
  if (pred) {
    r->index = c->next_s;
    c->next_s += c->a->wave64 ? 2 : 1;
    if (c->next_s > 48) return -1; /* the prompt offers s32-s47 */
  } else {
    r->index = c->next_v++;
    if (c->next_v > 63) return -1; /* ... and v..-v63 */
  }
  return 0;
}

/* An operand: a register (VGPR number in *v, or -1 with *imm the 32-bit pattern of an immediate). */
static int operand(sn_ctx *c, const char *s, int is_float, int *v, uint32_t *imm) {
  *v = -1;
  if (*s == '%') {
    sn_reg *r = find_reg(c, s + 1);
    if (!r || r->pred) return -1;
    *v = r->index;
    return 0;
  }
  char *end;
  if (is_float && (s[0] == '0') && (s[1] == 'f' || s[1] == 'F')) { /* PTX's 0fXXXXXXXX: the f32 bits */
    unsigned long long u = strtoull(s + 2, &end, 16);
    if (*end || end - (s + 2) != 8) return -1;
    *imm = (uint32_t)u;
    return 0;
  }
  if (is_float) {
    float f = strtof(s, &end);
    if (*end || end == s) return -1;
    memcpy(imm, &f, 4);
    return 0;
  }
  long long x = strtoll(s, &end, 0);
  if (*end || end == s || x < INT32_MIN || x > UINT32_MAX) return -1;
  *imm = (uint32_t)x;
  return 0;
}

/* An operand in a VGPR: immediates go through v_mov_b32 into a scratch VGPR (one per operand slot), which
 * keeps every form valid on GFX9 too, where VOP3 takes no literal constants. */
static int vreg_of(sn_ctx *c, const char *s, int is_float, int slot) {
  int v;
  uint32_t imm;
  if (operand(c, s, is_float, &v, &imm)) return -1;
  if (v >= 0) return v;
  int t = c->tmp_v + slot;
  if (t > 63) return -1;
  gasp_str_printf(&c->out, "v_mov_b32_e32 v%d, 0x%x\n", t, imm);
  return t;
}

static int vdst(sn_ctx *c, const char *s) {
  if (*s != '%') return -1;
  sn_reg *r = find_reg(c, s + 1);
  return r && !r->pred ? r->index : -1;
}

static const char *cmp_name(const char *cmp, char ty) {
  static const struct { const char *ptx, *f, *i; } m[] = {
      {"lt", "lt", "lt"}, {"le", "le", "le"}, {"gt", "gt", "gt"}, {"ge", "ge", "ge"},
      {"eq", "eq", "eq"}, {"ne", "lg", "ne"}, /* PTX ne.f32 is ordered: AMD's lg, not neq (unordered) */
      {"neu", "neq", NULL},
      {"lo", NULL, "lt"}, {"ls", NULL, "le"}, {"hi", NULL, "gt"}, {"hs", NULL, "ge"},
  };
  for (size_t i = 0; i < sizeof m / sizeof *m; i++)
    if (!strcmp(m[i].ptx, cmp)) return ty == 'f' ? m[i].f : m[i].i;
  return NULL;
}

/* 32-bit add and subtract without carry-out: v_add_u32 on GFX9, v_add_nc_u32 from GFX10 */
static const char *add_u32(const sn_ctx *c) { return c->a->gfx >= 10 ? "v_add_nc_u32" : "v_add_u32"; }
static const char *sub_u32(const sn_ctx *c) { return c->a->gfx >= 10 ? "v_sub_nc_u32" : "v_sub_u32"; }

/* Integer division by a constant d >= 2, as compilers do it (AMD has no integer divide): a multiply by a magic
 * number and shifts (Granlund and Montgomery, "Division by invariant integers using multiplication", 1994).
 * u32: l = ceil(log2 d), m = floor(2^32 * (2^l - d) / d) + 1 (fits 32 bits), t = mulhi(m, x),
 *      q = (t + ((x - t) >> 1)) >> (l - 1): exact for every x.
 * s32: Hacker's Delight's magic(d) gives M and s with q = mulhs(M, x) (+ x when M < 0), >> s arithmetic, plus
 *      1 when negative (truncation toward zero). rem: x - q * d, the sign of the dividend as PTX's rem.
 * The result is judged like any answer, so an error here fails the task's own verification. */
static void magic_u32(uint32_t d, uint32_t *m, int *l) {
  int k = 0;
  while (k < 32 && ((uint64_t)1 << k) < d) k++;
  *l = k;
  *m = (uint32_t)((((uint64_t)1 << 32) * (((uint64_t)1 << k) - d)) / d + 1);
}

static void magic_s32(int32_t d, int32_t *M, int *sh) {
  const uint32_t two31 = 0x80000000u;
  uint32_t ad = (uint32_t)d, t = two31, anc = t - 1 - t % ad;
  uint32_t q1 = two31 / anc, r1 = two31 - q1 * anc, q2 = two31 / ad, r2 = two31 - q2 * ad, delta;
  int p = 31;
  do {
    p++;
    q1 *= 2;
    r1 *= 2;
    if (r1 >= anc) q1++, r1 -= anc;
    q2 *= 2;
    r2 *= 2;
    if (r2 >= ad) q2++, r2 -= ad;
    delta = ad - r2;
  } while (q1 < delta || (q1 == delta && r1 == 0));
  *M = (int32_t)(q2 + 1);
  *sh = p - 32;
}

static int emit_divrem(sn_ctx *c, int rem, int sgn, int d, int x, uint32_t dv) {
  const char *add_u = add_u32(c), *sub_u = sub_u32(c);
  int t = c->tmp_v + 2, u = c->tmp_v + 3, q = rem ? c->tmp_v + 1 : d; /* slot 0 may hold x's immediate */
  if (u > 63 || dv < 2 || (sgn && dv > 0x7fffffffu)) return -1;
  if (!sgn) {
    uint32_t m;
    int l;
    magic_u32(dv, &m, &l);
    gasp_str_printf(&c->out, "v_mov_b32_e32 v%d, 0x%x\nv_mul_hi_u32 v%d, v%d, v%d\n%s_e32 v%d, v%d, v%d\n"
                             "v_lshrrev_b32_e32 v%d, 1, v%d\n%s_e32 v%d, v%d, v%d\nv_lshrrev_b32_e32 v%d, %d, v%d\n",
                    t, m, t, x, t, sub_u, u, x, t, u, u, add_u, u, u, t, q, l - 1, u);
  } else {
    int32_t M;
    int sh;
    magic_s32((int32_t)dv, &M, &sh);
    gasp_str_printf(&c->out, "v_mov_b32_e32 v%d, 0x%x\nv_mul_hi_i32 v%d, v%d, v%d\n", t, (uint32_t)M, t, x, t);
    if (M < 0) gasp_str_printf(&c->out, "%s_e32 v%d, v%d, v%d\n", add_u, t, t, x);
    gasp_str_printf(&c->out, "v_ashrrev_i32_e32 v%d, %d, v%d\nv_lshrrev_b32_e32 v%d, 31, v%d\n%s_e32 v%d, v%d, v%d\n",
                    t, sh, t, u, t, add_u, q, t, u);
  }
  if (rem) /* x - q * d; d goes through a VGPR (VOP3 takes no literal on GFX9) */
    gasp_str_printf(&c->out, "v_mov_b32_e32 v%d, 0x%x\nv_mul_lo_u32 v%d, v%d, v%d\n%s_e32 v%d, v%d, v%d\n", u, dv, u, q,
                    u, sub_u, d, x, u);
  return 0;
}

/* One PTX instruction (mnemonic split at '.', operands split at ','). Returns 0 or -1 (not translatable). */
static int emit(sn_ctx *c, char **parts, int np, char **ops, int nops) {
  const char *op = parts[0];
  const char *ty = np > 1 ? parts[np - 1] : "";
  int f = !strcmp(ty, "f32"), s = !strcmp(ty, "s32"), u = !strcmp(ty, "u32") || !strcmp(ty, "b32");
  if (!f && !s && !u && strcmp(op, "setp") && strcmp(op, "cvt")) return -1;
  for (int i = 1; i < np; i++) /* rounding and flush modifiers we cannot honour */
    if (!strcmp(parts[i], "ftz") || !strcmp(parts[i], "sat") || !strcmp(parts[i], "approx") ||
        !strcmp(parts[i], "rz") || !strcmp(parts[i], "rm") || !strcmp(parts[i], "rp") || !strcmp(parts[i], "hi") ||
        !strcmp(parts[i], "wide") || !strcmp(parts[i], "cc"))
      return -1;
  const char *add_u = add_u32(c), *sub_u = sub_u32(c);
  int d = nops > 0 ? vdst(c, ops[0]) : -1;
  if (!strcmp(op, "mov") && nops == 2 && d >= 0) {
    int v;
    uint32_t imm;
    if (operand(c, ops[1], f, &v, &imm)) return -1;
    if (v >= 0) gasp_str_printf(&c->out, "v_mov_b32_e32 v%d, v%d\n", d, v);
    else gasp_str_printf(&c->out, "v_mov_b32_e32 v%d, 0x%x\n", d, imm);
    return 0;
  }
  struct { const char *ptx; int f, s, u; const char *amd; int rev; } bin[] = {
      {"add", 1, 0, 0, "v_add_f32", 0}, {"sub", 1, 0, 0, "v_sub_f32", 0}, {"mul", 1, 0, 0, "v_mul_f32", 0},
      {"min", 1, 0, 0, "v_min_f32", 0}, {"max", 1, 0, 0, "v_max_f32", 0},
      {"add", 0, 1, 1, NULL, 0}, {"sub", 0, 1, 1, NULL, 0},
      {"min", 0, 1, 0, "v_min_i32", 0}, {"max", 0, 1, 0, "v_max_i32", 0},
      {"min", 0, 0, 1, "v_min_u32", 0}, {"max", 0, 0, 1, "v_max_u32", 0},
      {"and", 0, 1, 1, "v_and_b32", 0}, {"or", 0, 1, 1, "v_or_b32", 0}, {"xor", 0, 1, 1, "v_xor_b32", 0},
      /* AMD's shifts take the shift amount first (the "rev" forms); PTX clamps amounts >= 32 where AMD uses
       * the low 5 bits, so only the task's verification tells whether an unmasked shift is right */
      {"shl", 0, 1, 1, "v_lshlrev_b32", 1}, {"shr", 0, 0, 1, "v_lshrrev_b32", 1}, {"shr", 0, 1, 0, "v_ashrrev_i32", 1},
  };
  for (size_t i = 0; i < sizeof bin / sizeof *bin; i++) {
    if (strcmp(bin[i].ptx, op) || !((f && bin[i].f) || (s && bin[i].s) || (u && bin[i].u)) || nops != 3) continue;
    if (!strcmp(op, "mul") && np > 2 && strcmp(parts[1], "rn")) return -1;
    if ((!strcmp(op, "add") || !strcmp(op, "sub")) && f && np > 2 && strcmp(parts[1], "rn")) return -1;
    int x = vreg_of(c, ops[1], f, 0), y = vreg_of(c, ops[2], f, 1);
    if (d < 0 || x < 0 || y < 0) return -1;
    const char *m = bin[i].amd ? bin[i].amd : !strcmp(op, "add") ? add_u : sub_u;
    if (bin[i].rev) gasp_str_printf(&c->out, "%s_e32 v%d, v%d, v%d\n", m, d, y, x);
    else gasp_str_printf(&c->out, "%s_e32 v%d, v%d, v%d\n", m, d, x, y);
    return 0;
  }
  if (!strcmp(op, "mul") && np == 3 && !strcmp(parts[1], "lo") && (s || u) && nops == 3) {
    int x = vreg_of(c, ops[1], 0, 0), y = vreg_of(c, ops[2], 0, 1);
    if (d < 0 || x < 0 || y < 0) return -1;
    gasp_str_printf(&c->out, "v_mul_lo_u32 v%d, v%d, v%d\n", d, x, y);
    return 0;
  }
  if (!strcmp(op, "mad") && np == 3 && !strcmp(parts[1], "lo") && (s || u) && nops == 4) {
    int x = vreg_of(c, ops[1], 0, 0), y = vreg_of(c, ops[2], 0, 1), z = vreg_of(c, ops[3], 0, 2);
    int t = c->tmp_v + 3;
    if (d < 0 || x < 0 || y < 0 || z < 0 || t > 63) return -1;
    gasp_str_printf(&c->out, "v_mul_lo_u32 v%d, v%d, v%d\n%s_e32 v%d, v%d, v%d\n", t, x, y, add_u, d, t, z);
    return 0;
  }
  if (!strcmp(op, "fma") && f && np == 3 && !strcmp(parts[1], "rn") && nops == 4) {
    int x = vreg_of(c, ops[1], 1, 0), y = vreg_of(c, ops[2], 1, 1), z = vreg_of(c, ops[3], 1, 2);
    if (d < 0 || x < 0 || y < 0 || z < 0) return -1;
    gasp_str_printf(&c->out, "v_fma_f32 v%d, v%d, v%d, v%d\n", d, x, y, z);
    return 0;
  }
  if ((!strcmp(op, "abs") || !strcmp(op, "neg") || !strcmp(op, "not") || !strcmp(op, "popc")) && nops == 2) {
    int x = vreg_of(c, ops[1], f, 0);
    if (d < 0 || x < 0) return -1;
    if (f && !strcmp(op, "abs")) gasp_str_printf(&c->out, "v_and_b32_e32 v%d, 0x7fffffff, v%d\n", d, x);
    else if (f && !strcmp(op, "neg")) gasp_str_printf(&c->out, "v_xor_b32_e32 v%d, 0x80000000, v%d\n", d, x);
    else if (s && !strcmp(op, "neg")) gasp_str_printf(&c->out, "%s_e32 v%d, 0, v%d\n", sub_u, d, x);
    else if (s && !strcmp(op, "abs")) {
      int t = c->tmp_v + 3;
      if (t > 63) return -1;
      gasp_str_printf(&c->out, "%s_e32 v%d, 0, v%d\nv_max_i32_e32 v%d, v%d, v%d\n", sub_u, t, x, d, x, t);
    } else if (!f && !strcmp(op, "not")) gasp_str_printf(&c->out, "v_not_b32_e32 v%d, v%d\n", d, x);
    else if (!f && !strcmp(op, "popc")) gasp_str_printf(&c->out, "v_bcnt_u32_b32 v%d, v%d, 0\n", d, x);
    else return -1;
    return 0;
  }
  if (!strcmp(op, "cvt") && nops == 2 && np >= 3) {
    const char *to = parts[np - 2], *from = parts[np - 1], *rnd = np == 4 ? parts[1] : "";
    int x = vreg_of(c, ops[1], !strcmp(from, "f32"), 0);
    if (d < 0 || x < 0) return -1;
    if (!strcmp(to, "f32") && !strcmp(from, "s32") && !strcmp(rnd, "rn"))
      gasp_str_printf(&c->out, "v_cvt_f32_i32_e32 v%d, v%d\n", d, x);
    else if (!strcmp(to, "f32") && !strcmp(from, "u32") && !strcmp(rnd, "rn"))
      gasp_str_printf(&c->out, "v_cvt_f32_u32_e32 v%d, v%d\n", d, x);
    else if (!strcmp(to, "s32") && !strcmp(from, "f32") && !strcmp(rnd, "rzi")) /* both saturate, NaN -> 0 */
      gasp_str_printf(&c->out, "v_cvt_i32_f32_e32 v%d, v%d\n", d, x);
    else if (!strcmp(to, "u32") && !strcmp(from, "f32") && !strcmp(rnd, "rzi"))
      gasp_str_printf(&c->out, "v_cvt_u32_f32_e32 v%d, v%d\n", d, x);
    else return -1;
    return 0;
  }
  if ((!strcmp(op, "div") || !strcmp(op, "rem")) && (s || u) && np == 2 && nops == 3) {
    int x = vreg_of(c, ops[1], 0, 0), v;
    uint32_t dv;
    if (d < 0 || x < 0 || operand(c, ops[2], 0, &v, &dv) || v >= 0) return -1; /* a constant divisor only */
    return emit_divrem(c, !strcmp(op, "rem"), s, d, x, dv);
  }
  /* IEEE sqrt.rn.f32 and div.rn.f32: v_sqrt_f32 and v_rcp_f32 are 1 ulp and ignore denormals, so clang's refined
   * sequences (LLVM's lowering, as clang-19 emits them with denormals on; the emulator gives the other faithful
   * rounding of v_sqrt_f32, so a sqrt that did not refine would fail its task). sqrt: x below 2^-96
   * scaled by 2^32, s = v_sqrt_f32, s - 1 ulp or s + 1 ulp where the residual fma(-s', s, x) says, scaled back
   * by 2^-16, zeros and +inf passed through (class mask 0x260). Division: v_div_scale, a Newton step on
   * v_rcp_f32, v_div_fmas and v_div_fixup. The scale mask is in VCC, a compare's in the first SGPR after the
   * predicates; the class mask goes through a VGPR (GFX9's VOP3 takes no literal). */
  if ((!strcmp(op, "sqrt") || !strcmp(op, "div")) && f && np == 3 && !strcmp(parts[1], "rn")) {
    int sq = !strcmp(op, "sqrt");
    if (nops != (sq ? 2 : 3)) return -1;
    int x = vreg_of(c, ops[1], 1, 0), y = sq ? 0 : vreg_of(c, ops[2], 1, 1);
    int t = c->tmp_v + 2, sm = c->next_s; /* t .. t+5: six temporaries */
    if (d < 0 || x < 0 || y < 0 || t + 5 > 63 || sm + (c->a->wave64 ? 2 : 1) > 48) return -1;
    const char *vcc = c->a->wave64 ? "vcc" : "vcc_lo";
    char sg[32];
    if (c->a->wave64) snprintf(sg, sizeof sg, "s[%d:%d]", sm, sm + 1);
    else snprintf(sg, sizeof sg, "s%d", sm);
    gasp_str *o = &c->out;
    if (sq) {
      gasp_str_printf(o, "v_mul_f32_e32 v%d, 0x4f800000, v%d\nv_cmp_gt_f32_e32 %s, 0xf800000, v%d\n", t, x, vcc, x);
      gasp_str_printf(o, "v_cndmask_b32_e32 v%d, v%d, v%d, %s\nv_sqrt_f32_e32 v%d, v%d\n", t, x, t, vcc, t + 1, t);
      gasp_str_printf(o, "%s_e32 v%d, -1, v%d\n%s_e32 v%d, 1, v%d\n", add_u, t + 2, t + 1, add_u, t + 3, t + 1);
      /* both residuals from s before either choice changes it */
      gasp_str_printf(o, "v_fma_f32 v%d, -v%d, v%d, v%d\nv_fma_f32 v%d, -v%d, v%d, v%d\n", t + 4, t + 2, t + 1, t, t + 5,
                      t + 3, t + 1, t);
      gasp_str_printf(o, "v_cmp_ge_f32_e64 %s, 0, v%d\nv_cndmask_b32_e64 v%d, v%d, v%d, %s\n", sg, t + 4, t + 1, t + 1,
                      t + 2, sg);
      gasp_str_printf(o, "v_cmp_lt_f32_e64 %s, 0, v%d\nv_cndmask_b32_e64 v%d, v%d, v%d, %s\n", sg, t + 5, t + 1, t + 1,
                      t + 3, sg);
      gasp_str_printf(o, "v_mul_f32_e32 v%d, 0x37800000, v%d\nv_cndmask_b32_e32 v%d, v%d, v%d, %s\n", t + 2, t + 1,
                      t + 1, t + 1, t + 2, vcc);
      gasp_str_printf(o, "v_mov_b32_e32 v%d, 0x260\nv_cmp_class_f32_e32 %s, v%d, v%d\nv_cndmask_b32_e32 v%d, v%d, v%d, %s\n",
                      t + 2, vcc, t, t + 2, d, t + 1, t, vcc);
    } else {
      gasp_str_printf(o, "v_div_scale_f32 v%d, %s, v%d, v%d, v%d\nv_rcp_f32_e32 v%d, v%d\n", t, sg, y, y, x, t + 1, t);
      gasp_str_printf(o, "v_div_scale_f32 v%d, %s, v%d, v%d, v%d\n", t + 2, vcc, x, y, x);
      gasp_str_printf(o, "v_fma_f32 v%d, -v%d, v%d, 1.0\nv_fma_f32 v%d, v%d, v%d, v%d\n", t + 3, t, t + 1, t + 1, t + 3,
                      t + 1, t + 1);
      gasp_str_printf(o, "v_mul_f32_e32 v%d, v%d, v%d\nv_fma_f32 v%d, -v%d, v%d, v%d\nv_fma_f32 v%d, v%d, v%d, v%d\n",
                      t + 3, t + 2, t + 1, t + 4, t, t + 3, t + 2, t + 3, t + 4, t + 1, t + 3);
      gasp_str_printf(o, "v_fma_f32 v%d, -v%d, v%d, v%d\nv_div_fmas_f32 v%d, v%d, v%d, v%d\nv_div_fixup_f32 v%d, v%d, v%d, v%d\n",
                      t, t, t + 3, t + 2, t, t, t + 1, t + 3, d, t, y, x);
    }
    return 0;
  }
  if (!strcmp(op, "setp") && np == 3 && nops == 3) {
    char tc = !strcmp(ty, "f32") ? 'f' : !strcmp(ty, "s32") ? 'i' : !strcmp(ty, "u32") ? 'u' : 0;
    const char *cn = tc ? cmp_name(parts[1], tc == 'f' ? 'f' : 'i') : NULL;
    sn_reg *p = ops[0][0] == '%' ? find_reg(c, ops[0] + 1) : NULL;
    int x = vreg_of(c, ops[1], tc == 'f', 0), y = vreg_of(c, ops[2], tc == 'f', 1);
    if (!cn || !p || !p->pred || x < 0 || y < 0) return -1;
    if (c->a->wave64) gasp_str_printf(&c->out, "v_cmp_%s_%s32_e64 s[%d:%d], v%d, v%d\n", cn, tc == 'f' ? "f" : tc == 'i' ? "i" : "u", p->index, p->index + 1, x, y);
    else gasp_str_printf(&c->out, "v_cmp_%s_%s32_e64 s%d, v%d, v%d\n", cn, tc == 'f' ? "f" : tc == 'i' ? "i" : "u", p->index, x, y);
    return 0;
  }
  if (!strcmp(op, "selp") && nops == 4) {
    sn_reg *p = ops[3][0] == '%' ? find_reg(c, ops[3] + 1) : NULL;
    int x = vreg_of(c, ops[1], f, 0), y = vreg_of(c, ops[2], f, 1);
    if (d < 0 || !p || !p->pred || x < 0 || y < 0) return -1;
    /* v_cndmask: D = mask ? src1 : src0 */
    if (c->a->wave64) gasp_str_printf(&c->out, "v_cndmask_b32_e64 v%d, v%d, v%d, s[%d:%d]\n", d, y, x, p->index, p->index + 1);
    else gasp_str_printf(&c->out, "v_cndmask_b32_e64 v%d, v%d, v%d, s%d\n", d, y, x, p->index);
    return 0;
  }
  return -1;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
  return s;
}

char *gasp_amd_snippet_from_ptx(const gasp_target *t, const gasp_task *task, const char *ptx) {
  sn_ctx c;
  memset(&c, 0, sizeof c);
  c.a = gasp_amd_arch_of(t);
  c.task = task;
  int arrays = 0;
  for (int i = 0; i < task->nparams; i++) {
    const gasp_param *p = &task->params[i];
    if (p->role == GASP_ROLE_SCALAR) continue; /* the AMD scaffold gives scalars no register */
    if (gasp_dtype_size(p->type) != 4 || c.nregs >= MAX_REGS) return NULL;
    sn_reg *r = &c.regs[c.nregs++];
    snprintf(r->name, sizeof r->name, "%s", p->name);
    r->index = 2 + arrays++;
  }
  c.next_v = 2 + arrays;
  c.next_s = 32;
  gasp_str_init(&c.out);
  char *text = gasp_strdup(ptx), *save = NULL;
  int ok = 1;
  /* declarations first (PTX lets them sit anywhere in the scope): they fix the temporaries' VGPRs */
  for (char *st = strtok_r(text, ";", &save); st && ok; st = strtok_r(NULL, ";", &save)) {
    char *s = trim(st);
    if (strncmp(s, ".reg", 4)) continue;
    s = trim(s + 4);
    int pred = !strncmp(s, ".pred", 5);
    if (strncmp(s, ".pred", 5) && strncmp(s, ".f32", 4) && strncmp(s, ".b32", 4) && strncmp(s, ".s32", 4) &&
        strncmp(s, ".u32", 4)) {
      ok = 0;
      break;
    }
    while (*s && !isspace((unsigned char)*s)) s++;
    char *save2 = NULL;
    for (char *n = strtok_r(s, ",", &save2); n && ok; n = strtok_r(NULL, ",", &save2)) {
      n = trim(n);
      if (*n != '%' || strchr(n, '<') || declare(&c, n + 1, pred)) ok = 0;
    }
  }
  free(text);
  c.tmp_v = c.next_v;
  text = gasp_strdup(ptx);
  save = NULL;
  for (char *st = strtok_r(text, ";", &save); st && ok; st = strtok_r(NULL, ";", &save)) {
    char *s = trim(st);
    if (!*s || !strncmp(s, ".reg", 4)) continue;
    if (*s == '@' || strchr(s, '[') || strchr(s, ':') || strchr(s, '{')) { ok = 0; break; } /* predication, memory, labels */
    char *sp = s;
    while (*sp && !isspace((unsigned char)*sp)) sp++;
    if (*sp) *sp++ = 0;
    char *parts[8], *ops[8];
    int np = 0, nops = 0;
    char *save3 = NULL;
    for (char *p = strtok_r(s, ".", &save3); p && np < 8; p = strtok_r(NULL, ".", &save3)) parts[np++] = p;
    for (char *o = strtok_r(sp, ",", &save3); o && nops < 8; o = strtok_r(NULL, ",", &save3)) ops[nops++] = trim(o);
    if (!np || emit(&c, parts, np, ops, nops)) ok = 0;
  }
  free(text);
  if (!ok || !c.out.len) {
    gasp_str_free(&c.out);
    return NULL;
  }
  return gasp_str_take(&c.out);
}
