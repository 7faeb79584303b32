/* warp_inclusive_scan (L4): the OpenCL C reference for the AMD targets, from the task's CUDA reference; the
 * shuffles and the ballot are gasp_amd.h's, over groups of 32 work-items on wave32 and wave64 alike. */
#include "gasp_amd.h"

KERNEL void warp_inclusive_scan(__global const int* in, __global int* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31u;
  unsigned v = i < n ? (unsigned)in[i] : 0u;
  for (unsigned o = 1; o < 32u; o <<= 1) {
    unsigned t = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += t;
  }
  if (i < n) out[i] = (int)v;
}
