/* The training corpus (issue 9): generated task families (gasp corpus gen) and verified (prompt, answer)
 * pairs made from them by the reference backend (gasp corpus build, src/cli/cmd_corpus.c). */
#ifndef GASP_CORPUS_H
#define GASP_CORPUS_H

#include <stddef.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../core/util.h"
#include "../task/map.h"
#include "../task/task.h"

/* The families, in the generator's order. Each makes tasks of fixed levels (tasks/README.md):
 *  ew_op        L0 one element-wise operation, a snippet (f32 f64 s32 u32, conversions)
 *  ew_seq       L1 a short straight-line element-wise sequence, a snippet (one to six inputs)
 *  ew_kernel    L2 the same expressions as whole kernels with bounds guard: scalar parameters, strided and
 *               offset indexing
 *  ew_gridstride L3 whole kernels on a fixed grid smaller than n: a grid-stride loop
 *  arb          L0/L1 R300 ARB fragment and vertex programs over vec4 (r300)
 *  reduce       L4 warp reductions (shuffles), L5 block reductions (shared memory): sum, min, max of an
 *               element-wise expression
 *  scan         L4 warp inclusive scans, L5 block inclusive and exclusive scans
 *  transpose    L2 plain and L5 shared-memory tiled transposes of an element-wise expression
 *  loop         L3 a loop per element whose trip count is data (divergent warps): v = start, cnt times v = step
 *  ew_idiom     L1 the short computations kernels are made of (dot products, lerp, clamp, polynomials, selects,
 *               bit fields), a snippet
 *  ew_near      L0/L1 the benchmark's one-instruction computations at another type or operand order, or as one
 *               step of two (never the computation itself); made only when --families names it
 *  ew_order     L1 the idioms' shapes (dot products, interpolations, clamps, polynomials, multiply-adds) with their
 *               operands in every order, so that only the description tells them apart; only when named
 *  ew_shape     L1 ew_idiom's forms, each as often as the others; only when named
 *  ew_kin       L1 the structures of clamp_f32, lerp_f32, dot3, select_sign and abs_diff_u32, inputs in the
 *               benchmark's order, at the types it does not use; only when named
 *  ew_kin_order L1 ew_kin's structures with the inputs read in another order than listed; only when named
 * Snippets name their inputs and result from several sets (a b c -> d, ax ay az bx by bz, x0 x1 ..., -> r, res,
 * out, ...), so that a model must read the registers from the prompt.
 * f16 is not a task dtype, so no family makes f16 tasks. */
const char *const *gasp_corpus_families(void);

typedef struct {
  uint64_t seed;
  int count;              /* tasks to write (after exclusion) */
  const char *families;   /* comma-separated subset of the families, or NULL for all */
  const gasp_taskset *bench; /* the benchmark's tasks: their ids are never generated */
} gasp_corpus_gen_opts;

typedef struct {
  int written;
  int skipped_bench_id;   /* an id the benchmark uses */
  int skipped_bench_same; /* the same computation as a benchmark task (canonical form in the table) */
  int skipped_duplicate;  /* the same computation and shape as an earlier generated task */
  int per_family[20]; /* indexed as gasp_corpus_families() (17 now) */
  int per_level[8];
} gasp_corpus_gen_stats;

/* Writes generated tasks into outdir (YAML, outdir/amdgcn/<id>.cl), deterministic for a seed. Returns 0, or
 * -1 with diagnostics. Library code: prints nothing. */
int gasp_corpus_gen(const gasp_corpus_gen_opts *o, const char *outdir, gasp_corpus_gen_stats *st, gasp_diags *d);

/* Whether a task's map is the same computation as one of the benchmark's L0-L3 tasks (the explicit table of
 * their canonical forms in corpus_gen.c). Fills which (the benchmark id) when it is. */
int gasp_corpus_is_bench_computation(const gasp_map *m, const gasp_task *task, char *which, size_t cap);

/* Whether a task's map is one of the benchmark's computations with its inputs in another order, inputs of one
 * type exchanged (fma(b, c, a) where fma_f32 is fma(a, b, c); b - a where sub_f32 is a - b). Such a task is not
 * the benchmark's and may be trained on; but where the exact computation is excluded, its permutations are all a
 * model sees of that shape, and it learns them as the answer (tools/train/README.md, "The tenth run"). Fills
 * which when it is. */
int gasp_corpus_is_bench_permutation(const gasp_map *m, const gasp_task *task, char *which, size_t cap);

/* ---- rendering one map (corpus_render.c) ---- */
typedef enum { GASP_RENDER_SNIPPET, GASP_RENDER_KERNEL, GASP_RENDER_ARB } gasp_render_kind;

/* The description text: the computation (for a snippet in one of several wordings, as steps, a formula or both,
 * chosen by a hash of the map) with the semantics of every operation used. */
