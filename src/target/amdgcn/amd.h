/* The AMD targets (gfx900 wave64, gfx1030 and gfx1100 wave32), private interface between the files of this
 * folder and src/verify/verify_emu.c: the architecture table, the kernel-argument layout read from a code
 * object's metadata, and the launch of one trial on the emulator. */
#ifndef GASP_AMD_H
#define GASP_AMD_H

#include <stdint.h>

#include "../../core/diag.h"
#include "../../core/util.h"
#include "../../task/task.h"
#include "../target.h"

typedef struct {
  const char *mcpu;        /* "gfx1030" */
  int gfx;                 /* major generation: 9, 10, 11 */
  int wave64;              /* the wave size our harness uses on this target (amd-r300-facts.md) */
  int max_vgpr, max_sgpr;  /* addressable v0..v(max-1), s0..s(max-1) (AMDGPU ISA guides: 256 VGPRs; 102 SGPRs
                            * on GFX9, 106 on GFX10/11) */
  uint32_t max_lds;        /* bytes per workgroup: 64 KiB on all three */
} gasp_amd_arch;

const gasp_amd_arch *gasp_amd_arch_of(const gasp_target *t);
const gasp_amd_arch *gasp_amd_arch_by_mcpu(const char *mcpu);

/* One kernel argument slot, from the code object's metadata (`.args`). */
typedef enum {
  GASP_AMD_ARG_BUFFER = 0, GASP_AMD_ARG_VALUE,
  GASP_AMD_ARG_BLOCK_COUNT_X, GASP_AMD_ARG_BLOCK_COUNT_Y, GASP_AMD_ARG_BLOCK_COUNT_Z,
  GASP_AMD_ARG_GROUP_SIZE_X, GASP_AMD_ARG_GROUP_SIZE_Y, GASP_AMD_ARG_GROUP_SIZE_Z,
  GASP_AMD_ARG_REMAINDER_X, GASP_AMD_ARG_REMAINDER_Y, GASP_AMD_ARG_REMAINDER_Z,
  GASP_AMD_ARG_GRID_DIMS, GASP_AMD_ARG_DYNAMIC_LDS, GASP_AMD_ARG_ZERO /* other hidden arguments: 0 */
} gasp_amd_arg_kind;

#define GASP_AMD_MAX_ARGS 64

/* Everything the run stage needs beyond the image; flat (stored in gasp_binary.launch). */
typedef struct {
  char mcpu[16];
  char kernel[128];
  uint32_t kernarg_size;
  uint32_t group_segment;  /* static LDS bytes of the descriptor */
  int wave64;
  int nargs;
  struct {
    uint32_t offset, size;
    gasp_amd_arg_kind kind;
  } args[GASP_AMD_MAX_ARGS];
  int nexplicit;           /* explicit (non-hidden) arguments, in order */
} gasp_amd_layout;

/* Reads the `.amdgpu_metadata` YAML of an assembler source (libyaml) for kernel `kernel` (NULL: the first).
 * Returns 0 with out filled, -1 with a diagnostic (line relative to the source). *meta_line receives the
 * source line of the metadata block (0 when absent). Also returns the metadata's wave size in *wave_size
 * (0 when not given). */
int gasp_amd_meta_parse(const char *src, const char *kernel, gasp_amd_layout *out, int *meta_line, int *wave_size,
                        char *err, size_t errcap);

/* The harness's code object v5 layout for a task's ABI: explicit arguments at natural alignment, then the
 * hidden arguments clang-19 emits (block counts, group sizes, remainders, global offsets, grid dims) from the
 * next 8-byte boundary, 256 bytes of them. */
void gasp_amd_layout_for_task(const gasp_task *task, const gasp_amd_arch *a, gasp_amd_layout *out);

/* Writes the `.amdgpu_metadata` block for lay (made by gasp_amd_layout_for_task). */
void gasp_amd_meta_emit(const gasp_task *task, const gasp_amd_arch *a, const gasp_amd_layout *lay, uint32_t lds,
                        int vgprs, int sgprs, gasp_str *o);

/* One trial on the emulator: kernarg laid out per `lay`, one region per array buffer (guards included, as the
 * fixture made them: `bufs[k]` holds guard + data + guard bytes for array param k in order), scalars from the
 * shape. Returns 0 with cls/detail set (PASS: ran to completion), -1 when no emulator is built in. */
int gasp_amd_emulate(const gasp_binary *bin, const gasp_task *task, const gasp_trial_shape *sh, uint8_t *const bufs[],
                     const uint64_t sizes[], uint64_t guard, gasp_class *cls, char *detail, size_t detail_cap,
                     uint64_t *wave_instructions);

/* The highest VGPR and SGPR index named by the instructions of an assembler source (-1 when none). */
void gasp_amd_scan_regs(const char *text, int *max_vgpr, int *max_sgpr);
/* Whether an answer is a complete source (has its own `.amdhsa_kernel`). */
int gasp_amd_is_complete(const char *code);
/* The path of an LLVM 19 tool (/usr/lib/llvm-19/bin or $GASP_LLVM_BIN); 0 when executable. */
int gasp_amd_tool(const char *name, char *buf, size_t cap);

/* 1 when the functional emulator (emu/) is compiled into this gasp. */
int gasp_amd_emulator_built(void);

/* The HIP runtime loader (hip.c): 1 when libamdhip64.so loads and reports an AMD GPU of this mcpu. */
int gasp_amd_hip_available(const char *mcpu, char *why, size_t cap);
/* Runs one trial on the HIP device (only after gasp_amd_hip_available said yes): kernarg holds the explicit
 * arguments (explicit_size bytes; pointers are replaced by the device copies of bufs), bufs are copied there and
 * back with their guards. Returns 0 with cls/detail set, 1 when the GPU here cannot load code for this target
 * (another generation: emulate instead). UNTESTED here: no AMD GPU (see README). */
int gasp_amd_hip_run(const gasp_binary *bin, const gasp_task *task, const gasp_trial_shape *sh, const uint8_t *kernarg,
                     uint32_t explicit_size, uint8_t *const bufs[], const uint64_t sizes[], uint64_t guard,
                     gasp_class *cls, char *detail, size_t cap);

/* clang-19's complete assembly source for the task's OpenCL C reference (tasks/amdgcn/<id>.cl), cached by
 * content. The reference backend answers with the body cut from it (amd_body_from_clang in amdgcn.c). */
int gasp_amd_clang_source(const gasp_target *t, const gasp_task *task, char **source, gasp_diags *d);

/* The AMD snippet (inputs in v2.., result in its VGPR) for a task's PTX snippet, or NULL when the snippet
 * leaves the translated subset (32-bit ALU, compares and selects). The caller owns the string. */
char *gasp_amd_snippet_from_ptx(const gasp_target *t, const gasp_task *task, const char *ptx);

#endif
