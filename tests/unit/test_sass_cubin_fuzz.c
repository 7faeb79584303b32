/* Fuzz target of the cubin reader (sass_cubin_text, which takes nvcc's cubin apart for the SASS reference answer)
 * and of what follows it there: the register count, the exit offsets and the disassembly of the .text found.
 * Built from the SASS sources with ASan and UBSan (any report fails it). Each seed in tests/data/sass/cubin-seeds
 * is read as it is (and must yield its kernel), then mutated deterministically: byte flips, interesting values
 * written over ELF header and section header fields, truncation, growth. Whenever the reader accepts an input,
 * its .text must lie inside the input, and our writer's cubin of that .text must read back to the same bytes.
 * Usage: test_sass_cubin_fuzz [mutations per seed, default 3000]; GASP_FUZZ_SEED=N replays mutation N alone. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target/sass/sass.h"
#include "target/sass/sass_cubin.h"

static uint64_t rs;
static uint64_t rnd(void)
{
  rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
  return rs;
}

static int fails;
#define FAIL(...) (fails++ < 20 ? (printf("FAIL: " __VA_ARGS__), putchar('\n')) : 0)

/* Reads one input the way the reference answer does; returns 1 when the reader accepted it. */
static int take_apart(const uint8_t *b, size_t n, const char *what, unsigned long long seed)
{
  const uint8_t *text;
  size_t len = 0;
  uint32_t shared = 0;
  char err[256];
  if (sass_cubin_text(b, n, "vector_add", &text, &len, &shared, err, sizeof err))
    return 0;
  if (text < b || len > n || (size_t)(text - b) > n - len || len % 16) {
    FAIL("%s seed %llu: .text [%td, +%zu) outside the %zu-byte input", what, seed, text - b, len, n);
    return 1;
  }
  static const int sms[] = {90, 89};
  for (int s = 0; s < 2; s++) {
    const sass_isa *isa = sass_isa_get(sms[s], err, sizeof err);
    if (!isa) {
      FAIL("table sm_%d: %s", sms[s], err);
      return 1;
    }
    (void)sass_regcount(isa, text, len);
    for (size_t off = 0; off + 16 <= len && off < 16 * 256; off += 16) {
      uint64_t w[2];
      char line[600];
      memcpy(w, text + off, 16);
      (void)sass_disasm_word(isa, w, off, 1, NULL, NULL, line, sizeof line);
    }
  }
  uint32_t exits[64];
  if (sass_exit_offsets(text, len, exits, 64) > 64)
    FAIL("%s seed %llu: more exit offsets than room", what, seed);
  /* our writer's cubin of the same .text reads back to the same bytes */
  uint32_t psize[4] = {8, 8, 8, 4};
  sass_cubin_spec spec = {90, "vector_add", text, len, psize, 4, 8, shared > (1u << 20) ? 0 : shared, 0};
  uint8_t *out;
  size_t olen;
  if (sass_cubin_write(&spec, &out, &olen, err, sizeof err)) {
    FAIL("%s seed %llu: writer refused what the reader found: %s", what, seed, err);
    return 1;
  }
  const uint8_t *t2;
  size_t l2;
  uint32_t sh2;
  if (sass_cubin_text(out, olen, "vector_add", &t2, &l2, &sh2, err, sizeof err) || l2 != len ||
      memcmp(t2, text, len) || sh2 != spec.shared_bytes)
    FAIL("%s seed %llu: our own cubin does not read back (%s)", what, seed, err);
  free(out);
  return 1;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
  for (int i = 0; i < n; i++)
    p[i] = (uint8_t)(v >> 8 * i);
}

