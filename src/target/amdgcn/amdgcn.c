/* The AMD targets gfx900 (GCN5 "Vega", wave64), gfx1030 (RDNA2) and gfx1100 (RDNA3), both wave32: prompts, the
 * harness scaffold (kernel descriptor and metadata for a body, or the whole kernel for a snippet), and the
 * reference answers compiled by clang-19 from tasks/amdgcn/<id>.cl. Checking and assembly are in amd_check.c;
 * running is the emulator's (emu/) through src/verify/verify_emu.c. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/proc.h"
#include "amd.h"
#include "../../grammar/grammar.h"
#include "amd_parse.h"

/* LLVM AMDGPU usage docs (llvm-19) and the ISA guides: 256 addressable VGPRs everywhere; 102 SGPRs on GFX9,
 * 106 on GFX10/11; 64 KiB LDS per workgroup. */
static const gasp_amd_arch arches[] = {
    {"gfx900", 9, 1, 256, 102, 65536},
    {"gfx1030", 10, 0, 256, 106, 65536},
    {"gfx1100", 11, 0, 256, 106, 65536},
};

const gasp_amd_arch *gasp_amd_arch_by_mcpu(const char *mcpu) {
  for (size_t i = 0; i < sizeof arches / sizeof *arches; i++)
    if (!strcmp(arches[i].mcpu, mcpu)) return &arches[i];
  return NULL;
}

const gasp_amd_arch *gasp_amd_arch_of(const gasp_target *t) { return gasp_amd_arch_by_mcpu(t->arch); }

/* ---- prompts ---- */

static int array_count(const gasp_task *task) {
  int n = 0;
  for (int i = 0; i < task->nparams; i++) n += task->params[i].role != GASP_ROLE_SCALAR;
  return n;
}

/* The register a snippet finds param i in: arrays in order from v2 (v0 is the work-item id, v1 the byte offset). */
static int snippet_vreg(const gasp_task *task, int param) {
  int k = 0;
  for (int i = 0; i < param; i++) k += task->params[i].role != GASP_ROLE_SCALAR;
  return 2 + k;
}

