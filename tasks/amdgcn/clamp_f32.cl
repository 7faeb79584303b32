/* clamp_f32 (L1): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void clamp_f32(__global const float* x, __global const float* lo, __global const float* hi, __global float* d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = fminf(fmaxf(x[i], lo[i]), hi[i]);
}
