/* Scoreboard hazards in SASS with control codes (issue 4). A variable-latency instruction (facts file: S2R, LDG,
 * LDS, LDC, MUFU, SHFL, conversions, ...) names a write scoreboard; its destination registers may be read or
 * written only after an instruction waits on that scoreboard (RAW, WAW). An instruction that names a read
 * scoreboard (stores, loads with register addresses) still reads its source registers; overwriting one before
 * waiting on it is WAR. Tracked within straight-line code: state is dropped at labels and after control flow,
 * so a hazard across blocks is missed but none is invented. Fixed-latency results (sass_arch.c's table) must be
 * read no sooner than the producer's latency, counted as the sum of the stall counts in between (a lower bound
 * on the cycles that pass: waits may add more). The table holds the shortest distances ptxas itself used, so
 * nvcc's code passes by construction; values below them are flagged. */
#include <stdio.h>
#include <string.h>

#include "sass_arch.h"
#include "sass_hazard.h"
#include "sass_internal.h"

static uint64_t field_value(const sass_field *fd, const uint64_t w[2])
{
  uint64_t u = 0;
  for (int s = 0; s < fd->nseg; s++)
    for (int b = 0; b < fd->seg[s].width; b++) {
      int pos = fd->seg[s].pos + b;
      u |= (w[pos >> 6] >> (pos & 63) & 1) << (fd->seg[s].vlo + b);
    }
  return u;
}

static int starts(const char *m, const char *p) { return !strncmp(m, p, strlen(p)) && (m[strlen(p)] == '.' || !m[strlen(p)]); }

/* Instructions without a register result (their first register operand is a source). */
static int no_dest(const char *m)
{
  static const char *const s[] = {"ST", "STG", "STS", "STL", "RED", "REDG", "REDS", "SUST", "SURED", "BAR", "BRA", "BRX",
                                  "EXIT", "RET", "CALL", "BSSY", "BSYNC", "WARPSYNC", "NOP", "MEMBAR", "FENCE", "CCTL",
                                  "ERRBAR", "DEPBAR", "STSM", "LDGDEPBAR", "ARRIVES", "SYNCS", "BPT", "NANOSLEEP", "YIELD",
                                  "BREAK", "UCGABAR_ARV", "UCGABAR_WAIT", "CGAERRBAR", "ENDCOLLECTIVE", "JMP", "JMX", NULL};
  for (int i = 0; s[i]; i++)
    if (starts(m, s[i]))
      return 1;
  return 0;
}

int sass_ends_block(const char *m)
{
  static const char *const s[] = {"BRA", "BRX", "JMP", "JMX", "EXIT", "RET", "CALL", "BSYNC", "BREAK", "WARPSYNC", "BSSY",
                                  "KILL", NULL};
  for (int i = 0; s[i]; i++)
    if (starts(m, s[i]))
      return 1;
  return 0;
}

/* Registers an operand spans. Address registers: two when printed `R2.64`, else one; results and data of
 * D* (double) instructions two; .128/.64 data operands four/two; IMAD.WIDE: the result and the addend two. */
static int span(const sass_form *f, int idx, int is_dest, int last_r)
{
  const char *p = f->skel;
  int k = -1, open = 0;
  for (; *p; p++) {
    if (*p == '[')
      open++;
    else if (*p == ']')
      open--;
    else if (*p == '%' && ++k == idx)
      break;
  }
  if (*p == '%' && !strncmp(p + 1, ".64", 3))
    return 2;
  if (open > 0)
    return 1;
  if (strstr(f->mnem, ".WIDE"))
    return is_dest || (idx == 3 && last_r == 3) ? 2 : 1;
  if (f->mnem[0] == 'D' && strncmp(f->mnem, "DEPBAR", 6))
    return 2;
  if (strstr(f->mnem, ".128"))
    return 4;
  if (strstr(f->mnem, ".64"))
    return 2;
  return 1;
}

/* The result register: the first R operand when only predicates precede it (SHFL PT, R5 ...; IADD3 R8, P1 ...),
 * except in compares and checks whose results are predicates. */
static int dest_of(const sass_form *f)
{
  if (no_dest(f->mnem) || strstr(f->mnem, "SETP") || starts(f->mnem, "FCHK") || starts(f->mnem, "PLOP3") ||
      starts(f->mnem, "R2UR") || starts(f->mnem, "REDUX") || starts(f->mnem, "VOTEU"))
    return -1;
  for (int i = 0; i < f->nops; i++) {
    if (f->kinds[i] == SASS_K_R)
      return i;
    if (f->kinds[i] != SASS_K_P)
      return -1;
  }
  return -1;
}

