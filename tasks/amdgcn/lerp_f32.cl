/* lerp_f32 (L1): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void lerp_f32(__global const float* a, __global const float* b, __global const float* t, __global float* d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = __fmaf_rn(t[i], __fsub_rn(b[i], a[i]), a[i]);
}
