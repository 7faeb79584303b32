/* A generated snippet task's PTX snippet, rendered from its map expression: the answer the snippet prompt asks
 * for (instructions on the %param registers, temporaries declared at the top), so the reference backend and
 * the corpus answer a snippet task with a snippet rather than nvcc's whole module. The semantics follow
 * map.h exactly: float add/sub/mul carry .rn so ptxas cannot contract them into an fma (PTX ISA, "Floating
 * Point Instructions: add": "add.f32 without rounding modifier may be optimized ... into fma"); ne on floats is
 * the unordered neu (map.h: "ordered ... except ne"); shift amounts are masked with 31 (PTX clamps them at 32
 * instead). The AMD snippet translator (src/target/amdgcn/amd_snippet.c) takes this text as its input. Like
 * every answer, the result is judged by the task's verification before it enters the corpus. */
#include <stdio.h>
#include <string.h>

#include "corpus.h"

typedef struct {
  const gasp_map *m;
  const gasp_task *t;
  gasp_str decl, body;
  int next; /* temporaries %t1, %t2, ... (one name space for all types) */
  int ok;
} px_ctx;

static const char *ty_name(gasp_map_type t) {
  switch (t) {
  case GASP_MT_F32: return "f32";
  case GASP_MT_F64: return "f64";
  case GASP_MT_S32: return "s32";
  case GASP_MT_U32: return "u32";
  default: return "pred";
  }
}

static const char *reg_type(gasp_map_type t) {
  return t == GASP_MT_F32 ? ".f32" : t == GASP_MT_F64 ? ".f64" : t == GASP_MT_PRED ? ".pred" : ".b32";
}

static int new_reg(px_ctx *c, gasp_map_type t, char *name, size_t cap) {
  snprintf(name, cap, "%%%s%d", t == GASP_MT_PRED ? "p" : "t", ++c->next);
  gasp_str_printf(&c->decl, ".reg %s %s;\n", reg_type(t), name);
  return 0;
}

/* The operand text of node id: a parameter register, a literal, or a temporary holding its value. */
static void px_node(px_ctx *c, int id, char *out, size_t cap);

void gasp_corpus_ptx_lit(const gasp_map_node *n, char *out, size_t cap) {
  if (n->type == GASP_MT_F32) {
    float f = (float)n->lit;
    uint32_t u;
    memcpy(&u, &f, 4);
    snprintf(out, cap, "0f%08X", u);
  } else if (n->type == GASP_MT_F64) {
    uint64_t u;
    memcpy(&u, &n->lit, 8);
    snprintf(out, cap, "0d%016llX", (unsigned long long)u);
  } else if (n->type == GASP_MT_S32) {
    snprintf(out, cap, "%d", (int32_t)n->ilit);
  } else {
    snprintf(out, cap, "%u", n->ilit);
  }
}