static void amd_facts(const gasp_target *t, const gasp_task *task, gasp_str *o) {
  const gasp_amd_arch *a = gasp_amd_arch_of(t);
  gasp_str_printf(o, "- %s, assembled by LLVM 19's llvm-mc (-mcpu=%s) into an HSA code object.\n", t->gpu, a->mcpu);
  gasp_str_printf(o, "- Waves of %d lanes. VGPRs v0..v255 hold one 32-bit value per lane; SGPRs s0..s%d one value per "
                     "wave; 64-bit values use pairs (v[2:3], s[4:5]). EXEC masks the active lanes%s; VCC is %s; SCC is "
                     "the scalar condition bit.\n",
                  a->wave64 ? 64 : 32, a->max_sgpr - 1, a->wave64 ? " (64 bits, `exec`)" : " (`exec_lo` in wave32)",
                  a->wave64 ? "`vcc` (64 bits)" : "`vcc_lo` (write `vcc_lo`, never `vcc`, in wave32)");
  gasp_str_puts(o, "- Memory: `s_load_dword`/`s_load_dwordx2`/`x4` read kernel arguments into SGPRs (counted by lgkmcnt); "
                   "`global_load_dword vD, vOff, s[P:P+1]` / `global_store_dword vOff, vData, s[P:P+1]` address "
                   "pointer + 32-bit byte offset (or `v[A:A+1], off` with a 64-bit address; counted by vmcnt); "
                   "`ds_read_b32`/`ds_write_b32` access LDS (lgkmcnt).\n"
                   "- Loads return asynchronously: before reading a loaded register wait with `s_waitcnt vmcnt(0)` "
                   "(global) or `s_waitcnt lgkmcnt(0)` (scalar loads, LDS). Reading it earlier reads stale data.\n");
  if (a->gfx >= 10)
    gasp_str_puts(o, "- RDNA: integer add without carry is `v_add_nc_u32`; with carry `v_add_co_u32 vD, vcc_lo, a, b` and "
                     "`v_add_co_ci_u32_e32 vD, vcc_lo, a, b, vcc_lo`; `v_cmpx_*` writes only EXEC; exec ops are `_b32` on "
                     "`exec_lo`.\n");
  else
    gasp_str_puts(o, "- GCN5: `v_add_u32` (no carry), `v_add_co_u32 vD, vcc, a, b` / `v_addc_co_u32 vD, vcc, a, b, vcc`; "
                     "exec ops are `_b64` (`s_and_saveexec_b64 s[A:A+1], vcc`).\n");
  if (a->gfx == 11)
    gasp_str_puts(o, "- gfx11 packs the work-item ids into v0: x = v0 & 0x3ff, y = (v0 >> 10) & 0x3ff, z = v0 >> 20. "
                     "Loads are also named `global_load_b32`, `s_load_b32` (the old names are accepted).\n");
  if (task->level == 4)
    gasp_str_printf(o, "- The task's warps are groups of 32 consecutive work-items%s. Cross-lane reads: `ds_bpermute_b32 vD, "
                       "vAddr, vData` gives each lane vData of lane vAddr/4 of its wave (wait with lgkmcnt); a ballot is "
                       "`v_cmp_*` into %s; PTX's shfl/vote names in the task text mean these.\n",
                    a->wave64 ? " (a wave64 holds two: lanes 0-31 and 32-63)" : " (one wave32 each)",
                    a->wave64 ? "an SGPR pair (64 bits, one per lane)" : "an SGPR (32 bits, one per lane)");
  gasp_str_puts(o, "- Float ops round to nearest even; denormals are kept; `v_fma_f32` fuses, `v_mul_f32` + `v_add_f32` "
                   "round twice. `s_barrier` synchronises the waves of a workgroup.\n");
}

static void abi_text(const gasp_target *t, const gasp_task *task, gasp_str *o) {
  const gasp_amd_arch *a = gasp_amd_arch_of(t);
  gasp_amd_layout lay;
  gasp_amd_layout_for_task(task, a, &lay);
  gasp_str_puts(o, "- Kernel arguments (s[0:1] points at them):");
  for (int i = 0; i < task->nparams; i++)
    gasp_str_printf(o, "%s %s %s at offset %u", i ? "," : "", task->params[i].name,
                    task->params[i].role == GASP_ROLE_SCALAR ? gasp_dtype_name(task->params[i].type) : "pointer (8 bytes)",
                    lay.args[i].offset);
  gasp_str_printf(o, "; the workgroup size in x is the u16 at offset %u (y at %u); the grid's workgroup count in x the "
                     "u32 at offset %u.\n",
                  lay.args[lay.nexplicit + 3].offset, lay.args[lay.nexplicit + 4].offset, lay.args[lay.nexplicit].offset);
  gasp_str_printf(o, "- On entry: s[0:1] = kernel-argument pointer, s2/s3/s4 = workgroup id x/y/z, %s.\n",
                  a->gfx >= 11 ? "v0 = packed work-item ids (x in bits 0-9, y 10-19, z 20-29)"
                               : "v0/v1/v2 = work-item id x/y/z");
}

