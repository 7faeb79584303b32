/* Static checking and assembly of AMD sources: llvm-mc's diagnostics mapped to the answer, then our own checks
 * for what llvm-mc accepts with exit 0 although the hardware would misbehave (amd-r300-facts.md): registers past
 * .amdhsa_next_free_vgpr/sgpr, a loaded register read before the s_waitcnt that covers it, wave size
 * disagreeing between descriptor, metadata and code (vcc vs vcc_lo, exec vs exec_lo), kernel arguments that do
 * not match the task's ABI, LDS offsets past the declared size. Then ld.lld makes the .hsaco. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/proc.h"
#include "amd_parse.h"

#define TOOL_TIMEOUT_MS 30000

/* ---- our own checks (the s_waitcnt one is in amd_waitcnt.c) ---- */

static void check_registers(const amd_program *pr, const gasp_source *src, gasp_diags *d, int *errors) {
  int reported_v = 0, reported_s = 0;
  for (int i = 0; i < pr->n; i++)
    for (int o = 0; o < pr->v[i].nops; o++) {
      amd_reg r;
      if (!gasp_amd_parse_reg(pr->v[i].ops[o].text, &r)) continue;
      int limit = r.cls == 'v' ? pr->next_free_vgpr : pr->next_free_sgpr;
      int *rep = r.cls == 'v' ? &reported_v : &reported_s;
      if (limit < 0 || r.hi < limit || *rep) continue;
      int line = gasp_source_map_line(src, pr->v[i].line);
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RESOURCE, line, line ? pr->v[i].ops[o].col : 0,
                     "%s is past the registers the descriptor allocates, %c0..%c%d (.amdhsa_next_free_%cgpr %d, line "
                     "%d): the hardware would give this wave fewer registers than it uses",
                     pr->v[i].ops[o].text, r.cls, r.cls, limit - 1, r.cls, limit,
                     gasp_source_map_line(src, r.cls == 'v' ? pr->vgpr_line : pr->sgpr_line));
      (*errors)++;
      *rep = 1;
    }
}

static void check_wave(const amd_program *pr, const gasp_source *src, const gasp_amd_arch *a, int meta_wave,
                       int meta_line, gasp_diags *d, int *errors) {
  int want = a->wave64 ? 64 : 32;
  if (pr->wave32_directive >= 0 && (pr->wave32_directive ? 32 : 64) != want) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, gasp_source_map_line(src, pr->wave32_line), 1,
                   ".amdhsa_wavefront_size32 %d asks for wave%d; target %s runs wave%d", pr->wave32_directive,
                   pr->wave32_directive ? 32 : 64, a->mcpu, want);
    (*errors)++;
  }
  if (pr->wave32_directive < 0 && pr->kernel_line && !a->wave64) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, gasp_source_map_line(src, pr->kernel_line), 1,
                   "the kernel descriptor lacks .amdhsa_wavefront_size32 1: target %s runs wave32", a->mcpu);
    (*errors)++;
  }
  if (meta_wave && meta_wave != want) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, gasp_source_map_line(src, meta_line), 1,
                   "the metadata says .wavefront_size: %d; target %s runs wave%d", meta_wave, a->mcpu, want);
    (*errors)++;
  }
  int reported = 0;
  for (int i = 0; i < pr->n && !reported; i++)
    for (int o = 0; o < pr->v[i].nops && !reported; o++) {
      const char *op = pr->v[i].ops[o].text;
      while (*op == '-' || *op == '!') op++;
      const char *msg = NULL;
      if (!a->wave64 && !strcmp(op, "vcc")) msg = "wave32: VCC is 32 bits, write vcc_lo";
      else if (!a->wave64 && !strcmp(op, "exec")) msg = "wave32: EXEC is 32 bits, write exec_lo with the _b32 instruction";
      else if (a->wave64 && gasp_amd_starts(pr->v[i].mn, "v_") && !strcmp(op, "vcc_lo"))
        msg = "wave64: a vector compare or carry uses all 64 bits of VCC, write vcc";
      if (!msg) continue;
      int line = gasp_source_map_line(src, pr->v[i].line);
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, line, line ? pr->v[i].ops[o].col : 0, "%s", msg);
      (*errors)++;
      reported = 1;
    }
}

