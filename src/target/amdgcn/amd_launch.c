/* One trial of an AMD kernel on the functional emulator (emu/emu.h): the kernel-argument segment laid out from
 * the code object's metadata (explicit arguments from the task, hidden ones from the launch geometry), every
 * array buffer a region that includes its guard bytes, so that a write there is judged out-of-bounds later
 * exactly as on a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd.h"
#include "emu/emu.h" /* the interface is fixed; its implementation may not be built in (CMakeLists.txt) */

/* Device addresses: each buffer (with guards) at its own 1 MiB-aligned window far from 0, so that a null or
 * small pointer is an illegal address and buffers never touch. */
#define DEVICE_BASE 0x100000000ull

int gasp_amd_emulator_built(void) {
#ifdef GASP_HAVE_AMD_EMU
  return 1;
#else
  return 0;
#endif
}

int gasp_amd_emulate(const gasp_binary *bin, const gasp_task *task, const gasp_trial_shape *sh, uint8_t *const bufs[],
                     const uint64_t sizes[], uint64_t guard, gasp_class *cls, char *detail, size_t detail_cap,
                     uint64_t *wave_instructions) {
  *wave_instructions = 0;
  const gasp_amd_layout *lay = bin->launch;
  if (!lay) {
    *cls = GASP_CLASS_ERROR;
    snprintf(detail, detail_cap, "the binary carries no AMD launch layout");
    return 0;
  }
  uint8_t *ka = calloc(1, lay->kernarg_size ? lay->kernarg_size : 8);
  gasp_emu_region regions[GASP_MAX_PARAMS];
  uint64_t addr[GASP_MAX_PARAMS] = {0};
  int nreg = 0;
  uint64_t next = DEVICE_BASE;
  for (int i = 0; i < task->nparams; i++) {
    if (task->params[i].role == GASP_ROLE_SCALAR) continue;
    uint64_t total = sizes[i] + 2 * guard;
    regions[nreg].base = next;
    regions[nreg].host = bufs[i];
    regions[nreg].size = total;
    addr[i] = next + guard;
    nreg++;
    next += (total + (1u << 20) + 0xfffff) & ~0xfffffull;
  }
  int k = 0;
  for (int a = 0; a < lay->nargs; a++) {
    uint64_t v = 0;
    uint32_t g[3] = {sh->grid[0], sh->grid[1], sh->grid[2]}, b[3] = {sh->block[0], sh->block[1], sh->block[2]};
    switch (lay->args[a].kind) {
    case GASP_AMD_ARG_BUFFER:
    case GASP_AMD_ARG_VALUE: {
      if (k >= task->nparams) break;
      const gasp_param *p = &task->params[k];
      if (p->role != GASP_ROLE_SCALAR) v = addr[k];
      else if (p->type == GASP_DT_F32) {
        float f = (float)sh->scalar[k].f;
        uint32_t u;
        memcpy(&u, &f, 4);
        v = u;
      } else if (p->type == GASP_DT_F64) memcpy(&v, &sh->scalar[k].f, 8);
      else v = (uint64_t)sh->scalar[k].i;
      k++;
      break;
    }
    case GASP_AMD_ARG_BLOCK_COUNT_X: case GASP_AMD_ARG_BLOCK_COUNT_Y: case GASP_AMD_ARG_BLOCK_COUNT_Z:
      v = g[lay->args[a].kind - GASP_AMD_ARG_BLOCK_COUNT_X];
      break;
    case GASP_AMD_ARG_GROUP_SIZE_X: case GASP_AMD_ARG_GROUP_SIZE_Y: case GASP_AMD_ARG_GROUP_SIZE_Z:
      v = b[lay->args[a].kind - GASP_AMD_ARG_GROUP_SIZE_X];
      break;
    case GASP_AMD_ARG_REMAINDER_X: case GASP_AMD_ARG_REMAINDER_Y: case GASP_AMD_ARG_REMAINDER_Z:
      v = 0; /* grids are whole workgroups: no partial group (HSA: remainder = grid size % group size) */
      break;
    case GASP_AMD_ARG_GRID_DIMS: v = g[2] > 1 || b[2] > 1 ? 3 : g[1] > 1 || b[1] > 1 ? 2 : 1; break;
    case GASP_AMD_ARG_DYNAMIC_LDS: v = sh->shared_bytes; break;
    default: v = 0;
    }
    uint32_t size = lay->args[a].size <= 8 ? lay->args[a].size : 8;
    if (lay->args[a].offset + size <= lay->kernarg_size) memcpy(ka + lay->args[a].offset, &v, size); /* little endian */
  }
  uint32_t explicit_end = 0;
  for (int a = 0; a < lay->nargs; a++)
    if ((lay->args[a].kind == GASP_AMD_ARG_BUFFER || lay->args[a].kind == GASP_AMD_ARG_VALUE) &&
        lay->args[a].offset + lay->args[a].size > explicit_end)
      explicit_end = lay->args[a].offset + lay->args[a].size;
  /* a real AMD GPU, when present, runs the same code object (hip.c; untested here); GASP_AMD_NO_HIP=1 keeps the
   * emulator */
  const char *no_hip = getenv("GASP_AMD_NO_HIP");
  if (!(no_hip && *no_hip == '1') && gasp_amd_hip_available(lay->mcpu, NULL, 0)) {
    int rc = gasp_amd_hip_run(bin, task, sh, ka, explicit_end, bufs, sizes, guard, cls, detail, detail_cap);
    if (rc != 1) {
      free(ka);
      return rc;
    }
  }
#ifndef GASP_HAVE_AMD_EMU
  free(ka);
  (void)regions; (void)nreg;
  *cls = GASP_CLASS_SKIPPED;
  snprintf(detail, detail_cap, "the AMD emulator is not built into this gasp (src/target/amdgcn/emu has no sources yet) "
                               "and no AMD GPU is present: checked and assembled only, not run");
  return -1;
#else
  gasp_emu_launch l;
  memset(&l, 0, sizeof l);
  l.mcpu = lay->mcpu;
  l.code_object = bin->data;
  l.code_object_len = bin->len;
  l.kernel = lay->kernel;
  memcpy(l.grid_groups, sh->grid, sizeof l.grid_groups);
  memcpy(l.group_size, sh->block, sizeof l.group_size);
  l.kernarg = ka;
  l.kernarg_len = lay->kernarg_size;
  l.regions = regions;
  l.nregions = nreg;
  l.dynamic_lds = sh->shared_bytes;
  gasp_emu_result r;
  memset(&r, 0, sizeof r);
  int rc = gasp_emu_run(&l, &r);
  free(ka);
  *wave_instructions = r.wave_instructions;
  if (rc) {
    *cls = GASP_CLASS_ERROR;
    snprintf(detail, detail_cap, "emulator refused the launch: %s", r.detail);
    return 0;
  }
  *cls = r.cls;
  snprintf(detail, detail_cap, "%s", r.detail);
  return 0;
#endif
}
