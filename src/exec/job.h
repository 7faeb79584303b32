/* One unit of GPU work: a binary, a kernel name, launch geometry, buffers (with guard bytes around
 * each) and parameters. Built by verify/, executed by a worker, answered with a gasp_job_result. */
#ifndef GASP_JOB_H
#define GASP_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"

#define GASP_JOB_MAX_BUFS 16
#define GASP_JOB_MAX_PARAMS 16
/* Guards are whole multiples of 256 bytes so the kernel's pointer keeps cudaMalloc's 256-byte alignment. */
#define GASP_GUARD_BYTES 1024

typedef struct {
  uint64_t size;     /* bytes the kernel may touch */
  uint64_t guard;    /* guard bytes before and after */
  uint8_t *data;     /* guard + size + guard bytes, as they go to the device; not owned */
  int copy_back;
} gasp_job_buf;

typedef struct {
  int is_buf;        /* 1: pointer to buffer `buf` (past its front guard); 0: scalar `bits` of `size` bytes */
  uint32_t buf;
  uint32_t size;
  uint64_t bits;
} gasp_job_param;

typedef struct {
  const void *image;   /* cubin; not owned */
  size_t image_len;
  uint64_t image_hash; /* the worker caches loaded modules by this */
  char kernel[128];
  uint32_t grid[3], block[3], shared_bytes;
  gasp_job_buf bufs[GASP_JOB_MAX_BUFS];
  uint32_t nbufs;
  gasp_job_param params[GASP_JOB_MAX_PARAMS];
  uint32_t nparams;
  uint32_t reps;       /* 0: one checked launch, buffers copied back; >0: timed launches after warmup */
  uint32_t warmup;
  int flush_l2;        /* timed runs: overwrite a buffer larger than L2 before each launch */
  uint64_t nonce;      /* the heartbeat value the harness kernel must write after the candidate */
  int shm;             /* set by the pool: buffer contents are in the shared input region, not the message */
} gasp_job;

typedef struct {
  int stage;           /* GASP_RUN_*: where it stopped */
  int cuda_error;      /* CUresult there */
  char error[256];     /* its name and text */
  int sticky;          /* the worker's context is lost; the worker exits after replying */
  int heartbeat_ok;
  int regs;            /* registers per thread the driver reports for the kernel */
  double kernel_ms;    /* event time of the checked launch */
  double load_ms;
  double copy_ms;      /* host<->device copies in the worker */
  uint32_t ntimes;
  float *times;        /* timed launches, ms */
  uint32_t nbufs;
  uint8_t *bufs[GASP_JOB_MAX_BUFS]; /* copied-back buffers, guards included (copy_back ones) */
  uint64_t buflen[GASP_JOB_MAX_BUFS];
  /* filled by the parent */
  int timed_out;       /* the watchdog killed the worker */
  int worker_died;     /* the worker exited or broke the protocol without a reply */
  double wall_ms;
  gasp_wire raw;       /* scratch for the reply */
  int bufs_borrowed;   /* bufs point into the worker's shared output region: valid until its next job */
} gasp_job_result;

/* Buffer offsets in the device arena (and the shared regions): each buffer with its guards, 256-byte
 * aligned, one after another. Returns the total. Both sides compute it the same way. */
size_t gasp_job_layout(const gasp_job *j, size_t off[GASP_JOB_MAX_BUFS]);

void gasp_job_encode(const gasp_job *j, gasp_wire *w);
/* Decodes in place: buffer data pointers point into w. Returns 0 or -1 when malformed. */
int gasp_job_decode(gasp_wire *w, gasp_job *j);
void gasp_job_result_free(gasp_job_result *r);

#endif
