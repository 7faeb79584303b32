/* Map expressions (map.h): parser, exact evaluator and canonical form. Float operations are spelled out
 * one by one so that each rounds once; host contraction into fma is switched off below (GCC's default for
 * GNU C is -ffp-contract=fast), the build also passes -ffp-contract=off for this file. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#include "map.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"

/* Float min/max: a NaN operand gives the other, and -0 is below +0 (IEEE 754-2019 minimumNumber/maximumNumber),
 * as PTX min/max.f32/f64 ("+0.0 > -0.0") and AMD V_MIN_F32/V_MAX_F32 (explicit +-0 cases in the RDNA2 ISA
 * pseudo-code) compute them. C's fminf/fmaxf leave the zero's sign unspecified: glibc x86-64 returns the second
 * operand on a tie and GCC may swap the operands, so 1/max(+0, -0) came out -inf where the GPUs give +inf. */
static float minmax_f32(float a, float b, int max) {
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return (signbit(a) != 0) == (max != 0) ? b : a; /* equal zeros: max keeps +0, min keeps -0 */
  return (max ? a > b : a < b) ? a : b;
}
static double minmax_f64(double a, double b, int max) {
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return (signbit(a) != 0) == (max != 0) ? b : a;
  return (max ? a > b : a < b) ? a : b;
}

static const char *const op_names[GASP_MOP_COUNT] = {
    "leaf", "at", "lit", "add", "sub", "mul", "fma", "min", "max", "abs", "neg", "sqrt", "div", "rem", "and",
    "or", "xor", "shl", "shr", "lrp", "lt", "le", "gt", "ge", "eq", "ne", "sel", "cvt", "popc",
    "wred", "bred", "wscan", "bscan", "bxscan", "tr", "loop", "acc"};
static const char *const type_names[] = {"f32", "f64", "s32", "u32", "pred"};

const char *gasp_map_op_name(gasp_map_op op) { return op < GASP_MOP_COUNT ? op_names[op] : "?"; }
const char *gasp_map_type_name(gasp_map_type t) { return t <= GASP_MT_PRED ? type_names[t] : "?"; }

static int is_float(gasp_map_type t) { return t == GASP_MT_F32 || t == GASP_MT_F64; }
static int is_cmp(gasp_map_op op) { return op >= GASP_MOP_LT && op <= GASP_MOP_NE; }
int gasp_map_is_group(gasp_map_op op) { return op >= GASP_MOP_WRED && op <= GASP_MOP_TR; }

static int type_of_dtype(gasp_dtype d) {
  switch (d) {
  case GASP_DT_F32: return GASP_MT_F32;
  case GASP_DT_F64: return GASP_MT_F64;
  case GASP_DT_S32: return GASP_MT_S32;
  case GASP_DT_U32: return GASP_MT_U32;
  default: return -1;
  }
}

static int type_from_name(const char *s, size_t n) {
  for (int i = 0; i < GASP_MT_PRED; i++)
    if (strlen(type_names[i]) == n && !strncmp(type_names[i], s, n)) return i;
  return -1;
}

/* ---- parser ---- */

typedef struct {
  const char *s, *p;
  const gasp_task *task;
  gasp_map *m;
  char *err;
  size_t errcap;
  int failed, col;
  int in_step;       /* inside a loop's step: `acc` names the running value */
  gasp_map_type acc_type;
} parser;

static int fail(parser *P, const char *fmt, ...) {
  if (P->failed) return -1;
  P->failed = 1;
  P->col = (int)(P->p - P->s);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(P->err, P->errcap, fmt, ap);
  va_end(ap);
  return -1;
}

static void skip_ws(parser *P) {
  while (isspace((unsigned char)*P->p)) P->p++;
}

static size_t token(parser *P, const char **start) {
  skip_ws(P);
  *start = P->p;
  while (*P->p && !isspace((unsigned char)*P->p) && *P->p != '(' && *P->p != ')') P->p++;
  return (size_t)(P->p - *start);
}

