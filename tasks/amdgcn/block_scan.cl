/* block_scan (L5): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void block_scan(__global const int* in, __global int* out, unsigned n) {
  __local unsigned s[256];
  unsigned t = threadIdx.x, i = blockIdx.x * 256u + t;
  s[t] = i < n ? (unsigned)in[i] : 0u;
  __syncthreads();
  for (unsigned o = 1; o < 256u; o <<= 1) {
    unsigned v = t >= o ? s[t - o] : 0u;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (i < n) out[i] = (int)s[t];
}
