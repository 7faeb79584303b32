/* Cubin writer against nvcc (issue 4): for every kernel of every corpus cubin (tools/sass-corpus/cubins), our
 * writer gets nvcc's .text and parameter sizes, and our cubin must carry the same register count (computed from
 * the code), exit offsets, parameter constant-bank layout and constant-bank size as nvcc's, and parse back as a
 * well-formed ELF. Loading it on the GPU is a device test not run here. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target/sass/sass.h"
#include "target/sass/sass_cubin.h"
#include "target/target.h"
#include "core/util.h"

typedef struct {
  const uint8_t *b;
  size_t n;
  uint64_t shoff;
  uint16_t shnum, shstrndx;
} elf;

typedef struct {
  uint32_t name, type;
  uint64_t flags, addr, off, size;
  uint32_t link, info;
} sec;

static int elf_open(elf *e, const uint8_t *b, size_t n)
{
  if (n < 64 || memcmp(b, "\x7f" "ELF", 4) || b[4] != 2)
    return -1;
  e->b = b, e->n = n;
  memcpy(&e->shoff, b + 40, 8);
  memcpy(&e->shnum, b + 60, 2);
  memcpy(&e->shstrndx, b + 62, 2);
  if (e->shoff > n || (n - e->shoff) / 64 < e->shnum || e->shstrndx >= e->shnum)
    return -1;
  return 0;
}

static int elf_sec(const elf *e, int i, sec *s)
{
  const uint8_t *r = e->b + e->shoff + 64 * (size_t)i;
  memcpy(&s->name, r, 4), memcpy(&s->type, r + 4, 4), memcpy(&s->flags, r + 8, 8), memcpy(&s->addr, r + 16, 8);
  memcpy(&s->off, r + 24, 8), memcpy(&s->size, r + 32, 8), memcpy(&s->link, r + 40, 4), memcpy(&s->info, r + 44, 4);
  if (s->type != 8 && (s->off > e->n || s->size > e->n - s->off))
    return -1;
  return 0;
}

static const char *elf_name(const elf *e, uint32_t off)
{
  sec s;
  if (elf_sec(e, e->shstrndx, &s) || off >= s.size)
    return "";
  return (const char *)e->b + s.off + off;
}

static int find_sec(const elf *e, const char *name, sec *out)
{
  for (int i = 0; i < e->shnum; i++) {
    sec s;
    if (!elf_sec(e, i, &s) && !strcmp(elf_name(e, s.name), name)) {
      *out = s;
      return i;
    }
  }
  return -1;
}

typedef struct {
  int regs, nparams, cbank_size, pc_base, pc_size, nbar;
  uint32_t psize[256];
  uint32_t exits[1024];
  int nexit;
} attrs;

/* Reads REGCOUNT for `sym` from .nv.info and the kernel's attributes from .nv.info.<k>. */
static int read_attrs(const elf *e, const char *kernel, uint32_t sym, attrs *a)
{
  memset(a, 0, sizeof *a);
  a->regs = -1;
  char name[256];
  sec s;
  if (find_sec(e, ".nv.info", &s) < 0)
    return -1;
  for (size_t k = 0; k + 4 <= s.size;) {
    const uint8_t *p = e->b + s.off + k;
    if (p[0] == 4) {
      uint16_t n;
      memcpy(&n, p + 2, 2);
      uint32_t si, v;
      memcpy(&si, p + 4, 4), memcpy(&v, p + 8, 4);
      if (p[1] == 0x2f && si == sym)
        a->regs = (int)v;
      k += 4 + n;
    } else {
      k += 4;
    }
  }
  snprintf(name, sizeof name, ".nv.info.%s", kernel);
  if (find_sec(e, name, &s) < 0)
    return -1;
  for (size_t k = 0; k + 4 <= s.size;) {
    const uint8_t *p = e->b + s.off + k;
    uint16_t n;
    memcpy(&n, p + 2, 2);
    if (p[0] != 4) {
      if (p[1] == 0x19)
        a->cbank_size = n;
      if (p[1] == 0x4c)
        a->nbar = p[2];
      k += 4;
      continue;
    }
    if (p[1] == 0x17 && n == 12) {
      uint16_t ord;
      uint32_t w;
      memcpy(&ord, p + 8, 2), memcpy(&w, p + 12, 4);
      if (ord < 256) {
        a->psize[ord] = w >> 18;
        if (ord + 1 > a->nparams)
          a->nparams = ord + 1;
      }
    } else if (p[1] == 0x1c) {
      for (int i = 0; i < n / 4 && a->nexit < 1024; i++)
        memcpy(&a->exits[a->nexit++], p + 4 + 4 * i, 4);
    } else if (p[1] == 0x0a && n == 8) {
      uint16_t b16, s16;
      memcpy(&b16, p + 8, 2), memcpy(&s16, p + 10, 2);
      a->pc_base = b16, a->pc_size = s16;
    }
    k += 4 + n;
  }
  return 0;
}