static int new_node(parser *P) {
  if (P->m->count == GASP_MAP_MAX_NODES) return fail(P, "more than %d nodes", GASP_MAP_MAX_NODES);
  gasp_map_node *n = &P->m->n[P->m->count];
  memset(n, 0, sizeof *n);
  n->param = -1;
  return P->m->count++;
}

static int find_param(parser *P, const char *name, size_t len) {
  for (int i = 0; i < P->task->nparams; i++)
    if (strlen(P->task->params[i].name) == len && !strncmp(P->task->params[i].name, name, len)) return i;
  return -1;
}

/* A literal of type t: floats as strtod (f32 then rounded to float once), integers in 32 bits. */
static int literal(parser *P, const char *tok, size_t len, gasp_map_type t, gasp_map_node *n) {
  char buf[64];
  if (len >= sizeof buf) return fail(P, "literal too long");
  memcpy(buf, tok, len);
  buf[len] = 0;
  char *end;
  n->op = GASP_MOP_LIT;
  n->type = t;
  if (is_float(t)) {
    double v = strtod(buf, &end);
    if (*end || !len) return fail(P, "'%s' is not a number", buf);
    n->lit = t == GASP_MT_F32 ? (double)(float)v : v;
  } else if (t == GASP_MT_S32 || t == GASP_MT_U32) {
    long long v = strtoll(buf, &end, 0);
    if (*end || !len) return fail(P, "'%s' is not an integer", buf);
    if (v < -2147483648LL || v > 4294967295LL) return fail(P, "integer literal '%s' out of 32-bit range", buf);
    n->ilit = (uint32_t)v;
    n->lit = t == GASP_MT_S32 ? (double)(int32_t)n->ilit : (double)n->ilit;
  } else {
    return fail(P, "a literal cannot be a predicate");
  }
  return 0;
}

static int parse_expr(parser *P, int want); /* want: the expected type, or -1 when unknown */

