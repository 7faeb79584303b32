/* Private to src/corpus: one generated instance (its shape and its expression as it is built), shared by the
 * generator (corpus_gen.c) and the writer of its task files (corpus_task.c). */
#ifndef GASP_CORPUS_INT_H
#define GASP_CORPUS_INT_H

#include "corpus.h"

/* Inputs of an instance: snippets take up to six (the benchmark's dot3 has six), kernels up to three. */
#define CORPUS_MAXIN 6
#define CORPUS_SCALAR CORPUS_MAXIN /* the scalar's slot in used[] */

typedef struct {
  const char *family;
  int level;
  gasp_render_kind kind;
  int vertex;       /* arb: a vertex program */
  int gridstride;
  gasp_map_type type;          /* the result type */
  int nin;
  char in_name[CORPUS_MAXIN][8];
  gasp_map_type in_type[CORPUS_MAXIN];
  int stride[CORPUS_MAXIN], offset[CORPUS_MAXIN];
  char out_name[8];            /* the result's name ("d" for snippets, "out" for kernels when empty) */
  int has_scalar;
  char scalar_name[8];
  char scalar_value[32];
  int used[CORPUS_MAXIN + 1];  /* the inputs and (last) the scalar, used by the tree */
  int ops, max_ops;
  gasp_map_op group, red;      /* group families: the root form (WRED ... TR) and its combination */
  int smem;                    /* transpose: the shared-memory tiled version (L5) */
  int positive;                /* float sums: inputs and e[j] are never negative */
  int loop, in_step;           /* the loop family; generating its step (leaves may be the running value) */
  gasp_str e;                  /* the expression being built */
} inst;

/* The snippets' register names (corpus_gen.c): input sets (set 0 the plain a, b, c, ...) and result names */
#define CORPUS_NAME_SETS 7
#define CORPUS_OUT_NAMES 8
extern const char *const corpus_name_sets[CORPUS_NAME_SETS][CORPUS_MAXIN];
extern const char *const corpus_out_names[CORPUS_OUT_NAMES];

static inline const char *tn(gasp_map_type t) { return gasp_map_type_name(t); }

/* Builds the instance's task (params, map) and its YAML and .cl texts under id. Returns 0; -1 when the tree does
 * not suit (an unused input, no ARB form): draw again; -2 when the expression does not parse (a generator bug,
 * described in why). */
int corpus_render_task(inst *x, const char *id, gasp_task *t, gasp_map *m, gasp_str *yaml, gasp_str *cl, gasp_str *why);

#endif
