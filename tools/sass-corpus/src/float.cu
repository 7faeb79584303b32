// Single precision: FADD, FMUL, FFMA, MUFU, FSETP, FMNMX, FSEL, FCHK, FSWZADD, rounding modes, saturation.
extern "C" __global__ void float_ops(const float *a, const float *b, const float *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    float r = x + y;
    r += x * y - z;
    r += fmaf(x, y, z);
    r += __fadd_rn(x, y) + __fadd_rz(x, y) + __fadd_rd(x, y) + __fadd_ru(x, y);
    r += __fmul_rn(x, y) + __fmul_rz(x, y) + __fmul_rd(x, y) + __fmul_ru(x, y);
    r += __fmaf_rn(x, y, z) + __fmaf_rz(x, y, z) + __fmaf_rd(x, y, z) + __fmaf_ru(x, y, z);
    r += __fsub_rn(x, y) + __fsub_rz(x, y);
    r += x / y;
    r += __fdividef(x, y);
    r += __fdiv_rn(x, y) + __fdiv_rz(x, y);
    r += __frcp_rn(x) + __frcp_rz(y);
    r += sqrtf(x) + rsqrtf(y) + __fsqrt_rn(z) + __fsqrt_rd(x);
    r += __expf(x) + __logf(y) + __sinf(z) + __cosf(x) + __exp10f(y) + __log2f(z) + __tanf(x);
    r += exp2f(x) + log2f(y);
    r += expf(x) + logf(y) + sinf(z) + cosf(x) + tanf(y) + powf(x, y) + atan2f(x, y);
    r += fminf(x, y) + fmaxf(x, z) + fabsf(z) + copysignf(x, y);
    r += __saturatef(x * y);
    r += floorf(x) + ceilf(y) + truncf(z) + rintf(x) + roundf(y);
    r += (x < y) ? x : z;
    r += (x >= y && z != x) ? 1.0f : -2.5f;
    r += isnan(x) ? 3.0f : 0.0f;
    r += isinf(y) ? 1.0f : 0.0f;
    r += x * 0.5f + y * 1.0e10f + z * -3.75f + 1.1f;
    r += fmaf(x, 2.0f, 0.25f);
    r += -x * y;
    r += fdimf(x, y);
    r += erff(z) + erfcf(x) + tgammaf(y);
    r += frexpf(x, (int *)&out[i]) + ldexpf(y, 3);
    out[i] = r;
}

extern "C" __global__ void float_ftz(const float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];
        out[i] = sqrtf(x) / (x + 1.0f) + __expf(x);
    }
}
