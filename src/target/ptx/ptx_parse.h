/* Our PTX parser, driven by the instruction description (ptx_desc.h): syntax only, with a line, a column
 * and a helpful message for each error. ptxas stays the authority for `check`; this parser measures how
 * many answers are well-formed (grammar-constrained decoding must make that 100%). */
#ifndef GASP_PTX_PARSE_H
#define GASP_PTX_PARSE_H

#include "../../core/diag.h"

/* Parses extracted code: a whole module when it has module directives (.version, .target, .entry, .func,
 * .visible), else a snippet (instructions, .reg declarations, labels and scopes, as spliced into a
 * kernel). Lines in diagnostics are answer lines: code line 1 is answer line code_first_line. Adds one
 * `syntax` error per malformed statement (at most 100) and returns how many it added (0: it parses). */
int gasp_ptx_parse(const char *code, int code_first_line, gasp_diags *d);

#endif
