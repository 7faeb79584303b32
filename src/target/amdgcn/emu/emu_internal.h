/* The AMD emulator's private header: canonical ops, decoded instructions, wave and launch state.
 * Shared by emu_elf.c (code object), emu_decode.c (bytes -> emu_insn), emu_exec.c (one wave-instruction)
 * and emu.c (the launch: waves, groups, barriers). */
#ifndef GASP_AMD_EMU_INTERNAL_H
#define GASP_AMD_EMU_INTERNAL_H

#include <stdint.h>

#include "emu.h"

typedef enum {
  EMU_OP_NONE = 0,
#define X(e, ...) EMU_OP_##e,
#include "emu_ops.h"
#undef X
  EMU_OP_COUNT
} emu_op;

typedef enum {
  EMU_FMT_NONE = 0, EMU_FMT_SOP2, EMU_FMT_SOPK, EMU_FMT_SOP1, EMU_FMT_SOPC, EMU_FMT_SOPP, EMU_FMT_SMEM,
  EMU_FMT_VOP2, EMU_FMT_VOP1, EMU_FMT_VOPC, EMU_FMT_VOP3, EMU_FMT_DS, EMU_FMT_FLAT, EMU_FMT_SCRATCH,
  EMU_FMT_GLOBAL, EMU_FMT_VOPDX, EMU_FMT_VOPDY
} emu_fmt;

typedef enum { EMU_GFX9 = 9, EMU_GFX10 = 10, EMU_GFX11 = 11 } emu_gen;
/* the generation of "gfx900", "gfx1030" or "gfx1100"; 0 for any other mcpu (or NULL) */
emu_gen emu_gen_of(const char *mcpu);

typedef struct {
  uint8_t fmt;
  uint16_t opnum;
  uint16_t op;
  const char *name;
} emu_optab_row;

extern const emu_optab_row emu_optab_gfx900[], emu_optab_gfx1030[], emu_optab_gfx1100[];
const char *emu_op_name(int op);

/* Operand codes are the 9-bit source encoding: 0-255 scalar/constant/literal, 256-511 v0-v255. */
#define EMU_SRC_LITERAL 255
#define EMU_SRC_DPP 250
#define EMU_SRC_SDWA 249
#define EMU_SRC_DPP8 233
#define EMU_SRC_DPP8FI 234
/* Two rows past the VGPRs, addressed by numbers no register arithmetic (v255 + 1) reaches: a VOPD X result
 * waits in TEMP until both halves have read their sources; DPP's permuted src0 is built in DPPSRC. */
#define EMU_VGPR_TEMP 0x1000
#define EMU_VGPR_DPPSRC 0x2000
#define EMU_VGPR_SRC1 0x3000   /* SDWA's selected src1 */

typedef struct {
  uint16_t op;          /* emu_op */
  uint8_t fmt;          /* emu_fmt as encoded */
  uint8_t len;          /* dwords */
  uint8_t vop3;         /* encoded as VOP3 (e64) */
  uint8_t neg, abs, clamp, omod, opsel;
  uint8_t glc, seg;
  uint8_t dpp;          /* 0, 1 DPP16, 2 DPP8 */
  uint8_t dpp_fi, dpp_bc, row_mask, bank_mask, dpp_neg, dpp_abs;
  uint8_t sdwa, dst_sel, dst_unused, src_sel[2], src_sext[2];
  uint16_t src[3];      /* operand codes */
  uint16_t vdst;        /* VGPR index, or SGPR code for scalar destinations */
  uint16_t sdst;        /* VOP3B / VOPC-e64 scalar destination code */
  uint32_t lit;
  int32_t imm;          /* SOPK/SOPP simm16, memory offset */
  uint32_t dpp_ctrl;    /* DPP16 control, or DPP8 selectors (24 bits) */
  uint16_t off0, off1;  /* DS offsets */
  uint16_t addr, data0, data1, saddr;
  int32_t pair;         /* VOPD: index of the Y half in emu_prog.ypairs, else -1 */
  int32_t bad;          /* nonzero: executing it stops the launch with this class */
  const char *name;     /* LLVM mnemonic (for messages) */
} emu_insn;

#define EMU_WHY_CAP 96      /* the reason a bad instruction gives, kept apart: the hot struct stays small */

typedef struct {
  emu_gen gen;
  const uint8_t *text;  /* .text bytes */
  uint64_t text_len;
  emu_insn *insns;      /* one per dword offset (instructions start on dwords) */
  char (*why)[EMU_WHY_CAP]; /* per insns entry: why it is bad */
  emu_insn *ypairs;
  int nypairs;
  uint32_t nvgpr;       /* VGPRs allocated per lane, from the descriptor */
} emu_prog;

