// sm_90 only: clusters (distributed shared memory, cluster barriers), elect, fences, mbarrier.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_ops(int *out, int n)
{
    __shared__ int sh[64];
    __shared__ unsigned long long bar;
    cg::cluster_group cl = cg::this_cluster();
    unsigned rank = cl.block_rank();
    sh[threadIdx.x & 63] = threadIdx.x + rank;
    if (threadIdx.x == 0) {
        unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(a), "r"(32));
    }
    cl.sync();
    int *peer = cl.map_shared_rank(sh, rank ^ 1);
    int v = peer[(threadIdx.x + 1) & 63];
    unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned long long st;
    if (threadIdx.x < 32) {
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(a));
        unsigned ok = 0;
        asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(ok) : "r"(a), "l"(st));
        v += ok;
    }
    unsigned e;
    asm volatile("{ .reg .pred p; elect.sync _|p, 0xffffffff; selp.u32 %0, 1, 0, p; }" : "=r"(e));
    v += e;
    asm volatile("fence.acq_rel.cluster;");
    asm volatile("fence.proxy.async;");
    cl.sync();
    if (blockIdx.x * blockDim.x + threadIdx.x < (unsigned)n)
        out[blockIdx.x * blockDim.x + threadIdx.x] = v + (int)cl.num_blocks();
}
