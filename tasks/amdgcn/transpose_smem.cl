/* transpose_smem (L5): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

KERNEL void transpose_smem(__global const float* in, __global float* out, unsigned rows, unsigned cols) {
  __local float tile[32][33];
  unsigned bx = blockIdx.x * 32u, by = blockIdx.y * 32u;
  unsigned x = bx + threadIdx.x;
  for (unsigned k = 0; k < 32u; k += 8u) {
    unsigned y = by + threadIdx.y + k;
    if (x < cols && y < rows) tile[threadIdx.y + k][threadIdx.x] = in[y * cols + x];
  }
  __syncthreads();
  x = by + threadIdx.x;
  for (unsigned k = 0; k < 32u; k += 8u) {
    unsigned y = bx + threadIdx.y + k;
    if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y + k];
  }
}
