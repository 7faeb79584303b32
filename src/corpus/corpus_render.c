/* One map expression (src/task/map.h) rendered four ways from the same tree: the task description, the CUDA
 * reference (every float operation an explicitly rounded intrinsic, so nvcc cannot contract), the OpenCL C
 * reference for the AMD targets (tasks/amdgcn/gasp_amd.h's names) and an ARB program for r300. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"

static int is_float_t(gasp_map_type t) { return t == GASP_MT_F32 || t == GASP_MT_F64; }

/* The shortest decimal that reads back as the same float (f32) or double. */
static void shortest(double v, int f32, char *buf, size_t cap) {
  if (v == (double)(long long)v && v > -1e9 && v < 1e9) {
    snprintf(buf, cap, "%.0f", v);
    return;
  }
  for (int p = 1; p <= 17; p++) {
    snprintf(buf, cap, "%.*g", p, v);
    double r = strtod(buf, NULL);
    if (f32 ? (float)r == (float)v : r == v) return;
  }
}

static void lit_text(const gasp_map_node *n, int c_syntax, char *buf, size_t cap) {
  char num[48];
  if (n->type == GASP_MT_S32) {
    if (c_syntax && (int32_t)n->ilit < 0) snprintf(buf, cap, "(%d)", (int32_t)n->ilit);
    else snprintf(buf, cap, "%d", (int32_t)n->ilit);
    return;
  }
  if (n->type == GASP_MT_U32) {
    snprintf(buf, cap, c_syntax ? "%uu" : "%u", n->ilit);
    return;
  }
  shortest(n->lit, n->type == GASP_MT_F32, num, sizeof num);
  if (c_syntax && !strpbrk(num, ".en")) strncat(num, ".0", sizeof num - strlen(num) - 1);
  if (c_syntax && n->type == GASP_MT_F32) snprintf(buf, cap, "%s%sf%s", n->lit < 0 ? "(" : "", num, n->lit < 0 ? ")" : "");
  else if (c_syntax && n->lit < 0) snprintf(buf, cap, "(%s)", num);
  else snprintf(buf, cap, "%s", num);
}

/* GLOSS (a reword's style): the first float add, subtract, multiply or fma of a constant that no float holds
 * exactly, glossed as the benchmark's relu_leaky glosses its 0.01f ("(one rounded single-precision multiply by the
 * float nearest to 0.01, 0f3C23D70A)"). Why: s19 wrote relu_leaky right in structure 0 times in 10 in the
 * benchmark's words and 10 in 10 with only that parenthesis gone (tools/train/probe-wording.sh PROBE=leakywords,
 * tools/train/README.md "The twentieth run"); the corpus never glossed a formula. */
static int gloss_style;
static void const_gloss(const gasp_map *m, gasp_str *s) {
  for (int i = 0; i < m->count; i++) {
    const gasp_map_node *n = &m->n[i];
    const char *what = n->op == GASP_MOP_MUL ? "multiply by" : n->op == GASP_MOP_ADD ? "add of"
                       : n->op == GASP_MOP_SUB ? "subtract of" : n->op == GASP_MOP_FMA ? "fused multiply-add with" : NULL;
    if (!what || !is_float_t(n->type)) continue;
    for (int k = 0; k < n->nkids; k++) {
      const gasp_map_node *l = &m->n[n->kid[k]];
      if (l->op != GASP_MOP_LIT || !is_float_t(l->type)) continue;
      int f32 = l->type == GASP_MT_F32;
      char num[48], hex[24];
      shortest(l->lit, f32, num, sizeof num);
      /* the decimal is the value (0.25, 3): nothing to gloss; read in more precision than a double, so that a
       * double's 0.1 counts as inexact too */
      if (strtold(num, NULL) == (long double)l->lit) continue;
      gasp_corpus_ptx_lit(l, hex, sizeof hex);
      gasp_str_printf(s, " (one rounded %s %s the %s nearest to %s, %s)", f32 ? "single-precision" : "double-precision",
                      what, f32 ? "float" : "double", num, hex);
      return;
    }
  }
}

/* the root operation of the map being described (leaves of a transpose's inner expression read element j) */
static gasp_map_op c_root_op;
/* a reword's WORDS style: bit operations written AND, OR, XOR (as xor_b32 reads), set around one description (the
 * generator is single-threaded, as c_root_op assumes) */
static int words_style;
/* a kernel's formula names its leaves x[i], y[2*i + 1] (a reword's formula forms of a kernel), set likewise */
static int infix_kernel;

/* a leaf as the description names it: %a in a snippet, a[i] / a[2*i + 1] in a kernel, the scalar's name */
static void leaf_text(const gasp_map_node *n, const gasp_task *t, gasp_render_kind kind, gasp_str *s) {
  const gasp_param *p = &t->params[n->param];
  if (kind == GASP_RENDER_SNIPPET) gasp_str_printf(s, "%%%s", p->name);
  else if (kind == GASP_RENDER_ARB || p->role == GASP_ROLE_SCALAR) gasp_str_puts(s, p->name);
  else if (gasp_map_is_group(c_root_op)) gasp_str_printf(s, "%s[j]", p->name);
  else if (n->op == GASP_MOP_AT) {
    gasp_str_printf(s, "%s[", p->name);
    if (n->stride != 1) gasp_str_printf(s, "%lld*", (long long)n->stride);
    gasp_str_puts(s, "i");
    if (n->offset) gasp_str_printf(s, " + %lld", (long long)n->offset);
    gasp_str_puts(s, "]");
  } else gasp_str_printf(s, "%s[i]", p->name);
}

/* ---- description ---- */

typedef struct {
  const gasp_map *m;
  const gasp_task *t;
  gasp_render_kind kind;
  gasp_str *steps;
  int ntemp;
  int used_op[GASP_MOP_COUNT];
  int used_type[5];
  int cvt_to_int, cvt_to_float;
  int fop[GASP_MOP_COUNT], iop[GASP_MOP_COUNT]; /* operations on float and on integer operands */
  int s32cmp, u32cmp, s32shr;
  int bare;         /* form 6: bare names, temporaries named by letters, each step with how it rounds */
  int chain;        /* the CHAIN style on a chain of steps: one name for every temporary (t = ..; t = fma(t, ..)) */
  int prose;        /* the PROSE style: 1 or 2, which of two phrasings (0: symbols and function names) */
} desc_ctx;

static const char *cmp_sym(gasp_map_op op) {
  switch (op) {
  case GASP_MOP_LT: return "<";
  case GASP_MOP_LE: return "<=";
  case GASP_MOP_GT: return ">";
  case GASP_MOP_GE: return ">=";
  case GASP_MOP_EQ: return "==";
  default: return "!=";
  }
}

/* The infix symbol of a plain binary operation (with its spaces), or NULL: the steps and the formula share it */
static const char *bin_sym(gasp_map_op op) {
  switch (op) {
  case GASP_MOP_ADD: return " + ";
  case GASP_MOP_SUB: return " - ";
  case GASP_MOP_MUL: return " * ";
  case GASP_MOP_DIV: return " / ";
  case GASP_MOP_REM: return " % ";
  case GASP_MOP_AND: return " & ";
  case GASP_MOP_OR: return " | ";
  case GASP_MOP_XOR: return " ^ ";
  default: return NULL;
  }
}

/* bin_sym, in the WORDS style for the bit operations */
static const char *bin_text(gasp_map_op op) {
  if (words_style && op == GASP_MOP_AND) return " AND ";
  if (words_style && op == GASP_MOP_OR) return " OR ";
  if (words_style && op == GASP_MOP_XOR) return " XOR ";
  return bin_sym(op);
}

/* What one instruction does, in words after its formula (the WORDS style: "%d = %a XOR %b, bitwise over all 32
 * bits", "%d = |%a|, the absolute value", as the benchmark's L0 tasks gloss theirs); "" when the formula says it */
static const char *gloss(const gasp_map_node *n) {
  switch (n->op) {
  case GASP_MOP_AND: case GASP_MOP_OR: case GASP_MOP_XOR: return ", bitwise over all 32 bits";
  case GASP_MOP_ABS: return ", the absolute value";
  case GASP_MOP_NEG: return ", the negation";
  case GASP_MOP_SQRT: return ", the square root";
  case GASP_MOP_POPC: return ", the number of 1 bits";
  case GASP_MOP_MIN: return ", the smaller of the two";
  case GASP_MOP_MAX: return ", the larger of the two";
  case GASP_MOP_SHL: return ", a left shift";
  case GASP_MOP_SHR: return ", a right shift";
  case GASP_MOP_FMA: return n->type == GASP_MT_F32 || n->type == GASP_MT_F64 ? ", a fused multiply-add" : ", a multiply-add";
  case GASP_MOP_CVT: return ", a conversion";
  default: return "";
  }
}

/* How one step rounds, in the benchmark's words (lerp_f32: "s = b - a (rounded subtract), then d = fma(t, s, a)
 * (fused multiply-add, rounded once)"): form 6 says it after every float step. */
static const char *rounding_note(const gasp_map_node *n) {
  if (!is_float_t(n->type)) return "";
  switch (n->op) {
  case GASP_MOP_ADD: return " (rounded add)";
  case GASP_MOP_SUB: return " (rounded subtract)";
  case GASP_MOP_MUL: return " (rounded multiply)";
  case GASP_MOP_DIV: return " (rounded divide)";
  case GASP_MOP_FMA: return " (fused multiply-add, rounded once)";
  case GASP_MOP_SQRT: return " (rounded square root)";
  default: return "";
  }
}

/* Whether the steps below node id form one chain, each using only the one before it (dot3 and horner_poly3
 * word such a chain with one name: "t = fma(0.5, x, -1.25); t = fma(t, x, 2.0); d = fma(t, x, 0.75)"). Operations
 * are the nodes above literals, comparisons pass through to their operands. */