/* Producers whose result arrives after a variable delay: nvcc 13 gave every one in the corpus a write scoreboard
 * (S2R 292/292, LDG 520/520, LD 86/86, LDL 51/51, SHFL 79/79, ATOMG 120/120). Without one, a read of the
 * result is a hazard whatever the stall counts. */
static int needs_scoreboard(const char *m)
{
  static const char *const s[] = {"S2R", "LDG", "LD", "LDL", "SHFL", "ATOMG", NULL};
  for (int i = 0; s[i]; i++)
    if (starts(m, s[i]))
      return 1;
  return 0;
}


const char *sass_reg_name(int reg, char *buf, size_t cap)
{
  if (reg >= SASS_REG_UP)
    snprintf(buf, cap, "UP%d", reg - SASS_REG_UP);
  else if (reg >= SASS_REG_P)
    snprintf(buf, cap, "P%d", reg - SASS_REG_P);
  else if (reg >= SASS_REG_UR)
    snprintf(buf, cap, "UR%d", reg - SASS_REG_UR);
  else
    snprintf(buf, cap, "R%d", reg);
  return buf;
}

/* Results: the leading predicates (ISETP P0, PT, ...; SHFL PT, R5, ...), then, except in instructions whose
 * results are predicates only, the first R or UR operand and the carry-out predicates right after it
 * (IADD3 R8, P1, P2, ...; VOTE.ANY R5, PT, P0 writes PT only). Everything else is read. */
int sass_insn_operands(const sass_form *f, const uint64_t w[2], sass_opnd *out, int cap)
{
  int n = 0;
  unsigned g = (unsigned)(w[0] >> 12 & 7);
  if (g != 7 && n < cap)
    out[n++] = (sass_opnd){(f->guard_up ? SASS_REG_UP : SASS_REG_P) + (int)g, 1, 0};
  int nodest = no_dest(f->mnem), pred_only = strstr(f->mnem, "SETP") || starts(f->mnem, "PLOP3") ||
                                              starts(f->mnem, "UPLOP3") || starts(f->mnem, "FCHK");
  int vote = starts(f->mnem, "VOTE") || starts(f->mnem, "VOTEU");
  int is_dest[SASS_MAX_OPS] = {0}, last_r = -1, k = 0;
  for (int i = 0; i < f->nops; i++)
    if (f->kinds[i] == SASS_K_R)
      last_r = i;
  if (!nodest) {
    while (k < f->nops && (f->kinds[k] == SASS_K_P || f->kinds[k] == SASS_K_UP))
      is_dest[k++] = 1;
    if (!pred_only && k < f->nops && (f->kinds[k] == SASS_K_R || f->kinds[k] == SASS_K_UR)) {
      is_dest[k++] = 1;
      for (int c = 0; k < f->nops && (f->kinds[k] == SASS_K_P || f->kinds[k] == SASS_K_UP) && c < (vote ? 1 : 2); c++)
        is_dest[k++] = 1;
    }
  }
  for (int q = 0; q < f->nfields && n < cap; q++) {
    const sass_field *fd = &f->fields[q];
    int v = (int)field_value(fd, w), idx = fd->idx, base, sp = 1;
    switch (fd->kind) {
    case SASS_K_R:
      if (v >= 255)
        continue;
      base = SASS_REG_R;
      sp = span(f, idx, is_dest[idx], last_r);
      break;
    case SASS_K_UR: {
      if (v >= 63)
        continue;
      base = SASS_REG_UR;
      /* desc[URn] names a 64-bit descriptor; .64/.128 uniform results */
      const char *p = f->skel;
      for (int c = -1; *p; p++)
        if (*p == '%' && ++c == idx)
          break;
      if (p - f->skel >= 7 && !strncmp(p - 7, "desc[UR", 7))
        sp = 2;
      else if (is_dest[idx])
        sp = strstr(f->mnem, ".128") ? 4 : strstr(f->mnem, ".64") ? 2 : 1;
      break;
    }
    case SASS_K_P:
    case SASS_K_UP:
      if ((v & 7) == 7)
        continue;
      base = fd->kind == SASS_K_P ? SASS_REG_P : SASS_REG_UP;
      v &= 7;
      break;
    default:
      continue;
    }
    out[n++] = (sass_opnd){base + v, sp, is_dest[idx]};
  }
  return n;
}

/* The cycles a stall count gives. 12 to 15 without the yield bit are not honoured: on the H200 a dependent
 * pair whose producer had S12..S15 and no yield read the old value (a latency of 4 to 5 cycles, passing from S04
 * to S11; tools/sass-latency.sh, 2026-12-02), and nvcc never writes them (all 17,400 stalls of 12+ in the
 * corpus yield): counted as one cycle, a lower bound. */
static long ctl_stall(const uint64_t w[2])
{
  long st = (long)(w[1] >> (105 - 64) & 15);
  int no_yield = (int)(w[1] >> (109 - 64) & 1);
  return st >= 12 && no_yield ? 1 : st;
}

