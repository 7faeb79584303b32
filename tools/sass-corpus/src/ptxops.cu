// Inline PTX for variants C does not reach easily: compare kinds, carries, bit fields, memory orders, scopes.
extern "C" __global__ void ptx_ops(const unsigned *a, const float *f, const double *d, unsigned *out,
                                   unsigned long long *p64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = a[i + 1], r = 0, t;
    float fx = f[i], fy = f[i + 1], ft;
    double dx = d[i];
#define SETPU(op) asm("{ .reg .pred p; setp." #op ".u32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(t) : "r"(x), "r"(y)); r = r * 3 + t;
#define SETPS(op) asm("{ .reg .pred p; setp." #op ".s32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(t) : "r"(x), "r"(y)); r = r * 3 + t;
#define SETPF(op) asm("{ .reg .pred p; setp." #op ".f32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(t) : "f"(fx), "f"(fy)); r = r * 3 + t;
#define SETPD(op) asm("{ .reg .pred p; setp." #op ".f64 p, %1, 1.5; selp.u32 %0, 1, 0, p; }" : "=r"(t) : "d"(dx)); r = r * 3 + t;
    SETPU(lo) SETPU(ls) SETPU(hi) SETPU(hs) SETPU(eq) SETPU(ne)
    SETPS(lt) SETPS(le) SETPS(gt) SETPS(ge)
    SETPF(lt) SETPF(le) SETPF(gt) SETPF(ge) SETPF(eq) SETPF(ne) SETPF(equ) SETPF(neu) SETPF(ltu) SETPF(leu)
    SETPF(gtu) SETPF(geu) SETPF(num) SETPF(nan)
    SETPD(lt) SETPD(ge) SETPD(neu) SETPD(nan)
    asm("{ .reg .pred p; testp.finite.f32 p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(t) : "f"(fx)); r += t;
    asm("{ .reg .pred p; testp.infinite.f32 p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(t) : "f"(fx)); r += t;
    asm("{ .reg .pred p; testp.subnormal.f64 p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(t) : "d"(dx)); r += t;
    asm("{ .reg .pred p, q; setp.lt.and.u32 p, %1, %2, 1; setp.gt.or.u32 q, %1, 7, p; @q add.u32 %0, %0, 1; }"
        : "+r"(r) : "r"(x), "r"(y));
    asm("bfe.u32 %0, %1, %2, 5;" : "=r"(t) : "r"(x), "r"(y & 7)); r += t;
    asm("bfe.s32 %0, %1, 4, %2;" : "=r"(t) : "r"(x), "r"(y & 15)); r += t;
    asm("bfi.b32 %0, %1, %2, 3, 6;" : "=r"(t) : "r"(x), "r"(y)); r += t;
    asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(r)); r += t;
    asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(r)); r += t;
    asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(r)); r += t;
    asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(r)); r += t;
    asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(r)); r += t;
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(r)); r += t;
    asm("shf.r.clamp.b32 %0, %1, %2, 13;" : "=r"(t) : "r"(x), "r"(y)); r += t;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(t) : "r"(x), "r"(y), "r"(r)); r += t;
    asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(t) : "r"(x), "r"(y), "r"(r)); r += t;
    asm("{ add.cc.u32 %0, %1, %2; addc.cc.u32 %0, %0, %1; addc.u32 %0, %0, 0; }" : "=r"(t) : "r"(x), "r"(y)); r += t;
    asm("{ sub.cc.u32 %0, %1, %2; subc.u32 %0, %0, %1; }" : "=r"(t) : "r"(x), "r"(y)); r += t;
    asm("{ mad.lo.cc.u32 %0, %1, %2, %1; madc.hi.u32 %0, %0, %2, 5; }" : "=r"(t) : "r"(x), "r"(y)); r += t;
    asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(*p64) : "r"(x), "r"(y), "l"(p64[1]));
    asm("mul.wide.s32 %0, %1, %2;" : "=l"(p64[2]) : "r"(x), "r"(y));
    asm("mad.hi.sat.s32 %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(r)); r += t;
    asm("add.sat.s32 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(y)); r += t;
    asm("sub.sat.s32 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(y)); r += t;
#if __CUDA_ARCH__ >= 900
    asm("min.relu.s32 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(y)); r += t;
#endif
#if __CUDA_ARCH__ >= 900
    asm("max.u16x2 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(y)); r += t;
#endif
#if __CUDA_ARCH__ >= 900
    asm("min.s16x2 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(y)); r += t;
#endif
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(t) : "r"(x & 31), "r"(y & 31)); r += t;
    asm("szext.wrap.s32 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(y)); r += t;
    asm("fns.b32 %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(1)); r += t;
    asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(r)); r += t;
    asm("fma.rn.ftz.sat.f32 %0, %1, %2, %3;" : "=f"(ft) : "f"(fx), "f"(fy), "f"(fx)); r += __float_as_uint(ft);
    asm("add.rm.ftz.f32 %0, %1, %2;" : "=f"(ft) : "f"(fx), "f"(fy)); r += __float_as_uint(ft);
    asm("mul.rp.sat.f32 %0, %1, 3.0;" : "=f"(ft) : "f"(fx)); r += __float_as_uint(ft);
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(ft) : "f"(fx), "f"(fy)); r += __float_as_uint(ft);
    asm("min.xorsign.abs.f32 %0, %1, %2;" : "=f"(ft) : "f"(fx), "f"(fy)); r += __float_as_uint(ft);
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(ft) : "f"(fx)); r += __float_as_uint(ft);
    asm("lg2.approx.f32 %0, %1;" : "=f"(ft) : "f"(fx)); r += __float_as_uint(ft);
    asm("rsqrt.approx.f32 %0, %1;" : "=f"(ft) : "f"(fx)); r += __float_as_uint(ft);
    asm("tanh.approx.f32 %0, %1;" : "=f"(ft) : "f"(fx)); r += __float_as_uint(ft);
    asm("sin.approx.ftz.f32 %0, %1;" : "=f"(ft) : "f"(fx)); r += __float_as_uint(ft);
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(dx) : "d"(dx)); r += (unsigned)dx;
    asm("cvt.rni.f32.f32 %0, %1;" : "=f"(ft) : "f"(fx)); r += __float_as_uint(ft);
    asm("cvt.rzi.ftz.f32.f32 %0, %1;" : "=f"(ft) : "f"(fx)); r += __float_as_uint(ft);
    asm("cvt.sat.f32.f32 %0, %1;" : "=f"(ft) : "f"(fx)); r += __float_as_uint(ft);
    asm("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(t) : "f"(fx)); r += t;
    asm("cvt.sat.u8.s32 %0, %1;" : "=r"(t) : "r"(x)); r += t;
    asm("cvt.s16.s8 %0, %1;" : "=h"(*(unsigned short *)&t) : "h"((unsigned short)x)); r += t;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(t) : "f"(fx), "f"(fy)); r += t;
    asm("cvt.rn.relu.bf16x2.f32 %0, %1, %2;" : "=r"(t) : "f"(fx), "f"(fy)); r += t;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(fx)); r += t;
    asm("copysign.f32 %0, %1, %2;" : "=f"(ft) : "f"(fx), "f"(fy)); r += __float_as_uint(ft);
    asm("{ .reg .pred p; isspacep.shared p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(t) : "l"(p64)); r += t;
    asm("{ .reg .pred p; isspacep.local p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(t) : "l"(p64)); r += t;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(t) : "l"(a + 2)); r += t;
    asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(t) : "l"(a + 3)); r += t;
    asm volatile("ld.global.nc.L1::no_allocate.u32 %0, [%1];" : "=r"(t) : "l"(a + 4)); r += t;
    asm volatile("ld.global.L2::128B.v2.u32 {%0, %1}, [%2];" : "=r"(t), "=r"(x) : "l"(a + 6)); r += t + x;
    asm volatile("ld.global.L1::evict_last.u32 %0, [%1];" : "=r"(t) : "l"(a + 8)); r += t;
    asm volatile("prefetch.global.L2 [%0];" :: "l"(a + 64));
    asm volatile("prefetch.global.L1 [%0];" :: "l"(a + 128));
    asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(out + n + i), "r"(r));
    asm volatile("st.relaxed.sys.global.u32 [%0], %1;" :: "l"(out + 2 * n + i), "r"(r));
    asm volatile("st.global.L1::no_allocate.v4.u32 [%0], {%1, %1, %1, %1};" :: "l"(out + 4 * n + 4 * i), "r"(r));
    asm volatile("atom.acquire.gpu.global.add.u32 %0, [%1], 1;" : "=r"(t) : "l"(out)); r += t;
    asm volatile("atom.release.sys.global.exch.b32 %0, [%1], %2;" : "=r"(t) : "l"(out + 1), "r"(r)); r += t;
    asm volatile("atom.relaxed.cta.global.cas.b32 %0, [%1], %2, 3;" : "=r"(t) : "l"(out + 2), "r"(r)); r += t;
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" :: "l"(out + 3), "r"(r));
    asm volatile("red.global.max.s32 [%0], %1;" :: "l"(out + 4), "r"(r));
    asm volatile("red.global.add.f64 [%0], %1;" :: "l"(p64 + 4), "d"(dx));
    asm volatile("red.global.add.noftz.f16x2 [%0], %1;" :: "l"(out + 5), "r"(r));
    asm volatile("atom.global.inc.u32 %0, [%1], 9;" : "=r"(t) : "l"(out + 6)); r += t;
    asm volatile("membar.gl;");
    asm volatile("membar.cta;");
    asm volatile("membar.sys;");
    asm volatile("fence.sc.gpu;");
    asm volatile("fence.acq_rel.sys;");
    asm volatile("discard.global.L2 [%0], 128;" :: "l"(out + 1024));
    asm volatile("applypriority.global.L2::evict_normal [%0], 128;" :: "l"(out + 2048));
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p64[8]));
    out[i] = r + (unsigned)ft;
}
