/* stencil_1d (L5): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void stencil_1d(__global const float* in, __global float* out, unsigned n) {
  __local float s[258];
  unsigned t = threadIdx.x, i = blockIdx.x * 256u + t;
  s[t + 1] = i < n ? in[i] : 0.0f;
  if (t == 0) s[0] = (i > 0u && i - 1u < n) ? in[i - 1u] : 0.0f;
  if (t == 255u) s[257] = i + 1u < n ? in[i + 1u] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = __fadd_rn(__fadd_rn(__fmul_rn(0.25f, s[t]), __fmul_rn(0.5f, s[t + 1])), __fmul_rn(0.25f, s[t + 2]));
}