static void emit_into(px_ctx *c, int id, const char *dst) {
  const gasp_map_node *n = &c->m->n[id];
  const char *T = ty_name(n->type), *S = ty_name(n->src);
  int f = n->type == GASP_MT_F32 || n->type == GASP_MT_F64;
  char a[64] = "", b[64] = "", d3[64] = "";
  if (n->op != GASP_MOP_SEL) {
    if (n->nkids > 0) px_node(c, n->kid[0], a, sizeof a);
    if (n->nkids > 1) px_node(c, n->kid[1], b, sizeof b);
    if (n->nkids > 2) px_node(c, n->kid[2], d3, sizeof d3);
  }
  const char *bt = n->type == GASP_MT_S32 || n->type == GASP_MT_U32 ? "b32" : T;
  switch (n->op) {
  case GASP_MOP_ADD: gasp_str_printf(&c->body, "add%s.%s %s, %s, %s;\n", f ? ".rn" : "", T, dst, a, b); break;
  case GASP_MOP_SUB: gasp_str_printf(&c->body, "sub%s.%s %s, %s, %s;\n", f ? ".rn" : "", T, dst, a, b); break;
  case GASP_MOP_MUL: gasp_str_printf(&c->body, "mul%s.%s %s, %s, %s;\n", f ? ".rn" : ".lo", T, dst, a, b); break;
  case GASP_MOP_FMA:
    if (f) gasp_str_printf(&c->body, "fma.rn.%s %s, %s, %s, %s;\n", T, dst, a, b, d3);
    else gasp_str_printf(&c->body, "mad.lo.%s %s, %s, %s, %s;\n", T, dst, a, b, d3);
    break;
  case GASP_MOP_MIN: gasp_str_printf(&c->body, "min.%s %s, %s, %s;\n", T, dst, a, b); break;
  case GASP_MOP_MAX: gasp_str_printf(&c->body, "max.%s %s, %s, %s;\n", T, dst, a, b); break;
  case GASP_MOP_ABS:
    if (n->type == GASP_MT_U32) gasp_str_printf(&c->body, "mov.b32 %s, %s;\n", dst, a);
    else gasp_str_printf(&c->body, "abs.%s %s, %s;\n", T, dst, a);
    break;
  case GASP_MOP_NEG: gasp_str_printf(&c->body, "neg.%s %s, %s;\n", n->type == GASP_MT_U32 ? "s32" : T, dst, a); break;
  case GASP_MOP_SQRT: gasp_str_printf(&c->body, "sqrt.rn.%s %s, %s;\n", T, dst, a); break;
  case GASP_MOP_DIV: gasp_str_printf(&c->body, "div%s.%s %s, %s, %s;\n", f ? ".rn" : "", T, dst, a, b); break;
  case GASP_MOP_REM: gasp_str_printf(&c->body, "rem.%s %s, %s, %s;\n", T, dst, a, b); break;
  case GASP_MOP_AND: gasp_str_printf(&c->body, "and.b32 %s, %s, %s;\n", dst, a, b); break;
  case GASP_MOP_OR: gasp_str_printf(&c->body, "or.b32 %s, %s, %s;\n", dst, a, b); break;
  case GASP_MOP_XOR: gasp_str_printf(&c->body, "xor.b32 %s, %s, %s;\n", dst, a, b); break;
  case GASP_MOP_POPC: gasp_str_printf(&c->body, "popc.b32 %s, %s;\n", dst, a); break;
  case GASP_MOP_SHL:
  case GASP_MOP_SHR: {
    const gasp_map_node *k = &c->m->n[n->kid[1]];
    char amt[64];
    if (k->op == GASP_MOP_LIT) {
      snprintf(amt, sizeof amt, "%u", k->ilit & 31u);
    } else {
      new_reg(c, GASP_MT_U32, amt, sizeof amt);
      gasp_str_printf(&c->body, "and.b32 %s, %s, 31;\n", amt, b);
    }
    if (n->op == GASP_MOP_SHL) gasp_str_printf(&c->body, "shl.b32 %s, %s, %s;\n", dst, a, amt);
    else gasp_str_printf(&c->body, "shr.%s %s, %s, %s;\n", n->type == GASP_MT_S32 ? "s32" : "u32", dst, a, amt);
    break;
  }
  case GASP_MOP_LRP: { /* y + t*(x - y), three roundings; kids t, x, y */
    char t1[32], t2[32];
    new_reg(c, n->type, t1, sizeof t1);
    new_reg(c, n->type, t2, sizeof t2);
    gasp_str_printf(&c->body, "sub.rn.%s %s, %s, %s;\nmul.rn.%s %s, %s, %s;\nadd.rn.%s %s, %s, %s;\n", T, t1, b, d3, T, t2,
                    a, t1, T, dst, d3, t2);
    break;
  }
  case GASP_MOP_LT: case GASP_MOP_LE: case GASP_MOP_GT: case GASP_MOP_GE: case GASP_MOP_EQ: case GASP_MOP_NE: {
    static const char *names[] = {"lt", "le", "gt", "ge", "eq", "ne"};
    const char *cmp = names[n->op - GASP_MOP_LT];
    int sf = n->src == GASP_MT_F32 || n->src == GASP_MT_F64;
    if (sf && n->op == GASP_MOP_NE) cmp = "neu";
    gasp_str_printf(&c->body, "setp.%s.%s %s, %s, %s;\n", cmp, S, dst, a, b);
    break;
  }
  case GASP_MOP_SEL: { /* kids p, x, y */
    char p[64], x[64], y[64];
    px_node(c, n->kid[0], p, sizeof p);
    px_node(c, n->kid[1], x, sizeof x);
    px_node(c, n->kid[2], y, sizeof y);
    gasp_str_printf(&c->body, "selp.%s %s, %s, %s, %s;\n", bt, dst, x, y, p);
    break;
  }
  case GASP_MOP_CVT: {
    int tf = f, sfl = n->src == GASP_MT_F32 || n->src == GASP_MT_F64;
    if (n->type == n->src) gasp_str_printf(&c->body, "mov.%s %s, %s;\n", bt, dst, a);
    else if (!tf && !sfl) gasp_str_printf(&c->body, "mov.b32 %s, %s;\n", dst, a); /* s32 <-> u32: the same bits */
    else if (tf && sfl && n->type == GASP_MT_F64) gasp_str_printf(&c->body, "cvt.f64.f32 %s, %s;\n", dst, a); /* exact */
    else if (tf) gasp_str_printf(&c->body, "cvt.rn.%s.%s %s, %s;\n", T, S, dst, a);
    else gasp_str_printf(&c->body, "cvt.rzi.%s.%s %s, %s;\n", T, S, dst, a); /* saturates; NaN gives 0 */
    break;
  }
  default: c->ok = 0;
  }
}