void gasp_corpus_describe(const gasp_map *m, const gasp_task *t, gasp_render_kind kind, gasp_str *s);
/* The same in a chosen form (want >= 0; -1: by the map's hash, as gasp_corpus_describe). A sequence has
 * GASP_CORPUS_FORMS forms: 0-5 as gasp_corpus_describe chooses them, and 6, bare names with temporaries named by
 * letters and each float step's rounding said ("d = a + t * (b - a) in single precision (f32), computed as: s =
 * b - a (rounded subtract), then d = fma(t, s, a) (fused multiply-add, rounded once)."), as lerp_f32 reads; only
 * gasp corpus reword uses 6, so generated corpora keep their bytes. One instruction has three (want % 3) and a
 * fourth that only gasp corpus reword asks for, want == GASP_CORPUS_ONE_BARE: bare names and no "one instruction"
 * ("d = a * b + c, in 32-bit signed integers (s32)."), as the benchmark's mad_s32 reads. */
#define GASP_CORPUS_FORMS 7
#define GASP_CORPUS_ONE_BARE 3
#define GASP_CORPUS_ONE_FORMS 4
void gasp_corpus_describe_form(const gasp_map *m, const gasp_task *t, gasp_render_kind kind, int want, gasp_str *s);
/* The same with a style (gasp corpus reword): bits 0-2 the phrasing of the type (0-4: "single precision (f32)",
 * "single precision", "f32", "32-bit floats (.f32)", "single precision, round to nearest even"), and TERSE: no
 * notes on rounding and wrapping where only plain operations are used (add, sub, mul, fma, neg, abs, min, max,
 * and, or, xor). Style 0 is gasp_corpus_describe_form. */
#define GASP_CORPUS_TYPE_WORDINGS 5
#define GASP_CORPUS_STYLE_TYPE 7u
#define GASP_CORPUS_STYLE_TERSE 8u
/* WORDS: bit operations as AND, OR, XOR, and one instruction glossed ("%d = %a XOR %b, bitwise over all 32 bits") */
#define GASP_CORPUS_STYLE_WORDS 16u
/* CHAIN: where each step uses only the one before, one name for every temporary ("t = a * d; t = fma(b, e, t);
 * d = fma(c, f, t)", as dot3 and horner_poly3 read) */
#define GASP_CORPUS_STYLE_CHAIN 32u
/* PROSE: operations without an infix symbol in words ("the number of 1 bits in %a", "%a converted to single
 * precision", "the smaller of %a and %b", "%a shifted left by (%b & 31) bits"); PROSE_ALT the second phrasing
 * ("the count of set bits in the 32-bit value %a", "the 32-bit signed integer %a converted to single precision") */
#define GASP_CORPUS_STYLE_PROSE 64u
#define GASP_CORPUS_STYLE_PROSE_ALT 128u
/* ARRAYS (a kernel's only): a first sentence that names the input arrays' element type as people write it ("An
 * element-wise kernel over two float arrays."), as vector_add and scale_bias read ("two float arrays", "floats") */
#define GASP_CORPUS_STYLE_ARRAYS 256u
/* ARRAYS_LEAD (with ARRAYS, where the description opens with the formula): the arrays' sentence in the benchmark's
 * L2 shape instead, leading the formula on its line ("Element-wise sum of three float arrays: out[i] = a[i] + b[i]
 * + c[i], in floats."), as vector_add reads ("Element-wise sum of two float arrays: c[i] = a[i] + b[i] for every
 * i < n"): s19 (tools/train/README.md, "The eighteenth run") wrote vector_add's float add 10 times in 10 when its
 * sentence said "f32 arrays" and an integer add 10 times in 10 when it said "float arrays", "single-precision float
 * arrays" or "Sum of two float arrays" (tools/train/probe-wording.sh, PROBE=vaddwords), and the corpus said "float
 * arrays" only in "An element-wise kernel over two float arrays." */
#define GASP_CORPUS_STYLE_ARRAYS_LEAD 512u
/* GLOSS: the formula's first float add, subtract, multiply or fma of a constant no float holds exactly glossed as
 * relu_leaky's is ("d = x if x > 0, otherwise 0.01 * x (one rounded single-precision multiply by the float nearest
 * to 0.01, 0f3C23D70A), in single precision (f32)."): s19's PTX answers to relu_leaky were right in structure 0 times
 * in 10 with the benchmark's parenthesis and 10 in 10 without it (tools/train/README.md, "The twentieth run") */
#define GASP_CORPUS_STYLE_GLOSS 1024u
void gasp_corpus_describe_styled(const gasp_map *m, const gasp_task *t, gasp_render_kind kind, int want, unsigned style,
                                 gasp_str *s);
/* The hash gasp_corpus_describe picks a form by: % 6 for a sequence, % 3 for one instruction */
uint32_t gasp_corpus_wording_hash(const gasp_map *m);
/* Whether a snippet's description has steps (a sequence) or is one instruction: the operations other than
 * comparisons (a comparison is written into its select) are more than the top one */
