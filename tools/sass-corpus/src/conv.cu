// Conversions: F2I, I2F, F2F, I2I, F2FP, with every rounding mode and width.
#include <cuda_fp16.h>
extern "C" __global__ void conversions(const float *f, const double *d, const int *s, const long long *l,
                                       float *fo, double *dof, int *io, long long *lo, unsigned short *ho, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = f[i];
    double y = d[i];
    int z = s[i];
    long long w = l[i];
    int ir = __float2int_rn(x) + __float2int_rz(x) + __float2int_rd(x) + __float2int_ru(x);
    ir += (int)__float2uint_rn(x) + (int)__float2uint_rz(x);
    ir += __double2int_rn(y) + __double2int_rz(y) + (int)__double2uint_rd(y) + __double2int_ru(y);
    ir += (char)x + (short)y + (unsigned char)x;
    long long lr = __float2ll_rn(x) + __float2ll_rz(x) + (long long)__float2ull_rd(x);
    lr += __double2ll_rn(y) + __double2ll_rz(y) + (long long)__double2ull_ru(y);
    float fr = __int2float_rn(z) + __int2float_rz(z) + __int2float_rd(z) + __int2float_ru(z);
    fr += __uint2float_rn((unsigned)z) + __ll2float_rn(w) + __ull2float_rz((unsigned long long)w);
    fr += __double2float_rn(y) + __double2float_rz(y) + __double2float_rd(y) + __double2float_ru(y);
    fr += (float)(char)z + (float)(unsigned short)z;
    double dr = __int2double_rn(z) + __uint2double_rn((unsigned)z) + __ll2double_rn(w) + __ll2double_rz(w);
    dr += __ull2double_rd((unsigned long long)w) + (double)x;
    dr += __hiloint2double(z, ir) + __double2hiint(y) + __double2loint(y);
    unsigned short h = __half_as_ushort(__float2half_rn(x)) + __half_as_ushort(__double2half(y));
    h += __half_as_ushort(__int2half_rn(z)) + (unsigned short)__half2int_rz(__ushort_as_half((unsigned short)z));
    fr += __half2float(__ushort_as_half(h));
    fr += __int_as_float(z) + (float)__float_as_int(x);
    io[i] = ir;
    lo[i] = lr;
    fo[i] = fr;
    dof[i] = dr;
    ho[i] = h;
}
