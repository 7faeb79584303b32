/* reverse_block (L5): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void reverse_block(__global const float* in, __global float* out, unsigned n) {
  __local float s[256];
  unsigned t = threadIdx.x, base = blockIdx.x * 256u, i = base + t;
  unsigned L = umin(256u, n - base);
  if (t < L) s[t] = in[i];
  __syncthreads();
  if (t < L) out[i] = s[L - 1u - t];
}
