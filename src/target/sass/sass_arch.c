/* Occupancy limits and latencies of sm_90 and sm_89 (see sass_arch.h). Every number cites where it comes from;
 * "corpus" means tools/sass-corpus/dumps (nvcc 13.0.88, ptxas -O3 and -O0), measured by tools/sass-latency-corpus.py. */
#include <string.h>

#include "sass_arch.h"

/* docs/sass-facts.md "Occupancy" (CUDA programming guide, compute capability table): 64K 32-bit registers per SM
 * on both; 64 warps and 32 blocks per SM on sm_90, 48 warps and 24 blocks on sm_89; 255 registers per thread.
 * The allocation unit of 256 registers per warp is the occupancy calculator's for compute capability 5.0-9.0. */
static const sass_arch_limits sm90_limits = {65536, 256, 64, 32, 255};
static const sass_arch_limits sm89_limits = {65536, 256, 48, 24, 255};

const sass_arch_limits *sass_arch_limits_get(int sm) { return sm == 90 ? &sm90_limits : sm == 89 ? &sm89_limits : 0; }

int sass_occupancy_compute(int sm, int regs, int block_threads, sass_occupancy *o)
{
  const sass_arch_limits *l = sass_arch_limits_get(sm);
  memset(o, 0, sizeof *o);
  if (!l || regs < 1 || regs > l->max_regs_per_thread || block_threads < 0)
    return -1;
  o->regs = regs;
  o->regs_per_warp = (regs * 32 + l->reg_alloc_unit - 1) / l->reg_alloc_unit * l->reg_alloc_unit;
  o->warps_by_regs = l->regs_per_sm / o->regs_per_warp;
  if (o->warps_by_regs > l->max_warps_per_sm)
    o->warps_by_regs = l->max_warps_per_sm;
  o->max_warps = l->max_warps_per_sm;
  if (block_threads) {
    int wpb = (block_threads + 31) / 32;
    int blocks = o->warps_by_regs / wpb;
    if (blocks > l->max_blocks_per_sm)
      blocks = l->max_blocks_per_sm;
    o->block_threads = block_threads;
    o->blocks_per_sm = blocks;
    o->warps_per_sm = blocks * wpb;
  }
  return 0;
}

static int starts(const char *m, const char *p)
{
  size_t n = strlen(p);
  return !strncmp(m, p, n) && (m[n] == '.' || !m[n]);
}

/* Fixed-latency producers the table knows. `checked`: the lowest distance in cycles from producer to first
 * reader in the corpus (sm_90 / sm_89), e.g. IADD3 -> reader 4 in 119 of 2,064 pairs on sm_90 and never less;
 * IMAD.WIDE 3 (its low half read by IADD3/LEA 3 cycles on); predicates (ISETP, FSETP) 4. `sched`: what gasp's
 * scheduler gives, the H200 calibration with one cycle of margin.
 * Calibration (tools/sass-latency.sh on the H200, 2026-12-02; a dependent pair producer -> consumer with stall k
 * passes from k = measured up): IADD3, LOP3, MOV -> IADD3 4; IMAD (a real multiply-add) -> IADD3 5; FFMA,
 * FMUL -> FADD 4; ISETP -> SEL 4. So FP32 sched 5 and integer 6 keep a cycle over the measured values. IMAD's
 * checked value stays ptxas's 4 (nvcc's own IMAD -> reader pairs at 4 cycles run correctly, and a higher bound
 * would flag nvcc's code): a hand-written IMAD read by IADD3 at exactly 4 cycles is a hazard the checker
 * misses. */
typedef struct {
  const char *mnem;
  unsigned char checked90, checked89, sched;
} lat_row;