static int op_kids(const gasp_map *m, int id, int *only) {
  int n = 0;
  for (int k = 0; k < m->n[id].nkids; k++) {
    int c = m->n[id].kid[k];
    if (m->n[c].op <= GASP_MOP_LIT || m->n[c].op == GASP_MOP_ACC) continue;
    if (m->n[c].type == GASP_MT_PRED) {
      n += op_kids(m, c, only);
      continue;
    }
    n++;
    *only = c;
  }
  return n;
}

static int is_chain(const gasp_map *m, int id) {
  int only = -1, n = op_kids(m, id, &only);
  return n == 0 || (n == 1 && is_chain(m, only));
}

/* whether a parameter of t is named name */
static int param_named(const gasp_task *t, const char *name) {
  for (int j = 0; j < t->nparams; j++)
    if (!strcmp(t->params[j].name, name)) return 1;
  return 0;
}

/* The k-th temporary's name: t1, t2, ...; in form 6 single letters no parameter has (lerp_f32's s), the
 * numbered names again when they run out */
static void temp_name(const desc_ctx *c, int k, char *buf, size_t cap) {
  static const char *const letters[] = {"s", "t", "u", "w", "p", "q", "e", "g", "h", "k", "m", "r"};
  if (c->chain) { /* t, or the first letter no parameter has */
    for (size_t i = 1; i < sizeof letters / sizeof letters[0] + 1; i++) {
      const char *l = letters[i % (sizeof letters / sizeof letters[0])];
      if (!param_named(c->t, l)) {
        snprintf(buf, cap, "%s", l);
        return;
      }
    }
  }
  if (c->bare) {
    int seen = 0;
    for (size_t i = 0; i < sizeof letters / sizeof letters[0]; i++) {
      if (!param_named(c->t, letters[i]) && ++seen == k) {
        snprintf(buf, cap, "%s", letters[i]);
        return;
      }
    }
  }
  snprintf(buf, cap, "t%d", k);
}

/* A type in the PROSE style's words: as a noun ("32-bit signed integer %a") or what a value is converted to */
static const char *prose_type(gasp_map_type t, int noun) {
  switch (t) {
  case GASP_MT_F32: return noun ? "single precision value" : "single precision";
  case GASP_MT_F64: return noun ? "double precision value" : "double precision";
  case GASP_MT_S32: return noun ? "32-bit signed integer" : "a 32-bit signed integer";
  case GASP_MT_U32: return noun ? "32-bit unsigned integer" : "a 32-bit unsigned integer";
  default: return "";
  }
}

/* The PROSE style (gasp corpus reword): an operation in words, as people describe the ones with no infix symbol
 * ("the number of 1 bits in %a", "%a converted to single precision", "the square root of %a"; the benchmark's
 * popc_b32, cvt_f32_s32 and sqrt_f32 read so). A model that wrote popc.b32 for "%d = popc(%a)" wrote xor.b32 for
 * the same computation in words (tools/train/README.md, "The seventh run"). alt picks the second of two phrasings.
 * Returns 0 for an operation written with its symbol in every style. */
static int prose_op(const gasp_map_node *n, int alt, const char *a, const char *b, const char *z, gasp_str *e) {
  const char *and31 = words_style ? "AND" : "&";
  switch (n->op) {
  case GASP_MOP_SQRT: gasp_str_printf(e, alt ? "the correctly rounded square root of %s" : "the square root of %s", a); return 1;
  case GASP_MOP_POPC:
    gasp_str_printf(e, alt ? "the count of set bits in the 32-bit value %s" : "the number of 1 bits in %s", a);
    return 1;
  case GASP_MOP_CVT:
    if (alt) gasp_str_printf(e, "the %s %s converted to %s", prose_type(n->src, 1), a, prose_type(n->type, 0));
    else gasp_str_printf(e, "%s converted to %s", a, prose_type(n->type, 0));
    return 1;
  case GASP_MOP_ABS: gasp_str_printf(e, alt ? "the magnitude of %s" : "the absolute value of %s", a); return 1;
  case GASP_MOP_NEG: gasp_str_printf(e, alt ? "-%s (the sign flipped)" : "the negation of %s", a); return 1;
  case GASP_MOP_MIN: gasp_str_printf(e, alt ? "the minimum of %s and %s" : "the smaller of %s and %s", a, b); return 1;
  case GASP_MOP_MAX: gasp_str_printf(e, alt ? "the maximum of %s and %s" : "the larger of %s and %s", a, b); return 1;
  case GASP_MOP_SHL: case GASP_MOP_SHR: {
    const char *dir = n->op == GASP_MOP_SHL ? "left" : "right";
    if (alt) gasp_str_printf(e, "%s shifted %s by the low 5 bits of %s", a, dir, b);
    else gasp_str_printf(e, "%s shifted %s by (%s %s 31) bits", a, dir, b, and31);
    return 1;
  }
  case GASP_MOP_FMA:
    if (is_float_t(n->type))
      gasp_str_printf(e, alt ? "the fused multiply-add %s * %s + %s (rounded once)" : "%s * %s + %s as one fused multiply-add",
                      a, b, z);
    else gasp_str_printf(e, alt ? "%s * %s + %s (the low 32 bits)" : "the low 32 bits of %s * %s + %s", a, b, z);
    return 1;
  default: return 0;
  }
}

/* Writes node id as an operand: a leaf or literal inline, an operation as a numbered temporary whose step is
 * appended first (post-order: the order the description asks the operations to be done in). The root is
 * written to the output by the caller. */
static void desc_node(desc_ctx *c, int id, gasp_str *out);

static void desc_op(desc_ctx *c, int id, gasp_str *e) {
  const gasp_map_node *n = &c->m->n[id];
  gasp_str k[3];
  for (int i = 0; i < n->nkids; i++) {
    gasp_str_init(&k[i]);
    desc_node(c, n->kid[i], &k[i]);
  }
  c->used_op[n->op] = 1;
  gasp_map_type ot = n->type == GASP_MT_PRED ? n->src : n->type;
  c->used_type[ot] = 1;
  if (n->op == GASP_MOP_CVT) { /* what a conversion's notes say, in symbols or words alike */
    if (is_float_t(n->type)) c->cvt_to_float = 1;
    else c->cvt_to_int = 1;
    c->used_type[n->src] = 1;
  }
  if (n->op != GASP_MOP_CVT && n->op != GASP_MOP_SEL) {
    if (is_float_t(ot)) c->fop[n->op] = 1;
    else {
      c->iop[n->op] = 1;
      int cmpish = n->op == GASP_MOP_MIN || n->op == GASP_MOP_MAX || (n->op >= GASP_MOP_LT && n->op <= GASP_MOP_GE);
      if (cmpish && ot == GASP_MT_S32) c->s32cmp = 1;
      if (cmpish && ot == GASP_MT_U32) c->u32cmp = 1;
      if (n->op == GASP_MOP_SHR && ot == GASP_MT_S32) c->s32shr = 1;
    }
  }
  const char *a = n->nkids > 0 ? k[0].data : "", *b = n->nkids > 1 ? k[1].data : "", *z = n->nkids > 2 ? k[2].data : "";
  const char *bin = bin_text(n->op);
  if (c->prose && prose_op(n, c->prose == 2, a, b, z, e)) {
    /* written in words */
  } else if (bin) gasp_str_printf(e, "%s%s%s", a, bin, b);
  else switch (n->op) {
  case GASP_MOP_FMA: gasp_str_printf(e, "%s(%s, %s, %s)", is_float_t(n->type) ? "fma" : "mad.lo", a, b, z); break;
  case GASP_MOP_MIN: gasp_str_printf(e, "min(%s, %s)", a, b); break;
  case GASP_MOP_MAX: gasp_str_printf(e, "max(%s, %s)", a, b); break;
  case GASP_MOP_ABS: gasp_str_printf(e, "|%s|", a); break;
  case GASP_MOP_NEG: gasp_str_printf(e, "-%s", a); break;
  case GASP_MOP_SQRT: gasp_str_printf(e, "sqrt(%s)", a); break;
  case GASP_MOP_POPC: gasp_str_printf(e, "popc(%s)", a); break;
  case GASP_MOP_SHL: gasp_str_printf(e, "%s << (%s & 31)", a, b); break;
  case GASP_MOP_SHR: gasp_str_printf(e, "%s >> (%s & 31)", a, b); break;
  case GASP_MOP_LRP: gasp_str_printf(e, "lrp(%s, %s, %s)", a, b, z); break;
  case GASP_MOP_LT: case GASP_MOP_LE: case GASP_MOP_GT: case GASP_MOP_GE: case GASP_MOP_EQ: case GASP_MOP_NE:
    gasp_str_printf(e, "%s %s %s", a, cmp_sym(n->op), b);
    break;
  case GASP_MOP_SEL: gasp_str_printf(e, "(%s) ? %s : %s", a, b, z); break;
  case GASP_MOP_CVT: gasp_str_printf(e, "%s(%s)", gasp_map_type_name(n->type), a); break;
  default: break;
  }
  for (int i = 0; i < n->nkids; i++) gasp_str_free(&k[i]);
}

static void desc_node(desc_ctx *c, int id, gasp_str *out) {
  const gasp_map_node *n = &c->m->n[id];
  if (n->op == GASP_MOP_ACC) {
    gasp_str_puts(out, "v");
    return;
  }
  if (n->op == GASP_MOP_LEAF || n->op == GASP_MOP_AT) {
    if (c->bare) gasp_str_puts(out, c->t->params[n->param].name);
    else leaf_text(n, c->t, c->kind, out);
    return;
  }
  if (n->op == GASP_MOP_LIT) {
    char buf[48];
    lit_text(n, 0, buf, sizeof buf);
    gasp_str_puts(out, buf);
    return;
  }
  gasp_str e;
  gasp_str_init(&e);
  desc_op(c, id, &e);
  /* a comparison is written inline into its select: it is a condition, not a value */
  if (n->type == GASP_MT_PRED) {
    gasp_str_puts(out, e.data);
  } else {
    int k = ++c->ntemp;
    char name[16];
    temp_name(c, k, name, sizeof name);
    gasp_str_printf(c->steps, "  %s = %s%s\n", name, e.data, c->bare ? rounding_note(n) : "");
    gasp_str_puts(out, name);
  }
  gasp_str_free(&e);
}