static void check_lds(const amd_program *pr, const gasp_source *src, const gasp_amd_arch *a, uint32_t dynamic,
                      gasp_diags *d, int *errors) {
  if (pr->lds > (long)a->max_lds) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RESOURCE, gasp_source_map_line(src, (int)pr->lds_line), 1,
                   ".amdhsa_group_segment_fixed_size %ld: %s has %u bytes of LDS per workgroup", pr->lds, a->mcpu, a->max_lds);
    (*errors)++;
  }
  long declared = (pr->lds < 0 ? 0 : pr->lds) + dynamic;
  for (int i = 0; i < pr->n; i++) {
    const amd_insn *in = &pr->v[i];
    if (!gasp_amd_starts(in->mn, "ds_")) continue;
    /* access size from the mnemonic: _b32/_u32/_f32 4, _b64 8, _b96 12, _b128 16; read2/write2 two of them */
    int size = strstr(in->mn, "b128") ? 16 : strstr(in->mn, "b96") ? 12 : strstr(in->mn, "b64") ? 8 :
               strstr(in->mn, "u8") || strstr(in->mn, "i8") || strstr(in->mn, "_b8") ? 1 :
               strstr(in->mn, "u16") || strstr(in->mn, "i16") || strstr(in->mn, "_b16") ? 2 : 4;
    long reach = -1;
    const char *o;
    if ((o = strstr(in->mods, "offset:"))) reach = strtol(o + 7, NULL, 0) + size;
    int two = strstr(in->mn, "2st64") ? 64 * size : (strstr(in->mn, "read2") || strstr(in->mn, "write2") ||
                                                      strstr(in->mn, "load_2addr") || strstr(in->mn, "store_2addr")) ? size : 0;
    if (two) {
      long o0 = (o = strstr(in->mods, "offset0:")) ? strtol(o + 8, NULL, 0) : 0;
      long o1 = (o = strstr(in->mods, "offset1:")) ? strtol(o + 8, NULL, 0) : 0;
      reach = (o0 > o1 ? o0 : o1) * two + size;
    }
    if (reach > declared) {
      int line = gasp_source_map_line(src, in->line);
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RESOURCE, line, line ? in->mn_col : 0,
                     "%s reaches LDS byte %ld even at address 0, past the %ld bytes the kernel declares "
                     "(.amdhsa_group_segment_fixed_size%s)",
                     in->mn, reach, declared, dynamic ? " plus the launch's dynamic LDS" : "");
      (*errors)++;
    }
  }
}

static void check_abi(const gasp_task *task, const gasp_amd_arch *a, const gasp_amd_layout *got, int meta_line,
                      const gasp_source *src, gasp_diags *d, int *errors) {
  if (!task || task->nparams == 0) return;
  gasp_amd_layout want;
  gasp_amd_layout_for_task(task, a, &want);
  int line = gasp_source_map_line(src, meta_line);
  if (strcmp(got->kernel, task->kernel)) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, line, 1, "the metadata describes kernel '%s'; the task's is '%s'",
                   got->kernel, task->kernel);
    (*errors)++;
  }
  if (got->nexplicit != want.nexplicit) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, line, 1,
                   "the metadata declares %d kernel arguments; the task passes %d", got->nexplicit, want.nexplicit);
    (*errors)++;
    return;
  }
  for (int i = 0, k = 0; i < got->nargs && k < want.nexplicit; i++) {
    if (got->args[i].kind != GASP_AMD_ARG_BUFFER && got->args[i].kind != GASP_AMD_ARG_VALUE) continue;
    const gasp_param *p = &task->params[k];
    if (got->args[i].kind != want.args[k].kind || got->args[i].size != want.args[k].size ||
        got->args[i].offset != want.args[k].offset) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, line, 1,
                     "kernel argument %d (%s) is %s of %u bytes at offset %u in the metadata; the task passes %s of %u "
                     "bytes at offset %u",
                     k, p->name, got->args[i].kind == GASP_AMD_ARG_BUFFER ? "a global_buffer" : "by_value",
                     got->args[i].size, got->args[i].offset,
                     want.args[k].kind == GASP_AMD_ARG_BUFFER ? "a global_buffer" : "by_value", want.args[k].size,
                     want.args[k].offset);
      (*errors)++;
    }
    k++;
  }
  /* the hidden arguments the harness fills must lie inside the segment it is told to allocate */
  for (int i = 0; i < got->nargs; i++)
    if (got->args[i].offset + got->args[i].size > got->kernarg_size) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, line, 1,
                     "argument at offset %u (%u bytes) lies past .kernarg_segment_size %u", got->args[i].offset,
                     got->args[i].size, got->kernarg_size);
      (*errors)++;
      break;
    }
}