static int parse_list(parser *P, int want) {
  P->p++; /* '(' */
  const char *tok;
  size_t len = token(P, &tok);
  const char *dot = memchr(tok, '.', len);
  size_t oplen = dot ? (size_t)(dot - tok) : len;
  /* a group form names its combination: wred_add, bscan_max ... */
  const char *us = memchr(tok, '_', oplen);
  int red = -1;
  if (us) {
    size_t rl = (size_t)(tok + oplen - us - 1);
    if (rl == 3 && !strncmp(us + 1, "add", 3)) red = GASP_MOP_ADD;
    else if (rl == 3 && !strncmp(us + 1, "min", 3)) red = GASP_MOP_MIN;
    else if (rl == 3 && !strncmp(us + 1, "max", 3)) red = GASP_MOP_MAX;
    oplen = (size_t)(us - tok);
  }
  int op = -1;
  for (int i = GASP_MOP_AT; i < GASP_MOP_COUNT; i++)
    if (i != GASP_MOP_LIT && strlen(op_names[i]) == oplen && !strncmp(op_names[i], tok, oplen)) op = i;
  if (op >= 0 && gasp_map_is_group((gasp_map_op)op) != (red >= 0 || op == GASP_MOP_TR) ) op = -1;
  if (op >= 0 && (us != NULL) != (red >= 0)) op = -1;
  if (op == GASP_MOP_ACC) op = -1;
  if (op == GASP_MOP_LOOP && P->m->count > 0) {
    P->p = tok;
    return fail(P, "a loop is the whole expression or nothing");
  }
  if (op >= 0 && gasp_map_is_group((gasp_map_op)op) && P->m->count > 0) {
    P->p = tok;
    return fail(P, "%.*s is a group form: only the whole expression may be one", (int)len, tok);
  }
  if (op < 0) {
    P->p = tok;
    return fail(P, "unknown operation '%.*s'", (int)oplen, tok);
  }
  int id = new_node(P);
  if (id < 0) return -1;
  gasp_map_node *n = &P->m->n[id];
  n->op = (gasp_map_op)op;
  if (op == GASP_MOP_AT) {
    const char *nm;
    size_t nl = token(P, &nm);
    int pi = find_param(P, nm, nl);
    if (pi < 0 || P->task->params[pi].role != GASP_ROLE_IN) return fail(P, "'at' needs an `in` array, not '%.*s'", (int)nl, nm);
    int t = type_of_dtype(P->task->params[pi].type);
    if (t < 0) return fail(P, "param '%.*s' has a type maps do not take", (int)nl, nm);
    n->param = pi;
    n->type = (gasp_map_type)t;
    for (int k = 0; k < 2; k++) {
      const char *v;
      size_t vl = token(P, &v);
      char buf[32];
      if (!vl || vl >= sizeof buf) return fail(P, "'at' needs a stride and an offset");
      memcpy(buf, v, vl);
      buf[vl] = 0;
      char *end;
      long long x = strtoll(buf, &end, 10);
      if (*end || x < (k ? 0 : 1) || x > 1024) return fail(P, "'at' %s '%s' must be %s", k ? "offset" : "stride", buf, k ? "0..1024" : "1..1024");
      if (k) n->offset = x;
      else n->stride = x;
    }
  } else {
    /* the type suffix: .T, or .D.S for cvt */
    if (!dot) return fail(P, "'%.*s' needs a type suffix, e.g. %.*s.f32", (int)len, tok, (int)len, tok);
    const char *t1 = dot + 1, *dot2 = memchr(t1, '.', (size_t)(tok + len - t1));
    size_t l1 = dot2 ? (size_t)(dot2 - t1) : (size_t)(tok + len - t1);
    int ty = type_from_name(t1, l1);
    if (ty < 0) return fail(P, "unknown type '%.*s'", (int)l1, t1);
    int src = ty;
    if (op == GASP_MOP_CVT) {
      if (!dot2) return fail(P, "cvt needs .DST.SRC, e.g. cvt.f32.s32");
      src = type_from_name(dot2 + 1, (size_t)(tok + len - dot2 - 1));
      if (src < 0) return fail(P, "unknown type '%.*s'", (int)(tok + len - dot2 - 1), dot2 + 1);
      if (src == ty || (!is_float((gasp_map_type)ty) && !is_float((gasp_map_type)src)))
        return fail(P, "unsupported conversion %s <- %s", type_names[ty], type_names[src]);
    } else if (dot2) {
      return fail(P, "only cvt takes two types");
    }
    n = &P->m->n[id];
    n->src = (gasp_map_type)src;
    n->type = is_cmp((gasp_map_op)op) ? GASP_MT_PRED : (gasp_map_type)ty;
    int fl = is_float((gasp_map_type)ty);
    int arity = 2;
    if (red >= 0) n->red = (gasp_map_op)red;
    if (gasp_map_is_group((gasp_map_op)op)) {
      const char *need[2] = {op == GASP_MOP_TR ? "rows" : "n", op == GASP_MOP_TR ? "cols" : NULL};
      for (int k = 0; k < 2; k++) {
        if (!need[k]) continue;
        int pi = find_param(P, need[k], strlen(need[k]));
        if (pi < 0 || P->task->params[pi].role != GASP_ROLE_SCALAR)
          return fail(P, "%s needs the scalar parameter '%s'", op_names[op], need[k]);
      }
    }
    switch (op) {
    case GASP_MOP_ABS: case GASP_MOP_NEG: case GASP_MOP_SQRT: case GASP_MOP_CVT: case GASP_MOP_POPC: arity = 1; break;
    case GASP_MOP_WRED: case GASP_MOP_BRED: case GASP_MOP_WSCAN: case GASP_MOP_BSCAN: case GASP_MOP_BXSCAN:
    case GASP_MOP_TR: arity = 1; break;
    case GASP_MOP_FMA: case GASP_MOP_LRP: case GASP_MOP_SEL: case GASP_MOP_LOOP: arity = 3; break;
    default: break;
    }
    if ((op == GASP_MOP_SQRT || op == GASP_MOP_LRP) && !fl) return fail(P, "%s takes f32 or f64", op_names[op]);
    if ((op == GASP_MOP_REM || (op >= GASP_MOP_AND && op <= GASP_MOP_SHR) || op == GASP_MOP_POPC) && fl)
      return fail(P, "%s takes s32 or u32", op_names[op]);
    if (op == GASP_MOP_ABS && ty == GASP_MT_U32) return fail(P, "abs takes f32, f64 or s32");
    for (int k = 0; k < arity; k++) {
      int want_k = op == GASP_MOP_CVT ? src : (op == GASP_MOP_SEL && k == 0) ? GASP_MT_PRED
                   : (op == GASP_MOP_LOOP && k == 0) ? GASP_MT_U32 : ty;
      skip_ws(P);
      if (*P->p == ')' || !*P->p) return fail(P, "%s takes %d operands", op_names[op], arity);
      if (op == GASP_MOP_LOOP && k == 2) {
        P->in_step = 1;
        P->acc_type = (gasp_map_type)ty;
      }
      int c = parse_expr(P, want_k);
      if (op == GASP_MOP_LOOP) P->in_step = 0;
      if (c < 0) return -1;
      if (P->m->n[c].type != (gasp_map_type)want_k)
        return fail(P, "%s.%s operand %d is %s, not %s", op_names[op], type_names[ty], k + 1,
                    type_names[P->m->n[c].type], type_names[want_k]);
      P->m->n[id].kid[k] = c;
      P->m->n[id].nkids = k + 1;
    }
    n = &P->m->n[id];
    /* integer division and remainder only by a literal that cannot trap or overflow */
    if (op == GASP_MOP_DIV || op == GASP_MOP_REM) {
      const gasp_map_node *d = &P->m->n[n->kid[1]];
      if (!fl) {
        if (d->op != GASP_MOP_LIT) return fail(P, "integer %s needs a literal divisor", op_names[op]);
        if (d->ilit == 0 || (ty == GASP_MT_S32 && (int32_t)d->ilit < 0))
          return fail(P, "integer %s needs a positive literal divisor", op_names[op]);
      }
    }
  }
  skip_ws(P);
  if (*P->p != ')') return fail(P, "expected ')'");
  P->p++;
  (void)want;
  return id;
}

