/* Operand access shared by the emulator's execution files (emu_exec.c, emu_alu.c): scalar and vector sources
 * with inline constants and literals, destinations, lane masks, float bits; every register access checks the
 * VGPR range and the outstanding loads (hazard). Static inline: these run for every operand of every lane. */
#ifndef GASP_AMD_EMU_OPERAND_H
#define GASP_AMD_EMU_OPERAND_H

#include <math.h>
#include <string.h>

#include "emu_internal.h"

typedef emu_launch_state S;

/* ---------- operands ---------- */

static inline uint64_t lanes_mask(const emu_wave *w) { return w->lanes == 64 ? ~0ull : 0xffffffffull; }

static inline void set_exec(emu_wave *w) {
  w->exec = ((uint64_t)w->s[127] << 32 | w->s[126]) & lanes_mask(w);
}

static inline uint32_t *vrow(S *st, emu_wave *w, unsigned reg, int write) {
  if (reg == EMU_VGPR_TEMP) return w->v[256];
  if (reg == EMU_VGPR_DPPSRC) return w->v[257];
  if (reg == EMU_VGPR_SRC1) return w->v[258];
  if (reg >= st->prog.nvgpr) {
    emu_fail(st, w, GASP_CLASS_RANGE, "%s at .text+0x%llx uses v%u, beyond the %u VGPRs the kernel descriptor allocates",
             st->prog.insns[w->pc / 4].name, (unsigned long long)w->pc, reg, st->prog.nvgpr);
    return w->v[257];
  }
  if (w->npend && w->vpend[reg]) emu_hazard(st, w, reg, write);
  return w->v[reg];
}

static const float f_consts[] = {0.5f, -0.5f, 1.0f, -1.0f, 2.0f, -2.0f, 4.0f, -4.0f};

static inline uint32_t rd_s(S *st, emu_wave *w, const emu_insn *in, unsigned c) {
  if (c < 106) {
    if (w->npend && w->spend[c]) emu_hazard(st, w, 512 + c, 0);
    return w->s[c];
  }
  if (c == 106 || c == 107 || c == 126 || c == 127) {
    if (w->npend && w->spend[c]) emu_hazard(st, w, 512 + c, 0);
    return w->s[c];
  }
  if (c == st->m0_code) return w->s[124];
  if (c == st->null_code) return 0;
  if (c >= 128 && c <= 192) return c - 128;
  if (c >= 193 && c <= 208) return (uint32_t)(192 - (int)c);
  if (c >= 240 && c <= 247) { uint32_t u; memcpy(&u, &f_consts[c - 240], 4); return u; }
  if (c == 248) return 0x3e22f983; /* 1/(2*pi), ISA manual "inline constants" */
  if (c == 251) return (w->lanes == 32 ? w->s[106] : (w->s[106] | w->s[107])) == 0;
  if (c == 252) return w->exec == 0;
  if (c == 253) return (uint32_t)w->scc;
  if (c == EMU_SRC_LITERAL) return in->lit;
  if (c >= 256) return vrow(st, w, c - 256, 0)[0];
  emu_fail(st, w, GASP_CLASS_UNSUPPORTED, "%s at .text+0x%llx: scalar operand code %u is not implemented by the emulator",
           in->name, (unsigned long long)w->pc, c);
  return 0;
}

static inline uint64_t rd_s64(S *st, emu_wave *w, const emu_insn *in, unsigned c) {
  if (c < 106 || c == 106 || c == 126) return (uint64_t)rd_s(st, w, in, c + 1) << 32 | rd_s(st, w, in, c);
  if (c >= 128 && c <= 208) return (uint64_t)(int64_t)(int32_t)rd_s(st, w, in, c); /* integers sign-extend */
  if (c >= 240 && c <= 248) {
    static const uint64_t d[] = {0x3FE0000000000000ull, 0xBFE0000000000000ull, 0x3FF0000000000000ull,
                                 0xBFF0000000000000ull, 0x4000000000000000ull, 0xC000000000000000ull,
                                 0x4010000000000000ull, 0xC010000000000000ull, 0x3FC45F306DC9C882ull};
    return d[c - 240];
  }
  /* a 32-bit literal is zero-extended for 64-bit operands (llvm-mc 19 encodes s_mov_b64 s[0:1], 0xffffffff
   * as a literal, i.e. not as the inline -1) */
  return rd_s(st, w, in, c);
}