/* ---- llvm-mc and ld.lld ---- */

static gasp_class class_of_message(const char *m) {
  if (strstr(m, "out of range") || strstr(m, "too large value") || strstr(m, "invalid register index") ||
      strstr(m, "register index") || strstr(m, "invalid register alignment"))
    return GASP_CLASS_RANGE;
  if (strstr(m, "too many") || strstr(m, "exceeds") || strstr(m, "amdhsa_next_free") || strstr(m, "must be <="))
    return GASP_CLASS_RESOURCE;
  if (strstr(m, "not valid for this GPU") || strstr(m, "not supported on this GPU") || strstr(m, "invalid operand") ||
      strstr(m, "must match") || strstr(m, "undefined") || strstr(m, "not a valid") || strstr(m, "unsupported") ||
      strstr(m, "illegal") || (strstr(m, "invalid") && strstr(m, "modifier")))
    return GASP_CLASS_SEMANTIC;
  return GASP_CLASS_SYNTAX;
}

/* Maps "FILE:LINE:COL: error: msg" lines of a tool's stderr to diagnostics on answer lines. Returns errors. */
static int map_tool_diags(const char *err, const gasp_source *src, const char *tool, gasp_diags *d) {
  int errors = 0;
  for (const char *p = err; p && *p;) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char l[700];
    snprintf(l, sizeof l, "%.*s", (int)(n < sizeof l - 1 ? n : sizeof l - 1), p);
    p = e ? e + 1 : NULL;
    const char *kw = NULL;
    gasp_severity sev = GASP_SEV_ERROR;
    if ((kw = strstr(l, ": error: "))) sev = GASP_SEV_ERROR;
    else if ((kw = strstr(l, ": warning: "))) sev = GASP_SEV_WARNING;
    else continue;
    /* walk back over ":COL" and ":LINE" */
    int line = 0, col = 0;
    const char *c = kw;
    const char *c2 = c;
    while (c2 > l && isdigit((unsigned char)c2[-1])) c2--;
    if (c2 > l && c2[-1] == ':' && c2 < c) {
      col = atoi(c2);
      const char *l2 = c2 - 1;
      while (l2 > l && isdigit((unsigned char)l2[-1])) l2--;
      if (l2 < c2 - 1) line = atoi(l2);
    }
    const char *msg = strchr(kw + 2, ':') + 2;
    int aline = line ? gasp_source_map_line(src, line) : 0;
    gasp_class cls = sev == GASP_SEV_ERROR ? class_of_message(msg) : GASP_CLASS_PASS;
    /* the harness's own lines are named as such, so that a model is not told to fix what it did not write */
    gasp_diags_add(d, sev, cls, aline, aline ? col : 0, "%s%s%s%s", line ? "" : tool, line ? "" : ": ", msg,
                   line && !aline ? " (in the harness scaffold)" : "");
    if (sev == GASP_SEV_ERROR) errors++;
  }
  return errors;
}

