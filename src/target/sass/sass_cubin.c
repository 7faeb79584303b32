/* Cubin writer: ELF64 for EM_CUDA with one kernel. Section order and flags follow nvcc 13's cubins
 * (tools/sass-corpus/elf/); the legacy header (OSABI 0x33, ABI 7) needs no .note.nv sections (facts file). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sass_cubin.h"
#include "sass_internal.h"

uint32_t sass_param_base(int sm) { return sm == 89 ? 0x160 : 0x210; }

size_t sass_exit_offsets(const uint8_t *text, size_t len, uint32_t *out, size_t cap)
{
  size_t n = 0;
  for (size_t off = 0; off + 16 <= len; off += 16) {
    uint64_t lo;
    memcpy(&lo, text + off, 8);
    if ((lo & 0xfff) == 0x94d && n < cap)
      out[n++] = (uint32_t)off;
  }
  return n;
}

int sass_regcount(const sass_isa *isa, const uint8_t *text, size_t len)
{
  int hi = -1;
  for (size_t off = 0; off + 16 <= len; off += 16) {
    uint64_t w[2];
    memcpy(w, text + off, 16);
    const sass_form *f = sass_match_form(isa, w);
    if (!f)
      return -1;
    for (int k = 0; k < f->nfields; k++) {
      const sass_field *fd = &f->fields[k];
      if (fd->kind != SASS_K_R || fd->nseg != 1)
        continue;
      uint64_t v = (fd->seg[0].pos < 64 ? w[0] >> fd->seg[0].pos : w[1] >> (fd->seg[0].pos - 64)) & 0xff;
      if (fd->seg[0].pos < 64 && fd->seg[0].pos + 8 > 64)
        continue; /* no register field straddles bit 64 in the tables */
      if (v == 255)
        continue;
      int top = (int)v + (f->width[fd->idx] ? f->width[fd->idx] - 1 : 0);
      if (top > hi)
        hi = top;
    }
  }
  return hi + 3;
}

typedef struct {
  uint8_t *p;
  size_t n, cap;
  int oom;
} buf;

static size_t put(buf *b, const void *d, size_t n)
{
  if (b->n + n > b->cap) {
    size_t c = b->cap ? b->cap * 2 : 4096;
    while (c < b->n + n)
      c *= 2;
    uint8_t *q = realloc(b->p, c);
    if (!q) {
      b->oom = 1;
      return b->n;
    }
    b->p = q, b->cap = c;
  }
  size_t at = b->n;
  if (d)
    memcpy(b->p + at, d, n);
  else
    memset(b->p + at, 0, n);
  b->n += n;
  return at;
}

static void align_to(buf *b, size_t a)
{
  while (b->n % a)
    put(b, "", 1);
}

static uint32_t str_add(buf *b, const char *s) { return (uint32_t)put(b, s, strlen(s) + 1); }

/* EIATTR entry with a payload (format 0x04: u8 format, u8 id, u16 length, payload). */
static void attr(buf *b, uint8_t id, const void *payload, uint16_t n)
{
  uint8_t h[4] = {0x04, id, (uint8_t)n, (uint8_t)(n >> 8)};
  put(b, h, 4);
  put(b, payload, n);
}

/* EIATTR entry with a 16-bit value (format 0x03). */
static void attr_val(buf *b, uint8_t id, uint16_t v)
{
  uint8_t h[4] = {0x03, id, (uint8_t)v, (uint8_t)(v >> 8)};
  put(b, h, 4);
}

typedef struct {
  uint32_t name, type;
  uint64_t flags, addr, off, size;
  uint32_t link, info;
  uint64_t align, entsize;
} shdr;

