/* row_sum (L3): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void row_sum(__global const float* in, __global float* out, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (unsigned c = 0; c < cols; c++) s += in[r * cols + c];
    out[r] = s;
  }
}
