// Double precision: DADD, DMUL, DFMA, DSETP, DMNMX, MUFU.RCP64H/RSQ64H, F2F.F64.
extern "C" __global__ void double_ops(const double *a, const double *b, const double *c, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i], y = b[i], z = c[i];
    double r = x + y;
    r += x * y - z;
    r += fma(x, y, z);
    r += __dadd_rn(x, y) + __dadd_rz(x, y) + __dadd_rd(x, y) + __dadd_ru(x, y);
    r += __dmul_rn(x, y) + __dmul_rz(x, y) + __dmul_ru(x, y);
    r += __fma_rn(x, y, z) + __fma_rz(x, y, z) + __fma_rd(x, y, z);
    r += x / y + __drcp_rn(z) + __ddiv_rz(x, y);
    r += sqrt(x) + rsqrt(y) + __dsqrt_rn(z);
    r += fmin(x, y) + fmax(x, z) + fabs(z);
    r += floor(x) + ceil(y) + trunc(z) + rint(x) + round(y);
    r += (x < y) ? x : z;
    r += (x >= y || z != x) ? 1.0 : -2.5;
    r += isnan(x) ? 3.0 : 0.0;
    r += x * 0.5 + y * 1.0e100 + z * -3.75 + 1.1;
    r += exp(x) + log(y) + sin(z) + pow(x, y);
    out[i] = r;
}
