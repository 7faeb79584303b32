/* gasp-worker: the only process that touches libcuda. It loads cubins and launches kernels on one GPU,
 * one job per message, and exits after any fault because CUDA faults are sticky for the whole process
 * (measured on the H200: after 700/716/719 even a new context in the same process fails).
 * libcuda is opened with dlopen, never linked: machines without a GPU have only the stub library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "job.h"
#include "proto.h"

/* The few driver API types and entry points we use, declared here so the worker builds without cuda.h. */
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;

#define CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#define CU_FUNC_ATTRIBUTE_NUM_REGS 4
#define CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES 8

static struct {
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*CtxSynchronize)(void);
  CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
  CUresult (*ModuleUnload)(CUmodule);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*FuncGetAttribute)(int *, int, CUfunction);
  CUresult (*FuncSetAttribute)(CUfunction, int, int);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*MemAllocHost)(void **, size_t);
  CUresult (*MemHostRegister)(void *, size_t, unsigned);
  CUresult (*MemFreeHost)(void *);
  CUresult (*MemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           CUstream, void **, void **);
  CUresult (*EventCreate)(CUevent *, unsigned);
  CUresult (*EventRecord)(CUevent, CUstream);
  CUresult (*EventSynchronize)(CUevent);
  CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*FuncGetParamInfo)(CUfunction, size_t, size_t *, size_t *); /* CUDA 12.4+, optional */
  CUresult (*GetErrorName)(CUresult, const char **);
  CUresult (*GetErrorString)(CUresult, const char **);
} cu;

static int load_driver(char *err, size_t cap) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(err, cap, "no GPU driver here: %s", dlerror());
    return -1;
  }
  struct { void **slot; const char *name; } syms[] = {
      {(void **)&cu.Init, "cuInit"},
      {(void **)&cu.DeviceGet, "cuDeviceGet"},
      {(void **)&cu.DeviceGetCount, "cuDeviceGetCount"},
      {(void **)&cu.DeviceGetName, "cuDeviceGetName"},
      {(void **)&cu.DeviceGetAttribute, "cuDeviceGetAttribute"},
      {(void **)&cu.PrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
      {(void **)&cu.CtxSetCurrent, "cuCtxSetCurrent"},
      {(void **)&cu.CtxSynchronize, "cuCtxSynchronize"},
      {(void **)&cu.ModuleLoadDataEx, "cuModuleLoadDataEx"},
      {(void **)&cu.ModuleUnload, "cuModuleUnload"},
      {(void **)&cu.ModuleGetFunction, "cuModuleGetFunction"},
      {(void **)&cu.FuncGetAttribute, "cuFuncGetAttribute"},
      {(void **)&cu.FuncSetAttribute, "cuFuncSetAttribute"},
      {(void **)&cu.MemAlloc, "cuMemAlloc_v2"},
      {(void **)&cu.MemFree, "cuMemFree_v2"},
      {(void **)&cu.MemcpyHtoD, "cuMemcpyHtoD_v2"},
      {(void **)&cu.MemcpyDtoH, "cuMemcpyDtoH_v2"},
      {(void **)&cu.MemsetD8Async, "cuMemsetD8Async"},
      {(void **)&cu.MemAllocHost, "cuMemAllocHost_v2"},
      {(void **)&cu.MemHostRegister, "cuMemHostRegister_v2"},
      {(void **)&cu.MemFreeHost, "cuMemFreeHost"},
      {(void **)&cu.LaunchKernel, "cuLaunchKernel"},
      {(void **)&cu.EventCreate, "cuEventCreate"},
      {(void **)&cu.EventRecord, "cuEventRecord"},
      {(void **)&cu.EventSynchronize, "cuEventSynchronize"},
      {(void **)&cu.EventElapsedTime, "cuEventElapsedTime"},
      {(void **)&cu.GetErrorName, "cuGetErrorName"},
      {(void **)&cu.GetErrorString, "cuGetErrorString"},
  };
  for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
    *syms[i].slot = dlsym(h, syms[i].name);
    if (!*syms[i].slot) {
      snprintf(err, cap, "libcuda lacks %s", syms[i].name);
      return -1;
    }
  }
  cu.FuncGetParamInfo = dlsym(h, "cuFuncGetParamInfo");
  return 0;
}

static void describe(CUresult r, char *buf, size_t cap) {
  const char *name = NULL, *text = NULL;
  cu.GetErrorName(r, &name);
  cu.GetErrorString(r, &text);
  snprintf(buf, cap, "%s (%d): %s", name ? name : "CUDA_ERROR", r, text ? text : "");
}

