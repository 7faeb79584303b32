/* The scheduler for SASS without control codes (sass_sched.h). One pass in program order:
 * - a fixed-latency result (sass_arch.c: sass_latency_sched) is read or overwritten only once the stall counts
 *   since its producer cover the latency: the stall of the instruction before the reader is raised;
 * - a variable-latency instruction (sass_is_variable_latency) gets a write scoreboard (round robin over SB0-SB5;
 *   sharing one is safe: a wait waits for all its producers); whoever reads or overwrites its results waits on it;
 * - memory instructions and other late readers (sass_reads_late) get a read scoreboard that overwriters of their
 *   source registers wait on;
 * - an instruction that sets a scoreboard the next one waits on stalls at least 2 cycles (ptxas never used less:
 *   65 of 65 such pairs at O3 in the sm_90 corpus had stall 2 or more);
 * - at a branch target and before a branch, everything in flight is drained (all scoreboards waited on, all
 *   fixed latencies covered), so that no state crosses a block boundary: slower than ptxas, never wrong;
 * - yield (printed Y, bit 109 clear) on non-branch instructions that stall 4 cycles or more, as ptxas mostly
 *   does (1,564 of 1,933 instructions with stall >= 3 in the sm_90 O3 corpus carried Y).
 * Instructions keep their order and text; only bits 105-121 change. */
#include <stdio.h>
#include <string.h>

#include "sass_arch.h"
#include "sass_internal.h"
#include "sass_sched.h"

static int starts(const char *m, const char *p)
{
  size_t n = strlen(p);
  return !strncmp(m, p, n) && (m[n] == '.' || !m[n]);
}

static int is_branch(const char *m)
{
  return starts(m, "BRA") || starts(m, "BRX") || starts(m, "JMP") || starts(m, "JMX") || starts(m, "CALL") ||
         starts(m, "RET") || starts(m, "BSSY") || starts(m, "BSYNC") || starts(m, "WARPSYNC") || starts(m, "BREAK");
}

static void set_ctl(uint64_t w[2], unsigned stall, int yield, unsigned wb, unsigned rb, unsigned wait)
{
  w[1] &= ~(0x1ffffull << 41);
  w[1] |= (uint64_t)(stall & 15) << 41 | (uint64_t)(yield ? 0 : 1) << 45 | (uint64_t)(wb & 7) << 46 |
          (uint64_t)(rb & 7) << 49 | (uint64_t)(wait & 0x3f) << 52;
}

void sass_ctl_prefix(const uint64_t w[2], char *buf, size_t cap)
{
  unsigned wt = (unsigned)(w[1] >> 52 & 0x3f), rb = (unsigned)(w[1] >> 49 & 7), wb = (unsigned)(w[1] >> 46 & 7);
  char b[7];
  for (int q = 0; q < 6; q++)
    b[q] = wt >> q & 1 ? (char)('0' + q) : '-';
  b[6] = 0;
  snprintf(buf, cap, "[B%s:R%c:W%c:%s:S%02u] ", b, rb == 7 ? '-' : (char)('0' + rb), wb == 7 ? '-' : (char)('0' + wb),
           w[1] >> 45 & 1 ? "-" : "Y", (unsigned)(w[1] >> 41 & 15));
}

size_t sass_schedule(const sass_isa *isa, uint64_t (*w)[2], size_t n, const uint8_t *is_target)
{
  static long ready[SASS_REG_COUNT];   /* cycle from which a fixed-latency result may be used */
  static uint8_t pend[SASS_REG_COUNT]; /* write scoreboards a result waits on */
  static uint8_t rd[SASS_REG_COUNT];   /* read scoreboards still reading the register */
  memset(ready, 0, sizeof ready), memset(pend, 0, sizeof pend), memset(rd, 0, sizeof rd);
  unsigned outstanding = 0, next_sb = 0, prev_sets = 0;
  long cyc = 0, prev_cyc = 0;
  size_t unmatched = 0;
  for (size_t i = 0; i < n; i++) {
    const sass_form *f = sass_match_form(isa, w[i]);
    sass_opnd op[SASS_MAX_OPS + 1];
    int nop = f ? sass_insn_operands(f, w[i], op, SASS_MAX_OPS + 1) : 0;
    unmatched += !f;
    const char *m = f ? f->mnem : "";
    int drain = (is_target && is_target[i]) || is_branch(m) || !f;
    unsigned wait = 0;
    long need = prev_cyc + 1;
    if (drain) {
      wait = outstanding;
      for (int r = 0; r < SASS_REG_COUNT; r++)
        if (ready[r] > need)
          need = ready[r];
    }
    for (int k = 0; k < nop; k++)
      for (int q = op[k].reg; q < op[k].reg + op[k].span && q < SASS_REG_COUNT; q++) {
        wait |= pend[q] | (op[k].is_dest ? rd[q] : 0);
        if (ready[q] > need)
          need = ready[q]; /* read after write, and write after write kept in order */
      }
    if (wait & prev_sets && need < prev_cyc + 2)
      need = prev_cyc + 2;
    if (i) {
      long gap = need - prev_cyc;
      if (gap > 15)
        gap = 15; /* not reached: no latency in the table exceeds 13 */
      uint64_t *pw = w[i - 1];
      const sass_form *pf = sass_match_form(isa, pw);
      set_ctl(pw, (unsigned)gap, gap >= 4 && pf && !is_branch(pf->mnem), (unsigned)(pw[1] >> 46 & 7),
              (unsigned)(pw[1] >> 49 & 7), (unsigned)(pw[1] >> 52 & 0x3f));
      cyc = prev_cyc + gap;
    }
    if (wait) {
      for (int r = 0; r < SASS_REG_COUNT; r++)
        pend[r] &= (uint8_t)~wait, rd[r] &= (uint8_t)~wait;
      outstanding &= ~wait;
    }
    if (drain)
      memset(ready, 0, sizeof ready);
    unsigned wb = 7, rb = 7;
    int has_dest = 0, has_src = 0;
    for (int k = 0; k < nop; k++)
      has_dest |= op[k].is_dest, has_src |= !op[k].is_dest;
    if (f && sass_is_variable_latency(isa->sm, m) && has_dest)
      wb = next_sb++ % 6;
    if (f && sass_reads_late(m) && has_src) {
      rb = next_sb++ % 6;
      if (rb == wb)
        rb = next_sb++ % 6;
    }
    for (int k = 0; k < nop; k++)
      for (int q = op[k].reg; q < op[k].reg + op[k].span && q < SASS_REG_COUNT; q++) {
        if (op[k].is_dest && wb != 7) {
          pend[q] |= (uint8_t)(1u << wb), ready[q] = 0;
        } else if (op[k].is_dest) {
          int lat = sass_latency_sched(isa->sm, m, q >= SASS_REG_P);
          ready[q] = cyc + (lat ? lat : 15); /* an instruction the table lacks: the longest stall */
        } else if (rb != 7) {
          rd[q] |= (uint8_t)(1u << rb);
        }
      }
    outstanding |= (wb != 7 ? 1u << wb : 0) | (rb != 7 ? 1u << rb : 0);
    prev_sets = (wb != 7 ? 1u << wb : 0) | (rb != 7 ? 1u << rb : 0);
    /* stall and yield are set when the next instruction is placed; the last one keeps 5 (ptxas's EXIT) */
    set_ctl(w[i], 5, 0, wb, rb, wait);
    prev_cyc = cyc;
  }
  return unmatched;
}