int gasp_corpus_has_steps(const gasp_map *m);
/* A snippet's registers, the last line of its description: form 0 each with its type ("Inputs are in registers
 * %a (.f32), %n (.s32); write the result to %d (.f32)."); inputs of one type also 1, "The inputs are in registers
 * %a, %b and %c (.f32)" ("The input is in register %x"), and 2, "Inputs are in registers %a, %b and %c (.f32)". */
void gasp_corpus_registers_text(const gasp_task *t, int form, gasp_str *s);
/* The whole computation as one infix formula over the parameters' bare names (`min(max(x, 0), 1)`,
 * `a * b - (c + 1)`), the way the benchmark's own descriptions state it; a snippet's description gives it in five
 * of its six forms (before the steps, with the steps inline, or alone; chosen by the map's text, so the same seed
 * writes the same bytes). */
void gasp_corpus_formula(const gasp_map *m, const gasp_task *t, gasp_str *s);
/* A select node id as cases: `-1 if x < 0, 1 if x > 0, otherwise 0`. */
void gasp_corpus_cases(const gasp_map *m, const gasp_task *t, int id, gasp_str *s);
/* The right-hand side of out[i] in CUDA (cl = 0) or OpenCL C for gasp_amd.h (cl = 1); helpers receives the
 * helper functions the expression calls (define them before the kernel). */
void gasp_corpus_expr_c(const gasp_map *m, const gasp_task *t, int cl, gasp_str *s, gasp_str *helpers);
/* The same for one node of the map (a loop's count, start and step; `acc` is written v). */
void gasp_corpus_expr_c_node(const gasp_map *m, const gasp_task *t, int cl, int node, gasp_str *s, gasp_str *helpers);
/* A group form's combination of a and b (add rounds once; integers wrap) and its identity, in CUDA or OpenCL C. */
void gasp_corpus_combine_c(gasp_map_op red, gasp_map_type t, int cl, const char *a, const char *b, gasp_str *s,
                           gasp_str *helpers);
const char *gasp_corpus_identity_c(gasp_map_op red, gasp_map_type t, int cl);
/* An ARB program computing the map over vec4 (fragment or vertex); -1 when an operation has no ARB form. */
int gasp_corpus_arb_program(const gasp_map *m, const gasp_task *t, int vertex, gasp_str *s);

/* A snippet task's PTX snippet from its map expression (corpus_ptx.c): 0 and the text appended to s, or -1
 * when the expression has no snippet form (strided reads, group forms, loops). */
int gasp_corpus_ptx_snippet(const gasp_map *m, const gasp_task *t, gasp_str *s);
/* A literal node as PTX writes it: 0fXXXXXXXX (f32), 0dXXXXXXXXXXXXXXXX (f64), or the integer */
void gasp_corpus_ptx_lit(const gasp_map_node *n, char *out, size_t cap);

/* ---- other wordings of a generated snippet task (corpus_reword.c) ---- */
/* Fills w with a shallow copy of t worded as variant k (1, 2, ...): another description form than the
 * generator's, another register sentence and title, and for a snippet with rename other names for the registers
 * (for targets whose answer does not name them: AMD's answer reads v2, v3, ... in parameter order). A kernel keeps
 * its names and the generator's sentences after the computation. w->description points into desc, which the
 * caller frees; w must not be freed with gasp_task_free. Returns 0; -2 (err says why) for a task it does not
 * reword (no map, ARB, a reduction, scan, transpose or loop); -1 on an error. */
int gasp_corpus_reword(const gasp_task *t, int k, int rename, gasp_task *w, gasp_str *desc, char *err, size_t errcap);

/* The completion a raw-completion model must emit after the prompt: code in the fence the prompt asks for (the
 * first of the target's fence tags, space-separated in fence_tags; for PTX the grammar's root "```ptx\n" code
 * "```"), ending with the closing fence. Caller frees. */
char *gasp_corpus_completion(const char *fence_tags, const char *code);

/* ---- mutants of a verified answer, for repair pairs (corpus_mutate.c) ---- */
typedef struct {
  char *code;        /* the whole code with one edit (malloc'ed) */
  const char *kind;  /* one of gasp_mutation_kinds */
  int line;          /* the edited (or dropped) line, 1-based in the code */
} gasp_mutant;
/* opcode, type, swap, operand, param, const, drop; NULL-terminated */
extern const char *const gasp_mutation_kinds[];
/* Up to `want` distinct mutants of `code` (verified code without its fence) for a target of ISA isa ("PTX",
 * "AMDGCN", "ARB"), each one edit away from it, none equal to it; the kinds taken in turn, the edits in an order
 * that depends on seed and code only. Whether a mutant is wrong is for gasp to judge. Returns the count; *out is
 * malloc'ed (free with gasp_mutants_free), NULL when there is none. */
int gasp_corpus_mutate(const char *isa, const char *code, uint64_t seed, int want, gasp_mutant **out);
void gasp_mutants_free(gasp_mutant *m, int n);

#endif
