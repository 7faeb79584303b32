/* translate_hash32 (L7): the OpenCL C reference for the AMD targets, from the task's CUDA reference. */
#include "gasp_amd.h"

static unsigned hash32(unsigned x, unsigned i) {
  x ^= i * 0x9E3779B9u;
  x ^= x >> 16;
  x *= 0x85EBCA6Bu;
  x ^= x >> 13;
  x *= 0xC2B2AE35u;
  x ^= x >> 16;
  return x;
}
KERNEL void translate_hash32(__global const unsigned* in, __global unsigned* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = hash32(in[i], i);
}
