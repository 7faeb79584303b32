/* pow_int (L3): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void pow_int(__global const unsigned* base, __global const unsigned* ex, __global unsigned* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned b = base[i], e = ex[i], r = 1u;
    while (e) {
      if (e & 1u) r *= b;
      b *= b;
      e >>= 1;
    }
    out[i] = r;
  }
}
