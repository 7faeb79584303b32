/* The PTX description: architectures, special registers, instruction families. */
#include "ptx_isa.h"

const gasp_ptx_arch gasp_ptx_sm90 = {"sm_90", "NVIDIA H200 (Hopper, compute capability 9.0)", 90, 132, 64, 32,
                                     227 * 1024, 65536, "8.0"};
const gasp_ptx_arch gasp_ptx_sm89 = {"sm_89", "NVIDIA RTX 4090 (Ada, compute capability 8.9)", 89, 128, 48, 24,
                                     99 * 1024, 65536, "8.0"};

const char *const gasp_ptx_special_regs[] = {
    "%tid",      "%ntid",     "%ctaid",     "%nctaid",    "%laneid",     "%warpid",    "%nwarpid",
    "%smid",     "%nsmid",    "%gridid",    "%clock",     "%clock64",    "%clock_hi",  "%globaltimer",
    "%globaltimer_lo", "%globaltimer_hi", "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge",
    "%lanemask_gt", "%dynamic_smem_size", "%total_smem_size", "%aggr_smem_size", "%clusterid", "%nclusterid",
    "%cluster_ctaid", "%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster",
    "%pm0", "%pm1", "%pm2", "%pm3", "%pm4", "%pm5", "%pm6", "%pm7", "%envreg", "%reserved_smem_offset_begin",
    "%reserved_smem_offset_end", "%reserved_smem_offset_cap", "%current_graph_exec", NULL};

const char *const gasp_ptx_reg_types[] = {".pred", ".b16", ".b32", ".b64", ".u16", ".u32", ".u64", ".s16", ".s32",
                                          ".s64", ".f16", ".f32", ".f64", NULL};

const gasp_ptx_op gasp_ptx_ops[] = {
    {"ld.param / ld.global / ld.shared", "loads: ld.global.f32 %f1, [%rd4]; vector forms .v2/.v4 need 8/16-byte alignment", 0},
    {"st.global / st.shared", "stores: st.global.f32 [%rd4], %f1;", 0},
    {"cvta.to.global.u64", "converts a generic pointer parameter to a global address", 0},
    {"mov", "copies a register, immediate or special register: mov.u32 %r1, %tid.x;", 0},
    {"add / sub / mul / mad / fma / div / rem", "arithmetic; mul.lo/.hi/.wide for integers, fma.rn.f32 for fused multiply-add", 0},
    {"min / max / abs / neg", "per type: min.f32, max.s32, abs.f32, neg.f32", 0},
    {"and / or / xor / not / shl / shr", "bitwise and shifts on .b32/.b64 (shr.s32 arithmetic, shr.u32 logical)", 0},
    {"setp / selp", "setp.lt.f32 %p1, %f1, %f2; selp.f32 %f3, %f1, %f2, %p1;", 0},
    {"cvt", "conversions: cvt.rn.f32.s32, cvt.rzi.s32.f32, cvt.u64.u32", 0},
    {"rcp / sqrt / rsqrt / ex2 / lg2 / sin / cos", "rcp.rn.f32, sqrt.rn.f32 (IEEE) or .approx.f32 (fast)", 0},
    {"popc / clz / brev / bfe / bfi / prmt", "bit manipulation on 32/64-bit values", 0},
    {"bra / @%p bra / ret", "branches and return; labels are `NAME:`; a predicate guards any instruction", 3},
    {"shfl.sync", "warp shuffle: shfl.sync.bfly.b32 %r2, %r1, 16, 0x1f, 0xffffffff; (.up/.down/.bfly/.idx)", 4},
    {"vote.sync / activemask", "vote.sync.ballot.b32 %r1, %p1, 0xffffffff; vote.sync.all.pred", 4},
    {"bar.sync / bar.warp.sync / membar", "bar.sync 0; synchronises the whole block (every thread must reach it)", 5},
    {"atom / red", "atom.global.add.f32 %f1, [%rd1], %f2; red.shared.add.u32 [%r1], 1;", 5},
    {NULL, NULL, 0},
};

const char *gasp_ptx_type(gasp_dtype t) {
  switch (t) {
  case GASP_DT_F32: return ".f32";
  case GASP_DT_F64: return ".f64";
  case GASP_DT_S32: return ".s32";
  case GASP_DT_U32: return ".u32";
  case GASP_DT_S64: return ".s64";
  case GASP_DT_U64: return ".u64";
  default: return ".b32";
  }
}
