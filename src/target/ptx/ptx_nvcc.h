/* nvcc on a task's CUDA reference, cached: the PTX target's reference answers and speed baseline, and the
 * SASS target's (its reference is nvcc's cubin, disassembled by gasp). */
#ifndef GASP_PTX_NVCC_H
#define GASP_PTX_NVCC_H

#include <stddef.h>

#include "../../core/diag.h"
#include "../../task/task.h"

/* Compiles the task's CUDA reference with nvcc -O3 into `kind` ("ptx" or "cubin") for `arch` ("sm_90"),
 * caching by the hash of source, arch and kind (GASP_CACHE_DIR). Returns 0 with a malloc'ed buffer, or -1
 * with a diagnostic. */
int gasp_nvcc_compile(const gasp_task *task, const char *arch, const char *kind, char **data, size_t *len,
                      gasp_diags *d);

#endif