static int parse_expr(parser *P, int want) {
  skip_ws(P);
  if (*P->p == '(') return parse_list(P, want);
  if (*P->p == ')' || !*P->p) return fail(P, "expected an operand");
  const char *tok;
  size_t len = token(P, &tok);
  int id = new_node(P);
  if (id < 0) return -1;
  gasp_map_node *n = &P->m->n[id];
  if (isalpha((unsigned char)tok[0]) || tok[0] == '_') {
    if (len == 3 && (!strncmp(tok, "inf", 3) || !strncmp(tok, "nan", 3))) return literal(P, tok, len, want < 0 ? GASP_MT_F32 : want, n) ? -1 : id;
    if (len == 3 && !strncmp(tok, "acc", 3) && find_param(P, tok, len) < 0) {
      if (!P->in_step) {
        P->p = tok;
        return fail(P, "'acc' is the running value of a loop's step, and only there");
      }
      n->op = GASP_MOP_ACC;
      n->type = P->acc_type;
      return id;
    }
    int pi = find_param(P, tok, len);
    if (pi < 0) {
      P->p = tok; /* the column of the name */
      return fail(P, "no parameter named '%.*s'", (int)len, tok);
    }
    const gasp_param *pp = &P->task->params[pi];
    if (pp->role == GASP_ROLE_OUT) return fail(P, "'%s' is the output", pp->name);
    int t = type_of_dtype(pp->type);
    if (t < 0) return fail(P, "param '%s' has a type maps do not take", pp->name);
    n->op = GASP_MOP_LEAF;
    n->param = pi;
    n->type = (gasp_map_type)t;
    return id;
  }
  if (want < 0 || want == GASP_MT_PRED) return fail(P, "a literal needs a typed context");
  return literal(P, tok, len, (gasp_map_type)want, n) ? -1 : id;
}

