/* Every failure class the AMD emulator reports, each reached by a crafted kernel (llvm-mc 19 at test time) on
 * gfx900, gfx1030 and gfx1100, plus the kernels that must pass beside them (a hazard check that flags
 * everything would pass the first half alone). */
#include "test_amdemu_util.h"
#include "check.h"

typedef struct {
  const char *name;
  const char *body;      /* after the prologue: s[4:5] in, s[6:7] out (loaded and waited), v10 = lane * 4 */
  gasp_class want;
  const char *detail;    /* substring the detail must contain, or NULL */
  int vgprs;             /* .amdhsa_next_free_vgpr (default 16) */
} fault_case;

static const fault_case cases[] = {
    {"ok_waited", "global_load_dword v5, v10, s[4:5]\ns_waitcnt vmcnt(0)\nv_add_u32 v6, v5, v5\n"
     "global_store_dword v10, v6, s[6:7]", GASP_CLASS_PASS, NULL, 16},
    {"hazard_vm", "global_load_dword v5, v10, s[4:5]\nv_add_u32 v6, v5, v5\nglobal_store_dword v10, v6, s[6:7]",
     GASP_CLASS_HAZARD, "reads v5", 16},
    {"hazard_waw", "global_load_dword v5, v10, s[4:5]\nv_mov_b32 v5, 0\ns_waitcnt vmcnt(0)\n"
     "global_store_dword v10, v5, s[6:7]", GASP_CLASS_HAZARD, "overwrites v5", 16},
    {"ok_partial", "global_load_dword v5, v10, s[4:5]\nglobal_load_dword v6, v10, s[4:5] offset:4\n"
     "s_waitcnt vmcnt(1)\nglobal_store_dword v10, v5, s[6:7]\ns_waitcnt vmcnt(0)", GASP_CLASS_PASS, NULL, 16},
    {"hazard_partial", "global_load_dword v5, v10, s[4:5]\nglobal_load_dword v6, v10, s[4:5] offset:4\n"
     "s_waitcnt vmcnt(1)\nglobal_store_dword v10, v6, s[6:7]", GASP_CLASS_HAZARD, "reads v6", 16},
    {"hazard_smem", "s_load_dword s8, s[0:1], 0x10\ns_add_u32 s9, s8, 1", GASP_CLASS_HAZARD, "reads s8", 16},
    {"hazard_lds", "ds_write_b32 v10, v10\ns_waitcnt lgkmcnt(0)\nds_read_b32 v5, v10\nv_mov_b32 v6, v5",
     GASP_CLASS_HAZARD, "lgkmcnt", 16},
    {"oob_store", "v_add_u32 v11, 0x100000, v10\nglobal_store_dword v11, v10, s[6:7]", GASP_CLASS_ILLEGAL_ADDRESS,
     "outside every buffer", 16},
    {"lds_oob", "v_add_u32 v11, 0x1000, v10\nds_write_b32 v11, v10\ns_waitcnt lgkmcnt(0)", GASP_CLASS_ILLEGAL_ADDRESS,
     "LDS", 16},
    {"timeout", "loop:\ns_branch loop", GASP_CLASS_TIMEOUT, "budget", 16},
    {"unsupported", "v_sin_f32 v5, v10", GASP_CLASS_UNSUPPORTED, "v_sin_f32", 16},
    {"trap", "s_trap 2", GASP_CLASS_TRAP, "s_trap", 16},
    {"range", "v_mov_b32 v40, 0", GASP_CLASS_RANGE, "v40", 12},
    {"illegal", ".long 0xffffffff", GASP_CLASS_ILLEGAL_INSTRUCTION, NULL, 16},
};

static char *subst(const char *s, int gen) {
  static char out[4096];
  size_t o = 0;
  while (*s && o < sizeof out - 16) {
    if (!strncmp(s, "v_add_u32", 9) && gen != 9) { o += (size_t)sprintf(out + o, "v_add_nc_u32"); s += 9; }
    else out[o++] = *s++;
  }
  out[o] = 0;
  return out;
}

