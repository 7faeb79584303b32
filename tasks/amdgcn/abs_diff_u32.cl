/* abs_diff_u32 (L1): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void abs_diff_u32(__global const unsigned* a, __global const unsigned* b, __global unsigned* d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = a[i] >= b[i] ? a[i] - b[i] : b[i] - a[i];
}
