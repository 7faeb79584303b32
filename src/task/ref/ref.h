/* CPU references: one C function per task computes the expected outputs from the inputs.
 * A reference sees the trial's buffers in parameter order (the task file's `params`), scalars by value,
 * and the launch geometry (block and grid, for per-block or per-warp results). It writes only the
 * buffers whose role is `out`. Compute in the precision the task states; tolerance covers the rest. */
#ifndef GASP_REF_H
#define GASP_REF_H

#include <stdint.h>

struct gasp_task;

#define GASP_REF_MAX_PARAMS 16

typedef struct {
  void *p[GASP_REF_MAX_PARAMS];        /* arrays: the elements; scalars: NULL */
  int64_t count[GASP_REF_MAX_PARAMS];  /* arrays: element counts */
  union { int64_t i; uint64_t u; double f; } s[GASP_REF_MAX_PARAMS]; /* scalars */
  uint32_t block[3], grid[3];
  const struct gasp_task *task;        /* the task, for generic references (refs_map.c reads its `map`) */
} gasp_ref_args;

typedef void (*gasp_ref_fn)(const gasp_ref_args *a);

typedef struct {
  const char *name;
  gasp_ref_fn fn;
} gasp_ref;

/* Finds a reference by name; NULL when there is none. */
gasp_ref_fn gasp_ref_find(const char *name);

/* Shorthands for reference bodies: F32(i) is param i as float*, and so on. */
#define F32(k_) ((float *)a->p[k_])
#define F64(k_) ((double *)a->p[k_])
#define S32(k_) ((int32_t *)a->p[k_])
#define U32(k_) ((uint32_t *)a->p[k_])
#define S64(k_) ((int64_t *)a->p[k_])
#define U64(k_) ((uint64_t *)a->p[k_])
#define N(k_) (a->count[k_])
#define SI(k_) (a->s[k_].i)
#define SF(k_) (a->s[k_].f)

/* Each refs_*.c file defines one table ending in {NULL, NULL}; refs.c lists the tables. */
extern const gasp_ref gasp_refs_elementwise[];
extern const gasp_ref gasp_refs_kernels[];
extern const gasp_ref gasp_refs_warp_block[];
extern const gasp_ref gasp_refs_arb[];
extern const gasp_ref gasp_refs_map[];

#endif
