// Warp-level: SHFL, VOTE, MATCH, REDUX, activemask, syncwarp, BAR variants, named barriers.
extern "C" __global__ void warp_ops(const int *a, const float *f, int *out, float *fo, int n)
{
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int x = i < n ? a[i] : 0;
    float y = i < n ? f[i] : 0.0f;
    unsigned m = __activemask();
    int r = __shfl_sync(0xffffffff, x, 3);
    r += __shfl_sync(0xffffffff, x, t + 1);
    r += __shfl_up_sync(0xffffffff, x, 1);
    r += __shfl_down_sync(0xffffffff, x, 2);
    r += __shfl_xor_sync(0xffffffff, x, 16);
    r += __shfl_xor_sync(m, x, t & 7);
    r += __shfl_sync(0x0000ffff, x, 2, 16);
    r += __shfl_down_sync(0xffffffff, x, 4, 8);
    float fy = __shfl_xor_sync(0xffffffff, y, 1);
    double dy = __shfl_down_sync(0xffffffff, (double)y, 1);
    long long ly = __shfl_up_sync(0xffffffff, (long long)x * 3, 5);
    r += __all_sync(0xffffffff, x > 0);
    r += __any_sync(0xffffffff, x > 5);
    r += __popc(__ballot_sync(0xffffffff, x & 1));
    r += __uni_sync(0xffffffff, x == 1);
    r += __match_any_sync(0xffffffff, x);
    int pred;
    r += __match_all_sync(0xffffffff, x, &pred) + pred;
    r += __match_any_sync(0xffffffff, (long long)x);
    r += __reduce_add_sync(0xffffffff, x);
    r += __reduce_min_sync(0xffffffff, x);
    r += __reduce_max_sync(0xffffffff, (unsigned)x);
    r += __reduce_and_sync(0xffffffff, (unsigned)x);
    r += __reduce_or_sync(0xffffffff, (unsigned)x);
    r += __reduce_xor_sync(0xffffffff, (unsigned)x);
    unsigned lm;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lm)); r += lm;
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(lm)); r += lm;
    __syncwarp();
    __syncwarp(0x0000ffff);
    r += __syncthreads_count(x > 2);
    r += __syncthreads_and(x > 1);
    r += __syncthreads_or(x > 3);
    if (i < n) { out[i] = r + (int)ly; fo[i] = fy + (float)dy; }
}

extern "C" __global__ void barriers(int *a, int n)
{
    __shared__ int sh[256];
    int t = threadIdx.x;
    sh[t] = a[t];
    __syncthreads();
    if (t < 64) {
        asm volatile("bar.sync 1, 64;");
        sh[t] += sh[t + 1];
        asm volatile("bar.arrive 2, 128;");
    } else if (t < 128) {
        asm volatile("bar.sync 2, 128;");
        sh[t] += 3;
    }
    asm volatile("barrier.sync.aligned 3;");
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 4, p; }" : "=r"(n) : "r"(t & 1));
    __syncthreads();
    a[t] = sh[(t + 5) & 255] + n;
}
