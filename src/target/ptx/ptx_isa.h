/* The PTX description gasp relies on: architectures, register classes, special registers, and the
 * instruction families prompts list. One table feeds the prompt facts, the checks and (later) the grammar. */
#ifndef GASP_PTX_ISA_H
#define GASP_PTX_ISA_H

#include "../../task/task.h"

typedef struct {
  const char *arch;          /* "sm_90" */
  const char *gpu;           /* prompt wording */
  int cc;
  int sms;                   /* multiprocessors on the reference board */
  int max_warps_per_sm;
  int max_blocks_per_sm;
  int max_shared_per_block;  /* bytes, opt-in maximum */
  int regs_per_sm;
  const char *ptx_version;   /* PTX ISA version our scaffolds and examples declare */
} gasp_ptx_arch;

/* sm_90: H200 board counts from the GPU machine (132 SMs, measured 2026-12-02); limits from the CUDA
 * programming guide's compute-capability table (64 warps, 32 blocks, 227 KB shared per block).
 * sm_89: RTX 4090 (128 SMs, vendor spec), 48 warps, 24 blocks, 99 KB shared per block (same table). */
extern const gasp_ptx_arch gasp_ptx_sm90, gasp_ptx_sm89;

/* Special registers a kernel may read (PTX ISA manual, "Special Registers"). */
extern const char *const gasp_ptx_special_regs[];
/* Register types for `.reg` and the instruction families the prompt lists (opcode, what it does). */
typedef struct { const char *op; const char *what; int level_min; } gasp_ptx_op;
extern const gasp_ptx_op gasp_ptx_ops[];
extern const char *const gasp_ptx_reg_types[];

/* The PTX type suffix for a task element type (".f32", ".s32", ...). */
const char *gasp_ptx_type(gasp_dtype t);

#endif
