/* SASS occupancy and scheduling (issue 4). Occupancy: sass_occupancy_compute against the CUDA occupancy
 * calculator's register rule (256-register units per warp, 64K registers per SM; 64 warps and 32 blocks per SM on
 * sm_90, 48 and 24 on sm_89). Scheduling: every kernel nvcc wrote in the corpus (tools/sass-corpus/cubins), its
 * control bits wiped, is scheduled by gasp; the hazard checker must find nothing in the result, and every
 * instruction must keep its bits outside the control field. Wiped but unscheduled, the same code must show
 * hazards (so the check can fail). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/util.h"
#include "target/sass/sass.h"
#include "target/sass/sass_arch.h"
#include "target/sass/sass_hazard.h"
#include "target/sass/sass_sched.h"

static void occupancy(void)
{
  static const struct { int sm, regs, threads, per_warp, by_regs, blocks, warps; } rows[] = {
      {90, 32, 256, 1024, 64, 8, 64},  /* 100% */
      {90, 64, 256, 2048, 32, 4, 32},  /* 50% */
      {90, 40, 256, 1280, 51, 6, 48},  /* 1280-register warps: 51 fit, whole blocks of 8 warps: 6 */
      {90, 255, 256, 8192, 8, 1, 8},   /* 255 * 32 = 8160 rounds up to 8192 */
      {90, 16, 64, 512, 64, 32, 64},   /* the block limit: 32 blocks of 2 warps */
      {90, 16, 32, 512, 64, 32, 32},   /* 32 blocks of 1 warp: half the warps */
      {90, 80, 1024, 2560, 25, 0, 0},  /* a 1024-thread block needs 32 warps, registers hold 25: no launch */
      {89, 32, 256, 1024, 48, 6, 48},  /* sm_89: 48 warps */
      {89, 16, 32, 512, 48, 24, 24},   /* sm_89: 24 blocks */
      {89, 203, 256, 6656, 9, 1, 8},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    sass_occupancy o;
    int rc = sass_occupancy_compute(rows[i].sm, rows[i].regs, rows[i].threads, &o);
    CHECK(rc == 0 && o.regs_per_warp == rows[i].per_warp && o.warps_by_regs == rows[i].by_regs &&
              o.blocks_per_sm == rows[i].blocks && o.warps_per_sm == rows[i].warps,
          "sm_%d, %d registers, %d threads: %d per warp, %d warps by registers, %d blocks, %d warps", rows[i].sm,
          rows[i].regs, rows[i].threads, o.regs_per_warp, o.warps_by_regs, o.blocks_per_sm, o.warps_per_sm);
  }
  sass_occupancy o;
  CHECK(sass_occupancy_compute(90, 256, 0, &o) == -1, "256 registers per thread refused");
  CHECK(sass_occupancy_compute(80, 32, 0, &o) == -1, "sm_80 refused");
}

/* .text sections of one cubin: calls fn for each */
static void each_text(const uint8_t *b, size_t n, void (*fn)(const char *, const uint8_t *, size_t, int), int sm)
{
  uint64_t shoff;
  uint16_t shnum, shstrndx;
  if (n < 64)
    return;
  memcpy(&shoff, b + 40, 8), memcpy(&shnum, b + 60, 2), memcpy(&shstrndx, b + 62, 2);
  if (shoff > n || (n - shoff) / 64 < shnum || shstrndx >= shnum)
    return;
  uint64_t stro;
  memcpy(&stro, b + shoff + 64 * (size_t)shstrndx + 24, 8);
  for (unsigned i = 0; i < shnum; i++) {
    const uint8_t *r = b + shoff + 64 * (size_t)i;
    uint32_t name;
    uint64_t off, size;
    memcpy(&name, r, 4), memcpy(&off, r + 24, 8), memcpy(&size, r + 32, 8);
    const char *nm = (const char *)b + stro + name;
    if (!strncmp(nm, ".text.", 6) && off <= n && size <= n - off && size % 16 == 0)
      fn(nm + 6, b + off, size, sm);
  }
}

static int kernels, scheduled_clean, unmatched_kernels, wiped_hazardous;

static void schedule_one(const char *name, const uint8_t *text, size_t len, int sm)
{
  char err[256];
  const sass_isa *isa = sass_isa_get(sm, err, sizeof err);
  size_t n = len / 16;
  uint64_t(*w)[2] = malloc((n + 1) * sizeof *w), (*orig)[2] = malloc((n + 1) * sizeof *orig);
  memcpy(orig, text, len);
  for (size_t i = 0; i < n; i++) {
    w[i][0] = orig[i][0];
    w[i][1] = orig[i][1] & ~(0x1ffffull << 41);
    w[i][1] |= 0x3full << 46 | 1ull << 45; /* no scoreboards, no yield, stall 0: the assembler's worst case */
  }
  static sass_hazard hz[4096];
  wiped_hazardous += sass_check_hazards(isa, (const uint64_t(*)[2])w, n, NULL, hz, 4096) > 0;
  size_t bad = sass_schedule(isa, w, n, NULL);
  kernels++;
  if (bad) {
    unmatched_kernels++; /* a word our tables cannot name (test_sass_cubin lists them) */
    free(w), free(orig);
    return;
  }
  size_t nh = sass_check_hazards(isa, (const uint64_t(*)[2])w, n, NULL, hz, 4096);
  int same = 1;
  for (size_t i = 0; i < n; i++)
    same &= w[i][0] == orig[i][0] && (w[i][1] & ~(0x1ffffull << 41)) == (orig[i][1] & ~(0x1ffffull << 41));
  CHECK(nh == 0 && same, "sm_%d %s: %zu hazards after scheduling (first at instruction %zu, R%d, kind %d)%s", sm, name,
        nh, nh ? hz[0].at : 0, nh ? hz[0].reg : 0, nh ? (int)hz[0].kind : 0, same ? "" : "; bits outside the control field changed");
  scheduled_clean += nh == 0 && same;
  free(w), free(orig);
}

int main(void)
{
  occupancy();
  DIR *d = opendir(GASP_SASS_CORPUS "/cubins");
  CHECK(d != NULL, "corpus directory");
  for (struct dirent *e; d && (e = readdir(d));) {
    if (!strstr(e->d_name, ".cubin"))
      continue;
    char path[1024];
    snprintf(path, sizeof path, GASP_SASS_CORPUS "/cubins/%s", e->d_name);
    char *b;
    size_t n;
    if (gasp_read_file(path, 1 << 24, &b, &n))
      continue;
    each_text((const uint8_t *)b, n, schedule_one, strstr(e->d_name, ".sm89.") ? 89 : 90);
    free(b);
  }
  if (d)
    closedir(d);
  printf("%d corpus kernels scheduled: %d without a hazard, %d with a word our tables cannot name; %d of them had "
         "hazards with the control bits wiped\n", kernels, scheduled_clean, unmatched_kernels, wiped_hazardous);
  CHECK(kernels >= 100 && scheduled_clean + unmatched_kernels == kernels, "every kernel scheduled clean");
  CHECK(wiped_hazardous * 2 > kernels, "wiped control bits are flagged in most kernels");
  return DONE();
}
