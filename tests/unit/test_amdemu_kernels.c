/* Whole kernels in the AMD emulator on gfx900, gfx1030 and gfx1100: OpenCL C from tests/amdemu/kernels.cl
 * compiled by clang-19 at test time, run over host buffers and compared with a CPU computation. */
#include <math.h>

#include "test_amdemu_util.h"
#include "check.h"

#ifndef AMDEMU_DIR
#error AMDEMU_DIR must name tests/amdemu
#endif

static uint32_t rng = 12345;
static uint32_t rnd(void) { rng = rng * 1664525u + 1013904223u; return rng >> 8; }
static float rndf(void) { return (float)(rnd() % 20001) / 1000.0f - 10.0f; }

static void show(const gasp_emu_result *r, const char *what, const char *mcpu) {
  if (r->cls != GASP_CLASS_PASS)
    printf("  %s on %s: %s: %s (pc 0x%llx)\n", what, mcpu, gasp_class_name(r->cls), r->detail, (unsigned long long)r->pc);
}

static void test_gen(const char *mcpu, const char *src) {
  emu_fixture f;
  memset(&f, 0, sizeof f);
  f.mcpu = mcpu;
  f.obj = build_hsaco(src, 1, mcpu, &f.len);
  CHECK(f.obj != NULL, "build kernels.cl for %s", mcpu);
  if (!f.obj) return;
  enum { N = 1000 };
  /* vadd: 1000 elements in groups of 64 (the last group partly masked by the bounds check) */
  {
    static float a[N], b[N], c[N + 64];
    for (int i = 0; i < N; i++) a[i] = rndf(), b[i] = rndf();
    for (int i = 0; i < N + 64; i++) c[i] = -7.0f;
    f.nreg = 0;
    uint64_t pa = fx_buffer(&f, a, sizeof a), pb = fx_buffer(&f, b, sizeof b), pc = fx_buffer(&f, c, sizeof c);
    uint32_t n = N;
    fx_arg(&f, 0, &pa, 8); fx_arg(&f, 8, &pb, 8); fx_arg(&f, 16, &pc, 8); fx_arg(&f, 24, &n, 4);
    gasp_emu_result r = fx_run(&f, "vadd", (N + 63) / 64, 1, 64, 1, 0);
    show(&r, "vadd", mcpu);
    CHECK(r.cls == GASP_CLASS_PASS, "vadd on %s", mcpu);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += c[i] != a[i] + b[i];
    for (int i = N; i < N + 64; i++) bad += c[i] != -7.0f;
    CHECK(bad == 0, "vadd on %s: %d wrong", mcpu, bad);
  }
  /* saxpy: fused or not, the CPU reference computes the same as the instruction clang chose; accept either
   * rounding per element but no other value */
  {
    static float x[N], y[N], y0[N];
    for (int i = 0; i < N; i++) x[i] = rndf(), y[i] = y0[i] = rndf();
    f.nreg = 0;
    uint64_t px = fx_buffer(&f, x, sizeof x), py = fx_buffer(&f, y, sizeof y);
    float alpha = 1.7f;
    uint32_t n = N;
    fx_arg(&f, 0, &alpha, 4); fx_arg(&f, 8, &px, 8); fx_arg(&f, 16, &py, 8); fx_arg(&f, 24, &n, 4);
    gasp_emu_result r = fx_run(&f, "saxpy", (N + 63) / 64, 1, 64, 1, 0);
    show(&r, "saxpy", mcpu);
    CHECK(r.cls == GASP_CLASS_PASS, "saxpy on %s", mcpu);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += y[i] != fmaf(alpha, x[i], y0[i]) && y[i] != alpha * x[i] + y0[i];
    CHECK(bad == 0, "saxpy on %s: %d wrong", mcpu, bad);
  }
  /* reduce: 8 groups of 256 through LDS and barriers; integers in floats so any order sums exactly */
  {
    static float in[8 * 256], out[8];
    for (int i = 0; i < 8 * 256; i++) in[i] = (float)(int)(rnd() % 201) - 100.0f;
    f.nreg = 0;
    uint64_t pi = fx_buffer(&f, in, sizeof in), po = fx_buffer(&f, out, sizeof out);
    fx_arg(&f, 0, &pi, 8); fx_arg(&f, 8, &po, 8);
    gasp_emu_result r = fx_run(&f, "reduce", 8, 1, 256, 1, 0);
    show(&r, "reduce", mcpu);
    CHECK(r.cls == GASP_CLASS_PASS, "reduce on %s", mcpu);
    for (int g = 0; g < 8; g++) {
      float s = 0;
      for (int i = 0; i < 256; i++) s += in[g * 256 + i];
      CHECK(out[g] == s, "reduce on %s group %d: %g, want %g", mcpu, g, out[g], s);
    }
  }
  /* transpose: 40 x 56 ints, 16x16 groups */
  {
    enum { R = 40, C = 56 };
    static int32_t in[R * C], out[R * C];
    for (int i = 0; i < R * C; i++) in[i] = (int32_t)rnd(), out[i] = -1;
    f.nreg = 0;
    uint64_t pi = fx_buffer(&f, in, sizeof in), po = fx_buffer(&f, out, sizeof out);
    uint32_t rows = R, cols = C;
    fx_arg(&f, 0, &pi, 8); fx_arg(&f, 8, &po, 8); fx_arg(&f, 16, &rows, 4); fx_arg(&f, 20, &cols, 4);
    gasp_emu_result r = fx_run(&f, "transpose", (C + 15) / 16, (R + 15) / 16, 16, 16, 0);
    show(&r, "transpose", mcpu);
    CHECK(r.cls == GASP_CLASS_PASS, "transpose on %s", mcpu);
    int bad = 0;
    for (int y = 0; y < R; y++)
      for (int x = 0; x < C; x++) bad += out[x * R + y] != in[y * C + x];
    CHECK(bad == 0, "transpose on %s: %d wrong", mcpu, bad);
  }
  /* diverge: odd lanes loop a data-dependent number of times, even lanes take the other branch */
  {
    static int32_t in[N], out[N];
    for (int i = 0; i < N; i++) in[i] = (int32_t)(rnd() % 100000) - 50000, out[i] = 0x7eadbeef;
    f.nreg = 0;
    uint64_t pi = fx_buffer(&f, in, sizeof in), po = fx_buffer(&f, out, sizeof out);
    uint32_t n = N;
    fx_arg(&f, 0, &pi, 8); fx_arg(&f, 8, &po, 8); fx_arg(&f, 16, &n, 4);
    gasp_emu_result r = fx_run(&f, "diverge", (N + 63) / 64, 1, 64, 1, 0);
    show(&r, "diverge", mcpu);
    CHECK(r.cls == GASP_CLASS_PASS, "diverge on %s", mcpu);
    int bad = 0;
    for (int i = 0; i < N; i++) {
      int v = in[i], want;
      if (v & 1) { want = 0; for (int k = 0; k < (v & 15); k++) want += k * v; }
      else want = (v >> 1) ^ 0x55;
      bad += out[i] != want;
    }
    CHECK(bad == 0, "diverge on %s: %d wrong", mcpu, bad);
  }
  /* dispatch packet: 7 groups of 32 */
  {
    static uint32_t out[7 * 32];
    memset(out, 0, sizeof out);
    f.nreg = 0;
    uint64_t po = fx_buffer(&f, out, sizeof out);
    memset(f.kernarg, 0, sizeof f.kernarg);
    fx_arg(&f, 0, &po, 8);
    gasp_emu_result r = fx_run(&f, "dispatch", 7, 1, 32, 1, 0);
    show(&r, "dispatch", mcpu);
    CHECK(r.cls == GASP_CLASS_PASS, "dispatch on %s", mcpu);
    int bad = 0;
    for (int i = 0; i < 7 * 32; i++) bad += out[i] != 32u * 100000u + 7u * 32u;
    CHECK(bad == 0, "dispatch on %s: %d wrong (first %u)", mcpu, bad, out[0]);
  }
  free((void *)f.obj);
}

int main(void) {
  char *src;
  size_t n;
  CHECK(gasp_read_file(AMDEMU_DIR "/kernels.cl", 1 << 20, &src, &n) == 0, "read kernels.cl");
  if (!src) return DONE();
  const char *gens[] = {"gfx900", "gfx1030", "gfx1100"};
  for (int i = 0; i < 3; i++) test_gen(gens[i], src);
  free(src);
  return DONE();
}
