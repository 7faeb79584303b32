/* mad_s32 (L1): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void mad_s32(__global const int* a, __global const int* b, __global const int* c, __global int* d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = (int)((unsigned)a[i] * (unsigned)b[i] + (unsigned)c[i]);
}
