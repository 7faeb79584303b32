/* The GPU side seen from gasp: a persistent worker process per GPU, replaced after any sticky fault,
 * killed by a watchdog past each job's time limit, with warm spares started ahead so that recovery
 * does not wait for cuInit and context creation (0.37 s on the H200). */
#ifndef GASP_POOL_H
#define GASP_POOL_H

#include "../core/diag.h"
#include "job.h"

typedef struct gasp_pool gasp_pool;

typedef struct {
  const char *worker_path; /* NULL: $GASP_WORKER, else gasp-worker beside the running executable */
  int device;              /* GPU ordinal */
  int spares;              /* workers kept started in reserve (default 1) */
  int fresh_per_job;       /* 1: a new worker process for every job (the slow baseline the bench compares) */
  int start_timeout_ms;    /* how long a worker may take to say hello (default 60000) */
} gasp_pool_opts;

void gasp_pool_default_opts(gasp_pool_opts *o);

/* Starts the first worker and waits for it. Returns NULL when no GPU can be used here; *why then says
 * why (no driver, no device), in words meant for a "skipped" record. */
gasp_pool *gasp_pool_open(const gasp_pool_opts *o, char *why, size_t why_cap);
void gasp_pool_close(gasp_pool *p);

/* Runs one job under a watchdog of timeout_ms. Returns 0 when a reply came (look at r->stage), and
 * also when the worker died or timed out (r->worker_died / r->timed_out; a new worker is then ready
 * for the next job); -1 only when no worker can be started any more. */
int gasp_pool_run(gasp_pool *p, const gasp_job *j, int timeout_ms, gasp_job_result *r);

const char *gasp_pool_device(const gasp_pool *p);
int gasp_pool_cc(const gasp_pool *p); /* e.g. 90 */
/* How many GPUs the worker saw (cuDeviceGetCount, after CUDA_VISIBLE_DEVICES): the scheduler's GPU count. */
int gasp_pool_device_count(const gasp_pool *p);

typedef struct {
  long jobs, restarts, timeouts, crashes;
  double restart_wait_ms;   /* total time jobs waited for a replacement worker */
  double max_restart_wait_ms;
  double init_ms_last;      /* the latest worker's start-up: cuInit + context + harness module */
  double cuinit_ms_last, ctx_ms_last, module_ms_last;
} gasp_pool_stats;
void gasp_pool_get_stats(const gasp_pool *p, gasp_pool_stats *s);

/* Test hook: asks the worker to abort, to prove a crash of the worker itself becomes a record. */
int gasp_pool_crash_worker(gasp_pool *p);

#endif
