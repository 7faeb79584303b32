// Integer datapath: IADD3, IMAD, LEA, SHF, LOP3, POPC, FLO, BREV, PRMT, IDP, IMNMX, ISETP, SEL, IABS, BMSK.
#include <stdint.h>
extern "C" __global__ void int32_ops(const int *a, const int *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i];
    unsigned ux = x, uy = y;
    int r = x + y;
    r ^= x - y;
    r += x * y;
    r += __mulhi(x, y);
    r += __umulhi(ux, uy);
    r += (y != 0) ? x / y : 0;
    r += (y != 0) ? x % y : 0;
    r += (uy != 0) ? ux / uy : 0;
    r += (uy != 0) ? ux % uy : 0;
    r += x << (y & 31);
    r += x >> (y & 31);
    r += ux >> (uy & 31);
    r += __funnelshift_l(ux, uy, x);
    r += __funnelshift_r(ux, uy, x);
    r += __funnelshift_lc(ux, uy, x);
    r += __funnelshift_rc(ux, uy, x);
    r += __popc(ux);
    r += __clz(x);
    r += __ffs(x);
    r += __brev(ux);
    r += __byte_perm(ux, uy, 0x3210 + i);
    r += __byte_perm(ux, uy, 0x5140);
    r += __dp4a(x, y, r);
    r += __dp4a(ux, uy, (unsigned)r);
    r += __dp2a_lo(x, y, r);
    r += __dp2a_hi(ux, uy, (unsigned)r);
    r += min(x, y) + max(x, y);
    r += min(ux, uy) + max(ux, uy);
    r += abs(x);
    r += __sad(x, y, 3u);
    r += __usad(ux, uy, 7u);
    r += (x & y) | (~x & 0x0f0f0f0f);
    r += (x | y) ^ (x & ~y);
    r += __hadd(x, y) + __rhadd(x, y) + __uhadd(ux, uy) + __urhadd(ux, uy);
    r += __mul24(x, y) + __umul24(ux, uy);
    r += x * 12345 + y * -7;
    r += (x > y) ? 17 : -3;
    r += (ux >= uy) ? x : y;
    r += x == 5 ? 1 : 0;
    out[i] = r;
}

extern "C" __global__ void int64_ops(const long long *a, const long long *b, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long x = a[i], y = b[i];
    unsigned long long ux = x, uy = y;
    long long r = x + y;
    r ^= x - y;
    r += x * y;
    r += __mul64hi(x, y);
    r += __umul64hi(ux, uy);
    r += (y != 0) ? x / y : 0;
    r += (uy != 0) ? (long long)(ux % uy) : 0;
    r += x << (y & 63);
    r += x >> (y & 63);
    r += (long long)(ux >> (uy & 63));
    r += __popcll(ux);
    r += __clzll(x);
    r += __ffsll(x);
    r += (long long)__brevll(ux);
    r += min(x, y) + max(ux, uy);
    r += llabs(x);
    r += (x < y) ? x : y;
    r += (long long)(int)x * (long long)(int)y;
    r += (unsigned long long)(unsigned)x * (unsigned)y;
    out[i] = r;
}

extern "C" __global__ void small_ints(const char *a, const short *b, const unsigned char *c,
                                      const unsigned short *d, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int r = a[i] + b[i] * c[i] - d[i];
    char ca = a[i] + 1;
    short sb = b[i] * 3;
    r += ca + sb;
    r += (signed char)(r >> 3);
    r += (short)(r >> 5);
    r += (unsigned char)(r * 7);
    out[i] = r;
}
