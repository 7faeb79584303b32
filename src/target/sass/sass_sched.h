/* Control codes for SASS written without them (issue 4): stalls, scoreboards, waits and yields assigned in
 * program order, without moving instructions. */
#ifndef GASP_SASS_SCHED_H
#define GASP_SASS_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "sass.h"

/* Rewrites the control bits (105-121) of n assembled words in place; reuse flags stay. is_target[i] (may be NULL)
 * marks branch targets. The result has no hazard by sass_check_hazards' rules (tests/integration/sass_cli.sh
 * and tests/unit/test_sass_sched.c check it). Returns the number of words no form matched (they get no
 * scoreboards and drain everything before them). Not reentrant (static state). */
size_t sass_schedule(const sass_isa *isa, uint64_t (*words)[2], size_t n, const uint8_t *is_target);

/* Writes `[B------:R-:W-:Y:S04] `-style prefix text for word w into buf (at least 24 bytes). */
void sass_ctl_prefix(const uint64_t w[2], char *buf, size_t cap);

#endif
