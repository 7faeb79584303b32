/* Per-architecture numbers of the SASS targets that are not encodings: occupancy limits and the latency table
 * of fixed-latency instructions (used by the hazard checker and by the scheduler of answers without control
 * codes). Sources are cited beside each number in sass_arch.c. */
#ifndef GASP_SASS_ARCH_H
#define GASP_SASS_ARCH_H

typedef struct {
  int regs_per_sm;          /* 32-bit registers in one SM's register file */
  int reg_alloc_unit;       /* registers are given to a warp in multiples of this */
  int max_warps_per_sm;
  int max_blocks_per_sm;
  int max_regs_per_thread;
} sass_arch_limits;

/* The limits of sm 90 or 89 (NULL for other values). */
const sass_arch_limits *sass_arch_limits_get(int sm);

typedef struct {
  int regs;             /* registers per thread, as the driver will allocate them */
  int regs_per_warp;    /* regs * 32 rounded up to the allocation unit */
  int warps_by_regs;    /* warps per SM the register file allows, capped by the SM's warp limit */
  int block_threads;    /* 0: no block size given; the fields below are then 0 */
  int blocks_per_sm;    /* resident blocks of that size (registers, warp and block limits) */
  int warps_per_sm;     /* blocks_per_sm * warps per block */
  int max_warps;        /* the SM's warp limit */
} sass_occupancy;

/* The CUDA occupancy rules for registers (programming guide, occupancy calculator): a warp gets
 * ceil(regs * 32 / unit) * unit registers; an SM holds floor(regs_per_sm / that) warps, whole blocks of them.
 * Returns 0, or -1 when sm is unknown or regs is outside 1..255. */
int sass_occupancy_compute(int sm, int regs, int block_threads, sass_occupancy *o);

/* Cycles a fixed-latency producer needs before a dependent instruction may issue (the stall counts between them
 * must sum to at least this), or 0 when mnem is not in the table (not checked). `checked` is the lowest
 * distance ptxas itself used in the corpus (the hazard checker's bound: nvcc's code never trips it);
 * the scheduler uses sass_latency_sched, which adds a margin until the H200 calibration (tools/sass-latency.sh)
 * replaces both. `pred` asks for a predicate result (xSETP, PLOP3); `branch` (checker only) for a guarded branch
 * or EXIT reading it. The scheduler, which places results before it knows their readers, takes the branch value
 * for every predicate. */
int sass_latency_checked(int sm, const char *mnem, int pred, int branch);
int sass_latency_sched(int sm, const char *mnem, int pred);

/* Variable-latency instructions: the scheduler gives each a write scoreboard that readers and overwriters of its
 * results wait on (facts file: S2R, S2UR, LDC, loads, stores, atomics, SHFL, MUFU, conversions, POPC, FLO, BREV,
 * MATCH, ...). Memory instructions also get a read scoreboard (their register sources are read after issue). */
int sass_is_variable_latency(int sm, const char *mnem);
int sass_reads_late(const char *mnem);

#endif
