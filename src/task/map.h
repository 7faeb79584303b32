/* Element-wise map expressions: the `map:` key of a task (tasks/README.md) states out[i] as a typed
 * S-expression over the task's parameters, e.g. "(fma.f32 a (at b 2 1) 1.5)". One parser serves the task
 * loader (validation), the generic CPU reference (src/task/ref/refs_map.c, exact IEEE semantics of each
 * operation) and the corpus generator (canonical forms, to tell a generated task from a benchmark one). */
#ifndef GASP_MAP_H
#define GASP_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "ref/ref.h"
#include "task.h"

/* value types of a map expression: the task dtypes used here plus the predicate of a comparison */
typedef enum { GASP_MT_F32 = 0, GASP_MT_F64, GASP_MT_S32, GASP_MT_U32, GASP_MT_PRED } gasp_map_type;

typedef enum {
  GASP_MOP_LEAF = 0, /* element i of an `in` array, or a scalar parameter */
  GASP_MOP_AT,       /* element stride*i + offset of an `in` array */
  GASP_MOP_LIT,      /* a literal of the node's type */
  GASP_MOP_ADD, GASP_MOP_SUB, GASP_MOP_MUL, GASP_MOP_FMA, GASP_MOP_MIN, GASP_MOP_MAX, GASP_MOP_ABS, GASP_MOP_NEG,
  GASP_MOP_SQRT, GASP_MOP_DIV, GASP_MOP_REM, GASP_MOP_AND, GASP_MOP_OR, GASP_MOP_XOR, GASP_MOP_SHL, GASP_MOP_SHR,
  GASP_MOP_LRP, GASP_MOP_LT, GASP_MOP_LE, GASP_MOP_GT, GASP_MOP_GE, GASP_MOP_EQ, GASP_MOP_NE, GASP_MOP_SEL,
  GASP_MOP_CVT,
  GASP_MOP_POPC,     /* s32/u32: the number of 1 bits (popc.b32, v_bcnt_u32_b32) */
  /* group forms, only at the root: the inner expression e[j] combined over a group of elements */
  GASP_MOP_WRED,     /* out[w] = e over the warp w (32 consecutive elements), combined by `red` */
  GASP_MOP_BRED,     /* out[b] = e over block b (blockDim.x consecutive elements) */
  GASP_MOP_WSCAN,    /* out[i] = inclusive prefix of e within i's warp */
  GASP_MOP_BSCAN,    /* out[i] = inclusive prefix of e within i's block */
  GASP_MOP_BXSCAN,   /* out[i] = exclusive prefix of e within i's block (the identity first) */
  GASP_MOP_TR,       /* out[c*rows + r] = e[r*cols + c]: a transpose (scalars rows and cols) */
  /* a loop, only at the root: (loop.T count init step): v = init, then count times v = step, out[i] = v */
  GASP_MOP_LOOP,
  GASP_MOP_ACC,      /* inside a loop's step: the running value v */
  GASP_MOP_COUNT
} gasp_map_op;

#define GASP_MAP_MAX_NODES 64

typedef struct {
  gasp_map_op op;
  gasp_map_type type;    /* the result type (PRED for comparisons) */
  gasp_map_type src;     /* cvt: the source type; comparisons: the operand type */
  int kid[3], nkids;     /* indices into the node array */
  int param;             /* LEAF, AT: the parameter index */
  int64_t stride, offset;/* AT */
  double lit;            /* LIT: the value (f32 literals are already rounded to float) */
  gasp_map_op red;       /* group forms: ADD, MIN or MAX */
  uint32_t ilit;         /* LIT: integer types, the 32-bit pattern */
} gasp_map_node;

typedef struct {
  gasp_map_node n[GASP_MAP_MAX_NODES];
  int count, root;
  int out;               /* the index of the task's one `out` parameter */
} gasp_map;

/* Semantics (each operation rounds once, to nearest even; integers wrap modulo 2^32):
 *  add sub mul fma(a,b,c)=a*b+c (float: fused, rounded once; int: low 32 bits) min max (float: IEEE 754-2019
 *  minimumNumber/maximumNumber, a NaN operand gives the other, -0 below +0) abs neg sqrt (float) div (float;
 *  int: by a nonzero literal, not -1, truncating) rem (int, by a positive literal, C's sign) and or xor shl shr
 *  (int; amount & 31; shr is arithmetic on s32) lrp(t,x,y) = y + t*(x - y) (float, three roundings) lt le gt
 *  ge eq ne (ordered: false with a NaN, except ne) sel(p,x,y) cvt.D.S (f32<-s32/u32/f64 and f64<-f32/s32
 *  round to nearest; s32<-f32/f64 truncates, saturating, NaN gives 0).
 * Group forms at the root (tasks/README.md): (wred_OP.T e) (bred_OP.T e) (wscan_OP.T e) (bscan_OP.T e)
 * (bxscan_OP.T e) with OP add, min or max need the scalar n; (tr.T e) needs the scalars rows and cols. A warp
 * is 32 consecutive elements, a block blockDim.x; missing elements (j >= n) take no part.
 * (loop.T count init step) at the root: v = init; then `count` (a u32 expression, at most 64) times v = step,
 * where step names v as `acc`; out[i] = v.
 * Parses text against the task's parameters; returns 0, or -1 with a message (err) and the 0-based column
 * of the problem (*col). The expression's type must be the `out` parameter's type. */
int gasp_map_parse(const char *text, const gasp_task *task, gasp_map *m, int *col, char *err, size_t errcap);

/* The op's name in expressions ("add", "cvt", ...). */
const char *gasp_map_op_name(gasp_map_op op);
const char *gasp_map_type_name(gasp_map_type t);

/* Element i of the result (an array index past the array's end reads 0). The buffers, counts and scalars
 * are a reference's arguments, in parameter order. */
typedef union { float f32; double f64; int32_t s32; uint32_t u32; int pred; } gasp_map_value;
gasp_map_value gasp_map_eval(const gasp_map *m, const gasp_task *task, const gasp_ref_args *a, int64_t i);
/* The same for any node (a group form's inner expression: node m->n[m->root].kid[0]). */
gasp_map_value gasp_map_eval_node(const gasp_map *m, int node, const gasp_task *task, const gasp_ref_args *a, int64_t i);
/* Whether op is a group form (WRED ... TR). */
int gasp_map_is_group(gasp_map_op op);
/* The group form's combination of two values of type t (ADD wraps for integers; MIN, MAX as min, max). */
gasp_map_value gasp_map_combine(gasp_map_op red, gasp_map_type t, gasp_map_value x, gasp_map_value y);
/* The identity of red for type t (add 0, min +inf / largest, max -inf / smallest). */
gasp_map_value gasp_map_identity(gasp_map_op red, gasp_map_type t);

/* The canonical form: `in` arrays renamed $0, $1 ... in parameter order, scalars replaced by their values,
 * operands of commutative operations sorted. Two tasks with one canonical form compute the same thing.
 * Returns a malloc'ed string. */
char *gasp_map_canonical(const gasp_map *m, const gasp_task *task);

#endif