static void amd_constraints(const gasp_target *t, const gasp_task *task, gasp_str *o) {
  const gasp_amd_arch *a = gasp_amd_arch_of(t);
  if (task->snippet) {
    gasp_str_puts(o, "- Syntax: AMDGPU instructions only, one per line (llvm-mc syntax); no directives, labels outside "
                     "your own code, or s_endpgm: your lines are spliced into a kernel that has loaded element i of "
                     "every input and stores the outputs after your lines.\n- Registers: the inputs are");
    /* each name as the description writes it, then its register ("%lo = v3"): the model reads "%lo" in a step and
     * finds the register right after the same tokens here. The earlier "v3 (lo f32)" put the register before a
     * bare name, and the shipped model of 2026-12-05 read the wrong input's register in most of its held-out
     * failures on gfx1030 (tools/train/README.md, "The twelfth run") */
    int k = 0;
    for (int i = 0; i < task->nparams; i++)
      if (task->params[i].role == GASP_ROLE_IN)
        gasp_str_printf(o, "%s %%%s = v%d (%s)", k++ ? "," : "", task->params[i].name, snippet_vreg(task, i),
                        gasp_dtype_name(task->params[i].type));
    gasp_str_puts(o, "; leave the result");
    k = 0;
    for (int i = 0; i < task->nparams; i++)
      if (task->params[i].role == GASP_ROLE_OUT)
        gasp_str_printf(o, "%s %%%s in v%d (%s)", k++ ? "," : "", task->params[i].name, snippet_vreg(task, i),
                        gasp_dtype_name(task->params[i].type));
    gasp_str_printf(o, ". Free for temporaries: v%d-v63, s32-s47 and %s. Do not change v0, v1, s0-s31 or EXEC; do not "
                       "access memory.\n",
                    2 + array_count(task), a->wave64 ? "vcc" : "vcc_lo");
    return;
  }
  gasp_str_printf(o, "- Syntax: the kernel body for llvm-mc -mcpu=%s: instructions and local labels (`.LBB0_1:`) from the "
                     "first instruction to `s_endpgm`. The harness adds the symbol `%s`, the kernel descriptor "
                     "(%s, 64 KiB LDS from address 0) and the argument metadata. Alternatively write the complete "
                     "source yourself (`.amdhsa_kernel %s` ... `.end_amdhsa_kernel` and `.amdgpu_metadata`).\n",
                  a->mcpu, task->kernel, a->wave64 ? "wave64" : "wave32", task->kernel);
  abi_text(t, task, o);
  gasp_str_puts(o, "- Semantics: lanes whose index is outside the data must not load or store (mask them off in EXEC); "
                   "every loaded register is read only after the s_waitcnt that covers it.\n");
  gasp_str_printf(o, "- Hardware context: launched with workgroup (%s, %s, %s) and grid (%s, %s, %s) workgroups.\n",
                  task->block[0], task->block[1], task->block[2], task->grid[0], task->grid[1], task->grid[2]);
}

static void amd_example(const gasp_target *t, const gasp_task *task, gasp_str *o) {
  const gasp_amd_arch *a = gasp_amd_arch_of(t);
  if (task->snippet) {
    gasp_str_printf(o, "```amdgcn\nv_mul_f32_e32 v%d, v2, v2\nv_add_f32_e32 v%d, v%d, v2\n```\n", 2 + array_count(task),
                    2 + array_count(task), 2 + array_count(task));
    return;
  }
  /* out[i] = in[i] * 2 for i < n with (in, out, n) at offsets 0, 8, 16: not the task's answer */
  const char *vc = a->wave64 ? "vcc" : "vcc_lo";
  gasp_str_puts(o, "```amdgcn\n");
  if (a->gfx >= 11) gasp_str_puts(o, "  v_and_b32_e32 v0, 0x3ff, v0\n");
  gasp_str_printf(o,
                  "  s_load_dword s5, s[0:1], 0x10        ; n\n  s_load_dword s6, s[0:1], 0x24        ; group size x (u16)\n"
                  "  s_waitcnt lgkmcnt(0)\n  s_and_b32 s6, s6, 0xffff\n  s_mul_i32 s6, s2, s6\n"
                  "  %s v1, s6, v0                 ; i\n  v_cmp_gt_u32_e32 %s, s5, v1\n  %s\n"
                  "  s_cbranch_execz .LBB0_2\n  s_load_dwordx4 s[8:11], s[0:1], 0x0  ; in, out\n"
                  "  v_lshlrev_b32_e32 v1, 2, v1\n  s_waitcnt lgkmcnt(0)\n  global_load_dword v2, v1, s[8:9]\n"
                  "  s_waitcnt vmcnt(0)\n  v_add_f32_e32 v2, v2, v2\n  global_store_dword v1, v2, s[10:11]\n"
                  ".LBB0_2:\n  s_endpgm\n```\n",
                  a->gfx >= 10 ? "v_add_nc_u32_e32" : "v_add_u32_e32", vc,
                  a->wave64 ? "s_and_saveexec_b64 s[12:13], vcc" : "s_and_saveexec_b32 s12, vcc_lo");
}

