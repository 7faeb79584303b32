/* One wave-instruction: operand access (with the memory-counter hazard check and the VGPR range check),
 * scalar ALU, vector ALU (incl. DPP and VOPD), scalar and vector memory, LDS, branches and s_waitcnt.
 * Semantics follow AMD's ISA manuals (Vega, RDNA2, RDNA3); the comment at each group names the rules used. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "emu_internal.h"

typedef emu_launch_state S;

/* ---------- pending loads: the register set each outstanding memory operation will write ---------- */

static void pend_mark(emu_wave *w, unsigned reg, unsigned n, int delta) {
  for (unsigned i = 0; i < n; i++) {
    unsigned r = reg + i;
    if (r >= 512) {
      if (r - 512 < 128) w->spend[r - 512] = (uint8_t)(w->spend[r - 512] + delta);
    } else if (r < 257) {
      w->vpend[r] = (uint8_t)(w->vpend[r] + delta);
    }
  }
  w->npend += delta * (int)n;
}

static void q_push(emu_wave *w, emu_queue *q, unsigned reg, unsigned n, int smem, uint64_t pc) {
  if (q->count == EMU_MAX_PENDING) { /* hardware counters saturate; the oldest is certainly done by now */
    emu_pend *o = &q->e[q->head];
    pend_mark(w, o->reg, o->n, -1);
    q->head = (q->head + 1) % EMU_MAX_PENDING;
    q->count--;
  }
  emu_pend *e = &q->e[(q->head + q->count) % EMU_MAX_PENDING];
  e->reg = (uint16_t)reg;
  e->n = (uint16_t)n;
  e->smem = (uint8_t)smem;
  e->pc = pc;
  q->count++;
  pend_mark(w, reg, n, +1);
}

/* s_waitcnt: at most `keep` operations of this counter stay outstanding. Vector memory and LDS return in
 * order, so the oldest retire; scalar loads return out of order (ISA manual, "s_waitcnt": lgkmcnt), so while
 * one is queued only lgkmcnt(0) proves anything has arrived. */
static void q_wait(emu_wave *w, emu_queue *q, int keep) {
  if (q->count <= keep) return;
  if (keep > 0)
    for (int i = 0; i < q->count; i++)
      if (q->e[(q->head + i) % EMU_MAX_PENDING].smem) return;
  while (q->count > keep) {
    emu_pend *o = &q->e[q->head];
    pend_mark(w, o->reg, o->n, -1);
    q->head = (q->head + 1) % EMU_MAX_PENDING;
    q->count--;
  }
}

static const emu_pend *q_find(const emu_queue *q, unsigned reg) {
  for (int i = q->count - 1; i >= 0; i--) {
    const emu_pend *e = &q->e[(q->head + i) % EMU_MAX_PENDING];
    if (reg >= e->reg && reg < (unsigned)e->reg + e->n) return e;
  }
  return NULL;
}

static void hazard(S *st, emu_wave *w, unsigned reg, int write) {
  const emu_pend *e = q_find(&w->vm, reg);
  const char *cnt = "vmcnt";
  if (!e) { e = q_find(&w->lgkm, reg); cnt = "lgkmcnt"; }
  char rn[16];
  if (reg >= 512) snprintf(rn, sizeof rn, "s%u", reg - 512);
  else snprintf(rn, sizeof rn, "v%u", reg);
  const emu_insn *in = &st->prog.insns[w->pc / 4];
  emu_fail(st, w, GASP_CLASS_HAZARD,
           "%s at .text+0x%llx %s %s while the load at .text+0x%llx that writes it is outstanding "
           "(no s_waitcnt %s covers it)",
           in->name, (unsigned long long)w->pc, write ? "overwrites" : "reads", rn,
           (unsigned long long)(e ? e->pc : 0), cnt);
}

/* ---------- operands ---------- */

static uint64_t lanes_mask(const emu_wave *w) { return w->lanes == 64 ? ~0ull : 0xffffffffull; }

static void set_exec(emu_wave *w) {
  w->exec = ((uint64_t)w->s[127] << 32 | w->s[126]) & lanes_mask(w);
}

static uint32_t *vrow(S *st, emu_wave *w, unsigned reg, int write) {
  if (reg == EMU_VGPR_TEMP) return w->v[256];
  if (reg == EMU_VGPR_DPPSRC) return w->v[257];
  if (reg == EMU_VGPR_SRC1) return w->v[258];
  if (reg >= st->prog.nvgpr) {
    emu_fail(st, w, GASP_CLASS_RANGE, "%s at .text+0x%llx uses v%u, beyond the %u VGPRs the kernel descriptor allocates",
             st->prog.insns[w->pc / 4].name, (unsigned long long)w->pc, reg, st->prog.nvgpr);
    return w->v[257];
  }
  if (w->npend && w->vpend[reg]) hazard(st, w, reg, write);
  return w->v[reg];
}

static const float f_consts[] = {0.5f, -0.5f, 1.0f, -1.0f, 2.0f, -2.0f, 4.0f, -4.0f};

