/* The AMD targets' check and assembly (src/target/amdgcn): good sources (harness body, snippet, complete clang-19
 * source) assemble into an ELF code object on all three targets; each bad source is caught at the expected
 * line, column and class, both by llvm-mc (mapped) and by our own checks that llvm-mc lacks. Skipped (77) without
 * LLVM 19. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/util.h"
#include "eval/eval.h"
#include "target/amdgcn/amd.h"

#ifndef GASP_TEST_AMD_DIR
#define GASP_TEST_AMD_DIR "tests/data/amdgcn"
#endif

static gasp_taskset ts;

static char *slurp(const char *name) {
  char path[600], *data;
  size_t n;
  snprintf(path, sizeof path, "%s/%s", GASP_TEST_AMD_DIR, name);
  return gasp_read_file(path, 1 << 20, &data, &n) ? NULL : data;
}

/* Assembles `file` for `target` and task; returns 0 when clean. d is filled. */
static int run(const char *target, const char *task_id, const char *file, gasp_binary *bin, gasp_diags *d) {
  const gasp_target *t = gasp_target_find(target);
  const gasp_task *task = gasp_taskset_find(&ts, task_id);
  char *src = slurp(file);
  CHECK(t && task && src, "%s %s %s", target, task_id, file);
  if (!t || !task || !src) return -1;
  int rc = gasp_assemble_answer(t, task, src, bin, d);
  free(src);
  return rc;
}

static void good(const char *target, const char *task_id, const char *file) {
  gasp_binary bin;
  gasp_diags d;
  gasp_diags_init(&d);
  int rc = run(target, task_id, file, &bin, &d);
  CHECK(rc == 0, "%s on %s: %s", file, target, d.count ? d.items[0].msg : "(no diagnostic)");
  if (!rc) {
    CHECK(bin.len > 64 && !memcmp(bin.data, "\177ELF", 4), "%s: an ELF code object", file);
    const gasp_amd_layout *lay = bin.launch;
    const gasp_task *task = gasp_taskset_find(&ts, task_id);
    CHECK(lay && lay->nexplicit == task->nparams, "%s: launch layout with %d explicit arguments", file, task->nparams);
    CHECK(lay && !strcmp(lay->mcpu, target) && !strcmp(bin.kernel, task->kernel), "%s: mcpu and kernel", file);
    gasp_binary_free(&bin);
  }
  gasp_diags_free(&d);
}

/* The answer must fail with a diagnostic of class cls at line:col whose message contains `what`. */
static void bad(const char *target, const char *file, int line, int col, gasp_class cls, const char *what) {
  gasp_binary bin;
  gasp_diags d;
  gasp_diags_init(&d);
  int rc = run(target, "vector_add", file, &bin, &d);
  CHECK(rc != 0, "%s on %s must fail", file, target);
  int found = 0;
  for (size_t i = 0; i < d.count; i++)
    if (d.items[i].sev == GASP_SEV_ERROR && d.items[i].line == line && d.items[i].col == col && d.items[i].cls == cls &&
        strstr(d.items[i].msg, what))
      found = 1;
  CHECK(found, "%s: no %s error at %d:%d containing '%s'; got %zu diagnostics, first %d:%d %s: %s", file,
        gasp_class_name(cls), line, col, what, d.count, d.count ? d.items[0].line : 0, d.count ? d.items[0].col : 0,
        d.count ? gasp_class_name(d.items[0].cls) : "", d.count ? d.items[0].msg : "");
  if (!rc) gasp_binary_free(&bin);
  gasp_diags_free(&d);
}

/* The s_waitcnt rewriter: the answer assembles after it, with a note at the answer line it fixed, and the
 * assembled code holds the inserted wait. */