int sass_cubin_write(const sass_cubin_spec *s, uint8_t **out, size_t *len, char *err, size_t errcap)
{
  if ((s->sm != 90 && s->sm != 89) || !s->kernel || !*s->kernel || s->text_len % 16 || s->regs < 0 || s->regs > 255) {
    snprintf(err, errcap, "cubin: bad arguments (sm_%d, %zu text bytes, %d registers)", s->sm, s->text_len, s->regs);
    return -1;
  }
  char name[256];
  enum { S_NULL, S_SHSTR, S_STR, S_SYM, S_INFO, S_INFOK, S_TEXT, S_CONST, S_SHARED, S_MAX };
  int nsec = s->shared_bytes ? S_MAX : S_SHARED;
  shdr sh[S_MAX];
  memset(sh, 0, sizeof sh);
  buf shstr = {0}, str = {0}, sym = {0}, info = {0}, infok = {0}, file = {0};
  put(&shstr, "", 1);
  put(&str, "", 1);
  sh[S_SHSTR].name = str_add(&shstr, ".shstrtab");
  sh[S_STR].name = str_add(&shstr, ".strtab");
  sh[S_SYM].name = str_add(&shstr, ".symtab");
  sh[S_INFO].name = str_add(&shstr, ".nv.info");
  snprintf(name, sizeof name, ".nv.info.%s", s->kernel);
  sh[S_INFOK].name = str_add(&shstr, name);
  snprintf(name, sizeof name, ".text.%s", s->kernel);
  sh[S_TEXT].name = str_add(&shstr, name);
  uint32_t text_sym_name = str_add(&str, name);
  snprintf(name, sizeof name, ".nv.constant0.%s", s->kernel);
  sh[S_CONST].name = str_add(&shstr, name);
  uint32_t const_sym_name = str_add(&str, name);
  uint32_t shared_sym_name = 0;
  if (s->shared_bytes) {
    snprintf(name, sizeof name, ".nv.shared.%s", s->kernel);
    sh[S_SHARED].name = str_add(&shstr, name);
    shared_sym_name = str_add(&str, name);
  }
  uint32_t kernel_name = str_add(&str, s->kernel);

  /* symbols: null, section symbols (local), then the kernel (FUNC GLOBAL, st_other 0x10: facts file) */
  uint8_t z[24] = {0};
  put(&sym, z, 24);
  struct { uint32_t name; uint8_t info, other; uint16_t shndx; uint64_t value, size; } __attribute__((packed)) e;
  e = (typeof(e)){text_sym_name, 0x03, 0, S_TEXT, 0, 0};
  put(&sym, &e, 24);
  e = (typeof(e)){const_sym_name, 0x03, 0, S_CONST, 0, 0};
  put(&sym, &e, 24);
  uint32_t const_sym = 2, nlocal = 3;
  if (s->shared_bytes) {
    e = (typeof(e)){shared_sym_name, 0x03, 0, S_SHARED, 0, 0};
    put(&sym, &e, 24);
    nlocal = 4;
  }
  uint32_t kernel_sym = nlocal;
  e = (typeof(e)){kernel_name, 0x12, 0x10, S_TEXT, 0, s->text_len};
  put(&sym, &e, 24);

  /* .nv.info: per-function attributes keyed by symbol */
  uint32_t pl[3];
  pl[0] = kernel_sym, pl[1] = (uint32_t)s->regs;
  attr(&info, 0x2f, pl, 8); /* REGCOUNT */
  pl[1] = 0;
  attr(&info, 0x11, pl, 8); /* FRAME_SIZE */
  attr(&info, 0x12, pl, 8); /* MIN_STACK_SIZE */

  /* .nv.info.<k>: parameters (reverse ordinal order, as nvcc writes them), limits, exits, constant bank */
  uint32_t off[256], total = 0;
  if (s->nparams > 256) {
    snprintf(err, errcap, "cubin: more than 256 parameters");
    goto fail;
  }
  for (int i = 0; i < s->nparams; i++) {
    uint32_t sz = s->param_sizes[i], a = sz >= 8 ? 8 : sz >= 4 ? 4 : sz >= 2 ? 2 : 1;
    if (!sz || sz > 4096) {
      snprintf(err, errcap, "cubin: parameter %d has size %u", i, sz);
      goto fail;
    }
    total = (total + a - 1) / a * a;
    off[i] = total;
    total += sz;
  }
  uint32_t v = 0x82; /* CUDA_API_VERSION as nvcc 13.0 writes it */
  attr(&infok, 0x37, &v, 4);
  for (int i = s->nparams - 1; i >= 0; i--) {
    uint8_t p[12] = {0};
    p[4] = (uint8_t)i, p[5] = (uint8_t)(i >> 8), p[6] = (uint8_t)off[i], p[7] = (uint8_t)(off[i] >> 8);
    uint32_t w = 0x1f000u | s->param_sizes[i] << 18;
    memcpy(p + 8, &w, 4);
    attr(&infok, 0x17, p, 12); /* KPARAM_INFO */
  }
  attr_val(&infok, 0x1b, 0xff); /* MAXREG_COUNT */
  uint32_t exits[4096];
  size_t nexit = sass_exit_offsets(s->text, s->text_len, exits, 4096);
  if (nexit)
    attr(&infok, 0x1c, exits, (uint16_t)(nexit * 4)); /* EXIT_INSTR_OFFSETS */
  if (s->nbarriers) {
    /* NUM_BARRIERS: format 0x02 (one byte), as nvcc 13 writes it (0x5 for a kernel using barriers 0-4) */
    uint8_t h[4] = {0x02, 0x4c, (uint8_t)s->nbarriers, 0};
    put(&infok, h, 4);
  }
  attr_val(&infok, 0x19, (uint16_t)total); /* CBANK_PARAM_SIZE */
  uint32_t base = sass_param_base(s->sm);
  uint8_t cb[8];
  memcpy(cb, &const_sym, 4);
  cb[4] = (uint8_t)base, cb[5] = (uint8_t)(base >> 8), cb[6] = (uint8_t)total, cb[7] = (uint8_t)(total >> 8);
  attr(&infok, 0x0a, cb, 8); /* PARAM_CBANK */

  /* file: header, then section bodies, then the section table */
  uint8_t eh[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33, 7};
  put(&file, eh, 64);
  struct { buf *b; int idx; } bodies[] = {{&shstr, S_SHSTR}, {&str, S_STR}, {&sym, S_SYM}, {&info, S_INFO}, {&infok, S_INFOK}};
  for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
    align_to(&file, bodies[i].idx == S_SYM ? 8 : 4);
    sh[bodies[i].idx].off = put(&file, bodies[i].b->p, bodies[i].b->n);
    sh[bodies[i].idx].size = bodies[i].b->n;
  }
  align_to(&file, 128);
  sh[S_TEXT].off = put(&file, s->text, s->text_len);
  sh[S_TEXT].size = s->text_len;
  align_to(&file, 4);
  sh[S_CONST].off = put(&file, NULL, base + total);
  sh[S_CONST].size = base + total;
  if (s->shared_bytes) {
    sh[S_SHARED].off = file.n;
    sh[S_SHARED].size = s->shared_bytes;
  }
  sh[S_SHSTR].type = sh[S_STR].type = 3, sh[S_SHSTR].align = sh[S_STR].align = 1;
  sh[S_SYM].type = 2, sh[S_SYM].link = S_STR, sh[S_SYM].info = nlocal, sh[S_SYM].align = 8, sh[S_SYM].entsize = 24;
  sh[S_INFO].type = 0x70000000, sh[S_INFO].link = S_SYM, sh[S_INFO].align = 4;
  sh[S_INFOK].type = 0x70000000, sh[S_INFOK].flags = 0x40, sh[S_INFOK].link = S_SYM, sh[S_INFOK].info = S_TEXT;
  sh[S_INFOK].align = 4;
  sh[S_TEXT].type = 1, sh[S_TEXT].flags = 6, sh[S_TEXT].link = S_SYM, sh[S_TEXT].info = kernel_sym;
  sh[S_TEXT].align = 128;
  sh[S_CONST].type = 1, sh[S_CONST].flags = 0x42, sh[S_CONST].info = S_TEXT, sh[S_CONST].align = 4;
  if (s->shared_bytes)
    sh[S_SHARED].type = 8, sh[S_SHARED].flags = 0x43, sh[S_SHARED].info = S_TEXT, sh[S_SHARED].align = 16;
  align_to(&file, 8);
  uint64_t shoff = file.n;
  for (int i = 0; i < nsec; i++) {
    uint8_t r[64];
    memcpy(r + 0, &sh[i].name, 4), memcpy(r + 4, &sh[i].type, 4), memcpy(r + 8, &sh[i].flags, 8);
    memcpy(r + 16, &sh[i].addr, 8), memcpy(r + 24, &sh[i].off, 8), memcpy(r + 32, &sh[i].size, 8);
    memcpy(r + 40, &sh[i].link, 4), memcpy(r + 44, &sh[i].info, 4), memcpy(r + 48, &sh[i].align, 8);
    memcpy(r + 56, &sh[i].entsize, 8);
    put(&file, r, 64);
  }
  if (file.oom || shstr.oom || str.oom || sym.oom || info.oom || infok.oom) {
    snprintf(err, errcap, "cubin: out of memory");
    goto fail;
  }
  /* header fields: ET_EXEC, EM_CUDA 190, e_flags of the legacy header (sm_90 0x005a055a verified to load;
   * sm_89 0x00590559 by the same pattern, not loadable on our H200) */
  uint8_t *h = file.p;
  uint16_t u16;
  uint32_t u32 = 1, flags = s->sm == 90 ? 0x005a055a : 0x00590559;
  u16 = 2, memcpy(h + 16, &u16, 2);
  u16 = 190, memcpy(h + 18, &u16, 2);
  memcpy(h + 20, &u32, 4);
  memcpy(h + 40, &shoff, 8);
  memcpy(h + 48, &flags, 4);
  u16 = 64, memcpy(h + 52, &u16, 2);
  u16 = 0, memcpy(h + 54, &u16, 2);
  u16 = 64, memcpy(h + 58, &u16, 2);
  u16 = (uint16_t)nsec, memcpy(h + 60, &u16, 2);
  u16 = S_SHSTR, memcpy(h + 62, &u16, 2);
  free(shstr.p), free(str.p), free(sym.p), free(info.p), free(infok.p);
  *out = file.p;
  *len = file.n;
  return 0;
