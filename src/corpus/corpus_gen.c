/* gasp corpus gen: task families written as templates. Each instance is one random expression tree (a
 * `map:` expression, src/task/map.h) over one to three input arrays, scalars and constants; the tree renders
 * to the description, the CUDA reference, the OpenCL C reference for the AMD targets and the ARB program
 * (corpus_render.c), and the generic CPU reference evaluates it. Deterministic for a seed (splitmix64). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus_int.h"

static const char *const families[] = {"ew_op", "ew_seq", "ew_kernel", "ew_gridstride", "arb", "reduce", "scan", "transpose",
                                       "loop", "ew_idiom", "ew_near", "ew_array", "ew_order", "ew_shape", "ew_kin",
                                       "ew_kin_order", "ew_array_near", NULL};
enum { F_OP, F_SEQ, F_KERNEL, F_GRIDSTRIDE, F_ARB, F_REDUCE, F_SCAN, F_TRANSPOSE, F_LOOP, F_IDIOM, F_NEAR, F_ARRAY, F_ORDER,
       F_SHAPE, F_KIN, F_KIN_ORDER, F_ARRAY_NEAR };
/* shares of --count, in percent of their sum, in the order above */
static const int family_weight[] = {12, 22, 18, 8, 14, 8, 6, 6, 6, 14, 10, 10, 10, 14, 10, 10, 10};
/* in the default set (no --families): a family added to it would change what every documented `--seed S --count N`
 * writes, so later families are made only when named */
static const int family_default[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0};

_Static_assert(sizeof family_weight / sizeof *family_weight == sizeof families / sizeof *families - 1 &&
                   sizeof family_default == sizeof family_weight,
               "a weight and a default for every family");
_Static_assert(sizeof families / sizeof *families - 1 <= sizeof ((gasp_corpus_gen_stats *)0)->per_family / sizeof(int),
               "per_family (corpus.h) holds every family");

const char *const *gasp_corpus_families(void) { return families; }

/* ---- randomness ---- */

typedef struct {
  uint64_t s;
} rng;

