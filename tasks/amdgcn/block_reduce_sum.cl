/* block_reduce_sum (L5): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void block_reduce_sum(__global const float* in, __global float* out, unsigned n) {
  __local float s[256];
  unsigned t = threadIdx.x, i = blockIdx.x * 256u + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned o = 128; o > 0; o >>= 1) {
    if (t < o) s[t] += s[t + o];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