static void px_node(px_ctx *c, int id, char *out, size_t cap) {
  const gasp_map_node *n = &c->m->n[id];
  if (n->op == GASP_MOP_LEAF) {
    snprintf(out, cap, "%%%s", c->t->params[n->param].name);
    return;
  }
  if (n->op == GASP_MOP_LIT) {
    gasp_corpus_ptx_lit(n, out, cap);
    return;
  }
  if (n->op == GASP_MOP_AT || gasp_map_is_group(n->op) || n->op == GASP_MOP_LOOP || n->op == GASP_MOP_ACC) {
    c->ok = 0;
    snprintf(out, cap, "?");
    return;
  }
  new_reg(c, n->type, out, cap);
  emit_into(c, id, out);
}

int gasp_corpus_ptx_snippet(const gasp_map *m, const gasp_task *t, gasp_str *s) {
  px_ctx c;
  memset(&c, 0, sizeof c);
  c.m = m;
  c.t = t;
  c.ok = 1;
  gasp_str_init(&c.decl);
  gasp_str_init(&c.body);
  const gasp_map_node *r = &m->n[m->root];
  char dst[64];
  snprintf(dst, sizeof dst, "%%%s", t->params[m->out].name);
  if (r->op == GASP_MOP_LEAF || r->op == GASP_MOP_LIT) {
    char a[64];
    px_node(&c, m->root, a, sizeof a);
    gasp_str_printf(&c.body, "mov.%s %s, %s;\n", r->type == GASP_MT_S32 || r->type == GASP_MT_U32 ? "b32" : ty_name(r->type), dst, a);
  } else if (r->op == GASP_MOP_AT || gasp_map_is_group(r->op) || r->op == GASP_MOP_LOOP) {
    c.ok = 0;
  } else {
    emit_into(&c, m->root, dst);
  }
  if (c.ok) {
    gasp_str_puts(s, c.decl.data ? c.decl.data : "");
    gasp_str_puts(s, c.body.data ? c.body.data : "");
  }
  gasp_str_free(&c.decl);
  gasp_str_free(&c.body);
  return c.ok ? 0 : -1;
}