static uint32_t rd_s(S *st, emu_wave *w, const emu_insn *in, unsigned c) {
  if (c < 106) {
    if (w->npend && w->spend[c]) hazard(st, w, 512 + c, 0);
    return w->s[c];
  }
  if (c == 106 || c == 107 || c == 126 || c == 127) {
    if (w->npend && w->spend[c]) hazard(st, w, 512 + c, 0);
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

static uint64_t rd_s64(S *st, emu_wave *w, const emu_insn *in, unsigned c) {
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

static void wr_s(S *st, emu_wave *w, unsigned c, uint32_t v) {
  if (c < 106 || c == 106 || c == 107 || c == 126 || c == 127) {
    if (w->npend && w->spend[c]) hazard(st, w, 512 + c, 1);
    w->s[c] = v;
    if (c >= 126) set_exec(w);
    return;
  }
  if (c == st->m0_code) { w->s[124] = v; return; }
  if (c == st->null_code) return;
  emu_fail(st, w, GASP_CLASS_UNSUPPORTED, "%s at .text+0x%llx: scalar destination code %u is not implemented",
           st->prog.insns[w->pc / 4].name, (unsigned long long)w->pc, c);
}

static void wr_s64(S *st, emu_wave *w, unsigned c, uint64_t v) {
  wr_s(st, w, c, (uint32_t)v);
  if (c != st->null_code) wr_s(st, w, c + 1, (uint32_t)(v >> 32));
}

/* a lane mask in SGPRs: one SGPR in wave32, a pair in wave64 */
static uint64_t rd_mask(S *st, emu_wave *w, const emu_insn *in, unsigned c) {
  return w->lanes == 32 ? rd_s(st, w, in, c) : rd_s64(st, w, in, c);
}
static void wr_mask(S *st, emu_wave *w, unsigned c, uint64_t v) {
  if (w->lanes == 32) wr_s(st, w, c, (uint32_t)v);
  else wr_s64(st, w, c, v);
}

/* the 32-bit value of source i for every lane: a VGPR row, or a scalar broadcast into tmp */
static const uint32_t *va(S *st, emu_wave *w, const emu_insn *in, int i, uint32_t *tmp) {
  unsigned c = in->src[i];
  if (c >= 256) return vrow(st, w, c - 256, 0);
  uint32_t x = rd_s(st, w, in, c);
  for (unsigned l = 0; l < w->lanes; l++) tmp[l] = x;
  return tmp;
}

static void va64(S *st, emu_wave *w, const emu_insn *in, int i, uint64_t *out) {
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
static const uint32_t *fsrc(S *st, emu_wave *w, const emu_insn *in, int i, uint32_t *tmp) {
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

/* v_min_f32/v_max_f32: a NaN operand yields the other (IEEE mode quiets a signalling NaN and returns it only
 * when both are NaN); -0 is below +0 (ISA manual, V_MIN_F32/V_MAX_F32). */
static uint32_t fmin_hw(uint32_t a, uint32_t b, int max) {
  float x = uf(a), y = uf(b);
  if (isnan(x) && isnan(y)) return a | 0x00400000;
  if (isnan(x)) return b;
  if (isnan(y)) return a;
  if (x == y) return max ? (a & b) : (a | b); /* zeros: sign bits decide */
  return (max ? x > y : x < y) ? a : b;
}

/* V_MED3_F32: a NaN operand gives min3 under the min rules; else max(min(a, b), min(max(a, b), c)) */
static uint32_t fmed3(uint32_t a, uint32_t b, uint32_t c) {
  if (isnan(uf(a)) || isnan(uf(b)) || isnan(uf(c))) return fmin_hw(fmin_hw(a, b, 0), c, 0);
  return fmin_hw(fmin_hw(a, b, 0), fmin_hw(fmin_hw(a, b, 1), c, 0), 1);
}

static int32_t cvt_i32(float x) {
  if (isnan(x)) return 0;
  if (x >= 2147483648.0f) return INT32_MAX;
  if (x <= -2147483648.0f) return INT32_MIN;
  return (int32_t)x;
}
static uint32_t cvt_u32(float x) {
  if (isnan(x) || x <= 0.0f) return 0;
  if (x >= 4294967296.0f) return UINT32_MAX;
  return (uint32_t)x;
}

static int fexp(float x) { int e; frexpf(x, &e); return e; }

/* V_DIV_SCALE_F32 (Vega ISA manual): scales the numerator or denominator of a division so the Newton-Raphson
 * sequence clang emits (div_scale, rcp, fma..., div_fmas, div_fixup) stays in range; VCC marks scaled lanes. */
static float div_scale(float s0, float den, float num, int *vcc) {
  *vcc = 0;
  if (num == 0.0f || den == 0.0f || isnan(num) || isnan(den) || isinf(num) || isinf(den)) return NAN;
  int en = (fu(num) >> 23) & 0xff, ed = (fu(den) >> 23) & 0xff;
  if (en - ed >= 96) { *vcc = 1; return s0 == den ? ldexpf(s0, 64) : s0; }
  if (is_denorm(fu(den))) return ldexpf(s0, 64);
  float r = 1.0f / den, q = num / den;
  if (is_denorm(fu(r)) && is_denorm(fu(q))) { *vcc = 1; return s0 == den ? ldexpf(s0, 64) : s0; }
  if (is_denorm(fu(r))) return ldexpf(s0, -64);
  if (is_denorm(fu(q))) { *vcc = 1; return s0 == num ? ldexpf(s0, 64) : s0; }
  if (en <= 23) return ldexpf(s0, 64);
  return s0;
}

/* V_DIV_FIXUP_F32: special cases of num/den from the original operands; otherwise the quotient s0. */
static float div_fixup(float q, float den, float num) {
  uint32_t sign = (fu(num) ^ fu(den)) & 0x80000000;
  if (isnan(den)) return uf(fu(den) | 0x00400000);
  if (isnan(num)) return uf(fu(num) | 0x00400000);
  if (den == 0.0f && num == 0.0f) return uf(0xffc00000);
  if (isinf(den) && isinf(num)) return uf(0xffc00000);
  if (den == 0.0f || isinf(num)) return uf(sign | 0x7f800000);
  if (isinf(den) || num == 0.0f) return uf(sign);
  if (isnan(q)) return uf(sign | 0x7f800000);
  return uf((fu(q) & 0x7fffffff) | sign);
}

static int cls_f32(uint32_t u, uint32_t mask) {
  float x = uf(u);
  int neg = u >> 31, bit;
  if (isnan(x)) bit = (u & 0x00400000) ? 1 : 0;
  else if (isinf(x)) bit = neg ? 2 : 9;
  else if (x == 0.0f) bit = neg ? 5 : 6;
  else if (is_denorm(u)) bit = neg ? 4 : 7;
  else bit = neg ? 3 : 8;
  return (mask >> bit) & 1;
}

static int fcmp(int cond, float a, float b) {
  int un = isnan(a) || isnan(b);
  switch (cond) {
    case 0: return 0;
    case 1: return a < b;
    case 2: return a == b;
    case 3: return a <= b;
    case 4: return a > b;
    case 5: return !un && a != b;
    case 6: return a >= b;
    case 7: return !un;
    case 8: return un;
    case 9: return !(a >= b);
    case 10: return !(!un && a != b);
    case 11: return !(a > b);
    case 12: return !(a <= b);
    case 13: return !(a == b);
    case 14: return !(a < b);
    default: return 1;
  }
}

#define ICMP(c, a, b) ((c) == 0 ? 0 : (c) == 1 ? (a) < (b) : (c) == 2 ? (a) == (b) : (c) == 3 ? (a) <= (b) : \
                       (c) == 4 ? (a) > (b) : (c) == 5 ? (a) != (b) : (c) == 6 ? (a) >= (b) : 1)

/* ---------- memory ---------- */

static uint8_t *mem_slow(S *st, uint64_t addr, uint32_t size);

/* the region of the previous access first: a wave instruction's lanes almost always share it */
static inline uint8_t *mem_fast(S *st, uint64_t addr, uint32_t size) {
  const gasp_emu_region *r = &st->regions[st->last_region];
  if (addr >= r->base && addr - r->base <= r->size && size <= r->size - (addr - r->base))
    return r->host + (addr - r->base);
  return mem_slow(st, addr, size);
}

uint8_t *emu_mem(S *st, uint64_t addr, uint32_t size) { return mem_fast(st, addr, size); }

static uint8_t *mem_slow(S *st, uint64_t addr, uint32_t size) {
  const gasp_emu_region *r;
  for (int i = 0; i < st->nregions; i++) {
    r = &st->regions[i];
    if (addr >= r->base && addr - r->base <= r->size && size <= r->size - (addr - r->base)) {
      st->last_region = i;
      return r->host + (addr - r->base);
    }
  }
  return NULL;
}

static inline uint8_t *gmem(S *st, emu_wave *w, const emu_insn *in, uint64_t addr, uint32_t size, unsigned lane) {
  uint8_t *p = mem_fast(st, addr, size);
  if (!p)
    emu_fail(st, w, GASP_CLASS_ILLEGAL_ADDRESS,
             "%s at .text+0x%llx (wave %d, lane %u): %u bytes at 0x%llx are outside every buffer", in->name,
             (unsigned long long)w->pc, w->id, lane, size, (unsigned long long)addr);
  return p;
}

static uint8_t *lmem(S *st, emu_wave *w, const emu_insn *in, uint32_t addr, uint32_t size, unsigned lane) {
  /* gfx9+ DS instructions no longer bound addresses by M0 (gfx6-8 did; clang-19 sets no m0 for gfx900) */
  if ((uint64_t)addr + size > st->lds_size) {
    emu_fail(st, w, GASP_CLASS_ILLEGAL_ADDRESS,
             "%s at .text+0x%llx (wave %d, lane %u): LDS bytes 0x%x..0x%x beyond the %u bytes allocated", in->name,
             (unsigned long long)w->pc, w->id, lane, addr, addr + size - 1, st->lds_size);
    return NULL;
  }
  return st->lds + addr;
}

static int scalar_load(S *st, emu_wave *w, const emu_insn *in, unsigned n) {
  uint64_t base = rd_s64(st, w, in, in->saddr) & 0xffffffffffffull;
  int64_t off = in->imm;
  if (in->src[0] != 0xffff) off += (int64_t)rd_s(st, w, in, in->src[0]);
  uint64_t addr = (base + (uint64_t)off) & ~3ull; /* SMEM ignores the two low address bits */
  if (in->vdst + n > 106) {
    emu_fail(st, w, GASP_CLASS_RANGE, "%s at .text+0x%llx: destination s%u..s%u out of range", in->name,
             (unsigned long long)w->pc, in->vdst, in->vdst + n - 1);
    return -1;
  }
  uint8_t *p = gmem(st, w, in, addr, 4 * n, 0);
  if (!p) return -1;
  for (unsigned i = 0; i < n; i++) {
    if (w->npend && w->spend[in->vdst + i]) hazard(st, w, 512 + in->vdst + i, 1);
    memcpy(&w->s[in->vdst + i], p + 4 * i, 4);
  }
  q_push(w, &w->lgkm, 512 + in->vdst, n, 1, w->pc);
  return 0;
}

static uint64_t vaddr_of(S *st, emu_wave *w, const emu_insn *in, unsigned l, const uint32_t *a0, const uint32_t *a1,
                         uint64_t sbase) {
  if (in->saddr != 0xffff) return sbase + a0[l] + (int64_t)in->imm;
  return ((uint64_t)a1[l] << 32 | a0[l]) + (uint64_t)(int64_t)in->imm;
}

static int vmem(S *st, emu_wave *w, const emu_insn *in, uint64_t m) {
  unsigned n = 1, sz = 4, store = 0, sign = 0, atomic = 0;
  switch (in->op) {
    case EMU_OP_GLOBAL_LOAD_DWORD: break;
    case EMU_OP_GLOBAL_LOAD_DWORDX2: n = 2; break;
    case EMU_OP_GLOBAL_LOAD_DWORDX3: n = 3; break;
    case EMU_OP_GLOBAL_LOAD_DWORDX4: n = 4; break;
    case EMU_OP_GLOBAL_LOAD_UBYTE: sz = 1; break;
    case EMU_OP_GLOBAL_LOAD_SBYTE: sz = 1; sign = 1; break;
    case EMU_OP_GLOBAL_LOAD_USHORT: sz = 2; break;
    case EMU_OP_GLOBAL_LOAD_SSHORT: sz = 2; sign = 1; break;
    case EMU_OP_GLOBAL_STORE_DWORD: store = 1; break;
    case EMU_OP_GLOBAL_STORE_DWORDX2: store = 1; n = 2; break;
    case EMU_OP_GLOBAL_STORE_DWORDX3: store = 1; n = 3; break;
    case EMU_OP_GLOBAL_STORE_DWORDX4: store = 1; n = 4; break;
    case EMU_OP_GLOBAL_STORE_BYTE: store = 1; sz = 1; break;
    case EMU_OP_GLOBAL_STORE_SHORT: store = 1; sz = 2; break;
    case EMU_OP_GLOBAL_ATOMIC_ADD: case EMU_OP_GLOBAL_ATOMIC_ADD_F32: case EMU_OP_GLOBAL_ATOMIC_SMAX:
    case EMU_OP_GLOBAL_ATOMIC_UMAX: case EMU_OP_GLOBAL_ATOMIC_SMIN: case EMU_OP_GLOBAL_ATOMIC_UMIN:
    case EMU_OP_GLOBAL_ATOMIC_SWAP: case EMU_OP_GLOBAL_ATOMIC_CMPSWAP:
      atomic = 1;
      break;
    default:
      emu_fail(st, w, GASP_CLASS_UNSUPPORTED, "%s at .text+0x%llx: not implemented by the emulator", in->name,
               (unsigned long long)w->pc);
      return -1;
  }
  if (in->fmt == EMU_FMT_SCRATCH) {
    emu_fail(st, w, GASP_CLASS_UNSUPPORTED, "%s at .text+0x%llx: scratch (private) memory is not implemented",
             in->name, (unsigned long long)w->pc);
    return -1;
  }
  const uint32_t *a0 = vrow(st, w, in->addr, 0), *a1 = in->saddr == 0xffff ? vrow(st, w, in->addr + 1, 0) : a0;
  uint64_t sbase = in->saddr != 0xffff ? rd_s64(st, w, in, in->saddr) : 0;
  if (st->stop) return -1;
  if (atomic) {
    const uint32_t *dv = vrow(st, w, in->data0, 0);
    const uint32_t *cmpv = in->op == EMU_OP_GLOBAL_ATOMIC_CMPSWAP ? vrow(st, w, in->data0 + 1, 0) : dv;
    uint32_t *dst = in->glc ? vrow(st, w, in->vdst, 1) : NULL;
    if (st->stop) return -1;
    for (unsigned l = 0; l < w->lanes; l++) {
      if (!(m >> l & 1)) continue;
      uint64_t a = vaddr_of(st, w, in, l, a0, a1, sbase);
      if (a & 3) {
        emu_fail(st, w, GASP_CLASS_MISALIGNED, "%s at .text+0x%llx (wave %d, lane %u): atomic at 0x%llx is not "
                 "4-byte aligned", in->name, (unsigned long long)w->pc, w->id, l, (unsigned long long)a);
        return -1;
      }
      uint8_t *p = gmem(st, w, in, a, 4, l);
      if (!p) return -1;
      uint32_t old, v = dv[l], nv;
      memcpy(&old, p, 4);
      switch (in->op) {
        case EMU_OP_GLOBAL_ATOMIC_ADD: nv = old + v; break;
        case EMU_OP_GLOBAL_ATOMIC_ADD_F32: nv = fu(uf(old) + uf(v)); break;
        case EMU_OP_GLOBAL_ATOMIC_SMAX: nv = (int32_t)old > (int32_t)v ? old : v; break;
        case EMU_OP_GLOBAL_ATOMIC_UMAX: nv = old > v ? old : v; break;
        case EMU_OP_GLOBAL_ATOMIC_SMIN: nv = (int32_t)old < (int32_t)v ? old : v; break;
        case EMU_OP_GLOBAL_ATOMIC_UMIN: nv = old < v ? old : v; break;
        case EMU_OP_GLOBAL_ATOMIC_SWAP: nv = v; break;
        default: nv = old == cmpv[l] ? v : old; break; /* cmpswap: data = {src, cmp} */
      }
      memcpy(p, &nv, 4);
      if (dst) dst[l] = old;
    }
    if (dst) q_push(w, &w->vm, in->vdst, 1, 0, w->pc);
    else q_push(w, st->prog.gen == EMU_GFX9 ? &w->vm : &w->vs, 0, 0, 0, w->pc);
    return 0;
  }
  if (store) {
    const uint32_t *dv[4];
    for (unsigned i = 0; i < n; i++) dv[i] = vrow(st, w, in->data0 + i, 0);
    if (st->stop) return -1;
    for (unsigned l = 0; l < w->lanes; l++) {
      if (!(m >> l & 1)) continue;
      uint64_t a = vaddr_of(st, w, in, l, a0, a1, sbase);
      uint8_t *p = gmem(st, w, in, a, n * sz, l);
      if (!p) return -1;
      if (sz == 4) for (unsigned i = 0; i < n; i++) memcpy(p + 4 * i, &dv[i][l], 4);
      else memcpy(p, &dv[0][l], sz); /* little-endian: the low bytes */
    }
    q_push(w, st->prog.gen == EMU_GFX9 ? &w->vm : &w->vs, 0, 0, 0, w->pc);
    return 0;
  }
  uint32_t *dv[4];
  for (unsigned i = 0; i < n; i++) dv[i] = vrow(st, w, in->vdst + i, 1);
  if (st->stop) return -1;
  for (unsigned l = 0; l < w->lanes; l++) {
    if (!(m >> l & 1)) continue;
    uint64_t a = vaddr_of(st, w, in, l, a0, a1, sbase);
    uint8_t *p = gmem(st, w, in, a, n * sz, l);
    if (!p) return -1;
    if (sz == 4) {
      for (unsigned i = 0; i < n; i++) memcpy(&dv[i][l], p + 4 * i, 4);
    } else {
      uint32_t v = sz == 1 ? p[0] : (uint32_t)(p[0] | p[1] << 8);
      if (sign) v = sz == 1 ? (uint32_t)(int8_t)v : (uint32_t)(int16_t)v;
      dv[0][l] = v;
    }
  }
  q_push(w, &w->vm, in->vdst, n, 0, w->pc);
  return 0;
}

static int ds(S *st, emu_wave *w, const emu_insn *in, uint64_t m) {
  unsigned off = (unsigned)in->off0 | (unsigned)in->off1 << 8;
  const uint32_t *ad = vrow(st, w, in->addr, 0);
  if (st->stop) return -1;
  unsigned L = w->lanes;
  switch (in->op) {
    case EMU_OP_DS_NOP: return 0;
    case EMU_OP_DS_WRITE_B32: case EMU_OP_DS_WRITE_B64: case EMU_OP_DS_WRITE_B96: case EMU_OP_DS_WRITE_B128:
    case EMU_OP_DS_WRITE_B8: case EMU_OP_DS_WRITE_B16: {
      unsigned n = in->op == EMU_OP_DS_WRITE_B64 ? 2 : in->op == EMU_OP_DS_WRITE_B96 ? 3 : in->op == EMU_OP_DS_WRITE_B128 ? 4 : 1;
      unsigned sz = in->op == EMU_OP_DS_WRITE_B8 ? 1 : in->op == EMU_OP_DS_WRITE_B16 ? 2 : 4 * n;
      const uint32_t *d[4];
      for (unsigned i = 0; i < n; i++) d[i] = vrow(st, w, in->data0 + i, 0);
      if (st->stop) return -1;
      for (unsigned l = 0; l < L; l++) {
        if (!(m >> l & 1)) continue;
        uint8_t *p = lmem(st, w, in, ad[l] + off, sz, l);
        if (!p) return -1;
        if (sz < 4) memcpy(p, &d[0][l], sz);
        else for (unsigned i = 0; i < n; i++) memcpy(p + 4 * i, &d[i][l], 4);
      }
      q_push(w, &w->lgkm, 0, 0, 0, w->pc);
      return 0;
    }
    case EMU_OP_DS_WRITE2_B32: case EMU_OP_DS_WRITE2ST64_B32: case EMU_OP_DS_WRITE2_B64: {
      unsigned n = in->op == EMU_OP_DS_WRITE2_B64 ? 2 : 1;
      unsigned scale = (in->op == EMU_OP_DS_WRITE2ST64_B32 ? 64 : 1) * 4 * n;
      const uint32_t *d0[2], *d1[2];
      for (unsigned i = 0; i < n; i++) { d0[i] = vrow(st, w, in->data0 + i, 0); d1[i] = vrow(st, w, in->data1 + i, 0); }
      if (st->stop) return -1;
      for (unsigned l = 0; l < L; l++) {
        if (!(m >> l & 1)) continue;
        uint8_t *p0 = lmem(st, w, in, ad[l] + in->off0 * scale, 4 * n, l);
        uint8_t *p1 = p0 ? lmem(st, w, in, ad[l] + in->off1 * scale, 4 * n, l) : NULL;
        if (!p1) return -1;
        for (unsigned i = 0; i < n; i++) { memcpy(p0 + 4 * i, &d0[i][l], 4); memcpy(p1 + 4 * i, &d1[i][l], 4); }
      }
      q_push(w, &w->lgkm, 0, 0, 0, w->pc);
      return 0;
    }
    case EMU_OP_DS_READ_B32: case EMU_OP_DS_READ_B64: case EMU_OP_DS_READ_B96: case EMU_OP_DS_READ_B128:
    case EMU_OP_DS_READ_U8: case EMU_OP_DS_READ_I8: case EMU_OP_DS_READ_U16: case EMU_OP_DS_READ_I16: {
      unsigned n = in->op == EMU_OP_DS_READ_B64 ? 2 : in->op == EMU_OP_DS_READ_B96 ? 3 : in->op == EMU_OP_DS_READ_B128 ? 4 : 1;
      unsigned sz = (in->op == EMU_OP_DS_READ_U8 || in->op == EMU_OP_DS_READ_I8) ? 1
                    : (in->op == EMU_OP_DS_READ_U16 || in->op == EMU_OP_DS_READ_I16) ? 2 : 4 * n;
      uint32_t *d[4];
      for (unsigned i = 0; i < n; i++) d[i] = vrow(st, w, in->vdst + i, 1);
      if (st->stop) return -1;
      for (unsigned l = 0; l < L; l++) {
        if (!(m >> l & 1)) continue;
        uint8_t *p = lmem(st, w, in, ad[l] + off, sz, l);
        if (!p) return -1;
        if (sz >= 4) for (unsigned i = 0; i < n; i++) memcpy(&d[i][l], p + 4 * i, 4);
        else if (in->op == EMU_OP_DS_READ_U8) d[0][l] = p[0];
        else if (in->op == EMU_OP_DS_READ_I8) d[0][l] = (uint32_t)(int8_t)p[0];
        else if (in->op == EMU_OP_DS_READ_U16) d[0][l] = (uint32_t)(p[0] | p[1] << 8);
        else d[0][l] = (uint32_t)(int16_t)(p[0] | p[1] << 8);
      }
      q_push(w, &w->lgkm, in->vdst, n, 0, w->pc);
      return 0;
    }
    case EMU_OP_DS_READ2_B32: case EMU_OP_DS_READ2ST64_B32: case EMU_OP_DS_READ2_B64: {
      unsigned n = in->op == EMU_OP_DS_READ2_B64 ? 2 : 1;
      unsigned scale = (in->op == EMU_OP_DS_READ2ST64_B32 ? 64 : 1) * 4 * n;
      uint32_t *d[4];
      for (unsigned i = 0; i < 2 * n; i++) d[i] = vrow(st, w, in->vdst + i, 1);
      if (st->stop) return -1;
      for (unsigned l = 0; l < L; l++) {
        if (!(m >> l & 1)) continue;
        uint8_t *p0 = lmem(st, w, in, ad[l] + in->off0 * scale, 4 * n, l);
        uint8_t *p1 = p0 ? lmem(st, w, in, ad[l] + in->off1 * scale, 4 * n, l) : NULL;
        if (!p1) return -1;
        for (unsigned i = 0; i < n; i++) { memcpy(&d[i][l], p0 + 4 * i, 4); memcpy(&d[n + i][l], p1 + 4 * i, 4); }
      }
      q_push(w, &w->lgkm, in->vdst, 2 * n, 0, w->pc);
      return 0;
    }
    case EMU_OP_DS_ADD_U32: case EMU_OP_DS_ADD_RTN_U32: case EMU_OP_DS_ADD_F32: case EMU_OP_DS_ADD_RTN_F32:
    case EMU_OP_DS_MAX_I32: case EMU_OP_DS_MIN_I32: case EMU_OP_DS_MAX_U32: case EMU_OP_DS_MIN_U32: {
      int rtn = in->op == EMU_OP_DS_ADD_RTN_U32 || in->op == EMU_OP_DS_ADD_RTN_F32;
      const uint32_t *dv = vrow(st, w, in->data0, 0);
      uint32_t *dst = rtn ? vrow(st, w, in->vdst, 1) : NULL;
      if (st->stop) return -1;
      for (unsigned l = 0; l < L; l++) { /* lanes in order: LDS atomics of one instruction serialize */
        if (!(m >> l & 1)) continue;
        uint32_t a = ad[l] + off;
        if (a & 3) {
          emu_fail(st, w, GASP_CLASS_MISALIGNED, "%s at .text+0x%llx (lane %u): LDS atomic at 0x%x not 4-byte aligned",
                   in->name, (unsigned long long)w->pc, l, a);
          return -1;
        }
        uint8_t *p = lmem(st, w, in, a, 4, l);
        if (!p) return -1;
        uint32_t old, v = dv[l], nv;
        memcpy(&old, p, 4);
        switch (in->op) {
          case EMU_OP_DS_ADD_F32: case EMU_OP_DS_ADD_RTN_F32: nv = fu(uf(old) + uf(v)); break;
          case EMU_OP_DS_MAX_I32: nv = (int32_t)old > (int32_t)v ? old : v; break;
          case EMU_OP_DS_MIN_I32: nv = (int32_t)old < (int32_t)v ? old : v; break;
          case EMU_OP_DS_MAX_U32: nv = old > v ? old : v; break;
          case EMU_OP_DS_MIN_U32: nv = old < v ? old : v; break;
          default: nv = old + v; break;
        }
        memcpy(p, &nv, 4);
        if (dst) dst[l] = old;
      }
      q_push(w, &w->lgkm, rtn ? in->vdst : 0, rtn ? 1 : 0, 0, w->pc);
      return 0;
    }
    case EMU_OP_DS_SWIZZLE_B32: case EMU_OP_DS_BPERMUTE_B32: case EMU_OP_DS_PERMUTE_B32: {
      /* Cross-lane moves through the LDS crossbar; nothing is stored. A lane reading an inactive lane gets 0
       * (ISA manual, DS_SWIZZLE_B32 / DS_BPERMUTE_B32). swizzle offset: bit 15 set = quad permute (2 bits
       * per lane of the quad), else and/or/xor masks [4:0]/[9:5]/[14:10] within groups of 32. */
      /* ds_swizzle_b32 takes its data in the ADDR field (llvm-mc: ds_swizzle_b32 vdst, vaddr offset:...) */
      const uint32_t *dv = in->op == EMU_OP_DS_SWIZZLE_B32 ? ad : vrow(st, w, in->data0, 0);
      uint32_t *dst = vrow(st, w, in->vdst, 1);
      if (st->stop) return -1;
      uint32_t out[64];
      uint64_t wrote = 0;
      for (unsigned l = 0; l < L; l++) out[l] = 0;
      for (unsigned l = 0; l < L; l++) {
        if (!(m >> l & 1)) continue;
        if (in->op == EMU_OP_DS_SWIZZLE_B32) {
          unsigned s;
          if (off & 0x8000) s = (l & ~3u) | ((off >> (2 * (l & 3))) & 3);
          else s = (l & 0x20) | ((((l & 0x1f) & (off & 0x1f)) | ((off >> 5) & 0x1f)) ^ ((off >> 10) & 0x1f));
          out[l] = (m >> s & 1) ? dv[s] : 0;
        } else if (in->op == EMU_OP_DS_BPERMUTE_B32) {
          unsigned s = ((ad[l] + off) >> 2) & (L - 1);
          out[l] = (m >> s & 1) ? dv[s] : 0;
        } else {
          unsigned t = ((ad[l] + off) >> 2) & (L - 1);
          out[t] = dv[l];
          wrote |= 1ull << t;
        }
      }
      for (unsigned l = 0; l < L; l++)
        if (m >> l & 1) dst[l] = out[l];
      (void)wrote;
      q_push(w, &w->lgkm, in->vdst, 1, 0, w->pc);
      return 0;
    }
    default:
      emu_fail(st, w, GASP_CLASS_UNSUPPORTED, "%s at .text+0x%llx: not implemented by the emulator", in->name,
               (unsigned long long)w->pc);
      return -1;
  }
}

/* ---------- s_waitcnt per generation (llvm-mc 19: s_waitcnt vmcnt(1) lgkmcnt(2) is 0x0271 on gfx9/gfx10 and
 * 0x0427 on gfx11): gfx9 vmcnt [3:0]+[15:14], lgkmcnt [11:8]; gfx10 lgkmcnt [13:8]; gfx11 vmcnt [15:10],
 * lgkmcnt [9:4]. ---------- */
static void waitcnt(S *st, emu_wave *w, uint32_t imm) {
  int vm, lgkm;
  if (st->prog.gen == EMU_GFX11) {
    vm = (imm >> 10) & 0x3f;
    lgkm = (imm >> 4) & 0x3f;
  } else {
    vm = (int)((imm & 0xf) | ((imm >> 14) & 3) << 4);
    lgkm = st->prog.gen == EMU_GFX10 ? (imm >> 8) & 0x3f : (imm >> 8) & 0xf;
  }
  q_wait(w, &w->vm, vm);
  q_wait(w, &w->lgkm, lgkm);
}

/* ---------- scalar ALU (SCC rules: ISA manual per opcode) ---------- */

static int salu(S *st, emu_wave *w, const emu_insn *in) {
  unsigned op = in->op;
  uint32_t a = 0, b = 0, d = 0;
  uint64_t A = 0, B = 0;
  int scc = w->scc;
  unsigned L = w->lanes;
#define A32 (a = rd_s(st, w, in, in->src[0]))
#define B32 (b = rd_s(st, w, in, in->src[1]))
#define W32(v) wr_s(st, w, in->vdst, (v))
#define W64(v) wr_s64(st, w, in->vdst, (v))
  switch (op) {
    case EMU_OP_S_ADD_U32: A32; B32; d = a + b; scc = d < a; W32(d); break;
    case EMU_OP_S_SUB_U32: A32; B32; d = a - b; scc = b > a; W32(d); break;
    case EMU_OP_S_ADD_I32: A32; B32; d = a + b; scc = ((~(a ^ b) & (a ^ d)) >> 31) & 1; W32(d); break;
    case EMU_OP_S_SUB_I32: A32; B32; d = a - b; scc = (((a ^ b) & (a ^ d)) >> 31) & 1; W32(d); break;
    case EMU_OP_S_ADDC_U32: { A32; B32; uint64_t t = (uint64_t)a + b + (unsigned)w->scc; scc = t >> 32; W32((uint32_t)t); break; }
    case EMU_OP_S_SUBB_U32: { A32; B32; uint64_t t = (uint64_t)b + (unsigned)w->scc; scc = t > a; W32(a - (uint32_t)t); break; }
    case EMU_OP_S_MIN_I32: A32; B32; scc = (int32_t)a < (int32_t)b; W32(scc ? a : b); break;
    case EMU_OP_S_MIN_U32: A32; B32; scc = a < b; W32(scc ? a : b); break;
    case EMU_OP_S_MAX_I32: A32; B32; scc = (int32_t)a > (int32_t)b; W32(scc ? a : b); break;
    case EMU_OP_S_MAX_U32: A32; B32; scc = a > b; W32(scc ? a : b); break;
    case EMU_OP_S_CSELECT_B32: A32; B32; W32(w->scc ? a : b); break;
    case EMU_OP_S_CSELECT_B64: A = rd_s64(st, w, in, in->src[0]); B = rd_s64(st, w, in, in->src[1]); W64(w->scc ? A : B); break;
#define LOG32(OPC, expr) case OPC: A32; B32; d = (expr); scc = d != 0; W32(d); break;
#define LOG64(OPC, expr) case OPC: A = rd_s64(st, w, in, in->src[0]); B = rd_s64(st, w, in, in->src[1]); { uint64_t D = (expr); scc = D != 0; W64(D); } break;
    LOG32(EMU_OP_S_AND_B32, a & b) LOG32(EMU_OP_S_OR_B32, a | b) LOG32(EMU_OP_S_XOR_B32, a ^ b)
    LOG32(EMU_OP_S_ANDN2_B32, a & ~b) LOG32(EMU_OP_S_ORN2_B32, a | ~b) LOG32(EMU_OP_S_NAND_B32, ~(a & b))
    LOG32(EMU_OP_S_NOR_B32, ~(a | b)) LOG32(EMU_OP_S_XNOR_B32, ~(a ^ b))
    LOG64(EMU_OP_S_AND_B64, A & B) LOG64(EMU_OP_S_OR_B64, A | B) LOG64(EMU_OP_S_XOR_B64, A ^ B)
    LOG64(EMU_OP_S_ANDN2_B64, A & ~B) LOG64(EMU_OP_S_ORN2_B64, A | ~B)
    LOG32(EMU_OP_S_LSHL_B32, a << (b & 31)) LOG32(EMU_OP_S_LSHR_B32, a >> (b & 31))
    LOG32(EMU_OP_S_ASHR_I32, (uint32_t)((int32_t)a >> (b & 31)))
    LOG32(EMU_OP_S_BFE_U32, ((b >> 16) & 0x7f) == 0 ? 0 : (a >> (b & 31)) & (((b >> 16) & 0x7f) >= 32 ? ~0u : (1u << ((b >> 16) & 0x7f)) - 1))
    case EMU_OP_S_BFE_I32: {
      A32; B32;
      unsigned o = b & 31, wd = (b >> 16) & 0x7f;
      int32_t v = wd == 0 ? 0 : wd + o >= 32 ? (int32_t)a >> o : (int32_t)(a << (32 - o - wd)) >> (32 - wd);
      d = (uint32_t)v; scc = d != 0; W32(d); break;
    }
    case EMU_OP_S_LSHL_B64: { A = rd_s64(st, w, in, in->src[0]); B32; uint64_t D = A << (b & 63); scc = D != 0; W64(D); break; }
    case EMU_OP_S_LSHR_B64: { A = rd_s64(st, w, in, in->src[0]); B32; uint64_t D = A >> (b & 63); scc = D != 0; W64(D); break; }
    case EMU_OP_S_ASHR_I64: { A = rd_s64(st, w, in, in->src[0]); B32; uint64_t D = (uint64_t)((int64_t)A >> (b & 63)); scc = D != 0; W64(D); break; }
    case EMU_OP_S_MUL_I32: A32; B32; W32(a * b); break;
    case EMU_OP_S_MUL_HI_U32: A32; B32; W32((uint32_t)(((uint64_t)a * b) >> 32)); break;
    case EMU_OP_S_MUL_HI_I32: A32; B32; W32((uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32)); break;
    case EMU_OP_S_BFM_B32: A32; B32; W32(((a & 31) ? (1u << (a & 31)) - 1 : 0) << (b & 31)); break;
    case EMU_OP_S_LSHL1_ADD_U32: case EMU_OP_S_LSHL2_ADD_U32: case EMU_OP_S_LSHL3_ADD_U32: case EMU_OP_S_LSHL4_ADD_U32: {
      A32; B32;
      unsigned sh = op - EMU_OP_S_LSHL1_ADD_U32 + 1;
      uint64_t t = ((uint64_t)a << sh) + b;
      scc = t >> 32 != 0; W32((uint32_t)t); break;
    }
    case EMU_OP_S_ABSDIFF_I32: { A32; B32; int32_t t = (int32_t)(a - b); d = (uint32_t)(t < 0 ? -t : t); scc = d != 0; W32(d); break; }
    /* SOPK: simm16 is sign-extended for _i32, zero-extended for _u32 */
    case EMU_OP_S_MOVK_I32: W32((uint32_t)in->imm); break;
    case EMU_OP_S_CMOVK_I32: if (w->scc) W32((uint32_t)in->imm); break;
    case EMU_OP_S_ADDK_I32: { a = rd_s(st, w, in, in->vdst); b = (uint32_t)in->imm; d = a + b; scc = ((~(a ^ b) & (a ^ d)) >> 31) & 1; W32(d); break; }
    case EMU_OP_S_MULK_I32: a = rd_s(st, w, in, in->vdst); W32(a * (uint32_t)in->imm); break;
    case EMU_OP_S_CMPK_EQ_I32: case EMU_OP_S_CMPK_LG_I32: case EMU_OP_S_CMPK_GT_I32: case EMU_OP_S_CMPK_GE_I32:
    case EMU_OP_S_CMPK_LT_I32: case EMU_OP_S_CMPK_LE_I32: case EMU_OP_S_CMPK_EQ_U32: case EMU_OP_S_CMPK_LG_U32:
    case EMU_OP_S_CMPK_GT_U32: case EMU_OP_S_CMPK_GE_U32: case EMU_OP_S_CMPK_LT_U32: case EMU_OP_S_CMPK_LE_U32: {
      unsigned k = op - EMU_OP_S_CMPK_EQ_I32, c = k % 6;
      a = rd_s(st, w, in, in->vdst);
      if (k < 6) { int32_t x = (int32_t)a, y = in->imm; scc = c == 0 ? x == y : c == 1 ? x != y : c == 2 ? x > y : c == 3 ? x >= y : c == 4 ? x < y : x <= y; }
      else { uint32_t x = a, y = (uint16_t)in->imm; scc = c == 0 ? x == y : c == 1 ? x != y : c == 2 ? x > y : c == 3 ? x >= y : c == 4 ? x < y : x <= y; }
      break;
    }
    case EMU_OP_S_WAITCNT_VSCNT: q_wait(w, &w->vs, (uint16_t)in->imm); break;
    case EMU_OP_S_WAITCNT_VMCNT: q_wait(w, &w->vm, (uint16_t)in->imm); break;
    case EMU_OP_S_WAITCNT_LGKMCNT: q_wait(w, &w->lgkm, (uint16_t)in->imm); break;
    case EMU_OP_S_WAITCNT_EXPCNT: case EMU_OP_S_VERSION: break;
    /* SOP1 */
    case EMU_OP_S_MOV_B32: A32; W32(a); break;
    case EMU_OP_S_MOV_B64: W64(rd_s64(st, w, in, in->src[0])); break;
    case EMU_OP_S_CMOV_B32: A32; if (w->scc) W32(a); break;
    case EMU_OP_S_CMOV_B64: A = rd_s64(st, w, in, in->src[0]); if (w->scc) W64(A); break;
    case EMU_OP_S_NOT_B32: A32; d = ~a; scc = d != 0; W32(d); break;
    case EMU_OP_S_NOT_B64: { A = ~rd_s64(st, w, in, in->src[0]); scc = A != 0; W64(A); break; }
    case EMU_OP_S_BREV_B32: { A32; d = 0; for (int i = 0; i < 32; i++) d |= ((a >> i) & 1) << (31 - i); W32(d); break; }
    case EMU_OP_S_BCNT1_I32_B32: A32; d = (uint32_t)__builtin_popcount(a); scc = d != 0; W32(d); break;
    case EMU_OP_S_BCNT1_I32_B64: A = rd_s64(st, w, in, in->src[0]); d = (uint32_t)__builtin_popcountll(A); scc = d != 0; W32(d); break;
    case EMU_OP_S_FF1_I32_B32: A32; W32(a ? (uint32_t)__builtin_ctz(a) : ~0u); break;
    case EMU_OP_S_FF1_I32_B64: A = rd_s64(st, w, in, in->src[0]); W32(A ? (uint32_t)__builtin_ctzll(A) : ~0u); break;
    case EMU_OP_S_FLBIT_I32_B32: A32; W32(a ? (uint32_t)__builtin_clz(a) : ~0u); break;
    case EMU_OP_S_SEXT_I32_I8: A32; W32((uint32_t)(int8_t)a); break;
    case EMU_OP_S_SEXT_I32_I16: A32; W32((uint32_t)(int16_t)a); break;
    case EMU_OP_S_ABS_I32: { A32; int32_t t = (int32_t)a; d = t < 0 ? (uint32_t)-(int64_t)t : a; scc = d != 0; W32(d); break; }
    /* saveexec: D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0. S0 is read before D is written. */
    case EMU_OP_S_AND_SAVEEXEC_B32: case EMU_OP_S_OR_SAVEEXEC_B32: case EMU_OP_S_XOR_SAVEEXEC_B32:
    case EMU_OP_S_ANDN2_SAVEEXEC_B32: case EMU_OP_S_ORN2_SAVEEXEC_B32:
    case EMU_OP_S_AND_SAVEEXEC_B64: case EMU_OP_S_OR_SAVEEXEC_B64: case EMU_OP_S_XOR_SAVEEXEC_B64:
    case EMU_OP_S_ANDN2_SAVEEXEC_B64: case EMU_OP_S_ORN2_SAVEEXEC_B64: {
      int b64 = op == EMU_OP_S_AND_SAVEEXEC_B64 || op == EMU_OP_S_OR_SAVEEXEC_B64 || op == EMU_OP_S_XOR_SAVEEXEC_B64 ||
                op == EMU_OP_S_ANDN2_SAVEEXEC_B64 || op == EMU_OP_S_ORN2_SAVEEXEC_B64;
      uint64_t s0 = b64 ? rd_s64(st, w, in, in->src[0]) : rd_s(st, w, in, in->src[0]);
      uint64_t ex = b64 ? ((uint64_t)w->s[127] << 32 | w->s[126]) : w->s[126], ne;
      switch (op) {
        case EMU_OP_S_AND_SAVEEXEC_B32: case EMU_OP_S_AND_SAVEEXEC_B64: ne = s0 & ex; break;
        case EMU_OP_S_OR_SAVEEXEC_B32: case EMU_OP_S_OR_SAVEEXEC_B64: ne = s0 | ex; break;
        case EMU_OP_S_XOR_SAVEEXEC_B32: case EMU_OP_S_XOR_SAVEEXEC_B64: ne = s0 ^ ex; break;
        case EMU_OP_S_ANDN2_SAVEEXEC_B32: case EMU_OP_S_ANDN2_SAVEEXEC_B64: ne = s0 & ~ex; break;
        default: ne = s0 | ~ex; break;
      }
      if (b64) { W64(ex); wr_s64(st, w, 126, ne); }
      else { W32((uint32_t)ex); wr_s(st, w, 126, (uint32_t)ne); }
      scc = (b64 ? ne : (uint32_t)ne) != 0;
      break;
    }
    /* SOPC */
    case EMU_OP_S_CMP_EQ_I32: case EMU_OP_S_CMP_LG_I32: case EMU_OP_S_CMP_GT_I32: case EMU_OP_S_CMP_GE_I32:
    case EMU_OP_S_CMP_LT_I32: case EMU_OP_S_CMP_LE_I32: case EMU_OP_S_CMP_EQ_U32: case EMU_OP_S_CMP_LG_U32:
    case EMU_OP_S_CMP_GT_U32: case EMU_OP_S_CMP_GE_U32: case EMU_OP_S_CMP_LT_U32: case EMU_OP_S_CMP_LE_U32: {
      unsigned k = op - EMU_OP_S_CMP_EQ_I32, c = k % 6;
      A32; B32;
      if (k < 6) { int32_t x = (int32_t)a, y = (int32_t)b; scc = c == 0 ? x == y : c == 1 ? x != y : c == 2 ? x > y : c == 3 ? x >= y : c == 4 ? x < y : x <= y; }
      else { scc = c == 0 ? a == b : c == 1 ? a != b : c == 2 ? a > b : c == 3 ? a >= b : c == 4 ? a < b : a <= b; }
      break;
    }
    case EMU_OP_S_CMP_EQ_U64: scc = rd_s64(st, w, in, in->src[0]) == rd_s64(st, w, in, in->src[1]); break;
    case EMU_OP_S_CMP_LG_U64: scc = rd_s64(st, w, in, in->src[0]) != rd_s64(st, w, in, in->src[1]); break;
    case EMU_OP_S_BITCMP0_B32: A32; B32; scc = ((a >> (b & 31)) & 1) == 0; break;
    case EMU_OP_S_BITCMP1_B32: A32; B32; scc = ((a >> (b & 31)) & 1) == 1; break;
    default:
      (void)L;
      emu_fail(st, w, GASP_CLASS_UNSUPPORTED, "%s at .text+0x%llx: not implemented by the emulator", in->name,
               (unsigned long long)w->pc);
      return -1;
  }
#undef A32
#undef B32
#undef W32
#undef W64
  w->scc = scc;
  return 0;
}

/* ---------- vector ALU ---------- */

static inline int32_t imin(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t imax(int32_t a, int32_t b) { return a > b ? a : b; }
static inline uint32_t umin(uint32_t a, uint32_t b) { return a < b ? a : b; }
static inline uint32_t umax(uint32_t a, uint32_t b) { return a > b ? a : b; }

#define LANES for (unsigned l = 0; l < L; l++) if (m >> l & 1)

static int is_cmp(unsigned op) { return op >= EMU_OP_V_CMP_F_F32 && op <= EMU_OP_V_CMPX_CLASS_F32; }

static int valu_cmp(S *st, emu_wave *w, const emu_insn *in, uint64_t m) {
  /* the ops come in the order of emu_ops.h: per cmp/cmpx block 16 float conditions, 8 each for i32, u32,
   * i64, u64, then class: 49 */
  unsigned k = in->op - EMU_OP_V_CMP_F_F32, x = k / 49, r = k % 49, L = w->lanes;
  uint32_t t0[64], t1[64];
  uint64_t res = 0;
  if (r < 16) {
    const uint32_t *a = fsrc(st, w, in, 0, t0), *b = fsrc(st, w, in, 1, t1);
    LANES if (fcmp((int)r, uf(a[l]), uf(b[l]))) res |= 1ull << l;
  } else if (r < 48) {
    unsigned t = (r - 16) / 8, c = (r - 16) % 8;
    if (t < 2) {
      const uint32_t *a = va(st, w, in, 0, t0), *b = va(st, w, in, 1, t1);
      if (t == 0) { LANES if (ICMP(c, (int32_t)a[l], (int32_t)b[l])) res |= 1ull << l; }
      else { LANES if (ICMP(c, a[l], b[l])) res |= 1ull << l; }
    } else {
      uint64_t A[64], B[64];
      va64(st, w, in, 0, A);
      va64(st, w, in, 1, B);
      if (t == 2) { LANES if (ICMP(c, (int64_t)A[l], (int64_t)B[l])) res |= 1ull << l; }
      else { LANES if (ICMP(c, A[l], B[l])) res |= 1ull << l; }
    }
  } else {
    const uint32_t *a = fsrc(st, w, in, 0, t0), *b = va(st, w, in, 1, t1);
    LANES if (cls_f32(a[l], b[l])) res |= 1ull << l;
  }
  if (st->stop) return -1;
  /* v_cmpx: gfx9 writes EXEC and the destination (VCC or the e64 SGPRs); gfx10+ write EXEC only */
  if (!x || st->prog.gen == EMU_GFX9) wr_mask(st, w, in->sdst, res);
  if (x) wr_mask(st, w, 126, res);
  return 0;
}

static int valu(S *st, emu_wave *w, const emu_insn *in, uint64_t m) {
  unsigned op = in->op, L = w->lanes;
  uint32_t t0[64], t1[64], t2[64];
  if (is_cmp(op)) return valu_cmp(st, w, in, m);
  /* ops whose destination is an SGPR */
  if (op == EMU_OP_V_READFIRSTLANE_B32) {
    const uint32_t *a = va(st, w, in, 0, t0);
    unsigned l = w->exec ? (unsigned)__builtin_ctzll(w->exec) : 0;
    wr_s(st, w, in->vdst, a[l]);
    return st->stop ? -1 : 0;
  }
  if (op == EMU_OP_V_READLANE_B32) {
    uint32_t lane = rd_s(st, w, in, in->src[1]) & (L - 1);
    const uint32_t *a = va(st, w, in, 0, t0);
    wr_s(st, w, in->vdst, a[lane]);
    return st->stop ? -1 : 0;
  }
  if (op == EMU_OP_V_NOP) return 0;
  uint32_t *d;
  if (op == EMU_OP_V_WRITELANE_B32) {
    uint32_t v = rd_s(st, w, in, in->src[0]), lane = rd_s(st, w, in, in->src[1]) & (L - 1);
    d = vrow(st, w, in->vdst, 1);
    if (!st->stop) d[lane] = v;
    return st->stop ? -1 : 0;
  }
  int wide = op == EMU_OP_V_MAD_U64_U32 || op == EMU_OP_V_MAD_I64_I32 || op == EMU_OP_V_LSHLREV_B64 ||
             op == EMU_OP_V_LSHRREV_B64 || op == EMU_OP_V_ASHRREV_I64;
  d = vrow(st, w, in->vdst, 1);
  uint32_t *dh = wide ? vrow(st, w, in->vdst + 1, 1) : NULL;
  if (st->stop) return -1;
  const uint32_t *a, *b, *c;
#define F1 a = fsrc(st, w, in, 0, t0)
#define F2 F1; b = fsrc(st, w, in, 1, t1)
#define F3 F2; c = fsrc(st, w, in, 2, t2)
#define I1 a = va(st, w, in, 0, t0)
#define I2 I1; b = va(st, w, in, 1, t1)
#define I3 I2; c = va(st, w, in, 2, t2)
/* element-wise ops compute every lane and keep the old value where EXEC is off: branch-free, so the compiler
 * can vectorize; the expressions have no side effects and no undefined behaviour on any input */
#define KEEP(r) d[l] = (m >> l & 1) ? (r) : d[l]
#define FOP1(OPC, expr) case OPC: F1; for (unsigned l = 0; l < L; l++) { float x = uf(a[l]); KEEP(fres(st, in, (expr))); } break;
#define FOP2(OPC, expr) case OPC: F2; for (unsigned l = 0; l < L; l++) { float x = uf(a[l]), y = uf(b[l]); KEEP(fres(st, in, (expr))); } break;
#define FOP3(OPC, expr) case OPC: F3; for (unsigned l = 0; l < L; l++) { float x = uf(a[l]), y = uf(b[l]), z = uf(c[l]); KEEP(fres(st, in, (expr))); } break;
#define IOP1(OPC, expr) case OPC: I1; for (unsigned l = 0; l < L; l++) { uint32_t x = a[l]; KEEP(expr); } break;
#define IOP2(OPC, expr) case OPC: I2; for (unsigned l = 0; l < L; l++) { uint32_t x = a[l], y = b[l]; KEEP(expr); } break;
#define IOP3(OPC, expr) case OPC: I3; for (unsigned l = 0; l < L; l++) { uint32_t x = a[l], y = b[l], z = c[l]; KEEP(expr); } break;
  switch (op) {
    FOP2(EMU_OP_V_ADD_F32, x + y)
    FOP2(EMU_OP_V_SUB_F32, x - y)
    FOP2(EMU_OP_V_SUBREV_F32, y - x)
    FOP2(EMU_OP_V_MUL_F32, x * y)
    FOP2(EMU_OP_V_MUL_LEGACY_F32, (x == 0.0f || y == 0.0f) ? 0.0f : x * y) /* DX9 rule: 0 * anything = 0 */
    case EMU_OP_V_MIN_F32: F2; LANES d[l] = fres(st, in, uf(fmin_hw(a[l], b[l], 0))); break;
    case EMU_OP_V_MAX_F32: F2; LANES d[l] = fres(st, in, uf(fmin_hw(a[l], b[l], 1))); break;
    /* v_mac/v_mad/v_madmk/v_madak: multiply then add, two roundings (not fused: ISA manual V_MAD_F32) */
    FOP3(EMU_OP_V_MAC_F32, (float)(x * y) + z)
    FOP3(EMU_OP_V_MADMK_F32, (float)(x * y) + z)
    FOP3(EMU_OP_V_MADAK_F32, (float)(x * y) + z)
    FOP3(EMU_OP_V_MAD_F32, (float)(x * y) + z)
    FOP3(EMU_OP_V_MAD_LEGACY_F32, ((x == 0.0f || y == 0.0f) ? 0.0f : (float)(x * y)) + z)
    /* v_fma/v_fmac/v_fmamk/v_fmaak: fused, one rounding */
    FOP3(EMU_OP_V_FMAC_F32, fmaf(x, y, z))
    FOP3(EMU_OP_V_FMAMK_F32, fmaf(x, y, z))
    FOP3(EMU_OP_V_FMAAK_F32, fmaf(x, y, z))
    FOP3(EMU_OP_V_FMA_F32, fmaf(x, y, z))
    case EMU_OP_V_LDEXP_F32: a = fsrc(st, w, in, 0, t0); b = va(st, w, in, 1, t1); LANES d[l] = fres(st, in, ldexpf(uf(a[l]), (int32_t)b[l])); break;
    case EMU_OP_V_MIN3_F32: F3; LANES d[l] = fres(st, in, uf(fmin_hw(fmin_hw(a[l], b[l], 0), c[l], 0))); break;
    case EMU_OP_V_MAX3_F32: F3; LANES d[l] = fres(st, in, uf(fmin_hw(fmin_hw(a[l], b[l], 1), c[l], 1))); break;
    case EMU_OP_V_MED3_F32: F3; LANES d[l] = fres(st, in, uf(fmed3(a[l], b[l], c[l]))); break;
    case EMU_OP_V_DIV_SCALE_F32: {
      F3;
      uint64_t vcc = 0;
      LANES { int v; d[l] = fu(div_scale(uf(a[l]), uf(b[l]), uf(c[l]), &v)); if (v) vcc |= 1ull << l; }
      wr_mask(st, w, in->sdst, vcc);
      break;
    }
    case EMU_OP_V_DIV_FMAS_F32: {
      /* fma, then scaled by 2^64 (or 2^-64 when the addend's exponent is large) where VCC is set, undoing
       * v_div_scale (Vega ISA manual V_DIV_FMAS_F32) */
      F3;
      uint64_t vcc = rd_mask(st, w, in, 106);
      LANES {
        float r = fmaf(uf(a[l]), uf(b[l]), uf(c[l]));
        if (vcc >> l & 1) r = ldexpf(r, ((fu(uf(c[l])) >> 23) & 0xff) >= 0x7f ? 64 : -64);
        d[l] = fres(st, in, r);
      }
      break;
    }
    case EMU_OP_V_DIV_FIXUP_F32: F3; LANES d[l] = fres(st, in, div_fixup(uf(a[l]), uf(b[l]), uf(c[l]))); break;
    FOP1(EMU_OP_V_RCP_F32, 1.0f / x)
    FOP1(EMU_OP_V_RCP_IFLAG_F32, 1.0f / x)
    FOP1(EMU_OP_V_RSQ_F32, 1.0f / sqrtf(x))
    FOP1(EMU_OP_V_SQRT_F32, sqrtf(x))
    FOP1(EMU_OP_V_EXP_F32, exp2f(x))
    FOP1(EMU_OP_V_LOG_F32, log2f(x))
    FOP1(EMU_OP_V_FLOOR_F32, floorf(x))
    FOP1(EMU_OP_V_CEIL_F32, ceilf(x))
    FOP1(EMU_OP_V_TRUNC_F32, truncf(x))
    FOP1(EMU_OP_V_RNDNE_F32, nearbyintf(x))
    FOP1(EMU_OP_V_FRACT_F32, isinf(x) ? NAN : fminf(x - floorf(x), 0x1.fffffep-1f))
    FOP1(EMU_OP_V_FREXP_MANT_F32, (isinf(x) || isnan(x)) ? x : frexpf(x, &(int){0}))
    case EMU_OP_V_FREXP_EXP_I32_F32: F1; LANES d[l] = (isinf(uf(a[l])) || isnan(uf(a[l]))) ? 0 : (uint32_t)fexp(uf(a[l])); break;
    case EMU_OP_V_CVT_F32_I32: I1; LANES d[l] = fres(st, in, (float)(int32_t)a[l]); break;
    case EMU_OP_V_CVT_F32_U32: I1; LANES d[l] = fres(st, in, (float)a[l]); break;
    case EMU_OP_V_CVT_U32_F32: F1; LANES d[l] = cvt_u32(uf(a[l])); break;
    case EMU_OP_V_CVT_I32_F32: F1; LANES d[l] = (uint32_t)cvt_i32(uf(a[l])); break;
    case EMU_OP_V_CVT_RPI_I32_F32: F1; LANES d[l] = (uint32_t)cvt_i32(floorf(uf(a[l]) + 0.5f)); break;
    case EMU_OP_V_CVT_FLR_I32_F32: F1; LANES d[l] = (uint32_t)cvt_i32(floorf(uf(a[l]))); break;
    case EMU_OP_V_CVT_F32_UBYTE0: case EMU_OP_V_CVT_F32_UBYTE1: case EMU_OP_V_CVT_F32_UBYTE2: case EMU_OP_V_CVT_F32_UBYTE3: {
      unsigned sh = 8 * (op - EMU_OP_V_CVT_F32_UBYTE0);
      I1; LANES d[l] = fres(st, in, (float)((a[l] >> sh) & 0xff)); break;
    }
    IOP1(EMU_OP_V_MOV_B32, x)
    IOP1(EMU_OP_V_NOT_B32, ~x)
    case EMU_OP_V_BFREV_B32: I1; LANES { uint32_t x = a[l], r = 0; for (int i = 0; i < 32; i++) r |= ((x >> i) & 1) << (31 - i); d[l] = r; } break;
    IOP1(EMU_OP_V_FFBH_U32, x ? (uint32_t)__builtin_clz(x) : ~0u)
    IOP1(EMU_OP_V_FFBL_B32, x ? (uint32_t)__builtin_ctz(x) : ~0u)
    IOP1(EMU_OP_V_FFBH_I32, (x == 0 || x == ~0u) ? ~0u : (uint32_t)__builtin_clz((x >> 31) ? ~x : x))
    IOP2(EMU_OP_V_ADD_U32, x + y) IOP2(EMU_OP_V_ADD_NC_U32, x + y) IOP2(EMU_OP_V_ADD_I32, x + y)
    IOP2(EMU_OP_V_SUB_U32, x - y) IOP2(EMU_OP_V_SUB_NC_U32, x - y) IOP2(EMU_OP_V_SUB_I32, x - y)
    IOP2(EMU_OP_V_SUBREV_U32, y - x) IOP2(EMU_OP_V_SUBREV_NC_U32, y - x)
    IOP2(EMU_OP_V_MUL_I32_I24, (uint32_t)((int32_t)(x << 8) >> 8) * (uint32_t)((int32_t)(y << 8) >> 8))
    IOP2(EMU_OP_V_MUL_U32_U24, (x & 0xffffff) * (y & 0xffffff))
    IOP2(EMU_OP_V_MUL_HI_I32_I24, (uint32_t)(((int64_t)((int32_t)(x << 8) >> 8) * ((int32_t)(y << 8) >> 8)) >> 32))
    IOP2(EMU_OP_V_MUL_HI_U32_U24, (uint32_t)(((uint64_t)(x & 0xffffff) * (y & 0xffffff)) >> 32))
    IOP2(EMU_OP_V_MIN_I32, (int32_t)x < (int32_t)y ? x : y) IOP2(EMU_OP_V_MAX_I32, (int32_t)x > (int32_t)y ? x : y)
    IOP2(EMU_OP_V_MIN_U32, x < y ? x : y) IOP2(EMU_OP_V_MAX_U32, x > y ? x : y)
    IOP2(EMU_OP_V_LSHRREV_B32, y >> (x & 31)) IOP2(EMU_OP_V_ASHRREV_I32, (uint32_t)((int32_t)y >> (x & 31)))
    IOP2(EMU_OP_V_LSHLREV_B32, y << (x & 31))
    IOP2(EMU_OP_V_AND_B32, x & y) IOP2(EMU_OP_V_OR_B32, x | y) IOP2(EMU_OP_V_XOR_B32, x ^ y) IOP2(EMU_OP_V_XNOR_B32, ~(x ^ y))
    IOP2(EMU_OP_V_MUL_LO_U32, x * y)
    IOP2(EMU_OP_V_MUL_HI_U32, (uint32_t)(((uint64_t)x * y) >> 32))
    IOP2(EMU_OP_V_MUL_HI_I32, (uint32_t)(((int64_t)(int32_t)x * (int32_t)y) >> 32))
    IOP2(EMU_OP_V_BFM_B32, ((x & 31) ? (1u << (x & 31)) - 1 : 0) << (y & 31))
    IOP2(EMU_OP_V_BCNT_U32_B32, (uint32_t)__builtin_popcount(x) + y)
    IOP2(EMU_OP_V_MBCNT_LO_U32_B32, (uint32_t)__builtin_popcount(x & (l >= 32 ? ~0u : (1u << l) - 1)) + y)
    IOP2(EMU_OP_V_MBCNT_HI_U32_B32, (uint32_t)__builtin_popcount(x & (l < 32 ? 0u : l == 63 ? 0x7fffffffu : (1u << (l - 32)) - 1)) + y)
    IOP3(EMU_OP_V_ADD3_U32, x + y + z)
    IOP3(EMU_OP_V_LSHL_ADD_U32, (x << (y & 31)) + z)
    IOP3(EMU_OP_V_ADD_LSHL_U32, (x + y) << (z & 31))
    IOP3(EMU_OP_V_LSHL_OR_B32, (x << (y & 31)) | z)
    IOP3(EMU_OP_V_AND_OR_B32, (x & y) | z)
    IOP3(EMU_OP_V_OR3_B32, x | y | z)
    IOP3(EMU_OP_V_XOR3_B32, x ^ y ^ z)
    IOP3(EMU_OP_V_XAD_U32, (x ^ y) + z)
    IOP3(EMU_OP_V_BFE_U32, (z & 31) == 0 ? 0 : (x >> (y & 31)) & ((1u << (z & 31)) - 1))
    IOP3(EMU_OP_V_BFE_I32, (z & 31) == 0 ? 0 : (uint32_t)((int32_t)((x >> (y & 31)) << (32 - (z & 31))) >> (32 - (z & 31))))
    IOP3(EMU_OP_V_BFI_B32, (x & y) | (~x & z))
    IOP3(EMU_OP_V_ALIGNBIT_B32, (uint32_t)((((uint64_t)x << 32) | y) >> (z & 31)))
    IOP3(EMU_OP_V_ALIGNBYTE_B32, (uint32_t)((((uint64_t)x << 32) | y) >> (8 * (z & 3))))
    IOP3(EMU_OP_V_MAD_U32_U24, (x & 0xffffff) * (y & 0xffffff) + z)
    IOP3(EMU_OP_V_MAD_I32_I24, (uint32_t)((int32_t)(x << 8) >> 8) * (uint32_t)((int32_t)(y << 8) >> 8) + z)
    IOP3(EMU_OP_V_MIN3_I32, (uint32_t)(((int32_t)x < (int32_t)y ? ((int32_t)x < (int32_t)z ? x : z) : ((int32_t)y < (int32_t)z ? y : z))))
    IOP3(EMU_OP_V_MAX3_I32, (uint32_t)(((int32_t)x > (int32_t)y ? ((int32_t)x > (int32_t)z ? x : z) : ((int32_t)y > (int32_t)z ? y : z))))
    IOP3(EMU_OP_V_MIN3_U32, x < y ? (x < z ? x : z) : (y < z ? y : z))
    IOP3(EMU_OP_V_MAX3_U32, x > y ? (x > z ? x : z) : (y > z ? y : z))
    /* med3 = max(min(a, b), min(max(a, b), c)) */
    IOP3(EMU_OP_V_MED3_I32, (uint32_t)imax(imin((int32_t)x, (int32_t)y), imin(imax((int32_t)x, (int32_t)y), (int32_t)z)))
    IOP3(EMU_OP_V_MED3_U32, umax(umin(x, y), umin(umax(x, y), z)))
    case EMU_OP_V_PERM_B32: {
      /* byte selectors of S2 pick from {S0, S1} (S1 is bytes 0-3); 12 -> 0x00, 13+ -> 0xff, 8-11 sign fill */
      I3;
      LANES {
        uint64_t v = (uint64_t)a[l] << 32 | b[l];
        uint32_t r = 0;
        for (int i = 0; i < 4; i++) {
          unsigned s = (c[l] >> (8 * i)) & 0xff, byte;
          if (s < 8) byte = (v >> (8 * s)) & 0xff;
          else if (s >= 13) byte = 0xff;
          else if (s == 12) byte = 0;
          else byte = ((v >> (16 * (s - 8) + 15)) & 1) ? 0xff : 0;
          r |= byte << (8 * i);
        }
        d[l] = r;
      }
      break;
    }
    case EMU_OP_V_CNDMASK_B32: {
      I2;
      uint64_t sel = rd_mask(st, w, in, in->src[2]);
      LANES d[l] = (sel >> l & 1) ? b[l] : a[l];
      break;
    }
    case EMU_OP_V_ADD_CO_U32: case EMU_OP_V_SUB_CO_U32: case EMU_OP_V_SUBREV_CO_U32:
    case EMU_OP_V_ADDC_CO_U32: case EMU_OP_V_SUBB_CO_U32: case EMU_OP_V_SUBBREV_CO_U32: {
      I2;
      int cin = op == EMU_OP_V_ADDC_CO_U32 || op == EMU_OP_V_SUBB_CO_U32 || op == EMU_OP_V_SUBBREV_CO_U32;
      uint64_t ci = cin ? rd_mask(st, w, in, in->src[2]) : 0, co = 0;
      LANES {
        uint64_t x = a[l], y = b[l], k = ci >> l & 1, r;
        int carry;
        if (op == EMU_OP_V_ADD_CO_U32 || op == EMU_OP_V_ADDC_CO_U32) { r = x + y + k; carry = r >> 32 != 0; }
        else if (op == EMU_OP_V_SUB_CO_U32 || op == EMU_OP_V_SUBB_CO_U32) { r = x - y - k; carry = y + k > x; }
        else { r = y - x - k; carry = x + k > y; }
        d[l] = (uint32_t)r;
        if (carry) co |= 1ull << l;
      }
      wr_mask(st, w, in->sdst, co);
      break;
    }
    case EMU_OP_V_MAD_U64_U32: case EMU_OP_V_MAD_I64_I32: {
      I2;
      uint64_t C[64], co = 0;
      va64(st, w, in, 2, C);
      LANES {
        uint64_t r;
        int carry;
        if (op == EMU_OP_V_MAD_U64_U32) {
          unsigned __int128 t = (unsigned __int128)((uint64_t)a[l] * b[l]) + C[l];
          r = (uint64_t)t;
          carry = (t >> 64) != 0;
        } else {
          __int128 t = (__int128)((int64_t)(int32_t)a[l] * (int32_t)b[l]) + (int64_t)C[l];
          r = (uint64_t)t;
          carry = t > INT64_MAX || t < INT64_MIN;
        }
        d[l] = (uint32_t)r;
        dh[l] = (uint32_t)(r >> 32);
        if (carry) co |= 1ull << l;
      }
      wr_mask(st, w, in->sdst, co);
      break;
    }
    case EMU_OP_V_LSHLREV_B64: case EMU_OP_V_LSHRREV_B64: case EMU_OP_V_ASHRREV_I64: {
      I1;
      uint64_t B[64];
      va64(st, w, in, 1, B);
      LANES {
        unsigned s = a[l] & 63;
        uint64_t r = op == EMU_OP_V_LSHLREV_B64 ? B[l] << s : op == EMU_OP_V_LSHRREV_B64 ? B[l] >> s : (uint64_t)((int64_t)B[l] >> s);
        d[l] = (uint32_t)r;
        dh[l] = (uint32_t)(r >> 32);
      }
      break;
    }
    default:
      emu_fail(st, w, GASP_CLASS_UNSUPPORTED, "%s at .text+0x%llx: not implemented by the emulator", in->name,
               (unsigned long long)w->pc);
      return -1;
  }
  /* integer clamp (saturation) is not modelled: refuse rather than compute a wrapped result */
  if (in->clamp && (op == EMU_OP_V_ADD_U32 || op == EMU_OP_V_SUB_U32 || op == EMU_OP_V_ADD_NC_U32 || op == EMU_OP_V_SUB_NC_U32 ||
                    op == EMU_OP_V_ADD_I32 || op == EMU_OP_V_SUB_I32 || op == EMU_OP_V_ADD_CO_U32 || op == EMU_OP_V_ADD3_U32 ||
                    op == EMU_OP_V_MAD_U32_U24 || op == EMU_OP_V_MAD_U64_U32 || op == EMU_OP_V_SUBREV_NC_U32 || op == EMU_OP_V_SUBREV_U32)) {
    emu_fail(st, w, GASP_CLASS_UNSUPPORTED, "%s at .text+0x%llx: integer clamp is not implemented by the emulator",
             in->name, (unsigned long long)w->pc);
    return -1;
  }
  return st->stop ? -1 : 0;
}

/* DPP16/DPP8: src0 comes from another lane of the same row (16 lanes) or group of 8. A lane whose source is
 * out of the row or inactive (without fetch-inactive) is not written, or gets 0 when bound_ctrl is set;
 * row_mask/bank_mask disable whole rows and 4-lane banks (ISA manuals, "DPP"). */
static int valu_dpp(S *st, emu_wave *w, const emu_insn *in, uint64_t m) {
  unsigned L = w->lanes, ctrl = in->dpp_ctrl;
  const uint32_t *s = vrow(st, w, in->src[0] - 256, 0);
  uint32_t *tmp = w->v[257]; /* EMU_VGPR_DPPSRC */
  if (st->stop) return -1;
  uint64_t ok = 0;
  for (unsigned l = 0; l < L; l++) {
    int src = -1;
    if (in->dpp == 2) src = (int)((l & ~7u) | ((ctrl >> (3 * (l & 7))) & 7));
    else if (ctrl <= 0xff) src = (int)((l & ~3u) | ((ctrl >> (2 * (l & 3))) & 3));
    else if (ctrl >= 0x101 && ctrl <= 0x10f) { unsigned n = ctrl & 15; if ((l & 15) + n < 16) src = (int)(l + n); }
    else if (ctrl >= 0x111 && ctrl <= 0x11f) { unsigned n = ctrl & 15; if ((l & 15) >= n) src = (int)(l - n); }
    else if (ctrl >= 0x121 && ctrl <= 0x12f) src = (int)((l & ~15u) | (((l & 15) - (ctrl & 15)) & 15));
    else if (ctrl == 0x140) src = (int)((l & ~15u) | (15 - (l & 15)));
    else if (ctrl == 0x141) src = (int)((l & ~7u) | (7 - (l & 7)));
    else if (st->prog.gen == EMU_GFX9 && ctrl == 0x130) { if (l + 1 < L) src = (int)(l + 1); }
    else if (st->prog.gen == EMU_GFX9 && ctrl == 0x134) src = (int)((l + 1) % L);
    else if (st->prog.gen == EMU_GFX9 && ctrl == 0x138) { if (l > 0) src = (int)(l - 1); }
    else if (st->prog.gen == EMU_GFX9 && ctrl == 0x13c) src = (int)((l + L - 1) % L);
    else if (st->prog.gen == EMU_GFX9 && ctrl == 0x142) { if (l >= 16) src = (int)((l & ~15u) - 1); }
    else if (st->prog.gen == EMU_GFX9 && ctrl == 0x143) { if (l >= 32) src = 31; }
    else if (st->prog.gen != EMU_GFX9 && ctrl >= 0x150 && ctrl <= 0x15f) src = (int)((l & ~15u) | (ctrl & 15));
    else if (st->prog.gen != EMU_GFX9 && ctrl >= 0x160 && ctrl <= 0x16f) src = (int)((l & ~15u) | ((l & 15) ^ (ctrl & 15)));
    else {
      emu_fail(st, w, GASP_CLASS_UNSUPPORTED, "%s_dpp at .text+0x%llx: dpp_ctrl 0x%x is not implemented", in->name,
               (unsigned long long)w->pc, ctrl);
      return -1;
    }
    int valid = src >= 0 && (unsigned)src < L && (in->dpp_fi || (m >> src & 1));
    uint32_t v = valid ? s[src] : 0;
    if (in->dpp_abs & 1) v &= 0x7fffffff;
    if (in->dpp_neg & 1) v ^= 0x80000000;
    tmp[l] = v;
    int rowon = (in->row_mask >> ((l >> 4) & 3)) & 1, bankon = (in->bank_mask >> ((l >> 2) & 3)) & 1;
    if (rowon && bankon && (valid || (in->dpp == 1 && in->dpp_bc))) ok |= 1ull << l;
  }
  emu_insn c = *in;
  c.src[0] = 256 + EMU_VGPR_DPPSRC;
  c.dpp = 0;
  c.abs = (uint8_t)(in->dpp_abs & 2);
  c.neg = (uint8_t)(in->dpp_neg & 2);
  return valu(st, w, &c, m & ok);
}

/* SDWA: each source is a byte, word or dword of its register (zero- or sign-extended), and the result lands in
 * a byte, word or dword of the destination with the other bits zeroed, sign-extended or kept (ISA manuals,
 * "SDWA"). Sources are selected into internal rows, the op runs into TEMP, then TEMP is merged. */
static uint32_t sel_bits(uint32_t v, unsigned sel, int sext) {
  if (sel == 6) return v;
  unsigned sh = sel < 4 ? 8 * sel : 16 * (sel - 4), wd = sel < 4 ? 8 : 16;
  uint32_t x = (v >> sh) & ((1u << wd) - 1);
  return sext ? (uint32_t)((int32_t)(x << (32 - wd)) >> (32 - wd)) : x;
}

static int valu_sdwa(S *st, emu_wave *w, const emu_insn *in, uint64_t m) {
  unsigned L = w->lanes, nsrc = in->fmt == EMU_FMT_VOP1 ? 1 : 2;
  uint32_t t0[64], t1[64];
  const uint32_t *a = va(st, w, in, 0, t0), *b = nsrc > 1 ? va(st, w, in, 1, t1) : NULL;
  if (st->stop) return -1;
  uint32_t *s0 = w->v[257], *s1 = w->v[258];
  for (unsigned l = 0; l < L; l++) {
    s0[l] = sel_bits(a[l], in->src_sel[0], in->src_sext[0]);
    if (b) s1[l] = sel_bits(b[l], in->src_sel[1], in->src_sext[1]);
  }
  emu_insn c = *in;
  c.sdwa = 0;
  c.src[0] = 256 + EMU_VGPR_DPPSRC;
  if (b) c.src[1] = 256 + EMU_VGPR_SRC1;
  if (in->fmt == EMU_FMT_VOPC) return valu(st, w, &c, m);
  c.vdst = EMU_VGPR_TEMP;
  if (valu(st, w, &c, m)) return -1;
  uint32_t *d = vrow(st, w, in->vdst, 1);
  if (st->stop) return -1;
  unsigned sel = in->dst_sel, sh = sel == 6 ? 0 : sel < 4 ? 8 * sel : 16 * (sel - 4), wd = sel == 6 ? 32 : sel < 4 ? 8 : 16;
  uint32_t field = wd == 32 ? ~0u : ((1u << wd) - 1) << sh;
  LANES {
    uint32_t r = (w->v[256][l] << sh) & field, old = d[l];
    if (wd == 32) d[l] = w->v[256][l];
    else if (in->dst_unused == 2) d[l] = (old & ~field) | r;
    else if (in->dst_unused == 1) d[l] = ((r >> (sh + wd - 1)) & 1) ? (r | ~(field | ((1u << sh) - 1))) : r;
    else d[l] = r;
  }
  return 0;
}

/* ---------- one instruction ---------- */

void emu_fail(S *st, emu_wave *w, gasp_class c, const char *fmt, ...) {
  if (st->stop) return;
  st->stop = 1;
  st->r->cls = c;
  st->r->pc = w ? w->pc : 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(st->r->detail, sizeof st->r->detail, fmt, ap);
  va_end(ap);
}

int emu_exec_one(S *st, emu_wave *w) {
  uint64_t idx = w->pc / 4;
  if (w->pc >= st->prog.text_len || (w->pc & 3) || idx >= st->prog.text_len / 4) {
    emu_fail(st, w, GASP_CLASS_ILLEGAL_INSTRUCTION, "wave %d jumped to .text+0x%llx, outside the code", w->id,
             (unsigned long long)w->pc);
    return -1;
  }
  const emu_insn *in = &st->prog.insns[idx];
  if (in->bad) {
    emu_fail(st, w, (gasp_class)in->bad, "%s at .text+0x%llx (wave %d)", in->why, (unsigned long long)w->pc, w->id);
    return -1;
  }
  uint64_t next = w->pc + 4u * in->len, m = w->exec;
  int rc = 0;
  switch (in->fmt) {
    case EMU_FMT_SOPP:
      switch (in->op) {
        case EMU_OP_S_ENDPGM: w->done = 1; return 0;
        case EMU_OP_S_BRANCH: next = w->pc + 4 + (int64_t)in->imm * 4; break;
        case EMU_OP_S_CBRANCH_SCC0: if (!w->scc) next = w->pc + 4 + (int64_t)in->imm * 4; break;
        case EMU_OP_S_CBRANCH_SCC1: if (w->scc) next = w->pc + 4 + (int64_t)in->imm * 4; break;
        case EMU_OP_S_CBRANCH_VCCZ: case EMU_OP_S_CBRANCH_VCCNZ: {
          uint64_t vcc = rd_mask(st, w, in, 106);
          if ((vcc == 0) == (in->op == EMU_OP_S_CBRANCH_VCCZ)) next = w->pc + 4 + (int64_t)in->imm * 4;
          break;
        }
        case EMU_OP_S_CBRANCH_EXECZ: if (!w->exec) next = w->pc + 4 + (int64_t)in->imm * 4; break;
        case EMU_OP_S_CBRANCH_EXECNZ: if (w->exec) next = w->pc + 4 + (int64_t)in->imm * 4; break;
        case EMU_OP_S_BARRIER: w->at_barrier = 1; break;
        case EMU_OP_S_WAITCNT: waitcnt(st, w, (uint16_t)in->imm); break;
        case EMU_OP_S_TRAP:
          emu_fail(st, w, GASP_CLASS_TRAP, "s_trap %d at .text+0x%llx (wave %d)", in->imm & 0xff,
                   (unsigned long long)w->pc, w->id);
          return -1;
        case EMU_OP_S_CODE_END:
          emu_fail(st, w, GASP_CLASS_ILLEGAL_INSTRUCTION, "wave %d ran into s_code_end padding at .text+0x%llx "
                   "(a path without s_endpgm)", w->id, (unsigned long long)w->pc);
          return -1;
        /* scheduling hints and messages with no effect on a compute kernel's results */
        case EMU_OP_S_NOP: case EMU_OP_S_SLEEP: case EMU_OP_S_SETPRIO: case EMU_OP_S_SENDMSG: case EMU_OP_S_ICACHE_INV:
        case EMU_OP_S_CLAUSE: case EMU_OP_S_DELAY_ALU: case EMU_OP_S_WAITCNT_DEPCTR: case EMU_OP_S_INST_PREFETCH:
        case EMU_OP_S_SET_INST_PREFETCH_DISTANCE:
          break;
        default:
          emu_fail(st, w, GASP_CLASS_UNSUPPORTED, "%s at .text+0x%llx: not implemented", in->name, (unsigned long long)w->pc);
          return -1;
      }
      break;
    case EMU_FMT_SOP1: case EMU_FMT_SOP2: case EMU_FMT_SOPC: case EMU_FMT_SOPK:
      rc = salu(st, w, in);
      break;
    case EMU_FMT_SMEM: {
      unsigned n = in->op == EMU_OP_S_LOAD_DWORD ? 1 : in->op == EMU_OP_S_LOAD_DWORDX2 ? 2 : in->op == EMU_OP_S_LOAD_DWORDX4 ? 4
                 : in->op == EMU_OP_S_LOAD_DWORDX8 ? 8 : in->op == EMU_OP_S_LOAD_DWORDX16 ? 16 : 0;
      if (!n) {
        emu_fail(st, w, GASP_CLASS_UNSUPPORTED, "%s at .text+0x%llx: not implemented", in->name, (unsigned long long)w->pc);
        return -1;
      }
      rc = scalar_load(st, w, in, n);
      break;
    }
    case EMU_FMT_DS: rc = ds(st, w, in, m); break;
    case EMU_FMT_FLAT: case EMU_FMT_GLOBAL: case EMU_FMT_SCRATCH: rc = vmem(st, w, in, m); break;
    default:
      if (in->pair >= 0) { /* VOPD: X into the temporary row, Y, then X's result into its register */
        emu_insn x = *in;
        x.vdst = EMU_VGPR_TEMP;
        rc = valu(st, w, &x, m);
        if (!rc) rc = valu(st, w, &st->prog.ypairs[in->pair], m);
        if (!rc) {
          uint32_t *d = vrow(st, w, in->vdst, 1);
          if (st->stop) return -1;
          for (unsigned l = 0; l < w->lanes; l++)
            if (m >> l & 1) d[l] = w->v[256][l]; /* EMU_VGPR_TEMP */
        }
      } else if (in->dpp) {
        rc = valu_dpp(st, w, in, m);
      } else if (in->sdwa) {
        rc = valu_sdwa(st, w, in, m);
      } else {
        rc = valu(st, w, in, m);
      }
      break;
  }
  if (rc || st->stop) return -1;
  w->pc = next;
  return 0;
}