fail:
  free(shstr.p), free(str.p), free(sym.p), free(info.p), free(infok.p), free(file.p);
  return -1;
}

int sass_cubin_text(const uint8_t *b, size_t n, const char *kernel, const uint8_t **text, size_t *text_len,
                    uint32_t *shared_bytes, char *err, size_t errcap)
{
  uint64_t shoff;
  uint16_t shnum, shentsize, shstrndx;
  if (n < 64 || memcmp(b, "\x7f" "ELF", 4) || b[4] != 2 || b[5] != 1) {
    snprintf(err, errcap, "not a 64-bit little-endian ELF file");
    return -1;
  }
  memcpy(&shoff, b + 40, 8), memcpy(&shentsize, b + 58, 2), memcpy(&shnum, b + 60, 2), memcpy(&shstrndx, b + 62, 2);
  if (shentsize != 64 || shoff > n || (n - shoff) / 64 < shnum || shstrndx >= shnum) {
    snprintf(err, errcap, "bad section table");
    return -1;
  }
  uint64_t stroff, strsize;
  memcpy(&stroff, b + shoff + 64 * (size_t)shstrndx + 24, 8), memcpy(&strsize, b + shoff + 64 * (size_t)shstrndx + 32, 8);
  if (stroff > n || strsize > n - stroff) {
    snprintf(err, errcap, "bad section name table");
    return -1;
  }
  char want[300], want_sh[300];
  snprintf(want, sizeof want, ".text.%s", kernel);
  snprintf(want_sh, sizeof want_sh, ".nv.shared.%s", kernel);
  *text = NULL;
  *shared_bytes = 0;
  for (unsigned i = 0; i < shnum; i++) {
    const uint8_t *r = b + shoff + 64 * (size_t)i;
    uint32_t name, type;
    uint64_t off, size;
    memcpy(&name, r, 4), memcpy(&type, r + 4, 4), memcpy(&off, r + 24, 8), memcpy(&size, r + 32, 8);
    if (name >= strsize)
      continue;
    const char *nm = (const char *)b + stroff + name;
    size_t maxlen = strsize - name;
    if (strnlen(nm, maxlen) == maxlen)
      continue;
    if (!strcmp(nm, want_sh))
      *shared_bytes = (uint32_t)size;
    if (strcmp(nm, want))
      continue;
    if (type == 8 || off > n || size > n - off || size % 16) {
      snprintf(err, errcap, "%s: bad extent", want);
      return -1;
    }
    *text = b + off;
    *text_len = size;
  }
  if (!*text) {
    snprintf(err, errcap, "no section %s", want);
    return -1;
  }
  return 0;
}
