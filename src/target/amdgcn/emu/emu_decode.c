/* Instruction decoding: .text bytes -> emu_insn, once per launch, for GFX9, GFX10 and GFX11 encodings.
 * Field positions per generation were checked against llvm-mc 19 -show-encoding (see the comments); opcode
 * numbers come from the generated emu_optab.c. An encoding we cannot decode becomes an instruction that stops
 * the launch with a named reason only if it is executed (code objects pad .text with data and s_code_end). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_internal.h"

static const char *const op_names[] = {
    "none",
#define X(e, n, ...) n,
#include "emu_ops.h"
#undef X
};

const char *emu_op_name(int op) { return op >= 0 && op < EMU_OP_COUNT ? op_names[op] : "?"; }

static const emu_optab_row *optab(emu_gen g) {
  return g == EMU_GFX9 ? emu_optab_gfx900 : g == EMU_GFX10 ? emu_optab_gfx1030 : emu_optab_gfx1100;
}

emu_gen emu_gen_of(const char *mcpu) {
  if (!mcpu) return (emu_gen)0;
  if (!strcmp(mcpu, "gfx900")) return EMU_GFX9;
  if (!strcmp(mcpu, "gfx1030")) return EMU_GFX10;
  if (!strcmp(mcpu, "gfx1100")) return EMU_GFX11;
  return (emu_gen)0;
}

int gasp_emu_mnemonics(const char *mcpu, gasp_emu_mnemonic *out, int cap) {
  emu_gen g = emu_gen_of(mcpu);
  if (!g) return -1;
  static const unsigned enc_of[] = {
      [EMU_FMT_SOP2] = GASP_EMU_ENC_SALU,     [EMU_FMT_SOPK] = GASP_EMU_ENC_SALU,   [EMU_FMT_SOP1] = GASP_EMU_ENC_SALU,
      [EMU_FMT_SOPC] = GASP_EMU_ENC_SALU,     [EMU_FMT_SOPP] = GASP_EMU_ENC_SOPP,   [EMU_FMT_SMEM] = GASP_EMU_ENC_SMEM,
      [EMU_FMT_VOP2] = GASP_EMU_ENC_VOP,      [EMU_FMT_VOP1] = GASP_EMU_ENC_VOP,    [EMU_FMT_VOPC] = GASP_EMU_ENC_VOP,
      [EMU_FMT_VOP3] = GASP_EMU_ENC_VOP3,     [EMU_FMT_DS] = GASP_EMU_ENC_DS,       [EMU_FMT_FLAT] = GASP_EMU_ENC_FLAT,
      [EMU_FMT_SCRATCH] = GASP_EMU_ENC_SCRATCH, [EMU_FMT_GLOBAL] = GASP_EMU_ENC_GLOBAL,
      [EMU_FMT_VOPDX] = GASP_EMU_ENC_VOPDX,   [EMU_FMT_VOPDY] = GASP_EMU_ENC_VOPDY};
  int n = 0;
  for (const emu_optab_row *r = optab(g); r->fmt; r++) {
    if (r->op == EMU_OP_NONE || r->fmt >= sizeof enc_of / sizeof enc_of[0]) continue;
    /* its first implemented row names it; later rows (the same op in another encoding) add encodings. About
     * 1,300 rows a table: the quadratic search costs milliseconds, once a grammar */
    const emu_optab_row *q = optab(g);
    while (q != r && (q->op == EMU_OP_NONE || strcmp(q->name, r->name))) q++;
    if (q == r) {
      if (n < cap) out[n] = (gasp_emu_mnemonic){r->name, 0};
      n++;
    }
    for (int k = 0; k < n && k < cap; k++)
      if (!strcmp(out[k].name, r->name)) out[k].enc |= enc_of[r->fmt];
  }
  /* the two MUBUF cache invalidates the decoder executes outside the table (below, "MUBUF") */
  static const char *const inv[] = {"buffer_gl0_inv", "buffer_gl1_inv"};
  for (int k = 0; g != EMU_GFX9 && k < 2; k++, n++)
    if (n < cap) out[n] = (gasp_emu_mnemonic){inv[k], GASP_EMU_ENC_CACHE};
  return n;
}

