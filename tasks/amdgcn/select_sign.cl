/* select_sign (L1): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void select_sign(__global const float* x, __global float* d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    d[i] = v > 0.0f ? 1.0f : (v < 0.0f ? -1.0f : 0.0f);
  }
}
