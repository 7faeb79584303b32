/* GBNF grammars (llama.cpp's format, grammars/README.md of llama.cpp) for grammar-constrained decoding,
 * generated from a target's ISA description and shaped by the task. */
#ifndef GASP_GRAMMAR_H
#define GASP_GRAMMAR_H

#include "../core/diag.h"
#include "../core/util.h"
#include "../target/target.h"

/* Bounds on every repetition, so a model that never stops inside the grammar still ends: any completion
 * of a kernel grammar is at most 80 + 12 * 40 = 560 instruction lines. Set so that nvcc's PTX for 52 of the
 * suite's 53 PTX tasks fits (2026-12-02; with the earlier 32 / 6 / 12, 40 did: block reductions and scans
 * take 10 labels, warp reductions unroll to 36 lines after one, softplus to 78 before the first; the one
 * left out, translate_mandel_iter, has 18 labels and a 164-line block). */
#define GASP_GRAMMAR_KERNEL_LABELS 12       /* labels L1..L12, each defined once, in order */
#define GASP_GRAMMAR_KERNEL_FIRST_LINES 80  /* instruction lines before the first label */
#define GASP_GRAMMAR_KERNEL_BLOCK_LINES 40  /* instruction lines after each label */
#define GASP_GRAMMAR_SNIPPET_LINES 16       /* instruction lines of a snippet (straight-line code) */

/* The PTX grammar for `task` on a PTX target: the answer is one ```ptx fenced block. A snippet task gets
 * instruction lines over the scaffold's registers (%<param> for every array parameter) and a fixed set of
 * declared temporaries; a kernel task gets a whole module with the task's kernel name and parameters.
 * Every string of the language parses with gasp_ptx_parse and extracts with gasp_extract. Returns a
 * malloc'ed grammar (root rule `root`), or NULL with a reason in d. */
char *gasp_grammar_ptx(const gasp_target *t, const gasp_task *task, gasp_diags *d);

/* The grammar's register classes, in the order it declares them: type, name prefix, and how many a kernel and
 * a snippet declare (`.reg .b32 %r<100>;`). */
#define GASP_GRAMMAR_NCLASSES 5
typedef struct {
  const char *type, *prefix;
  int kernel_count, snippet_count;
} gasp_grammar_reg_class;
extern const gasp_grammar_reg_class gasp_grammar_reg_classes[GASP_GRAMMAR_NCLASSES];

/* The literal parts of a PTX answer in the grammar's form, as plain text appended to o (the grammar writes the same
 * text as GBNF literals): the module's first lines for the target, the entry line with the task's parameters and
 * the opening brace, and the fixed register declarations (a kernel's indented, a snippet's not). */
void gasp_grammar_ptx_head(gasp_str *o, const gasp_target *t);
void gasp_grammar_ptx_entry(gasp_str *o, const gasp_task *task);
void gasp_grammar_ptx_decls(gasp_str *o, int snippet);

/* A PTX answer (code, no fence) rewritten into the form gasp_grammar_ptx generates for the task: its fixed
 * declarations, the module header the grammar spells, registers renamed into the grammar's classes in order of
 * first use, labels renamed L1, L2, ... in order of definition, one instruction per line with the grammar's
 * spacing, and the closing ret the grammar writes. Answers the model is trained on are written this way, so
 * that the text it learns is text the grammar lets it write (grammar_form.c). Returns malloc'ed code, or NULL
 * with the reason in d when the answer needs what the grammar does not offer (16-bit registers, more labels or
 * lines than its bounds, nested scopes, ...). */
char *gasp_grammar_ptx_form(const gasp_target *t, const gasp_task *task, const char *code, gasp_diags *d);

/* The AMD grammar (gfx900, gfx1030, gfx1100; grammar_amd.c) for `task`: one ```amdgcn fenced block, a snippet
 * task's straight-line instruction lines or a kernel task's body with local labels, over the mnemonics the
 * emulator executes on the target's generation. Returns a malloc'ed grammar (root rule `root`), or NULL with a
 * reason in d. Bounds: a snippet of at most GASP_GRAMMAR_AMD_SNIPPET_LINES lines (the corpus's longest is 64, an
 * f32 division), a body of at most GASP_GRAMMAR_AMD_KERNEL_LINES. */
#define GASP_GRAMMAR_AMD_SNIPPET_LINES 72
#define GASP_GRAMMAR_AMD_KERNEL_LINES 400
char *gasp_grammar_amd(const gasp_target *t, const gasp_task *task, gasp_diags *d);

/* Whether text is in the language of the GBNF grammar (llama.cpp's own grammar engine; needs libllama): 1 yes,
 * 0 no (*at: the byte where it failed), -1 the grammar does not compile. grammar_cache.cpp. */
int gasp_grammar_match(const char *gbnf, const char *text, size_t *at);

#endif