static int arrays_style; /* GASP_CORPUS_STYLE_ARRAYS on a kernel: the type as C names its elements */
/* A type in words; a reword's style picks one of five phrasings (0 is the generator's), since the benchmark's
 * own read "in single precision, round to nearest even" (add_f32) or "on 32-bit signed integers" (mad_s32): a
 * model trained on "(f32)" alone wrote an integer add for add_f32's wording and a float add for the corpus's */
static const char *type_words_v(gasp_map_type t, int v) {
  /* ARRAYS: "in floats", the noun of the arrays' sentence, so that it is the only name of the type (as vector_add's
   * "two float arrays" is) */
  if (arrays_style && (t == GASP_MT_F32 || t == GASP_MT_F64 || t == GASP_MT_S32 || t == GASP_MT_U32))
    return t == GASP_MT_F32 ? "floats" : t == GASP_MT_F64 ? "doubles" : t == GASP_MT_S32 ? "ints" : "unsigned ints";
  static const char *const w[4][GASP_CORPUS_TYPE_WORDINGS] = {
      {"single precision (f32)", "single precision", "f32", "32-bit floats (.f32)", "single precision, round to nearest even"},
      {"double precision (f64)", "double precision", "f64", "64-bit floats (.f64)", "double precision, round to nearest even"},
      {"32-bit signed integers (s32)", "32-bit signed integers", "s32", "signed 32-bit integers (.s32)",
       "32-bit signed integers, keeping the low 32 bits"},
      {"32-bit unsigned integers (u32)", "32-bit unsigned integers", "u32", "unsigned 32-bit integers (.u32)",
       "32-bit unsigned integers, keeping the low 32 bits"}};
  int i = t == GASP_MT_F32 ? 0 : t == GASP_MT_F64 ? 1 : t == GASP_MT_S32 ? 2 : t == GASP_MT_U32 ? 3 : -1;
  return i < 0 ? "" : w[i][v >= 0 && v < GASP_CORPUS_TYPE_WORDINGS ? v : 0];
}
static const char *type_words(gasp_map_type t) { return type_words_v(t, 0); }

static const char *red_word(gasp_map_op red) { return red == GASP_MOP_ADD ? "sum" : red == GASP_MOP_MIN ? "minimum" : "maximum"; }

static const char *identity_text(gasp_map_op red, gasp_map_type t) {
  if (red == GASP_MOP_ADD) return "0";
  int mx = red == GASP_MOP_MAX;
  switch (t) {
  case GASP_MT_F32: case GASP_MT_F64: return mx ? "-infinity" : "+infinity";
  case GASP_MT_S32: return mx ? "-2147483648" : "2147483647";
  default: return mx ? "0" : "4294967295";
  }
}

/* what a group form computes and how it is launched */
static void group_text(const gasp_map *m, const gasp_task *t, gasp_str *s) {
  const gasp_map_node *r = &m->n[m->root];
  const char *o = t->params[m->out].name, *w = red_word(r->red), *id = identity_text(r->red, r->type);
  const char *cmb = r->red == GASP_MOP_ADD ? "+" : r->red == GASP_MOP_MIN ? "min" : "max";
  switch (r->op) {
  case GASP_MOP_WRED:
    gasp_str_printf(s, "Blocks of 256 threads on a 1-D grid; global thread i = blockIdx.x*blockDim.x + threadIdx.x, and warp "
                       "w = i / 32 owns elements 32w .. 32w+31. Each warp computes the %s of its values e[j] with warp "
                       "shuffles (shfl.sync, no shared memory): %s[w] = %s of e[j] for 32w <= j < min(32w+32, n). Elements "
                       "j >= n are missing (only the last warp can be partial): their lanes take part with %s. %s has "
                       "cdiv(n,32) entries: lane 0 of each warp that owns at least one element writes %s[w]. All 32 lanes "
                       "of a warp must take part in the shuffles, including lanes with i >= n.\n",
                    w, o, w, id, o, o);
    break;
  case GASP_MOP_BRED:
    gasp_str_printf(s, "Blocks of 256 threads on a 1-D grid. Block b computes the %s of its 256 values e[j] through shared "
                       "memory with barriers (bar.sync): %s[b] = %s of e[j] for 256b <= j < min(256b+256, n); elements at "
                       "j >= n are missing (use %s for them). %s has cdiv(n,256) entries, one per block, written by one "
                       "thread of the block.\n",
                    w, o, w, id, o);
    break;
  case GASP_MOP_WSCAN:
    gasp_str_printf(s, "Blocks of 256 threads on a 1-D grid; global thread i = blockIdx.x*blockDim.x + threadIdx.x, warp "
                       "w = i / 32. Inclusive prefix %s within each warp of 32 elements: %s[i] = e[32w] %s ... %s e[i] "
                       "for every i < n. Use warp shuffles (shfl.sync.up, 5 steps); lanes with i >= n take part with %s "
                       "and write nothing.\n",
                    w, o, cmb, cmb, id);
    break;
  case GASP_MOP_BSCAN: case GASP_MOP_BXSCAN:
    gasp_str_printf(s, "Blocks of 256 threads on a 1-D grid; global thread i = blockIdx.x*256 + threadIdx.x, block b = "
                       "blockIdx.x. %s prefix %s within each block of 256 elements: %s[i] = ",
                    r->op == GASP_MOP_BSCAN ? "Inclusive" : "Exclusive", w, o);
    if (r->op == GASP_MOP_BSCAN) gasp_str_printf(s, "e[256b] %s ... %s e[i]", cmb, cmb);
    else gasp_str_printf(s, "e[256b] %s ... %s e[i-1], and %s for the block's first element", cmb, cmb, id);
    gasp_str_printf(s, ", for every i < n. Use shared memory and barriers (bar.sync). Elements at i >= n do not exist: "
                       "threads with i >= n contribute %s and write nothing.\n", id);
    break;
  case GASP_MOP_TR:
    gasp_str_printf(s, "The inputs are row-major matrices of rows x cols elements; %s is a row-major matrix of cols x rows: "
                       "the transpose of e, %s[c*rows + r] = e[r*cols + c] for every r < rows, c < cols, ", o, o);
    break;
  default: break;
  }
  if (r->red != GASP_MOP_ADD && (r->type == GASP_MT_F32 || r->type == GASP_MT_F64) && r->op != GASP_MOP_TR)
    gasp_str_printf(s, "The %s skips NaN values: a NaN value counts as %s, so a group of NaN values gives %s.\n", w, id, id);
  if (r->red == GASP_MOP_ADD && (r->type == GASP_MT_F32 || r->type == GASP_MT_F64))
    gasp_str_puts(s, "The values e[j] are never negative, so the summation order changes the result only by rounding "
                     "(compared to 1e-5 relative).\n");
}

/* Binding strength of an operation in the formula (C's order): a child binding less than its context is
 * parenthesised. The ternary select binds least, functions and leaves most. */
static int infix_prec(const gasp_map_node *n) {
  switch (n->op) {
  case GASP_MOP_SEL: return 1;
  case GASP_MOP_OR: return 2;
  case GASP_MOP_XOR: return 3;
  case GASP_MOP_AND: return 4;
  case GASP_MOP_EQ: case GASP_MOP_NE: return 5;
  case GASP_MOP_LT: case GASP_MOP_LE: case GASP_MOP_GT: case GASP_MOP_GE: return 6;
  case GASP_MOP_SHL: case GASP_MOP_SHR: return 7;
  case GASP_MOP_ADD: case GASP_MOP_SUB: return 8;
  case GASP_MOP_MUL: case GASP_MOP_DIV: case GASP_MOP_REM: return 9;
  case GASP_MOP_FMA: return is_float_t(n->type) ? 11 : 8; /* an integer fma is written a * b + c */
  case GASP_MOP_NEG: return 10;
  default: return 11;
  }
}