/* Kernel descriptor fields (AMDGPUUsage, "Kernel Descriptor": 64 bytes, in .rodata at <kernel>.kd). */
typedef struct {
  uint32_t group_segment_fixed_size, private_segment_fixed_size, kernarg_size;
  int64_t kernel_code_entry_byte_offset;
  uint32_t rsrc1, rsrc2, rsrc3;
  uint16_t code_properties;
  uint64_t kd_vaddr;    /* where .kd lives; entry = kd_vaddr + kernel_code_entry_byte_offset */
  uint64_t text_vaddr, text_off, text_size;
  uint64_t entry;       /* .text offset of the first instruction */
  struct { uint64_t vaddr, off, filesz, memsz; } seg[8]; /* PT_LOAD segments: .rodata tables, .data */
  int nseg;
} emu_kd;

/* Where the code object's segments appear to the kernel (s_getpc_b64 returns addresses in here). */
#define EMU_CODE_BASE 0x7ffd00000000ull

/* Parses the ELF code object and finds `kernel` and its descriptor. Returns 0, or -1 with why filled. */
int emu_elf_load(const void *obj, size_t len, const char *kernel, emu_kd *kd, const uint8_t **text, char *why,
                 size_t why_cap);

/* Decodes the whole .text into p->insns (allocated). Returns 0 or -1 (out of memory). */
int emu_decode_prog(emu_prog *p);
void emu_prog_free(emu_prog *p);

#define EMU_MAX_PENDING 64

typedef struct {
  uint16_t reg, n;      /* first register, count; reg >= 512 for SGPR (512 + index) */
  uint8_t smem;
  uint64_t pc;
} emu_pend;

typedef struct {
  emu_pend e[EMU_MAX_PENDING];
  int head, count;
} emu_queue;

typedef struct emu_launch_state emu_launch_state;

typedef struct {
  uint32_t s[128];
  uint32_t (*v)[64];    /* v[reg][lane]: 256 rows, then the internal rows TEMP, DPPSRC, SRC1 */
  uint64_t exec;        /* mirrors s[126..127]; kept in s[] */
  int scc;
  uint64_t pc;          /* .text offset */
  int done, at_barrier;
  int jump;             /* s_setpc/s_swappc: the next pc is jump_to */
  uint64_t jump_to;
  int id;               /* wave index in the launch (messages) */
  uint32_t lanes;       /* wave size */
  /* memory counters: vm loads, lgkm (LDS, SMEM), vs stores (gfx10+; gfx9 counts stores on vm) */
  emu_queue vm, lgkm, vs;
  uint8_t vpend[257];
  uint8_t spend[128];
  int npend;
} emu_wave;

struct emu_launch_state {
  const gasp_emu_launch *l;
  gasp_emu_result *r;
  emu_prog prog;
  emu_kd kd;
  uint8_t *lds;
  uint32_t lds_size;
  int wave32;
  int denorm_flush_src, denorm_flush_dst, ieee;
  gasp_emu_region *regions;   /* caller's plus our own (kernarg, dispatch packet, queue) */
  int nregions;
  int last_region;
  uint64_t budget, executed;
  int stop;                   /* set with r->cls/detail when the launch must end */
  uint32_t m0_code, null_code;
};

/* Executes the instruction at w->pc. Returns 0, or -1 when the launch stops (st->stop set). */
int emu_exec_one(emu_launch_state *st, emu_wave *w);

/* emu_alu.c: one SALU instruction; one VALU instruction over the lanes in m (plain, DPP or SDWA form).
 * Each returns 0, or -1 with the launch stopped. */
int emu_salu(emu_launch_state *st, emu_wave *w, const emu_insn *in);
int emu_valu(emu_launch_state *st, emu_wave *w, const emu_insn *in, uint64_t m);
int emu_valu_dpp(emu_launch_state *st, emu_wave *w, const emu_insn *in, uint64_t m);
int emu_valu_sdwa(emu_launch_state *st, emu_wave *w, const emu_insn *in, uint64_t m);

/* emu_exec.c: stops the launch with a hazard on register reg (>= 512: SGPR reg - 512) read or written while a
 * load into it is outstanding; retires all but the newest `keep` operations of a counter (s_waitcnt). */
void emu_hazard(emu_launch_state *st, emu_wave *w, unsigned reg, int write);
void emu_queue_wait(emu_wave *w, emu_queue *q, int keep);

/* Stops the launch with class c at pc, formatting the detail. */
void emu_fail(emu_launch_state *st, emu_wave *w, gasp_class c, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Host pointer for [addr, addr+size) inside one region, or NULL. */
uint8_t *emu_mem(emu_launch_state *st, uint64_t addr, uint32_t size);

#endif