/* Control codes wrong on their own: a stall of 12+ without the yield bit (above), and a wait on a scoreboard
 * the previous instruction set one cycle before: the scoreboard is not set yet. nvcc leaves at least 2 cycles
 * there in all 2,190 such pairs of the corpus; on the H200, STG (read scoreboard 5, S01) followed by an
 * overwrite of its data register waiting on 5 stored the new value. */
static size_t check_ctl(const uint64_t (*words)[2], size_t n, sass_hazard *out, size_t cap)
{
  size_t nh = 0;
  for (size_t i = 0; i < n && nh < cap; i++) {
    const uint64_t *w = words[i];
    unsigned st = (unsigned)(w[1] >> (105 - 64) & 15);
    if (st >= 12 && (w[1] >> (109 - 64) & 1))
      out[nh++] = (sass_hazard){i, i, SASS_HAZ_YIELD, -1, -1, 12, (int)st};
    if (!i || nh >= cap)
      continue;
    const uint64_t *p = words[i - 1];
    unsigned wait = (unsigned)(w[1] >> (116 - 64) & 0x3f), pst = (unsigned)(p[1] >> (105 - 64) & 15);
    unsigned wb = (unsigned)(p[1] >> (110 - 64) & 7), rb = (unsigned)(p[1] >> (113 - 64) & 7);
    unsigned set = (wb < 6 ? 1u << wb : 0) | (rb < 6 ? 1u << rb : 0);
    /* stall 0 is its own encoding (nvcc: DMMA.884 S00 then a wait on its scoreboard, sm_89 -O0): not counted */
    if ((wait & set) && pst == 1)
      out[nh++] = (sass_hazard){i, i - 1, SASS_HAZ_SBSET, -1, __builtin_ctz(wait & set), 2, (int)pst};
  }
  return nh;
}

/* Fixed-latency reads too early: issue cycles are the running sum of stall counts; state is dropped where the
 * scoreboard check drops it (labels, control flow). */
static size_t check_stalls(const sass_isa *isa, const uint64_t (*words)[2], size_t n, const uint8_t *is_target,
                           sass_hazard *out, size_t cap)
{
  static long issued[SASS_REG_COUNT]; /* producer's issue cycle + 1; 0: nothing in flight */
  static size_t from[SASS_REG_COUNT];
  static const char *by[SASS_REG_COUNT];
  memset(issued, 0, sizeof issued);
  long cyc = 0;
  size_t nh = 0;
  for (size_t i = 0; i < n; i++) {
    const uint64_t *w = words[i];
    const sass_form *f = sass_match_form(isa, w);
    if (is_target && is_target[i])
      memset(issued, 0, sizeof issued);
    sass_opnd op[SASS_MAX_OPS + 1];
    int nop = f ? sass_insn_operands(f, w, op, SASS_MAX_OPS + 1) : 0;
    /* IMAD.WIDE reads the high half of its 64-bit addend late: ptxas wrote it 2 or 3 cycles before (int.sm90.O3
     * int64_ops: IMAD.X R11 -> 2 cycles -> IMAD.WIDE.U32 R10, R2, R4, R10, and IMAD.IADD R11 -> 3 ->
     * IMAD.WIDE.U32.X R10, ..., R10; mma.sm90.O3 mma_tf32: MOV R3 -> 3 -> IMAD.WIDE.U32 R2, R5, 0x8, R2) while
     * every other reader of an integer result waited 4: counted as read 2 cycles after issue */
    int wide = f && strstr(f->mnem, ".WIDE") && starts(f->mnem, "IMAD");
    int branch = f && (starts(f->mnem, "BRA") || starts(f->mnem, "EXIT") || starts(f->mnem, "BRX") || starts(f->mnem, "JMP"));
    for (int k = 0; k < nop; k++)
      for (int q = op[k].reg; !op[k].is_dest && q < op[k].reg + op[k].span && q < SASS_REG_COUNT; q++) {
        if (!issued[q])
          continue;
        int pred = q >= SASS_REG_P && q < SASS_REG_UP;
        int lat = sass_latency_checked(isa->sm, by[q], pred, branch);
        long got = cyc - (issued[q] - 1) + 2 * (wide && op[k].span == 2 && q == op[k].reg + 1);
        if (lat && got < lat) {
          if (nh < cap)
            out[nh++] = (sass_hazard){i, from[q], SASS_HAZ_STALL, q, -1, lat, (int)got};
          issued[q] = 0;
        }
      }
    unsigned wb = (unsigned)(w[1] >> (110 - 64) & 7);
    for (int k = 0; k < nop; k++)
      for (int q = op[k].reg; op[k].is_dest && q < op[k].reg + op[k].span && q < SASS_REG_COUNT; q++) {
        int tracked = wb == 7 && (q < SASS_REG_UR || (q >= SASS_REG_P && q < SASS_REG_UP));
        issued[q] = tracked ? cyc + 1 : 0, from[q] = i, by[q] = f->mnem;
      }
    cyc += ctl_stall(w);
    if (f && sass_ends_block(f->mnem))
      memset(issued, 0, sizeof issued);
  }
  return nh;
}