int gasp_map_parse(const char *text, const gasp_task *task, gasp_map *m, int *col, char *err, size_t errcap) {
  memset(m, 0, sizeof *m);
  m->out = -1;
  parser P = {text, text, task, m, err, errcap, 0, 0};
  if (col) *col = 0;
  int nout = 0;
  for (int i = 0; i < task->nparams; i++)
    if (task->params[i].role == GASP_ROLE_OUT) {
      m->out = i;
      nout++;
    }
  if (nout != 1) {
    snprintf(err, errcap, "a map task has exactly one `out` array (it has %d)", nout);
    return -1;
  }
  int want = type_of_dtype(task->params[m->out].type);
  if (want < 0) {
    snprintf(err, errcap, "the output's type %s is not one maps compute", gasp_dtype_name(task->params[m->out].type));
    return -1;
  }
  m->root = parse_expr(&P, want);
  if (m->root >= 0) {
    skip_ws(&P);
    if (*P.p) fail(&P, "text after the expression");
    else if (m->n[m->root].type != (gasp_map_type)want)
      fail(&P, "the expression is %s, the output %s", type_names[m->n[m->root].type], type_names[want]);
  }
  if (P.failed) {
    if (col) *col = P.col;
    return -1;
  }
  return 0;
}

/* ---- evaluation ---- */

static gasp_map_value load(const gasp_task *task, const gasp_ref_args *a, int pi, int64_t idx, gasp_map_type t) {
  gasp_map_value v;
  memset(&v, 0, sizeof v);
  const gasp_param *p = &task->params[pi];
  if (p->role == GASP_ROLE_SCALAR) {
    switch (t) {
    case GASP_MT_F32: v.f32 = (float)a->s[pi].f; break;
    case GASP_MT_F64: v.f64 = a->s[pi].f; break;
    default: v.u32 = (uint32_t)a->s[pi].i; break;
    }
    return v;
  }
  if (idx < 0 || idx >= a->count[pi]) return v;
  switch (t) {
  case GASP_MT_F32: v.f32 = ((const float *)a->p[pi])[idx]; break;
  case GASP_MT_F64: v.f64 = ((const double *)a->p[pi])[idx]; break;
  default: v.u32 = ((const uint32_t *)a->p[pi])[idx]; break;
  }
  return v;
}

/* float -> s32: truncation, saturating, NaN gives 0 (PTX cvt.rzi.s32.f32, AMD v_cvt_i32_f32) */
static int32_t sat_s32(double x) {
  if (x != x) return 0;
  if (x >= 2147483648.0) return INT32_MAX;
  if (x <= -2147483649.0) return INT32_MIN;
  return (int32_t)x;
}

static int cmp(gasp_map_op op, double x, double y) {
  switch (op) {
  case GASP_MOP_LT: return x < y;
  case GASP_MOP_LE: return x <= y;
  case GASP_MOP_GT: return x > y;
  case GASP_MOP_GE: return x >= y;
  case GASP_MOP_EQ: return x == y;
  default: return x != y;
  }
}

static int icmp(gasp_map_op op, gasp_map_type t, uint32_t x, uint32_t y) {
  if (t == GASP_MT_S32) return cmp(op, (double)(int32_t)x, (double)(int32_t)y);
  return cmp(op, (double)x, (double)y);
}

static gasp_map_value ev_acc(const gasp_map *m, int id, const gasp_task *task, const gasp_ref_args *a, int64_t i,
                             gasp_map_value acc);
#define ev(m_, id_, task_, a_, i_) ev_acc(m_, id_, task_, a_, i_, acc)

/* the most iterations a loop may make: its count is data, the reference must stay bounded */
#define GASP_MAP_MAX_LOOP 64

