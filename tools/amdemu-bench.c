/* amdemu-bench: wave-instructions emulated per second per core by the AMD emulator on real kernels
 * (tests/amdemu/kernels.cl compiled by clang-19 for gfx900, gfx1030 and gfx1100), one thread, printed as a
 * table. Usage: amdemu-bench [tests/amdemu/kernels.cl] [elements] */
#include <math.h>
#include <time.h>

#include "../tests/unit/test_amdemu_util.h"

/* CPU time of this thread: the figure is per core, and the machine may be shared */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "tests/amdemu/kernels.cl";
  uint32_t n = argc > 2 ? (uint32_t)atoi(argv[2]) : 1u << 20;
  char *src;
  size_t len;
  if (gasp_read_file(path, 1 << 20, &src, &len)) {
    fprintf(stderr, "amdemu-bench: cannot read %s\n", path);
    return 2;
  }
  float *a = malloc(4ull * n), *b = malloc(4ull * n), *c = malloc(4ull * n);
  for (uint32_t i = 0; i < n; i++) a[i] = (float)(i % 1000), b[i] = (float)(i % 77), c[i] = 0;
  printf("%-8s %-10s %10s %14s %10s %16s\n", "target", "kernel", "elements", "wave-instr", "cpu-s", "wave-instr/s");
  const char *gens[] = {"gfx900", "gfx1030", "gfx1100"};
  int rc = 0;
  for (int g = 0; g < 3; g++) {
    emu_fixture f;
    memset(&f, 0, sizeof f);
    f.mcpu = gens[g];
    f.obj = build_hsaco(src, 1, gens[g], &f.len);
    if (!f.obj) return 2;
    const char *kernels[] = {"vadd", "reduce", "diverge"};
    for (int k = 0; k < 3; k++) {
      f.nreg = 0;
      uint64_t pa = fx_buffer(&f, a, 4ull * n), pb = fx_buffer(&f, b, 4ull * n), pc = fx_buffer(&f, c, 4ull * n);
      memset(f.kernarg, 0, sizeof f.kernarg);
      uint32_t groups, bsize = 64;
      if (k == 0) {
        fx_arg(&f, 0, &pa, 8); fx_arg(&f, 8, &pb, 8); fx_arg(&f, 16, &pc, 8); fx_arg(&f, 24, &n, 4);
        groups = (n + 63) / 64;
      } else if (k == 1) {
        fx_arg(&f, 0, &pa, 8); fx_arg(&f, 8, &pc, 8);
        groups = n / 256;
        bsize = 256;
      } else {
        fx_arg(&f, 0, &pa, 8); fx_arg(&f, 8, &pc, 8); fx_arg(&f, 16, &n, 4);
        groups = (n + 63) / 64;
      }
      double t0 = now();
      gasp_emu_result r = fx_run(&f, kernels[k], groups, 1, bsize, 1, 4000000000ull);
      double dt = now() - t0;
      if (r.cls != GASP_CLASS_PASS) {
        printf("%-8s %-10s failed: %s: %s\n", gens[g], kernels[k], gasp_class_name(r.cls), r.detail);
        rc = 1;
        continue;
      }
      printf("%-8s %-10s %10u %14llu %10.3f %16.0f\n", gens[g], kernels[k], n, (unsigned long long)r.wave_instructions,
             dt, r.wave_instructions / dt);
    }
    free((void *)f.obj);
  }
  free(src);
  free(a); free(b); free(c);
  return rc;
}