size_t sass_check_hazards(const sass_isa *isa, const uint64_t (*words)[2], size_t n, const uint8_t *is_target,
                          sass_hazard *out, size_t cap)
{
  /* pending[r]: bitmask of write scoreboards whose result lands in register r; reading[r]: read scoreboards
   * still reading r */
  static uint8_t pending[256], reading[256]; /* bit 6: a variable-latency result with no scoreboard */
  static size_t producer[256][6], nosb_producer[256];
  memset(pending, 0, sizeof pending);
  memset(reading, 0, sizeof reading);
  size_t nh = 0;
  for (size_t i = 0; i < n; i++) {
    const uint64_t *w = words[i];
    const sass_form *f = sass_match_form(isa, w);
    if (is_target && is_target[i])
      memset(pending, 0, sizeof pending), memset(reading, 0, sizeof reading);
    unsigned wait = (unsigned)(w[1] >> (116 - 64) & 0x3f);
    unsigned wb = (unsigned)(w[1] >> (110 - 64) & 7), rb = (unsigned)(w[1] >> (113 - 64) & 7);
    /* the wait happens before the instruction issues */
    for (int r = 0; r < 256; r++)
      pending[r] &= (uint8_t)~wait, reading[r] &= (uint8_t)~wait; /* bit 6 has no wait */
    if (!f)
      continue;
    if (!strncmp(f->mnem, "DEPBAR", 6))
      memset(pending, 0, sizeof pending), memset(reading, 0, sizeof reading); /* conservative: never invents */
    int dest_idx = dest_of(f), last_r = -1;
    for (int k = 0; k < f->nops; k++)
      if (f->kinds[k] == SASS_K_R)
        last_r = k;
    for (int k = 0; k < f->nfields; k++) {
      const sass_field *fd = &f->fields[k];
      if (fd->kind != SASS_K_R)
        continue;
      int r = (int)field_value(fd, w);
      if (r == 255)
        continue;
      int is_dest = fd->idx == dest_idx;
      int sp = span(f, fd->idx, is_dest, last_r);
      for (int q = r; q < r + sp && q < 255; q++) {
        if (pending[q] & 0x40) {
          if (!is_dest && nh < cap)
            out[nh++] = (sass_hazard){i, nosb_producer[q], SASS_HAZ_NOSB, q, -1};
          pending[q] &= 0x3f;
        }
        if (pending[q] && nh < cap) {
          int sb = __builtin_ctz(pending[q]);
          out[nh++] = (sass_hazard){i, producer[q][sb], is_dest ? SASS_HAZ_WAW : SASS_HAZ_RAW, q, sb};
          pending[q] = 0;
        }
        /* a writer that itself sets a write scoreboard queues behind the reader in nvcc's schedules
         * (I2F.F64 reading R20, then F2I.F64 writing R20 without a wait): not flagged */
        if (is_dest && reading[q] && wb == 7 && nh < cap) {
          int sb = __builtin_ctz(reading[q]);
          out[nh++] = (sass_hazard){i, producer[q][sb], SASS_HAZ_WAR, q, sb};
          reading[q] = 0;
        }
      }
    }
    /* this instruction's own scoreboards start after its operands were checked */
    for (int k = 0; k < f->nfields; k++) {
      const sass_field *fd = &f->fields[k];
      if (fd->kind != SASS_K_R)
        continue;
      int r = (int)field_value(fd, w);
      if (r == 255)
        continue;
      int is_dest = fd->idx == dest_idx;
      int sp = span(f, fd->idx, is_dest, last_r);
      for (int q = r; q < r + sp && q < 255; q++) {
        if (is_dest && wb < 6)
          pending[q] |= (uint8_t)(1u << wb), producer[q][wb] = i;
        else if (is_dest && needs_scoreboard(f->mnem))
          pending[q] |= 0x40, nosb_producer[q] = i;
        if (!is_dest && rb < 6)
          reading[q] |= (uint8_t)(1u << rb), producer[q][rb] = i;
      }
    }
    if (sass_ends_block(f->mnem))
      memset(pending, 0, sizeof pending), memset(reading, 0, sizeof reading);
  }
  nh += check_stalls(isa, words, n, is_target, out + nh, cap - nh);
  return nh + check_ctl(words, n, out + nh, cap - nh);
}
