/* horner_poly3 (L1): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void horner_poly3(__global const float* x, __global float* d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    float t = __fmaf_rn(0.5f, v, -1.25f);
    t = __fmaf_rn(t, v, 2.0f);
    d[i] = __fmaf_rn(t, v, 0.75f);
  }
}
