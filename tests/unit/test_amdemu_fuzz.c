/* Fuzz target of the AMD emulator: a real code object whose kernel body is overwritten with random valid
 * encodings (every opcode LLVM knows per generation, random operand fields), random dwords, or bit flips of
 * a real kernel. Every launch must end in a result (any class), never a crash: built with ASan and UBSan
 * where the compiler has them. Usage: test_amdemu_fuzz [iterations per generation and mode] [seed] */
#include "test_amdemu_util.h"
#include "check.h"
#include "target/amdgcn/emu/emu_internal.h"

static uint64_t rs = 88172645463325252ull;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (uint32_t)(rs >> 11); }

#define BODY 48

static const char *prologue =
    ".text\n.globl k\n.p2align 8\n.type k,@function\nk:\ns_load_dwordx4 s[4:7], s[0:1], 0x0\n"
    "v_lshlrev_b32 v10, 2, v0\ns_waitcnt lgkmcnt(0)\ns_movk_i32 s15, 0x1234\n";

static uint32_t encode(int gen, const emu_optab_row *r) {
  uint32_t x = rnd(), op = r->opnum;
  /* keep most register fields small so more instructions get past the range checks */
  if (rnd() % 2) x &= 0x0f0f0f0f;
  switch (r->fmt) {
    case EMU_FMT_SOP2: return 0x80000000u | op << 23 | (x & 0x7fffff);
    case EMU_FMT_SOPK: return 0xB0000000u | op << 23 | (x & 0x7fffff);
    case EMU_FMT_SOP1: return 0xBE800000u | op << 8 | (x & 0x7f00ff);
    case EMU_FMT_SOPC: return 0xBF000000u | op << 16 | (x & 0xffff);
    case EMU_FMT_SOPP: return 0xBF800000u | op << 16 | (x & 0xff);
    case EMU_FMT_VOP2: return op << 25 | (x & 0x1ffffff);
    case EMU_FMT_VOP1: return 0x7E000000u | op << 9 | (x & 0x1fe01ff);
    case EMU_FMT_VOPC: return 0x7C000000u | op << 17 | (x & 0x1ffff);
    case EMU_FMT_VOP3: return (gen == 9 ? 0xD0000000u : 0xD4000000u) | op << 16 | (x & 0xffff);
    case EMU_FMT_SMEM: return (gen == 9 ? 0xC0000000u : 0xF4000000u) | op << 18 | (x & 0x3ffff);
    case EMU_FMT_DS: return 0xD8000000u | (gen == 9 ? op << 17 | (x & 0x1ffff) : op << 18 | (x & 0x3ffff));
    case EMU_FMT_FLAT: case EMU_FMT_GLOBAL: case EMU_FMT_SCRATCH: {
      uint32_t seg = r->fmt == EMU_FMT_FLAT ? 0 : r->fmt == EMU_FMT_SCRATCH ? 1 : 2;
      return 0xDC000000u | op << 18 | seg << (gen == 11 ? 16 : 14) | (x & 0x1fff);
    }
    case EMU_FMT_VOPDX: return 0xC8000000u | op << 22 | (rnd() % 19) << 17 | (x & 0x1ffff);
    case EMU_FMT_VOPDY: return 0xC8000000u | (rnd() % 13) << 22 | op << 17 | (x & 0x1ffff);
    default: return x;
  }
}

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 1500;
  if (argc > 2) rs = strtoull(argv[2], NULL, 0) | 1;
  const char *mcpus[] = {"gfx900", "gfx1030", "gfx1100"};
  const emu_optab_row *tabs[] = {emu_optab_gfx900, emu_optab_gfx1030, emu_optab_gfx1100};
  int gens[] = {9, 10, 11};
  for (int g = 0; g < 3; g++) {
    char src[8192];
    size_t len = (size_t)snprintf(src, sizeof src, "%s", prologue);
    for (int i = 0; i < BODY; i++) len += (size_t)snprintf(src + len, sizeof src - len, "s_nop 0\n");
    len += (size_t)snprintf(src + len, sizeof src - len,
                            "s_endpgm\n.rodata\n.p2align 6\n.amdhsa_kernel k\n.amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
                            ".amdhsa_next_free_vgpr 32\n.amdhsa_next_free_sgpr 32\n.amdhsa_group_segment_fixed_size 1024\n"
                            "%s.end_amdhsa_kernel\n", g == 0 ? "" : ".amdhsa_wavefront_size32 1\n");
    emu_fixture f;
    memset(&f, 0, sizeof f);
    f.mcpu = mcpus[g];
    uint8_t *obj = build_hsaco(src, 0, mcpus[g], &f.len);
    CHECK(obj != NULL, "assemble the fuzz kernel for %s", mcpus[g]);
    if (!obj) continue;
    /* the body starts after s_movk_i32 s15, 0x1234 (SOPK: 0xb00f1234) */
    size_t at = 0;
    for (size_t i = 0; i + 4 <= f.len; i += 4) {
      uint32_t w;
      memcpy(&w, obj + i, 4);
      if (w == 0xb00f1234u) { at = i + 4; break; }
    }
    CHECK(at != 0 && at + 4 * BODY <= f.len, "find the kernel body on %s", mcpus[g]);
    if (!at) { free(obj); continue; }
    uint8_t *work = malloc(f.len);
    size_t nrows = 0;
    while (tabs[g][nrows].fmt) nrows++;
    int counts[GASP_CLASS_COUNT] = {0}, bad = 0;
    static uint32_t in[256], out[256];
    for (int mode = 0; mode < 3; mode++)
      for (int it = 0; it < iters; it++) {
        memcpy(work, obj, f.len);
        uint32_t *body = (uint32_t *)(work + at);
        for (int i = 0; i < BODY; i++) {
          if (mode == 0) body[i] = encode(gens[g], &tabs[g][rnd() % nrows]);
          else if (mode == 1) body[i] = rnd();
        }
        if (mode == 2) /* bit flips anywhere in .text and the descriptor region, from the prologue on */
          for (int k = 0; k < 1 + (int)(rnd() % 4); k++) {
            size_t p = at - 24 + rnd() % (4 * BODY + 24);
            work[p] ^= (uint8_t)(1u << (rnd() % 8));
          }
        f.obj = work;
        f.nreg = 0;
        uint64_t pi = fx_buffer(&f, in, sizeof in), po = fx_buffer(&f, out, sizeof out);
        memset(f.kernarg, 0, sizeof f.kernarg);
        fx_arg(&f, 0, &pi, 8);
        fx_arg(&f, 8, &po, 8);
        gasp_emu_result r = fx_run(&f, "k", 1 + rnd() % 2, 1, 1 + rnd() % 128, 1, 5000);
        if ((int)r.cls < 0 || r.cls >= GASP_CLASS_COUNT || r.cls == GASP_CLASS_ERROR) {
          bad++;
          printf("iteration %d mode %d on %s: class %d (%s)\n", it, mode, mcpus[g], (int)r.cls, r.detail);
        } else {
          counts[r.cls]++;
        }
      }
    CHECK(bad == 0, "%d launches on %s ended without a result class", bad, mcpus[g]);
    printf("%s:", mcpus[g]);
    for (int c = 0; c < GASP_CLASS_COUNT; c++)
      if (counts[c]) printf(" %s %d", gasp_class_name((gasp_class)c), counts[c]);
    printf("\n");
    free(work);
    free(obj);
  }
  return DONE();
}
