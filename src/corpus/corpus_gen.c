/* gasp corpus gen: task families written as templates. Each instance is one random expression tree (a
 * `map:` expression, src/task/map.h) over one to three input arrays, scalars and constants; the tree renders
 * to the description, the CUDA reference, the OpenCL C reference for the AMD targets and the ARB program
 * (corpus_render.c), and the generic CPU reference evaluates it. Deterministic for a seed (splitmix64). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus.h"

static const char *const families[] = {"ew_op", "ew_seq", "ew_kernel", "ew_gridstride", "arb", "reduce", "scan", "transpose",
                                       "loop", NULL};
enum { F_OP, F_SEQ, F_KERNEL, F_GRIDSTRIDE, F_ARB, F_REDUCE, F_SCAN, F_TRANSPOSE, F_LOOP };
/* shares of --count, in percent, in the order above */
static const int family_weight[] = {12, 22, 18, 8, 14, 8, 6, 6, 6};

const char *const *gasp_corpus_families(void) { return families; }

/* ---- the benchmark's L0-L3 computations, by canonical form ---- */

/* Each row: the benchmark id, the output type, the input types in parameter order and the expression over
 * inputs named a, b, c, ... (scalars written as their test values). Canonicalised at first use, so operand
 * order and names do not matter. Tasks whose computation is not an element-wise map (popc_b32, scale_bias's
 * column index, L3 loops) have no row: no generated task can be them. */
static const struct {
  const char *id, *out, *in, *expr;
} bench_table[] = {
    {"add_f32", "f32", "f32 f32", "(add.f32 a b)"},
    {"sub_f32", "f32", "f32 f32", "(sub.f32 a b)"},
    {"mul_f32", "f32", "f32 f32", "(mul.f32 a b)"},
    {"fma_f32", "f32", "f32 f32 f32", "(fma.f32 a b c)"},
    {"min_f32", "f32", "f32 f32", "(min.f32 a b)"},
    {"max_f32", "f32", "f32 f32", "(max.f32 a b)"},
    {"abs_f32", "f32", "f32", "(abs.f32 a)"},
    {"neg_f32", "f32", "f32", "(neg.f32 a)"},
    {"add_s32", "s32", "s32 s32", "(add.s32 a b)"},
    {"mul_lo_s32", "s32", "s32 s32", "(mul.s32 a b)"},
    {"shl_b32", "u32", "u32 u32", "(shl.u32 a b)"},
    {"xor_b32", "u32", "u32 u32", "(xor.u32 a b)"},
    {"cvt_f32_s32", "f32", "s32", "(cvt.f32.s32 a)"},
    {"sqrt_f32", "f32", "f32", "(sqrt.f32 a)"},
    {"sqrt_f32", "f32", "f32", "(sqrt.f32 (abs.f32 a))"},
    {"dot3", "f32", "f32 f32 f32 f32 f32 f32", "(fma.f32 c f (fma.f32 b e (mul.f32 a d)))"},
    {"relu_leaky", "f32", "f32", "(sel.f32 (gt.f32 a 0) a (mul.f32 a 0.01))"},
    {"lerp_f32", "f32", "f32 f32 f32", "(fma.f32 c (sub.f32 b a) a)"},
    {"clamp_f32", "f32", "f32 f32 f32", "(min.f32 (max.f32 a b) c)"},
    {"horner_poly3", "f32", "f32", "(fma.f32 (fma.f32 (fma.f32 0.5 a -1.25) a 2) a 0.75)"},
    {"select_sign", "f32", "f32", "(sel.f32 (gt.f32 a 0) 1 (sel.f32 (lt.f32 a 0) -1 0))"},
    {"mad_s32", "s32", "s32 s32 s32", "(fma.s32 a b c)"},
    {"abs_diff_u32", "u32", "u32 u32", "(sel.u32 (ge.u32 a b) (sub.u32 a b) (sub.u32 b a))"},
    {"vector_add", "f32", "f32 f32", "(add.f32 a b)"},
    {"saxpy", "f32", "f32 f32", "(fma.f32 2.5 a b)"},
    {"vector_mul_s32", "s32", "s32 s32", "(mul.s32 a b)"},
    {"relu_array", "f32", "f32", "(sel.f32 (gt.f32 a 0) a 0)"},
    {"relu_array", "f32", "f32", "(max.f32 a 0)"},
    {"grid_stride_scale", "f32", "f32", "(mul.f32 a 3)"},
    {"warp_reduce_sum", "f32", "f32", "(wred_add.f32 a)"},
    {"warp_max", "s32", "s32", "(wred_max.s32 a)"},
    {"warp_inclusive_scan", "s32", "s32", "(wscan_add.s32 a)"},
    {"block_reduce_sum", "f32", "f32", "(bred_add.f32 a)"},
    {"block_scan", "s32", "s32", "(bscan_add.s32 a)"},
    {"transpose", "f32", "f32", "(tr.f32 a)"},
    {"transpose", "s32", "s32", "(tr.s32 a)"}, /* a copy moves bits: the same task whatever the type */
    {"transpose", "u32", "u32", "(tr.u32 a)"},
    {"arb_add_mul3", "f32", "f32 f32", "(mul.f32 (add.f32 a b) 3)"},
    {"arb_clamp", "f32", "f32", "(min.f32 (max.f32 a -0.5) 0.75)"},
    {"arb_cmp_select", "f32", "f32 f32", "(sel.f32 (lt.f32 a 0) a b)"},
    {"arb_lerp", "f32", "f32 f32 f32", "(lrp.f32 c b a)"},
    {"arb_mad_chain", "f32", "f32 f32 f32", "(add.f32 (mul.f32 (add.f32 (mul.f32 a b) c) b) c)"},
};
#define NBENCH (sizeof bench_table / sizeof bench_table[0])