/* Errors after which the context is unusable (CUDA driver API docs: "the context cannot be used ...
 * all existing device memory allocations are invalid"), confirmed on the H200 for 700, 716, 719. */
static int is_sticky(CUresult r) {
  switch (r) {
  case 700: case 702: case 710: case 714: case 715: case 716: case 717: case 718: case 719: case 999: return 1;
  default: return 0;
  }
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The heartbeat kernel: after the candidate, in the same stream, one thread writes the job's nonce.
 * Reading it back proves the stream got past the candidate and the context is alive. */
static const char heartbeat_ptx[] =
    ".version 7.8\n.target sm_52\n.address_size 64\n"
    ".visible .entry gasp_heartbeat(.param .u64 p, .param .u64 v) {\n"
    "  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd0, [p];\n  ld.param.u64 %rd1, [v];\n"
    "  cvta.to.global.u64 %rd2, %rd0;\n  st.global.u64 [%rd2], %rd1;\n  ret;\n}\n";

#define MOD_CACHE 64
static struct { uint64_t hash; CUmodule mod; uint64_t used; } modcache[MOD_CACHE];
static uint64_t use_clock;

static CUfunction hb_fn;
static CUdeviceptr hb_ptr;
static CUdeviceptr arena;
static size_t arena_size;
static CUdeviceptr flush_buf;
static const size_t flush_size = 256u << 20; /* H200 L2 is 50 MB (datasheet); 256 MiB evicts it */
static CUevent ev[2];
/* Page-locked staging for the arena: one DMA each way per job instead of a pageable copy per buffer
 * (pageable copies go through the driver's bounce buffers in chunks). */
static uint8_t *staging;
static size_t staging_size;
static size_t buf_off[GASP_JOB_MAX_BUFS];
/* Shared regions with gasp (fds 3 and 4, when given): inputs arrive in one and results leave through the
 * other, page-locked here so each is one DMA with no copy through the pipe. */
static uint8_t *shm_in, *shm_out;
static size_t shm_size;

static void map_shared(void) {
  struct stat st;
  if (fstat(3, &st) || fstat(4, &st) || st.st_size <= 0) return;
  size_t n = (size_t)st.st_size;
  void *a = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, 3, 0);
  void *b = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, 4, 0);
  if (a == MAP_FAILED || b == MAP_FAILED) return;
  shm_in = a;
  shm_out = b;
  shm_size = n;
}

typedef struct {
  gasp_wire w;
  int stage, cuda_error, sticky, heartbeat_ok, regs;
  char error[256];
  double kernel_ms, load_ms, copy_ms;
} reply;

static int fail(reply *r, int stage, CUresult e) {
  r->stage = stage;
  r->cuda_error = e;
  describe(e, r->error, sizeof r->error);
  /* after the kernel ran, any failure may have left the context unusable: start afresh rather than
   * trust a list of error codes (a worker that stays broken would fail every later candidate) */
  r->sticky = is_sticky(e) || stage == GASP_RUN_SYNC || stage == GASP_RUN_COPY_OUT;
  return -1;
}

static int get_module(const gasp_job *j, CUmodule *out, reply *r) {
  for (int i = 0; i < MOD_CACHE; i++)
    if (modcache[i].mod && modcache[i].hash == j->image_hash) {
      modcache[i].used = ++use_clock;
      *out = modcache[i].mod;
      return 0;
    }
  int victim = 0;
  for (int i = 0; i < MOD_CACHE; i++) {
    if (!modcache[i].mod) { victim = i; break; }
    if (modcache[i].used < modcache[victim].used) victim = i;
  }
  if (modcache[victim].mod) cu.ModuleUnload(modcache[victim].mod);
  modcache[victim].mod = NULL;
  double t0 = now_ms();
  /* the image is copied: the driver may keep no pointer into our message buffer */
  void *copy = malloc(j->image_len + 1);
  memcpy(copy, j->image, j->image_len);
  ((char *)copy)[j->image_len] = 0;
  CUmodule m;
  CUresult e = cu.ModuleLoadDataEx(&m, copy, 0, NULL, NULL);
  free(copy);
  r->load_ms = now_ms() - t0;
  if (e) return fail(r, GASP_RUN_LOAD, e);
  modcache[victim].hash = j->image_hash;
  modcache[victim].mod = m;
  modcache[victim].used = ++use_clock;
  *out = m;
  return 0;
}

