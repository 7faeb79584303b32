/* Scoreboard hazard checker over assembled SASS words (see sass_hazard.c for the rules and their limits). */
#ifndef GASP_SASS_HAZARD_H
#define GASP_SASS_HAZARD_H

#include <stddef.h>
#include <stdint.h>

#include "sass.h"

/* NOSB: the result of a variable-latency instruction that set no write scoreboard is read.
 * STALL: the result of a fixed-latency instruction is read before the stall counts since it cover its latency
 * (sass_arch.h: sass_latency_checked).
 * SBSET: an instruction waits on a scoreboard its predecessor set, one cycle after it (need 2, got the stall).
 * YIELD: a stall of 12 or more without the yield bit (need 12, got the stall; at is the instruction itself).
 * Both measured on the H200 (sass_hazard.c). */
typedef enum { SASS_HAZ_RAW, SASS_HAZ_WAW, SASS_HAZ_WAR, SASS_HAZ_NOSB, SASS_HAZ_STALL, SASS_HAZ_SBSET, SASS_HAZ_YIELD } sass_hazard_kind;

typedef struct {
  size_t at;        /* instruction index of the offending access */
  size_t producer;  /* instruction that set the scoreboard or wrote the register */
  sass_hazard_kind kind;
  int reg;          /* register in sass_internal.h's space: R n is n, P n is SASS_REG_P + n */
  int sb;           /* scoreboard 0-5, -1 for NOSB and STALL */
  int need, got;    /* STALL: cycles the producer needs, cycles the stall counts give */
} sass_hazard;

/* The register's name in diagnostics ("R5", "UR4", "P0", "UP1"); returns buf. */
const char *sass_reg_name(int reg, char *buf, size_t cap);

/* Checks n words; is_target[i] (may be NULL) marks branch targets. Fills at most cap hazards (scoreboard
 * hazards first, then STALL ones); returns the count. Not reentrant (uses static state). */
size_t sass_check_hazards(const sass_isa *isa, const uint64_t (*words)[2], size_t n, const uint8_t *is_target,
                          sass_hazard *out, size_t cap);

#endif