/* a task with inputs a, b, c ... of the given types and one output: enough to parse a map */
static void mini_task(gasp_task *t, const char *out, const char *in) {
  memset(t, 0, sizeof *t);
  char buf[128];
  gasp_strlcpy(buf, in, sizeof buf);
  int k = 0;
  for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
    gasp_param *p = &t->params[t->nparams++];
    snprintf(p->name, sizeof p->name, "%c", 'a' + k++);
    p->type = (gasp_dtype)gasp_dtype_from_name(tok);
    p->role = GASP_ROLE_IN;
  }
  gasp_param *p = &t->params[t->nparams++];
  gasp_strlcpy(p->name, "out", sizeof p->name);
  p->type = (gasp_dtype)gasp_dtype_from_name(out);
  p->role = GASP_ROLE_OUT;
  static const char *const scalars[] = {"n", "rows", "cols"};
  for (int i = 0; i < 3; i++) {
    p = &t->params[t->nparams++];
    gasp_strlcpy(p->name, scalars[i], sizeof p->name);
    p->type = GASP_DT_U32;
    p->role = GASP_ROLE_SCALAR;
    gasp_strlcpy(p->value, scalars[i], sizeof p->value);
  }
}

int gasp_corpus_is_bench_computation(const gasp_map *m, const gasp_task *task, char *which, size_t cap) {
  static char *canon[NBENCH];
  static int ready;
  if (!ready) {
    for (size_t i = 0; i < NBENCH; i++) {
      gasp_task t;
      gasp_map bm;
      char e[160];
      mini_task(&t, bench_table[i].out, bench_table[i].in);
      canon[i] = gasp_map_parse(bench_table[i].expr, &t, &bm, NULL, e, sizeof e) ? NULL : gasp_map_canonical(&bm, &t);
    }
    ready = 1;
  }
  char *c = gasp_map_canonical(m, task);
  int hit = 0;
  for (size_t i = 0; i < NBENCH && !hit; i++)
    if (canon[i] && !strcmp(canon[i], c)) {
      hit = 1;
      if (which) gasp_strlcpy(which, bench_table[i].id, cap);
    }
  free(c);
  return hit;
}

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

/* ---- one instance ---- */

typedef struct {
  const char *family;
  int level;
  gasp_render_kind kind;
  int vertex;       /* arb: a vertex program */
  int gridstride;
  gasp_map_type type;          /* the result type */
  int nin;
  char in_name[3][8];
  gasp_map_type in_type[3];
  int stride[3], offset[3];
  int has_scalar;
  char scalar_name[8];
  char scalar_value[32];
  int used[4];                 /* inputs 0..2 and the scalar, used by the tree */
  int ops, max_ops;
  gasp_map_op group, red;      /* group families: the root form (WRED ... TR) and its combination */
  int smem;                    /* transpose: the shared-memory tiled version (L5) */
  int positive;                /* float sums: inputs and e[j] are never negative */
  int loop, in_step;           /* the loop family; generating its step (leaves may be the running value) */
  gasp_str e;                  /* the expression being built */
} inst;

