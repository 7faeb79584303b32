/* dot3 (L1): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void dot3(__global const float* ax, __global const float* ay, __global const float* az, __global const float* bx,
                                __global const float* by, __global const float* bz, __global float* d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = __fmul_rn(ax[i], bx[i]);
    t = __fmaf_rn(ay[i], by[i], t);
    d[i] = __fmaf_rn(az[i], bz[i], t);
  }
}
