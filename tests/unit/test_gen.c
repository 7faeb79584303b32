/* Input generators: deterministic per seed, different across seeds, in range, with the specials. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "task/gen.h"

int main(void) {
  float a[4096], b[4096];
  CHECK(gasp_gen_fill("uniform(-1,1)", GASP_DT_F32, a, 4096, 7) == 0, "uniform");
  gasp_gen_fill("uniform(-1,1)", GASP_DT_F32, b, 4096, 7);
  CHECK(!memcmp(a, b, sizeof a), "same seed, same values");
  gasp_gen_fill("uniform(-1,1)", GASP_DT_F32, b, 4096, 8);
  CHECK(memcmp(a, b, sizeof a), "other seed, other values");
  int in_range = 1, distinct = 0;
  for (int i = 0; i < 4096; i++) {
    in_range &= a[i] >= -1 && a[i] <= 1;
    distinct += i && a[i] != a[i - 1];
  }
  CHECK(in_range, "range");
  CHECK(distinct > 4000, "not constant: %d", distinct);
  gasp_gen_fill("heavy", GASP_DT_F32, a, 4096, 1);
  float mn = INFINITY, mx = 0;
  for (int i = 0; i < 4096; i++) {
    mn = fminf(mn, fabsf(a[i]));
    mx = fmaxf(mx, fabsf(a[i]));
  }
  CHECK(mn < 1e-4f && mx > 1e4f, "heavy spans magnitudes: %g..%g", mn, mx);
  gasp_gen_fill("special", GASP_DT_F32, a, 4096, 1);
  int negzero = 0, denorm = 0, big = 0;
  for (int i = 0; i < 4096; i++) {
    negzero += a[i] == 0 && signbit(a[i]);
    denorm += fpclassify(a[i]) == FP_SUBNORMAL;
    big += fabsf(a[i]) >= 1e30f;
  }
  CHECK(negzero && denorm && big, "special has -0 (%d), denormals (%d), large (%d)", negzero, denorm, big);
  int32_t iv[1000];
  gasp_gen_fill("int(-3,3)", GASP_DT_S32, iv, 1000, 3);
  int ok = 1, seen_lo = 0, seen_hi = 0;
  for (int i = 0; i < 1000; i++) {
    ok &= iv[i] >= -3 && iv[i] <= 3;
    seen_lo |= iv[i] == -3;
    seen_hi |= iv[i] == 3;
  }
  CHECK(ok && seen_lo && seen_hi, "int range inclusive");
  gasp_gen_fill("int(-2147483648,2147483647)", GASP_DT_S32, iv, 1000, 3);
  int neg = 0;
  for (int i = 0; i < 1000; i++) neg += iv[i] < 0;
  CHECK(neg > 300 && neg < 700, "full int range: %d negative", neg);
  char err[160];
  CHECK(gasp_gen_validate("heavy", GASP_DT_S32, err, sizeof err) == -1, "heavy for ints refused");
  CHECK(gasp_gen_validate("uniform(-1", GASP_DT_F32, err, sizeof err) == -1 && strstr(err, "quote"), "hint: %s", err);
  CHECK(gasp_gen_validate("bogus", GASP_DT_F32, err, sizeof err) == -1, "unknown");
  CHECK(gasp_gen_validate("const(2.5)", GASP_DT_F32, err, sizeof err) == 0, "const");
  return DONE();
}
