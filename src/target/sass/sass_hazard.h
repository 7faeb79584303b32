/* Scoreboard hazard checker over assembled SASS words (see sass_hazard.c for the rules and their limits). */
#ifndef GASP_SASS_HAZARD_H
#define GASP_SASS_HAZARD_H

#include <stddef.h>
#include <stdint.h>

#include "sass.h"

/* NOSB: the result of a variable-latency instruction that set no write scoreboard is read */
typedef enum { SASS_HAZ_RAW, SASS_HAZ_WAW, SASS_HAZ_WAR, SASS_HAZ_NOSB } sass_hazard_kind;

typedef struct {
  size_t at;        /* instruction index of the offending access */
  size_t producer;  /* instruction that set the scoreboard */
  sass_hazard_kind kind;
  int reg;          /* register number */
  int sb;           /* scoreboard 0-5, -1 for NOSB */
} sass_hazard;

/* Checks n words; is_target[i] (may be NULL) marks branch targets. Fills at most cap hazards; returns the count.
 * Not reentrant (uses static state). */
size_t sass_check_hazards(const sass_isa *isa, const uint64_t (*words)[2], size_t n, const uint8_t *is_target,
                          sass_hazard *out, size_t cap);

#endif
