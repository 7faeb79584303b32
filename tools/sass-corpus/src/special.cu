// Special registers (S2R, S2UR, CS2R) and the uniform datapath (UIADD3, UMOV, ULDC, ULEA, USHF, ULOP3, UISETP).
extern "C" __global__ void specials(unsigned *out, int n, int stride, long long base)
{
    unsigned r = threadIdx.x + threadIdx.y * 3 + threadIdx.z * 5;
    r += blockIdx.x + blockIdx.y * 7 + blockIdx.z * 11;
    r += blockDim.x + blockDim.y + blockDim.z + gridDim.x + gridDim.y + gridDim.z;
    unsigned v;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(v)); r += v;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(v)); r += v;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(v)); r += v;
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(v)); r += v;
    asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(v)); r += v;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v)); r += v;
    unsigned long long g;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g)); r += (unsigned)g;
    r += (unsigned)clock64();
    unsigned long long idx = (unsigned long long)blockIdx.x * stride + base;
    unsigned long long u2 = (unsigned long long)blockIdx.y * 0x12345 + (base >> 3);
    if (blockIdx.x * 2 + stride > 7)
        r += (unsigned)(idx ^ u2);
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (unsigned)n) out[i + idx % 5] = r;
}

extern "C" __global__ void uniform_loop(const float *a, float *out, int n, int m)
{
    float acc = 0.0f;
    for (int k = 0; k < m; k++)
        acc += a[(blockIdx.x * m + k) % n] * (float)k;
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