static gasp_map_value ev_acc(const gasp_map *m, int id, const gasp_task *task, const gasp_ref_args *a, int64_t i,
                             gasp_map_value acc) {
  const gasp_map_node *n = &m->n[id];
  gasp_map_value r, x, y, z;
  memset(&r, 0, sizeof r);
  switch (n->op) {
  case GASP_MOP_ACC: return acc;
  case GASP_MOP_LOOP: {
    gasp_map_value cnt = ev(m, n->kid[0], task, a, i), v = ev(m, n->kid[1], task, a, i);
    for (uint32_t k = 0; k < cnt.u32 && k < GASP_MAP_MAX_LOOP; k++) v = ev_acc(m, n->kid[2], task, a, i, v);
    return v;
  }
  case GASP_MOP_LEAF: return load(task, a, n->param, i, n->type);
  case GASP_MOP_AT: return load(task, a, n->param, n->stride * i + n->offset, n->type);
  case GASP_MOP_LIT:
    if (n->type == GASP_MT_F32) r.f32 = (float)n->lit;
    else if (n->type == GASP_MT_F64) r.f64 = n->lit;
    else r.u32 = n->ilit;
    return r;
  default: break;
  }
  x = ev(m, n->kid[0], task, a, i);
  if (n->nkids > 1) y = ev(m, n->kid[1], task, a, i);
  else memset(&y, 0, sizeof y);
  if (n->nkids > 2) z = ev(m, n->kid[2], task, a, i);
  else memset(&z, 0, sizeof z);
  gasp_map_type t = n->type;
  if (n->op == GASP_MOP_CVT) {
    switch (t) {
    case GASP_MT_F32:
      r.f32 = n->src == GASP_MT_S32 ? (float)x.s32 : n->src == GASP_MT_U32 ? (float)x.u32 : (float)x.f64;
      break;
    case GASP_MT_F64:
      r.f64 = n->src == GASP_MT_S32 ? (double)x.s32 : n->src == GASP_MT_U32 ? (double)x.u32 : (double)x.f32;
      break;
    case GASP_MT_S32: r.s32 = sat_s32(n->src == GASP_MT_F32 ? (double)x.f32 : x.f64); break;
    default: { /* u32 <- float: truncation, saturating at 0 and 2^32-1, NaN gives 0 */
      double v = n->src == GASP_MT_F32 ? (double)x.f32 : x.f64;
      r.u32 = v != v || v <= 0 ? 0u : v >= 4294967295.0 ? 0xffffffffu : (uint32_t)v;
    }
    }
    return r;
  }
  if (is_cmp(n->op)) {
    gasp_map_type s = n->src;
    if (s == GASP_MT_F32) r.pred = cmp(n->op, x.f32, y.f32);
    else if (s == GASP_MT_F64) r.pred = cmp(n->op, x.f64, y.f64);
    else r.pred = icmp(n->op, s, x.u32, y.u32);
    return r;
  }
  if (n->op == GASP_MOP_SEL) return x.pred ? y : z;
  if (t == GASP_MT_F32) {
    float a0 = x.f32, b0 = y.f32, c0 = z.f32;
    switch (n->op) {
    case GASP_MOP_ADD: r.f32 = a0 + b0; break;
    case GASP_MOP_SUB: r.f32 = a0 - b0; break;
    case GASP_MOP_MUL: r.f32 = a0 * b0; break;
    case GASP_MOP_FMA: r.f32 = fmaf(a0, b0, c0); break;
    case GASP_MOP_MIN: r.f32 = minmax_f32(a0, b0, 0); break;
    case GASP_MOP_MAX: r.f32 = minmax_f32(a0, b0, 1); break;
    case GASP_MOP_ABS: r.f32 = fabsf(a0); break;
    case GASP_MOP_NEG: r.f32 = -a0; break;
    case GASP_MOP_SQRT: r.f32 = sqrtf(a0); break;
    case GASP_MOP_DIV: r.f32 = a0 / b0; break;
    case GASP_MOP_LRP: { float d = b0 - c0; float e = a0 * d; r.f32 = c0 + e; break; }
    default: break;
    }
  } else if (t == GASP_MT_F64) {
    double a0 = x.f64, b0 = y.f64, c0 = z.f64;
    switch (n->op) {
    case GASP_MOP_ADD: r.f64 = a0 + b0; break;
    case GASP_MOP_SUB: r.f64 = a0 - b0; break;
    case GASP_MOP_MUL: r.f64 = a0 * b0; break;
    case GASP_MOP_FMA: r.f64 = fma(a0, b0, c0); break;
    case GASP_MOP_MIN: r.f64 = minmax_f64(a0, b0, 0); break;
    case GASP_MOP_MAX: r.f64 = minmax_f64(a0, b0, 1); break;
    case GASP_MOP_ABS: r.f64 = fabs(a0); break;
    case GASP_MOP_NEG: r.f64 = -a0; break;
    case GASP_MOP_SQRT: r.f64 = sqrt(a0); break;
    case GASP_MOP_DIV: r.f64 = a0 / b0; break;
    case GASP_MOP_LRP: { double d = b0 - c0; double e = a0 * d; r.f64 = c0 + e; break; }
    default: break;
    }
  } else {
    uint32_t a0 = x.u32, b0 = y.u32, c0 = z.u32;
    int sg = t == GASP_MT_S32;
    switch (n->op) {
    case GASP_MOP_ADD: r.u32 = a0 + b0; break;
    case GASP_MOP_SUB: r.u32 = a0 - b0; break;
    case GASP_MOP_MUL: r.u32 = a0 * b0; break;
    case GASP_MOP_FMA: r.u32 = a0 * b0 + c0; break;
    case GASP_MOP_MIN: r.u32 = sg ? ((int32_t)a0 < (int32_t)b0 ? a0 : b0) : (a0 < b0 ? a0 : b0); break;
    case GASP_MOP_MAX: r.u32 = sg ? ((int32_t)a0 > (int32_t)b0 ? a0 : b0) : (a0 > b0 ? a0 : b0); break;
    case GASP_MOP_ABS: r.u32 = (int32_t)a0 < 0 ? 0u - a0 : a0; break;
    case GASP_MOP_NEG: r.u32 = 0u - a0; break;
    /* the divisor is a positive literal (the parser makes sure), so neither traps nor overflows */
    case GASP_MOP_DIV: r.u32 = sg ? (uint32_t)((int32_t)a0 / (int32_t)b0) : a0 / b0; break;
    case GASP_MOP_REM: r.u32 = sg ? (uint32_t)((int32_t)a0 % (int32_t)b0) : a0 % b0; break;
    case GASP_MOP_AND: r.u32 = a0 & b0; break;
    case GASP_MOP_OR: r.u32 = a0 | b0; break;
    case GASP_MOP_XOR: r.u32 = a0 ^ b0; break;
    case GASP_MOP_POPC: r.u32 = (uint32_t)__builtin_popcount(a0); break;
    case GASP_MOP_SHL: r.u32 = a0 << (b0 & 31u); break;
    case GASP_MOP_SHR:
      /* arithmetic shift spelled without relying on >> of a negative int (implementation-defined in C) */
      if (sg && (int32_t)a0 < 0) r.u32 = ~(~a0 >> (b0 & 31u));
      else r.u32 = a0 >> (b0 & 31u);
      break;
    default: break;
    }
  }
  return r;
}

