/* Coverage kernels for the AMD emulator (tests/unit/test_amdemu_coverage.c): one per kind of task in the
 * suite, written the way a reference or a model would, compiled by clang-19 for each target at test time.
 * All share the signature (x, y, out, n) with 64 work-items per group; the test holds the CPU reference. */
#define GID (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())
#define EW(name, T, expr) \
  __kernel void name(__global const T *xs, __global const T *ys, __global T *out, uint n) { \
    uint i = GID; if (i < n) { T x = xs[i], y = ys[i]; (void)y; out[i] = (expr); } }

EW(c_abs, float, __builtin_fabsf(x))
EW(c_neg, float, -x)
EW(c_clamp, float, __builtin_fminf(__builtin_fmaxf(x, -1.0f), 1.0f))
EW(c_leaky, float, x > 0.0f ? x : 0.01f * x)
EW(c_lerp, float, x + 0.3f * (y - x))
EW(c_fma, float, __builtin_fmaf(x, y, 1.5f))
EW(c_horner, float, ((0.5f * x + 1.25f) * x - 2.0f) * x + 3.0f)
EW(c_sqrt, float, __builtin_sqrtf(__builtin_fabsf(x)))
EW(c_div, float, x / y)
EW(c_exp, float, __builtin_expf(x * 0.1f))
EW(c_log, float, __builtin_logf(__builtin_fabsf(x) + 1.0f))
EW(c_cvt, float, (float)(int)x + (float)(uint)__builtin_fabsf(x))
EW(c_smooth, float, ({ float t = __builtin_fminf(__builtin_fmaxf(x * 0.1f, 0.0f), 1.0f); t * t * (3.0f - 2.0f * t); }))
EW(c_floor, float, __builtin_floorf(x) + __builtin_ceilf(y) + __builtin_truncf(x * y) + __builtin_rintf(x - y))
EW(c_minmax, float, __builtin_fminf(x, y) * 2.0f + __builtin_fmaxf(x, y))
EW(c_popc, uint, (uint)__builtin_popcount(x) + (uint)__builtin_clz(y | 1u) + (uint)__builtin_ctz(x | 0x80000000u))
EW(c_mul_lo, int, x * y + (x >> 3) - (int)((uint)y >> 5))
EW(c_shl, uint, (x << (y & 31u)) ^ (y >> 7) ^ ((x & 0xff00ff00u) | 0x11u))
EW(c_absdiff, uint, x > y ? x - y : y - x)
EW(c_sign, int, x > 0 ? 1 : x < 0 ? -1 : 0)
EW(c_divu, uint, x / ((y & 0xffffu) + 1u) + x % ((y & 0xffu) + 3u))
EW(c_divs, int, x / ((y & 0xfff) - 2048 == 0 ? 7 : (y & 0xfff) - 2048))
EW(c_mul64, ulong, x * y + (x >> 7))

__kernel void c_pow_int(__global const int *xs, __global const int *ys, __global int *out, uint n) {
  uint i = GID;
  if (i < n) {
    int b = xs[i] % 7, e = ys[i] & 15, r = 1;
    for (int k = 0; k < e; k++) r *= b;
    out[i] = r;
  }
}

__kernel void c_collatz(__global const uint *xs, __global const uint *ys, __global uint *out, uint n) {
  uint i = GID;
  if (i < n) {
    uint v = (xs[i] & 0xffffu) + 1u, s = 0;
    while (v != 1u && s < 1000u) { v = (v & 1u) ? 3u * v + 1u : v >> 1; s++; }
    out[i] = s;
  }
}

__kernel void c_hash(__global const uint *xs, __global const uint *ys, __global uint *out, uint n) {
  uint i = GID;
  if (i < n) {
    uint h = xs[i];
    h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
    out[i] = h;
  }
}

__kernel void c_mandel(__global const float *xs, __global const float *ys, __global uint *out, uint n) {
  uint i = GID;
  if (i < n) {
    float cr = xs[i] * 0.2f, ci = ys[i] * 0.2f, zr = 0, zi = 0;
    uint k = 0;
    while (k < 64u && zr * zr + zi * zi <= 4.0f) { float t = zr * zr - zi * zi + cr; zi = 2.0f * zr * zi + ci; zr = t; k++; }
    out[i] = k;
  }
}

__kernel void c_rowsum(__global const float *xs, __global const float *ys, __global float *out, uint n) {
  uint i = GID;
  if (i < n / 16u) {
    float s = 0;
    for (uint k = 0; k < 16u; k++) s += xs[i * 16u + k];
    out[i] = s;
  }
}