static void fixed(const char *file, int line, const char *wait) {
  const gasp_target *t = gasp_target_find("gfx1030");
  const gasp_task *task = gasp_taskset_find(&ts, "vector_add");
  gasp_record rec;
  gasp_record_init(&rec);
  rec.answer = slurp(file);
  gasp_binary bin;
  memset(&bin, 0, sizeof bin);
  gasp_eval_opts eo = {0};
  eo.stop_after_check = 1;
  eo.rewrite = 1;
  eo.binary_out = &bin;
  gasp_eval(t, task, &eo, &rec);
  CHECK(rec.cls == GASP_CLASS_PASS && rec.rewrites == 1, "%s: rewritten once and clean (class %s, %d rewrites)", file,
        gasp_class_name(rec.cls), rec.rewrites);
  int noted = 0;
  for (size_t i = 0; i < rec.diags.count; i++)
    noted |= rec.diags.items[i].sev == GASP_SEV_NOTE && rec.diags.items[i].line == line && strstr(rec.diags.items[i].msg, wait);
  CHECK(noted, "%s: a note at line %d naming %s", file, line, wait);
  gasp_binary_free(&bin);
  gasp_record_free(&rec);
}

/* Fuzz: mutated sources (bytes flipped, lines cut, digits and brackets inserted) through our own parsers, the
 * scaffold, the metadata reader and the rewriter: results only, no crash, no hang. (llvm-mc is left out: it is
 * not ours, and it would make this slow.) */
static uint64_t fz = 0x9E3779B97F4A7C15ull;
static uint32_t fz_next(void) {
  fz ^= fz << 13, fz ^= fz >> 7, fz ^= fz << 17;
  return (uint32_t)(fz >> 11);
}

static void fuzz(const char *file, const char *task_id, int cases) {
  char *src = slurp(file);
  const gasp_task *task = gasp_taskset_find(&ts, task_id);
  const gasp_target *t = gasp_target_find("gfx1100");
  if (!src || !task) return;
  size_t len = strlen(src);
  static const char junk[] = "v[s]:,0123456789-;\n.x_()\"";
  int survived = 0;
  for (int c = 0; c < cases; c++) {
    char *m = malloc(len + 64);
    memcpy(m, src, len + 1);
    size_t n = len;
    for (int k = 1 + (int)(fz_next() % 8); k > 0 && n > 0; k--) {
      size_t at = fz_next() % n;
      switch (fz_next() % 3) {
      case 0: m[at] = junk[fz_next() % (sizeof junk - 1)]; break;
      case 1: memmove(m + at, m + at + 1, n - at); n--; break;
      default:
        if (n + 1 < len + 64) { memmove(m + at + 1, m + at, n - at + 1); m[at] = junk[fz_next() % (sizeof junk - 1)]; n++; }
      }
    }
    m[n] = 0;
    int mv, ms;
    gasp_amd_scan_regs(m, &mv, &ms);
    gasp_amd_layout lay;
    int ml, mw;
    char err[256];
    gasp_amd_meta_parse(m, NULL, &lay, &ml, &mw, err, sizeof err);
    gasp_diags d;
    gasp_diags_init(&d);
    gasp_source so;
    memset(&so, 0, sizeof so);
    if (t->prepare(t, task, m, 1, &so, &d) == 0) {
      t->rewrite(t, task, &so, &d);
      gasp_source_free(&so);
    }
    gasp_diags_free(&d);
    free(m);
    survived++;
  }
  CHECK(survived == cases, "%s: %d of %d fuzz cases", file, survived, cases);
  free(src);
}

/* The harness's kernel-argument layout (explicit arguments, then the hidden block) is the one clang-19 gives the
 * task's OpenCL C reference: compared argument by argument on every AMD task (gfx1030; cached compiles). */
