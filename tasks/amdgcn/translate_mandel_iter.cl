/* translate_mandel_iter (L7): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

static unsigned mandel(float cx, float cy) {
  float x = 0.0f, y = 0.0f;
  unsigned k = 0;
  while (k < 256u) {
    float xx = __fmul_rn(x, x), yy = __fmul_rn(y, y);
    if (__fadd_rn(xx, yy) > 4.0f) break;
    float xy = __fmul_rn(x, y);
    y = __fadd_rn(__fadd_rn(xy, xy), cy);
    x = __fadd_rn(__fsub_rn(xx, yy), cx);
    k++;
  }
  return k;
}
KERNEL void translate_mandel_iter(__global const float* cx, __global const float* cy, __global unsigned* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mandel(cx[i], cy[i]);
}