static const char *tn(gasp_map_type t) { return gasp_map_type_name(t); }

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
  int cand[4], nc = 0;
  for (int k = 0; k < x->nin; k++) {
    int fa = x->in_type[k] == GASP_MT_F32 || x->in_type[k] == GASP_MT_F64, fb = t == GASP_MT_F32 || t == GASP_MT_F64;
    if (x->in_type[k] == t || fa || fb) cand[nc++] = k; /* no integer-to-integer conversions */
  }
  if (x->has_scalar) cand[nc++] = 3;
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
  if (pick == 3) {
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
      size_t a0 = x->e.len;
      gen(x, r, t, depth - 1, 0);
      size_t a1 = x->e.len;
      gasp_str_puts(&x->e, " ");
      gen_other(x, r, t, depth - 1, 1, a0, a1);
      gasp_str_puts(&x->e, ") ");
      gen(x, r, t, depth - 1, 1);
    } else if (!strcmp(op, "lrp")) {
      gasp_str_puts(&x->e, "(lrp.f32 ");
      put_input(x, r, t);
      gasp_str_puts(&x->e, " ");
      size_t a0 = x->e.len;
      gen(x, r, t, depth - 1, 0);
      size_t a1 = x->e.len;
      gasp_str_puts(&x->e, " ");
      gen_other(x, r, t, depth - 1, 1, a0, a1);
    } else if (!strcmp(op, "cmp")) {
      gasp_str_puts(&x->e, "(sel.f32 (lt.f32 ");
      gen(x, r, t, depth - 1, 0);
      gasp_str_puts(&x->e, " 0) ");
      size_t v0 = x->e.len;
      gen(x, r, t, depth - 1, 1);
      size_t v1 = x->e.len;
      gasp_str_puts(&x->e, " ");
      gen_other(x, r, t, depth - 1, 0, v0, v1);
    } else if (!strcmp(op, "slt") || !strcmp(op, "sge")) {
      gasp_str_printf(&x->e, "(sel.f32 (%s.f32 ", op[1] == 'l' ? "lt" : "ge");
      size_t a0 = x->e.len;
      gen(x, r, t, depth - 1, 0);
      size_t a1 = x->e.len;
      gasp_str_puts(&x->e, " ");
      gen_other(x, r, t, depth - 1, 1, a0, a1);
      gasp_str_puts(&x->e, ") 1 0");
    } else {
      gasp_str_printf(&x->e, "(%s.f32 ", op);
      size_t a0 = x->e.len;
      gen(x, r, t, depth - 1, 0);
      size_t a1 = x->e.len;
      gasp_str_puts(&x->e, " ");
      gen_other(x, r, t, depth - 1, 1, a0, a1);
    }
    gasp_str_puts(&x->e, ")");
    return;
  }
  static const char *const f_ops[] = {"add", "sub", "mul", "fma", "min", "max", "abs", "neg", "sqrt", "div", "sel", "add", "mul", "fma"};
  static const char *const i_ops[] = {"add", "sub", "mul", "fma", "min", "max", "abs", "neg", "and", "or", "xor", "shl", "shr", "div", "rem", "sel"};
  const char *op = fl ? f_ops[rnd(r, 14)] : i_ops[rnd(r, 16)];
  if (!strcmp(op, "abs") && t == GASP_MT_U32) op = "xor";
  if (x->level == 0 && !strcmp(op, "sel")) op = "min"; /* L0 is one instruction: a select needs a compare too */
  if (!strcmp(op, "abs") || !strcmp(op, "neg")) {
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
    size_t a0 = x->e.len;
    gen(x, r, t, depth - 1, 0);
    size_t a1 = x->e.len;
    gasp_str_puts(&x->e, " ");
    gen_other(x, r, t, depth - 1, 1, a0, a1);
    gasp_str_puts(&x->e, " ");
    gen(x, r, t, depth - 1, 1);
  } else if (!strcmp(op, "sel")) {
    static const char *const cmps[] = {"lt", "le", "gt", "ge", "eq", "ne"};
    gasp_str_printf(&x->e, "(sel.%s (%s.%s ", tn(t), cmps[rnd(r, fl ? 4 : 6)], tn(t));
    size_t a0 = x->e.len;
    gen(x, r, t, depth - 1, 0);
    size_t a1 = x->e.len;
    gasp_str_puts(&x->e, " ");
    gen_other(x, r, t, depth - 1, 1, a0, a1);
    gasp_str_puts(&x->e, ") ");
    size_t v0 = x->e.len;
    gen(x, r, t, depth - 1, 1);
    size_t v1 = x->e.len;
    gasp_str_puts(&x->e, " ");
    gen_other(x, r, t, depth - 1, 1, v0, v1);
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
    size_t a0 = x->e.len;
    gen(x, r, t, depth - 1, 0);
    size_t a1 = x->e.len;
    gasp_str_puts(&x->e, " ");
    gen_other(x, r, t, depth - 1, 1, a0, a1);
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

/* ---- rendering an instance into files ---- */

static const char *gens_for(gasp_map_type t, int arb) {
  if (arb) return "[\"uniform(-1,1)\", \"uniform(-4,4)\", \"uniform(0,1)\"]";
  switch (t) {
  case GASP_MT_F32: case GASP_MT_F64: return "[\"uniform(-1,1)\", heavy, special]";
  case GASP_MT_S32: return "[\"int(-1000,1000)\", \"int(-2147483648,2147483647)\", \"int(-8,8)\"]";
  default: return "[\"int(0,1000)\", \"int(0,4294967295)\", \"int(0,31)\"]";
  }
}

static void block_scalar(gasp_str *y, const char *key, const char *text) {
  gasp_str_printf(y, "%s: |\n", key);
  const char *p = text;
  while (*p) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    if (n) gasp_str_printf(y, "  %.*s\n", (int)n, p);
    else gasp_str_puts(y, "\n");
    p += n + (nl ? 1 : 0);
  }
}

/* The group forms' helpers: the combination used as COMB(a, b) */
static void c_group_prelude(const inst *x, int cl, gasp_str *helpers) {
  gasp_str c;
  gasp_str_init(&c);
  gasp_corpus_combine_c(x->red, x->type, cl, "a", "b", &c, helpers);
  const char *ct = x->type == GASP_MT_F32 ? "float" : x->type == GASP_MT_S32 ? "int" : "unsigned";
  if (x->group != GASP_MOP_TR)
    gasp_str_printf(helpers, "%s %s g_comb(%s a, %s b) { return %s; }\n",
                    cl ? "static inline" : "__device__ __forceinline__ static", ct, ct, ct, c.data);
  gasp_str_free(&c);
}

