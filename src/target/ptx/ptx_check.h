/* Checks ptxas does not do, or does without a column: register indices against their declarations,
 * vector accesses provably misaligned, registers per thread against a budget. */
#ifndef GASP_PTX_CHECK_H
#define GASP_PTX_CHECK_H

#include "../../core/diag.h"
#include "../target.h"

/* Runs the source-level checks on src->text, diagnostics mapped to answer lines. Returns error count. */
int gasp_ptx_lint(const gasp_source *src, gasp_diags *d);

/* Parses ptxas's stderr into diagnostics mapped to answer lines; *regs gets "Used N registers" and *smem
 * the static shared bytes of `kernel` (the largest over all functions when kernel is NULL or not found;
 * -1 when ptxas printed none). Returns the number of errors added. */
int gasp_ptxas_parse(const char *stderr_text, const gasp_source *src, const char *kernel, gasp_diags *d, int *regs,
                     int *smem);

/* Rewriter (run before checking when asked): splits each provably misaligned vector access (see the lint)
 * into scalar accesses on the same line, so line numbers stay valid. Returns how many it rewrote and adds
 * a note for each. */
int gasp_ptx_split_misaligned(gasp_source *src, gasp_diags *d);

#endif
