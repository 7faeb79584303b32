/* Decoding monitors: rules a GBNF grammar cannot state because they depend on what the answer wrote before,
 * checked on each token the grammar allows (the idea of monitor-guided decoding, Agrawal et al. 2023: a static
 * analysis run on the partial program steers the sampler). For a PTX snippet (straight-line code, no branches,
 * so def-before-use is exact):
 *  - a register read must have been written by an earlier line: a temporary (%f3) or an output (%d); the
 *    task's inputs (%x) are written by the scaffold;
 *  - the answer may close its fence only once every input has been read and every output written.
 * The model's own s19 answers broke these in half of its wrong PTX L1 samples (2026-12-07: clamp_f32 never read
 * %hi, lerp_f32 never read %t, cvt_f32_s32 read %fd1 unwritten). A rule is checked on each token's text, so a
 * register name split over tokens is checked at every prefix: "%f2" is refused at "2" when no %f2.. is written. */
#ifndef GASP_MONITOR_H
#define GASP_MONITOR_H

#include <stddef.h>

#include "../target/target.h"

typedef struct gasp_monitor gasp_monitor; /* one task's rules (immutable, shared by its sequences) */
typedef struct gasp_mstate gasp_mstate;   /* one sequence's position (small, copied freely) */

/* The monitor for a task's answers on target t, or NULL when the target has none for this task (only PTX
 * snippet tasks have one). Caller frees with gasp_monitor_free. */
gasp_monitor *gasp_monitor_new(const gasp_target *t, const gasp_task *task);
void gasp_monitor_free(gasp_monitor *m);
/* Whether target t has a monitor for any task (its records say "monitor" when decoding used it). */
int gasp_monitor_target_has(const gasp_target *t);

/* A sequence at the start of its answer (before the opening fence). Caller frees with gasp_mstate_free. */
gasp_mstate *gasp_mstate_new(const gasp_monitor *m);
void gasp_mstate_free(gasp_mstate *s);

/* Whether text appended to the sequence breaks no rule (1) or breaks one (0; *why, when not NULL, a static
 * string saying which). Does not change s. */
int gasp_mstate_allows(const gasp_mstate *s, const char *text, size_t len, const char **why);
/* text appended to the sequence (the token drawn; the rules are not checked again). */
void gasp_mstate_accept(gasp_mstate *s, const char *text, size_t len);

/* A whole answer (fence included) fed byte by byte: the offset of the first byte a rule refuses, or -1 when
 * none is (*why as above). */
long gasp_monitor_check(const gasp_monitor *m, const char *answer, size_t len, const char **why);

#endif