static int amd_looks_like_code(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && isspace((unsigned char)s[i])) i++;
  if (i == n) return 0;
  static const char *const prefixes[] = {"s_", "v_", "global_", "flat_", "buffer_", "ds_", "scratch_", NULL};
  for (int k = 0; prefixes[k]; k++) {
    size_t l = strlen(prefixes[k]);
    if (n - i > l && !strncmp(s + i, prefixes[k], l) && isalpha((unsigned char)s[i + l])) {
      /* a mnemonic is one word of [a-z0-9_] followed by space or the end */
      size_t k2 = i;
      while (k2 < n && (islower((unsigned char)s[k2]) || isdigit((unsigned char)s[k2]) || s[k2] == '_')) k2++;
      return k2 == n || isspace((unsigned char)s[k2]);
    }
  }
  if (s[i] == '.' && i + 1 < n && (isalpha((unsigned char)s[i + 1]) || s[i + 1] == '_')) return 1; /* directive, label */
  /* a label of its own: name: */
  size_t k = i;
  while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_' || s[k] == '.' || s[k] == '$')) k++;
  return k > i && k < n && s[k] == ':' && (k + 1 == n || isspace((unsigned char)s[k + 1]));
}

/* ---- the scaffold ---- */

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

int gasp_amd_is_complete(const char *code) { return strstr(code, ".amdhsa_kernel") != NULL; }

static void snippet_prologue(const gasp_amd_arch *a, const gasp_task *task, const gasp_amd_layout *lay, gasp_str *s) {
  int nidx = -1;
  for (int i = 0; i < task->nparams; i++)
    if (task->params[i].role == GASP_ROLE_SCALAR) nidx = i;
  if (a->gfx >= 11) gasp_str_puts(s, "  v_and_b32_e32 v0, 0x3ff, v0\n");
  gasp_str_printf(s, "  s_load_dword s10, s[0:1], 0x%x\n  s_load_dword s11, s[0:1], 0x%x\n  s_waitcnt lgkmcnt(0)\n"
                     "  s_and_b32 s11, s11, 0xffff\n  s_mul_i32 s12, s2, s11\n  %s v1, s12, v0\n",
                  lay->args[nidx].offset, lay->args[lay->nexplicit + 3].offset,
                  a->gfx >= 10 ? "v_add_nc_u32_e32" : "v_add_u32_e32");
  gasp_str_printf(s, "  v_cmp_gt_u32_e32 %s, s10, v1\n  %s\n  s_cbranch_execz .Lgasp_done\n  v_lshlrev_b32_e32 v1, 2, v1\n",
                  a->wave64 ? "vcc" : "vcc_lo",
                  a->wave64 ? "s_and_saveexec_b64 s[14:15], vcc" : "s_and_saveexec_b32 s14, vcc_lo");
  for (int i = 0, k = 0; i < task->nparams; i++)
    if (task->params[i].role != GASP_ROLE_SCALAR) {
      gasp_str_printf(s, "  s_load_dwordx2 s[%d:%d], s[0:1], 0x%x\n", 16 + 2 * k, 17 + 2 * k, lay->args[i].offset);
      k++;
    }
  gasp_str_puts(s, "  s_waitcnt lgkmcnt(0)\n");
  for (int i = 0, k = 0; i < task->nparams; i++) {
    if (task->params[i].role == GASP_ROLE_SCALAR) continue;
    if (task->params[i].role == GASP_ROLE_IN)
      gasp_str_printf(s, "  global_load_dword v%d, v1, s[%d:%d]\n", snippet_vreg(task, i), 16 + 2 * k, 17 + 2 * k);
    k++;
  }
  gasp_str_puts(s, "  s_waitcnt vmcnt(0)\n");
}