/* reverse within each group of 64 through LDS */
__kernel void c_reverse(__global const int *xs, __global const int *ys, __global int *out, uint n) {
  __local int t[64];
  uint l = __builtin_amdgcn_workitem_id_x(), i = GID;
  t[l] = i < n ? xs[i] : 0;
  __builtin_amdgcn_s_barrier();
  if (i < n) out[i] = t[63u - l];
}

/* 3-point stencil with an LDS halo */
__kernel void c_stencil(__global const float *xs, __global const float *ys, __global float *out, uint n) {
  __local float t[66];
  uint l = __builtin_amdgcn_workitem_id_x(), i = GID;
  t[l + 1] = i < n ? xs[i] : 0.0f;
  if (l == 0) t[0] = i > 0 && i - 1 < n ? xs[i - 1] : 0.0f;
  if (l == 63) t[65] = i + 1 < n ? xs[i + 1] : 0.0f;
  __builtin_amdgcn_s_barrier();
  if (i < n) out[i] = 0.25f * t[l] + 0.5f * t[l + 1] + 0.25f * t[l + 2];
}

/* inclusive scan of each group of 64 in LDS (Hillis-Steele) */
__kernel void c_scan(__global const int *xs, __global const int *ys, __global int *out, uint n) {
  __local int t[64];
  uint l = __builtin_amdgcn_workitem_id_x(), i = GID;
  t[l] = i < n ? xs[i] : 0;
  __builtin_amdgcn_s_barrier();
  for (uint d = 1; d < 64u; d <<= 1) {
    int v = l >= d ? t[l - d] : 0;
    __builtin_amdgcn_s_barrier();
    t[l] += v;
    __builtin_amdgcn_s_barrier();
  }
  if (i < n) out[i] = t[l];
}

/* wave-level: ballot count, broadcast, reductions through ds_swizzle, bpermute and DPP */
#if __AMDGCN_WAVEFRONT_SIZE == 64
#define BALLOT(p) __builtin_amdgcn_ballot_w64(p)
#define POPC(b) __builtin_popcountl(b)
#else
#define BALLOT(p) __builtin_amdgcn_ballot_w32(p)
#define POPC(b) __builtin_popcount(b)
#endif
__kernel void c_ballot(__global const int *xs, __global const int *ys, __global int *out, uint n) {
  uint i = GID;
  int p = i < n && xs[i] > 0;
  int c = (int)POPC(BALLOT(p));
  if (i < n) out[i] = c + __builtin_amdgcn_readfirstlane(xs[GID & ~(__AMDGCN_WAVEFRONT_SIZE - 1u)]);
}

__kernel void c_swizzle_sum(__global const int *xs, __global const int *ys, __global int *out, uint n) {
  uint i = GID;
  int v = i < n ? xs[i] : 0;
  /* xor-butterfly within groups of 32: and_mask 0x1f, xor_mask 1, 2, 4, 8, 16 */
  v += __builtin_amdgcn_ds_swizzle(v, 0x041f);
  v += __builtin_amdgcn_ds_swizzle(v, 0x081f);
  v += __builtin_amdgcn_ds_swizzle(v, 0x101f);
  v += __builtin_amdgcn_ds_swizzle(v, 0x201f);
  v += __builtin_amdgcn_ds_swizzle(v, 0x401f);
  if (i < n) out[i] = v;
}

__kernel void c_bperm_max(__global const int *xs, __global const int *ys, __global int *out, uint n) {
  uint i = GID, lane = __builtin_amdgcn_workitem_id_x() % __AMDGCN_WAVEFRONT_SIZE;
  int v = xs[i < n ? i : 0];
  for (uint d = 1; d < __AMDGCN_WAVEFRONT_SIZE; d <<= 1) {
    int o = __builtin_amdgcn_ds_bpermute((int)(((lane ^ d)) * 4u), v);
    v = v > o ? v : o;
  }
  if (i < n) out[i] = v;
}

__kernel void c_dpp_scan(__global const int *xs, __global const int *ys, __global int *out, uint n) {
  uint i = GID;
  int v = i < n ? xs[i] : 0;
  /* inclusive scan within rows of 16 lanes: row_shr 1, 2, 4, 8 with bound_ctrl (zero fill) */
  v += __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, true);
  v += __builtin_amdgcn_update_dpp(0, v, 0x112, 0xf, 0xf, true);
  v += __builtin_amdgcn_update_dpp(0, v, 0x114, 0xf, 0xf, true);
  v += __builtin_amdgcn_update_dpp(0, v, 0x118, 0xf, 0xf, true);
  if (i < n) out[i] = v;
}

__kernel void c_atomic(__global const int *xs, __global const int *ys, __global int *out, uint n) {
  uint i = GID;
  if (i < n) __atomic_fetch_add(&out[xs[i] & 7], 1, __ATOMIC_RELAXED);
}
