/* popc_b32 (L0): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void popc_b32(__global const unsigned* a, __global unsigned* d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = (unsigned)__popc(a[i]);
}
