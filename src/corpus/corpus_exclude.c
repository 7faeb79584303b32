/* The exclusion of the benchmark's own computations from the corpus: a table of the suite's element-wise,
 * reduction, scan and transpose tasks as map expressions, compared by canonical form (map.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"

/* ---- the benchmark's L0-L3 computations, by canonical form ---- */

/* Each row: the benchmark id, the output type, the input types in parameter order and the expression over
 * inputs named a, b, c, ... (scalars written as their test values). Canonicalised at first use, so operand
 * order and names do not matter. Tasks whose computation is not an element-wise map (scale_bias's column index,
 * L3 loops) have no row: no generated task can be them. */
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
    {"popc_b32", "u32", "u32", "(popc.u32 a)"},
    {"popc_b32", "s32", "s32", "(popc.s32 a)"}, /* the same bits counted */
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

/* the next permutation of p[0..n) in lexicographic order; 0 after the last */
static int next_perm(int *p, int n) {
  int i = n - 2;
  while (i >= 0 && p[i] >= p[i + 1]) i--;
  if (i < 0) return 0;
  int j = n - 1;
  while (p[j] <= p[i]) j--;
  int x = p[i];
  p[i] = p[j];
  p[j] = x;
  for (int a = i + 1, b = n - 1; a < b; a++, b--) x = p[a], p[a] = p[b], p[b] = x;
  return 1;
}

int gasp_corpus_is_bench_permutation(const gasp_map *m, const gasp_task *task, char *which, size_t cap) {
  int in[GASP_MAX_PARAMS], nin = 0;
  for (int i = 0; i < task->nparams; i++)
    if (task->params[i].role == GASP_ROLE_IN) in[nin++] = i;
  if (nin < 2 || nin > 6) return 0; /* 720 orders at most */
  int perm[6];
  for (int k = 0; k < nin; k++) perm[k] = k;
  while (next_perm(perm, nin)) {
    int same_types = 1; /* an input only takes the place of one of its type: the map stays well typed */
    for (int k = 0; k < nin && same_types; k++) same_types = task->params[in[k]].type == task->params[in[perm[k]]].type;
    if (!same_types) continue;
    gasp_map pm = *m;
    for (int k = 0; k < pm.count; k++) {
      if (pm.n[k].op != GASP_MOP_LEAF && pm.n[k].op != GASP_MOP_AT) continue;
      for (int j = 0; j < nin; j++)
        if (m->n[k].param == in[j]) {
          pm.n[k].param = in[perm[j]];
          break;
        }
    }
    if (gasp_corpus_is_bench_computation(&pm, task, which, cap)) return 1;
  }
  return 0;
}
