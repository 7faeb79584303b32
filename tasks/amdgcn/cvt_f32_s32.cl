/* cvt_f32_s32 (L0): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void cvt_f32_s32(__global const int* a, __global float* d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = __int2float_rn(a[i]);
}