static void snippet_epilogue(const gasp_task *task, gasp_str *s) {
  for (int i = 0, k = 0; i < task->nparams; i++) {
    if (task->params[i].role == GASP_ROLE_SCALAR) continue;
    if (task->params[i].role == GASP_ROLE_OUT)
      gasp_str_printf(s, "  global_store_dword v1, v%d, s[%d:%d]\n", snippet_vreg(task, i), 16 + 2 * k, 17 + 2 * k);
    k++;
  }
  gasp_str_puts(s, ".Lgasp_done:\n  s_endpgm\n");
}

static int amd_prepare(const gasp_target *t, const gasp_task *task, const char *code, int first, gasp_source *out,
                       gasp_diags *d) {
  const gasp_amd_arch *a = gasp_amd_arch_of(t);
  memset(out, 0, sizeof *out);
  if (gasp_amd_is_complete(code)) {
    out->text = gasp_strdup(code);
    out->map_first = 1;
    out->map_count = count_lines(code) + 1;
    out->map_orig_first = first;
    return 0;
  }
  if (!task->kernel[0]) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, first, 1,
                   "a kernel body needs a task (--task ID) for its arguments; without one write a complete source "
                   "with its own .amdhsa_kernel and .amdgpu_metadata");
    return -1;
  }
  if (task->snippet) {
    for (int i = 0; i < task->nparams; i++)
      if (task->params[i].role != GASP_ROLE_SCALAR && gasp_dtype_size(task->params[i].type) != 4) {
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0,
                       "the AMD snippet scaffold takes 32-bit elements only; task '%s' has a %s array", task->id,
                       gasp_dtype_name(task->params[i].type));
        return -1;
      }
  }
  gasp_amd_layout lay;
  gasp_amd_layout_for_task(task, a, &lay);
  gasp_str s;
  gasp_str_init(&s);
  gasp_str_printf(&s, "  .amdgcn_target \"amdgcn-amd-amdhsa--%s\"\n  .amdhsa_code_object_version 5\n  .text\n"
                      "  .globl %s\n  .p2align 8\n  .type %s,@function\n%s:\n",
                  a->mcpu, task->kernel, task->kernel, task->kernel);
  if (task->snippet) snippet_prologue(a, task, &lay, &s);
  out->map_first = count_lines(s.data) + 1;
  out->map_count = count_lines(code) + 1;
  out->map_orig_first = first;
  gasp_str_puts(&s, code);
  if (s.len && s.data[s.len - 1] != '\n') gasp_str_puts(&s, "\n");
  if (task->snippet) snippet_epilogue(task, &s);
  gasp_str_printf(&s, ".Lgasp_end:\n  .size %s, .Lgasp_end-%s\n", task->kernel, task->kernel);
  /* the descriptor asks for what the code uses, as a compiler's would; the registers a body names are counted
   * by the same scanner the checker uses */
  int maxv, maxs;
  gasp_amd_scan_regs(s.data, &maxv, &maxs);
  /* at least what the hardware writes at launch: v0..v2 (work-item ids), s0..s4 (kernarg pointer, group ids) */
  int vgprs = maxv + 1 > 3 ? maxv + 1 : 3, sgprs = maxs + 1 > 5 ? maxs + 1 : 5;
  uint32_t lds = a->max_lds;
  gasp_str_printf(&s,
                  "  .rodata\n  .p2align 6\n  .amdhsa_kernel %s\n    .amdhsa_group_segment_fixed_size %u\n"
                  "    .amdhsa_kernarg_size %u\n    .amdhsa_user_sgpr_count 2\n"
                  "    .amdhsa_user_sgpr_kernarg_segment_ptr 1\n    .amdhsa_system_sgpr_workgroup_id_x 1\n"
                  "    .amdhsa_system_sgpr_workgroup_id_y 1\n    .amdhsa_system_sgpr_workgroup_id_z 1\n"
                  "    .amdhsa_system_vgpr_workitem_id 2\n    .amdhsa_next_free_vgpr %d\n    .amdhsa_next_free_sgpr %d\n"
                  "    .amdhsa_float_denorm_mode_32 3\n    .amdhsa_float_denorm_mode_16_64 3\n%s"
                  "  .end_amdhsa_kernel\n  .text\n",
                  task->kernel, lds, lay.kernarg_size, vgprs, sgprs, a->wave64 ? "" : "    .amdhsa_wavefront_size32 1\n");
  gasp_amd_meta_emit(task, a, &lay, lds, vgprs, sgprs, &s);
  out->text = gasp_str_take(&s);
  return 0;
}

