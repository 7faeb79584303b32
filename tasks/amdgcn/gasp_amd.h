/* Prelude of the OpenCL C references for the AMD targets (tasks/amdgcn/<id>.cl): CUDA's names for the
 * work-item geometry and the correctly rounded float operations, mapped onto clang-19 builtins that need
 * no ROCm device library (we compile with -nogpulib; amd-r300-facts.md). */
#pragma OPENCL FP_CONTRACT OFF

typedef struct { unsigned x, y, z; } gasp_dim3;
#define threadIdx ((gasp_dim3){__builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z()})
#define blockIdx ((gasp_dim3){__builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(), __builtin_amdgcn_workgroup_id_z()})
#define blockDim ((gasp_dim3){__builtin_amdgcn_workgroup_size_x(), __builtin_amdgcn_workgroup_size_y(), __builtin_amdgcn_workgroup_size_z()})
/* the grid in workgroups: hidden_block_count_x.. (code object v5 implicit arguments, offset 0, 4, 8) */
#define gridDim ((gasp_dim3){((__constant unsigned *)__builtin_amdgcn_implicitarg_ptr())[0], \
                             ((__constant unsigned *)__builtin_amdgcn_implicitarg_ptr())[1], \
                             ((__constant unsigned *)__builtin_amdgcn_implicitarg_ptr())[2]})

/* the whole workgroup meets, and LDS writes before it are visible after it */
#define __syncthreads()                                      \
  do {                                                       \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");   \
    __builtin_amdgcn_s_barrier();                            \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");   \
  } while (0)

#define KERNEL __kernel __attribute__((amdgpu_flat_work_group_size(1, 1024)))
/* FP_CONTRACT OFF: each of these rounds once, never fused with a neighbour */
#define __fadd_rn(a, b) ((a) + (b))
#define __fsub_rn(a, b) ((a) - (b))
#define __fmul_rn(a, b) ((a) * (b))
#define __fdiv_rn(a, b) ((a) / (b))     /* correctly rounded: -cl-fp32-correctly-rounded-divide-sqrt */
#define __fsqrt_rn(a) __builtin_sqrtf(a) /* likewise */
#define __fmaf_rn(a, b, c) __builtin_fmaf((a), (b), (c))
#define __int2float_rn(a) ((float)(a))
#define __popc(a) __builtin_popcount(a)
#define fabsf(a) __builtin_fabsf(a)
#define fminf(a, b) __builtin_fminf((a), (b))
#define fmaxf(a, b) __builtin_fmaxf((a), (b))
#define umin(a, b) ((a) < (b) ? (a) : (b))

/* Warp-level operations over groups of 32 consecutive work-items (the tasks' warps), on wave32 and wave64 alike:
 * ds_bpermute reads another lane of the same wave (its byte address selects the lane), so a 32-group inside a
 * wave64 reads within its own half. Every lane of the group must be active, as with CUDA's *_sync(0xffffffff). */
#define gasp_wave_lane() (threadIdx.x & (__builtin_amdgcn_wavefrontsize() - 1u))
#define gasp_shfl(v, src_in_group) \
  __builtin_amdgcn_ds_bpermute((int)(((gasp_wave_lane() & ~31u) | ((src_in_group) & 31u)) << 2), (v))
#define __shfl_sync(mask, v, src) __builtin_bit_cast(__typeof__(v), gasp_shfl(__builtin_bit_cast(int, v), (src)))
#define __shfl_down_sync(mask, v, o) __builtin_bit_cast(__typeof__(v), gasp_shfl(__builtin_bit_cast(int, v), (threadIdx.x & 31u) + (o)))
#define __shfl_xor_sync(mask, v, o) __builtin_bit_cast(__typeof__(v), gasp_shfl(__builtin_bit_cast(int, v), (threadIdx.x & 31u) ^ (o)))
#define __shfl_up_sync(mask, v, o) __builtin_bit_cast(__typeof__(v), gasp_shfl(__builtin_bit_cast(int, v), (threadIdx.x & 31u) - (o)))
#if __AMDGCN_WAVEFRONT_SIZE == 64
#define __ballot_sync(mask, p) ((unsigned)(__builtin_amdgcn_ballot_w64(p) >> (gasp_wave_lane() & 32u)))
#else
#define __ballot_sync(mask, p) __builtin_amdgcn_ballot_w32(p)
#endif
