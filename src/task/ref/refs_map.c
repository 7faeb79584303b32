/* The generic CPU reference of map tasks: out[i] is the task's `map` expression (map.h) evaluated at i for
 * every element of the one `out` array, with each operation's exact IEEE semantics (map.c; built with
 * -ffp-contract=off). A group form at the root (warp and block reductions and scans, a transpose) combines
 * the inner expression over its group; float sums, whose order is free, are summed in double. Generated tasks
 * (gasp corpus gen) use it; a hand-written task may too. */
#include <string.h>

#include "../map.h"
#include "../task.h"
#include "ref.h"

static void store(const gasp_ref_args *a, const gasp_task *t, int o, int64_t i, gasp_map_value v) {
  switch (t->params[o].type) {
  case GASP_DT_F32: F32(o)[i] = v.f32; break;
  case GASP_DT_F64: F64(o)[i] = v.f64; break;
  default: U32(o)[i] = v.u32; break;
  }
}

static int64_t scalar_named(const gasp_ref_args *a, const gasp_task *t, const char *name) {
  for (int i = 0; i < t->nparams; i++)
    if (t->params[i].role == GASP_ROLE_SCALAR && !strcmp(t->params[i].name, name)) return a->s[i].i;
  return 0;
}

/* the running combination of a group: float sums accumulate in double (the order is free), the rest exactly.
 * It starts from the identity, as the generated kernels do (they seed every float min/max value with it), so a
 * NaN value is skipped and a group of NaN values gives the identity (+-infinity). */
typedef struct {
  gasp_map_op red;
  gasp_map_type t;
  gasp_map_value v;
  double sum;
} acc;

static void acc_init(acc *c, gasp_map_op red, gasp_map_type t) {
  c->red = red;
  c->t = t;
  c->v = gasp_map_identity(red, t);
  c->sum = 0;
}

static void acc_add(acc *c, gasp_map_value x) {
  if (c->red == GASP_MOP_ADD && c->t == GASP_MT_F32) c->sum += x.f32;
  else if (c->red == GASP_MOP_ADD && c->t == GASP_MT_F64) c->sum += x.f64;
  else c->v = gasp_map_combine(c->red, c->t, c->v, x);
}

static gasp_map_value acc_get(const acc *c) {
  gasp_map_value r = c->v;
  if (c->red == GASP_MOP_ADD && c->t == GASP_MT_F32) r.f32 = (float)c->sum;
  else if (c->red == GASP_MOP_ADD && c->t == GASP_MT_F64) r.f64 = c->sum;
  return r;
}

static void map_ref(const gasp_ref_args *a) {
  const gasp_task *t = a->task;
  gasp_map m;
  char e[160];
  /* the loader parsed the same text: a failure here cannot happen for a loaded task */
  if (!t || !t->map || gasp_map_parse(t->map, t, &m, NULL, e, sizeof e)) return;
  int o = m.out;
  const gasp_map_node *root = &m.n[m.root];
  if (!gasp_map_is_group(root->op)) {
    for (int64_t i = 0; i < a->count[o]; i++) store(a, t, o, i, gasp_map_eval(&m, t, a, i));
    return;
  }
  int inner = root->kid[0];
  gasp_map_type ty = root->type;
  if (root->op == GASP_MOP_TR) {
    int64_t rows = scalar_named(a, t, "rows"), cols = scalar_named(a, t, "cols");
    for (int64_t r = 0; r < rows; r++)
      for (int64_t c = 0; c < cols; c++)
        if (c * rows + r < a->count[o]) store(a, t, o, c * rows + r, gasp_map_eval_node(&m, inner, t, a, r * cols + c));
    return;
  }
  int64_t n = scalar_named(a, t, "n");
  int64_t group = root->op == GASP_MOP_WRED || root->op == GASP_MOP_WSCAN ? 32 : (int64_t)a->block[0];
  if (group < 1) return;
  if (root->op == GASP_MOP_WRED || root->op == GASP_MOP_BRED) {
    for (int64_t g = 0; g * group < n && g < a->count[o]; g++) {
      acc c;
      acc_init(&c, root->red, ty);
      for (int64_t j = g * group; j < n && j < (g + 1) * group; j++) acc_add(&c, gasp_map_eval_node(&m, inner, t, a, j));
      store(a, t, o, g, acc_get(&c));
    }
    return;
  }
  /* scans: inclusive, or exclusive (the identity first) */
  int excl = root->op == GASP_MOP_BXSCAN;
  for (int64_t g = 0; g * group < n; g++) {
    acc c;
    acc_init(&c, root->red, ty);
    for (int64_t j = g * group; j < n && j < (g + 1) * group && j < a->count[o]; j++) {
      gasp_map_value v = gasp_map_eval_node(&m, inner, t, a, j);
      if (excl) store(a, t, o, j, acc_get(&c));
      acc_add(&c, v);
      if (!excl) store(a, t, o, j, acc_get(&c));
    }
  }
}

const gasp_ref gasp_refs_map[] = {{"map", map_ref}, {NULL, NULL}};