int gasp_amd_check(const gasp_target *t, const gasp_task *task, const gasp_source *src, gasp_binary *bin, gasp_diags *d) {
  const gasp_amd_arch *a = gasp_amd_arch_of(t);
  char mc[600], lld[600];
  int no_mc = gasp_amd_tool("llvm-mc", mc, sizeof mc), no_lld = gasp_amd_tool("ld.lld", lld, sizeof lld);
  if (no_mc || no_lld) { /* both looked up: the message names both paths */
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0,
                   "LLVM 19 tools not found (%s, %s): apt-get install llvm-19 lld-19", mc, lld);
    return -1;
  }
  char dir[512], in[600], obj[600], hsaco[600];
  if (gasp_tmpdir(dir, sizeof dir)) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "cannot make a temporary directory");
    return -1;
  }
  snprintf(in, sizeof in, "%s/k.s", dir);
  snprintf(obj, sizeof obj, "%s/k.o", dir);
  snprintf(hsaco, sizeof hsaco, "%s/k.hsaco", dir);
  gasp_write_file(in, src->text, strlen(src->text));
  char mcpu[64];
  snprintf(mcpu, sizeof mcpu, "-mcpu=%s", a->mcpu);
  char *argv[] = {mc, "-triple=amdgcn-amd-amdhsa", mcpu, a->wave64 ? "-mattr=+wavefrontsize64" : "-mattr=+wavefrontsize32",
                  "-filetype=obj", in, "-o", obj, NULL};
  gasp_proc_result r;
  int errors = 0;
  if (gasp_proc_run(argv, TOOL_TIMEOUT_MS, 1 << 20, &r) || !r.exited) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "llvm-mc did not run to completion%s",
                   r.timed_out ? " (time limit)" : "");
    gasp_proc_result_free(&r);
    gasp_rmtree_flat(dir);
    return -1;
  }
  errors += map_tool_diags(r.err, src, "llvm-mc", d);
  if (r.exit_code && !errors) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SYNTAX, 0, 0, "llvm-mc failed: %.400s", r.err);
    errors++;
  }
  gasp_proc_result_free(&r);

  /* our own checks, on the same text */
  amd_program pr;
  gasp_amd_parse_program(src->text, &pr);
  gasp_amd_layout lay;
  int meta_line = 0, meta_wave = 0;
  char merr[256];
  int have_meta = gasp_amd_meta_parse(src->text, task && task->nparams ? task->kernel : NULL, &lay, &meta_line, &meta_wave,
                                      merr, sizeof merr) == 0;
  if (!have_meta) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, gasp_source_map_line(src, meta_line), meta_line ? 1 : 0, "%s", merr);
    errors++;
  }
  check_registers(&pr, src, d, &errors);
  gasp_amd_check_waitcnt(&pr, src, a->gfx, d, &errors, NULL, NULL);
  check_wave(&pr, src, a, meta_wave, meta_line, d, &errors);
  gasp_trial_shape sh;
  char serr[160];
  uint32_t dynamic = task && task->nparams && gasp_task_shape(task, 0, &sh, serr, sizeof serr) == 0 ? sh.shared_bytes : 0;
  check_lds(&pr, src, a, dynamic, d, &errors);
  if (have_meta) {
    check_abi(task, a, &lay, meta_line, src, d, &errors);
    if (pr.lds >= 0 && (long)lay.group_segment != pr.lds) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, gasp_source_map_line(src, meta_line), 1,
                     "the metadata's .group_segment_fixed_size %u differs from the descriptor's %ld", lay.group_segment, pr.lds);
      errors++;
    }
  }
  free(pr.v);
  if (errors) {
    gasp_rmtree_flat(dir);
    return -1;
  }
  char *largv[] = {lld, "-shared", obj, "-o", hsaco, NULL};
  if (gasp_proc_run(largv, TOOL_TIMEOUT_MS, 1 << 20, &r) || !r.exited || r.exit_code) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, 0, 0, "ld.lld: %.400s", r.err ? r.err : "did not run");
    gasp_proc_result_free(&r);
    gasp_rmtree_flat(dir);
    return -1;
  }
  gasp_proc_result_free(&r);
  if (bin) {
    memset(bin, 0, sizeof *bin);
    char *data;
    size_t len;
    if (gasp_read_file(hsaco, 64u << 20, &data, &len)) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "ld.lld wrote no code object");
      gasp_rmtree_flat(dir);
      return -1;
    }
    bin->data = data;
    bin->len = len;
    snprintf(bin->kernel, sizeof bin->kernel, "%s", lay.kernel);
    bin->regs = pr.next_free_vgpr;
    bin->shared_static = (int)lay.group_segment;
    gasp_amd_layout *l = malloc(sizeof *l);
    *l = lay;
    snprintf(l->mcpu, sizeof l->mcpu, "%s", a->mcpu);
    l->wave64 = a->wave64;
    bin->launch = l;
  }
  gasp_rmtree_flat(dir);
  return 0;
}
