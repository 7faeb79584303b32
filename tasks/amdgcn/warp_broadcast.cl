/* warp_broadcast (L4): the OpenCL C reference for the AMD targets, from the task's CUDA reference; the
 * shuffles and the ballot are gasp_amd.h's, over groups of 32 work-items on wave32 and wave64 alike. */
#include "gasp_amd.h"

KERNEL void warp_broadcast(__global const float* in, __global float* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = __shfl_sync(0xffffffffu, v, 0);
  if (i < n) out[i] = v;
}
