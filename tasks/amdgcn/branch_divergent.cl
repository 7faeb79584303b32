/* branch_divergent (L3): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void branch_divergent(__global const float* x, __global float* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    if ((i & 1u) == 0u) out[i] = __fmul_rn(v, v);
    else out[i] = __fsqrt_rn(fabsf(v));
  }
}
