/* translate_smoothstep (L7): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

static float smoothstep(float e0, float e1, float x) {
  float t = __fdiv_rn(__fsub_rn(x, e0), __fsub_rn(e1, e0));
  t = fminf(fmaxf(t, 0.0f), 1.0f);
  return __fmul_rn(__fmul_rn(t, t), __fsub_rn(3.0f, __fmul_rn(2.0f, t)));
}
KERNEL void translate_smoothstep(__global const float* x, __global float* out, float e0, float e1, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = smoothstep(e0, e1, x[i]);
}