static void layout_matches_clang(void) {
  const gasp_target *t = gasp_target_find("gfx1030");
  int compared = 0;
  for (size_t i = 0; i < ts.count; i++) {
    const gasp_task *task = &ts.items[i];
    if (!gasp_task_fits(task, "AMDGCN")) continue;
    gasp_diags d;
    gasp_diags_init(&d);
    char *ans = NULL;
    if (gasp_amd_clang_source(t, task, &ans, &d)) {
      CHECK(0, "%s: clang-19 reference: %s", task->id, d.count ? d.items[0].msg : "");
      gasp_diags_free(&d);
      continue;
    }
    gasp_amd_layout got, want;
    int ml, mw;
    char err[256];
    CHECK(gasp_amd_meta_parse(ans, task->kernel, &got, &ml, &mw, err, sizeof err) == 0, "%s: %s", task->id, err);
    gasp_amd_layout_for_task(task, gasp_amd_arch_of(t), &want);
    CHECK(got.nexplicit == want.nexplicit, "%s: %d explicit arguments, want %d", task->id, got.nexplicit, want.nexplicit);
    /* every hidden argument the harness fills sits where clang put the same kind */
    for (int w = 0; w < want.nargs; w++) {
      if (want.args[w].kind == GASP_AMD_ARG_ZERO) continue;
      int same = 0, present = 0;
      for (int g = 0; g < got.nargs; g++)
        if (got.args[g].kind == want.args[w].kind) {
          present = 1;
          same |= got.args[g].offset == want.args[w].offset && got.args[g].size == want.args[w].size;
        }
      CHECK(!present || same, "%s: argument kind %d at offset %u", task->id, want.args[w].kind, want.args[w].offset);
    }
    /* clang drops the hidden block when nothing reads it; when it is there it is as large as ours */
    CHECK(got.kernarg_size <= want.kernarg_size, "%s: kernarg size %u, ours %u", task->id, got.kernarg_size, want.kernarg_size);
    compared++;
    free(ans);
    gasp_diags_free(&d);
  }
  CHECK(compared >= 20, "%d AMD tasks compared", compared);
}

/* PTX snippet -> AMD snippet: exact text for hand-checked cases (the registers the AMD snippet prompt names:
 * inputs v2.., the result after them, temporaries next, predicates s32.. or s[32:33]..), and NULL (keep
 * clang's kernel) for what the translator does not map. */
