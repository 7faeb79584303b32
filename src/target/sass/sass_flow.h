/* Control-flow checks on SASS text that the assembler cannot make line by line: every path ends in EXIT
 * (a thread that runs past the last instruction executes whatever follows), and divergence regions pair up
 * (BSSY Bn, L opens a region whose BSYNC Bn must come before the reconvergence point L). */
#ifndef GASP_SASS_FLOW_H
#define GASP_SASS_FLOW_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/diag.h"

typedef struct {
  const char *text;  /* the instruction as written, control prefix allowed */
  int line;          /* answer line for diagnostics */
} sass_flow_insn;

/* labels[k] is at instruction index label_at[k]. Returns the number of errors added (class semantic). */
int sass_check_flow(const sass_flow_insn *ins, size_t n, const char *const *labels, const size_t *label_at,
                    size_t nlabels, gasp_diags *d);

#endif