/* The body of a group form's kernel: e (the inner expression over element i) combined per warp or block, or
 * transposed. Warps are groups of 32 (gasp_amd.h maps the shuffles for the AMD targets). */
static void c_group_body(const inst *x, int cl, const char *o, const char *e, gasp_str *s) {
  const char *ct = x->type == GASP_MT_F32 ? "float" : x->type == GASP_MT_S32 ? "int" : "unsigned";
  const char *id = gasp_corpus_identity_c(x->red, x->type, cl), *sh = cl ? "__local" : "__shared__";
  switch (x->group) {
  case GASP_MOP_WRED:
    gasp_str_printf(s, "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n  %s v = %s;\n  if (i < n) v = %s;\n"
                       "  for (int o = 16; o > 0; o >>= 1) v = g_comb(v, __shfl_xor_sync(0xffffffffu, v, o));\n"
                       "  if ((threadIdx.x & 31u) == 0 && i < n) %s[i / 32u] = v;\n}\n", ct, id, e, o);
    break;
  case GASP_MOP_WSCAN:
    gasp_str_printf(s, "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31u;\n  %s v = %s;\n"
                       "  if (i < n) v = %s;\n  for (int o = 1; o < 32; o <<= 1) {\n"
                       "    %s u = __shfl_up_sync(0xffffffffu, v, o);\n    if (lane >= (unsigned)o) v = g_comb(u, v);\n  }\n"
                       "  if (i < n) %s[i] = v;\n}\n", ct, id, e, ct, o);
    break;
  case GASP_MOP_BRED:
    gasp_str_printf(s, "  %s %s s[256];\n  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n  %s v = %s;\n"
                       "  if (i < n) v = %s;\n  s[t] = v;\n  __syncthreads();\n"
                       "  for (unsigned o = blockDim.x / 2; o > 0; o >>= 1) {\n    if (t < o) s[t] = g_comb(s[t], s[t + o]);\n"
                       "    __syncthreads();\n  }\n  if (t == 0) %s[blockIdx.x] = s[0];\n}\n", sh, ct, ct, id, e, o);
    break;
  case GASP_MOP_BSCAN: case GASP_MOP_BXSCAN:
    gasp_str_printf(s, "  %s %s s[256];\n  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n  %s v = %s;\n"
                       "  if (i < n) v = %s;\n  s[t] = v;\n  __syncthreads();\n"
                       "  for (unsigned o = 1; o < blockDim.x; o <<= 1) {\n    %s u = t >= o ? s[t - o] : %s;\n"
                       "    __syncthreads();\n    s[t] = g_comb(u, s[t]);\n    __syncthreads();\n  }\n", sh, ct, ct, id, e, ct, id);
    if (x->group == GASP_MOP_BSCAN) gasp_str_printf(s, "  if (i < n) %s[i] = s[t];\n}\n", o);
    else gasp_str_printf(s, "  if (i < n) %s[i] = t ? s[t - 1] : %s;\n}\n", o, id);
    break;
  case GASP_MOP_TR:
    if (!x->smem) {
      gasp_str_printf(s, "  unsigned c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;\n"
                         "  if (r < rows && c < cols) {\n    unsigned i = r * cols + c;\n    %s[c * rows + r] = %s;\n  }\n}\n", o, e);
    } else {
      gasp_str_printf(s, "  %s %s tile[32][33];\n  unsigned bx = blockIdx.x * 32u, by = blockIdx.y * 32u;\n"
                         "  for (unsigned k = 0; k < 32u; k += 8u) {\n    unsigned r = by + threadIdx.y + k, c = bx + threadIdx.x;\n"
                         "    if (r < rows && c < cols) {\n      unsigned i = r * cols + c;\n      tile[threadIdx.y + k][threadIdx.x] = %s;\n"
                         "    }\n  }\n  __syncthreads();\n  for (unsigned k = 0; k < 32u; k += 8u) {\n"
                         "    unsigned c = bx + threadIdx.y + k, r = by + threadIdx.x;\n"
                         "    if (r < rows && c < cols) %s[c * rows + r] = tile[threadIdx.x][threadIdx.y + k];\n  }\n}\n",
                      sh, ct, e, o);
    }
    break;
  default: break;
  }
}

/* A loop per element: v = start, then cnt times v = step. */
static void c_loop_body(const gasp_task *t, const gasp_map *m, int cl, const char *o, gasp_str *helpers, gasp_str *s) {
  const gasp_map_node *root = &m->n[m->root];
  gasp_str part[3];
  for (int k = 0; k < 3; k++) {
    gasp_str_init(&part[k]);
    gasp_corpus_expr_c_node(m, t, cl, root->kid[k], &part[k], helpers);
  }
  const char *ct = root->type == GASP_MT_F32 ? "float" : root->type == GASP_MT_S32 ? "int" : "unsigned";
  gasp_str_printf(s, "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) {\n    %s v = %s;\n"
                     "    unsigned cnt = %s;\n    for (unsigned c = 0; c < cnt; c++) v = %s;\n    %s[i] = v;\n  }\n}\n",
                  ct, part[1].data, part[0].data, part[2].data, o);
  for (int k = 0; k < 3; k++) gasp_str_free(&part[k]);
}