static inline void wr_s(S *st, emu_wave *w, unsigned c, uint32_t v) {
  if (c < 106 || c == 106 || c == 107 || c == 126 || c == 127) {
    if (w->npend && w->spend[c]) emu_hazard(st, w, 512 + c, 1);
    w->s[c] = v;
    if (c >= 126) set_exec(w);
    return;
  }
  if (c == st->m0_code) { w->s[124] = v; return; }
  if (c == st->null_code) return;
  emu_fail(st, w, GASP_CLASS_UNSUPPORTED, "%s at .text+0x%llx: scalar destination code %u is not implemented",
           st->prog.insns[w->pc / 4].name, (unsigned long long)w->pc, c);
}

static inline void wr_s64(S *st, emu_wave *w, unsigned c, uint64_t v) {
  wr_s(st, w, c, (uint32_t)v);
  if (c != st->null_code) wr_s(st, w, c + 1, (uint32_t)(v >> 32));
}

/* a lane mask in SGPRs: one SGPR in wave32, a pair in wave64 */
static inline uint64_t rd_mask(S *st, emu_wave *w, const emu_insn *in, unsigned c) {
  return w->lanes == 32 ? rd_s(st, w, in, c) : rd_s64(st, w, in, c);
}
static inline void wr_mask(S *st, emu_wave *w, unsigned c, uint64_t v) {
  if (w->lanes == 32) wr_s(st, w, c, (uint32_t)v);
  else wr_s64(st, w, c, v);
}

/* the 32-bit value of source i for every lane: a VGPR row, or a scalar broadcast into tmp */
static inline const uint32_t *va(S *st, emu_wave *w, const emu_insn *in, int i, uint32_t *tmp) {
  unsigned c = in->src[i];
  if (c >= 256) return vrow(st, w, c - 256, 0);
  uint32_t x = rd_s(st, w, in, c);
  for (unsigned l = 0; l < w->lanes; l++) tmp[l] = x;
  return tmp;
}

static inline void va64(S *st, emu_wave *w, const emu_insn *in, int i, uint64_t *out) {
  unsigned c = in->src[i];
  if (c >= 256) {
    const uint32_t *lo = vrow(st, w, c - 256, 0), *hi = vrow(st, w, c - 255, 0);
    for (unsigned l = 0; l < w->lanes; l++) out[l] = (uint64_t)hi[l] << 32 | lo[l];
    return;
  }
  uint64_t x = rd_s64(st, w, in, c);
  for (unsigned l = 0; l < w->lanes; l++) out[l] = x;
}

/* ---------- float helpers: denormal mode from the descriptor (rsrc1 FLOAT_DENORM_MODE_32), VOP3 modifiers ---- */

static inline float uf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t fu(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline int is_denorm(uint32_t u) { return (u & 0x7f800000) == 0 && (u & 0x007fffff); }
static inline uint32_t flush(uint32_t u) { return is_denorm(u) ? u & 0x80000000 : u; }

/* source i as floats bits with VOP3 abs/neg (or DPP's) applied, and input denormals flushed per mode */
static inline const uint32_t *fsrc(S *st, emu_wave *w, const emu_insn *in, int i, uint32_t *tmp) {
  const uint32_t *a = va(st, w, in, i, tmp);
  int ab = (in->abs >> i) & 1, ng = (in->neg >> i) & 1;
  if (!ab && !ng && !st->denorm_flush_src) return a;
  for (unsigned l = 0; l < w->lanes; l++) {
    uint32_t u = a[l];
    if (ab) u &= 0x7fffffff;
    if (ng) u ^= 0x80000000;
    if (st->denorm_flush_src) u = flush(u);
    tmp[l] = u;
  }
  return tmp;
}

static inline uint32_t fres(S *st, const emu_insn *in, float x) {
  if (in->omod) x = in->omod == 1 ? x * 2.0f : in->omod == 2 ? x * 4.0f : x * 0.5f;
  if (in->clamp) x = isnan(x) ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
  uint32_t u = fu(x);
  return st->denorm_flush_dst ? flush(u) : u;
}


#endif