static void snippet_translation(void) {
  const gasp_target *g10 = gasp_target_find("gfx1030"), *g9 = gasp_target_find("gfx900");
  const gasp_task *add = gasp_taskset_find(&ts, "add_f32"), *mad = gasp_taskset_find(&ts, "mad_s32");
  const gasp_task *relu = gasp_taskset_find(&ts, "relu_leaky"), *adu = gasp_taskset_find(&ts, "abs_diff_u32");
  CHECK(add && mad && relu && adu, "tasks add_f32, mad_s32, relu_leaky, abs_diff_u32");
  if (!add || !mad || !relu || !adu) return;
  struct { const gasp_target *t; const gasp_task *task; const char *ptx, *want; } c[] = {
      {g10, add, "add.f32 %d, %a, %b;", "v_add_f32_e32 v4, v2, v3\n"},
      {g10, add, "sub.rn.f32 %d, %b, %a;", "v_sub_f32_e32 v4, v3, v2\n"},
      {g9, mad, "mad.lo.s32 %d, %a, %b, %c;", "v_mul_lo_u32 v9, v2, v3\nv_add_u32_e32 v5, v9, v4\n"},
      {g10, mad, "shl.b32 %d, %a, %b;", "v_lshlrev_b32_e32 v5, v3, v2\n"},
      {g9, relu, ".reg .pred %p; setp.ne.f32 %p, %x, 0f00000000; selp.f32 %d, %x, 0f3F800000, %p;",
       "v_mov_b32_e32 v5, 0x0\nv_cmp_lg_f32_e64 s[32:33], v2, v5\nv_mov_b32_e32 v5, 0x3f800000\n"
       "v_cndmask_b32_e64 v3, v5, v2, s[32:33]\n"},
      /* division by a constant: the published magic numbers for 7 (u32 0x24924925 with the add fix-up and a
       * shift of 2; s32 0x92492493, negative, so + x, then >> 2), checked end to end in the emulator by
       * tests/integration/corpus.sh */
      {g10, adu, "div.u32 %d, %a, 7;",
       "v_mov_b32_e32 v7, 0x24924925\nv_mul_hi_u32 v7, v2, v7\nv_sub_nc_u32_e32 v8, v2, v7\nv_lshrrev_b32_e32 v8, 1, v8\n"
       "v_add_nc_u32_e32 v8, v8, v7\nv_lshrrev_b32_e32 v4, 2, v8\n"},
      {g9, mad, "rem.s32 %d, %a, 7;",
       "v_mov_b32_e32 v8, 0x92492493\nv_mul_hi_i32 v8, v2, v8\nv_add_u32_e32 v8, v8, v2\nv_ashrrev_i32_e32 v8, 2, v8\n"
       "v_lshrrev_b32_e32 v9, 31, v8\nv_add_u32_e32 v7, v8, v9\nv_mov_b32_e32 v9, 0x7\nv_mul_lo_u32 v9, v7, v9\n"
       "v_sub_u32_e32 v5, v2, v9\n"},
      {g10, adu, "div.u32 %d, %a, %b;", NULL},            /* a divisor in a register: no magic number */
      /* IEEE sqrt and division: clang-19's refined sequences (its sqrt_f32 kernel's, its fdiv's), which pass in the
       * emulator whose v_sqrt_f32 gives the other faithful rounding (tests/integration/amd_reference.sh) */
      {g10, add, "sqrt.rn.f32 %d, %a;",
       "v_mul_f32_e32 v7, 0x4f800000, v2\nv_cmp_gt_f32_e32 vcc_lo, 0xf800000, v2\nv_cndmask_b32_e32 v7, v2, v7, vcc_lo\n"
       "v_sqrt_f32_e32 v8, v7\nv_add_nc_u32_e32 v9, -1, v8\nv_add_nc_u32_e32 v10, 1, v8\nv_fma_f32 v11, -v9, v8, v7\n"
       "v_fma_f32 v12, -v10, v8, v7\nv_cmp_ge_f32_e64 s32, 0, v11\nv_cndmask_b32_e64 v8, v8, v9, s32\n"
       "v_cmp_lt_f32_e64 s32, 0, v12\nv_cndmask_b32_e64 v8, v8, v10, s32\nv_mul_f32_e32 v9, 0x37800000, v8\n"
       "v_cndmask_b32_e32 v8, v8, v9, vcc_lo\nv_mov_b32_e32 v9, 0x260\nv_cmp_class_f32_e32 vcc_lo, v7, v9\n"
       "v_cndmask_b32_e32 v4, v8, v7, vcc_lo\n"},
      {g9, add, "div.rn.f32 %d, %a, %b;",
       "v_div_scale_f32 v7, s[32:33], v3, v3, v2\nv_rcp_f32_e32 v8, v7\nv_div_scale_f32 v9, vcc, v2, v3, v2\n"
       "v_fma_f32 v10, -v7, v8, 1.0\nv_fma_f32 v8, v10, v8, v8\nv_mul_f32_e32 v10, v9, v8\nv_fma_f32 v11, -v7, v10, v9\n"
       "v_fma_f32 v10, v11, v8, v10\nv_fma_f32 v7, -v7, v10, v9\nv_div_fmas_f32 v7, v7, v8, v10\n"
       "v_div_fixup_f32 v4, v7, v3, v2\n"},
      {g10, add, "sqrt.approx.f32 %d, %a;", NULL},        /* an approximation the task would not ask for */
      {g10, add, "add.ftz.f32 %d, %a, %b;", NULL},        /* flush-to-zero: the harness keeps denormals */
      {g10, add, "ld.global.f32 %d, [%a];", NULL},         /* memory */
      {g10, add, "@%p add.f32 %d, %a, %b;", NULL},         /* predication */
      {g10, add, "add.f32 %q, %a, %b;", NULL},             /* an undeclared register */
      {g10, add, "add.f64 %d, %a, %b;", NULL},
  };
  for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
    char *got = gasp_amd_snippet_from_ptx(c[i].t, c[i].task, c[i].ptx);
    if (c[i].want) CHECK(got && !strcmp(got, c[i].want), "%s: got '%s'", c[i].ptx, got ? got : "NULL");
    else CHECK(!got, "%s: translated to '%s', expected no translation", c[i].ptx, got);
    free(got);
  }
}

