// Memory of every space: LDG/STG widths and cache hints, LDS/STS, LDL/STL, LDC, ULDC, LD/ST generic,
// atomics (ATOMG, ATOMS, RED), texture and surface fetches.
#include <cuda_fp16.h>
__constant__ float cbank[256];
__constant__ int cidx[64];
__device__ int gcounter;
__device__ unsigned long long gcounter64;

extern "C" __global__ void loads_stores(const char *c, const short *s, const int *a, const int2 *a2,
                                        const int4 *a4, const double2 *d2, const long long *l,
                                        int *out, int4 *out4, char *co, short *so, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int r = c[i] + s[i] + a[i] + a2[i].x + a2[i].y + a4[i].x + a4[i].w;
    r += __ldg(a + i + 1) + __ldcg(a + i + 2) + __ldca(a + i + 3) + __ldcs(a + i + 4) + __ldlu(a + i + 5)
         + __ldcv(a + i + 6);
    int4 v = __ldg(a4 + i + 1);
    r += v.y + (int)d2[i].y + (int)l[i];
    r += *(volatile const int *)(a + i + 7);
    r += (int)cbank[i & 255] + cidx[3] + (int)cbank[7];
    __stcs(out + i + 1, r);
    __stwt(out + i + 2, r);
    __stcg(out + i + 3, r);
    __stwb(out + i + 4, r);
    out4[i] = make_int4(r, r + 1, r + 2, v.x);
    co[i] = (char)r;
    so[i] = (short)r;
    out[i] = r;
}

extern "C" __global__ void shared_local(const float *a, float *out, int n, int k)
{
    __shared__ float tile[256];
    __shared__ double dtile[64];
    __shared__ float4 vtile[32];
    extern __shared__ int dyn[];
    float local[32];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    tile[t] = i < n ? a[i] : 0.0f;
    dtile[t & 63] = tile[t];
    vtile[t & 31] = make_float4(tile[t], 1.0f, 2.0f, 3.0f);
    dyn[t] = t * k;
    for (int j = 0; j < 32; j++)
        local[j] = a[(i + j * k) % n];
    __syncthreads();
    float r = tile[(t + 1) & 255] + (float)dtile[(t + 3) & 63] + vtile[(t * 7) & 31].z + (float)dyn[(t + k) & 255];
    r += local[k & 31];
    if (i < n) out[i] = r;
}

extern "C" __global__ void atomics(int *a, unsigned *u, float *f, double *d, long long *l,
                                   unsigned long long *ul, __half2 *h2, int n)
{
    __shared__ int sh[64];
    __shared__ unsigned long long sh64[8];
    __shared__ float shf[8];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t < 64) sh[t] = 0;
    if (t < 8) { sh64[t] = 0; shf[t] = 0; }
    __syncthreads();
    int r = atomicAdd(a, 1);
    atomicAdd(a + 1, i);
    r += atomicSub(a + 2, 3);
    r += atomicExch(a + 3, i);
    r += atomicMin(a + 4, i);
    r += atomicMax(a + 5, i);
    r += atomicMin(u + 4, (unsigned)i);
    r += atomicMax(u + 5, (unsigned)i);
    r += atomicInc(u, 100u);
    r += atomicDec(u + 1, 100u);
    r += atomicCAS(a + 6, i, r);
    r += atomicAnd(a + 7, i);
    r += atomicOr(a + 8, i);
    r += atomicXor(a + 9, i);
    atomicOr(a + 10, 1);
    r += (int)atomicAdd(f, 1.5f);
    atomicAdd(f + 1, (float)i);
    r += (int)atomicAdd(d, 2.5);
    atomicAdd(d + 1, (double)i);
    r += (int)atomicAdd(ul, 1ull);
    r += (int)atomicCAS(ul + 1, (unsigned long long)i, 7ull);
    r += (int)atomicExch(ul + 2, (unsigned long long)r);
    r += (int)atomicMin(l, (long long)i);
    r += (int)atomicMax(ul + 3, (unsigned long long)i);
    r += (int)atomicAnd(ul + 4, (unsigned long long)i);
    atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
    r += atomicAdd(&gcounter, 1);
    atomicAdd(&gcounter64, 2ull);
    atomicAdd(&sh[t & 63], 1);
    r += atomicAdd(&sh[(t + 1) & 63], 2);
    r += atomicCAS(&sh[(t + 2) & 63], t, r);
    r += atomicMin(&sh[(t + 3) & 63], r);
    r += atomicExch(&sh[(t + 4) & 63], r);
    atomicAdd(&shf[t & 7], 1.0f);
    r += (int)atomicAdd(&sh64[t & 7], 3ull);
    r += (int)atomicCAS(&sh64[(t + 1) & 7], 3ull, 4ull);
    r += atomicAdd_block(a + 11, 1) + atomicAdd_system(a + 12, 1);
    r += atomicCAS_block(a + 13, 1, 2) + atomicExch_system(a + 14, 3);
    __syncthreads();
    if (i < n) a[16 + i] = r + sh[t & 63] + (int)sh64[t & 7] + (int)shf[t & 7];
}

extern "C" __global__ void tex_surf(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaSurfaceObject_t s,
                                    float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float r = tex1Dfetch<float>(t1, i);
    r += tex2D<float>(t2, i * 0.5f, 0.25f);
    float4 v = tex2D<float4>(t2, 0.5f, i * 0.25f);
    r += v.x + v.w;
    r += tex1D<float>(t1, i + 0.5f);
    r += tex2DLod<float>(t2, 0.5f, 0.5f, 1.0f);
    r += tex3D<float>(t2, 0.5f, 0.5f, i * 1.0f);
    float sv;
    surf2Dread(&sv, s, i * 4, 0);
    r += sv;
    surf2Dwrite(r, s, i * 4, 1);
    surf1Dwrite(r, s, i * 4);
    out[i] = r;
}

extern "C" __global__ void generic_ptr(int *p, int *q, int sel, int n)
{
    __shared__ int sh[128];
    int t = threadIdx.x;
    sh[t & 127] = t;
    __syncthreads();
    int *ptr = sel ? p : &sh[0];
    ptr[t & 127] += q[t & 127];
    int *w = (t & 1) ? &sh[t & 127] : q;
    *w = __isShared(w) + __isGlobal(ptr) + __isLocal(ptr);
    __threadfence();
    __threadfence_block();
    __threadfence_system();
    if (t < n) p[t] = ptr[t & 127] + sh[(t + 1) & 127];
}
