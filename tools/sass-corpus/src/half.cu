// Half and bfloat16: HADD2, HMUL2, HFMA2, HSETP2, HMNMX2, F2F/F2FP packing.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void half_ops(const __half2 *a, const __half2 *b, const __half2 *c, __half2 *out,
                                    __half *hs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 x = a[i], y = b[i], z = c[i];
    __half2 r = __hadd2(x, y);
    r = __hmul2(r, z);
    r = __hfma2(x, y, r);
    r = __hsub2(r, x);
    r = __hfma2_sat(r, y, z);
    r = __hadd2_sat(r, x);
    r = __hmax2(r, y);
    r = __hmin2(r, z);
    r = __hneg2(r);
    r = __habs2(r);
    r = __h2div(r, y);
    r = h2sqrt(r);
    r = h2exp(r);
    r = h2rcp(r);
    __half s = __hadd(__low2half(r), __high2half(x));
    s = __hmul(s, __float2half(1.5f));
    s = __hfma(s, s, __int2half_rn(i));
    if (__hgt(s, __low2half(y)))
        s = __hsub(s, __float2half_rz(0.1f));
    r = __hbge2(r, x) ? r : z;
    r = __hadd2(r, __float22half2_rn(make_float2(__half2float(s), 2.0f)));
    hs[i] = s;
    out[i] = r;
}

extern "C" __global__ void bf16_ops(const __nv_bfloat162 *a, const __nv_bfloat162 *b, __nv_bfloat162 *out,
                                    float *f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat162 x = a[i], y = b[i];
    __nv_bfloat162 r = __hadd2(x, y);
    r = __hmul2(r, y);
    r = __hfma2(x, y, r);
    r = __hmax2(r, x);
    r = __hmin2(r, y);
    r = __hneg2(r);
    f[i] = __bfloat162float(r.x) + __low2float(x) + __bfloat162float(__float2bfloat16_rn(f[i]));
    out[i] = __floats2bfloat162_rn(f[i], __high2float(r));
}
