/* Rule writers the PTX and AMD grammar generators share (private to src/grammar). */
#ifndef GASP_GRAMMAR_INT_H
#define GASP_GRAMMAR_INT_H

#include <stddef.h>

#include "../core/util.h"

/* An opcode offered by a grammar, and whether a rule follows it (PTX: its row's rule i<row>; AMD: none, the
 * operands are written after the whole name rule). */
typedef struct {
  const char *op;
  int row, has_rule;
} gasp_grammar_op;

/* qsort order for gasp_grammar_op_trie: by opcode, then row */
int gasp_grammar_op_cmp(const void *a, const void *b);

/* Writes (after a space) what follows the common prefix of length d of e[0..n), sorted: the opcodes as a character
 * trie, each row's rule where its opcode ends. */
void gasp_grammar_op_trie(gasp_str *g, const gasp_grammar_op *e, int n, size_t d);

/* `name ::= ...` matching the decimal numbers 0..n-1 without leading zeros (1 <= n <= 1000), one line. */
void gasp_grammar_range_rule(gasp_str *g, const char *name, int n);

#endif