int main(void) {
  char tool[600];
  if (gasp_amd_tool("llvm-mc", tool, sizeof tool) || gasp_amd_tool("ld.lld", tool, sizeof tool)) {
    printf("skip: LLVM 19 (llvm-mc, ld.lld) not installed: apt-get install llvm-19 lld-19\n");
    return 77;
  }
  gasp_diags d;
  gasp_diags_init(&d);
  CHECK(gasp_taskset_load(gasp_tasks_dir(), &ts, &d) == 0, "tasks load");
  const char *targets[] = {"gfx900", "gfx1030", "gfx1100"};
  for (int i = 0; i < 3; i++) {
    char f[64];
    snprintf(f, sizeof f, "vector_add.%s.s", targets[i]);
    good(targets[i], "vector_add", f);
    good(targets[i], "add_f32", "add_f32.snippet.s");
  }
  good("gfx1030", "vector_add", "vector_add.full.gfx1030.s");
  /* llvm-mc's own diagnostics, mapped to the answer */
  bad("gfx1030", "bad_syntax.gfx1030.s", 17, 3, GASP_CLASS_SYNTAX, "invalid instruction");
  bad("gfx1030", "bad_range.gfx1030.s", 17, 25, GASP_CLASS_RANGE, "out of range");
  /* ours: what llvm-mc accepts */
  bad("gfx1030", "bad_waitcnt.gfx1030.s", 16, 21, GASP_CLASS_HAZARD, "before the s_waitcnt vmcnt");
  bad("gfx1030", "bad_waitcnt.full.gfx1030.s", 33, 20, GASP_CLASS_HAZARD, "read before the s_waitcnt vmcnt");
  bad("gfx1030", "bad_lgkm.gfx1030.s", 13, 29, GASP_CLASS_HAZARD, "s_waitcnt lgkmcnt that covers the s_load_dwordx4");
  bad("gfx1030", "bad_nextfree.full.gfx1030.s", 27, 15, GASP_CLASS_RESOURCE, "v0..v3 (.amdhsa_next_free_vgpr 4");
  bad("gfx1030", "bad_vcc.gfx1030.s", 7, 20, GASP_CLASS_SEMANTIC, "vcc_lo");
  bad("gfx900", "bad_vcclo.gfx900.s", 7, 20, GASP_CLASS_SEMANTIC, "wave64");
  bad("gfx1030", "bad_wave.full.gfx1030.s", 125, 1, GASP_CLASS_SEMANTIC, ".wavefront_size: 64");
  bad("gfx1030", "bad_abi.full.gfx1030.s", 125, 1, GASP_CLASS_SEMANTIC, "kernel argument 3 (n)");
  bad("gfx1030", "bad_lds.full.gfx1030.s", 34, 2, GASP_CLASS_RESOURCE, "LDS byte 68");
  fixed("bad_waitcnt.gfx1030.s", 16, "vmcnt(0)");
  fixed("bad_waitcnt.full.gfx1030.s", 33, "vmcnt(0)");
  fixed("bad_lgkm.gfx1030.s", 13, "lgkmcnt(0)");
  layout_matches_clang();
  snippet_translation();
  fuzz("vector_add.full.gfx1030.s", "vector_add", 3000);
  fuzz("bad_waitcnt.gfx1030.s", "vector_add", 3000);
  fuzz("add_f32.snippet.s", "add_f32", 1000);
  /* the waitcnt checker does not cry wolf: none of the 44 clang-19 references on any target trips it (they are
   * checked by the integration test through the reference backend) */
  gasp_taskset_free(&ts);
  gasp_diags_free(&d);
  return DONE();
}