int main(void) {
  const char *mcpus[] = {"gfx900", "gfx1030", "gfx1100"};
  int gens[] = {9, 10, 11};
  size_t nc = sizeof cases / sizeof cases[0];
  for (int g = 0; g < 3; g++) {
    size_t cap = 1 << 18, len = 0;
    char *src = malloc(cap);
    len += (size_t)snprintf(src + len, cap - len, ".text\n");
    for (size_t i = 0; i < nc; i++)
      len += (size_t)snprintf(src + len, cap - len,
                              ".globl %s\n.p2align 8\n.type %s,@function\n%s:\ns_load_dwordx4 s[4:7], s[0:1], 0x0\n"
                              "v_lshlrev_b32 v10, 2, v0\ns_waitcnt lgkmcnt(0)\n%s\ns_endpgm\n",
                              cases[i].name, cases[i].name, cases[i].name, subst(cases[i].body, gens[g]));
    len += (size_t)snprintf(src + len, cap - len, ".rodata\n");
    for (size_t i = 0; i < nc; i++)
      len += (size_t)snprintf(src + len, cap - len,
                              ".p2align 6\n.amdhsa_kernel %s\n.amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
                              ".amdhsa_next_free_vgpr %d\n.amdhsa_next_free_sgpr 16\n"
                              ".amdhsa_group_segment_fixed_size 256\n%s.end_amdhsa_kernel\n",
                              cases[i].name, cases[i].vgprs, gens[g] == 9 ? "" : ".amdhsa_wavefront_size32 1\n");
    emu_fixture f;
    memset(&f, 0, sizeof f);
    f.mcpu = mcpus[g];
    f.obj = build_hsaco(src, 0, mcpus[g], &f.len);
    free(src);
    CHECK(f.obj != NULL, "assemble the fault kernels for %s", mcpus[g]);
    if (!f.obj) continue;
    for (size_t i = 0; i < nc; i++) {
      static uint32_t in[128], out[128];
      for (int k = 0; k < 128; k++) in[k] = (uint32_t)k, out[k] = 0;
      f.nreg = 0;
      uint64_t pi = fx_buffer(&f, in, sizeof in), po = fx_buffer(&f, out, sizeof out);
      memset(f.kernarg, 0, sizeof f.kernarg);
      fx_arg(&f, 0, &pi, 8);
      fx_arg(&f, 8, &po, 8);
      unsigned ws = gens[g] == 9 ? 64 : 32;
      gasp_emu_result r = fx_run(&f, cases[i].name, 1, 1, ws, 1, 100000);
      CHECK(r.cls == cases[i].want, "%s on %s: got %s (%s), want %s", cases[i].name, mcpus[g], gasp_class_name(r.cls),
            r.detail, gasp_class_name(cases[i].want));
      if (cases[i].detail)
        CHECK(strstr(r.detail, cases[i].detail) != NULL, "%s on %s: detail '%s' lacks '%s'", cases[i].name, mcpus[g],
              r.detail, cases[i].detail);
      if (cases[i].want == GASP_CLASS_PASS && !strcmp(cases[i].name, "ok_waited")) {
        int bad = 0;
        for (unsigned k = 0; k < ws; k++) bad += out[k] != 2 * k;
        CHECK(bad == 0, "ok_waited on %s: %d wrong", mcpus[g], bad);
      }
    }
    /* a kernel name that is not in the code object */
    gasp_emu_result r = fx_run(&f, "no_such_kernel", 1, 1, 64, 1, 0);
    CHECK(r.cls == GASP_CLASS_LOAD, "missing kernel on %s: %s", mcpus[g], gasp_class_name(r.cls));
    /* garbage instead of a code object */
    emu_fixture bad = f;
    uint8_t junk[100] = {1, 2, 3};
    bad.obj = junk;
    bad.len = sizeof junk;
    r = fx_run(&bad, "ok_waited", 1, 1, 64, 1, 0);
    CHECK(r.cls == GASP_CLASS_LOAD, "garbage code object on %s: %s", mcpus[g], gasp_class_name(r.cls));
    free((void *)f.obj);
  }
  /* exec mishandled in a divergent branch: the branch's mask is never restored, so the final store reaches
   * only the lanes of the branch; the emulator must leave the other elements unwritten (verify then says
   * unwritten), not store them anyway */
  {
    const char *src9 =
        ".text\n.globl k\n.p2align 8\n.type k,@function\nk:\ns_load_dwordx2 s[6:7], s[0:1], 0x8\n"
        "v_lshlrev_b32 v10, 2, v0\nv_cmp_gt_u32 vcc, 10, v0\ns_and_saveexec_b64 s[8:9], vcc\n"
        "v_mov_b32 v5, 1\ns_waitcnt lgkmcnt(0)\nglobal_store_dword v10, v5, s[6:7]\ns_endpgm\n"
        ".rodata\n.p2align 6\n.amdhsa_kernel k\n.amdhsa_user_sgpr_kernarg_segment_ptr 1\n.amdhsa_next_free_vgpr 16\n"
        ".amdhsa_next_free_sgpr 16\n.end_amdhsa_kernel\n";
    emu_fixture f;
    memset(&f, 0, sizeof f);
    f.mcpu = "gfx900";
    f.obj = build_hsaco(src9, 0, "gfx900", &f.len);
    CHECK(f.obj != NULL, "assemble the exec kernel");
    if (f.obj) {
      static uint32_t out[64];
      for (int k = 0; k < 64; k++) out[k] = 0xdeadbeef;
      uint64_t po = fx_buffer(&f, out, sizeof out);
      fx_arg(&f, 8, &po, 8);
      gasp_emu_result r = fx_run(&f, "k", 1, 1, 64, 1, 0);
      CHECK(r.cls == GASP_CLASS_PASS, "exec kernel: %s", r.detail);
      int written = 0, wrong = 0;
      for (int k = 0; k < 64; k++) {
        written += out[k] == 1;
        wrong += k >= 10 && out[k] != 0xdeadbeef;
      }
      CHECK(written == 10 && wrong == 0, "exec kernel: %d written, %d outside the mask", written, wrong);
      free((void *)f.obj);
    }
  }
  return DONE();
}