/* the kernel's C signature and body for CUDA (cl 0) or OpenCL (cl 1) */
static void c_kernel(const inst *x, const gasp_task *t, const gasp_map *m, int cl, gasp_str *s) {
  gasp_str helpers, e;
  gasp_str_init(&helpers);
  gasp_str_init(&e);
  gasp_corpus_expr_c(m, t, cl, &e, &helpers);
  if (x->group) c_group_prelude(x, cl, &helpers);
  if (helpers.len) gasp_str_puts(s, helpers.data);
  gasp_str_printf(s, "%s void %s(", cl ? "KERNEL" : "extern \"C\" __global__", t->kernel);
  for (int i = 0; i < t->nparams; i++) {
    const gasp_param *p = &t->params[i];
    const char *ct = p->type == GASP_DT_F32 ? "float" : p->type == GASP_DT_F64 ? "double" : p->type == GASP_DT_S32 ? "int" : "unsigned";
    if (i) gasp_str_puts(s, ", ");
    if (p->role == GASP_ROLE_SCALAR) gasp_str_printf(s, "%s %s", ct, p->name);
    else gasp_str_printf(s, "%s%s%s* %s", cl ? "__global " : "", p->role == GASP_ROLE_IN ? "const " : "", ct, p->name);
  }
  gasp_str_puts(s, ") {\n");
  const char *o = t->params[m->out].name;
  if (x->loop) c_loop_body(t, m, cl, o, &helpers, s);
  else if (x->group) c_group_body(x, cl, o, e.data, s);
  else if (x->gridstride)
    gasp_str_printf(s, "  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n    %s[i] = %s;\n}\n", o, e.data);
  else
    gasp_str_printf(s, "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) %s[i] = %s;\n}\n", o, e.data);
  gasp_str_free(&helpers);
  gasp_str_free(&e);
}

static void title_of(const gasp_map *m, const inst *x, char *buf, size_t cap) {
  int seen[GASP_MOP_COUNT] = {0};
  char ops[96] = "";
  for (int i = 0; i < m->count; i++) {
    gasp_map_op op = m->n[i].op;
    if (op <= GASP_MOP_LIT || gasp_map_is_group(op) || op == GASP_MOP_LOOP || op == GASP_MOP_ACC || seen[op] ||
        strlen(ops) > 60)
      continue;
    seen[op] = 1;
    if (ops[0]) strncat(ops, ", ", sizeof ops - strlen(ops) - 1);
    strncat(ops, gasp_map_op_name(op), sizeof ops - strlen(ops) - 1);
  }
  static const char *const gw[] = {"warp reduction", "block reduction", "warp inclusive scan", "block inclusive scan",
                                   "block exclusive scan", "transpose"};
  const char *what = x->group == GASP_MOP_TR && x->smem ? "shared-memory tiled transpose"
                     : x->group ? gw[x->group - GASP_MOP_WRED]
                     : x->loop ? "data-dependent loop"
                     : x->kind == GASP_RENDER_ARB ? (x->vertex ? "ARB vertex program" : "ARB fragment program")
                     : x->level == 0 ? "one instruction" : x->level == 1 ? "straight-line sequence"
                     : x->gridstride ? "grid-stride kernel" : "element-wise kernel";
  if (x->group && x->group != GASP_MOP_TR)
    snprintf(buf, cap, "%s %s, %s%s%s%s", tn(x->type), what, gasp_map_op_name(x->red), ops[0] ? " (" : "", ops, ops[0] ? ")" : "");
  else if (!ops[0]) snprintf(buf, cap, "%s %s", tn(x->type), what);
  else snprintf(buf, cap, "%s %s (%s)", tn(x->type), what, ops);
}

/* Builds the instance's task (params, map) and its YAML and .cl texts. Returns 0, or -1 when the tree does
 * not suit (an unused input, no ARB form, a parse error: the generator's own bug, reported). */
