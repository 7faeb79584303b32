/* vector_add (L2): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void vector_add(__global const float* a, __global const float* b, __global float* c, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
