/* Input generators for task buffers. Each trial draws fresh values from a seed, so a kernel that
 * happens to match on one input (all zeros, a uniform range) does not pass by luck.
 *   uniform(lo,hi)  normal(mu,sigma)  lognormal(sigma)  heavy  special  nonfinite
 *   int(lo,hi)      iota  const(v)
 * `heavy` is log-uniform magnitude over 1e-6..1e6 with random sign; `special` mixes 0, -0, denormals,
 * FLT_MIN, +-1, large magnitudes and uniform values; `nonfinite` adds inf and NaN to that. */
#ifndef GASP_GEN_H
#define GASP_GEN_H

#include <stdint.h>

#include "task.h"

typedef struct { uint64_t s; } gasp_rng;
void gasp_rng_seed(gasp_rng *r, uint64_t seed);
uint64_t gasp_rng_next(gasp_rng *r);
double gasp_rng_unit(gasp_rng *r); /* [0,1) */

/* Returns 0 when spec names a generator usable for type t; else -1 and a message. */
int gasp_gen_validate(const char *spec, gasp_dtype t, char *err, int errcap);
/* Fills count elements of type t. Returns 0, or -1 for a bad spec. */
int gasp_gen_fill(const char *spec, gasp_dtype t, void *dst, int64_t count, uint64_t seed);

#endif
