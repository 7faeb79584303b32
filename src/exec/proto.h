/* The wire protocol between gasp and its GPU worker: length-prefixed messages over two pipes.
 * The worker is the only process that touches libcuda; it is disposable (every CUDA fault is sticky for
 * the process: ../../shared facts, measured on the H200), so everything it needs arrives in one message
 * and everything it learns goes back in one reply. Both ends are built from this tree on one machine
 * type, so fields are native-endian. */
#ifndef GASP_PROTO_H
#define GASP_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define GASP_PROTO_MAGIC 0x50534147u /* "GASP" */
#define GASP_PROTO_VERSION 1u
#define GASP_PROTO_MAX_MSG (3ull << 30) /* no message is larger: bounds what a broken peer can make us allocate */

enum {
  GASP_MSG_HELLO = 1,  /* worker -> gasp once ready: device and start-up times */
  GASP_MSG_RUN = 2,    /* gasp -> worker: one launch (or a timed series) of one kernel */
  GASP_MSG_RESULT = 3, /* worker -> gasp */
  GASP_MSG_QUIT = 4,
  GASP_MSG_CRASH = 5,  /* gasp -> worker, tests only: the worker aborts (a crash in the worker itself) */
};

typedef struct {
  uint32_t magic, type;
  uint64_t len;
} gasp_msg_hdr;

/* Where a run failed. */
enum {
  GASP_RUN_OK = 0,
  GASP_RUN_LOAD,      /* cuModuleLoadDataEx */
  GASP_RUN_FUNCTION,  /* cuModuleGetFunction: no entry of that name */
  GASP_RUN_ALLOC,
  GASP_RUN_COPY_IN,
  GASP_RUN_LAUNCH,    /* cuLaunchKernel refused the launch (resources, shared memory) */
  GASP_RUN_SYNC,      /* the kernel faulted */
  GASP_RUN_HEARTBEAT, /* the harness's heartbeat kernel did not write its value */
  GASP_RUN_COPY_OUT,
  GASP_RUN_PROTOCOL,
};

#define GASP_HELLO_NAME 128
typedef struct {
  uint32_t version;
  int32_t status;   /* 0, or the CUresult that stopped start-up (no GPU: -1) */
  int32_t cc_major, cc_minor, sm_count;
  double init_ms;   /* cuInit + context + harness module, in total */
  double cuinit_ms, ctx_ms, module_ms;
  char device[GASP_HELLO_NAME];
  char error[256];
  int32_t device_count; /* GPUs this process can see: the scheduler starts one worker per GPU */
} gasp_hello;

/* A growable byte buffer for building and reading messages. */
typedef struct {
  uint8_t *p;
  size_t len, cap, pos; /* pos: read cursor */
  int bad;              /* a read ran past the end */
} gasp_wire;

void gasp_wire_init(gasp_wire *w);
void gasp_wire_free(gasp_wire *w);
void gasp_wire_put(gasp_wire *w, const void *p, size_t n);
void gasp_wire_u32(gasp_wire *w, uint32_t v);
void gasp_wire_u64(gasp_wire *w, uint64_t v);
void gasp_wire_f64(gasp_wire *w, double v);
/* Reads n bytes; returns a pointer into the buffer, or NULL (and sets bad) past the end. */
const void *gasp_wire_get(gasp_wire *w, size_t n);
uint32_t gasp_wire_get_u32(gasp_wire *w);
uint64_t gasp_wire_get_u64(gasp_wire *w);
double gasp_wire_get_f64(gasp_wire *w);

/* Blocking whole-message I/O. Return 0, or -1 on EOF or error. */
int gasp_msg_write(int fd, uint32_t type, const void *payload, size_t len);
int gasp_msg_read(int fd, gasp_msg_hdr *h, gasp_wire *payload);
/* Like gasp_msg_read but gives up after timeout_ms (returns -2). The timeout covers the whole message. */
int gasp_msg_read_timeout(int fd, gasp_msg_hdr *h, gasp_wire *payload, int timeout_ms);

#endif