static uint8_t *slurp(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long l = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc((size_t)l);
  if (b && fread(b, 1, (size_t)l, f) != (size_t)l) {
    free(b);
    b = NULL;
  }
  fclose(f);
  *n = (size_t)l;
  return b;
}

/* Label names for the disassembler: `.L_<addr>`, and the set of targets seen (to emit label lines). */
typedef struct {
  uint64_t t[4096];
  int n;
} targets;

static const char *note_target(void *ctx, uint64_t addr)
{
  targets *ts = ctx;
  static char name[32];
  int seen = 0;
  for (int i = 0; i < ts->n; i++)
    seen |= ts->t[i] == addr;
  if (!seen && ts->n < 4096)
    ts->t[ts->n++] = addr;
  snprintf(name, sizeof name, ".L_%llx", (unsigned long long)addr);
  return name;
}

/* nvcc's code -> our disassembler (control prefixes, labels) -> the sass-sm90 target's check -> our cubin:
 * the .text must equal nvcc's. Returns 1 when it does, 0 when not, -1 when a word is not in our tables. */
static int through_target(const sass_isa *isa, const gasp_target *t, const char *kname, const uint8_t *text, size_t len,
                          const uint32_t *psize, int np)
{
  targets ts = {.n = 0};
  char line[600];
  for (size_t off = 0; off < len; off += 16) {
    uint64_t w[2];
    memcpy(w, text + off, 16);
    if (sass_disasm_word(isa, w, off, 1, note_target, &ts, line, sizeof line))
      return -1;
  }
  gasp_str src;
  gasp_str_init(&src);
  for (size_t off = 0; off < len; off += 16) {
    for (int i = 0; i < ts.n; i++)
      if (ts.t[i] == off)
        gasp_str_printf(&src, ".L_%llx:\n", (unsigned long long)off);
    uint64_t w[2];
    memcpy(w, text + off, 16);
    sass_disasm_word(isa, w, off, 1, note_target, &ts, line, sizeof line);
    gasp_str_printf(&src, "%s\n", line);
  }
  gasp_task task;
  memset(&task, 0, sizeof task);
  snprintf(task.kernel, sizeof task.kernel, "%s", kname);
  task.max_regs = 255;
  task.nparams = np < GASP_MAX_PARAMS ? np : GASP_MAX_PARAMS;
  for (int i = 0; i < task.nparams; i++) {
    task.params[i].role = psize[i] == 8 ? GASP_ROLE_IN : GASP_ROLE_SCALAR;
    task.params[i].type = psize[i] == 8 ? GASP_DT_U64 : GASP_DT_U32;
  }
  gasp_source gs = {gasp_str_take(&src), 1, 1 << 30, 1};
  gasp_binary bin;
  memset(&bin, 0, sizeof bin);
  gasp_diags d;
  gasp_diags_init(&d);
  int ok = 0;
  if (!t->check(t, &task, &gs, &bin, &d)) {
    elf oe;
    sec ot;
    char tn[300];
    snprintf(tn, sizeof tn, ".text.%s", kname);
    ok = !elf_open(&oe, bin.data, bin.len) && find_sec(&oe, tn, &ot) >= 0 && ot.size == len &&
         !memcmp((const uint8_t *)bin.data + ot.off, text, len);
  } else if (d.count) {
    printf("  %s: %s (line %d)\n", kname, d.items[0].msg, d.items[0].line);
  }
  gasp_diags_free(&d);
  free(bin.data);
  free(gs.text);
  return ok;
}