gasp_map_value gasp_map_eval(const gasp_map *m, const gasp_task *task, const gasp_ref_args *a, int64_t i) {
  gasp_map_value acc;
  memset(&acc, 0, sizeof acc);
  return ev(m, m->root, task, a, i);
}

gasp_map_value gasp_map_eval_node(const gasp_map *m, int node, const gasp_task *task, const gasp_ref_args *a, int64_t i) {
  gasp_map_value acc;
  memset(&acc, 0, sizeof acc);
  return ev(m, node, task, a, i);
}

gasp_map_value gasp_map_combine(gasp_map_op red, gasp_map_type t, gasp_map_value x, gasp_map_value y) {
  gasp_map_value r;
  memset(&r, 0, sizeof r);
  int mx = red == GASP_MOP_MAX;
  switch (t) {
  case GASP_MT_F32: r.f32 = red == GASP_MOP_ADD ? x.f32 + y.f32 : minmax_f32(x.f32, y.f32, mx); break;
  case GASP_MT_F64: r.f64 = red == GASP_MOP_ADD ? x.f64 + y.f64 : minmax_f64(x.f64, y.f64, mx); break;
  case GASP_MT_S32:
    r.u32 = red == GASP_MOP_ADD ? x.u32 + y.u32 : (mx ? x.s32 > y.s32 : x.s32 < y.s32) ? x.u32 : y.u32;
    break;
  default: r.u32 = red == GASP_MOP_ADD ? x.u32 + y.u32 : (mx ? x.u32 > y.u32 : x.u32 < y.u32) ? x.u32 : y.u32; break;
  }
  return r;
}