static const emu_optab_row *lookup(emu_gen g, int fmt, unsigned opnum) {
  for (const emu_optab_row *r = optab(g); r->fmt; r++)
    if (r->fmt == fmt && r->opnum == opnum) return r;
  return NULL;
}

static const char *fmt_name(int f) {
  static const char *const n[] = {"?", "SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP2", "VOP1", "VOPC",
                                  "VOP3", "DS", "FLAT", "SCRATCH", "GLOBAL", "VOPD", "VOPD"};
  return f >= 0 && f <= EMU_FMT_VOPDY ? n[f] : "?";
}

static void set_op(emu_insn *in, char *why, emu_gen g, int fmt, unsigned opnum) {
  const emu_optab_row *r = lookup(g, fmt, opnum);
  in->fmt = (uint8_t)fmt;
  if (!r) {
    in->bad = GASP_CLASS_ILLEGAL_INSTRUCTION;
    snprintf(why, EMU_WHY_CAP, "%s opcode 0x%x is not an instruction of this generation", fmt_name(fmt), opnum);
    in->name = "invalid";
    return;
  }
  in->name = r->name;
  in->op = r->op;
  if (r->op == EMU_OP_NONE) {
    in->bad = GASP_CLASS_UNSUPPORTED;
    snprintf(why, EMU_WHY_CAP, "%s: not implemented by the emulator", r->name);
  }
}

static int32_t sext(uint32_t v, int bits) { return (int32_t)(v << (32 - bits)) >> (32 - bits); }

/* Reads the literal when any source is 255 and fills DPP fields when src0 says so. Returns extra dwords. */
static int take_extra(emu_insn *in, const uint32_t *w, uint64_t avail, int have, int nsrc) {
  int extra = 0;
  if (in->src[0] == EMU_SRC_DPP || in->src[0] == EMU_SRC_DPP8 || in->src[0] == EMU_SRC_DPP8FI) {
    if ((uint64_t)have + 1 > avail) return -1;
    uint32_t d = w[have];
    if (in->src[0] == EMU_SRC_DPP) {
      /* DPP16 dword: src0 [7:0], dpp_ctrl [16:8], fi [18] (gfx10+), bound_ctrl [19], src0 neg/abs [20]/[21],
       * src1 neg/abs [22]/[23], bank_mask [27:24], row_mask [31:28] (llvm-mc: v_add_f32_dpp row_shr:1) */
      in->dpp = 1;
      in->src[0] = (uint16_t)(256 + (d & 0xff));
      in->dpp_ctrl = (d >> 8) & 0x1ff;
      in->dpp_fi = (d >> 18) & 1;
      in->dpp_bc = (d >> 19) & 1;
      in->dpp_neg = (uint8_t)(((d >> 20) & 1) | ((d >> 22) & 1) << 1);
      in->dpp_abs = (uint8_t)(((d >> 21) & 1) | ((d >> 23) & 1) << 1);
      in->bank_mask = (d >> 24) & 0xf;
      in->row_mask = (d >> 28) & 0xf;
    } else {
      /* DPP8: src0 [7:0], eight 3-bit lane selectors [31:8]; 234 is the fetch-inactive variant */
      in->dpp = 2;
      in->dpp_fi = in->src[0] == EMU_SRC_DPP8FI;
      in->src[0] = (uint16_t)(256 + (d & 0xff));
      in->dpp_ctrl = d >> 8;
      in->row_mask = in->bank_mask = 0xf;
    }
    extra = 1;
  }
  for (int i = 0; i < nsrc; i++)
    if (in->src[i] == EMU_SRC_LITERAL) {
      if ((uint64_t)have + extra + 1 > avail) return -1;
      in->lit = w[have + extra];
      return extra + 1;
    }
  return extra;
}

static int is_vop3b(int op) {
  switch (op) {
    case EMU_OP_V_ADD_CO_U32: case EMU_OP_V_SUB_CO_U32: case EMU_OP_V_SUBREV_CO_U32: case EMU_OP_V_ADDC_CO_U32:
    case EMU_OP_V_SUBB_CO_U32: case EMU_OP_V_SUBBREV_CO_U32: case EMU_OP_V_DIV_SCALE_F32:
    case EMU_OP_V_MAD_U64_U32: case EMU_OP_V_MAD_I64_I32:
      return 1;
    default:
      return 0;
  }
}

