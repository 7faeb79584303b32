/* Fuzz replay for the text handling that sees untrusted answers before any tool does: extraction, the
 * snippet scaffold and the PTX lint. Deterministic mutations of the corpus in tests/data (byte flips,
 * insertions of syntax characters, truncations, duplicated lines); a crash names the seed to replay
 * (GASP_FUZZ_SEED=N runs that case alone). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/util.h"
#include "exec/gl.h"
#include "extract/extract.h"
#include "target/ptx/ptx_check.h"
#include "target/ptx/ptx_parse.h"
#include "task/gen.h"

static const char *const corpus[] = {"vector_add_good.ptx", "answer_bad.md", "answer_prose.txt", "many_registers.ptx",
                                     "arb/add_mul3.fp", "arb/transform.vp"};

static char *mutate(const char *src, size_t len, uint64_t seed, size_t *out_len) {
  gasp_rng r;
  gasp_rng_seed(&r, seed);
  size_t cap = len * 2 + 64;
  char *b = malloc(cap + 1);
  memcpy(b, src, len);
  size_t n = len;
  int edits = 1 + (int)(gasp_rng_next(&r) % 8);
  static const char syms[] = "%<>[]{}();,.@!$:/*\"\n\t0123456789+-";
  for (int e = 0; e < edits; e++) {
    size_t at = n ? gasp_rng_next(&r) % n : 0;
    switch (gasp_rng_next(&r) % 5) {
    case 0: if (n) b[at] = (char)(gasp_rng_next(&r) & 0xff); break;
    case 1:
      if (n + 1 < cap) {
        memmove(b + at + 1, b + at, n - at);
        b[at] = syms[gasp_rng_next(&r) % (sizeof syms - 1)];
        n++;
      }
      break;
    case 2: n = at; break;
    case 3: {
      size_t k = gasp_rng_next(&r) % 64;
      if (at + k <= n && n + k < cap) {
        memmove(b + at + k, b + at, n - at);
        memmove(b + at, b + (at >= k ? at - k : 0), k);
        n += k;
      }
      break;
    }
    default: if (n) b[at] = '%'; break;
    }
  }
  b[n] = 0;
  *out_len = n;
  return b;
}

int main(void) {
  const gasp_target *t = gasp_target_find("ptx-sm90");
  gasp_diags d;
  gasp_diags_init(&d);
  gasp_taskset ts;
  gasp_taskset_load(gasp_tasks_dir(), &ts, &d);
  const gasp_task *snippet = gasp_taskset_find(&ts, "dot3");
  const char *only = getenv("GASP_FUZZ_SEED");
  const gasp_target *r300 = gasp_target_find("r300");
  char why[256];
  int have_gl = gasp_gl_shared(why, sizeof why) != NULL;
  if (!have_gl) printf("note: no GL context (%s): ARB cases stop before Mesa's parser\n", why);
  int cases = 0, gl_checked = 0;
  for (size_t c = 0; c < sizeof corpus / sizeof corpus[0]; c++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/../tests/data/%s", gasp_tasks_dir(), corpus[c]);
    char *src;
    size_t len;
    if (gasp_read_file(path, 1 << 20, &src, &len)) {
      CHECK(0, "corpus file %s", path);
      continue;
    }
    for (uint64_t seed = 1; seed <= 600; seed++) {
      uint64_t s = seed * 1000 + c;
      if (only && strtoull(only, NULL, 10) != s) continue;
      size_t n;
      char *m = mutate(src, len, s, &n);
      gasp_diags_clear(&d);
      gasp_extracted ex;
      /* the r300 side: extraction, then Mesa's parser and our R300 counts (when a GL context exists) */
      if (gasp_extract(m, n, r300, &ex, &d) == 0) {
        gasp_source so;
        if (r300->prepare(r300, &ts.items[0], ex.code, ex.first_line, &so, &d) == 0) {
          gasp_binary b;
          if (have_gl) {
            gl_checked++;
            if (r300->check(r300, NULL, &so, &b, &d) == 0) gasp_binary_free(&b);
          }
          gasp_source_free(&so);
        }
        gasp_extracted_free(&ex);
      }
      gasp_diags_clear(&d);
      if (gasp_extract(m, n, t, &ex, &d) == 0) {
        /* our parser: bounded errors, each placed inside the answer */
        gasp_diags pd;
        gasp_diags_init(&pd);
        int errors = gasp_ptx_parse(ex.code, ex.first_line, &pd);
        int placed = 1;
        for (size_t i = 0; i < pd.count; i++) placed &= pd.items[i].line >= ex.first_line && pd.items[i].col >= 1;
        CHECK(errors >= 0 && errors <= 100 && placed, "parser on case %llu: %d errors, placed %d",
              (unsigned long long)s, errors, placed);
        gasp_diags_free(&pd);
        for (int k = 0; k < 2; k++) {
          gasp_source so;
          const gasp_task *task = k ? snippet : &ts.items[0];
          if (task && t->prepare(t, task, ex.code, ex.first_line, &so, &d) == 0) {
            gasp_ptx_lint(&so, &d);
            gasp_source_free(&so);
          }
        }
        gasp_extracted_free(&ex);
      }
      free(m);
      cases++;
    }
    free(src);
  }
  CHECK(cases > 0, "ran %d cases", cases);
  printf("%d fuzz cases without a crash, %d of them through Mesa's ARB parser\n", cases, gl_checked);
  gasp_taskset_free(&ts);
  gasp_diags_free(&d);
  return DONE();
}