static int render(inst *x, const char *id, gasp_task *t, gasp_map *m, gasp_str *yaml, gasp_str *cl, gasp_str *why) {
  memset(t, 0, sizeof *t);
  gasp_strlcpy(t->id, id, sizeof t->id);
  gasp_strlcpy(t->kernel, id, sizeof t->kernel);
  t->level = x->level;
  int arb = x->kind == GASP_RENDER_ARB;
  for (int k = 0; k < x->nin; k++) {
    if (!x->used[k]) return -1;
    gasp_param *p = &t->params[t->nparams++];
    gasp_strlcpy(p->name, x->in_name[k], sizeof p->name);
    p->type = (gasp_dtype)(x->in_type[k] == GASP_MT_F32 ? GASP_DT_F32 : x->in_type[k] == GASP_MT_F64 ? GASP_DT_F64
                           : x->in_type[k] == GASP_MT_S32 ? GASP_DT_S32 : GASP_DT_U32);
    p->role = GASP_ROLE_IN;
  }
  gasp_param *op = &t->params[t->nparams++];
  gasp_strlcpy(op->name, x->kind == GASP_RENDER_SNIPPET ? "d" : "out", sizeof op->name);
  op->type = (gasp_dtype)(x->type == GASP_MT_F32 ? GASP_DT_F32 : x->type == GASP_MT_F64 ? GASP_DT_F64
                          : x->type == GASP_MT_S32 ? GASP_DT_S32 : GASP_DT_U32);
  op->role = GASP_ROLE_OUT;
  if (x->has_scalar) {
    if (!x->used[3]) return -1;
    gasp_param *p = &t->params[t->nparams++];
    gasp_strlcpy(p->name, x->scalar_name, sizeof p->name);
    p->type = op->type;
    p->role = GASP_ROLE_SCALAR;
    gasp_strlcpy(p->value, x->scalar_value, sizeof p->value);
  }
  for (int k = 0; !arb && k < (x->group == GASP_MOP_TR ? 2 : 1); k++) {
    const char *nm = x->group == GASP_MOP_TR ? (k ? "cols" : "rows") : "n";
    gasp_param *p = &t->params[t->nparams++];
    gasp_strlcpy(p->name, nm, sizeof p->name);
    p->type = GASP_DT_U32;
    p->role = GASP_ROLE_SCALAR;
    gasp_strlcpy(p->value, nm, sizeof p->value);
  }
  char e[160];
  int col;
  if (gasp_map_parse(x->e.data, t, m, &col, e, sizeof e)) {
    gasp_str_printf(why, "generator bug: '%s' column %d: %s", x->e.data, col + 1, e);
    return -2;
  }
  gasp_str arbp;
  gasp_str_init(&arbp);
  if (arb && gasp_corpus_arb_program(m, t, x->vertex, &arbp)) {
    gasp_str_free(&arbp);
    return -1;
  }
  char title[128];
  title_of(m, x, title, sizeof title);
  gasp_str d;
  gasp_str_init(&d);
  gasp_corpus_describe(m, t, x->kind, &d);
  if (x->kind == GASP_RENDER_SNIPPET) {
    gasp_str_puts(&d, "Inputs are in registers");
    for (int k = 0; k < x->nin; k++) gasp_str_printf(&d, "%s %%%s (.%s)", k ? "," : "", x->in_name[k], tn(x->in_type[k]));
    gasp_str_printf(&d, "; write the result to %%d (.%s).\n", tn(x->type));
  } else if (x->group == GASP_MOP_TR && !x->smem) {
    gasp_str_puts(&d, "2-D launch: thread (x, y) of the grid, with c = blockIdx.x*blockDim.x + threadIdx.x and r = "
                      "blockIdx.y*blockDim.y + threadIdx.y, handles element (r, c); threads with r >= rows or c >= cols do "
                      "nothing. The inputs are read only; write to out.\n");
  } else if (x->group == GASP_MOP_TR) {
    gasp_str_puts(&d, "Use 32x32 tiles staged in shared memory. Block (32, 8): block (bx, by) handles the tile of input rows "
                      "32*by .. 32*by+31 and input columns 32*bx .. 32*bx+31; each thread computes e for 4 elements on the way "
                      "in (rows threadIdx.y + 0, 8, 16, 24 of the tile), then bar.sync, then moves 4 out. Both the global "
                      "loads and the global stores must be coalesced (consecutive threadIdx.x touch consecutive addresses). "
                      "Elements outside the matrix (r >= rows or c >= cols) are neither read nor written.\n");
  } else if (x->group) {
    /* the group text (in the description) says it all */
  } else if (!arb) {
    for (int k = 0; k < x->nin; k++)
      if (x->stride[k] != 1 || x->offset[k])
        gasp_str_printf(&d, "%s has %d*n + %d elements: element i reads %s[%d*i + %d].\n", x->in_name[k], x->stride[k],
                        x->offset[k], x->in_name[k], x->stride[k], x->offset[k]);
    if (x->has_scalar)
      gasp_str_printf(&d, "%s is a .%s scalar parameter (%s in the tests, but read it from the parameter).\n",
                      x->scalar_name, tn(x->type), x->scalar_value);
    if (x->gridstride)
      gasp_str_puts(&d, "The launch is fixed at 8 blocks of 128 threads (1024 threads) whatever n is, and n is larger, so each "
                        "thread must loop: thread t = blockIdx.x*blockDim.x + threadIdx.x handles i = t, t + T, t + 2T, ... "
                        "while i < n, with stride T = gridDim.x * blockDim.x. The inputs are read only; write to out.\n");
    else
      gasp_str_puts(&d, "One thread per element on a 1-D grid, for every i < n; threads with i >= n do nothing. The inputs "
                        "are read only; write to out.\n");
  } else {
    if (x->vertex) {
      gasp_str_puts(&d, "Write an ARB_vertex_program (`!!ARBvp1.0` ... `END`). One vertex (a point) is drawn per element on a\n"
                        "w x h RGBA32F framebuffer: element i is pixel (i % w, i / w), and every element is 4 floats (x, y, z, w).\n"
                        "`vertex.position` holds the element's pixel position in clip space, and the program must contain\n"
                        "`MOV result.position, vertex.position;` so the point lands on its pixel. Each input array is a generic\n"
                        "vertex attribute, one float4 per element:");
      for (int k = 0; k < x->nin; k++) gasp_str_printf(&d, "%s `%s` is `vertex.attrib[%d]`", k ? "," : "", x->in_name[k], k + 1);
      gasp_str_puts(&d, ".\nWrite the element of `out` to `result.color`: it reaches the pixel unchanged (no clamping) and all\n"
                        "four components are compared (tolerance rel 1e-6 plus abs 1e-6).\n");
    } else {
      gasp_str_puts(&d, "Write an ARB_fragment_program (`!!ARBfp1.0` ... `END`). The output is a w x h RGBA32F framebuffer,\n"
                        "one pixel per element: element i is pixel (i % w, i / w), and every element is 4 floats (x, y, z, w).\n"
                        "Each input array is an RGBA32F 2D texture of w x h texels, one float4 per element (texel (x, y) holds\n"
                        "element y*w + x, nearest filtering):");
      for (int k = 0; k < x->nin; k++) gasp_str_printf(&d, "%s `%s` on unit %d (`texture[%d], 2D`)", k ? "," : "", x->in_name[k], k, k);
      gasp_str_puts(&d, ".\n`TEX r, fragment.texcoord[0], texture[k], 2D;` reads the fragment's own element of the array on unit k.\n"
                        "Write the element of `out` to `result.color`: all four components are compared (tolerance rel 1e-6\n"
                        "plus abs 1e-6), and colour clamping is off, so any float passes through unchanged.\n"
                        "R300 limits: at most 64 ALU instructions, 32 TEX instructions, 4 texture indirections and 32\n"
                        "temporaries; there are no branches or loops.\n");
    }
  }
  gasp_str_printf(yaml, "# generated by gasp corpus gen (family %s): do not edit, regenerate\n", x->family);
  gasp_str_printf(yaml, "id: %s\nlevel: %d\ntitle: \"%s\"\n", id, x->level, title);
  if (arb) gasp_str_printf(yaml, "isa: arb\nprogram: %s\n", x->vertex ? "vertex" : "fragment");
  block_scalar(yaml, "description", d.data);
  gasp_str_free(&d);
  if (x->kind == GASP_RENDER_SNIPPET) gasp_str_puts(yaml, "snippet: true\n");
  gasp_str_puts(yaml, "params:\n");
  const char *cnt = arb ? "4*w*h" : x->group == GASP_MOP_TR ? "rows*cols" : "n";
  const char *ocnt = x->group == GASP_MOP_WRED ? "\"cdiv(n,32)\"" : x->group == GASP_MOP_BRED ? "\"cdiv(n,256)\"" : cnt;
  for (int i = 0; i < t->nparams; i++) {
    const gasp_param *p = &t->params[i];
    if (p->role == GASP_ROLE_IN) {
      int k = i;
      char c[48];
      if (!arb && (x->stride[k] != 1 || x->offset[k])) snprintf(c, sizeof c, "%d*n+%d", x->stride[k], x->offset[k]);
      else snprintf(c, sizeof c, "%s", cnt);
      gasp_str_printf(yaml, "  - {name: %s, type: %s, role: in, count: %s, gen: %s}\n", p->name, gasp_dtype_name(p->type), c,
                      x->positive ? "[\"uniform(0,1)\", \"lognormal(1)\", \"uniform(0,1000)\"]" : gens_for(x->in_type[k], arb));
    } else if (p->role == GASP_ROLE_OUT) {
      gasp_str_printf(yaml, "  - {name: %s, type: %s, role: out, count: %s}\n", p->name, gasp_dtype_name(p->type), ocnt);
    } else {
      gasp_str_printf(yaml, "  - {name: %s, type: %s, role: scalar, value: %s}\n", p->name, gasp_dtype_name(p->type), p->value);
    }
  }
  if (arb) gasp_str_puts(yaml, "sizes:\n  - {w: 16, h: 8}\n  - {w: 37, h: 5}\n  - {w: 64, h: 4}\nlaunch: {grid: [w, h]}\n");
  else if (x->group == GASP_MOP_TR)
    gasp_str_printf(yaml, "sizes:\n  - {rows: 67, cols: 45}\n  - {rows: 100, cols: 129}\n  - {rows: 256, cols: 200}\n"
                          "launch: {block: [32, 8], grid: [\"cdiv(cols,32)\", \"cdiv(rows,%d)\"]}\n", x->smem ? 32 : 8);
  else if (x->group)
    gasp_str_puts(yaml, "sizes:\n  - {n: 4099}\n  - {n: 1000}\n  - {n: 16384}\nlaunch: {block: [256], grid: [\"cdiv(n,256)\"]}\n");
  else if (x->kind == GASP_RENDER_SNIPPET)
    gasp_str_puts(yaml, "sizes:\n  - {n: 1000}\n  - {n: 3001}\nlaunch: {block: [128], grid: [\"cdiv(n,128)\"]}\n");
  else if (x->gridstride)
    gasp_str_puts(yaml, "sizes:\n  - {n: 5000}\n  - {n: 1031}\n  - {n: 20011}\nlaunch: {block: [128], grid: [8]}\n");
  else gasp_str_puts(yaml, "sizes:\n  - {n: 4099}\n  - {n: 1000}\n  - {n: 16384}\nlaunch: {block: [256], grid: [\"cdiv(n,256)\"]}\n");
  if (arb) gasp_str_puts(yaml, "tolerance: {rel: 1e-6, abs: 1e-6}\n");
  else if (x->positive) gasp_str_puts(yaml, "tolerance: {rel: 1e-5, abs: 0}\n");
  else if (x->level == 0) gasp_str_puts(yaml, "tolerance: {rel: 0, abs: 0}\n");
  else gasp_str_puts(yaml, "tolerance: {rel: 1e-6, abs: 0}\n");
  gasp_str_printf(yaml, "map: \"%s\"\n", x->e.data);
  if (!arb && x->kind == GASP_RENDER_SNIPPET) { /* the snippet answer: the reference backend's, and the corpus's */
    gasp_str ps;
    gasp_str_init(&ps);
    if (gasp_corpus_ptx_snippet(m, t, &ps) == 0) block_scalar(yaml, "ptx_snippet", ps.data);
    gasp_str_free(&ps);
  }
  if (arb) {
    block_scalar(yaml, "arb_reference", arbp.data);
  } else {
    gasp_str ck;
    gasp_str_init(&ck);
    c_kernel(x, t, m, 0, &ck);
    block_scalar(yaml, "cuda", ck.data);
    gasp_str_free(&ck);
    gasp_str_printf(cl, "/* %s (L%d, family %s): generated by gasp corpus gen from the same tree as its CUDA reference. */\n"
                        "#include \"gasp_amd.h\"\n\n", id, x->level, x->family);
    c_kernel(x, t, m, 1, cl);
  }
  gasp_str_printf(yaml, "tags: [generated, %s]\n", x->family);
  gasp_str_free(&arbp);
  return 0;
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

/* Draws the shape of an instance of a family. */
static void draw(inst *x, rng *r, int fam) {
  memset(x, 0, sizeof *x);
  gasp_str_init(&x->e);
  x->family = families[fam];
  for (int k = 0; k < 3; k++) x->stride[k] = 1;
  int arb = fam == 4;
  x->kind = arb ? GASP_RENDER_ARB : fam <= 1 ? GASP_RENDER_SNIPPET : GASP_RENDER_KERNEL;
  x->gridstride = fam == 3;
  /* f64 is rarer: the AMD emulator does not run f64 yet (those tasks pass on the GPU only) */
  static const gasp_map_type types[] = {GASP_MT_F32, GASP_MT_F32, GASP_MT_F32, GASP_MT_F32, GASP_MT_F64, GASP_MT_S32,
                                        GASP_MT_S32, GASP_MT_S32, GASP_MT_U32, GASP_MT_U32};
  x->type = arb ? GASP_MT_F32 : types[rnd(r, 10)];
  int fl = x->type == GASP_MT_F32 || x->type == GASP_MT_F64;
  x->nin = 1 + rnd(r, 3);
  static const char *const snames[] = {"a", "b", "c"}, *const knames[] = {"x", "y", "z"};
  for (int k = 0; k < x->nin; k++) {
    gasp_strlcpy(x->in_name[k], x->kind == GASP_RENDER_KERNEL ? knames[k] : snames[k], sizeof x->in_name[k]);
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
    gen_op(x, r, x->type, arb_l0 ? 1 : 3);
  }
}

static int family_enabled(const char *list, const char *name) {
  if (!list || !*list) return 1;
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
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "unknown family '%.*s' (ew_op, ew_seq, ew_kernel, ew_gridstride, arb)", (int)l, p);
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
  int want[16] = {0}, total_w = 0, nf = 0;
  for (int f = 0; families[f]; f++, nf++)
    if (family_enabled(o->families, families[f])) total_w += family_weight[f];
  int assigned = 0;
  for (int f = 0; f < nf; f++)
    if (family_enabled(o->families, families[f])) {
      want[f] = (int)((long long)o->count * family_weight[f] / total_w);
      assigned += want[f];
    }
  for (int f = 0; f < nf && assigned < o->count; f++)
    if (family_enabled(o->families, families[f])) {
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
      int rr = render(&x, id, &t, &m, &yaml, &cl, &why);
      if (rr == -2) {
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "%s", why.data);
        rc = -1;
      }
      if (rr == 0) {
        char which[64], key[2200];
        char *canon = gasp_map_canonical(&m, &t);
        snprintf(key, sizeof key, "%d|%d|%d|%s|%s", x.level, (int)x.kind, x.vertex, x.gridstride ? "gs" : "", canon);
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