/* ---- reference answers: clang-19 on tasks/amdgcn/<id>.cl, cached by content ---- */

#define CLANG_TIMEOUT_MS 60000

int gasp_amd_tool(const char *name, char *buf, size_t cap) {
  /* Debian's llvm-19 packages (amd-r300-facts.md); GASP_LLVM_BIN overrides the folder */
  const char *dir = getenv("GASP_LLVM_BIN");
  snprintf(buf, cap, "%s/%s", dir && *dir ? dir : "/usr/lib/llvm-19/bin", name);
  return access(buf, X_OK) ? -1 : 0;
}

/* clang-19's kernel as the body-only answer the prompt asks for (instructions from the entry to the end, no
 * descriptor, no metadata), so the reference reads like a model's answer and a corpus pair stays short (a
 * complete clang source averages 6.6 KB, most of it descriptor and metadata). clang lays out its own SGPRs:
 * on gfx9/gfx10 the private-segment buffer s[0:3] comes first, so the kernarg pointer is s[4:5] and the
 * workgroup id x is s6; on gfx11 the kernarg pointer is s[0:1] and the ids start at user_sgpr_count (14 or 15
 * with clang-19). The harness's descriptor puts the kernarg pointer in s[0:1] and the ids in s2..s4, so a
 * two- or three-move prologue hands them over. Returns NULL (keep the complete source) for a snippet task and
 * whenever clang asked for anything else: scratch, dispatch or queue pointers, workgroup info. */
