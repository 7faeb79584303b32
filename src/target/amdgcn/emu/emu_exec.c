/* One wave-instruction: fetch, the memory counters (outstanding loads and s_waitcnt), scalar and vector
 * memory, LDS and branches; ALU work is in emu_alu.c. Semantics follow AMD's ISA manuals (Vega, RDNA2,
 * RDNA3); the comment at each group names the rules used. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "emu_operand.h"

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
void emu_queue_wait(emu_wave *w, emu_queue *q, int keep) {
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

void emu_hazard(S *st, emu_wave *w, unsigned reg, int write) {
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
    if (w->npend && w->spend[in->vdst + i]) emu_hazard(st, w, 512 + in->vdst + i, 1);
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
  emu_queue_wait(w, &w->vm, vm);
  emu_queue_wait(w, &w->lgkm, lgkm);
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
    emu_fail(st, w, (gasp_class)in->bad, "%s at .text+0x%llx (wave %d)", st->prog.why[idx], (unsigned long long)w->pc, w->id);
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
      rc = emu_salu(st, w, in);
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
        rc = emu_valu(st, w, &x, m);
        if (!rc) rc = emu_valu(st, w, &st->prog.ypairs[in->pair], m);
        if (!rc) {
          uint32_t *d = vrow(st, w, in->vdst, 1);
          if (st->stop) return -1;
          for (unsigned l = 0; l < w->lanes; l++)
            if (m >> l & 1) d[l] = w->v[256][l]; /* EMU_VGPR_TEMP */
        }
      } else if (in->dpp) {
        rc = emu_valu_dpp(st, w, in, m);
      } else if (in->sdwa) {
        rc = emu_valu_sdwa(st, w, in, m);
      } else {
        rc = emu_valu(st, w, in, m);
      }
      break;
  }
  if (rc || st->stop) return -1;
  if (w->jump) {
    w->jump = 0;
    next = w->jump_to;
  }
  w->pc = next;
  return 0;
}
