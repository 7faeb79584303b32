/* The hardware path for users with an AMD GPU: the HIP runtime, opened at run time (dlopen of libamdhip64.so, never
 * linked), loads the same .hsaco the emulator runs (hipModuleLoadData), launches it with the explicit kernel
 * arguments (the runtime appends the hidden ones from the code object's metadata) and copies the buffers back.
 * UNTESTED: no AMD GPU exists on our machines (amd-r300-facts.md); this file is compiled in CI only. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd.h"

typedef int hip_err;
typedef struct {
  void *lib;
  hip_err (*init)(unsigned);
  hip_err (*device_count)(int *);
  hip_err (*module_load_data)(void **, const void *);
  hip_err (*module_unload)(void *);
  hip_err (*module_get_function)(void **, void *, const char *);
  hip_err (*malloc_)(void **, size_t);
  hip_err (*free_)(void *);
  hip_err (*memcpy_)(void *, const void *, size_t, int);
  hip_err (*launch)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **, void **);
  hip_err (*sync)(void);
  const char *(*error_string)(hip_err);
  int devices;
} hip_api;

static hip_api hip;
static int hip_state; /* 0 untried, 1 usable, -1 not */
static char hip_why[200];
static pthread_mutex_t hip_lock = PTHREAD_MUTEX_INITIALIZER;

static int hip_open(void) {
  pthread_mutex_lock(&hip_lock);
  if (hip_state == 0) {
    hip_state = -1;
    hip.lib = dlopen("libamdhip64.so", RTLD_NOW | RTLD_LOCAL);
    if (!hip.lib) hip.lib = dlopen("libamdhip64.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!hip.lib) hip.lib = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!hip.lib) {
      snprintf(hip_why, sizeof hip_why, "libamdhip64.so not found (no ROCm HIP runtime)");
    } else {
#define SYM(field, name) *(void **)&hip.field = dlsym(hip.lib, name)
      SYM(init, "hipInit"); SYM(device_count, "hipGetDeviceCount"); SYM(module_load_data, "hipModuleLoadData");
      SYM(module_unload, "hipModuleUnload"); SYM(module_get_function, "hipModuleGetFunction"); SYM(malloc_, "hipMalloc");
      SYM(free_, "hipFree"); SYM(memcpy_, "hipMemcpy"); SYM(launch, "hipModuleLaunchKernel");
      SYM(sync, "hipDeviceSynchronize"); SYM(error_string, "hipGetErrorString");
#undef SYM
      if (!hip.init || !hip.device_count || !hip.module_load_data || !hip.module_get_function || !hip.malloc_ ||
          !hip.free_ || !hip.memcpy_ || !hip.launch || !hip.sync || !hip.module_unload)
        snprintf(hip_why, sizeof hip_why, "libamdhip64.so lacks a needed entry point");
      else if (hip.init(0) || hip.device_count(&hip.devices) || hip.devices < 1)
        snprintf(hip_why, sizeof hip_why, "HIP runtime found but no AMD GPU (needs /dev/kfd)");
      else
        hip_state = 1;
    }
  }
  int ok = hip_state == 1;
  pthread_mutex_unlock(&hip_lock);
  return ok;
}

int gasp_amd_hip_available(const char *mcpu, char *why, size_t cap) {
  (void)mcpu; /* a code object for another GPU fails in hipModuleLoadData, which the run reports */
  int ok = hip_open();
  if (!ok && why) snprintf(why, cap, "%s", hip_why);
  return ok;
}

static const char *hip_str(hip_err e) { return hip.error_string ? hip.error_string(e) : "HIP error"; }

int gasp_amd_hip_run(const gasp_binary *bin, const gasp_task *task, const gasp_trial_shape *sh, const uint8_t *kernarg,
                     uint32_t explicit_size, uint8_t *const bufs[], const uint64_t sizes[], uint64_t guard,
                     gasp_class *cls, char *detail, size_t cap) {
  const gasp_amd_layout *lay = bin->launch;
  void *mod = NULL, *fn = NULL, *dev[GASP_MAX_PARAMS] = {0};
  uint8_t *args = malloc(explicit_size ? explicit_size : 8);
  memcpy(args, kernarg, explicit_size);
  hip_err e = hip.module_load_data(&mod, bin->data);
  *cls = GASP_CLASS_ERROR;
  if (e == 209) { /* hipErrorNoBinaryForGpu: the GPU here is another generation; the caller emulates instead */
    free(args);
    return 1;
  }
  if (e) {
    *cls = GASP_CLASS_LOAD;
    snprintf(detail, cap, "hipModuleLoadData: %s", hip_str(e));
    goto out;
  }
  if ((e = hip.module_get_function(&fn, mod, lay->kernel))) {
    *cls = GASP_CLASS_LOAD;
    snprintf(detail, cap, "hipModuleGetFunction(%s): %s", lay->kernel, hip_str(e));
    goto out;
  }
  for (int i = 0, k = 0; i < task->nparams; i++) {
    if (task->params[i].role == GASP_ROLE_SCALAR) continue;
    uint64_t total = sizes[i] + 2 * guard;
    if ((e = hip.malloc_(&dev[i], total)) || (e = hip.memcpy_(dev[i], bufs[i], total, 1 /* host to device */))) {
      snprintf(detail, cap, "hipMalloc/hipMemcpy: %s", hip_str(e));
      goto out;
    }
    /* the kernel's pointer is past the front guard: patch it into the explicit arguments */
    uint64_t p = (uint64_t)(uintptr_t)dev[i] + guard;
    memcpy(args + lay->args[i].offset, &p, 8);
    k++;
  }
  size_t asize = explicit_size;
  void *extra[] = {(void *)1 /* HIP_LAUNCH_PARAM_BUFFER_POINTER */, args, (void *)2 /* HIP_LAUNCH_PARAM_BUFFER_SIZE */,
                   &asize, (void *)3 /* HIP_LAUNCH_PARAM_END */};
  e = hip.launch(fn, sh->grid[0], sh->grid[1], sh->grid[2], sh->block[0], sh->block[1], sh->block[2], sh->shared_bytes,
                 NULL, NULL, extra);
  if (!e) e = hip.sync();
  if (e) {
    *cls = e == 700 ? GASP_CLASS_ILLEGAL_ADDRESS : e == 702 ? GASP_CLASS_TIMEOUT : GASP_CLASS_TRAP;
    snprintf(detail, cap, "HIP launch: %s (%d)", hip_str(e), e);
    goto out;
  }
  for (int i = 0; i < task->nparams; i++)
    if (dev[i] && (e = hip.memcpy_(bufs[i], dev[i], sizes[i] + 2 * guard, 2 /* device to host */))) {
      snprintf(detail, cap, "hipMemcpy back: %s", hip_str(e));
      goto out;
    }
  *cls = GASP_CLASS_PASS;
  detail[0] = 0;
out:
  for (int i = 0; i < GASP_MAX_PARAMS; i++)
    if (dev[i]) hip.free_(dev[i]);
  if (mod) hip.module_unload(mod);
  free(args);
  return 0;
}