static uint64_t next(rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static int rnd(rng *r, int n) { return (int)(next(r) % (uint64_t)n); }
static int chance(rng *r, int percent) { return rnd(r, 100) < percent; }


static const char *const flits[] = {"0.5", "1.5", "2", "3", "0.25", "-1", "0.125", "10", "0.1", "-2.5", "4", "0.75", "100", "0.001", "-0.5", "1"};
static const char *const ilits[] = {"1", "2", "3", "5", "7", "8", "13", "16", "31", "100", "255", "1000", "-1", "-7", "65535", "12345"};

static void put_lit(inst *x, rng *r, gasp_map_type t) {
  if (t == GASP_MT_F32 || t == GASP_MT_F64) gasp_str_puts(&x->e, flits[rnd(r, 16)]);
  else if (t == GASP_MT_U32) gasp_str_puts(&x->e, ilits[rnd(r, 12)]);
  else gasp_str_puts(&x->e, ilits[rnd(r, 16)]);
}

/* a value of type t from the inputs: an input of that type (strided when set), a conversion of an input of
 * another type, or the scalar */
static int put_input(inst *x, rng *r, gasp_map_type t) {
  int cand[CORPUS_MAXIN + 1], nc = 0;
  for (int k = 0; k < x->nin; k++) {
    int fa = x->in_type[k] == GASP_MT_F32 || x->in_type[k] == GASP_MT_F64, fb = t == GASP_MT_F32 || t == GASP_MT_F64;
    if (x->in_type[k] == t || fa || fb) cand[nc++] = k; /* no integer-to-integer conversions */
  }
  if (x->has_scalar) cand[nc++] = CORPUS_SCALAR;
  if (!nc) {
    put_lit(x, r, t);
    return 0;
  }
  /* prefer inputs not used yet, so that every parameter appears */
  int pick = -1;
  for (int tries = 0; tries < 4 && pick < 0; tries++) {
    int c = cand[rnd(r, nc)];
    if (!x->used[c] || tries == 3) pick = c;
  }
  x->used[pick] = 1;
  if (pick == CORPUS_SCALAR) {
    gasp_str_puts(&x->e, x->scalar_name);
    return 0;
  }
  gasp_map_type it = x->in_type[pick];
  int conv = it != t;
  if (conv) gasp_str_printf(&x->e, "(cvt.%s.%s ", tn(t), tn(it));
  if (x->stride[pick] != 1 || x->offset[pick] != 0)
    gasp_str_printf(&x->e, "(at %s %d %d)", x->in_name[pick], x->stride[pick], x->offset[pick]);
  else
    gasp_str_puts(&x->e, x->in_name[pick]);
  if (conv) gasp_str_puts(&x->e, ")");
  return 0;
}

static void leaf(inst *x, rng *r, gasp_map_type t, int allow_lit) {
  if (x->in_step && chance(r, 40)) gasp_str_puts(&x->e, "acc");
  else if (allow_lit && chance(r, 25)) put_lit(x, r, t);
  else put_input(x, r, t);
}

static void gen(inst *x, rng *r, gasp_map_type t, int depth, int allow_lit);

/* Generates an operand that must differ from the one at [a0, a1) of the expression (x - x, min(a, a) and
 * sel(p, v, v) say nothing): a repeat is replaced by a literal. Returns where the operand starts. */
static size_t gen_other(inst *x, rng *r, gasp_map_type t, int depth, int allow_lit, size_t a0, size_t a1) {
  size_t b0 = x->e.len;
  gen(x, r, t, depth, allow_lit);
  size_t b1 = x->e.len;
  if (b1 - b0 == a1 - a0 && !memcmp(x->e.data + a0, x->e.data + b0, a1 - a0)) {
    x->e.len = b0;
    x->e.data[b0] = 0;
    put_lit(x, r, t);
  }
  return b0;
}

/* Two operands separated by a space, the second one different from the first (gen_other). */
static void gen_pair(inst *x, rng *r, gasp_map_type t, int depth, int lit_first, int lit_second) {
  size_t a0 = x->e.len;
  gen(x, r, t, depth, lit_first);
  size_t a1 = x->e.len;
  gasp_str_puts(&x->e, " ");
  gen_other(x, r, t, depth, lit_second, a0, a1);
}

/* one operation of type t with generated operands */
static void gen_op(inst *x, rng *r, gasp_map_type t, int depth) {
  int fl = t == GASP_MT_F32 || t == GASP_MT_F64;
  x->ops++;
  if (x->kind == GASP_RENDER_ARB) {
    /* ARB_vertex_program has no LRP and no CMP */
    static const char *const arb_ops[] = {"add", "sub", "mul", "min", "max", "abs", "neg", "mad", "slt", "sge", "lrp", "cmp"};
    const char *op = arb_ops[rnd(r, x->vertex ? 10 : 12)];
    if (!strcmp(op, "abs") || !strcmp(op, "neg")) {
      gasp_str_printf(&x->e, "(%s.f32 ", op);
      gen(x, r, t, depth - 1, 0);
    } else if (!strcmp(op, "mad")) {
      gasp_str_puts(&x->e, "(add.f32 (mul.f32 ");
      x->ops++;
      gen_pair(x, r, t, depth - 1, 0, 1);
      gasp_str_puts(&x->e, ") ");
      gen(x, r, t, depth - 1, 1);
    } else if (!strcmp(op, "lrp")) {
      gasp_str_puts(&x->e, "(lrp.f32 ");
      put_input(x, r, t);
      gasp_str_puts(&x->e, " ");
      gen_pair(x, r, t, depth - 1, 0, 1);
    } else if (!strcmp(op, "cmp")) {
      gasp_str_puts(&x->e, "(sel.f32 (lt.f32 ");
      gen(x, r, t, depth - 1, 0);
      gasp_str_puts(&x->e, " 0) ");
      gen_pair(x, r, t, depth - 1, 1, 0);
    } else if (!strcmp(op, "slt") || !strcmp(op, "sge")) {
      gasp_str_printf(&x->e, "(sel.f32 (%s.f32 ", op[1] == 'l' ? "lt" : "ge");
      gen_pair(x, r, t, depth - 1, 0, 1);
      gasp_str_puts(&x->e, ") 1 0");
    } else {
      gasp_str_printf(&x->e, "(%s.f32 ", op);
      gen_pair(x, r, t, depth - 1, 0, 1);
    }
    gasp_str_puts(&x->e, ")");
    return;
  }
  static const char *const f_ops[] = {"add", "sub", "mul", "fma", "min", "max", "abs", "neg", "sqrt", "div", "sel", "add", "mul", "fma"};
  static const char *const i_ops[] = {"add", "sub", "mul", "fma", "min", "max", "abs", "neg", "and", "or", "xor", "shl", "shr", "div", "rem", "sel"};
  const char *op = fl ? f_ops[rnd(r, 14)] : i_ops[rnd(r, 16)];
  /* u32 has no abs: a population count instead (popc_b32's operation, so far in no generated task) */
  if (!strcmp(op, "abs") && t == GASP_MT_U32) op = "popc";
  if (x->level == 0 && !strcmp(op, "sel")) op = "min"; /* L0 is one instruction: a select needs a compare too */
  if (!strcmp(op, "abs") || !strcmp(op, "neg") || !strcmp(op, "popc")) {
    gasp_str_printf(&x->e, "(%s.%s ", op, tn(t));
    gen(x, r, t, depth - 1, 0);
  } else if (!strcmp(op, "sqrt")) {
    /* sqrt of |x| mostly, so that most results are numbers */
    int ab = x->level > 0 && chance(r, 70);
    gasp_str_printf(&x->e, "(sqrt.%s %s", tn(t), ab ? "(abs." : "");
    if (ab) gasp_str_printf(&x->e, "%s ", tn(t));
    gen(x, r, t, depth - 1, 0);
    if (ab) gasp_str_puts(&x->e, ")");
  } else if (!strcmp(op, "fma")) {
    gasp_str_printf(&x->e, "(fma.%s ", tn(t));
    gen_pair(x, r, t, depth - 1, 0, 1);
    gasp_str_puts(&x->e, " ");
    gen(x, r, t, depth - 1, 1);
  } else if (!strcmp(op, "sel")) {
    static const char *const cmps[] = {"lt", "le", "gt", "ge", "eq", "ne"};
    gasp_str_printf(&x->e, "(sel.%s (%s.%s ", tn(t), cmps[rnd(r, fl ? 4 : 6)], tn(t));
    gen_pair(x, r, t, depth - 1, 0, 1);
    gasp_str_puts(&x->e, ") ");
    gen_pair(x, r, t, depth - 1, 1, 1);
  } else if (!fl && (!strcmp(op, "div") || !strcmp(op, "rem"))) {
    gasp_str_printf(&x->e, "(%s.%s ", op, tn(t));
    gen(x, r, t, depth - 1, 0);
    gasp_str_printf(&x->e, " %d", 2 + rnd(r, 96));
  } else if (!strcmp(op, "shl") || !strcmp(op, "shr")) {
    gasp_str_printf(&x->e, "(%s.%s ", op, tn(t));
    gen(x, r, t, depth - 1, 0);
    if (chance(r, 70)) gasp_str_printf(&x->e, " %d", 1 + rnd(r, 31));
    else {
      gasp_str_puts(&x->e, " ");
      gen(x, r, t, depth - 1, 0);
    }
  } else {
    gasp_str_printf(&x->e, "(%s.%s ", op, tn(t));
    gen_pair(x, r, t, depth - 1, 0, 1);
  }
  gasp_str_puts(&x->e, ")");
}

static void gen(inst *x, rng *r, gasp_map_type t, int depth, int allow_lit) {
  if (depth <= 0 || x->ops >= x->max_ops || chance(r, 30)) leaf(x, r, t, allow_lit);
  else gen_op(x, r, t, depth);
}

/* L0: exactly one operation on inputs (and at most one literal) */
static void gen_single(inst *x, rng *r) {
  gasp_map_type t = x->type;
  if (x->in_type[0] != t) {
    gasp_str_printf(&x->e, "(cvt.%s.%s %s)", tn(t), tn(x->in_type[0]), x->in_name[0]);
    x->used[0] = 1;
    return;
  }
  x->max_ops = 1;
  gen_op(x, r, t, 1);
}


/* The group families: f32, s32, u32 (the warp shuffles move 32-bit values), no scalars, no strides. */
static void draw_group(inst *x, rng *r, int fam) {
  static const gasp_map_type types[] = {GASP_MT_F32, GASP_MT_F32, GASP_MT_F32, GASP_MT_F32, GASP_MT_F32,
                                        GASP_MT_S32, GASP_MT_S32, GASP_MT_S32, GASP_MT_U32, GASP_MT_U32};
  x->type = types[rnd(r, 10)];
  x->has_scalar = 0;
  x->nin = fam == F_TRANSPOSE ? 1 + rnd(r, 2) : 1 + rnd(r, 2);
  for (int k = 0; k < 3; k++) {
    x->stride[k] = 1;
    x->offset[k] = 0;
    gasp_strlcpy(x->in_name[k], (const char *[]){"x", "y", "z"}[k], sizeof x->in_name[k]);
    x->in_type[k] = x->type;
  }
  /* a conversion now and then, f32 <-> s32 only */
  if (chance(r, 15)) x->in_type[x->nin - 1] = x->type == GASP_MT_F32 ? GASP_MT_S32 : GASP_MT_F32;
  x->red = (gasp_map_op)(chance(r, 50) ? GASP_MOP_ADD : chance(r, 50) ? GASP_MOP_MIN : GASP_MOP_MAX);
  x->max_ops = rnd(r, 4);
  if (fam == F_REDUCE) {
    x->group = chance(r, 50) ? GASP_MOP_WRED : GASP_MOP_BRED;
    x->level = x->group == GASP_MOP_WRED ? 4 : 5;
  } else if (fam == F_SCAN) {
    int k = rnd(r, 10);
    x->group = k < 4 ? GASP_MOP_WSCAN : k < 7 ? GASP_MOP_BSCAN : GASP_MOP_BXSCAN;
    x->level = x->group == GASP_MOP_WSCAN ? 4 : 5;
  } else {
    x->group = GASP_MOP_TR;
    x->red = GASP_MOP_ADD;
    x->smem = chance(r, 50);
    x->level = x->smem ? 5 : 2;
  }
  /* float sums: the order is free, so the values must not cancel: positive inputs, e from positive templates */
  x->positive = x->group != GASP_MOP_TR && x->red == GASP_MOP_ADD && x->type == GASP_MT_F32;
  if (x->positive)
    for (int k = 0; k < 3; k++) x->in_type[k] = GASP_MT_F32;
}

/* e[j] for a float sum: never negative when the inputs are not */
static void gen_positive(inst *x, rng *r) {
  static const char *const one[] = {"%s", "(mul.f32 %s %s)", "(abs.f32 %s)", "(sqrt.f32 %s)", "(mul.f32 %s 0.5)", "(add.f32 %s 1)"};
  static const char *const two[] = {"(mul.f32 %s %s)", "(add.f32 %s %s)", "(max.f32 %s %s)", "(min.f32 %s %s)",
                                    "(fma.f32 %s %s 0.25)", "(sqrt.f32 (mul.f32 %s %s))"};
  const char *a = x->in_name[0], *b = x->in_name[x->nin > 1 ? 1 : 0];
  x->used[0] = 1;
  if (x->nin > 1) {
    x->used[1] = 1;
    gasp_str_printf(&x->e, two[rnd(r, 6)], a, b);
  } else {
    gasp_str_printf(&x->e, one[rnd(r, 6)], a, a);
  }
}

/* ---- snippet names ---- */

/* A snippet's registers are named after its parameters (%ax in PTX; v2.. in order on AMD), so names and counts
 * vary: a model trained on a, b, c -> d alone writes d and v3..v5 whatever the prompt says (seen on the
 * benchmark's dot3, whose six inputs put the result in v8). None of these names is a PTX special register, a
 * temporary of the reference snippets (%t<k>, %p<k>), the size parameter n or a C keyword. */
const char *const corpus_name_sets[CORPUS_NAME_SETS][CORPUS_MAXIN] = {
    {"a", "b", "c", "e", "f", "g"} /* the plain names: set 0 */,       {"x", "y", "z", "u", "v", "s"},       {"ax", "ay", "az", "bx", "by", "bz"},
    {"x0", "x1", "x2", "x3", "x4", "x5"}, {"in0", "in1", "in2", "in3", "in4", "in5"}, {"u", "v", "w", "q", "m", "h"},
    {"src", "lo", "hi", "k", "j", "g"}};
const char *const corpus_out_names[CORPUS_OUT_NAMES] = {"d", "r", "y", "res", "out", "o", "dst", "z"};

/* Names the inputs and the result: the plain a, b, c -> d in plain_percent of instances, else a drawn set and a
 * result name that no input has. */
static void name_snippet(inst *x, rng *r, int plain_percent) {
  if (chance(r, plain_percent)) return;
  int set = rnd(r, CORPUS_NAME_SETS);
  for (int k = 0; k < x->nin; k++) gasp_strlcpy(x->in_name[k], corpus_name_sets[set][k], sizeof x->in_name[k]);
  for (int tries = 0; tries < 16; tries++) {
    const char *o = corpus_out_names[rnd(r, CORPUS_OUT_NAMES)];
    int clash = 0;
    for (int k = 0; k < x->nin; k++) clash |= !strcmp(o, x->in_name[k]);
    if (!clash) {
      gasp_strlcpy(x->out_name, o, sizeof x->out_name);
      return;
    }
  }
}

/* ---- the idiom family: the short computations kernels are made of ---- */

/* Templates in the map language (src/task/map.h). $T: the type; $0..$5: the inputs (every one of them used);
 * $F: a float constant, $P: a small positive one; $L/$H: the low and high bound of a clamp; $I: an integer
 * constant (non-negative for u32); $S: a shift amount and $R: 32 minus it; $M: a bit mask; $D: a divisor.
 * The benchmark's own L1 computations (dot3, lerp, horner, ...) are among the forms, with other orders,
 * constants and names; gasp_corpus_is_bench_computation skips an instance equal to one of them. */
static const char *const f_idioms[] = {
    "(fma.$T $1 $3 (mul.$T $0 $2))",
    "(add.$T (mul.$T $0 $2) (mul.$T $1 $3))",
    "(fma.$T $0 $3 (fma.$T $1 $4 (mul.$T $2 $5)))",
    "(add.$T (add.$T (mul.$T $0 $3) (mul.$T $1 $4)) (mul.$T $2 $5))",
    "(fma.$T $2 $5 (fma.$T $1 $4 (mul.$T $0 $3)))",
    "(fma.$T $2 $F (fma.$T $1 $F (mul.$T $0 $F)))",
    "(fma.$T $1 $F (mul.$T $0 $F))",
    "(fma.$T $2 (sub.$T $1 $0) $0)",
    "(add.$T $0 (mul.$T $2 (sub.$T $1 $0)))",
    "(fma.$T $P (sub.$T $1 $0) $0)",
    "(fma.$T $2 $1 (fma.$T (neg.$T $2) $0 $0))",
    "(min.$T (max.$T $0 $L) $H)",
    "(max.$T (min.$T $0 $H) $L)",
    "(min.$T (max.$T $0 $1) $2)",
    "(min.$T (max.$T $0 0) 1)",
    "(fma.$T (fma.$T $F $0 $F) $0 $F)",
    "(fma.$T (fma.$T (fma.$T $F $0 $F) $0 $F) $0 $F)",
    "(fma.$T (fma.$T (fma.$T (fma.$T $F $0 $F) $0 $F) $0 $F) $0 $F)",
    "(add.$T (mul.$T (add.$T (mul.$T $F $0) $F) $0) $F)",
    "(sel.$T (gt.$T $0 0) $0 (mul.$T $0 $P))",
    "(sel.$T (lt.$T $0 0) (mul.$T $0 $P) $0)",
    "(sel.$T (ge.$T $0 0) $0 (mul.$T $P $0))",
    "(sel.$T (lt.$T $0 0) -1 1)",
    "(sel.$T (lt.$T $0 0) (neg.$T $1) $1)",
    "(sel.$T (gt.$T $0 $1) $2 $3)",
    "(sel.$T (ge.$T $0 $F) $1 $2)",
    "(sel.$T (lt.$T $0 $1) $0 (mul.$T $1 $F))",
    "(abs.$T (sub.$T $0 $1))",
    "(mul.$T (add.$T $0 $1) 0.5)",
    "(fma.$T (sub.$T $0 $2) (sub.$T $0 $2) (mul.$T (sub.$T $1 $3) (sub.$T $1 $3)))",
    "(sqrt.$T (fma.$T $0 $0 (mul.$T $1 $1)))",
    "(sqrt.$T (fma.$T $2 $2 (fma.$T $1 $1 (mul.$T $0 $0))))",
    "(div.$T $0 (sqrt.$T (fma.$T $0 $0 (mul.$T $1 $1))))",
    "(add.$T (mul.$T $0 $F) $F)",
    "(sub.$T (fma.$T $0 $1 $2) $3)",
    "(add.$T (add.$T $0 $1) $2)",
    "(add.$T (add.$T (add.$T $0 $1) $2) $3)",
    "(min.$T (min.$T $0 $1) $2)",
    "(max.$T (max.$T $0 $1) $2)",
    "(mul.$T (mul.$T $0 $0) $0)",
    "(div.$T (sub.$T $0 $1) (sub.$T $2 $1))",
    "(mul.$T (sub.$T $0 $1) $F)",
    "(neg.$T (abs.$T $0))",
    "(sub.$T $P (abs.$T $0))",
    "(div.$T $0 (add.$T 1 (abs.$T $0)))",
    "(fma.$T $0 $1 (mul.$T $2 $3))",
    "(mul.$T (fma.$T $0 $1 $2) $F)",
    "(fma.$T $F (mul.$T $0 $1) (mul.$T $2 $F))",
};
/* "s32:" marks a form for s32 only (a sign, a negation) */
static const char *const i_idioms[] = {
    "(add.$T (mul.$T $0 $1) $2)",
    "(add.$T (mul.$T $0 $I) $1)",
    "(sub.$T (mul.$T $0 $1) $2)",
    "(add.$T (mul.$T $0 $1) (mul.$T $2 $3))",
    "(add.$T (add.$T $0 $1) $2)",
    "(add.$T (add.$T (add.$T $0 $1) $2) $3)",
    "(sel.$T (gt.$T $0 $1) (sub.$T $0 $1) (sub.$T $1 $0))",
    "(sub.$T (max.$T $0 $1) (min.$T $0 $1))",
    "(min.$T (max.$T $0 $L) $H)",
    "(and.$T (shr.$T $0 $S) $M)",
    "(or.$T (shl.$T $0 $S) (shr.$T $0 $R))",
    "(xor.$T $0 (shr.$T $0 $S))",
    "(xor.$T (shl.$T $0 $S) $1)",
    "(add.$T (shl.$T $0 $S) $0)",
    "(shr.$T (add.$T $0 $1) 1)",
    "(sel.$T (lt.$T $0 $1) $1 $0)",
    "(sel.$T (lt.$T $0 $I) $1 $2)",
    "(sel.$T (eq.$T (and.$T $0 1) 0) $1 $2)",
    "(add.$T (mul.$T (add.$T (mul.$T $0 $I) $I) $0) $I)",
    "(min.$T (min.$T $0 $1) $2)",
    "(max.$T (max.$T $0 $1) $2)",
    "(mul.$T (sub.$T $0 $1) (add.$T $0 $1))",
    "(and.$T (add.$T $0 $I) $M)",
    "(rem.$T (add.$T $0 $1) $D)",
    "(div.$T (mul.$T $0 $I) $D)",
    "(xor.$T (and.$T $0 $1) $2)",
    "(or.$T (and.$T $0 $M) (shl.$T $1 $S))",
    "s32:(sel.s32 (lt.s32 $0 0) (neg.s32 $0) $0)",
    "s32:(sel.s32 (lt.s32 $0 0) -1 (sel.s32 (gt.s32 $0 0) 1 0))",
    "s32:(abs.s32 (sub.s32 $0 $1))",
    "s32:(sel.s32 (lt.s32 $0 0) (sub.s32 0 $1) $1)",
};
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- the order family: the idioms' shapes with their operands in every order ----
 *
 * Why: the idiom templates put each shape's operands in one or two orders, and where one of them is a benchmark
 * computation (dot3's a*d first, lerp's fma(c, b - a, a), clamp's min(max(a, b), c)) the exclusion removes it and
 * leaves one order only. The tenth run's model wrote that order whatever the prompt said: on gfx1030 it answered dot3
 * with c*f first and lerp with a - b, 10 samples of 10, even with the benchmark's wording replaced by the corpus's
 * own numbered steps (tools/train/probe-wording.sh, PROBE=corpus, 2026-12-05), while renaming the registers changed
 * nothing (PROBE=names). It had learnt the shape, not to read the steps. These forms are the same shapes with the
 * pairs, roles and chain orders permuted, so that only the description tells them apart. Many are a benchmark L1
 * computation with its inputs exchanged (dot3's pairs in another chain order, lerp with its ends swapped). Trained
 * with those kept (KEEP_PERMUTED=o97 in tools/train, the eleventh run), the model answered clamp 0 of 10 in every
 * wording, the corpus's steps included, writing min(max(x, hi), lo), one of these forms: as with the one-instruction
 * permutations of the tenth run, a permuted benchmark computation teaches the permuted answer. So the tools reword
 * this family with --drop-permuted like every other, and what it adds is the forms that are no benchmark
 * permutation (the other pairings, the constants, the integer orders). The computations themselves stay excluded:
 * gasp_corpus_is_bench_computation skips an instance equal to a benchmark task. A separate table, so that the idiom
 * family's instances stay byte for byte what their seeds made. "i:" marks a form for the integer types, "f:" one for
 * the float types, else both. */
static const char *const order_forms[] = {
    /* three-term dot products: each of the six chain orders over the pairs (0,3) (1,4) (2,5), and over (0,1) (2,3) (4,5) */
    "f:(fma.$T $0 $3 (fma.$T $2 $5 (mul.$T $1 $4)))", "f:(fma.$T $1 $4 (fma.$T $0 $3 (mul.$T $2 $5)))",
    "f:(fma.$T $1 $4 (fma.$T $2 $5 (mul.$T $0 $3)))", "f:(fma.$T $2 $5 (fma.$T $0 $3 (mul.$T $1 $4)))",
    "f:(fma.$T $0 $3 (fma.$T $1 $4 (mul.$T $2 $5)))", "f:(fma.$T $4 $5 (fma.$T $2 $3 (mul.$T $0 $1)))",
    "f:(fma.$T $0 $1 (fma.$T $2 $3 (mul.$T $4 $5)))", "f:(fma.$T $2 $3 (fma.$T $4 $5 (mul.$T $0 $1)))",
    "f:(fma.$T $0 $1 (fma.$T $4 $5 (mul.$T $2 $3)))",
    "f:(add.$T (add.$T (mul.$T $2 $5) (mul.$T $1 $4)) (mul.$T $0 $3))",
    "f:(add.$T (add.$T (mul.$T $0 $3) (mul.$T $2 $5)) (mul.$T $1 $4))",
    "i:(add.$T (add.$T (mul.$T $0 $3) (mul.$T $1 $4)) (mul.$T $2 $5))",
    "i:(add.$T (mul.$T $2 $5) (add.$T (mul.$T $1 $4) (mul.$T $0 $3)))",
    /* two-term ones */
    "f:(fma.$T $0 $2 (mul.$T $1 $3))", "f:(fma.$T $1 $3 (mul.$T $0 $2))", "f:(fma.$T $2 $3 (mul.$T $0 $1))",
    "f:(fma.$T $0 $1 (mul.$T $2 $3))",
    /* interpolations: fma(w, y - x, x) with the weight, the ends and the subtraction's order permuted */
    "f:(fma.$T $2 (sub.$T $0 $1) $1)", "f:(fma.$T $0 (sub.$T $2 $1) $1)", "f:(fma.$T $0 (sub.$T $1 $2) $2)",
    "f:(fma.$T $1 (sub.$T $2 $0) $0)", "f:(fma.$T $1 (sub.$T $0 $2) $2)", "f:(fma.$T $2 (sub.$T $1 $0) $1)",
    "f:(fma.$T $2 (sub.$T $0 $1) $0)", "f:(fma.$T $2 (add.$T $1 $0) $0)", "f:(fma.$T $2 (sub.$T $1 $0) $P)",
    "f:(fma.$T $P (sub.$T $0 $1) $1)", "f:(add.$T $1 (mul.$T $2 (sub.$T $0 $1)))",
    "i:(add.$T $0 (mul.$T $2 (sub.$T $1 $0)))", "i:(add.$T $1 (mul.$T $0 (sub.$T $2 $1)))",
    /* clamps: which input is bounded, and by which bound first */
    "(min.$T (max.$T $0 $2) $1)", "(min.$T (max.$T $1 $2) $0)", "(max.$T (min.$T $0 $2) $1)",
    "(max.$T (min.$T $0 $1) $2)", "(max.$T (min.$T $1 $2) $0)", "(min.$T (max.$T $1 $L) $H)",
    "(max.$T (min.$T $0 $H) $L)", "(min.$T (max.$T $0 $L) $1)", "(max.$T (min.$T $0 $H) $1)",
    "(min.$T $H (max.$T $0 $1))",
    /* polynomials by Horner's rule, the constants of either sign */
    "f:(fma.$T (fma.$T (fma.$T $G $0 $G) $0 $G) $0 $G)", "f:(fma.$T (fma.$T $G $0 $G) $0 $G)",
    "f:(fma.$T $0 (fma.$T $0 (fma.$T $G $0 $G) $G) $G)", "f:(fma.$T (fma.$T (fma.$T $0 $G $G) $0 $G) $0 $G)",
    /* no permutation of a one-instruction computation (fma_f32, mad_s32): a corpus of those taught the models to
     * answer them permuted (tools/train/README.md, "The tenth run") */
};

/* ---- the shape family (ew_shape): ew_idiom's templates, each as often as the others ----
 *
 * Why: gasp corpus gen skips an instance whose computation (canonical form, names ignored) it wrote before. A
 * polynomial's four constants from twenty give thousands of different computations; a clamp between one of eight
 * bound pairs gives a few dozen. So the idiom family, drawn uniformly over its templates, keeps mostly the
 * high-entropy ones: of the 8,953 ew_idiom tasks of the sets base, s81, s83, i96 and c101, 32.5% are chains of fmas
 * and 2.1% clamps, 1.1% absolute values, 1.0% interpolations (tools/train/README.md, "The fourteenth run"). Those
 * are the shapes of the benchmark's L1 tasks that no model passes (clamp_f32, abs_diff_u32, lerp_f32). This family
 * draws the same templates, but an instance counts as new under other register names, as in ew_op and ew_order, so
 * that each template keeps its share. Made only when named. */
static void idiom(inst *x, rng *r, int order) {
  static const char *const fk[] = {"0.5", "0.25", "2", "3", "1.5", "-1", "-0.5", "0.75", "10", "0.1",
                                   "4", "-2", "0.125", "100", "0.01", "1.25", "-3", "0.2", "5", "0.3"};
  static const char *const pk[] = {"0.01", "0.1", "0.2", "0.25", "0.5", "0.3", "0.05", "0.125"};
  /* the order family's polynomial coefficients: each magnitude with either sign */
  static const char *const gk[] = {"0.5", "-0.5", "1.25", "-1.25", "2", "-2", "0.75", "-0.75", "3",
                                   "-3", "1.5", "-1.5", "0.25", "-0.25", "4", "-4", "0.1", "-0.1"};
  static const char *const flo[] = {"-1", "0", "-0.5", "0", "-2", "0.1", "-10", "0"},
                           *const fhi[] = {"1", "1", "0.5", "6", "2", "0.9", "10", "255"};
  static const char *const ik[] = {"2", "3", "5", "7", "13", "17", "31", "100", "255", "1000"}, *const ikn[] = {"-1", "-7", "-3"};
  static const char *const ilo[] = {"0", "10", "0", "1", "-100", "-1"}, *const ihi[] = {"255", "1000", "65535", "31", "100", "1"};
  static const char *const masks[] = {"1", "3", "7", "15", "255", "65535", "1023"};
  int fl = chance(r, 55);
  const char *tmpl;
  if (order) {
    do tmpl = order_forms[rnd(r, NELEM(order_forms))];
    while ((fl && !strncmp(tmpl, "i:", 2)) || (!fl && !strncmp(tmpl, "f:", 2)));
    if (tmpl[1] == ':') tmpl += 2;
    x->type = fl ? (chance(r, 10) ? GASP_MT_F64 : GASP_MT_F32) : chance(r, 50) ? GASP_MT_S32 : GASP_MT_U32;
  } else if (fl) {
    x->type = chance(r, 10) ? GASP_MT_F64 : GASP_MT_F32;
    tmpl = f_idioms[rnd(r, NELEM(f_idioms))];
  } else {
    x->type = chance(r, 50) ? GASP_MT_S32 : GASP_MT_U32;
    tmpl = i_idioms[rnd(r, NELEM(i_idioms))];
    if (!strncmp(tmpl, "s32:", 4)) {
      x->type = GASP_MT_S32;
      tmpl += 4;
    }
  }
  int s32 = x->type == GASP_MT_S32, pair = s32 ? rnd(r, 6) : rnd(r, 4), shift = 1 + rnd(r, 31);
  if (fl) pair = rnd(r, NELEM(flo));
  x->nin = 0;
  for (const char *p = tmpl; *p; p++)
    if (*p == '$' && p[1] >= '0' && p[1] <= '5' && p[1] - '0' + 1 > x->nin) x->nin = p[1] - '0' + 1;
  for (int k = 0; k < x->nin; k++) {
    gasp_strlcpy(x->in_name[k], corpus_name_sets[0][k], sizeof x->in_name[k]);
    x->in_type[k] = x->type;
  }
  name_snippet(x, r, 25);
  for (const char *p = tmpl; *p; p++) {
    if (*p != '$') {
      gasp_str_printf(&x->e, "%c", *p);
      continue;
    }
    char c = *++p;
    if (c >= '0' && c <= '5') {
      gasp_str_puts(&x->e, x->in_name[c - '0']);
      x->used[c - '0'] = 1;
    } else if (c == 'T') gasp_str_puts(&x->e, tn(x->type));
    else if (c == 'F') gasp_str_puts(&x->e, fk[rnd(r, NELEM(fk))]);
    else if (c == 'P') gasp_str_puts(&x->e, pk[rnd(r, NELEM(pk))]);
    else if (c == 'G') gasp_str_puts(&x->e, gk[rnd(r, NELEM(gk))]);
    else if (c == 'L') gasp_str_puts(&x->e, fl ? flo[pair] : ilo[pair]);
    else if (c == 'H') gasp_str_puts(&x->e, fl ? fhi[pair] : ihi[pair]);
    else if (c == 'I') gasp_str_puts(&x->e, s32 && chance(r, 25) ? ikn[rnd(r, NELEM(ikn))] : ik[rnd(r, NELEM(ik))]);
    else if (c == 'S') gasp_str_printf(&x->e, "%d", shift);
    else if (c == 'R') gasp_str_printf(&x->e, "%d", 32 - shift);
    else if (c == 'M') gasp_str_puts(&x->e, masks[rnd(r, NELEM(masks))]);
    else if (c == 'D') gasp_str_printf(&x->e, "%d", 2 + rnd(r, 96));
  }
}

/* ---- the near family: the benchmark's one-instruction computations at another type or operand order ----
 *
 * Why: corpus_exclude.c keeps the benchmark's computations out of the corpus, and so leaves a hole exactly where
 * they are. No generated L0 task converts an s32 to f32, adds the last of three f32 inputs in an fma, or shifts the
 * first of two u32 inputs by the second, and a model trained on such a corpus learns the hole: the ninth run's
 * models answered fma_f32 with the addend anywhere but last and cvt_f32_s32 with a conversion to or from f64, 10
 * samples of 10 (models/train-2026-12-04-run9/ptx-r2.jsonl.xz). These forms fill the surroundings of the hole, not
 * the hole: the same shape at another type, the same types with the operands in another order, or the operation
 * inside a two-step sequence. gasp_corpus_is_bench_computation still skips any
 * instance equal to a benchmark task. Each form is "OUT IN0 IN1 ...|expression" over $0..$5.
 * f64 forms make PTX pairs only (the AMD emulator does not run f64), so every f64 form has an f32 or integer
 * sibling. */
static const char *const near_forms[] = {
    /* fma_f32 and mad_s32 (a * b + c, the addend last): other types, other orders */
    "f64 f64 f64 f64|(fma.f64 $0 $1 $2)",
    "u32 u32 u32 u32|(fma.u32 $0 $1 $2)",
    "f32 f32 f32 f32|(fma.f32 $1 $2 $0)",
    "f32 f32 f32 f32|(fma.f32 $0 $2 $1)",
    "s32 s32 s32 s32|(fma.s32 $1 $2 $0)",
    "s32 s32 s32 s32|(fma.s32 $0 $2 $1)",
    "f32 f32 f32 f32 f32|(fma.f32 $0 $1 (add.f32 $2 $3))",
    "f32 f32 f32 f32 f32|(fma.f32 $0 $1 (mul.f32 $2 $3))",
    /* cvt_f32_s32: the other conversions, and s32 -> f32 as one step of two */
    "f32 u32|(cvt.f32.u32 $0)",
    "f64 s32|(cvt.f64.s32 $0)",
    "f64 u32|(cvt.f64.u32 $0)",
    "s32 f32|(cvt.s32.f32 $0)",
    "u32 f32|(cvt.u32.f32 $0)",
    "f32 f64|(cvt.f32.f64 $0)",
    "f32 s32 f32|(add.f32 (cvt.f32.s32 $0) $1)",
    "f32 s32 f32|(mul.f32 (cvt.f32.s32 $0) $1)",
    "f32 s32 s32|(cvt.f32.s32 (add.s32 $0 $1))",
    "f32 s32 s32|(cvt.f32.s32 (sub.s32 $0 $1))",
    /* shl_b32 (a << (b & 31) on u32): s32, the operands swapped, right shifts, the amount computed */
    "s32 s32 s32|(shl.s32 $0 $1)",
    "u32 u32 u32|(shl.u32 $1 $0)",
    "u32 u32 u32|(shr.u32 $0 $1)",
    "s32 s32 s32|(shr.s32 $0 $1)",
    "u32 u32 u32 u32|(shl.u32 (xor.u32 $0 $1) $2)",
    "u32 u32 u32 u32|(shl.u32 $0 (add.u32 $1 $2))",
    /* popc_b32: the count of a computed value */
    "u32 u32 u32|(popc.u32 (and.u32 $0 $1))",
    "u32 u32 u32|(popc.u32 (xor.u32 $0 $1))",
    /* mul_lo_s32, add_s32, xor_b32, sub: the other integer type */
    "u32 u32 u32|(mul.u32 $0 $1)",
    "u32 u32 u32|(add.u32 $0 $1)",
    "s32 s32 s32|(xor.s32 $0 $1)",
    "s32 s32 s32|(sub.s32 $0 $1)",
    "u32 u32 u32|(sub.u32 $0 $1)",
    /* the f32 rows at f64, and sub with its operands swapped */
    "f64 f64 f64|(add.f64 $0 $1)",
    "f64 f64 f64|(sub.f64 $0 $1)",
    "f64 f64 f64|(mul.f64 $0 $1)",
    "f64 f64 f64|(min.f64 $0 $1)",
    "f64 f64 f64|(max.f64 $0 $1)",
    "f64 f64|(abs.f64 $0)",
    "f64 f64|(neg.f64 $0)",
    "f64 f64|(sqrt.f64 $0)",
    "s32 s32|(abs.s32 $0)",
    "s32 s32|(neg.s32 $0)",
    "f32 f32 f32|(sub.f32 $1 $0)",
};

/* ---- the kin family: the L1 computations no model passes, at the types the benchmark does not use ----
 *
 * Why: clamp_f32, lerp_f32, dot3, select_sign and abs_diff_u32 have never passed (the fifteenth run: round 13 once,
 * clamp on gfx1100). The exclusion removes each in every operand order of its own type, and what stays of its
 * structure is rare: with names counted as positions, the corpus's f32 three-input clamps are all "max of a min"
 * (a model answers those 2-5 times in 5, tools/train/README.md, "The fifteenth run"), and "min of a max" with the
 * inputs in the benchmark's order is in 9 f64 tasks and no integer one. These forms are the five structures exactly,
 * operands in the benchmark's order, at the other types (the near family's idea for L0, here for L1):
 * gasp_corpus_is_bench_computation and the tools' --drop-permuted compare types, so none of them is the benchmark's
 * task, and the model still has to read the type from the description. f64 forms make PTX pairs only (the AMD
 * emulator does not run f64); each structure has an integer or f32 form too. */
static const char *const kin_forms[] = {
    /* clamp_f32: min(max(x, lo), hi) */
    "s32 s32 s32 s32|(min.s32 (max.s32 $0 $1) $2)",
    "u32 u32 u32 u32|(min.u32 (max.u32 $0 $1) $2)",
    "f64 f64 f64 f64|(min.f64 (max.f64 $0 $1) $2)",
    /* lerp_f32: fma(t, b - a, a); the integer multiply-add is the map's fma */
    "f64 f64 f64 f64|(fma.f64 $2 (sub.f64 $1 $0) $0)",
    "s32 s32 s32 s32|(fma.s32 $2 (sub.s32 $1 $0) $0)",
    "u32 u32 u32 u32|(fma.u32 $2 (sub.u32 $1 $0) $0)",
    /* dot3: fma(az, bz, fma(ay, by, ax * bx)) */
    "f64 f64 f64 f64 f64 f64 f64|(fma.f64 $2 $5 (fma.f64 $1 $4 (mul.f64 $0 $3)))",
    "s32 s32 s32 s32 s32 s32 s32|(fma.s32 $2 $5 (fma.s32 $1 $4 (mul.s32 $0 $3)))",
    "u32 u32 u32 u32 u32 u32 u32|(fma.u32 $2 $5 (fma.u32 $1 $4 (mul.u32 $0 $3)))",
    /* select_sign: 1 above zero, -1 below, else 0 */
    "s32 s32|(sel.s32 (gt.s32 $0 0) 1 (sel.s32 (lt.s32 $0 0) -1 0))",
    "f64 f64|(sel.f64 (gt.f64 $0 0) 1 (sel.f64 (lt.f64 $0 0) -1 0))",
    /* abs_diff_u32: a - b when a >= b, else b - a */
    "s32 s32 s32|(sel.s32 (ge.s32 $0 $1) (sub.s32 $0 $1) (sub.s32 $1 $0))",
    "f32 f32 f32|(sel.f32 (ge.f32 $0 $1) (sub.f32 $0 $1) (sub.f32 $1 $0))",
    "f64 f64 f64|(sel.f64 (ge.f64 $0 $1) (sub.f64 $0 $1) (sub.f64 $1 $0))",
};

/* The types of FORM ("OUT IN0 IN1 ...|expression"): the result's, the inputs' in order, and the level and the
 * operation count the expression's parentheses give. */
static void form_types(inst *x, const char *form) {
  const char *bar = strchr(form, '|');
  char types[64];
  snprintf(types, sizeof types, "%.*s", (int)(bar - form), form);
  int first = 1; /* the first type is the result's, the others the inputs' in order */
  x->nin = 0;
  for (char *tok = strtok(types, " "); tok; tok = strtok(NULL, " ")) {
    gasp_map_type t = GASP_MT_F32;
    for (int k = GASP_MT_F32; k <= GASP_MT_U32; k++)
      if (!strcmp(tok, tn((gasp_map_type)k))) t = (gasp_map_type)k;
    if (first) x->type = t;
    else x->in_type[x->nin++] = t;
    first = 0;
  }
  int ops = 0;
  for (const char *p = bar; *p; p++) ops += *p == '(';
  x->level = ops == 1 ? 0 : 1;
  x->max_ops = ops;
}

/* FORM's expression into x->e: $k is the input at perm[k], $s the scalar (the literal 3 when none was named). */
static void form_expr(inst *x, const char *form, const int *perm) {
  for (const char *p = strchr(form, '|') + 1; *p; p++) {
    if (*p == '$' && p[1] >= '0' && p[1] <= '5') {
      gasp_str_puts(&x->e, x->in_name[perm[p[1] - '0']]);
      x->used[perm[p[1] - '0']] = 1;
      p++;
    } else if (*p == '$' && p[1] == 's') {
      gasp_str_puts(&x->e, x->has_scalar ? x->scalar_name : "3");
      x->used[CORPUS_SCALAR] = x->has_scalar;
      p++;
    } else gasp_str_printf(&x->e, "%c", *p);
  }
}

/* An instance of one of FORMS ("OUT IN0 IN1 ...|expression" over $0..$5), drawn with one draw of r. PERMUTE (the
 * ew_kin_order family): the expression reads the listed inputs in another order, $k becoming the input at a random
 * position other than k for at least one k, so that the form's roles are bound by the description alone.
 *
 * Why: round 14 (tools/train/README.md, "The sixteenth run") answered lerp_f32 with lerp's structure, a sub then an
 * fma, and took b for the addend in 8 answers of 10. ew_kin shows each structure with its inputs in the benchmark's
 * order only, so a model learns "the addend is the first input listed" rather than "the addend is the one the
 * description names"; ew_order taught the dot products' bindings this way (the eleventh run). The forms' inputs
 * share one type, so any order is well typed, and none is the benchmark's type (the kin forms' rule), so no
 * permutation is a benchmark computation with its inputs exchanged. */
static void typed_form(inst *x, rng *r, const char *const *forms, int nforms, int permute) {
  const char *form = forms[rnd(r, nforms)];
  form_types(x, form);
  for (int k = 0; k < x->nin; k++) gasp_strlcpy(x->in_name[k], corpus_name_sets[0][k], sizeof x->in_name[k]);
  name_snippet(x, r, 25);
  int perm[CORPUS_MAXIN];
  for (int k = 0; k < CORPUS_MAXIN; k++) perm[k] = k;
  if (permute && x->nin > 1) {
    int identity = 1;
    while (identity) { /* Fisher-Yates until some input moves (the identity is ew_kin's instance) */
      for (int k = x->nin - 1; k > 0; k--) {
        int j = rnd(r, k + 1), t = perm[k];
        perm[k] = perm[j];
        perm[j] = t;
      }
      identity = 1;
      for (int k = 0; k < x->nin; k++) identity &= perm[k] == k;
    }
  }
  form_expr(x, form, perm);
}

static void near(inst *x, rng *r) { typed_form(x, r, near_forms, NELEM(near_forms), 0); }

/* ---- the array family: short element-wise kernels whose parameters have the names kernels are given ----
 *
 * Why: every ew_kernel instance reads x, y, z and writes out (a scalar is alpha or k), and a kernel's pair is never
 * renamed (its answer names the parameters), so the ninth and tenth runs' models had never seen a kernel parameter
 * called anything else. On the benchmark's L2 kernels they loaded [out] where copy_f32 names its input `in`, and
 * loaded n as a pointer where vector_add names its arrays a, b and c (0 passes of 70 on PTX,
 * models/train-2026-12-04-run10). These kernels are as short as the benchmark's (a copy, or one to three
 * operations on unstrided arrays) and take their names from the sets below; gasp_corpus_is_bench_computation still
 * skips any instance equal to a benchmark task. None of the names is a PTX opcode, a C or OpenCL C keyword, or n. */
static const char *const array_in_names[][3] = {
    {"a", "b", "c"},     {"x", "y", "z"},       {"in", "w", "bias"},  {"src", "src2", "src3"}, {"p", "q", "r"},
    {"u", "v", "w"},     {"in0", "in1", "in2"}, {"x", "scale", "bias"}, {"lhs", "rhs", "acc"}, {"data", "mask", "w"},
    {"a", "x", "y"},     {"in", "gain", "off"}};
static const char *const array_out_names[] = {"out", "c", "d", "dst", "res", "result", "y", "z", "o", "output"};
static const char *const array_scalar_names[] = {"alpha", "beta", "k", "s", "factor", "m", "scale", "t"};

/* The array family's names: the inputs from one of the sets (array_inputs), then the result, a name no input has
 * (array_output); two steps, because array_kernel draws its conversion between them. */
static void array_inputs(inst *x, rng *r) {
  int set = rnd(r, NELEM(array_in_names));
  for (int k = 0; k < x->nin; k++) gasp_strlcpy(x->in_name[k], array_in_names[set][k], sizeof x->in_name[k]);
}
static void array_output(inst *x, rng *r) {
  for (int tries = 0; tries < 16 && !x->out_name[0]; tries++) {
    const char *o = array_out_names[rnd(r, NELEM(array_out_names))];
    int clash = 0;
    for (int k = 0; k < x->nin; k++) clash |= !strcmp(o, x->in_name[k]);
    if (!clash) gasp_strlcpy(x->out_name, o, sizeof x->out_name);
  }
  if (!x->out_name[0]) gasp_strlcpy(x->out_name, "out", sizeof x->out_name);
}

/* A scalar parameter whose name no input and not the result has (none when 16 draws all clash). */
static void array_scalar(inst *x, rng *r) {
  int fl = x->type == GASP_MT_F32 || x->type == GASP_MT_F64;
  for (int tries = 0; tries < 16 && !x->has_scalar; tries++) {
    const char *s = array_scalar_names[rnd(r, NELEM(array_scalar_names))];
    int clash = !strcmp(s, x->out_name);
    for (int k = 0; k < x->nin; k++) clash |= !strcmp(s, x->in_name[k]);
    if (clash) continue;
    x->has_scalar = 1;
    gasp_strlcpy(x->scalar_name, s, sizeof x->scalar_name);
  }
  static const char *const fv[] = {"2.5", "0.75", "-1.5", "3", "0.125"}, *const iv[] = {"3", "7", "100", "13", "5"};
  if (x->has_scalar) gasp_strlcpy(x->scalar_value, fl ? fv[rnd(r, 5)] : iv[rnd(r, 5)], sizeof x->scalar_value);
}

static void array_kernel(inst *x, rng *r) {
  static const gasp_map_type types[] = {GASP_MT_F32, GASP_MT_F32, GASP_MT_F32, GASP_MT_F32, GASP_MT_F32,
                                        GASP_MT_S32, GASP_MT_S32, GASP_MT_U32, GASP_MT_U32, GASP_MT_F64};
  static const int nins[] = {1, 1, 2, 2, 2, 3};
  x->kind = GASP_RENDER_KERNEL;
  x->level = 2;
  x->type = types[rnd(r, NELEM(types))];
  int fl = x->type == GASP_MT_F32 || x->type == GASP_MT_F64;
  x->nin = nins[rnd(r, NELEM(nins))];
  for (int k = 0; k < x->nin; k++) x->in_type[k] = x->type;
  array_inputs(x, r);
  /* a conversion now and then: the last input of the other kind (s32 <-> f32, u32 -> f32) */
  if (chance(r, 15)) x->in_type[x->nin - 1] = fl ? (chance(r, 70) ? GASP_MT_S32 : GASP_MT_U32) : GASP_MT_F32;
  array_output(x, r);
  /* a copy (with one input, no scalar: copy_f32 at another type, or converted) one time in five */
  if (x->nin == 1 && chance(r, 20)) {
    x->max_ops = 0;
    return;
  }
  if (chance(r, 35)) array_scalar(x, r);
  /* as many operations as join the inputs (and the scalar), now and then one more */
  x->max_ops = x->nin - 1 + x->has_scalar + rnd(r, 2);
  if (x->max_ops < 1) x->max_ops = 1;
}

/* ---- the array_near family: the benchmark's L2 computations at another type, or one step away ----
 *
 * Why: the near family's idea at L2. The exclusion removes vector_add (the f32 sum of two arrays), relu_array and
 * saxpy, and with them every one-line f32 two-array kernel of one operation, since sub, mul, min and max of two f32
 * inputs are the L0 tasks' computations. What stayed were the integer sums, so s15 (the seventeenth run) wrote
 * vector_add right in every part but the add: `add.s32` on PTX and `v_add_nc_u32` on gfx1030, 10 samples of 10.
 * relu_array got a load and a store of the input or of 0, and saxpy wrote y in 5 of 10 (the BLAS saxpy is
 * y = a*x + y; the task writes out). These kernels surround the three: the same computation at f64 or an integer
 * type, the f32 sum with one step more (a third array, a constant, a negation), relu's comparison against another
 * bound or after a bias, axpy at other types or with the addend changed, each with the array family's names.
 * gasp_corpus_is_bench_computation still skips any instance equal to a benchmark task (the scalar counts as its
 * test value; no form here is f32 fma of a scalar and two arrays). Forms as near_forms, $s the scalar. f64 forms
 * make PTX pairs only (the AMD emulator does not run f64). */
static const char *const array_near_forms[] = {
    /* vector_add: c = a + b on f32 */
    "f64 f64 f64|(add.f64 $0 $1)",
    "f32 f32 f32 f32|(add.f32 (add.f32 $0 $1) $2)",
    "f32 f32 f32|(mul.f32 (add.f32 $0 $1) 0.5)",
    "f32 f32 f32|(add.f32 (add.f32 $0 $1) 1)",
    "f32 f32 f32|(add.f32 $0 (mul.f32 $1 2))",
    "f32 f32 f32|(neg.f32 (add.f32 $0 $1))",
    "f32 f32 f32|(abs.f32 (add.f32 $0 $1))",
    "f32 f32 s32|(add.f32 $0 (cvt.f32.s32 $1))",
    "f32 f32 f32|(add.f32 (mul.f32 $0 $s) $1)",
    /* relu_array: out = x if x > 0, else 0, on f32 */
    "f64 f64|(max.f64 $0 0)",
    "s32 s32|(max.s32 $0 0)",
    "f32 f32|(min.f32 $0 0)",
    "f32 f32|(max.f32 $0 1)",
    "f32 f32|(max.f32 $0 -1)",
    "f32 f32 f32|(max.f32 (add.f32 $0 $1) 0)",
    "f32 f32|(mul.f32 (max.f32 $0 0) 2)",
    "f32 f32|(sel.f32 (gt.f32 $0 0) $0 (mul.f32 $0 0.1))",
    "f32 f32|(sel.f32 (lt.f32 $0 0) $0 0)",
    "f32 f32|(max.f32 $0 $s)",
    /* saxpy: out = fma(alpha, x, y) on f32, alpha a scalar */
    "f64 f64 f64|(fma.f64 $s $0 $1)",
    "s32 s32 s32|(fma.s32 $s $0 $1)",
    "f32 f32 f32|(sub.f32 (mul.f32 $s $0) $1)",
    "f32 f32 f32 f32|(fma.f32 $s $0 (add.f32 $1 $2))",
    "f32 f32|(fma.f32 $s $0 1)",
    "f32 f32 f32|(fma.f32 $s $0 (mul.f32 $1 0.5))",
};

static void array_near(inst *x, rng *r) {
  const char *form = array_near_forms[rnd(r, NELEM(array_near_forms))];
  form_types(x, form);
  x->kind = GASP_RENDER_KERNEL;
  x->level = 2;
  array_inputs(x, r);
  array_output(x, r);
  if (strstr(form, "$s")) array_scalar(x, r);
  int perm[CORPUS_MAXIN];
  for (int k = 0; k < CORPUS_MAXIN; k++) perm[k] = k;
  form_expr(x, form, perm);
}

/* Draws the shape of an instance of a family. */
static void draw(inst *x, rng *r, int fam) {
  memset(x, 0, sizeof *x);
  gasp_str_init(&x->e);
  x->family = families[fam];
  for (int k = 0; k < CORPUS_MAXIN; k++) x->stride[k] = 1;
  if (fam == F_IDIOM || fam == F_ORDER || fam == F_SHAPE) {
    x->kind = GASP_RENDER_SNIPPET;
    x->level = 1;
    idiom(x, r, fam == F_ORDER);
    return;
  }
  if (fam == F_NEAR) {
    x->kind = GASP_RENDER_SNIPPET;
    near(x, r);
    return;
  }
  if (fam == F_KIN || fam == F_KIN_ORDER) {
    x->kind = GASP_RENDER_SNIPPET;
    typed_form(x, r, kin_forms, NELEM(kin_forms), fam == F_KIN_ORDER);
    return;
  }
  if (fam == F_ARRAY) {
    array_kernel(x, r);
    return;
  }
  if (fam == F_ARRAY_NEAR) {
    array_near(x, r);
    return;
  }
  int arb = fam == 4;
  x->kind = arb ? GASP_RENDER_ARB : fam <= 1 ? GASP_RENDER_SNIPPET : GASP_RENDER_KERNEL;
  x->gridstride = fam == 3;
  /* f64 is rarer: the AMD emulator does not run f64 yet (those tasks pass on the GPU only) */
  static const gasp_map_type types[] = {GASP_MT_F32, GASP_MT_F32, GASP_MT_F32, GASP_MT_F32, GASP_MT_F64, GASP_MT_S32,
                                        GASP_MT_S32, GASP_MT_S32, GASP_MT_U32, GASP_MT_U32};
  x->type = arb ? GASP_MT_F32 : types[rnd(r, 10)];
  int fl = x->type == GASP_MT_F32 || x->type == GASP_MT_F64;
  /* snippets of the sequence family take up to six inputs, weighted toward two and three */
  static const int seq_nin[] = {1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6, 6};
  /* one instruction on two or three registers mostly, as the benchmark's L0 tasks are: with one input the second
   * operand is a literal, and a corpus of literals taught a model to add 1000 where the prompt named %b */
  static const int op_nin[] = {1, 2, 2, 3};
  x->nin = fam == F_SEQ ? seq_nin[rnd(r, NELEM(seq_nin))] : fam == F_OP ? op_nin[rnd(r, NELEM(op_nin))] : 1 + rnd(r, 3);
  static const char *const knames[] = {"x", "y", "z"};
  for (int k = 0; k < x->nin; k++) {
    gasp_strlcpy(x->in_name[k], x->kind == GASP_RENDER_KERNEL ? knames[k] : corpus_name_sets[0][k], sizeof x->in_name[k]);
    x->in_type[k] = x->type;
  }
  /* a conversion: the last input of another type (f32 <-> s32, f32 <-> f64, u32 -> f32) */
  if (!arb && chance(r, fam == 0 ? 15 : 20)) {
    gasp_map_type o;
    switch (x->type) {
    case GASP_MT_F32: o = chance(r, 60) ? GASP_MT_S32 : chance(r, 70) ? GASP_MT_U32 : GASP_MT_F64; break;
    case GASP_MT_F64: o = chance(r, 50) ? GASP_MT_F32 : GASP_MT_S32; break;
    default: o = chance(r, 85) ? GASP_MT_F32 : GASP_MT_F64; break;
    }
    x->in_type[x->nin - 1] = o;
    if (fam == 0) { /* L0: the conversion is the one instruction */
      x->nin = 1;
      x->in_type[0] = o;
    }
  }
  if (arb) {
    x->vertex = chance(r, 30);
    x->level = 1;
  } else {
    x->level = fam == 0 ? 0 : fam == 1 ? 1 : fam == 2 ? 2 : 3;
  }
  if (x->kind == GASP_RENDER_KERNEL && chance(r, 35)) {
    x->has_scalar = 1;
    gasp_strlcpy(x->scalar_name, fl ? "alpha" : "k", sizeof x->scalar_name);
    static const char *const fv[] = {"2.5", "0.75", "-1.5", "3", "0.125"}, *const iv[] = {"3", "7", "100", "13", "5"};
    gasp_strlcpy(x->scalar_value, fl ? fv[rnd(r, 5)] : iv[rnd(r, 5)], sizeof x->scalar_value);
  }
  if (fam == 2 && chance(r, 30))
    for (int k = 0; k < x->nin; k++) {
      x->stride[k] = 1 + rnd(r, 3);
      x->offset[k] = rnd(r, 4);
    }
  x->max_ops = fam == 0 ? 1 : 2 + rnd(r, 5);
  if (x->max_ops < x->nin) x->max_ops = x->nin; /* every input must fit into the tree */
  if (x->kind == GASP_RENDER_SNIPPET) name_snippet(x, r, 50);
  if (fam >= F_REDUCE && fam <= F_TRANSPOSE) draw_group(x, r, fam);
  if (fam == F_LOOP) {
    static const gasp_map_type lt[] = {GASP_MT_F32, GASP_MT_F32, GASP_MT_S32, GASP_MT_U32};
    x->type = lt[rnd(r, 4)];
    x->loop = 1;
    x->level = 3;
    x->has_scalar = 0;
    x->nin = 2;
    gasp_strlcpy(x->in_name[0], "x", sizeof x->in_name[0]);
    gasp_strlcpy(x->in_name[1], "k", sizeof x->in_name[1]);
    x->in_type[0] = x->type;
    x->in_type[1] = GASP_MT_U32;
    for (int k = 0; k < 3; k++) x->stride[k] = 1, x->offset[k] = 0;
    x->max_ops = 1 + rnd(r, 3);
  }
}

/* Generates the expression; the L0 family and ARB L0 make one operation. */
static void build(inst *x, rng *r, int fam) {
  if (fam == F_IDIOM || fam == F_NEAR || fam == F_ORDER || fam == F_SHAPE || fam == F_KIN || fam == F_KIN_ORDER ||
      fam == F_ARRAY_NEAR)
    return; /* written by draw */
  if (fam == F_LOOP) {
    static const char *const counts[] = {"(and.u32 k 15)", "(and.u32 k 7)", "(rem.u32 k 13)", "(rem.u32 k 9)"};
    const char *tt = tn(x->type);
    gasp_str_printf(&x->e, "(loop.%s %s ", tt, counts[rnd(r, 4)]);
    x->used[1] = 1;
    if (chance(r, 75)) {
      gasp_str_puts(&x->e, "x");
      x->used[0] = 1;
    } else {
      put_lit(x, r, x->type);
    }
    /* the step combines the running value with a generated operand, so every iteration changes v */
    int fl = x->type == GASP_MT_F32;
    static const char *const fsteps[] = {"add", "mul", "sub", "max", "min", "fma"}, *const isteps[] = {"add", "mul", "sub", "xor", "max", "fma"};
    const char *op = fl ? fsteps[rnd(r, 6)] : isteps[rnd(r, 6)];
    x->in_step = 1;
    gasp_str_printf(&x->e, " (%s.%s acc ", op, tt);
    if (!strcmp(op, "fma") || !strcmp(op, "mul")) {
      /* keep products bounded: a small literal factor */
      static const char *const ff[] = {"0.5", "0.75", "1.5", "-0.5", "1.25"}, *const fi[] = {"3", "5", "7", "31", "2"};
      gasp_str_puts(&x->e, fl ? ff[rnd(r, 5)] : fi[rnd(r, 5)]);
      if (!strcmp(op, "fma")) {
        gasp_str_puts(&x->e, " ");
        gen(x, r, x->type, 2, 0);
      }
    } else {
      gen(x, r, x->type, 2, 0);
    }
    x->in_step = 0;
    gasp_str_puts(&x->e, "))");
    return;
  }
  if (fam == F_ARRAY) {
    if (x->max_ops == 0) put_input(x, r, x->type); /* a copy */
    else gen_op(x, r, x->type, 3);
    return;
  }
  if (fam >= F_REDUCE) {
    if (x->group == GASP_MOP_TR) gasp_str_printf(&x->e, "(tr.%s ", tn(x->type));
    else gasp_str_printf(&x->e, "(%s_%s.%s ", gasp_map_op_name(x->group), gasp_map_op_name(x->red), tn(x->type));
    if (x->max_ops == 0) x->nin = 1;
    if (x->positive) gen_positive(x, r);
    else if (x->max_ops == 0) put_input(x, r, x->type);
    else gen_op(x, r, x->type, 2);
    gasp_str_puts(&x->e, ")");
    return;
  }
  if (fam == 0) gen_single(x, r);
  else {
    int arb_l0 = fam == 4 && chance(r, 25);
    if (arb_l0) {
      x->max_ops = 1;
      x->level = 0;
    }
    gen_op(x, r, x->type, arb_l0 ? 1 : x->nin > 3 ? 4 : 3);
  }
}

static int family_enabled(const char *list, int f) {
  if (!list || !*list) return family_default[f];
  const char *name = families[f];
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *c = strchr(p, ',');
    size_t l = c ? (size_t)(c - p) : strlen(p);
    if (l == n && !strncmp(p, name, n)) return 1;
    p += l + (c ? 1 : 0);
  }
  return 0;
}

int gasp_corpus_gen(const gasp_corpus_gen_opts *o, const char *outdir, gasp_corpus_gen_stats *st, gasp_diags *d) {
  memset(st, 0, sizeof *st);
  if (o->families && *o->families) {
    const char *p = o->families;
    while (*p) {
      const char *c = strchr(p, ',');
      size_t l = c ? (size_t)(c - p) : strlen(p);
      int ok = 0;
      for (int f = 0; families[f]; f++) ok |= strlen(families[f]) == l && !strncmp(families[f], p, l);
      if (!ok) {
        char known[256] = "";
        for (int f = 0; families[f]; f++) {
          if (f) strncat(known, ", ", sizeof known - strlen(known) - 1);
          strncat(known, families[f], sizeof known - strlen(known) - 1);
        }
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "unknown family '%.*s' (%s)", (int)l, p, known);
        return -1;
      }
      p += l + (c ? 1 : 0);
    }
  }
  char amd[1100];
  snprintf(amd, sizeof amd, "%s/amdgcn", outdir);
  if (gasp_mkdir_p(amd)) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "cannot create '%s': %s", amd, strerror(errno));
    return -1;
  }
  /* the OpenCL prelude travels with the references (clang resolves the include beside the .cl file) */
  char src[1200], *pre = NULL;
  size_t plen;
  snprintf(src, sizeof src, "%s/amdgcn/gasp_amd.h", gasp_tasks_dir());
  if (gasp_read_file(src, 1 << 20, &pre, &plen)) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "cannot read %s (the AMD references' prelude)", src);
    return -1;
  }
  snprintf(src, sizeof src, "%s/gasp_amd.h", amd);
  gasp_write_file(src, pre, plen);
  free(pre);
  /* how many of each family: weights over the enabled families, the remainder to the first ones */
  int want[20] = {0}, total_w = 0, nf = 0; /* sized as per_family (corpus.h) */
  for (int f = 0; families[f]; f++, nf++)
    if (family_enabled(o->families, f)) total_w += family_weight[f];
  int assigned = 0;
  for (int f = 0; f < nf; f++)
    if (family_enabled(o->families, f)) {
      want[f] = (int)((long long)o->count * family_weight[f] / total_w);
      assigned += want[f];
    }
  for (int f = 0; f < nf && assigned < o->count; f++)
    if (family_enabled(o->families, f)) {
      want[f]++;
      assigned++;
    }
  /* canonical forms already written, per family and shape, to skip duplicates */
  size_t seen_n = 0, seen_cap = 0;
  char **seen = NULL;
  int rc = 0;
  for (int f = 0; f < nf && !rc; f++) {
    /* one stream per family, decorrelated (splitmix64 states a constant apart would repeat each other shifted) */
    rng r0 = {o->seed};
    rng r1 = {next(&r0) ^ ((uint64_t)(f + 1) * 0xD1B54A32D192ED03ull)};
    rng r = {next(&r1)};
    int made = 0, attempts = 0;
    for (int n = 0; made < want[f] && attempts < want[f] * 50 + 100; attempts++) {
      inst x;
      draw(&x, &r, f);
      build(&x, &r, f);
      char id[64];
      snprintf(id, sizeof id, "g_%s_%d", families[f], n);
      gasp_task t;
      gasp_map m;
      gasp_str yaml, cl, why;
      gasp_str_init(&yaml);
      gasp_str_init(&cl);
      gasp_str_init(&why);
      int rr = corpus_render_task(&x, id, &t, &m, &yaml, &cl, &why);
      if (rr == -2) {
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "%s", why.data);
        rc = -1;
      }
      if (rr == 0) {
        char which[64], key[2200];
        char *canon = gasp_map_canonical(&m, &t);
        /* one instruction (and a near form): the same computation again under other register names is a new task
         * (the canonical form ignores names), else each operation on registers would occur once and on literals 16
         * times */
        char names[160] = "";
        if (f == F_OP || f == F_NEAR || f == F_ARRAY || f == F_ORDER || f == F_SHAPE || f == F_KIN || f == F_KIN_ORDER ||
            f == F_ARRAY_NEAR) {
          for (int k = 0; k < x.nin; k++) snprintf(names + strlen(names), sizeof names - strlen(names), "%s,", x.in_name[k]);
          snprintf(names + strlen(names), sizeof names - strlen(names), "%s", x.out_name);
        }
        snprintf(key, sizeof key, "%d|%d|%d|%s|%s|%s", x.level, (int)x.kind, x.vertex, x.gridstride ? "gs" : "", names, canon);
        int dup = 0;
        for (size_t i = 0; i < seen_n && !dup; i++) dup = !strcmp(seen[i], key);
        if (o->bench && gasp_taskset_find(o->bench, id)) st->skipped_bench_id++;
        else if (gasp_corpus_is_bench_computation(&m, &t, which, sizeof which)) st->skipped_bench_same++;
        else if (dup) st->skipped_duplicate++;
        else {
          char path[1300];
          snprintf(path, sizeof path, "%s/%s.yaml", outdir, id);
          int w = gasp_write_file(path, yaml.data, yaml.len);
          if (!w && cl.len) {
            snprintf(path, sizeof path, "%s/%s.cl", amd, id);
            w = gasp_write_file(path, cl.data, cl.len);
          }
          if (w) {
            gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "cannot write %s: %s", path, strerror(errno));
            rc = -1;
          }
          if (seen_n == seen_cap) {
            seen_cap = seen_cap ? seen_cap * 2 : 256;
            seen = realloc(seen, seen_cap * sizeof *seen);
          }
          seen[seen_n++] = gasp_strdup(key);
          made++;
          n++;
          st->written++;
          st->per_family[f]++;
          st->per_level[x.level]++;
        }
        free(canon);
      }
      gasp_str_free(&yaml);
      gasp_str_free(&cl);
      gasp_str_free(&why);
      gasp_str_free(&x.e);
      if (rc) break;
    }
    if (made < want[f] && !rc)
      gasp_diags_add(d, GASP_SEV_WARNING, GASP_CLASS_ERROR, 0, 0, "family %s: only %d distinct tasks of %d asked for", families[f], made, want[f]);
  }
  for (size_t i = 0; i < seen_n; i++) free(seen[i]);
  free(seen);
  return rc;
}