int main(void)
{
  int via_target = 0, via_target_bad = 0, via_target_untabled = 0;
  const char *dir = GASP_SASS_CORPUS "/cubins";
  DIR *d = opendir(dir);
  if (!d) {
    perror(dir);
    return 1;
  }
  int kernels = 0, fails = 0, regs_ok = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (!strstr(de->d_name, ".cubin"))
      continue;
    int sm = strstr(de->d_name, ".sm89.") ? 89 : 90;
    char err[256], path[1024];
    const sass_isa *isa = sass_isa_get(sm, err, sizeof err);
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    size_t n;
    uint8_t *b = slurp(path, &n);
    elf e;
    if (!b || elf_open(&e, b, n)) {
      printf("FAIL: cannot read %s\n", path);
      return 1;
    }
    sec symtab;
    if (find_sec(&e, ".symtab", &symtab) < 0)
      return 1;
    sec strtab;
    elf_sec(&e, (int)symtab.link, &strtab);
    for (size_t si = 0; si < symtab.size / 24; si++) {
      const uint8_t *r = b + symtab.off + 24 * si;
      uint32_t nm;
      memcpy(&nm, r, 4);
      if (r[4] != 0x12 || r[5] != 0x10)
        continue; /* kernels only: FUNC GLOBAL with st_other 0x10 */
      const char *kname = (const char *)b + strtab.off + nm;
      char tn[300];
      snprintf(tn, sizeof tn, ".text.%s", kname);
      sec text;
      if (find_sec(&e, tn, &text) < 0)
        continue;
      attrs ref;
      read_attrs(&e, kname, (uint32_t)si, &ref);
      kernels++;
      int rc = sass_regcount(isa, b + text.off, text.size);
      if (rc == ref.regs)
        regs_ok++;
      else
        printf("register count %s %s: ours %d, nvcc %d\n", de->d_name, kname, rc, ref.regs);
      sass_cubin_spec spec = {sm, kname, b + text.off, text.size, ref.psize, ref.nparams, ref.regs, 0, ref.nbar};
      uint8_t *ours;
      size_t olen;
      if (sass_cubin_write(&spec, &ours, &olen, err, sizeof err)) {
        printf("FAIL: %s %s: %s\n", de->d_name, kname, err);
        fails++;
        continue;
      }
      elf oe;
      attrs got;
      sec otext, oconst, rconst;
      char cn[300];
      snprintf(cn, sizeof cn, ".nv.constant0.%s", kname);
      if (elf_open(&oe, ours, olen) || find_sec(&oe, tn, &otext) < 0 || find_sec(&oe, cn, &oconst) < 0 ||
          find_sec(&e, cn, &rconst) < 0 || read_attrs(&oe, kname, 3, &got)) {
        printf("FAIL: %s %s: our cubin does not parse back\n", de->d_name, kname);
        fails++;
      } else if (otext.size != text.size || memcmp(ours + otext.off, b + text.off, text.size) || got.regs != ref.regs ||
                 got.nexit != ref.nexit || memcmp(got.exits, ref.exits, sizeof got.exits[0] * (size_t)got.nexit) ||
                 got.cbank_size != ref.cbank_size || got.pc_base != ref.pc_base || got.pc_size != ref.pc_size ||
                 oconst.size != rconst.size || got.nparams != ref.nparams || got.nbar != ref.nbar) {
        printf("FAIL: %s %s: differs from nvcc (exits %d/%d, cbank %d/%d, base 0x%x/0x%x, const0 %llu/%llu)\n",
               de->d_name, kname, got.nexit, ref.nexit, got.cbank_size, ref.cbank_size, got.pc_base, ref.pc_base,
               (unsigned long long)oconst.size, (unsigned long long)rconst.size);
        fails++;
      }
      free(ours);
      /* whole pipeline on params with sizes the task model can express (8-byte pointers, 4-byte scalars) */
      int simple = ref.nparams <= GASP_MAX_PARAMS;
      for (int i = 0; i < ref.nparams; i++)
        simple &= ref.psize[i] == 8 || ref.psize[i] == 4;
      if (simple) {
        int r = through_target(isa, gasp_target_find(sm == 90 ? "sass-sm90" : "sass-sm89"), kname, b + text.off, text.size,
                               ref.psize, ref.nparams);
        if (r > 0)
          via_target++;
        else if (r < 0)
          via_target_untabled++;
        else {
          via_target_bad++;
          printf("through the target: %s %s: .text differs from nvcc's\n", de->d_name, kname);
        }
      }
    }
    free(b);
  }
  closedir(d);
  printf("%d kernels: cubin layout as nvcc's in %d; register count from the code = nvcc's REGCOUNT in %d\n", kernels,
         kernels - fails, regs_ok);
  printf("disassembled by us and assembled back through the sass target into our cubin: %d kernels with nvcc's exact "
         ".text, %d differ, %d contain a word our tables cannot name\n", via_target, via_target_bad, via_target_untabled);
  /* The kernels that differ are those holding the corpus's known round-trip failures (sm_89 hidden uniform
   * register, two unlearned reuse slots, CALL.REL.NOINC with a register: tests/data/sass/known-failures.txt). */
  if (via_target_bad + via_target_untabled > 12) {
    printf("FAIL: more kernels than the known failures explain do not come back identical\n");
    fails++;
  }
  /* The register rule must hold for (nearly) all: a drop means the width rule or the tables regressed. */
  if (regs_ok < kernels * 95 / 100) {
    printf("FAIL: register count rule holds for only %d of %d kernels\n", regs_ok, kernels);
    fails++;
  }
  return fails ? 1 : 0;
}