static char *amd_body_from_clang(const gasp_task *task, const char *src) {
  if (task->snippet) return NULL;
  struct { const char *key; long v; } f[] = {
      {".amdhsa_user_sgpr_count", -1}, {".amdhsa_user_sgpr_private_segment_buffer", 0},
      {".amdhsa_user_sgpr_dispatch_ptr", 0}, {".amdhsa_user_sgpr_queue_ptr", 0},
      {".amdhsa_user_sgpr_kernarg_segment_ptr", 0}, {".amdhsa_user_sgpr_dispatch_id", 0},
      {".amdhsa_user_sgpr_flat_scratch_init", 0}, {".amdhsa_user_sgpr_private_segment_size", 0},
      {".amdhsa_system_sgpr_workgroup_id_x", 0}, {".amdhsa_system_sgpr_workgroup_id_y", 0},
      {".amdhsa_system_sgpr_workgroup_id_z", 0}, {".amdhsa_system_sgpr_workgroup_info", 0},
      {".amdhsa_private_segment_fixed_size", 0}, {".amdhsa_enable_private_segment", 0},
      {".amdhsa_system_sgpr_private_segment_wavefront_offset", 0}, {".amdhsa_uses_dynamic_stack", 0},
      {".amdhsa_user_sgpr_kernarg_preload_length", 0}};
  enum { CNT, PSB, DPTR, QPTR, KARG, DID, FSI, PSS, WGX, WGY, WGZ, WGI, PRIV, EPRIV, PWO, DYN, PRELOAD, NF };
  for (int i = 0; i < NF; i++) f[i].v = gasp_amd_directive(src, f[i].key, f[i].v);
  if (f[CNT].v < 0 || f[KARG].v != 1 || f[DPTR].v || f[QPTR].v || f[DID].v || f[FSI].v || f[PSS].v || f[WGI].v ||
      f[PRIV].v || f[EPRIV].v || f[PWO].v || f[DYN].v || f[PRELOAD].v)
    return NULL;
  int karg = f[PSB].v ? 4 : 0, id = (int)f[CNT].v;
  /* the body: the lines after "<kernel>:" up to clang's .Lfunc_end, comments and blank lines dropped */
  char label[80];
  snprintf(label, sizeof label, "\n%s:", task->kernel);
  const char *b = strstr(src, label);
  if (!b) return NULL;
  b = strchr(b + 1, '\n');
  const char *e = b ? strstr(b, "\n.Lfunc_end") : NULL;
  if (!e) return NULL;
  gasp_str o;
  gasp_str_init(&o);
  /* ids first: their clang registers (s6.. or s14..) are never the harness's s0..s4 they are read from */
  const int on[3] = {(int)f[WGX].v, (int)f[WGY].v, (int)f[WGZ].v};
  for (int k = 2; k >= 0; k--) {
    if (!on[k]) continue;
    int at = id + (on[0] && k > 0) + (on[1] && k > 1);
    if (at != 2 + k) gasp_str_printf(&o, "  s_mov_b32 s%d, s%d\n", at, 2 + k);
  }
  if (karg) gasp_str_printf(&o, "  s_mov_b64 s[%d:%d], s[0:1]\n", karg, karg + 1);
  for (const char *l = b + 1; l < e;) {
    const char *nl = memchr(l, '\n', (size_t)(e - l));
    if (!nl) nl = e;
    const char *c = memchr(l, ';', (size_t)(nl - l));
    const char *end = c ? c : nl;
    while (end > l && (end[-1] == ' ' || end[-1] == '\t')) end--;
    const char *t = l;
    while (t < end && (*t == ' ' || *t == '\t')) t++;
    if (t < end) {
      if (*t != '.' || end[-1] == ':' || !strncmp(t, ".p2align", 8)) { /* keep instructions, labels, alignment */
        if (end[-1] != ':') gasp_str_puts(&o, "  ");
        gasp_str_append(&o, t, (size_t)(end - t));
        gasp_str_puts(&o, "\n");
      }
    }
    l = nl + 1;
  }
  return gasp_str_take(&o);
}

