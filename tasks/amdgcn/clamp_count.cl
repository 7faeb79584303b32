/* clamp_count (L3): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void clamp_count(__global const float* in, __global unsigned* out, float thresh, unsigned n) {
  unsigned T = gridDim.x * blockDim.x;
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned c = 0;
  for (unsigned i = t; i < n; i += T) c += in[i] > thresh ? 1u : 0u;
  out[t] = c;
}