static void infix(const gasp_map *m, const gasp_task *t, int id, int ctx, gasp_str *o) {
  const gasp_map_node *n = &m->n[id];
  if (n->op == GASP_MOP_LEAF || n->op == GASP_MOP_AT) {
    if (infix_kernel) leaf_text(n, t, GASP_RENDER_KERNEL, o);
    else gasp_str_puts(o, t->params[n->param].name);
    return;
  }
  if (n->op == GASP_MOP_ACC) {
    gasp_str_puts(o, "v");
    return;
  }
  if (n->op == GASP_MOP_LIT) {
    char buf[48];
    lit_text(n, 0, buf, sizeof buf);
    gasp_str_printf(o, buf[0] == '-' && ctx > 1 ? "(%s)" : "%s", buf);
    return;
  }
  int p = infix_prec(n), paren = p < ctx;
  if (paren) gasp_str_puts(o, "(");
  const int *k = n->kid;
  const char *bin = bin_text(n->op);
  if (bin) {
    /* bit operations bind below + in C, which reads wrongly: their operands are parenthesised unless atoms */
    int bits = n->op == GASP_MOP_AND || n->op == GASP_MOP_OR || n->op == GASP_MOP_XOR;
    infix(m, t, k[0], bits ? 10 : p, o);
    gasp_str_puts(o, bin);
    infix(m, t, k[1], bits ? 10 : p + 1, o);
  } else switch (n->op) {
  case GASP_MOP_LT: case GASP_MOP_LE: case GASP_MOP_GT: case GASP_MOP_GE: case GASP_MOP_EQ: case GASP_MOP_NE:
    infix(m, t, k[0], p + 1, o);
    gasp_str_printf(o, " %s ", cmp_sym(n->op));
    infix(m, t, k[1], p + 1, o);
    break;
  case GASP_MOP_SHL: case GASP_MOP_SHR: {
    infix(m, t, k[0], 10, o);
    gasp_str_puts(o, n->op == GASP_MOP_SHL ? " << " : " >> ");
    const gasp_map_node *b = &m->n[k[1]];
    if (b->op == GASP_MOP_LIT && b->ilit < 32) gasp_str_printf(o, "%u", b->ilit);
    else {
      gasp_str_puts(o, "(");
      infix(m, t, k[1], 10, o);
      gasp_str_puts(o, " & 31)");
    }
    break;
  }
  case GASP_MOP_FMA:
    if (is_float_t(n->type)) {
      gasp_str_puts(o, "fma(");
      for (int i = 0; i < 3; i++) {
        if (i) gasp_str_puts(o, ", ");
        infix(m, t, k[i], 0, o);
      }
      gasp_str_puts(o, ")");
    } else { /* mad.lo: the low 32 bits of a * b + c, which wrapping arithmetic gives as written */
      infix(m, t, k[0], 9, o);
      gasp_str_puts(o, " * ");
      infix(m, t, k[1], 10, o);
      gasp_str_puts(o, " + ");
      infix(m, t, k[2], 9, o);
    }
    break;
  case GASP_MOP_MIN: case GASP_MOP_MAX:
    gasp_str_puts(o, n->op == GASP_MOP_MIN ? "min(" : "max(");
    infix(m, t, k[0], 0, o);
    gasp_str_puts(o, ", ");
    infix(m, t, k[1], 0, o);
    gasp_str_puts(o, ")");
    break;
  case GASP_MOP_ABS: case GASP_MOP_SQRT: case GASP_MOP_POPC:
    gasp_str_puts(o, n->op == GASP_MOP_ABS ? "|" : n->op == GASP_MOP_SQRT ? "sqrt(" : "popc(");
    infix(m, t, k[0], 0, o);
    gasp_str_puts(o, n->op == GASP_MOP_ABS ? "|" : ")");
    break;
  case GASP_MOP_NEG:
    gasp_str_puts(o, "-");
    infix(m, t, k[0], p, o);
    break;
  case GASP_MOP_CVT:
    gasp_str_printf(o, "%s(", gasp_map_type_name(n->type));
    infix(m, t, k[0], 0, o);
    gasp_str_puts(o, ")");
    break;
  case GASP_MOP_SEL:
    infix(m, t, k[0], p + 1, o);
    gasp_str_puts(o, " ? ");
    infix(m, t, k[1], p + 1, o);
    gasp_str_puts(o, " : ");
    infix(m, t, k[2], p, o);
    break;
  case GASP_MOP_LRP:
    gasp_str_puts(o, "lrp(");
    for (int i = 0; i < 3; i++) {
      if (i) gasp_str_puts(o, ", ");
      infix(m, t, k[i], 0, o);
    }
    gasp_str_puts(o, ")");
    break;
  default: gasp_str_printf(o, "%s(...)", gasp_map_op_name(n->op)); break;
  }
  if (paren) gasp_str_puts(o, ")");
}

void gasp_corpus_formula(const gasp_map *m, const gasp_task *t, gasp_str *s) { infix(m, t, m->root, 0, s); }

/* A select written as cases, the way the benchmark's select_sign and relu_leaky read: "-1 if x < 0, 1 if x > 0,
 * otherwise 0" (a select in the else branch continues the list). */
static void case_value(const gasp_map *m, const gasp_task *t, int id, gasp_str *s) {
  infix(m, t, id, m->n[id].op == GASP_MOP_LIT ? 0 : 2, s); /* "-1 if", but "(a < b ? a : b) if" */
}

void gasp_corpus_cases(const gasp_map *m, const gasp_task *t, int id, gasp_str *s) {
  const gasp_map_node *n = &m->n[id];
  case_value(m, t, n->kid[1], s);
  gasp_str_puts(s, " if ");
  infix(m, t, n->kid[0], 0, s);
  if (m->n[n->kid[2]].op == GASP_MOP_SEL) {
    gasp_str_puts(s, ", ");
    gasp_corpus_cases(m, t, n->kid[2], s);
  } else {
    gasp_str_puts(s, ", otherwise ");
    case_value(m, t, n->kid[2], s);
  }
}

/* The numbered steps ("  t1 = e\n  t2 = e\n") on one line, joined by sep. */
static void steps_inline(const char *steps, const char *sep, gasp_str *o) {
  int first = 1;
  for (const char *p = steps; *p;) {
    while (*p == ' ') p++;
    const char *e = strchr(p, '\n');
    int n = e ? (int)(e - p) : (int)strlen(p);
    if (n) gasp_str_printf(o, "%s%.*s", first ? "" : sep, n, p);
    first = first && !n;
    p += n + (e != NULL);
  }
}

/* FNV-1a over the map's nodes: picks a description's wording, deterministic and independent of the generator's
 * random stream (the same seed writes the same tasks whatever the wordings) */
static uint32_t map_hash(const gasp_map *m) {
  uint32_t h = 2166136261u;
  for (int i = 0; i < m->count; i++) h = (h ^ (uint32_t)(m->n[i].op * 31 + m->n[i].param + 7 * m->n[i].type) ^ m->n[i].ilit) * 16777619u;
  return h;
}

void gasp_corpus_describe(const gasp_map *m, const gasp_task *t, gasp_render_kind kind, gasp_str *s) {
  gasp_corpus_describe_form(m, t, kind, -1, s);
}

uint32_t gasp_corpus_wording_hash(const gasp_map *m) { return map_hash(m); }

int gasp_corpus_has_steps(const gasp_map *m) {
  int ops = 0;
  for (int i = 0; i < m->count; i++)
    ops += m->n[i].op > GASP_MOP_LIT && m->n[i].op != GASP_MOP_ACC && m->n[i].type != GASP_MT_PRED;
  return ops >= 2;
}

void gasp_corpus_describe_form(const gasp_map *m, const gasp_task *t, gasp_render_kind kind, int want, gasp_str *s) {
  gasp_corpus_describe_styled(m, t, kind, want, 0, s);
}

static void describe(const gasp_map *m, const gasp_task *t, gasp_render_kind kind, int want, unsigned style, gasp_str *s);

/* the input arrays by their element type's C name, when they share one ("two float arrays", "an int array") */
static void array_sentence(const gasp_task *t, const char *lead, gasp_str *s) {
  static const char *const count[] = {"", "", "two", "three", "four", "five", "six", "seven", "eight"};
  int n = 0;
  gasp_dtype ty = GASP_DT_F32;
  for (int i = 0; i < t->nparams; i++) {
    if (t->params[i].role != GASP_ROLE_IN) continue;
    if (n && t->params[i].type != ty) return; /* mixed types: no one noun */
    ty = t->params[i].type;
    n++;
  }
  const char *noun = ty == GASP_DT_F32 ? "float" : ty == GASP_DT_F64 ? "double" : ty == GASP_DT_S32 ? "int"
                     : ty == GASP_DT_U32 ? "unsigned int" : NULL;
  if (!noun || n < 1 || n > 8) return;
  const char *an = noun[0] == 'i' || noun[0] == 'u' ? "an" : "a";
  if (lead && n == 1) gasp_str_printf(s, "Element-wise %s of %s %s array: ", lead, an, noun);
  else if (lead) gasp_str_printf(s, "Element-wise %s of %s %s arrays: ", lead, count[n], noun);
  else if (n == 1) gasp_str_printf(s, "An element-wise kernel over %s %s array.\n", an, noun);
  else gasp_str_printf(s, "An element-wise kernel over %s %s arrays.\n", count[n], noun);
}

/* The noun of ARRAYS_LEAD's sentence: what the root operation makes of its operands, as the benchmark names it
 * ("sum", vector_add; "product", vector_mul_s32) */
static const char *lead_noun(gasp_map_op op) {
  switch (op) {
  case GASP_MOP_ADD: return "sum";
  case GASP_MOP_SUB: return "difference";
  case GASP_MOP_MUL: return "product";
  case GASP_MOP_FMA: return "multiply-add";
  case GASP_MOP_MIN: return "minimum";
  case GASP_MOP_MAX: return "maximum";
  default: return "map";
  }
}

void gasp_corpus_describe_styled(const gasp_map *m, const gasp_task *t, gasp_render_kind kind, int want, unsigned style,
                                 gasp_str *s) {
  int styled = kind == GASP_RENDER_SNIPPET || kind == GASP_RENDER_KERNEL;
  words_style = styled && (style & GASP_CORPUS_STYLE_WORDS);
  infix_kernel = kind == GASP_RENDER_KERNEL;
  arrays_style = kind == GASP_RENDER_KERNEL && (style & GASP_CORPUS_STYLE_ARRAYS);
  gloss_style = styled && (style & GASP_CORPUS_STYLE_GLOSS);
  describe(m, t, kind, want, style, s);
  words_style = infix_kernel = arrays_style = gloss_style = 0;
}

