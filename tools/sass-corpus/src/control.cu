// Control flow: BRA, BRX (switch tables), BSSY/BSYNC, WARPSYNC, CALL/RET, loops, predication, EXIT, BPT.
__device__ __noinline__ int helper(int x, int y)
{
    return x * y + (x > y ? x : y);
}

__device__ __noinline__ int recurse(int x)
{
    return x <= 1 ? 1 : x + recurse(x - 1);
}

typedef int (*fn_t)(int, int);
__device__ int f_add(int a, int b) { return a + b; }
__device__ int f_sub(int a, int b) { return a - b; }
__device__ fn_t table[2] = {f_add, f_sub};

extern "C" __global__ void control(const int *a, int *out, int n, int sel)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i];
    int r = 0;
    switch (x & 7) {
    case 0: r = x * 3; break;
    case 1: r = x + 11; break;
    case 2: r = x ^ 0x55; break;
    case 3: r = x - 9; break;
    case 4: r = x << 2; break;
    case 5: r = x >> 1; break;
    case 6: r = ~x; break;
    default: r = 42; break;
    }
    for (int k = 0; k < (x & 15); k++) {
        r += helper(r, k);
        if (r > 1000000) break;
    }
    while (r & 1) {
        r = r * 3 + 1;
        if (r < 0) continue;
        r >>= 1;
    }
    if (x & 16)
        r += recurse(x & 7);
    r += table[sel & 1](r, x);
    if (r == 12345)
        __trap();
    if (r == 54321)
        __brkpt();
    out[i] = r;
}

extern "C" __global__ void divergent(const float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i % n];
    if (threadIdx.x & 1) {
        for (int k = 0; k < 8; k++) v = v * 1.5f + 1.0f;
    } else {
        v = __shfl_down_sync(0x55555555, v, 2);
    }
    if (v > 3.0f)
        out[i % n] = v;
    __nanosleep(100);
    if (i == 0) {
        long long c0 = clock64();
        unsigned c1 = clock();
        out[0] += (float)(c0 & 0xff) + (float)(c1 & 1);
    }
}
