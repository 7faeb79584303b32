/* Helpers of the AMD emulator tests: build a code object with LLVM 19 (clang for OpenCL C, llvm-mc for
 * assembly, then ld.lld) at test time, and run a launch over host buffers. Exits 77 (skip) when LLVM 19 is
 * missing, so CI without it reports a skip rather than a pass. */
#ifndef GASP_TEST_AMDEMU_UTIL_H
#define GASP_TEST_AMDEMU_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/proc.h"
#include "core/util.h"
#include "target/amdgcn/emu/emu.h"

static const char *llvm_tool(const char *name) {
  static char buf[4][256];
  static int k;
  char *b = buf[k++ & 3];
  snprintf(b, 256, "/usr/lib/llvm-19/bin/%s", name);
  if (access(b, X_OK) == 0) return b;
  printf("skip: %s not found (install llvm-19, lld-19, clang-19)\n", b);
  exit(77);
}

static int run_tool(char *const argv[], char **err) {
  gasp_proc_result pr;
  if (gasp_proc_run(argv, 60000, 1 << 20, &pr)) return -1;
  int ok = pr.exited && pr.exit_code == 0;
  if (!ok) fprintf(stderr, "%s failed: %s\n", argv[0], pr.err ? pr.err : "");
  if (err && pr.err) *err = strdup(pr.err);
  gasp_proc_result_free(&pr);
  return ok ? 0 : -1;
}

/* Builds `src` (OpenCL C when is_cl, else assembly) for mcpu into a code object; returns malloc'd bytes. */
static uint8_t *build_hsaco(const char *src, int is_cl, const char *mcpu, size_t *len) {
  char dir[] = "/tmp/amdemu-test-XXXXXX";
  if (!mkdtemp(dir)) return NULL;
  char in[300], obj[300], out[300], cpu[64];
  snprintf(in, sizeof in, "%s/k.%s", dir, is_cl ? "cl" : "s");
  snprintf(obj, sizeof obj, "%s/k.o", dir);
  snprintf(out, sizeof out, "%s/k.hsaco", dir);
  snprintf(cpu, sizeof cpu, "-mcpu=%s", mcpu);
  FILE *f = fopen(in, "w");
  if (!f) return NULL;
  fputs(src, f);
  fclose(f);
  int rc;
  if (is_cl) {
    char *argv[] = {(char *)llvm_tool("clang"), "-x", "cl", "-cl-std=CL2.0", "-Xclang", "-finclude-default-header",
                    "-nogpulib", "-target", "amdgcn-amd-amdhsa", cpu, "-O2", "-c", in, "-o", obj, NULL};
    rc = run_tool(argv, NULL);
  } else {
    char *argv[] = {(char *)llvm_tool("llvm-mc"), "-triple=amdgcn-amd-amdhsa", cpu, "-filetype=obj", in, "-o", obj, NULL};
    rc = run_tool(argv, NULL);
  }
  uint8_t *bytes = NULL;
  if (!rc) {
    char *argv[] = {(char *)llvm_tool("ld.lld"), "-shared", obj, "-o", out, NULL};
    rc = run_tool(argv, NULL);
  }
  if (!rc) {
    char *data;
    size_t n;
    if (gasp_read_file(out, 1 << 24, &data, &n) == 0) {
      bytes = (uint8_t *)data;
      *len = n;
    }
  }
  unlink(in);
  unlink(obj);
  unlink(out);
  rmdir(dir);
  return bytes;
}

/* Up to 6 buffers at fixed device addresses; kernarg assembled by the test. */
typedef struct {
  const char *mcpu;
  const uint8_t *obj;
  size_t len;
  gasp_emu_region reg[6];
  int nreg;
  uint8_t kernarg[256];
} emu_fixture;

static uint64_t fx_buffer(emu_fixture *f, void *host, uint64_t size) {
  uint64_t base = 0x100000000ull + (uint64_t)f->nreg * 0x10000000ull;
  f->reg[f->nreg++] = (gasp_emu_region){base, host, size};
  return base;
}

static void fx_arg(emu_fixture *f, unsigned off, const void *v, unsigned n) { memcpy(f->kernarg + off, v, n); }

static gasp_emu_result fx_run(emu_fixture *f, const char *kernel, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by,
                              uint64_t budget) {
  gasp_emu_launch l;
  memset(&l, 0, sizeof l);
  l.mcpu = f->mcpu;
  l.code_object = f->obj;
  l.code_object_len = f->len;
  l.kernel = kernel;
  l.grid_groups[0] = gx;
  l.grid_groups[1] = gy;
  l.group_size[0] = bx;
  l.group_size[1] = by;
  l.kernarg = f->kernarg;
  l.kernarg_len = sizeof f->kernarg;
  l.regions = f->reg;
  l.nregions = f->nreg;
  l.max_wave_instructions = budget;
  gasp_emu_result r;
  if (gasp_emu_run(&l, &r) != 0) r.cls = GASP_CLASS_ERROR;
  return r;
}

#endif
