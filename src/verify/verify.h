/* Running a candidate binary on a task and judging it: fresh inputs per trial, poisoned outputs, guard
 * bytes around every buffer, inputs checked unchanged, a heartbeat after the kernel, every element
 * compared with the CPU reference under the task's relative tolerance, then timing against the nvcc
 * baseline in the same worker. A wrong kernel must never be judged correct. */
#ifndef GASP_VERIFY_H
#define GASP_VERIFY_H

#include <stdint.h>

#include "../core/diag.h"
#include "../exec/pool.h"
#include "../target/target.h"
#include "../task/task.h"

typedef struct {
  gasp_class cls;
  gasp_stage stage;        /* last stage reached: load, run, verify or time */
  char detail[512];
  /* first mismatch (wrong / unwritten) */
  int has_mismatch;
  char param[32];
  int64_t index;
  char expected[64], got[64];
  int64_t bad_elements, unwritten_elements;
  int trials_run;
  int regs;                /* per thread, as the driver reports */
  double kernel_ms;        /* median of timed launches (0 when not timed) */
  double baseline_ms;      /* median for the nvcc reference, same run */
  double speedup;          /* baseline_ms / kernel_ms, 0 when not timed */
  int slow;                /* pass, but slower than the baseline beyond noise */
  int suspicious;          /* more than 10x faster than the baseline: look at it */
  int cuda_error;
} gasp_verdict;

typedef struct {
  uint64_t seed;
  int time;                /* time passes against the baseline */
  int flush_l2;
  const gasp_binary *baseline;   /* may be NULL: no speedup */
  double *baseline_cache_ms;     /* in/out: a baseline median measured earlier in this run (0: measure) */
} gasp_verify_opts;

/* Runs and judges. Returns 0 with v filled (any class), -1 only when the pool can no longer run jobs. */
int gasp_verify(gasp_pool *pool, const gasp_task *task, const gasp_binary *bin, const gasp_verify_opts *o,
                gasp_verdict *v);

/* Runs an ARB program (bin holds its text) on Mesa through the GL layer and judges it like a GPU run:
 * `in` arrays become RGBA32F textures (fragment programs) or vertex attributes (vertex programs), f32
 * scalars program.local[j] = (v, v, v, v); the framebuffer (launch grid w x h, one pixel per element) is
 * poisoned, drawn and compared with the CPU reference. Returns 0 with v filled; -1 when GL is missing. */
int gasp_verify_gl(const gasp_task *task, const gasp_binary *bin, const gasp_verify_opts *o, gasp_verdict *v);

/* Runs an AMD code object (bin from an AMD target's check) on the functional emulator, trial by trial, and judges
 * it like a GPU run: the same fixtures (fresh inputs, poisoned outputs, guard bytes), the same judging (guards,
 * inputs unchanged, every element). Returns 0 with v filled; -1 when no emulator is built in (v: skipped). */
int gasp_verify_emu(const gasp_task *task, const gasp_binary *bin, const gasp_verify_opts *o, gasp_verdict *v);

/* Judging without a GPU, for tests: the buffers a perfect kernel would return for trial `trial` (the
 * inputs as sent, the reference's outputs, intact guards) are handed to `mutate` (may be NULL), which may
 * damage them as a broken kernel would, and are then judged exactly as a worker's reply is. Returns 0
 * with v filled, -1 when the fixture cannot be made. */
typedef void (*gasp_verify_mutator)(const gasp_task *task, int param, uint8_t *buf, uint64_t bytes, uint64_t guard,
                                    void *ctx);
int gasp_verify_offline(const gasp_task *task, int trial, uint64_t seed, gasp_verify_mutator mutate, void *ctx,
                        gasp_verdict *v);

/* Inputs and expected outputs depend only on (task, trial, seed) and are cached across candidates (up to
 * 1 GiB); this frees them. */
void gasp_verify_cache_clear(void);

/* Where verification time goes, summed over all calls since the last reset (for `gasp throughput`). */
typedef struct {
  double prepare_ms, job_ms, worker_copy_ms, kernel_ms, judge_ms; /* prepare: inputs + CPU reference */
  long jobs;
} gasp_verify_profile;
void gasp_verify_profile_get(gasp_verify_profile *p);
void gasp_verify_profile_reset(void);

/* Relative slowdown within which a pass still counts as fast (timing noise on the H200: repeated medians
 * of one kernel varied by under 3% in our runs; we allow 5%). */
#define GASP_FAST_TOLERANCE 0.05

#endif
