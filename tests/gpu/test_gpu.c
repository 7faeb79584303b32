/* GPU tests: known-good kernels pass; broken kernels are each classified and none passes; the worker
 * survives a long run of faulting candidates with every one recorded. Skipped (exit 77) without a GPU.
 * Every kernel here is hand-written PTX for the vector_add task, varied one defect at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "eval/eval.h"
#include "exec/pool.h"
#include "target/target.h"
#include "task/task.h"

static int failures;
#define EXPECT(cond, ...)                    \
  do {                                       \
    if (!(cond)) {                           \
      failures++;                            \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                   \
      printf("\n");                          \
    }                                        \
  } while (0)

/* vector_add in PTX with one defect chosen by `variant`. */
static char *vector_add_ptx(const char *variant) {
  const char *head =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry vector_add(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 pn)\n{\n"
      "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<16>;\n"
      "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
      "  mad.lo.s32 %r4, %r1, %r2, %r3;\n  ld.param.u32 %r5, [pn];\n";
  const char *bound = "  setp.ge.u32 %p1, %r4, %r5;\n  @%p1 bra DONE;\n";
  const char *ptrs = "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n"
                     "  cvta.to.global.u64 %rd1, %rd1;\n  cvta.to.global.u64 %rd2, %rd2;\n  cvta.to.global.u64 %rd3, %rd3;\n"
                     "  mul.wide.u32 %rd4, %r4, 4;\n  add.s64 %rd5, %rd1, %rd4;\n  add.s64 %rd6, %rd2, %rd4;\n"
                     "  add.s64 %rd7, %rd3, %rd4;\n";
  const char *body = "  ld.global.f32 %f1, [%rd5];\n  ld.global.f32 %f2, [%rd6];\n  add.f32 %f3, %f1, %f2;\n"
                     "  st.global.f32 [%rd7], %f3;\n";
  const char *tail = "DONE:\n  ret;\n}\n";
  gasp_str s;
  gasp_str_init(&s);
  gasp_str_puts(&s, head);
  if (!strcmp(variant, "good")) {
    gasp_str_puts(&s, bound); gasp_str_puts(&s, ptrs); gasp_str_puts(&s, body);
  } else if (!strcmp(variant, "zero")) {
    gasp_str_puts(&s, bound); gasp_str_puts(&s, ptrs);
    gasp_str_puts(&s, "  mov.f32 %f3, 0f00000000;\n  st.global.f32 [%rd7], %f3;\n");
  } else if (!strcmp(variant, "half")) {
    gasp_str_puts(&s, "  shr.u32 %r5, %r5, 1;\n"); gasp_str_puts(&s, bound); gasp_str_puts(&s, ptrs); gasp_str_puts(&s, body);
  } else if (!strcmp(variant, "past_end")) {
    gasp_str_puts(&s, "  setp.gt.u32 %p1, %r4, %r5;\n  @%p1 bra DONE;\n"); gasp_str_puts(&s, ptrs);
    gasp_str_puts(&s, "  setp.eq.u32 %p2, %r4, %r5;\n  @%p2 bra STORE;\n");
    gasp_str_puts(&s, "  ld.global.f32 %f1, [%rd5];\n  ld.global.f32 %f2, [%rd6];\n  add.f32 %f3, %f1, %f2;\n"
                      "STORE:\n  st.global.f32 [%rd7], %f3;\n");
  } else if (!strcmp(variant, "mutate_input")) {
    gasp_str_puts(&s, bound); gasp_str_puts(&s, ptrs); gasp_str_puts(&s, body);
    gasp_str_puts(&s, "  st.global.f32 [%rd5], %f3;\n");
  } else if (!strcmp(variant, "misaligned")) {
    /* the offset comes from a register, so no static check can prove it: the hardware must catch it */
    gasp_str_puts(&s, bound); gasp_str_puts(&s, ptrs);
    gasp_str_puts(&s, "  and.b32 %r6, %r5, 0;\n  add.u32 %r6, %r6, 2;\n  cvt.u64.u32 %rd8, %r6;\n"
                      "  add.s64 %rd9, %rd5, %rd8;\n  ld.global.f32 %f1, [%rd9];\n  st.global.f32 [%rd7], %f1;\n");
  } else if (!strcmp(variant, "trap")) {
    gasp_str_puts(&s, bound); gasp_str_puts(&s, "  trap;\n");
  } else if (!strcmp(variant, "endless")) {
    /* a volatile load in the loop: ptxas may not remove it */
    gasp_str_puts(&s, ptrs);
    gasp_str_puts(&s, "SPIN:\n  ld.volatile.global.u32 %r6, [%rd5];\n  setp.ne.u32 %p3, %r6, 0x7fc00001;\n  @%p3 bra SPIN;\n");
  } else if (!strcmp(variant, "swapped")) {
    /* parameters taken in the wrong order: reads a and c, writes b */
    gasp_str_puts(&s, bound); gasp_str_puts(&s, ptrs);
    gasp_str_puts(&s, "  ld.global.f32 %f1, [%rd5];\n  ld.global.f32 %f2, [%rd7];\n  add.f32 %f3, %f1, %f2;\n"
                      "  st.global.f32 [%rd6], %f3;\n");
  } else if (!strcmp(variant, "null_write")) {
    gasp_str_puts(&s, bound); gasp_str_puts(&s, "  mov.u64 %rd10, 0;\n  st.global.f32 [%rd10], %f1;\n");
  } else if (!strcmp(variant, "one_wrong")) {
    gasp_str_puts(&s, bound); gasp_str_puts(&s, ptrs);
    gasp_str_puts(&s, "  ld.global.f32 %f1, [%rd5];\n  ld.global.f32 %f2, [%rd6];\n  add.f32 %f3, %f1, %f2;\n"
                      "  setp.eq.u32 %p2, %r4, 777;\n  @%p2 add.f32 %f3, %f3, 0f3F800000;\n  st.global.f32 [%rd7], %f3;\n");
  } else if (!strcmp(variant, "hardcoded_n")) {
    gasp_str_puts(&s, "  mov.u32 %r5, 4099;\n"); gasp_str_puts(&s, bound); gasp_str_puts(&s, ptrs); gasp_str_puts(&s, body);
  } else if (!strcmp(variant, "lost_precision")) {
    /* a + b through half precision: close on small values, wrong under the relative tolerance */
    gasp_str_puts(&s, bound); gasp_str_puts(&s, ptrs);
    gasp_str_puts(&s, "  .reg .b16 %h<2>;\n  ld.global.f32 %f1, [%rd5];\n  ld.global.f32 %f2, [%rd6];\n"
                      "  add.f32 %f3, %f1, %f2;\n  cvt.rn.f16.f32 %h1, %f3;\n  cvt.f32.f16 %f3, %h1;\n"
                      "  st.global.f32 [%rd7], %f3;\n");
  }
  gasp_str_puts(&s, tail);
  return gasp_str_take(&s);
}

static gasp_class judge(gasp_pool *pool, const gasp_target *t, const gasp_task *task, const char *answer,
                        gasp_record *rec_out, uint64_t seed) {
  gasp_record rec;
  gasp_record_init(&rec);
  rec.answer = gasp_strdup(answer);
  gasp_eval_opts eo = {0};
  eo.pool = pool;
  eo.seed = seed;
  gasp_eval(t, task, &eo, &rec);
  gasp_class c = rec.cls;
  if (rec_out) *rec_out = rec;
  else gasp_record_free(&rec);
  return c;
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0); /* a run cut by a time limit keeps what it printed */
  char why[256];
  gasp_pool_opts po;
  gasp_pool_default_opts(&po);
  po.spares = 2;
  gasp_pool *pool = gasp_pool_open(&po, why, sizeof why);
  if (!pool) {
    printf("SKIP: no GPU here (%s); run these tests on the GPU machine\n", why);
    return 77;
  }
  printf("GPU: %s (cc %d)\n", gasp_pool_device(pool), gasp_pool_cc(pool));
  gasp_diags d;
  gasp_diags_init(&d);
  gasp_taskset ts;
  gasp_taskset_load(gasp_tasks_dir(), &ts, &d);
  const gasp_task *va = gasp_taskset_find(&ts, "vector_add");
  const gasp_target *t = gasp_target_find("ptx-sm90");
  if (!va || !t) {
    printf("FAIL: vector_add task or ptx-sm90 target missing\n");
    return 1;
  }

  /* known-good: hand-written and nvcc's own PTX */
  char *good = vector_add_ptx("good");
  gasp_record rec;
  gasp_class c = judge(pool, t, va, good, &rec, 1);
  EXPECT(c == GASP_CLASS_PASS, "good vector_add: %s %s", gasp_class_name(c), rec.verdict.detail);
  gasp_record_free(&rec);
  char *ref = NULL;
  EXPECT(t->reference_answer(t, va, &ref, &d) == 0, "nvcc reference for vector_add");
  if (ref) {
    c = judge(pool, t, va, ref, &rec, 2);
    EXPECT(c == GASP_CLASS_PASS, "nvcc vector_add: %s %s", gasp_class_name(c), rec.verdict.detail);
    gasp_record_free(&rec);
  }

  /* each defect, its class */
  static const struct { const char *variant; gasp_class want; } bad[] = {
      {"zero", GASP_CLASS_WRONG},
      {"half", GASP_CLASS_UNWRITTEN},
      {"past_end", GASP_CLASS_OOB_WRITE},
      {"mutate_input", GASP_CLASS_INPUT_MUTATED},
      {"misaligned", GASP_CLASS_MISALIGNED},
      {"trap", GASP_CLASS_TRAP},
      {"endless", GASP_CLASS_TIMEOUT},
      {"swapped", GASP_CLASS_INPUT_MUTATED},
      {"null_write", GASP_CLASS_ILLEGAL_ADDRESS},
      {"one_wrong", GASP_CLASS_WRONG},
      {"hardcoded_n", GASP_CLASS_OOB_WRITE},
      {"lost_precision", GASP_CLASS_WRONG},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *p = vector_add_ptx(bad[i].variant);
    double t0 = gasp_now_s();
    c = judge(pool, t, va, p, &rec, 1); /* the good kernel's seed: cached fixtures must not leak a pass */
    printf("%-16s -> %-20s %.0f ms  %s\n", bad[i].variant, gasp_class_name(c), (gasp_now_s() - t0) * 1e3,
           rec.verdict.detail);
    EXPECT(c != GASP_CLASS_PASS, "%s passed: a false pass", bad[i].variant);
    EXPECT(c == bad[i].want, "%s: got %s, want %s", bad[i].variant, gasp_class_name(c), gasp_class_name(bad[i].want));
    if (!strcmp(bad[i].variant, "one_wrong"))
      EXPECT(rec.verdict.has_mismatch && rec.verdict.index == 777, "one_wrong: first mismatch at %lld",
             (long long)rec.verdict.index);
    gasp_record_free(&rec);
    free(p);
  }

  /* a crash of the worker itself becomes a record, and the next candidate runs */
  gasp_pool_crash_worker(pool);
  c = judge(pool, t, va, good, &rec, 99);
  EXPECT(c == GASP_CLASS_ERROR || c == GASP_CLASS_PASS, "after worker crash: %s", gasp_class_name(c));
  gasp_record_free(&rec);
  c = judge(pool, t, va, good, &rec, 100);
  EXPECT(c == GASP_CLASS_PASS, "good after crash: %s %s", gasp_class_name(c), rec.verdict.detail);
  gasp_record_free(&rec);

  /* many consecutive faulting candidates, every one recorded */
  const char *env = getenv("GASP_GPU_FAULTS");
  int nf = env ? atoi(env) : 1000;
  char *trap = vector_add_ptx("trap");
  static const char *const kinds[] = {"trap", "null_write", "misaligned"};
  static const gasp_class kind_class[] = {GASP_CLASS_TRAP, GASP_CLASS_ILLEGAL_ADDRESS, GASP_CLASS_MISALIGNED};
  char *kp[3] = {trap, vector_add_ptx("null_write"), vector_add_ptx("misaligned")};
  /* assemble once: the figure of interest is recovery, not ptxas */
  gasp_binary kb[3];
  for (int k = 0; k < 3; k++) EXPECT(gasp_assemble_answer(t, va, kp[k], &kb[k], &d) == 0, "assemble %s", kinds[k]);
  int recorded = 0, right = 0;
  double t0 = gasp_now_s();
  for (int i = 0; i < nf; i++) {
    gasp_verify_opts vo = {(uint64_t)i, 0, 0, NULL, NULL};
    gasp_verdict v;
    if (gasp_verify(pool, va, &kb[i % 3], &vo, &v)) break;
    recorded++;
    right += v.cls == kind_class[i % 3];
    if (v.cls != kind_class[i % 3] && right + 5 > recorded)
      printf("fault %d (%s): %s %s\n", i, kinds[i % 3], gasp_class_name(v.cls), v.detail);
  }
  double el = gasp_now_s() - t0;
  gasp_pool_stats st;
  gasp_pool_get_stats(pool, &st);
  printf("faults: %d candidates in %.2f s (%.1f/s), %d classified right, %ld restarts, mean recovery wait %.1f ms, "
         "longest %.1f ms, worker start %.0f ms\n",
         recorded, el, recorded / el, right, st.restarts, st.restarts ? st.restart_wait_ms / st.restarts : 0,
         st.max_restart_wait_ms, st.init_ms_last);
  EXPECT(recorded == nf, "only %d of %d faulting candidates recorded", recorded, nf);
  EXPECT(right == nf, "%d of %d faulting candidates classified right", right, nf);
  c = judge(pool, t, va, good, &rec, 7);
  EXPECT(c == GASP_CLASS_PASS, "good after the fault run: %s", gasp_class_name(c));
  gasp_record_free(&rec);

  for (int k = 0; k < 3; k++) gasp_binary_free(&kb[k]);
  free(kp[1]);
  free(kp[2]);
  free(trap);
  free(good);
  free(ref);
  gasp_pool_close(pool);
  gasp_taskset_free(&ts);
  gasp_diags_free(&d);
  printf("%s: %d failure(s)\n", failures ? "FAILED" : "ok", failures);
  return failures ? 1 : 0;
}