static void describe(const gasp_map *m, const gasp_task *t, gasp_render_kind kind, int want, unsigned style, gasp_str *s) {
  /* a kernel takes a chosen form and style too (gasp corpus reword), though the generator gives it form 0; group
   * forms and loops have their own one wording */
  gasp_map_op root_op = m->n[m->root].op;
  int chosen = kind == GASP_RENDER_SNIPPET ||
               (kind == GASP_RENDER_KERNEL && want >= 0 && !gasp_map_is_group(root_op) && root_op != GASP_MOP_LOOP);
  desc_ctx c;
  memset(&c, 0, sizeof c);
  c.m = m;
  c.t = t;
  c.kind = kind;
  c_root_op = m->n[m->root].op;
  gasp_str steps, root;
  gasp_str_init(&steps);
  gasp_str_init(&root);
  c.steps = &steps;
  /* form 6 names a sequence's values bare */
  c.bare = kind == GASP_RENDER_SNIPPET && want % GASP_CORPUS_FORMS == 6 && !gasp_map_is_group(root_op) &&
           root_op != GASP_MOP_LOOP && gasp_corpus_has_steps(m);
  /* and one instruction's form 3 (a reword's only), as the benchmark's one-instruction L1 tasks read: "d = a * b + c
   * on 32-bit signed integers" (mad_s32), no "one instruction", so that a model meets a bare formula answered by
   * one instruction that writes the result register itself; it had met bare formulas only as sequences, and
   * answered mad_s32 with the right instruction into a temporary (models/train-2026-12-04-run9/ptx-r1.jsonl.xz) */
  int bare_one = kind == GASP_RENDER_SNIPPET && want == GASP_CORPUS_ONE_BARE && !gasp_map_is_group(root_op) &&
                 root_op != GASP_MOP_LOOP && !gasp_corpus_has_steps(m);
  if (bare_one) c.bare = 1;
  const gasp_param *out = &t->params[m->out];
  const gasp_map_node *rn = &m->n[m->root];
  if (rn->op == GASP_MOP_LOOP) {
    gasp_str cnt, init, step;
    gasp_str_init(&cnt);
    gasp_str_init(&init);
    gasp_str_init(&step);
    for (int k = 0; k < 2; k++) {
      int id = rn->kid[k];
      if (m->n[id].op > GASP_MOP_LIT) desc_op(&c, id, k ? &init : &cnt);
      else desc_node(&c, id, k ? &init : &cnt);
    }
    int before = c.ntemp;
    desc_op(&c, rn->kid[2], &step);
    gasp_str_printf(s, "A loop whose trip count is data, in %s: for every i < n, start with v = %s; then repeat cnt "
                       "times, where cnt = %s:\n%s  v = %s\nand write %s[i] = v (cnt = 0 leaves v as it started).\n",
                    type_words(rn->type), init.data, cnt.data, steps.len ? steps.data : "", step.data, out->name);
    (void)before;
    gasp_str_free(&cnt);
    gasp_str_free(&init);
    gasp_str_free(&step);
    gasp_str_free(&steps);
    gasp_str_init(&steps);
    c.ntemp = 1; /* the notes below as for a sequence */
    goto notes;
  }
  /* ARRAYS: "An element-wise kernel over two float arrays." The shipped model of 2026-12-05 answered vector_add
   * ("Element-wise sum of two float arrays") with an integer add on 10 of 10 samples, and 7-10 of 10 with a float
   * add when the same sentence said "f32 (single-precision float) arrays" or the corpus's "in single precision
   * (f32)" (tools/train/probe-wording.sh, PROBE=vadd; tools/train/README.md, "The twelfth run"): the corpus never
   * called an f32 array a float array */
  int group = gasp_map_is_group(rn->op), top = group ? rn->kid[0] : m->root;
  gasp_map_type rt = m->n[top].type;
  c.chain = chosen && (style & GASP_CORPUS_STYLE_CHAIN) && is_chain(m, top);
  c.prose = !chosen || !(style & GASP_CORPUS_STYLE_PROSE) ? 0 : style & GASP_CORPUS_STYLE_PROSE_ALT ? 2 : 1;
  if (m->n[top].op <= GASP_MOP_LIT) desc_node(&c, top, &root);
  else desc_op(&c, top, &root);
  /* a sequence's form (below); 6 without bare steps (no step feeds another) is the inline form 3 */
  int seq_form = !chosen ? 0 : want >= 0 ? want % GASP_CORPUS_FORMS : (int)(map_hash(m) % 6);
  if (seq_form == 6 && !c.bare) seq_form = 3;
  if (arrays_style && chosen) {
    /* the benchmark's shape only where the formula comes next on the line: one operation, or the sequence forms
     * that open with "out[i] = ..." (1, 3, 4, 5) */
    int formula_first = !group && kind == GASP_RENDER_KERNEL &&
                        (c.ntemp == 0 || seq_form == 1 || seq_form == 3 || seq_form == 4 || seq_form == 5);
    array_sentence(t, (style & GASP_CORPUS_STYLE_ARRAYS_LEAD) && formula_first ? lead_noun(m->n[top].op) : NULL, s);
  }
  char outname[48];
  if (group) snprintf(outname, sizeof outname, "e[j]");
  else if (kind == GASP_RENDER_SNIPPET && !c.bare) snprintf(outname, sizeof outname, "%%%s", out->name);
  else if (kind == GASP_RENDER_SNIPPET) snprintf(outname, sizeof outname, "%s", out->name);
  else if (kind == GASP_RENDER_ARB) snprintf(outname, sizeof outname, "%s", out->name);
  else snprintf(outname, sizeof outname, "%s[i]", out->name);
  int twv = chosen ? (int)(style & GASP_CORPUS_STYLE_TYPE) : 0;
  if (group) group_text(m, t, s);
  if (kind == GASP_RENDER_ARB) gasp_str_puts(s, "For every element and every component (x, y, z, w): ");
  if (group && c.ntemp == 0) {
    gasp_str_printf(s, "where %s = %s, in %s.\n", outname, root.data, type_words(rt));
  } else if (group) {
    gasp_str_printf(s, "where %s is computed in %s, one operation after another in exactly this order:\n%s  %s = %s\n",
                    outname, type_words(rt), steps.data, outname, root.data);
  } else if (c.ntemp == 0) {
    if (bare_one) {
      gasp_str_printf(s, "%s = %s", outname, root.data);
      if (gloss_style) const_gloss(m, s);
      gasp_str_printf(s, ", in %s.\n", type_words_v(rt, twv));
      goto notes;
    }
    /* three wordings for a snippet, by the hash below, as the benchmark's L0 tasks word theirs in several ways */
    int form = !chosen ? 0 : want >= 0 ? want % 3 : (int)(map_hash(m) % 3);
    if (kind == GASP_RENDER_SNIPPET && form < 2) gasp_str_puts(s, "One instruction: ");
    gasp_str_printf(s, "%s = %s%s", outname, root.data, words_style && !c.prose ? gloss(&m->n[top]) : "");
    if (gloss_style) const_gloss(m, s);
    if (form == 1 && is_float_t(rt))
      gasp_str_printf(s, " in %s (IEEE 754, round to nearest even where rounding applies, denormals preserved, no flush "
                         "to zero).\n", type_words_v(rt, twv == 4 ? 1 : twv));
    else if (form == 1 && (rn->op == GASP_MOP_ADD || rn->op == GASP_MOP_SUB || rn->op == GASP_MOP_MUL ||
                           rn->op == GASP_MOP_FMA || rn->op == GASP_MOP_NEG || rn->op == GASP_MOP_SHL))
      gasp_str_printf(s, " in %s, keeping the low 32 bits (two's complement wraparound).\n", type_words_v(rt, twv == 4 ? 1 : twv));
    else if (form == 2)
      gasp_str_printf(s, ": one instruction in %s.\n", type_words_v(rt, twv));
    else /* form 0, and form 1 of an operation that cannot wrap */
      gasp_str_printf(s, ", in %s.\n", type_words_v(rt, twv));
  } else {
    /* Snippets are described in six forms, chosen by the map's hash, since the benchmark's own descriptions
     * vary: the steps alone (0); the formula, then the steps one a line (1, 2); the formula with the steps
     * inline, "computed as: .., then .." (3) or "in this order: ..; .." (4), as lerp_f32, dot3 and horner_poly3
     * read; or the formula alone (5), as mad_s32 and clamp_f32 read, a select as cases ("x if x > 0, otherwise
     * 0.01 * x") as relu_leaky and select_sign read. The notes below say how every operation rounds, so the
     * formula alone is exact in C's order of evaluation. */
    int form = seq_form;
    /* the formula's left side: d in a snippet, out[i] in a kernel */
    const char *lead = kind == GASP_RENDER_KERNEL ? outname : out->name;
    gasp_str f;
    gasp_str_init(&f);
    if (form == 5 && rn->op == GASP_MOP_SEL) gasp_corpus_cases(m, t, m->root, &f);
    else if (form) gasp_corpus_formula(m, t, &f);
    if (form && gloss_style) const_gloss(m, &f);
    const char *tw = type_words_v(rt, twv);
    switch (form) {
    case 1:
      gasp_str_printf(s, "%s = %s, computed in %s one operation after another in exactly this order:\n%s  %s = %s\n",
                      lead, f.data, tw, steps.data, outname, root.data);
      break;
    case 2:
      gasp_str_printf(s, "Compute %s = %s in %s, one operation after another in exactly this order:\n%s  %s = %s\n",
                      lead, f.data, tw, steps.data, outname, root.data);
      break;
    case 3: case 4:
      gasp_str_printf(s, form == 3 ? "%s = %s in %s, computed as: " : "%s = %s, evaluated in %s in this order: ", lead,
                      f.data, tw);
      steps_inline(steps.data, form == 3 ? ", then " : "; ", s);
      gasp_str_printf(s, "%s%s = %s.\n", form == 3 ? ", then " : "; ", outname, root.data);
      break;
    case 5:
      gasp_str_printf(s, "%s = %s, in %s.\n", lead, f.data, tw);
      break;
    case 6:
      gasp_str_printf(s, "%s = %s in %s, computed as: ", out->name, f.data, tw);
      steps_inline(steps.data, ", then ", s);
      gasp_str_printf(s, ", then %s = %s%s.\n", outname, root.data, rounding_note(&m->n[top]));
      break;
    default:
      gasp_str_printf(s, "Compute %s in %s, one operation after another in exactly this order:\n%s  %s = %s\n",
                      kind == GASP_RENDER_ARB ? "out" : outname, tw, steps.data, outname, root.data);
    }
    gasp_str_free(&f);
  }
notes:;
  int fl = 0, in = 0;
  for (int k = 0; k < GASP_MOP_COUNT; k++) {
    fl |= c.fop[k];
    in |= c.iop[k];
  }
  if (kind == GASP_RENDER_ARB) {
    gasp_str_puts(s, "Every operation rounds to float on its own (a multiply followed by an add may be one MAD: this "
                     "renderer does not fuse it).");
    if (c.used_op[GASP_MOP_LRP]) gasp_str_puts(s, " lrp(t, x, y) = y + t * (x - y), as LRP computes it.");
    if (c.used_op[GASP_MOP_SEL]) gasp_str_puts(s, " A condition picks per component; a true comparison gives 1.0 where the result is 1.0 or 0.0.");
    gasp_str_puts(s, "\n");
    gasp_str_free(&steps);
    gasp_str_free(&root);
    return;
  }
  /* terse (a reword's style): no notes where they add nothing the operations do not say themselves; division,
   * shifts, conversions, comparisons and selects keep theirs (truncation, masking, saturation, NaN) */
  if (chosen && (style & GASP_CORPUS_STYLE_TERSE)) {
    int plain = 1;
    for (int k = 0; k < GASP_MOP_COUNT; k++)
      if (c.used_op[k] && k != GASP_MOP_ADD && k != GASP_MOP_SUB && k != GASP_MOP_MUL && k != GASP_MOP_FMA &&
          k != GASP_MOP_NEG && k != GASP_MOP_ABS && k != GASP_MOP_AND && k != GASP_MOP_OR && k != GASP_MOP_XOR &&
          k != GASP_MOP_MIN && k != GASP_MOP_MAX)
        plain = 0;
    if (plain) fl = in = 0;
  }
  if (fl) {
    gasp_str_puts(s, "Every float operation rounds to nearest even on its own");
    if (c.fop[GASP_MOP_FMA]) gasp_str_puts(s, "; fma(x, y, z) is the fused multiply-add, rounded once");
    gasp_str_puts(s, "; no other operations may be fused or reordered. Denormals are preserved (no flush to zero).");
    if (c.fop[GASP_MOP_SQRT] || c.fop[GASP_MOP_DIV])
      gasp_str_puts(s, " Division and sqrt are the IEEE 754 correctly rounded operations, not approximations.");
    if (c.fop[GASP_MOP_MIN] || c.fop[GASP_MOP_MAX]) gasp_str_puts(s, " min and max return the other operand when one is NaN, and -0 is below +0.");
    if (c.fop[GASP_MOP_LRP]) gasp_str_puts(s, " lrp(t, x, y) = y + t * (x - y), three rounded operations.");
    int fcmp = 0;
    for (int k = GASP_MOP_LT; k <= GASP_MOP_NE; k++) fcmp |= c.fop[k];
    if (fcmp) gasp_str_puts(s, " A comparison with a NaN operand is false (!= is true).");
    gasp_str_puts(s, "\n");
  }
  if (in) {
    gasp_str_puts(s, "Integer arithmetic wraps modulo 2^32 (keep the low 32 bits)");
    if (c.iop[GASP_MOP_FMA]) gasp_str_puts(s, "; mad.lo(x, y, z) = low 32 bits of x * y + z");
    if (c.iop[GASP_MOP_SHL] || c.iop[GASP_MOP_SHR])
      gasp_str_printf(s, "; shift amounts are taken modulo 32%s", c.s32shr ? " and >> on s32 is arithmetic (sign-filling)" : "");
    if (c.iop[GASP_MOP_DIV] || c.iop[GASP_MOP_REM]) gasp_str_puts(s, "; / truncates toward zero and % takes the sign of the dividend");
    if (c.iop[GASP_MOP_POPC]) gasp_str_puts(s, "; popc(x) is the number of 1 bits in the 32 bits of x (0 to 32)");
    if (c.s32cmp) gasp_str_puts(s, "; s32 comparisons are signed");
    if (c.u32cmp) gasp_str_puts(s, "; u32 comparisons are unsigned");
    gasp_str_puts(s, ".\n");
  }
  if (c.cvt_to_float) gasp_str_puts(s, "f32(x) and f64(x) convert to that float type, rounding to nearest even.\n");
  if (c.cvt_to_int)
    gasp_str_puts(s, "s32(x) and u32(x) convert a float to an integer truncating toward zero, saturating at the type's "
                     "range, NaN giving 0 (cvt.rzi.sat).\n");
  gasp_str_free(&steps);
  gasp_str_free(&root);
}

