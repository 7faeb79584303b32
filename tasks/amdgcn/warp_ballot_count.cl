/* warp_ballot_count (L4): the OpenCL C reference for the AMD targets, from the task's CUDA reference; the
 * shuffles and the ballot are gasp_amd.h's, over groups of 32 work-items on wave32 and wave64 alike. */
#include "gasp_amd.h"

KERNEL void warp_ballot_count(__global const int* in, __global unsigned* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int p = i < n && in[i] > 0;
  unsigned b = __ballot_sync(0xffffffffu, p);
  if ((threadIdx.x & 31u) == 0u && i < n) out[i >> 5] = (unsigned)__popc(b);
}