static const lat_row lat[] = {
    {"IMAD.WIDE", 3, 3, 6},                                                       /* before IMAD: longest prefix first */
    {"FFMA", 4, 4, 5},  {"FADD", 4, 4, 5},  {"FMUL", 4, 4, 5},  {"FSEL", 4, 4, 5},  {"FMNMX", 4, 4, 5},
    {"IMAD", 4, 4, 6},  {"IADD3", 4, 4, 6}, {"LOP3", 4, 4, 6},  {"MOV", 4, 4, 6},   {"SEL", 4, 4, 6},
    {"SHF", 4, 4, 6},   {"LEA", 4, 4, 6},   {"IABS", 4, 4, 6},  {"PRMT", 4, 4, 6},  {"SGXT", 4, 4, 6},
    {"VIADD", 4, 4, 6}, {"VIMNMX", 4, 4, 6}, {"IMNMX", 4, 4, 6}, {"HADD2", 4, 4, 6}, {"HMUL2", 4, 4, 6},
    {"HFMA2", 5, 4, 6}, {"F2FP", 5, 5, 6},  {"I2FP", 5, 5, 6},
    /* uniform datapath (ULDC, UMOV, UIADD3, ...): not in the checked table (its readers were not measured);
     * the scheduler gives them the integer value */
    {NULL, 0, 0, 0}};

static const lat_row *find(const char *m)
{
  for (const lat_row *r = lat; r->mnem; r++)
    if (starts(m, r->mnem))
      return r;
  return NULL;
}

static int is_pred_producer(const char *m)
{
  return strstr(m, "SETP") != NULL || starts(m, "PLOP3") || starts(m, "UPLOP3");
}

int sass_latency_checked(int sm, const char *m, int pred, int branch)
{
  if (pred)
    /* xSETP -> guarded BRA/EXIT: never under 13 in the corpus (91 of 169 such pairs on sm_89 at exactly 13);
     * ISETP/FSETP -> any other predicate reader: 4 (41 and 24 of 815 and 233 pairs on sm_90) */
    return strstr(m, "SETP") && branch ? 13 : starts(m, "ISETP") || starts(m, "FSETP") ? 4 : 0;
  const lat_row *r = find(m);
  return r ? (sm == 89 ? r->checked89 : r->checked90) : 0;
}

int sass_latency_sched(int sm, const char *m, int pred)
{
  (void)sm;
  if (pred)
    /* facts file: predicate producer -> guarded branch/instruction 13 (ptxas gives ISETP -> @P0 EXIT 13) */
    return is_pred_producer(m) ? 13 : 6;
  const lat_row *r = find(m);
  if (r)
    return r->sched;
  if (m[0] == 'U')
    return 6; /* uniform datapath: guess (facts file: integer 6) */
  return 0;
}

int sass_is_variable_latency(int sm, const char *m)
{
  static const char *const v[] = {"S2R", "S2UR", "CS2R.32", "LDC", "LDG", "LD", "LDL", "LDS", "LDSM", "LDGSTS", "ST",
                                  "STG", "STS", "STL", "ATOM", "ATOMG", "ATOMS", "RED", "REDG", "SHFL", "MUFU", "F2F",
                                  "F2I", "I2F", "I2I", "FRND", "POPC", "FLO", "BREV", "MATCH", "BMOV", "R2UR", "REDUX",
                                  "VOTEU", "HMMA", "IMMA", "HGMMA", "TEX", "TLD", "SUST", "SULD", "QSPC", "LDTRAM",
                                  NULL};
  for (int i = 0; v[i]; i++)
    if (starts(m, v[i]))
      return 1;
  /* doubles: sm_89 has a small FP64 unit (ptxas gives DADD/DFMA/DMUL a scoreboard about half the time on both) */
  if (m[0] == 'D' && strncmp(m, "DEPBAR", 6))
    return 1;
  (void)sm;
  return 0;
}

int sass_reads_late(const char *m)
{
  static const char *const v[] = {"ST", "STG", "STS", "STL", "ATOM", "ATOMG", "ATOMS", "RED", "REDG", "LDG", "LD",
                                  "LDL", "LDS", "LDGSTS", "SHFL", "SUST", NULL};
  for (int i = 0; v[i]; i++)
    if (starts(m, v[i]))
      return 1;
  return 0;
}
