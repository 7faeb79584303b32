/* relu_leaky (L1): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void relu_leaky(__global const float* x, __global float* d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    d[i] = v > 0.0f ? v : __fmul_rn(0.01f, v);
  }
}
