/* The judge without a GPU: for every task, the reference's own outputs pass, and outputs that are all
 * zero, half unwritten, one element off, written past the end, or inputs that changed never pass. This
 * is the false-pass guard of the suite, run in CI; tests/gpu repeats it with real kernels on the H200. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "verify/verify.h"

typedef enum { M_ZERO, M_HALF_POISON, M_ONE_OFF, M_GUARD_AFTER, M_GUARD_BEFORE, M_INPUT, M_LAST_UNWRITTEN } mut_kind;
typedef struct {
  mut_kind kind;
  uint8_t poison;
  int touched;
} mut_ctx;

static void mutate(const gasp_task *t, int param, uint8_t *buf, uint64_t bytes, uint64_t guard, void *vctx) {
  mut_ctx *c = vctx;
  const gasp_param *p = &t->params[param];
  uint8_t *data = buf + guard;
  size_t es = gasp_dtype_size(p->type);
  if (c->kind == M_INPUT) {
    if (p->role == GASP_ROLE_IN && bytes && !c->touched) {
      data[bytes / 2] ^= 0x40;
      c->touched = 1;
    }
    return;
  }
  if (p->role != GASP_ROLE_OUT || !bytes || c->touched) return;
  c->touched = 1;
  switch (c->kind) {
  case M_ZERO: memset(data, 0, bytes); break;
  case M_HALF_POISON: memset(data + (bytes / es / 2) * es, c->poison, bytes - (bytes / es / 2) * es); break;
  case M_LAST_UNWRITTEN: memset(data + bytes - es, c->poison, es); break;
  case M_ONE_OFF: {
    size_t k = (bytes / es) / 3 * es;
    if (p->type == GASP_DT_F32) {
      float f;
      memcpy(&f, data + k, 4);
      f = isfinite(f) && f != 0 ? f * 1.5f : 1.5f;
      memcpy(data + k, &f, 4);
    } else if (p->type == GASP_DT_F64) {
      double f;
      memcpy(&f, data + k, 8);
      f = isfinite(f) && f != 0 ? f * 1.5 : 1.5;
      memcpy(data + k, &f, 8);
    } else {
      data[k] ^= 1;
    }
    break;
  }
  case M_GUARD_AFTER: data[bytes] ^= 0xff; break;
  case M_GUARD_BEFORE: buf[guard - 1] ^= 0xff; break;
  default: break;
  }
}

int main(void) {
  gasp_diags d;
  gasp_diags_init(&d);
  gasp_taskset ts;
  gasp_taskset_load(gasp_tasks_dir(), &ts, &d);
  CHECK(ts.count >= 40, "suite loaded: %zu", ts.count);
  static const struct { mut_kind k; gasp_class want; const char *name; } muts[] = {
      {M_ZERO, GASP_CLASS_WRONG, "all zero"},
      {M_HALF_POISON, GASP_CLASS_UNWRITTEN, "half unwritten"},
      {M_LAST_UNWRITTEN, GASP_CLASS_UNWRITTEN, "last element unwritten"},
      {M_ONE_OFF, GASP_CLASS_WRONG, "one element off"},
      {M_GUARD_AFTER, GASP_CLASS_OOB_WRITE, "write past the end"},
      {M_GUARD_BEFORE, GASP_CLASS_OOB_WRITE, "write before the start"},
      {M_INPUT, GASP_CLASS_INPUT_MUTATED, "input changed"},
  };
  for (size_t ti = 0; ti < ts.count; ti++) {
    const gasp_task *t = &ts.items[ti];
    for (int trial = 0; trial < t->trials; trial++) {
      /* the largest L6 sizes take seconds on the CPU; trial 0 and 1 cover every task's logic */
      if (trial >= 2) break;
      gasp_verdict v;
      CHECK(gasp_verify_offline(t, trial, 1, NULL, NULL, &v) == 0 && v.cls == GASP_CLASS_PASS,
            "%s trial %d: its own reference must pass (%s: %s)", t->id, trial, gasp_class_name(v.cls), v.detail);
      for (size_t m = 0; m < sizeof muts / sizeof muts[0]; m++) {
        mut_ctx c = {muts[m].k, (uint8_t)(0xA5 ^ (trial * 0x3B)), 0};
        gasp_verify_offline(t, trial, 1, mutate, &c, &v);
        if (!c.touched) continue;
        /* all-zero output can be right where the reference is all zero for this trial: then it must pass */
        CHECK(v.cls != GASP_CLASS_PASS || muts[m].k == M_ZERO, "%s trial %d: '%s' passed (false pass)", t->id, trial,
              muts[m].name);
        if (v.cls != GASP_CLASS_PASS)
          CHECK(v.cls == muts[m].want || (muts[m].k == M_HALF_POISON && v.cls == GASP_CLASS_WRONG),
                "%s trial %d: '%s' classified %s, want %s", t->id, trial, muts[m].name, gasp_class_name(v.cls),
                gasp_class_name(muts[m].want));
        if (muts[m].k == M_ZERO && v.cls == GASP_CLASS_PASS)
          printf("note: %s trial %d: all-zero output equals the reference (legitimately passes)\n", t->id, trial);
      }
    }
  }
  /* all-zero output fails every task on at least one trial (KernelBench's zero-output false passes) */
  for (size_t ti = 0; ti < ts.count; ti++) {
    const gasp_task *t = &ts.items[ti];
    int caught = 0;
    for (int trial = 0; trial < t->trials && trial < 2; trial++) {
      mut_ctx c = {M_ZERO, 0, 0};
      gasp_verdict v;
      gasp_verify_offline(t, trial, 1, mutate, &c, &v);
      caught |= v.cls != GASP_CLASS_PASS;
    }
    CHECK(caught, "%s: an all-zero output passes every trial", t->id);
  }
  gasp_verify_cache_clear();
  gasp_taskset_free(&ts);
  gasp_diags_free(&d);
  return DONE();
}
