/* Input generators: splitmix64 streams, one per (seed, task, trial, param). */
#include "gen.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void gasp_rng_seed(gasp_rng *r, uint64_t seed) { r->s = seed ^ 0x9e3779b97f4a7c15ULL; }

uint64_t gasp_rng_next(gasp_rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double gasp_rng_unit(gasp_rng *r) { return (double)(gasp_rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* Box-Muller, both values used: inputs of millions of elements are generated per trial, and the
 * transcendental calls dominated verification time on the H200 (measured: 7.7 ms per vector_add
 * candidate before, most of it here). */
static double rng_normal(gasp_rng *r) {
  static __thread double spare;
  static __thread int have;
  static __thread uint64_t owner;
  if (have && owner == r->s) {
    have = 0;
    return spare;
  }
  double u = gasp_rng_unit(r), v = gasp_rng_unit(r);
  if (u < 1e-300) u = 1e-300;
  double m = sqrt(-2.0 * log(u));
  spare = m * sin(2.0 * M_PI * v);
  have = 1;
  owner = r->s;
  return m * cos(2.0 * M_PI * v);
}

typedef enum { G_UNIFORM, G_NORMAL, G_LOGNORMAL, G_HEAVY, G_SPECIAL, G_NONFINITE, G_INT, G_IOTA, G_CONST } gkind;

typedef struct {
  gkind k;
  double a, b;
  int nargs;
} gspec;

static int parse(const char *spec, gspec *g, char *err, int errcap) {
  static const struct { const char *name; gkind k; int args; } tab[] = {
      {"uniform", G_UNIFORM, 2}, {"normal", G_NORMAL, 2}, {"lognormal", G_LOGNORMAL, 1},
      {"heavy", G_HEAVY, 0},     {"special", G_SPECIAL, 0}, {"nonfinite", G_NONFINITE, 0},
      {"int", G_INT, 2},         {"iota", G_IOTA, 0},       {"const", G_CONST, 1},
  };
  char name[32] = {0};
  size_t n = strcspn(spec, "(");
  if (n >= sizeof name) n = sizeof name - 1;
  memcpy(name, spec, n);
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
    if (strcmp(tab[i].name, name)) continue;
    g->k = tab[i].k;
    g->nargs = 0;
    g->a = g->b = 0;
    if (spec[n] == '(') {
      int got = sscanf(spec + n, "(%lf , %lf)", &g->a, &g->b);
      if (got < 1) got = 0;
      g->nargs = got;
      if (!strchr(spec + n, ')')) {
        snprintf(err, (size_t)errcap, "'%s': missing ')' (inside a YAML [list], quote a generator that has a comma: \"uniform(-1,1)\")", spec);
        return -1;
      }
    } else if (spec[n]) {
      snprintf(err, (size_t)errcap, "'%s': unexpected text", spec);
      return -1;
    }
    if (g->nargs != tab[i].args && !(g->nargs == 0 && (g->k == G_UNIFORM || g->k == G_NORMAL || g->k == G_LOGNORMAL))) {
      snprintf(err, (size_t)errcap, "'%s' takes %d argument(s)", tab[i].name, tab[i].args);
      return -1;
    }
    if (g->nargs == 0) {
      if (g->k == G_UNIFORM) { g->a = -1; g->b = 1; }
      if (g->k == G_NORMAL) { g->a = 0; g->b = 1; }
      if (g->k == G_LOGNORMAL) g->a = 1;
    }
    return 0;
  }
  snprintf(err, (size_t)errcap, "unknown generator '%s'", spec);
  return -1;
}

int gasp_gen_validate(const char *spec, gasp_dtype t, char *err, int errcap) {
  gspec g;
  if (parse(spec, &g, err, errcap)) return -1;
  if (!gasp_dtype_is_float(t) && (g.k == G_HEAVY || g.k == G_SPECIAL || g.k == G_NONFINITE || g.k == G_NORMAL ||
                                  g.k == G_LOGNORMAL)) {
    snprintf(err, (size_t)errcap, "'%s' makes floats; integer params use int(lo,hi), iota or const(v)", spec);
    return -1;
  }
  return 0;
}

static double special_value(gasp_rng *r, int nonfinite) {
  static const double vals[] = {0.0, -0.0, 1.0, -1.0, 1e-40, -1e-40, FLT_MIN, -FLT_MIN, 1e30, -1e30,
                                0.5, 3.0, 65504.0, 1e-20, 16777217.0};
  uint64_t x = gasp_rng_next(r);
  if (nonfinite && (x & 15) == 0) {
    int w = (int)((x >> 4) % 3);
    return w == 0 ? INFINITY : w == 1 ? -INFINITY : NAN;
  }
  /* half the elements special, half ordinary, so partial computation cannot hide behind zeros */
  if (x & 0x100) return vals[(x >> 12) % (sizeof vals / sizeof vals[0])];
  return gasp_rng_unit(r) * 4.0 - 2.0;
}

static double draw(const gspec *g, gasp_rng *r, int64_t i) {
  switch (g->k) {
  case G_UNIFORM: return g->a + (g->b - g->a) * gasp_rng_unit(r);
  case G_NORMAL: return g->a + g->b * rng_normal(r);
  case G_LOGNORMAL: return exp(g->a * rng_normal(r));
  case G_HEAVY: {
    /* log-uniform magnitude over 2^-20..2^20 (about 1e-6..1e6) from one 64-bit draw: a binade, a
     * mantissa and a sign, no transcendental call */
    uint64_t x = gasp_rng_next(r);
    int e = (int)(x % 41) - 20;
    double m = ldexp(1.0 + (double)((x >> 8) & 0xFFFFFFFFFFFull) / 17592186044416.0, e);
    return (x >> 63) ? -m : m;
  }
  case G_SPECIAL: return special_value(r, 0);
  case G_NONFINITE: return special_value(r, 1);
  case G_IOTA: return (double)i;
  case G_CONST: return g->a;
  case G_INT: break;
  }
  return 0;
}

int gasp_gen_fill(const char *spec, gasp_dtype t, void *dst, int64_t count, uint64_t seed) {
  gspec g;
  char err[128];
  if (parse(spec, &g, err, sizeof err)) return -1;
  gasp_rng r;
  gasp_rng_seed(&r, seed);
  for (int64_t i = 0; i < count; i++) {
    if (g.k == G_INT) {
      /* inclusive range; computed in 128-bit-safe steps so int(-2^31, 2^31-1) is exact */
      int64_t lo = (int64_t)g.a, hi = (int64_t)g.b;
      uint64_t span = (uint64_t)(hi - lo) + 1;
      int64_t v = lo + (int64_t)(span ? gasp_rng_next(&r) % span : gasp_rng_next(&r));
      switch (t) {
      case GASP_DT_S32: ((int32_t *)dst)[i] = (int32_t)v; break;
      case GASP_DT_U32: ((uint32_t *)dst)[i] = (uint32_t)v; break;
      case GASP_DT_S64: ((int64_t *)dst)[i] = v; break;
      case GASP_DT_U64: ((uint64_t *)dst)[i] = (uint64_t)v; break;
      case GASP_DT_F32: ((float *)dst)[i] = (float)v; break;
      case GASP_DT_F64: ((double *)dst)[i] = (double)v; break;
      default: break;
      }
      continue;
    }
    double v = draw(&g, &r, i);
    switch (t) {
    case GASP_DT_F32: ((float *)dst)[i] = (float)v; break;
    case GASP_DT_F64: ((double *)dst)[i] = v; break;
    case GASP_DT_S32: ((int32_t *)dst)[i] = (int32_t)v; break;
    case GASP_DT_U32: ((uint32_t *)dst)[i] = (uint32_t)v; break;
    case GASP_DT_S64: ((int64_t *)dst)[i] = (int64_t)v; break;
    case GASP_DT_U64: ((uint64_t *)dst)[i] = (uint64_t)v; break;
    default: break;
    }
  }
  return 0;
}