static int run_job(const gasp_job *j, reply *r, float **times) {
  CUresult e;
  CUmodule mod = NULL;
  if (get_module(j, &mod, r)) return -1;
  CUfunction fn;
  if ((e = cu.ModuleGetFunction(&fn, mod, j->kernel))) return fail(r, GASP_RUN_FUNCTION, e);
  cu.FuncGetAttribute(&r->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
  /* the launch reads as many argument pointers as the kernel declares: a kernel with more parameters
   * than the job has would read past our array */
  size_t po, ps;
  /* only when the call answers for a parameter the kernel surely has: if it cannot (older driver, an
   * unexpected refusal) skip the check rather than fail correct kernels */
  if (cu.FuncGetParamInfo && j->nparams && cu.FuncGetParamInfo(fn, 0, &po, &ps) == 0) {
    for (uint32_t i = 0; i < j->nparams; i++) {
      size_t want = j->params[i].is_buf ? 8 : j->params[i].size;
      if (cu.FuncGetParamInfo(fn, i, &po, &ps) || ps != want) {
        r->stage = GASP_RUN_FUNCTION;
        snprintf(r->error, sizeof r->error, "kernel parameter %u is %zu bytes, the task passes %zu", i,
                 cu.FuncGetParamInfo(fn, i, &po, &ps) ? (size_t)0 : ps, want);
        return -1;
      }
    }
    if (cu.FuncGetParamInfo(fn, j->nparams, &po, &ps) == 0) {
      r->stage = GASP_RUN_FUNCTION;
      snprintf(r->error, sizeof r->error, "kernel declares more than the task's %u parameters", j->nparams);
      return -1;
    }
  }
  if (j->shared_bytes > 48 * 1024 &&
      (e = cu.FuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)j->shared_bytes)))
    return fail(r, GASP_RUN_LAUNCH, e);
  /* lay the buffers out in one arena, each 256-byte aligned */
  size_t off[GASP_JOB_MAX_BUFS];
  size_t total = gasp_job_layout(j, off);
  if (j->shm && total > shm_size) {
    r->stage = GASP_RUN_PROTOCOL;
    snprintf(r->error, sizeof r->error, "job of %zu bytes exceeds the shared region of %zu", total, shm_size);
    return -1;
  }
  if (total > arena_size) {
    if (arena) cu.MemFree(arena);
    arena = 0;
    size_t want = total < (64u << 20) ? (64u << 20) : total;
    if ((e = cu.MemAlloc(&arena, want))) {
      arena_size = 0;
      return fail(r, GASP_RUN_ALLOC, e);
    }
    arena_size = want;
  }
  double c0 = now_ms();
  for (uint32_t i = 0; i < j->nbufs; i++) buf_off[i] = off[i];
  if (j->shm) {
    if (total && (e = cu.MemcpyHtoD(arena, shm_in, total))) return fail(r, GASP_RUN_COPY_IN, e);
  } else {
    if (total > staging_size) {
      if (staging) cu.MemFreeHost(staging);
      staging = NULL;
      size_t want = total < (64u << 20) ? (64u << 20) : total;
      if ((e = cu.MemAllocHost((void **)&staging, want))) {
        staging_size = 0;
        return fail(r, GASP_RUN_ALLOC, e);
      }
      staging_size = want;
    }
    for (uint32_t i = 0; i < j->nbufs; i++) memcpy(staging + off[i], j->bufs[i].data, j->bufs[i].size + 2 * j->bufs[i].guard);
    if (total && (e = cu.MemcpyHtoD(arena, staging, total))) return fail(r, GASP_RUN_COPY_IN, e);
  }
  r->copy_ms = now_ms() - c0;
  CUdeviceptr ptrs[GASP_JOB_MAX_PARAMS];
  uint64_t vals[GASP_JOB_MAX_PARAMS];
  void *args[GASP_JOB_MAX_PARAMS];
  for (uint32_t i = 0; i < j->nparams; i++) {
    if (j->params[i].is_buf) {
      ptrs[i] = arena + off[j->params[i].buf] + j->bufs[j->params[i].buf].guard;
      args[i] = &ptrs[i];
    } else {
      vals[i] = j->params[i].bits; /* little-endian: a 4-byte scalar is the low half */
      args[i] = &vals[i];
    }
  }
  uint64_t zero = 0;
  if ((e = cu.MemcpyHtoD(hb_ptr, &zero, 8))) return fail(r, GASP_RUN_COPY_IN, e);
  CUdeviceptr hb_arg0 = hb_ptr;
  uint64_t hb_arg1 = j->nonce;
  void *hb_args[2] = {&hb_arg0, &hb_arg1};

  if (j->reps == 0) {
    cu.EventRecord(ev[0], NULL);
    e = cu.LaunchKernel(fn, j->grid[0], j->grid[1], j->grid[2], j->block[0], j->block[1], j->block[2],
                        j->shared_bytes, NULL, args, NULL);
    if (e) return fail(r, GASP_RUN_LAUNCH, e);
    cu.EventRecord(ev[1], NULL);
    if ((e = cu.LaunchKernel(hb_fn, 1, 1, 1, 1, 1, 1, 0, NULL, hb_args, NULL))) return fail(r, GASP_RUN_LAUNCH, e);
    if ((e = cu.CtxSynchronize())) return fail(r, GASP_RUN_SYNC, e);
    float ms = 0;
    cu.EventElapsedTime(&ms, ev[0], ev[1]);
    r->kernel_ms = ms;
    uint64_t hb = 0;
    if ((e = cu.MemcpyDtoH(&hb, hb_ptr, 8))) return fail(r, GASP_RUN_COPY_OUT, e);
    r->heartbeat_ok = hb == j->nonce;
    if (!r->heartbeat_ok) {
      r->stage = GASP_RUN_HEARTBEAT;
      r->sticky = 1;
      snprintf(r->error, sizeof r->error, "heartbeat read 0x%llx, expected 0x%llx", (unsigned long long)hb,
               (unsigned long long)j->nonce);
      return -1;
    }
    c0 = now_ms();
    if (total && (e = cu.MemcpyDtoH(j->shm ? shm_out : staging, arena, total))) return fail(r, GASP_RUN_COPY_OUT, e);
    r->copy_ms += now_ms() - c0;
    return 0;
  }
  /* timed series */
  if (j->flush_l2 && !flush_buf && (e = cu.MemAlloc(&flush_buf, flush_size))) return fail(r, GASP_RUN_ALLOC, e);
  *times = calloc(j->reps, sizeof **times);
  for (uint32_t k = 0; k < j->warmup + j->reps; k++) {
    if (j->flush_l2) cu.MemsetD8Async(flush_buf, (unsigned char)k, flush_size, NULL);
    cu.EventRecord(ev[0], NULL);
    e = cu.LaunchKernel(fn, j->grid[0], j->grid[1], j->grid[2], j->block[0], j->block[1], j->block[2],
                        j->shared_bytes, NULL, args, NULL);
    if (e) return fail(r, GASP_RUN_LAUNCH, e);
    cu.EventRecord(ev[1], NULL);
    if ((e = cu.EventSynchronize(ev[1]))) return fail(r, GASP_RUN_SYNC, e);
    float ms = 0;
    cu.EventElapsedTime(&ms, ev[0], ev[1]);
    if (k >= j->warmup) (*times)[k - j->warmup] = ms;
  }
  if ((e = cu.LaunchKernel(hb_fn, 1, 1, 1, 1, 1, 1, 0, NULL, hb_args, NULL))) return fail(r, GASP_RUN_LAUNCH, e);
  if ((e = cu.CtxSynchronize())) return fail(r, GASP_RUN_SYNC, e);
  uint64_t hb = 0;
  if ((e = cu.MemcpyDtoH(&hb, hb_ptr, 8))) return fail(r, GASP_RUN_COPY_OUT, e);
  r->heartbeat_ok = hb == j->nonce;
  return 0;
}

