/* The AMD targets' own reading of an assembler source (private to src/target/amdgcn): instructions with their
 * operands and columns, the descriptor directives our checks need, and the roles of instructions (which operand
 * is written, which loads go through which counter). */
#ifndef GASP_AMD_PARSE_H
#define GASP_AMD_PARSE_H

#include "amd.h"

#define MAX_OPS 16

typedef struct {
  int line;
  char mn[64];
  int mn_col;
  int nops;
  struct {
    char text[96];
    int col;
  } ops[MAX_OPS];
  char mods[160];  /* the space-separated modifiers after the last operand (offset:16 glc ...) */
} amd_insn;

typedef struct {
  char cls;   /* 'v' or 's' */
  int lo, hi;
} amd_reg;
typedef struct {
  amd_insn *v;
  int n, cap;
  /* descriptor and target directives */
  int next_free_vgpr, next_free_sgpr, vgpr_line, sgpr_line;
  int wave32_directive, wave32_line;   /* -1 absent */
  long lds, lds_line;
  int kernel_line;
} amd_program;
/* Parses one operand into a register range; 0 when it is none (constants, vcc, exec, labels, null). */
int gasp_amd_parse_reg(const char *op, amd_reg *r);
/* Reads a whole source; the caller frees pr->v. Metadata blocks are skipped; labels are dropped. */
void gasp_amd_parse_program(const char *text, amd_program *pr);
/* The value of the first directive `name` (e.g. ".amdhsa_user_sgpr_count") standing at the start of a line of
 * text, or dflt when there is none. */
long gasp_amd_directive(const char *text, const char *name, long dflt);

typedef enum { MEM_NONE = 0, MEM_VM, MEM_DS, MEM_SMEM } amd_mem;
/* Does the instruction's first operand receive its result (1) or are all operands read (0)? */
int gasp_amd_has_dest(const amd_insn *in, int gfx);
/* The counter a load goes through (MEM_NONE: not a load). */
amd_mem gasp_amd_load_kind(const amd_insn *in);
int gasp_amd_starts(const char *s, const char *prefix);

/* The s_waitcnt check (amd_waitcnt.c): reports every premature use into d; with d NULL stops at the first and
 * returns its text line and counter in *first_line / *first_kind (0 when none). */
void gasp_amd_check_waitcnt(const amd_program *pr, const gasp_source *src, int gfx, gasp_diags *d, int *errors,
                            int *first_line, amd_mem *first_kind);

#endif