void gasp_corpus_registers_text(const gasp_task *t, int form, gasp_str *s) {
  int nin = 0, same = 1;
  const gasp_param *in[GASP_MAX_PARAMS], *out = NULL;
  for (int i = 0; i < t->nparams; i++) {
    if (t->params[i].role == GASP_ROLE_IN) in[nin++] = &t->params[i];
    if (t->params[i].role == GASP_ROLE_OUT && !out) out = &t->params[i];
  }
  for (int k = 1; k < nin; k++) same &= in[k]->type == in[0]->type;
  if (same && nin && form % 3) {
    gasp_str_puts(s, nin == 1 ? "The input is in register" : form % 3 == 1 ? "The inputs are in registers" : "Inputs are in registers");
    for (int k = 0; k < nin; k++) gasp_str_printf(s, "%s%%%s", k == 0 ? " " : k == nin - 1 ? " and " : ", ", in[k]->name);
    gasp_str_printf(s, " (.%s)", gasp_dtype_name(in[0]->type));
  } else {
    gasp_str_puts(s, "Inputs are in registers");
    for (int k = 0; k < nin; k++) gasp_str_printf(s, "%s %%%s (.%s)", k ? "," : "", in[k]->name, gasp_dtype_name(in[k]->type));
  }
  if (out) gasp_str_printf(s, "; write the result to %%%s (.%s).\n", out->name, gasp_dtype_name(out->type));
}

/* ---- C (CUDA and OpenCL) ---- */

enum { H_MIN_S32, H_MAX_S32, H_MIN_U32, H_MAX_U32, H_ABS_S32, H_F2I, H_F2U, H_D2I, H_D2U, H_COUNT };

static const char *const helper_names[H_COUNT] = {"g_min_s32", "g_max_s32", "g_min_u32", "g_max_u32", "g_abs_s32",
                                                  "g_f2i", "g_f2u", "g_d2i", "g_d2u"};

static void add_helper(gasp_str *h, int *have, int which, int cl) {
  char key[32];
  snprintf(key, sizeof key, " %s(", helper_names[which]);
  if (have[which] || (h->data && strstr(h->data, key))) return;
  have[which] = 1;
  const char *q = cl ? "static inline" : "__device__ __forceinline__ static";
  switch (which) {
  case H_MIN_S32: gasp_str_printf(h, "%s int g_min_s32(int a, int b) { return a < b ? a : b; }\n", q); break;
  case H_MAX_S32: gasp_str_printf(h, "%s int g_max_s32(int a, int b) { return a > b ? a : b; }\n", q); break;
  case H_MIN_U32: gasp_str_printf(h, "%s unsigned g_min_u32(unsigned a, unsigned b) { return a < b ? a : b; }\n", q); break;
  case H_MAX_U32: gasp_str_printf(h, "%s unsigned g_max_u32(unsigned a, unsigned b) { return a > b ? a : b; }\n", q); break;
  case H_ABS_S32: gasp_str_printf(h, "%s int g_abs_s32(int a) { return a < 0 ? (int)(0u - (unsigned)a) : a; }\n", q); break;
  /* OpenCL's (int)x is undefined out of range: saturate and map NaN to 0 as cvt.rzi.sat and v_cvt_i32_f32 do */
  case H_F2I: gasp_str_printf(h, "%s int g_f2i(float x) { return x != x ? 0 : x >= 2147483648.0f ? 2147483647 : x <= -2147483648.0f ? (-2147483647 - 1) : (int)x; }\n", q); break;
  case H_F2U: gasp_str_printf(h, "%s unsigned g_f2u(float x) { return x != x || x <= 0.0f ? 0u : x >= 4294967296.0f ? 4294967295u : (unsigned)x; }\n", q); break;
  case H_D2I: gasp_str_printf(h, "%s int g_d2i(double x) { return x != x ? 0 : x >= 2147483647.0 ? 2147483647 : x <= -2147483648.0 ? (-2147483647 - 1) : (int)x; }\n", q); break;
  case H_D2U: gasp_str_printf(h, "%s unsigned g_d2u(double x) { return x != x || x <= 0.0 ? 0u : x >= 4294967295.0 ? 4294967295u : (unsigned)x; }\n", q); break;
  }
}

typedef struct {
  const gasp_map *m;
  const gasp_task *t;
  int cl;
  gasp_str *h;
  int have[H_COUNT];
} c_ctx;