gasp_map_value gasp_map_identity(gasp_map_op red, gasp_map_type t) {
  gasp_map_value r;
  memset(&r, 0, sizeof r);
  if (red == GASP_MOP_ADD) return r;
  int mx = red == GASP_MOP_MAX;
  switch (t) {
  case GASP_MT_F32: r.f32 = mx ? -INFINITY : INFINITY; break;
  case GASP_MT_F64: r.f64 = mx ? -INFINITY : INFINITY; break;
  case GASP_MT_S32: r.s32 = mx ? INT32_MIN : INT32_MAX; break;
  default: r.u32 = mx ? 0u : 0xffffffffu; break;
  }
  return r;
}

/* ---- canonical form ---- */

static int commutative(gasp_map_op op) {
  return op == GASP_MOP_ADD || op == GASP_MOP_MUL || op == GASP_MOP_MIN || op == GASP_MOP_MAX || op == GASP_MOP_AND ||
         op == GASP_MOP_OR || op == GASP_MOP_XOR || op == GASP_MOP_EQ || op == GASP_MOP_NE;
}

static int str_cmp(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

static void lit_text(gasp_map_type t, double v, uint32_t iv, char *buf, size_t cap) {
  if (t == GASP_MT_S32) snprintf(buf, cap, "%d", (int32_t)iv);
  else if (t == GASP_MT_U32) snprintf(buf, cap, "%u", iv);
  else snprintf(buf, cap, "%.17g", v);
}

static char *canon(const gasp_map *m, int id, const gasp_task *task) {
  const gasp_map_node *n = &m->n[id];
  char buf[96];
  if (n->op == GASP_MOP_LEAF || n->op == GASP_MOP_AT) {
    const gasp_param *p = &task->params[n->param];
    if (p->role == GASP_ROLE_SCALAR) {
      /* a scalar is a constant of the computation: its value from the task (integers: an expression) */
      double v = strtod(p->value, NULL);
      lit_text(n->type, v, (uint32_t)(int64_t)v, buf, sizeof buf);
      return gasp_strdup(buf);
    }
    int k = 0;
    for (int i = 0; i < n->param; i++) k += task->params[i].role == GASP_ROLE_IN;
    if (n->op == GASP_MOP_AT && !(n->stride == 1 && n->offset == 0))
      snprintf(buf, sizeof buf, "(at $%d %lld %lld)", k, (long long)n->stride, (long long)n->offset);
    else
      snprintf(buf, sizeof buf, "$%d", k);
    return gasp_strdup(buf);
  }
  if (n->op == GASP_MOP_LIT) {
    lit_text(n->type, n->lit, n->ilit, buf, sizeof buf);
    return gasp_strdup(buf);
  }
  if (n->op == GASP_MOP_ACC) return gasp_strdup("acc");
  char *kids[3] = {0};
  for (int k = 0; k < n->nkids; k++) kids[k] = canon(m, n->kid[k], task);
  if (commutative(n->op)) qsort(kids, (size_t)n->nkids, sizeof kids[0], str_cmp);
  if (n->op == GASP_MOP_FMA) qsort(kids, 2, sizeof kids[0], str_cmp);
  gasp_str s;
  gasp_str_init(&s);
  if (n->op == GASP_MOP_CVT)
    gasp_str_printf(&s, "(cvt.%s.%s", type_names[n->type], type_names[n->src]);
  else if (gasp_map_is_group(n->op) && n->op != GASP_MOP_TR)
    gasp_str_printf(&s, "(%s_%s.%s", op_names[n->op], op_names[n->red], type_names[n->type]);
  else
    gasp_str_printf(&s, "(%s.%s", op_names[n->op], type_names[is_cmp(n->op) ? n->src : n->type]);
  for (int k = 0; k < n->nkids; k++) {
    gasp_str_printf(&s, " %s", kids[k]);
    free(kids[k]);
  }
  gasp_str_puts(&s, ")");
  return gasp_str_take(&s);
}

char *gasp_map_canonical(const gasp_map *m, const gasp_task *task) { return canon(m, m->root, task); }
