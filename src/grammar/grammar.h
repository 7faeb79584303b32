/* GBNF grammars (llama.cpp's format, grammars/README.md of llama.cpp) for grammar-constrained decoding,
 * generated from a target's ISA description and shaped by the task. */
#ifndef GASP_GRAMMAR_H
#define GASP_GRAMMAR_H

#include "../core/diag.h"
#include "../target/target.h"

/* Bounds on every repetition, so a model that never stops inside the grammar still ends: any completion
 * of a kernel grammar is at most 32 + 6 * 12 = 104 instruction lines, a few thousand tokens. */
#define GASP_GRAMMAR_KERNEL_LABELS 6        /* labels L1..L6, each defined once, in order */
#define GASP_GRAMMAR_KERNEL_FIRST_LINES 32  /* instruction lines before the first label */
#define GASP_GRAMMAR_KERNEL_BLOCK_LINES 12  /* instruction lines after each label */
#define GASP_GRAMMAR_SNIPPET_LINES 16       /* instruction lines of a snippet (straight-line code) */

/* The PTX grammar for `task` on a PTX target: the answer is one ```ptx fenced block. A snippet task gets
 * instruction lines over the scaffold's registers (%<param> for every array parameter) and a fixed set of
 * declared temporaries; a kernel task gets a whole module with the task's kernel name and parameters.
 * Every string of the language parses with gasp_ptx_parse and extracts with gasp_extract. Returns a
 * malloc'ed grammar (root rule `root`), or NULL with a reason in d. */
char *gasp_grammar_ptx(const gasp_target *t, const gasp_task *task, gasp_diags *d);

#endif