static void c_node(c_ctx *c, int id, gasp_str *s) {
  const gasp_map_node *n = &c->m->n[id];
  const gasp_param *p = n->param >= 0 ? &c->t->params[n->param] : NULL;
  char buf[64];
  switch (n->op) {
  case GASP_MOP_LEAF:
    if (p->role == GASP_ROLE_SCALAR) gasp_str_puts(s, p->name);
    else gasp_str_printf(s, "%s[i]", p->name);
    return;
  case GASP_MOP_AT:
    gasp_str_printf(s, "%s[%lldu * i + %lldu]", p->name, (long long)n->stride, (long long)n->offset);
    return;
  case GASP_MOP_LIT:
    lit_text(n, 1, buf, sizeof buf);
    gasp_str_puts(s, buf);
    return;
  case GASP_MOP_ACC:
    gasp_str_puts(s, "v");
    return;
  default: break;
  }
  gasp_str k[3];
  for (int i = 0; i < n->nkids; i++) {
    gasp_str_init(&k[i]);
    c_node(c, n->kid[i], &k[i]);
  }
  const char *a = n->nkids > 0 ? k[0].data : "", *b = n->nkids > 1 ? k[1].data : "", *z = n->nkids > 2 ? k[2].data : "";
  gasp_map_type t = n->type;
  int f32 = t == GASP_MT_F32, f64 = t == GASP_MT_F64, s32 = t == GASP_MT_S32;
  /* CUDA's f64 intrinsics; OpenCL has FP_CONTRACT OFF (gasp_amd.h), so its plain operators round one by one */
  const char *dop = NULL;
  switch (n->op) {
  case GASP_MOP_ADD: case GASP_MOP_SUB: case GASP_MOP_MUL: case GASP_MOP_DIV: {
    int o = n->op == GASP_MOP_ADD ? 0 : n->op == GASP_MOP_SUB ? 1 : n->op == GASP_MOP_MUL ? 2 : 3;
    static const char *const fn[4] = {"__fadd_rn", "__fsub_rn", "__fmul_rn", "__fdiv_rn"};
    static const char *const dn[4] = {"__dadd_rn", "__dsub_rn", "__dmul_rn", "__ddiv_rn"};
    static const char *const sym[4] = {"+", "-", "*", "/"};
    if (f32) gasp_str_printf(s, "%s(%s, %s)", fn[o], a, b);
    else if (f64 && !c->cl) gasp_str_printf(s, "%s(%s, %s)", dn[o], a, b);
    else if (f64 || o == 3) gasp_str_printf(s, "(%s %s %s)", a, sym[o], b);
    else if (s32) gasp_str_printf(s, "(int)((unsigned)%s %s (unsigned)%s)", a, sym[o], b);
    else gasp_str_printf(s, "(%s %s %s)", a, sym[o], b);
    break;
  }
  case GASP_MOP_REM: gasp_str_printf(s, "(%s %% %s)", a, b); break;
  case GASP_MOP_FMA:
    if (f32) gasp_str_printf(s, "__fmaf_rn(%s, %s, %s)", a, b, z);
    else if (f64) gasp_str_printf(s, "%s(%s, %s, %s)", c->cl ? "__builtin_fma" : "__fma_rn", a, b, z);
    else if (s32) gasp_str_printf(s, "(int)((unsigned)%s * (unsigned)%s + (unsigned)%s)", a, b, z);
    else gasp_str_printf(s, "(%s * %s + %s)", a, b, z);
    break;
  case GASP_MOP_MIN: case GASP_MOP_MAX: {
    int mx = n->op == GASP_MOP_MAX;
    if (f32) dop = mx ? "fmaxf" : "fminf";
    else if (f64) dop = c->cl ? (mx ? "__builtin_fmax" : "__builtin_fmin") : (mx ? "fmax" : "fmin");
    else {
      int h = s32 ? (mx ? H_MAX_S32 : H_MIN_S32) : (mx ? H_MAX_U32 : H_MIN_U32);
      add_helper(c->h, c->have, h, c->cl);
      dop = h == H_MAX_S32 ? "g_max_s32" : h == H_MIN_S32 ? "g_min_s32" : h == H_MAX_U32 ? "g_max_u32" : "g_min_u32";
    }
    gasp_str_printf(s, "%s(%s, %s)", dop, a, b);
    break;
  }
  case GASP_MOP_ABS:
    if (f32) gasp_str_printf(s, "fabsf(%s)", a);
    else if (f64) gasp_str_printf(s, "%s(%s)", c->cl ? "__builtin_fabs" : "fabs", a);
    else {
      add_helper(c->h, c->have, H_ABS_S32, c->cl);
      gasp_str_printf(s, "g_abs_s32(%s)", a);
    }
    break;
  case GASP_MOP_NEG:
    if (s32) gasp_str_printf(s, "(int)(0u - (unsigned)%s)", a);
    else if (!f32 && !f64) gasp_str_printf(s, "(0u - %s)", a);
    else gasp_str_printf(s, "(-%s)", a);
    break;
  case GASP_MOP_SQRT:
    if (f32) gasp_str_printf(s, "__fsqrt_rn(%s)", a);
    else gasp_str_printf(s, "%s(%s)", c->cl ? "__builtin_sqrt" : "__dsqrt_rn", a);
    break;
  case GASP_MOP_AND: gasp_str_printf(s, "(%s & %s)", a, b); break;
  case GASP_MOP_OR: gasp_str_printf(s, "(%s | %s)", a, b); break;
  case GASP_MOP_XOR: gasp_str_printf(s, "(%s ^ %s)", a, b); break;
  /* CUDA's __popc takes unsigned and returns int (gasp_amd.h maps it to __builtin_popcount) */
  case GASP_MOP_POPC: gasp_str_printf(s, "%s__popc((unsigned)%s)", s32 ? "(int)" : "(unsigned)", a); break;
  case GASP_MOP_SHL:
    if (s32) gasp_str_printf(s, "(int)((unsigned)%s << ((unsigned)%s & 31u))", a, b);
    else gasp_str_printf(s, "(%s << (%s & 31u))", a, b);
    break;
  case GASP_MOP_SHR: gasp_str_printf(s, "(%s >> ((unsigned)%s & 31u))", a, b); break;
  case GASP_MOP_LRP:
    if (f32) gasp_str_printf(s, "__fadd_rn(%s, __fmul_rn(%s, __fsub_rn(%s, %s)))", z, a, b, z);
    else if (!c->cl) gasp_str_printf(s, "__dadd_rn(%s, __dmul_rn(%s, __dsub_rn(%s, %s)))", z, a, b, z);
    else gasp_str_printf(s, "(%s + %s * (%s - %s))", z, a, b, z);
    break;
  case GASP_MOP_LT: case GASP_MOP_LE: case GASP_MOP_GT: case GASP_MOP_GE: case GASP_MOP_EQ: case GASP_MOP_NE:
    gasp_str_printf(s, "(%s %s %s)", a, cmp_sym(n->op), b);
    break;
  case GASP_MOP_SEL: gasp_str_printf(s, "(%s ? %s : %s)", a, b, z); break;
  case GASP_MOP_CVT: {
    gasp_map_type src = n->src;
    if (t == GASP_MT_F32) {
      if (c->cl) gasp_str_printf(s, "((float)%s)", a);
      else gasp_str_printf(s, "%s(%s)", src == GASP_MT_S32 ? "__int2float_rn" : src == GASP_MT_U32 ? "__uint2float_rn" : "__double2float_rn", a);
    } else if (t == GASP_MT_F64) {
      gasp_str_printf(s, "((double)%s)", a);
    } else {
      int h = t == GASP_MT_S32 ? (src == GASP_MT_F32 ? H_F2I : H_D2I) : (src == GASP_MT_F32 ? H_F2U : H_D2U);
      if (c->cl) {
        add_helper(c->h, c->have, h, 1);
        gasp_str_printf(s, "%s(%s)", h == H_F2I ? "g_f2i" : h == H_D2I ? "g_d2i" : h == H_F2U ? "g_f2u" : "g_d2u", a);
      } else {
        gasp_str_printf(s, "%s(%s)", h == H_F2I ? "__float2int_rz" : h == H_D2I ? "__double2int_rz" : h == H_F2U ? "__float2uint_rz" : "__double2uint_rz", a);
      }
    }
    break;
  }
  default: break;
  }
  for (int i = 0; i < n->nkids; i++) gasp_str_free(&k[i]);
}

void gasp_corpus_expr_c_node(const gasp_map *m, const gasp_task *t, int cl, int node, gasp_str *s, gasp_str *helpers) {
  c_ctx c;
  memset(&c, 0, sizeof c);
  c.m = m;
  c.t = t;
  c.cl = cl;
  c.h = helpers;
  c_node(&c, node, s);
}

void gasp_corpus_expr_c(const gasp_map *m, const gasp_task *t, int cl, gasp_str *s, gasp_str *helpers) {
  c_ctx c;
  memset(&c, 0, sizeof c);
  c.m = m;
  c.t = t;
  c.cl = cl;
  c.h = helpers;
  const gasp_map_node *r = &m->n[m->root];
  c_node(&c, gasp_map_is_group(r->op) ? r->kid[0] : m->root, s);
}

/* ---- ARB ---- */

typedef struct {
  const gasp_map *m;
  const gasp_task *t;
  int vertex;
  gasp_str body, decl;
  int ntemp, nlit, failed;
  double lits[32];
} arb_ctx;

static int arb_lit(arb_ctx *c, double v) {
  for (int i = 0; i < c->nlit; i++)
    if (c->lits[i] == v) return i;
  if (c->nlit == 32) {
    c->failed = 1;
    return 0;
  }
  char buf[48];
  shortest(v, 1, buf, sizeof buf);
  if (!strpbrk(buf, ".e")) strncat(buf, ".0", sizeof buf - strlen(buf) - 1);
  gasp_str_printf(&c->decl, "PARAM k%d = {%s, %s, %s, %s};\n", c->nlit, buf, buf, buf, buf);
  c->lits[c->nlit] = v;
  return c->nlit++;
}

static int is_lit(const arb_ctx *c, int id, double v) {
  return c->m->n[id].op == GASP_MOP_LIT && c->m->n[id].lit == v;
}

/* Emits node id and writes the operand naming its value into out. dst: the register to write (NULL: a new
 * temporary). */
