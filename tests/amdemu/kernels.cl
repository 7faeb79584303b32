/* Test kernels for the AMD emulator (tests/unit/test_amdemu_kernels.c): compiled by clang-19 at test time for
 * gfx900, gfx1030 and gfx1100. Index with the workgroup builtins: get_global_id needs the dispatch packet. */
#define GID (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())

__kernel void vadd(__global const float *a, __global const float *b, __global float *c, uint count) {
  uint i = GID;
  if (i < count) c[i] = a[i] + b[i];
}

__kernel void saxpy(float alpha, __global const float *x, __global float *y, uint count) {
  uint i = GID;
  if (i < count) y[i] = alpha * x[i] + y[i];
}

/* Block sum of 256 elements per group through LDS with barriers. */
__kernel void reduce(__global const float *in, __global float *out) {
  __local float tile[256];
  uint t = __builtin_amdgcn_workitem_id_x();
  uint g = __builtin_amdgcn_workgroup_id_x();
  tile[t] = in[g * 256u + t];
  __builtin_amdgcn_s_barrier();
  for (uint s = 128; s > 0; s >>= 1) {
    if (t < s) tile[t] += tile[t + s];
    __builtin_amdgcn_s_barrier();
  }
  if (t == 0) out[g] = tile[0];
}

/* 16x16 tiles, group (16,16), matrix rows x cols. */
__kernel void transpose(__global const int *in, __global int *out, uint rows, uint cols) {
  __local int tile[16][17];
  uint tx = __builtin_amdgcn_workitem_id_x(), ty = __builtin_amdgcn_workitem_id_y();
  uint bx = __builtin_amdgcn_workgroup_id_x(), by = __builtin_amdgcn_workgroup_id_y();
  uint x = bx * 16 + tx, y = by * 16 + ty;
  if (x < cols && y < rows) tile[ty][tx] = in[y * cols + x];
  __builtin_amdgcn_s_barrier();
  x = by * 16 + tx; y = bx * 16 + ty;
  if (x < rows && y < cols) out[y * rows + x] = tile[tx][ty];
}

/* Divergent branch: odd and even lanes take different paths with a loop of data-dependent length. */
__kernel void diverge(__global const int *in, __global int *out, uint count) {
  uint i = GID;
  if (i >= count) return;
  int v = in[i];
  int r;
  if (v & 1) {
    r = 0;
    for (int k = 0; k < (v & 15); k++) r += k * v;
  } else {
    r = (v >> 1) ^ 0x55;
  }
  out[i] = r;
}

/* The dispatch packet (hsa_kernel_dispatch_packet_t) through the dispatch pointer: workgroup_size_x (u16 at
 * byte 4) and grid_size_x (u32 at byte 12), what get_local_size/get_global_size read under code object v4. */
__kernel void dispatch(__global uint *out) {
  __constant ushort *p16 = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
  __constant uint *p32 = (__constant uint *)__builtin_amdgcn_dispatch_ptr();
  uint i = __builtin_amdgcn_workgroup_id_x() * p16[2] + __builtin_amdgcn_workitem_id_x();
  out[i] = p16[2] * 100000u + p32[3];
}
