/* scale_bias (L2): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void scale_bias(__global const float* x, __global const float* scale, __global const float* bias, __global float* out,
                                      unsigned rows, unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols) {
    unsigned c = i % cols;
    out[i] = __fmaf_rn(x[i], scale[c], bias[c]);
  }
}
