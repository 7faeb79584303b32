/* warp_max (L4): the OpenCL C reference for the AMD targets, from the task's CUDA reference; the
 * shuffles and the ballot are gasp_amd.h's, over groups of 32 work-items on wave32 and wave64 alike. */
#include "gasp_amd.h"
static inline int imax(int a, int b) { return a > b ? a : b; } /* one shuffle, evaluated once */

KERNEL void warp_max(__global const int* in, __global int* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : (int)0x80000000u;
  for (int o = 16; o > 0; o >>= 1) v = imax(v, __shfl_xor_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31u) == 0u && i < n) out[i >> 5] = v;
}