/* One deterministic mutation of seed bytes a[0..n) into *out (malloc'd); returns its length. */
static size_t mutate(const uint8_t *a, size_t n, uint64_t seed, uint8_t **out)
{
  rs = seed * 0x9e3779b97f4a7c15ull | 1;
  size_t cap = n + 4096, m = n;
  uint8_t *b = malloc(cap);
  memcpy(b, a, n);
  uint64_t shoff;
  uint16_t shnum;
  memcpy(&shoff, a + 40, 8), memcpy(&shnum, a + 60, 2);
  static const uint64_t interesting[] = {0, 1, 0x10, 0x40, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff, 0xffffffff,
                                         0x8000000000000000ull, ~0ull};
  int edits = 1 + (int)(rnd() % 6);
  for (int e = 0; e < edits && m; e++) {
    switch (rnd() % 6) {
    case 0: b[rnd() % m] ^= (uint8_t)(1u << rnd() % 8); break;
    case 1: b[rnd() % m] = (uint8_t)rnd(); break;
    case 2: { /* an ELF header field: shoff (40), shentsize/shnum/shstrndx (58-63) */
      static const int at[] = {40, 58, 60, 62, 4, 5};
      static const int w[] = {8, 2, 2, 2, 1, 1};
      int k = (int)(rnd() % 6);
      if ((size_t)at[k] + (size_t)w[k] <= m)
        put_le(b + at[k], interesting[rnd() % 12] + (rnd() % 3) - 1, w[k]);
      break;
    }
    case 3: { /* a section header field: name (0), type (4), offset (24), size (32) */
      if (!shnum || shoff > n)
        break;
      static const int at[] = {0, 4, 24, 32};
      static const int w[] = {4, 4, 8, 8};
      int k = (int)(rnd() % 4);
      size_t p = (size_t)shoff + 64 * (rnd() % shnum) + (size_t)at[k];
      if (p + (size_t)w[k] <= m)
        put_le(b + p, rnd() & 1 ? interesting[rnd() % 12] : rnd() % (2 * n + 1), w[k]);
      break;
    }
    case 4: m = rnd() % m; break; /* truncation */
    default: { /* growth: random bytes appended */
      size_t k = rnd() % 512;
      for (size_t i = 0; i < k && m < cap; i++)
        b[m++] = (uint8_t)rnd();
      break;
    }
    }
  }
  *out = b;
  return m;
}

int main(int argc, char **argv)
{
  long per_seed = argc > 1 ? atol(argv[1]) : 3000;
  const char *one = getenv("GASP_FUZZ_SEED");
  DIR *d = opendir(GASP_CUBIN_SEEDS);
  if (!d) {
    printf("FAIL: no seed directory %s\n", GASP_CUBIN_SEEDS);
    return 1;
  }
  struct dirent *de;
  int nseeds = 0;
  long accepted = 0, tried = 0;
  while ((de = readdir(d))) {
    size_t nl = strlen(de->d_name);
    if (nl < 6 || strcmp(de->d_name + nl - 6, ".cubin"))
      continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", GASP_CUBIN_SEEDS, de->d_name);
    FILE *f = fopen(path, "rb");
    uint8_t *a = malloc(1 << 20);
    size_t n = f ? fread(a, 1, 1 << 20, f) : 0;
    if (f)
      fclose(f);
    nseeds++;
    /* the seed itself: the reader must find vector_add's .text */
    uint8_t *exact = malloc(n ? n : 1);
    memcpy(exact, a, n);
    if (n < 64 || !take_apart(exact, n, de->d_name, 0))
      FAIL("%s: the reader refuses the seed itself", de->d_name);
    free(exact);
    uint64_t first = one ? strtoull(one, NULL, 10) : 1, last = one ? first : (uint64_t)per_seed;
    for (uint64_t s = first; n >= 64 && s <= last; s++) {
      uint8_t *b;
      size_t m = mutate(a, n, s, &b);
      /* an exact-size copy, so that ASan sees any read past the end */
      uint8_t *c = malloc(m ? m : 1);
      memcpy(c, b, m);
      free(b);
      accepted += take_apart(c, m, de->d_name, (unsigned long long)s);
      tried++;
      free(c);
    }
    free(a);
  }
  closedir(d);
  if (nseeds < 3)
    FAIL("only %d seeds in %s", nseeds, GASP_CUBIN_SEEDS);
  printf("%d seeds, %ld mutations: %ld accepted by the reader, the rest refused; %d failures\n", nseeds, tried,
         accepted, fails);
  return fails ? 1 : 0;
}