static void send_reply(int fd, reply *r, const gasp_job *j, int ran, float *times, uint32_t ntimes) {
  gasp_wire *w = &r->w;
  w->len = 0;
  gasp_wire_u32(w, (uint32_t)r->stage);
  gasp_wire_u32(w, (uint32_t)r->cuda_error);
  gasp_wire_put(w, r->error, sizeof r->error);
  gasp_wire_u32(w, (uint32_t)r->sticky);
  gasp_wire_u32(w, (uint32_t)r->heartbeat_ok);
  gasp_wire_u32(w, (uint32_t)r->regs);
  gasp_wire_f64(w, r->kernel_ms);
  gasp_wire_f64(w, r->load_ms);
  gasp_wire_f64(w, r->copy_ms);
  gasp_wire_u32(w, ntimes);
  gasp_wire_put(w, times, ntimes * sizeof(float));
  /* buffers come back only from a clean checked launch: after a fault the memory is gone */
  uint32_t nb = (ran && j->reps == 0) ? j->nbufs : 0;
  gasp_wire_u32(w, nb);
  for (uint32_t i = 0; i < nb; i++) {
    uint64_t len = j->bufs[i].copy_back ? j->bufs[i].size + 2 * j->bufs[i].guard : 0;
    gasp_wire_u64(w, len);
    if (len && !j->shm) gasp_wire_put(w, staging + buf_off[i], len);
  }
  gasp_msg_write(fd, GASP_MSG_RESULT, w->p, w->len);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  /* stdout was the reply pipe; move it so nothing else can write there (device printf output is flushed
   * by the driver to fd 1), and send fd 1 to /dev/null */
  int in = 0, out = dup(1);
  int devnull = open("/dev/null", O_WRONLY);
  if (out < 0 || devnull < 0 || dup2(devnull, 1) < 0) return 2;
  close(devnull);
  struct rlimit core = {0, 0};
  setrlimit(RLIMIT_CORE, &core);
  struct rlimit fsz = {1u << 30, 1u << 30}; /* the driver's JIT cache writes files; nothing else should */
  setrlimit(RLIMIT_FSIZE, &fsz);

  gasp_hello hello;
  memset(&hello, 0, sizeof hello);
  hello.version = GASP_PROTO_VERSION;
  double t0 = now_ms();
  CUdevice dev = 0;
  CUcontext ctx = NULL;
  const char *devsel = getenv("GASP_DEVICE");
  int ordinal = devsel ? atoi(devsel) : 0;
  if (load_driver(hello.error, sizeof hello.error)) {
    hello.status = -1;
  } else {
    CUresult e;
    double t1 = 0, t2 = 0;
    if ((e = cu.Init(0)) || ((t1 = now_ms()), 0) || (e = cu.DeviceGet(&dev, ordinal)) ||
        (e = cu.PrimaryCtxRetain(&ctx, dev)) || (e = cu.CtxSetCurrent(ctx)) || ((t2 = now_ms()), 0)) {
      hello.status = e;
      describe(e, hello.error, sizeof hello.error);
    } else {
      cu.DeviceGetName(hello.device, sizeof hello.device, dev);
      cu.DeviceGetCount(&hello.device_count); /* visible devices (CUDA_VISIBLE_DEVICES applies) */
      cu.DeviceGetAttribute(&hello.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
      cu.DeviceGetAttribute(&hello.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
      cu.DeviceGetAttribute(&hello.sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
      CUmodule hm;
      if ((e = cu.ModuleLoadDataEx(&hm, heartbeat_ptx, 0, NULL, NULL)) ||
          (e = cu.ModuleGetFunction(&hb_fn, hm, "gasp_heartbeat")) || (e = cu.MemAlloc(&hb_ptr, 256)) ||
          (e = cu.EventCreate(&ev[0], 0)) || (e = cu.EventCreate(&ev[1], 0))) {
        hello.status = e;
        describe(e, hello.error, sizeof hello.error);
      }
      map_shared();
      /* page-lock the shared regions; if the driver refuses, copies still work, only slower */
      if (shm_size) {
        cu.MemHostRegister(shm_in, shm_size, 0);
        cu.MemHostRegister(shm_out, shm_size, 0);
      }
      hello.cuinit_ms = t1 - t0;
      hello.ctx_ms = t2 - t1;
      hello.module_ms = now_ms() - t2;
    }
  }
  hello.init_ms = now_ms() - t0;
  if (gasp_msg_write(out, GASP_MSG_HELLO, &hello, sizeof hello)) return 2;
  if (hello.status) return 1;

  gasp_wire in_w;
  gasp_wire_init(&in_w);
  reply r;
  memset(&r, 0, sizeof r);
  gasp_wire_init(&r.w);
  for (;;) {
    gasp_msg_hdr h;
    if (gasp_msg_read(in, &h, &in_w)) return 0; /* parent gone */
    if (h.type == GASP_MSG_QUIT) return 0;
    if (h.type == GASP_MSG_CRASH) abort();
    if (h.type != GASP_MSG_RUN) continue;
    gasp_job j;
    gasp_wire w = r.w;
    memset(&r, 0, sizeof r);
    r.w = w;
    float *times = NULL;
    int ran = 0;
    if (gasp_job_decode(&in_w, &j)) {
      r.stage = GASP_RUN_PROTOCOL;
      snprintf(r.error, sizeof r.error, "malformed job");
    } else {
      ran = run_job(&j, &r, &times) == 0;
    }
    send_reply(out, &r, &j, ran, times, ran && j.reps ? j.reps : 0);
    free(times);
    if (r.sticky) return 3; /* the context is lost; gasp starts another worker */
  }
}
