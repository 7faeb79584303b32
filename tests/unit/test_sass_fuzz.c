/* Fuzz replay for the SASS parser and codec: deterministic mutations of corpus lines (byte flips, inserted
 * syntax characters, truncations) must be assembled or refused without crashing, and random 128-bit words must
 * be disassembled or refused; a word we print must assemble back to a word that prints the same text (the
 * printer never emits what the parser reads differently). A crash names the seed (GASP_FUZZ_SEED=N replays it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "target/sass/sass.h"
#include "task/gen.h"

static int fixed_label(void *ctx, const char *name, size_t len, uint64_t *addr)
{
  (void)ctx, (void)name, (void)len;
  *addr = 0x100;
  return 1;
}

int main(void)
{
  char err[512];
  const sass_isa *isa = sass_isa_get(90, err, sizeof err);
  FILE *f = fopen(GASP_SASS_CORPUS "/dumps/control.sm90.O3.sass", "r");
  if (!isa || !f) {
    printf("FAIL: setup\n");
    return 1;
  }
  char *lines[4096];
  int n = 0;
  char ln[1024];
  while (fgets(ln, sizeof ln, f) && n < 4096) {
    char *a = strstr(ln, "*/");
    char *h = a ? strstr(a, "/* 0x") : NULL;
    if (!a || !h || ln[0] == '.')
      continue;
    *h = 0;
    lines[n++] = gasp_strdup(a + 2);
  }
  fclose(f);
  const char *one = getenv("GASP_FUZZ_SEED");
  uint64_t first = one ? strtoull(one, NULL, 10) : 1, last = one ? first : 20000;
  static const char syms[] = "%<>[]{}();,.@!$:`|~-+ \t0123456789xRUPZT";
  sass_asm_opts o = {fixed_label, NULL, 1};
  int accepted = 0, printed = 0, fails = 0, refused_range = 0;
  for (uint64_t seed = first; seed <= last; seed++) {
    gasp_rng r;
    gasp_rng_seed(&r, seed);
    char b[1100];
    snprintf(b, sizeof b, "%s", lines[gasp_rng_next(&r) % (uint64_t)n]);
    size_t len = strlen(b);
    int edits = 1 + (int)(gasp_rng_next(&r) % 4);
    for (int e = 0; e < edits && len; e++) {
      size_t at = gasp_rng_next(&r) % len;
      switch (gasp_rng_next(&r) % 3) {
      case 0: b[at] = (char)(gasp_rng_next(&r) & 0xff); break;
      case 1:
        if (len + 2 < sizeof b) {
          memmove(b + at + 1, b + at, len - at + 1);
          b[at] = syms[gasp_rng_next(&r) % (sizeof syms - 1)];
          len++;
        }
        break;
      default: b[at] = 0, len = at; break;
      }
    }
    uint64_t w[2];
    int col;
    accepted += !sass_asm_line(isa, b, 0x40, &o, w, err, sizeof err, &col);
    /* random words, biased towards real opcodes so that forms match */
    uint64_t x[2] = {gasp_rng_next(&r), gasp_rng_next(&r)};
    uint64_t y[2];
    if (gasp_rng_next(&r) & 1) {
      int k = (int)(gasp_rng_next(&r) % (uint64_t)n);
      if (!sass_asm_line(isa, lines[k], 0x40, &o, y, err, sizeof err, &col)) {
        int bit = (int)(gasp_rng_next(&r) % 105);
        y[bit >> 6] ^= 1ull << (bit & 63);
        x[0] = y[0], x[1] = y[1];
      }
    }
    x[1] &= ~(3ull << 62); /* bits 126-127 are zero in every sample */
    char t1[600], t2[600];
    if (sass_disasm_word(isa, x, 0x40, 1, NULL, NULL, t1, sizeof t1))
      continue;
    printed++;
    /* labels print as .L_<addr>; our fixed resolver maps every label to 0x100, so skip branch words */
    if (strstr(t1, "`("))
      continue;
    uint64_t z[2];
    if (sass_asm_line(isa, t1, 0x40, &o, z, err, sizeof err, &col)) {
      /* a word the hardware would not accept either (odd register of a 64-bit operand) may be refused */
      if (strstr(err, "multiple of")) {
        refused_range++;
        continue;
      }
      if (fails++ < 10)
        printf("seed %llu: printed '%s', which does not assemble: %s\n", (unsigned long long)seed, t1, err);
      continue;
    }
    if (sass_disasm_word(isa, z, 0x40, 1, NULL, NULL, t2, sizeof t2) || strcmp(t1, t2)) {
      if (fails++ < 10)
        printf("seed %llu: printed '%s', which assembles and prints as '%s'\n", (unsigned long long)seed, t1, t2);
    }
  }
  printf("%llu mutated lines: %d assembled, the rest refused; %d words printed, %d refused back for register "
         "alignment; %d print/parse mismatches\n", (unsigned long long)(last - first + 1), accepted, printed, refused_range, fails);
  for (int i = 0; i < n; i++)
    free(lines[i]);
  return fails ? 1 : 0;
}
