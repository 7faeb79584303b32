/* saxpy (L2): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void saxpy(__global const float* x, __global const float* y, __global float* out, float alpha, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __fmaf_rn(alpha, x[i], y[i]);
}
