/* collatz_steps (L3): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void collatz_steps(__global const unsigned* in, __global unsigned* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned v = in[i], s = 0;
    while (v != 1u && s < 1000u) {
      v = (v & 1u) ? 3u * v + 1u : v >> 1;
      s++;
    }
    out[i] = s;
  }
}
