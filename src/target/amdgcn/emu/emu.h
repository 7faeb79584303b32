/* The AMD functional emulator's interface (issue 5): runs the instructions of a real code object (.hsaco,
 * made by llvm-mc + ld.lld) for every wave of a launch, so that what runs is exactly what was assembled.
 * No AMD GPU exists on our machines (amd-r300-facts.md); this is how AMD answers are proven.
 *
 * Division of work: the AMD target (src/target/amdgcn/) assembles, lays out the kernel arguments (explicit and
 * hidden, per the code object's metadata) and the buffers with their guards and poison, then calls
 * gasp_emu_run and judges the buffers like a GPU run. The emulator owns everything below the launch: the
 * kernel descriptor, SGPR/VGPR initialisation, the dispatch packet, LDS, barriers, memory counters. */
#ifndef GASP_AMD_EMU_H
#define GASP_AMD_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "../../../core/diag.h"

/* A span of global memory the kernel may touch; any access outside every region is illegal-address. Regions
 * include the guard bytes around a buffer (a write there is caught later as out-of-bounds-write, as on a GPU). */
typedef struct {
  uint64_t base;     /* the device address the kernel sees */
  uint8_t *host;     /* backing bytes, read and written in place */
  uint64_t size;
} gasp_emu_region;

typedef struct {
  const char *mcpu;                 /* "gfx900", "gfx1030" or "gfx1100" */
  const void *code_object;          /* the whole .hsaco (ELF) */
  size_t code_object_len;
  const char *kernel;               /* kernel symbol; its descriptor is the symbol "<kernel>.kd" */
  uint32_t grid_groups[3];          /* workgroups per dimension (0 is taken as 1) */
  uint32_t group_size[3];           /* work-items per workgroup per dimension (0 is taken as 1) */
  const void *kernarg;              /* the complete kernel-argument segment, hidden arguments included */
  uint32_t kernarg_len;
  const gasp_emu_region *regions;
  int nregions;
  uint32_t dynamic_lds;             /* bytes added to the descriptor's group segment size */
  uint64_t max_wave_instructions;   /* budget over the whole launch; 0: 200 million. Past it: timeout */
} gasp_emu_launch;

typedef struct {
  /* PASS: the launch ran to completion (the outputs still have to be judged). Otherwise one of
   * ILLEGAL_ADDRESS, MISALIGNED, HAZARD (a register read before the s_waitcnt that covers its load),
   * TIMEOUT (budget spent), UNSUPPORTED (an opcode we do not implement, named in detail),
   * ILLEGAL_INSTRUCTION (an encoding that is not an instruction), TRAP (s_trap), LOAD (bad code object,
   * kernel or descriptor). */
  gasp_class cls;
  char detail[256];                 /* e.g. "v_mad_u64_u32 at .text+0x1c (wave 3): unsupported" */
  uint64_t pc;                      /* .text offset of the instruction that stopped the launch */
  uint64_t wave_instructions;       /* wave-instructions executed */
} gasp_emu_result;

/* Runs one launch. Returns 0 with r filled (any class); -1 only when the arguments themselves are invalid
 * (r->detail says why). Thread-safe: no global state. */
int gasp_emu_run(const gasp_emu_launch *l, gasp_emu_result *r);

/* The instructions the emulator executes on an mcpu, for the AMD grammar (src/grammar/grammar_amd.c): each
 * implemented LLVM mnemonic once, in the order of the generated opcode table, with the encodings it has there
 * (an instruction known to LLVM but not implemented stops a launch as unsupported, so a grammar that offered it
 * would only offer a failure). */
enum {
  GASP_EMU_ENC_SALU = 1 << 0,   /* SOP1, SOP2, SOPC, SOPK */
  GASP_EMU_ENC_SOPP = 1 << 1,   /* program control: branches, s_waitcnt, s_endpgm, ... */
  GASP_EMU_ENC_SMEM = 1 << 2,
  GASP_EMU_ENC_VOP = 1 << 3,    /* VOP1, VOP2, VOPC: the 32-bit encodings (_e32; _e64 promotes them) */
  GASP_EMU_ENC_VOP3 = 1 << 4,
  GASP_EMU_ENC_DS = 1 << 5,
  GASP_EMU_ENC_GLOBAL = 1 << 6,
  GASP_EMU_ENC_FLAT = 1 << 7,
  GASP_EMU_ENC_SCRATCH = 1 << 8,
  GASP_EMU_ENC_VOPDX = 1 << 9,  /* gfx11 dual issue: the X and the Y half (written v_dual_<name>) */
  GASP_EMU_ENC_VOPDY = 1 << 10,
  GASP_EMU_ENC_CACHE = 1 << 11, /* GFX10/11 cache invalidates without operands (buffer_gl0_inv, buffer_gl1_inv) */
};
typedef struct {
  const char *name;   /* static storage */
  unsigned enc;       /* GASP_EMU_ENC_* bits */
} gasp_emu_mnemonic;
/* Fills out (at most cap entries) and returns how many there are (more than cap: call again with more room);
 * -1 for an mcpu the emulator does not know. */
int gasp_emu_mnemonics(const char *mcpu, gasp_emu_mnemonic *out, int cap);

#endif