static void arb_node(arb_ctx *c, int id, const char *dst, gasp_str *out) {
  const gasp_map_node *n = &c->m->n[id];
  if (c->failed) return;
  if (n->op == GASP_MOP_LEAF) {
    const gasp_param *p = &c->t->params[n->param];
    if (p->role != GASP_ROLE_IN) { c->failed = 1; return; }
    gasp_str_printf(out, "%s", p->name);
    if (dst) gasp_str_printf(&c->body, "MOV %s, %s;\n", dst, p->name);
    return;
  }
  if (n->op == GASP_MOP_LIT) {
    int k = arb_lit(c, n->lit);
    gasp_str_printf(out, "k%d", k);
    if (dst) gasp_str_printf(&c->body, "MOV %s, k%d;\n", dst, k);
    return;
  }
  if (n->op != GASP_MOP_ADD && n->op != GASP_MOP_SUB && n->op != GASP_MOP_MUL && n->op != GASP_MOP_MIN &&
      n->op != GASP_MOP_MAX && n->op != GASP_MOP_ABS && n->op != GASP_MOP_NEG && n->op != GASP_MOP_LRP &&
      n->op != GASP_MOP_SEL) {
    c->failed = 1;
    return;
  }
  char reg[32];
  if (dst) snprintf(reg, sizeof reg, "%s", dst);
  else {
    snprintf(reg, sizeof reg, "t%d", c->ntemp++);
    if (c->ntemp > 24) c->failed = 1;
  }
  gasp_str k[3];
  for (int i = 0; i < 3; i++) gasp_str_init(&k[i]);
  const gasp_map_node *x = n->nkids ? &c->m->n[n->kid[0]] : NULL;
  if (n->op == GASP_MOP_ADD && (x->op == GASP_MOP_MUL || c->m->n[n->kid[1]].op == GASP_MOP_MUL)) {
    /* a product feeding an add is one MAD (not fused on llvmpipe: the same as MUL then ADD) */
    int mi = x->op == GASP_MOP_MUL ? n->kid[0] : n->kid[1], other = mi == n->kid[0] ? n->kid[1] : n->kid[0];
    arb_node(c, c->m->n[mi].kid[0], NULL, &k[0]);
    arb_node(c, c->m->n[mi].kid[1], NULL, &k[1]);
    arb_node(c, other, NULL, &k[2]);
    gasp_str_printf(&c->body, "MAD %s, %s, %s, %s;\n", reg, k[0].data, k[1].data, k[2].data);
  } else if (n->op == GASP_MOP_SEL) {
    const gasp_map_node *p = x;
    if (p->op == GASP_MOP_LT && is_lit(c, p->kid[1], 0.0) && !c->vertex) {
      arb_node(c, p->kid[0], NULL, &k[0]);
      arb_node(c, n->kid[1], NULL, &k[1]);
      arb_node(c, n->kid[2], NULL, &k[2]);
      gasp_str_printf(&c->body, "CMP %s, %s, %s, %s;\n", reg, k[0].data, k[1].data, k[2].data);
    } else if ((p->op == GASP_MOP_LT || p->op == GASP_MOP_GE) && is_lit(c, n->kid[1], 1.0) && is_lit(c, n->kid[2], 0.0)) {
      arb_node(c, p->kid[0], NULL, &k[0]);
      arb_node(c, p->kid[1], NULL, &k[1]);
      gasp_str_printf(&c->body, "%s %s, %s, %s;\n", p->op == GASP_MOP_LT ? "SLT" : "SGE", reg, k[0].data, k[1].data);
    } else {
      c->failed = 1;
    }
  } else if (n->op == GASP_MOP_LRP) {
    if (c->vertex) c->failed = 1; /* ARB_vertex_program has no LRP */
    for (int i = 0; i < 3; i++) arb_node(c, n->kid[i], NULL, &k[i]);
    gasp_str_printf(&c->body, "LRP %s, %s, %s, %s;\n", reg, k[0].data, k[1].data, k[2].data);
  } else if (n->op == GASP_MOP_NEG) {
    arb_node(c, n->kid[0], NULL, &k[0]);
    gasp_str_printf(&c->body, "MOV %s, -%s;\n", reg, k[0].data);
  } else {
    static const char *const names[GASP_MOP_COUNT] = {[GASP_MOP_ADD] = "ADD", [GASP_MOP_SUB] = "SUB", [GASP_MOP_MUL] = "MUL",
                                                      [GASP_MOP_MIN] = "MIN", [GASP_MOP_MAX] = "MAX", [GASP_MOP_ABS] = "ABS"};
    for (int i = 0; i < n->nkids; i++) arb_node(c, n->kid[i], NULL, &k[i]);
    gasp_str_printf(&c->body, "%s %s", names[n->op], reg);
    for (int i = 0; i < n->nkids; i++) gasp_str_printf(&c->body, ", %s", k[i].data);
    gasp_str_puts(&c->body, ";\n");
  }
  gasp_str_puts(out, reg);
  for (int i = 0; i < 3; i++) gasp_str_free(&k[i]);
}

int gasp_corpus_arb_program(const gasp_map *m, const gasp_task *t, int vertex, gasp_str *s) {
  arb_ctx c;
  memset(&c, 0, sizeof c);
  c.m = m;
  c.t = t;
  c.vertex = vertex;
  gasp_str_init(&c.body);
  gasp_str_init(&c.decl);
  gasp_str res;
  gasp_str_init(&res);
  arb_node(&c, m->root, "result.color", &res);
  int rc = c.failed ? -1 : 0;
  if (!rc) {
    gasp_str_puts(s, vertex ? "!!ARBvp1.0\n" : "!!ARBfp1.0\n");
    int k = 0;
    for (int i = 0; i < t->nparams; i++) {
      const gasp_param *p = &t->params[i];
      if (p->role != GASP_ROLE_IN) continue;
      if (vertex) gasp_str_printf(s, "ATTRIB %s = vertex.attrib[%d];\n", p->name, k + 1);
      k++;
    }
    if (c.decl.len) gasp_str_puts(s, c.decl.data);
    if (!vertex && k) {
      gasp_str_puts(s, "TEMP ");
      int first = 1;
      for (int i = 0; i < t->nparams; i++)
        if (t->params[i].role == GASP_ROLE_IN) {
          gasp_str_printf(s, "%s%s", first ? "" : ", ", t->params[i].name);
          first = 0;
        }
      gasp_str_puts(s, ";\n");
    }
    if (c.ntemp) {
      gasp_str_puts(s, "TEMP ");
      for (int i = 0; i < c.ntemp; i++) gasp_str_printf(s, "%st%d", i ? ", " : "", i);
      gasp_str_puts(s, ";\n");
    }
    if (vertex) gasp_str_puts(s, "MOV result.position, vertex.position;\n");
    k = 0;
    for (int i = 0; i < t->nparams; i++)
      if (t->params[i].role == GASP_ROLE_IN) {
        if (!vertex) gasp_str_printf(s, "TEX %s, fragment.texcoord[0], texture[%d], 2D;\n", t->params[i].name, k);
        k++;
      }
    gasp_str_puts(s, c.body.data ? c.body.data : "");
    gasp_str_puts(s, "END\n");
  }
  gasp_str_free(&c.body);
  gasp_str_free(&c.decl);
  gasp_str_free(&res);
  return rc;
}

/* ---- group forms: the combination and its identity in C ---- */

void gasp_corpus_combine_c(gasp_map_op red, gasp_map_type t, int cl, const char *a, const char *b, gasp_str *s,
                           gasp_str *helpers) {
  int have[H_COUNT] = {0};
  if (red == GASP_MOP_ADD) {
    if (t == GASP_MT_F32) gasp_str_printf(s, "__fadd_rn(%s, %s)", a, b);
    else if (t == GASP_MT_F64) gasp_str_printf(s, cl ? "(%s + %s)" : "__dadd_rn(%s, %s)", a, b);
    else if (t == GASP_MT_S32) gasp_str_printf(s, "(int)((unsigned)%s + (unsigned)%s)", a, b);
    else gasp_str_printf(s, "(%s + %s)", a, b);
    return;
  }
  int mx = red == GASP_MOP_MAX;
  if (t == GASP_MT_F32) gasp_str_printf(s, "%s(%s, %s)", mx ? "fmaxf" : "fminf", a, b);
  else if (t == GASP_MT_F64) gasp_str_printf(s, "%s(%s, %s)", cl ? (mx ? "__builtin_fmax" : "__builtin_fmin") : (mx ? "fmax" : "fmin"), a, b);
  else {
    int h = t == GASP_MT_S32 ? (mx ? H_MAX_S32 : H_MIN_S32) : (mx ? H_MAX_U32 : H_MIN_U32);
    add_helper(helpers, have, h, cl);
    gasp_str_printf(s, "%s(%s, %s)", helper_names[h], a, b);
  }
}

const char *gasp_corpus_identity_c(gasp_map_op red, gasp_map_type t, int cl) {
  int mx = red == GASP_MOP_MAX;
  switch (t) {
  case GASP_MT_F32:
    if (red == GASP_MOP_ADD) return "0.0f";
    if (cl) return mx ? "(-__builtin_inff())" : "__builtin_inff()";
    return mx ? "__int_as_float(0xff800000)" : "__int_as_float(0x7f800000)";
  case GASP_MT_F64:
    if (red == GASP_MOP_ADD) return "0.0";
    if (cl) return mx ? "(-__builtin_inf())" : "__builtin_inf()";
    return mx ? "__longlong_as_double(0xfff0000000000000LL)" : "__longlong_as_double(0x7ff0000000000000LL)";
  case GASP_MT_S32: return red == GASP_MOP_ADD ? "0" : mx ? "(-2147483647 - 1)" : "2147483647";
  default: return red == GASP_MOP_ADD ? "0u" : mx ? "0u" : "4294967295u";
  }
}