int gasp_amd_clang_source(const gasp_target *t, const gasp_task *task, char **answer, gasp_diags *d) {
  const gasp_amd_arch *a = gasp_amd_arch_of(t);
  if (!task->amd_reference) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "task '%s' has no tasks/amdgcn/%s.cl", task->id, task->id);
    return -1;
  }
  char prelude_path[600], *prelude = NULL;
  size_t plen = 0;
  snprintf(prelude_path, sizeof prelude_path, "%s", task->amd_reference_path);
  char *slash = strrchr(prelude_path, '/');
  snprintf(slash ? slash + 1 : prelude_path, sizeof prelude_path - (size_t)(slash ? slash + 1 - prelude_path : 0),
           "gasp_amd.h");
  gasp_read_file(prelude_path, 1 << 20, &prelude, &plen);
  uint64_t h = gasp_fnv1a(task->amd_reference, strlen(task->amd_reference), GASP_FNV_SEED);
  if (prelude) h = gasp_fnv1a(prelude, plen, h);
  free(prelude);
  h = gasp_fnv1a(a->mcpu, strlen(a->mcpu), h);
  h = gasp_fnv1a("clang-19-O2-v1", 14, h);
  char cache[1024], path[1400];
  size_t len;
  if (gasp_cache_dir(cache, sizeof cache) == 0) {
    snprintf(path, sizeof path, "%s/%s-%016llx.%s.s", cache, task->id, (unsigned long long)h, a->mcpu);
    if (gasp_read_file(path, 16u << 20, answer, &len) == 0) return 0;
  } else {
    path[0] = 0;
  }
  char clang[600], dir[512], outp[600], mcpu[64];
  if (gasp_amd_tool("clang", clang, sizeof clang)) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "clang-19 not found at %s (apt-get install clang-19)", clang);
    return -1;
  }
  if (gasp_tmpdir(dir, sizeof dir)) return -1;
  snprintf(outp, sizeof outp, "%s/ref.s", dir);
  snprintf(mcpu, sizeof mcpu, "-mcpu=%s", a->mcpu);
  /* correctly rounded division and sqrt, as the tasks' __fdiv_rn / __fsqrt_rn demand (OpenCL allows 2.5 ulp
   * otherwise); -nogpulib: no ROCm device libraries on our machines (amd-r300-facts.md) */
  char *argv[] = {clang, "-x", "cl", "-cl-std=CL2.0", "-Xclang", "-finclude-default-header", "-nogpulib",
                  "-cl-fp32-correctly-rounded-divide-sqrt", "-target", "amdgcn-amd-amdhsa", mcpu, "-O2", "-S", "-o",
                  outp, (char *)task->amd_reference_path, NULL};
  gasp_proc_result r;
  int rc = gasp_proc_run(argv, CLANG_TIMEOUT_MS, 1 << 20, &r);
  int ok = rc == 0 && r.exited && r.exit_code == 0 && gasp_read_file(outp, 16u << 20, answer, &len) == 0;
  if (!ok)
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "clang-19 failed on %s: %.500s", task->amd_reference_path,
                   r.err && *r.err ? r.err : "could not run");
  else if (path[0]) {
    char tmp[1500];
    snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid());
    if (gasp_write_file(tmp, *answer, len) == 0) rename(tmp, path);
  }
  gasp_proc_result_free(&r);
  gasp_rmtree_flat(dir);
  return ok ? 0 : -1;
}

/* A snippet task's answer is its PTX snippet translated (amd_snippet.c) where that is possible; a kernel
 * task's, or a snippet outside the translated subset, is clang's. */
static int amd_reference_answer(const gasp_target *t, const gasp_task *task, char **answer, gasp_diags *d) {
  if (task->snippet && task->ptx_snippet && (*answer = gasp_amd_snippet_from_ptx(t, task, task->ptx_snippet)))
    return 0;
  if (gasp_amd_clang_source(t, task, answer, d)) return -1;
  char *body = amd_body_from_clang(task, *answer);
  if (body) {
    free(*answer);
    *answer = body;
  }
  return 0;
}

int gasp_amd_check(const gasp_target *t, const gasp_task *task, const gasp_source *src, gasp_binary *bin, gasp_diags *d);
int gasp_amd_rewrite(const gasp_target *t, const gasp_task *task, gasp_source *src, gasp_diags *d);

#define AMD_TARGET(sym, nm, g)                                                                                     \
  const gasp_target sym = {.name = nm, .isa = "AMDGCN", .arch = nm, .gpu = g, .exec = GASP_EXEC_EMU, .cc = 0,       \
                           .fence_tags = "amdgcn asm assembly gcn s", .facts = amd_facts,                          \
                           .constraints = amd_constraints, .example = amd_example,                                 \
                           .looks_like_code = amd_looks_like_code, .prepare = amd_prepare, .check = gasp_amd_check, \
                           .reference_answer = amd_reference_answer, .rewrite = gasp_amd_rewrite, .baseline = NULL,     \
                           .grammar = gasp_grammar_amd}

AMD_TARGET(gasp_target_gfx900, "gfx900", "AMD Radeon RX Vega 64 / Instinct MI25 (GCN5, gfx900)");
AMD_TARGET(gasp_target_gfx1030, "gfx1030", "AMD Radeon RX 6800/6900 (RDNA2, gfx1030)");
AMD_TARGET(gasp_target_gfx1100, "gfx1100", "AMD Radeon RX 7900 XTX (RDNA3, gfx1100)");