/* VOP2 ops whose destination is also an input (v_mac/v_fmac) or which carry a literal operand. */
static void vop2_fixups(emu_insn *in) {
  switch (in->op) {
    case EMU_OP_V_MAC_F32: case EMU_OP_V_FMAC_F32:
      in->src[2] = (uint16_t)(256 + in->vdst);
      break;
    case EMU_OP_V_MADMK_F32: case EMU_OP_V_FMAMK_F32: /* D = S0 * K + S1 */
      in->src[2] = in->src[1];
      in->src[1] = EMU_SRC_LITERAL;
      break;
    case EMU_OP_V_MADAK_F32: case EMU_OP_V_FMAAK_F32: /* D = S0 * S1 + K */
      in->src[2] = EMU_SRC_LITERAL;
      break;
    default:
      break;
  }
}

static int needs_literal(int op) {
  return op == EMU_OP_V_MADMK_F32 || op == EMU_OP_V_FMAMK_F32 || op == EMU_OP_V_MADAK_F32 || op == EMU_OP_V_FMAAK_F32;
}

/* Decodes one instruction at dword index i of n. Fills in (len >= 1 always). */
static void decode_one(emu_prog *p, const uint32_t *w, uint64_t avail, emu_insn *in) {
  emu_gen g = p->gen;
  char *why = p->why[in - p->insns];
  uint32_t d = w[0];
  memset(in, 0, sizeof *in);
  in->len = 1;
  in->pair = -1;
  in->name = "invalid";
  int extra;
  if ((d >> 23) == 0x17d) { /* SOP1: 10111110 1, sdst [22:16], op [15:8], ssrc0 [7:0] */
    set_op(in, why, g, EMU_FMT_SOP1, (d >> 8) & 0xff);
    in->vdst = (d >> 16) & 0x7f;
    in->src[0] = d & 0xff;
    extra = take_extra(in, w, avail, 1, 1);
  } else if ((d >> 23) == 0x17e) { /* SOPC: op [22:16], ssrc1 [15:8], ssrc0 [7:0] */
    set_op(in, why, g, EMU_FMT_SOPC, (d >> 16) & 0x7f);
    in->src[0] = d & 0xff;
    in->src[1] = (d >> 8) & 0xff;
    extra = take_extra(in, w, avail, 1, 2);
  } else if ((d >> 23) == 0x17f) { /* SOPP: op [22:16], simm16 */
    set_op(in, why, g, EMU_FMT_SOPP, (d >> 16) & 0x7f);
    in->imm = (int16_t)(d & 0xffff);
    extra = 0;
  } else if ((d >> 28) == 0xb) { /* SOPK: op [27:23], sdst [22:16], simm16 */
    set_op(in, why, g, EMU_FMT_SOPK, (d >> 23) & 0x1f);
    in->vdst = (d >> 16) & 0x7f;
    in->imm = (int16_t)(d & 0xffff);
    extra = 0;
    if (in->op == EMU_OP_NONE && in->name && !strcmp(in->name, "s_setreg_imm32_b32")) extra = 1;
  } else if ((d >> 30) == 2) { /* SOP2: op [29:23], sdst [22:16], ssrc1 [15:8], ssrc0 [7:0] */
    set_op(in, why, g, EMU_FMT_SOP2, (d >> 23) & 0x7f);
    in->vdst = (d >> 16) & 0x7f;
    in->src[0] = d & 0xff;
    in->src[1] = (d >> 8) & 0xff;
    extra = take_extra(in, w, avail, 1, 2);
  } else if ((d >> 25) == 0x3f) { /* VOP1: vdst [24:17], op [16:9], src0 [8:0] */
    set_op(in, why, g, EMU_FMT_VOP1, (d >> 9) & 0xff);
    in->vdst = (d >> 17) & 0xff;
    in->src[0] = d & 0x1ff;
    extra = take_extra(in, w, avail, 1, 1);
  } else if ((d >> 25) == 0x3e) { /* VOPC: op [24:17], vsrc1 [16:9], src0 [8:0]; result in VCC */
    set_op(in, why, g, EMU_FMT_VOPC, (d >> 17) & 0xff);
    in->src[0] = d & 0x1ff;
    in->src[1] = (uint16_t)(256 + ((d >> 9) & 0xff));
    in->sdst = 106;
    extra = take_extra(in, w, avail, 1, 2);
  } else if ((d >> 31) == 0) { /* VOP2: op [30:25], vdst [24:17], vsrc1 [16:9], src0 [8:0] */
    set_op(in, why, g, EMU_FMT_VOP2, (d >> 25) & 0x3f);
    in->vdst = (d >> 17) & 0xff;
    in->src[0] = d & 0x1ff;
    in->src[1] = (uint16_t)(256 + ((d >> 9) & 0xff));
    in->sdst = 106; /* carry out (v_add_co_u32_e32 ... vcc) */
    in->src[2] = 106; /* carry in */
    extra = take_extra(in, w, avail, 1, 2);
    if (extra >= 0 && needs_literal(in->op) && in->src[0] != EMU_SRC_LITERAL) {
      if (avail < 2) extra = -1;
      else { in->lit = w[1]; extra = 1; }
    }
    vop2_fixups(in);
  } else {
    unsigned top6 = d >> 26;
    int two = avail >= 2;
    uint32_t e = two ? w[1] : 0;
    extra = 0;
    if (!two) {
      extra = -1;
    } else if ((g == EMU_GFX9 && top6 == 0x34) || (g != EMU_GFX9 && top6 == 0x35)) {
      /* VOP3 (gfx9 110100, gfx10+ 110101): op [25:16], clamp [15], opsel [14:11], abs [10:8], vdst [7:0];
       * second dword neg [31:29], omod [28:27], src2 [26:18], src1 [17:9], src0 [8:0]. VOP3B puts sdst in
       * [14:8]. A VOP1/VOP2/VOPC op in this encoding is its e64 form (opcode per generation in the table). */
      unsigned opn = (d >> 16) & 0x3ff;
      const emu_optab_row *r = NULL;
      static const int fmts[] = {EMU_FMT_VOP3, EMU_FMT_VOPC, EMU_FMT_VOP2, EMU_FMT_VOP1};
      int base9[] = {0, 0, 0x100, 0x140}, base10[] = {0, 0, 0x100, 0x180};
      int *base = g == EMU_GFX9 ? base9 : base10;
      r = lookup(g, EMU_FMT_VOP3, opn);
      int kind = EMU_FMT_VOP3;
      for (int k = 1; !r && k < 4; k++) {
        if ((int)opn < base[k]) continue;
        if (k == 1 && opn >= 0x100) continue;
        r = lookup(g, fmts[k], opn - base[k]);
        if (r) kind = fmts[k];
      }
      in->vop3 = 1;
      in->fmt = EMU_FMT_VOP3;
      if (r) {
        in->name = r->name;
        in->op = r->op;
        if (r->op == EMU_OP_NONE) {
          in->bad = GASP_CLASS_UNSUPPORTED;
          snprintf(why, EMU_WHY_CAP, "%s (VOP3): not implemented by the emulator", r->name);
        }
      } else {
        in->bad = GASP_CLASS_ILLEGAL_INSTRUCTION;
        snprintf(why, EMU_WHY_CAP, "VOP3 opcode 0x%x is not an instruction of this generation", opn);
      }
      in->src[0] = e & 0x1ff;
      in->src[1] = (e >> 9) & 0x1ff;
      in->src[2] = (e >> 18) & 0x1ff;
      in->neg = (e >> 29) & 7;
      in->omod = (e >> 27) & 3;
      in->clamp = (d >> 15) & 1;
      if (is_vop3b(in->op)) {
        in->sdst = (d >> 8) & 0x7f;
      } else {
        in->abs = (d >> 8) & 7;
        in->opsel = (d >> 11) & 0xf;
      }
      in->vdst = d & 0xff;
      (void)kind;
      if (in->op >= EMU_OP_V_CMP_F_F32 && in->op <= EMU_OP_V_CMPX_CLASS_F32)
        in->sdst = d & 0xff; /* e64 compare: the SGPR (pair) that gets the mask */
      if (in->op == EMU_OP_V_MAC_F32 || in->op == EMU_OP_V_FMAC_F32)
        in->src[2] = (uint16_t)(256 + in->vdst);
      extra = 1;
      /* gfx10+ allow one literal in VOP3 (gfx9 does not: 255 there is an invalid operand) */
      for (int i = 0; i < 3; i++)
        if (in->src[i] == EMU_SRC_LITERAL) {
          if (g == EMU_GFX9 || avail < 3) {
            if (g == EMU_GFX9) { in->bad = GASP_CLASS_ILLEGAL_INSTRUCTION; snprintf(why, EMU_WHY_CAP, "%s: literal operand in VOP3 on gfx9", in->name); }
            else extra = -1;
          } else {
            in->lit = w[2];
            extra = 2;
          }
          break;
        }
    } else if (g == EMU_GFX9 && top6 == 0x30) {
      /* SMEM gfx9: op [25:18], imm [17], glc [16], soe [14], sdata [12:6], sbase [5:0] (pairs);
       * second dword: offset [20:0] (imm) or an SGPR number, soffset [31:25] with soe */
      set_op(in, why, g, EMU_FMT_SMEM, (d >> 18) & 0xff);
      in->vdst = (d >> 6) & 0x7f;
      in->saddr = (uint16_t)((d & 0x3f) << 1);
      int imm = (d >> 17) & 1, soe = (d >> 14) & 1;
      in->imm = imm ? (int32_t)(e & 0xfffff) : 0;
      in->src[0] = !imm && !soe ? (uint16_t)(e & 0x7f) : soe ? (uint16_t)(e >> 25) : 0xffff;
      extra = 1;
    } else if (g != EMU_GFX9 && top6 == 0x3d) {
      /* SMEM gfx10/11: op [25:18], sdata [12:6], sbase [5:0]; offset [20:0] signed, soffset [31:25]
       * (null = 0x7d on gfx10, 0x7c on gfx11: llvm-mc s_load_dword s1, s[4:5], 0x10) */
      set_op(in, why, g, EMU_FMT_SMEM, (d >> 18) & 0xff);
      in->vdst = (d >> 6) & 0x7f;
      in->saddr = (uint16_t)((d & 0x3f) << 1);
      in->imm = sext(e & 0x1fffff, 21);
      unsigned so = e >> 25;
      in->src[0] = so == (g == EMU_GFX11 ? 0x7cu : 0x7du) ? 0xffff : (uint16_t)so;
      extra = 1;
    } else if (top6 == 0x36) {
      /* DS: gfx9 op [24:17], gfx10+ op [25:18]; offset1 [15:8], offset0 [7:0];
       * second dword vdst [31:24], data1 [23:16], data0 [15:8], addr [7:0] */
      set_op(in, why, g, EMU_FMT_DS, g == EMU_GFX9 ? (d >> 17) & 0xff : (d >> 18) & 0xff);
      in->off0 = d & 0xff;
      in->off1 = (d >> 8) & 0xff;
      in->vdst = e >> 24;
      in->data1 = (e >> 16) & 0xff;
      in->data0 = (e >> 8) & 0xff;
      in->addr = e & 0xff;
      extra = 1;
    } else if (top6 == 0x37) {
      /* FLAT/GLOBAL/SCRATCH: op [24:18]; gfx9/10 seg [15:14], glc [16]; gfx11 seg [17:16], glc [14].
       * Offsets: gfx9 and gfx11 13-bit signed (global) [12:0], gfx10 12-bit signed [11:0]; flat (seg 0)
       * offsets are unsigned. Second dword vdst [31:24], saddr [22:16] (off = 0x7f/0x7d/0x7c), data [15:8],
       * addr [7:0]. (llvm-mc: global_load_dword v1, v[2:3], off offset:-8) */
      unsigned seg = g == EMU_GFX11 ? (d >> 16) & 3 : (d >> 14) & 3;
      in->glc = g == EMU_GFX11 ? (d >> 14) & 1 : (d >> 16) & 1;
      in->seg = (uint8_t)seg;
      int f = seg == 0 ? EMU_FMT_FLAT : seg == 1 ? EMU_FMT_SCRATCH : EMU_FMT_GLOBAL;
      /* flat and global share opcode numbers (llvm-mc 19: flat_load_dword and global_load_dword differ only in
       * seg); flat addresses are taken as global ones (an LDS-aperture address is outside every buffer) */
      set_op(in, why, g, f, (d >> 18) & 0x7f);
      int obits = g == EMU_GFX10 ? 12 : 13;
      uint32_t raw = d & ((1u << obits) - 1);
      in->imm = seg == 0 ? (int32_t)(raw & ((1u << (obits - 1)) - 1)) : sext(raw, obits);
      in->vdst = e >> 24;
      unsigned sa = (e >> 16) & 0x7f;
      unsigned off = g == EMU_GFX9 ? 0x7f : g == EMU_GFX10 ? 0x7d : 0x7c;
      in->saddr = seg == 0 || sa == off || (g == EMU_GFX9 && sa == 0x7f) ? 0xffff : (uint16_t)sa;
      in->data0 = (e >> 8) & 0xff;
      in->addr = e & 0xff;
      extra = 1;
    } else if (g == EMU_GFX11 && top6 == 0x32) {
      /* VOPD (gfx11 dual issue): opx [25:22], opy [21:17], vsrc1x [16:9], src0x [8:0]; second dword
       * vdstx [31:24], vdsty [23:17] (register = field << 1 | !(vdstx & 1)), vsrc1y [16:9], src0y [8:0].
       * Checked: llvm-mc v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2 = ca100101 00020102. */
      emu_insn y;
      char ywhy[EMU_WHY_CAP] = "";
      memset(&y, 0, sizeof y);
      y.len = 1;
      y.pair = -1;
      set_op(in, why, g, EMU_FMT_VOPDX, (d >> 22) & 0xf);
      set_op(&y, ywhy, g, EMU_FMT_VOPDY, (d >> 17) & 0x1f);
      in->src[0] = d & 0x1ff;
      in->src[1] = (uint16_t)(256 + ((d >> 9) & 0xff));
      in->vdst = e >> 24;
      y.src[0] = e & 0x1ff;
      y.src[1] = (uint16_t)(256 + ((e >> 9) & 0xff));
      y.vdst = (uint16_t)((((e >> 17) & 0x7f) << 1) | (~in->vdst & 1));
      in->fmt = EMU_FMT_VOP2;
      y.fmt = EMU_FMT_VOP2;
      in->sdst = y.sdst = 106;
      in->src[2] = y.src[2] = 106; /* v_dual_cndmask_b32 reads VCC */
      extra = 1;
      int needk = needs_literal(in->op) || needs_literal(y.op);
      int lit = in->src[0] == EMU_SRC_LITERAL || y.src[0] == EMU_SRC_LITERAL || needk;
      if (lit) {
        if (avail < 3) extra = -1;
        else { in->lit = y.lit = w[2]; extra = 2; }
      }
      vop2_fixups(in);
      vop2_fixups(&y);
      if (!in->bad && y.bad) {
        in->bad = y.bad;
        memcpy(why, ywhy, EMU_WHY_CAP);
      }
      emu_insn *ny = realloc(p->ypairs, sizeof *ny * (size_t)(p->nypairs + 1));
      if (ny) {
        p->ypairs = ny;
        ny[p->nypairs] = y;
        in->pair = p->nypairs++;
      } else {
        in->bad = GASP_CLASS_ERROR;
        snprintf(why, EMU_WHY_CAP, "out of memory");
      }
    } else if (g != EMU_GFX9 && top6 == 0x38) {
      /* MUBUF: only the cache invalidates clang emits after s_barrier on GFX10/11 (buffer_gl0_inv,
       * buffer_gl1_inv: the workgroup-scope acquire). Our memory is coherent, so they change nothing. Opcode
       * field gfx10 [24:18], gfx11 [25:18]; numbers from llvm-mc 19 -show-encoding (gfx1030 0x71/0x72, gfx1100
       * 0x2b/0x2c). Buffer loads and stores are not emulated. */
      unsigned op = g == EMU_GFX11 ? (d >> 18) & 0xff : (d >> 18) & 0x7f;
      int gl0 = op == (g == EMU_GFX11 ? 0x2bu : 0x71u), gl1 = op == (g == EMU_GFX11 ? 0x2cu : 0x72u);
      in->fmt = EMU_FMT_SOPP;
      in->op = EMU_OP_S_ICACHE_INV; /* executed as a no-op */
      in->name = gl0 ? "buffer_gl0_inv" : gl1 ? "buffer_gl1_inv" : "buffer (MUBUF)";
      if (!gl0 && !gl1) {
        in->bad = GASP_CLASS_UNSUPPORTED;
        snprintf(why, EMU_WHY_CAP, "MUBUF opcode 0x%x: buffer instructions are not emulated", op);
      }
      extra = 1;
    } else {
      in->bad = GASP_CLASS_ILLEGAL_INSTRUCTION;
      snprintf(why, EMU_WHY_CAP, "encoding 0x%08x is not decoded by the emulator (format %u)", d, top6);
      in->name = "invalid";
      return;
    }
  }
  if (extra < 0) {
    in->bad = GASP_CLASS_ILLEGAL_INSTRUCTION;
    snprintf(why, EMU_WHY_CAP, "%s: instruction runs past the end of .text", in->name ? in->name : "?");
    return;
  }
  in->len = (uint8_t)(in->len + extra);
  if (in->src[0] == EMU_SRC_SDWA && (in->fmt == EMU_FMT_VOP1 || in->fmt == EMU_FMT_VOP2 || in->fmt == EMU_FMT_VOPC)) {
    /* SDWA dword (gfx9/gfx10): src0 [7:0], dst_sel [10:8], dst_unused [12:11], clamp [13], omod [15:14] (gfx9;
     * VOPC: sdst [14:8] with sd [15]), src0_sel [18:16], src0_sext [19], src0_neg [20], src0_abs [21],
     * s0 [23] (src0 is an SGPR), src1_sel [26:24], src1_sext [27], src1_neg [28], src1_abs [29], s1 [31] */
    if (avail < 2 || g == EMU_GFX11) {
      in->bad = GASP_CLASS_ILLEGAL_INSTRUCTION;
      snprintf(why, EMU_WHY_CAP, "%s: SDWA operand %s", in->name, g == EMU_GFX11 ? "does not exist on gfx11" : "past the end of .text");
      return;
    }
    uint32_t s = w[1];
    in->len = (uint8_t)(in->len + 1);
    in->sdwa = 1;
    in->src[0] = (uint16_t)(((s >> 23) & 1) ? (s & 0xff) : 256 + (s & 0xff));
    if (((s >> 31) & 1) && in->fmt != EMU_FMT_VOP1) in->src[1] = (uint16_t)(in->src[1] - 256);
    in->src_sel[0] = (s >> 16) & 7;
    in->src_sext[0] = (s >> 19) & 1;
    in->src_sel[1] = (s >> 24) & 7;
    in->src_sext[1] = (s >> 27) & 1;
    in->neg = (uint8_t)(((s >> 20) & 1) | ((s >> 28) & 1) << 1);
    in->abs = (uint8_t)(((s >> 21) & 1) | ((s >> 29) & 1) << 1);
    if (in->fmt == EMU_FMT_VOPC) {
      if ((s >> 15) & 1) in->sdst = (s >> 8) & 0x7f;
      in->dst_sel = 6;
    } else {
      in->dst_sel = (s >> 8) & 7;
      in->dst_unused = (s >> 11) & 3;
      in->clamp = (s >> 13) & 1;
      if (g == EMU_GFX9) in->omod = (s >> 14) & 3;
    }
    if (in->op == EMU_OP_V_MAC_F32 || in->op == EMU_OP_V_FMAC_F32 || in->dst_sel > 6 || in->src_sel[0] > 6 || in->src_sel[1] > 6) {
      in->bad = in->bad ? in->bad : GASP_CLASS_UNSUPPORTED;
      snprintf(why, EMU_WHY_CAP, "%s_sdwa: this SDWA form is not implemented by the emulator", in->name);
    }
  }
}

int emu_decode_prog(emu_prog *p) {
  uint64_t n = p->text_len / 4;
  p->insns = calloc(n ? n : 1, sizeof *p->insns);
  p->why = calloc(n ? n : 1, sizeof *p->why);
  if (!p->insns || !p->why) return -1;
  uint32_t *words = malloc((n ? n : 1) * 4);
  if (!words) return -1;
  memcpy(words, p->text, n * 4);
  for (uint64_t i = 0; i < n; i++) decode_one(p, words + i, n - i, &p->insns[i]);
  free(words);
  return 0;
}

void emu_prog_free(emu_prog *p) {
  free(p->insns);
  free(p->ypairs);
  free(p->why);
  p->why = NULL;
  p->insns = NULL;
  p->ypairs = NULL;
}
