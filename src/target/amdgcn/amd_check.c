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
#include "amd.h"

#define TOOL_TIMEOUT_MS 30000

/* ---- a small line parser: mnemonic, operands with their columns, modifiers ---- */

#define MAX_OPS 16

typedef struct {
  int line;
  char mn[64];
  int mn_col;
  int nops;
  struct {
    char text[96];
    int col;
  } ops[MAX_OPS];
  char mods[160];  /* the space-separated modifiers after the last operand (offset:16 glc ...) */
} amd_insn;

typedef struct {
  char cls;   /* 'v' or 's' */
  int lo, hi;
} amd_reg;

/* Parses one operand into a register range; 0 when it is none (constants, vcc, exec, labels, null). */
static int parse_reg(const char *op, amd_reg *r) {
  while (*op == '-' || *op == '|' || *op == '!' || *op == ' ') op++;
  static const char *const wraps[] = {"abs(", "neg(", "sext(", NULL};
  for (int i = 0; wraps[i]; i++)
    if (!strncmp(op, wraps[i], strlen(wraps[i]))) op += strlen(wraps[i]);
  if (*op != 'v' && *op != 's') return 0;
  r->cls = *op;
  const char *p = op + 1;
  char *end;
  if (*p == '[') {
    long lo = strtol(p + 1, &end, 10);
    if (end == p + 1 || *end != ':') return 0;
    long hi = strtol(end + 1, &end, 10);
    if (*end != ']') return 0;
    r->lo = (int)lo;
    r->hi = (int)hi;
    return 1;
  }
  if (!isdigit((unsigned char)*p)) return 0;
  long v = strtol(p, &end, 10);
  if (isalnum((unsigned char)*end) || *end == '_') return 0;
  r->lo = r->hi = (int)v;
  return 1;
}

/* Splits "mnemonic op, op, op mods" at text (already without comment and label). */
static void parse_insn(const char *text, int text_col, int line, amd_insn *in) {
  memset(in, 0, sizeof *in);
  in->line = line;
  const char *p = text;
  size_t k = 0;
  while (*p && !isspace((unsigned char)*p) && k < sizeof in->mn - 1) in->mn[k++] = *p++;
  in->mn_col = text_col;
  while (*p) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) break;
    const char *s = p;
    int depth = 0;
    while (*p && !(depth == 0 && *p == ',')) {
      if (*p == '[' || *p == '(') depth++;
      if (*p == ']' || *p == ')') depth--;
      p++;
    }
    /* the operand is the first word; later words of the last operand are modifiers */
    const char *w = s;
    depth = 0;
    while (w < p && !(depth == 0 && isspace((unsigned char)*w))) {
      if (*w == '[' || *w == '(') depth++;
      if (*w == ']' || *w == ')') depth--;
      w++;
    }
    if (in->nops < MAX_OPS) {
      size_t n = (size_t)(w - s) < sizeof in->ops[0].text - 1 ? (size_t)(w - s) : sizeof in->ops[0].text - 1;
      memcpy(in->ops[in->nops].text, s, n);
      in->ops[in->nops].col = text_col + (int)(s - text);
      in->nops++;
    }
    if (w < p) {
      size_t l = strlen(in->mods);
      snprintf(in->mods + l, sizeof in->mods - l, "%.*s ", (int)(p - w), w);
    }
    if (*p == ',') p++;
  }
}

typedef struct {
  amd_insn *v;
  int n, cap;
  /* descriptor and target directives */
  int next_free_vgpr, next_free_sgpr, vgpr_line, sgpr_line;
  int wave32_directive, wave32_line;   /* -1 absent */
  long lds, lds_line;
  int kernel_line;
} amd_program;

static void push(amd_program *pr, const amd_insn *in) {
  if (pr->n == pr->cap) {
    pr->cap = pr->cap ? 2 * pr->cap : 128;
    pr->v = realloc(pr->v, (size_t)pr->cap * sizeof *pr->v);
  }
  pr->v[pr->n++] = *in;
}

static long directive_value(const char *s) {
  while (*s && !isspace((unsigned char)*s)) s++;
  return strtol(s, NULL, 0);
}

static void parse_program(const char *text, amd_program *pr) {
  memset(pr, 0, sizeof *pr);
  pr->next_free_vgpr = pr->next_free_sgpr = -1;
  pr->wave32_directive = -1;
  pr->lds = -1;
  int in_meta = 0, line = 0;
  const char *p = text;
  while (*p) {
    line++;
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char buf[512];
    size_t m = n < sizeof buf - 1 ? n : sizeof buf - 1;
    memcpy(buf, p, m);
    buf[m] = 0;
    p = e ? e + 1 : p + n;
    /* comments: ';' and '//' outside quotes */
    int q = 0;
    for (char *c = buf; *c; c++) {
      if (*c == '"') q = !q;
      if (!q && (*c == ';' || (c[0] == '/' && c[1] == '/'))) {
        *c = 0;
        break;
      }
    }
    char *s = buf;
    while (isspace((unsigned char)*s)) s++;
    if (in_meta) {
      if (!strncmp(s, ".end_amdgpu_metadata", 20)) in_meta = 0;
      continue;
    }
    if (!strncmp(s, ".amdgpu_metadata", 16)) {
      in_meta = 1;
      continue;
    }
    /* labels, possibly followed by an instruction */
    for (;;) {
      char *c = s;
      while (*c && (isalnum((unsigned char)*c) || *c == '_' || *c == '.' || *c == '$')) c++;
      if (c > s && *c == ':' && c[1] != ':') {
        s = c + 1;
        while (isspace((unsigned char)*s)) s++;
        continue;
      }
      break;
    }
    if (!*s) continue;
    if (*s == '.') {
      if (!strncmp(s, ".amdhsa_next_free_vgpr", 22)) pr->next_free_vgpr = (int)directive_value(s), pr->vgpr_line = line;
      else if (!strncmp(s, ".amdhsa_next_free_sgpr", 22)) pr->next_free_sgpr = (int)directive_value(s), pr->sgpr_line = line;
      else if (!strncmp(s, ".amdhsa_wavefront_size32", 24)) pr->wave32_directive = (int)directive_value(s), pr->wave32_line = line;
      else if (!strncmp(s, ".amdhsa_group_segment_fixed_size", 32)) pr->lds = directive_value(s), pr->lds_line = line;
      else if (!strncmp(s, ".amdhsa_kernel", 14) && isspace((unsigned char)s[14])) pr->kernel_line = line;
      continue;
    }
    if (!islower((unsigned char)*s)) continue;
    /* gfx11 dual issue: two halves, each with its own destination */
    char *dual = strstr(s, "::");
    if (dual) *dual = 0;
    amd_insn in;
    parse_insn(s, (int)(s - buf) + 1, line, &in);
    push(pr, &in);
    if (dual) {
      char *t = dual + 2;
      while (isspace((unsigned char)*t)) t++;
      parse_insn(t, (int)(t - buf) + 1, line, &in);
      push(pr, &in);
    }
  }
}

static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

void gasp_amd_scan_regs(const char *text, int *max_vgpr, int *max_sgpr) {
  amd_program pr;
  parse_program(text, &pr);
  *max_vgpr = *max_sgpr = -1;
  for (int i = 0; i < pr.n; i++)
    for (int k = 0; k < pr.v[i].nops; k++) {
      amd_reg r;
      if (!parse_reg(pr.v[i].ops[k].text, &r)) continue;
      int *mx = r.cls == 'v' ? max_vgpr : max_sgpr;
      if (r.hi > *mx) *mx = r.hi;
    }
  free(pr.v);
}

/* ---- instruction roles ---- */

typedef enum { MEM_NONE = 0, MEM_VM, MEM_DS, MEM_SMEM } amd_mem;

/* Does the instruction's first operand receive its result (1) or are all operands read (0)? */
static int has_dest(const amd_insn *in, int gfx) {
  const char *m = in->mn;
  if (starts(m, "global_store") || starts(m, "flat_store") || starts(m, "buffer_store") || starts(m, "scratch_store") ||
      starts(m, "s_store") || starts(m, "s_buffer_store") || starts(m, "s_cmp") || starts(m, "s_bitcmp") ||
      starts(m, "s_setpc") || starts(m, "s_cbranch") || starts(m, "s_branch") || starts(m, "s_waitcnt") ||
      starts(m, "s_sendmsg") || starts(m, "s_setreg"))
    return 0;
  if (gfx >= 10 && starts(m, "v_cmpx")) return 0; /* RDNA's v_cmpx writes EXEC only */
  if (starts(m, "ds_")) return strstr(m, "read") || strstr(m, "load") || strstr(m, "_rtn") || starts(m, "ds_swizzle") ||
                               starts(m, "ds_permute") || starts(m, "ds_bpermute");
  if (strstr(m, "_atomic_")) return strstr(in->mods, "glc") || strstr(in->mods, "sc0");
  return 1;
}

static amd_mem load_kind(const amd_insn *in) {
  const char *m = in->mn;
  if (starts(m, "global_load") || starts(m, "flat_load") || starts(m, "buffer_load") || starts(m, "scratch_load"))
    return MEM_VM;
  if ((starts(m, "global_atomic") || starts(m, "flat_atomic") || starts(m, "buffer_atomic")) &&
      (strstr(in->mods, "glc") || strstr(in->mods, "sc0")))
    return MEM_VM;
  if (starts(m, "s_load") || starts(m, "s_buffer_load")) return MEM_SMEM;
  if (starts(m, "ds_") && (strstr(m, "read") || strstr(m, "load") || strstr(m, "_rtn") || starts(m, "ds_bpermute") ||
                           starts(m, "ds_permute") || starts(m, "ds_swizzle")))
    return MEM_DS;
  return MEM_NONE;
}

/* ---- the s_waitcnt check (static, along the fall-through path) ---- */

typedef struct {
  amd_reg dst;
  amd_mem kind;
  int line;
  char mn[64];
} pending_load;

/* Parses s_waitcnt's operand into the counts it waits for (-1: that counter is not waited on). */
static void waitcnt_of(const amd_insn *in, int *vm, int *lgkm) {
  *vm = *lgkm = -1;
  if (!strcmp(in->mn, "s_waitcnt_vmcnt") && in->nops >= 2) { *vm = (int)strtol(in->ops[1].text, NULL, 0); return; }
  if (!strcmp(in->mn, "s_waitcnt_lgkmcnt") && in->nops >= 2) { *lgkm = (int)strtol(in->ops[1].text, NULL, 0); return; }
  if (strcmp(in->mn, "s_waitcnt")) return;
  char all[256] = {0};
  for (int k = 0; k < in->nops; k++) strncat(all, in->ops[k].text, sizeof all - strlen(all) - 2), strcat(all, " ");
  strncat(all, in->mods, sizeof all - strlen(all) - 1);
  const char *v = strstr(all, "vmcnt("), *l = strstr(all, "lgkmcnt(");
  if (v) *vm = atoi(v + 6);
  if (l) *lgkm = atoi(l + 8);
  if (!v && !l && !strstr(all, "expcnt(")) {
    /* a raw immediate: 0 waits for everything; other encodings differ per generation: take them as a full
     * wait, so that this check never reports a hazard that is not there */
    *vm = *lgkm = 0;
  }
}

static int overlap(const amd_reg *a, const amd_reg *b) { return a->cls == b->cls && a->lo <= b->hi && b->lo <= a->hi; }

/* Reports every hazard into d; with d NULL stops at the first and returns its text line and counter in
 * *first_line / *first_kind (0 when none). */
static void check_waitcnt(const amd_program *pr, const gasp_source *src, int gfx, gasp_diags *d, int *errors,
                          int *first_line, amd_mem *first_kind) {
  if (first_line) *first_line = 0;
  pending_load pend[256];
  int np = 0;
  for (int i = 0; i < pr->n; i++) {
    const amd_insn *in = &pr->v[i];
    int vm, lgkm;
    waitcnt_of(in, &vm, &lgkm);
    if (vm >= 0) {
      int nvm = 0;
      for (int k = 0; k < np; k++) nvm += pend[k].kind == MEM_VM;
      /* vector memory returns in order (for loads): all but the newest vm entries have arrived */
      for (int k = 0; k < np && nvm > vm;)
        if (pend[k].kind == MEM_VM) {
          memmove(&pend[k], &pend[k + 1], (size_t)(np - k - 1) * sizeof *pend);
          np--, nvm--;
        } else k++;
    }
    if (lgkm >= 0) {
      int nl = 0;
      for (int k = 0; k < np; k++) nl += pend[k].kind != MEM_VM;
      /* LDS returns in order, scalar loads out of order: only lgkmcnt(0) is sure to cover a scalar load */
      for (int k = 0; k < np && nl > lgkm;)
        if (pend[k].kind == MEM_DS || (pend[k].kind == MEM_SMEM && lgkm == 0)) {
          memmove(&pend[k], &pend[k + 1], (size_t)(np - k - 1) * sizeof *pend);
          np--, nl--;
        } else k++;
    }
    int dest = has_dest(in, gfx);
    /* sources first (a register read is the hazard that matters), then the destination */
    for (int j = 0; j < in->nops; j++) {
      int o = dest ? (j + 1) % in->nops : j;
      amd_reg r;
      if (!parse_reg(in->ops[o].text, &r)) continue;
      int is_dest = dest && o == 0;
      for (int k = 0; k < np; k++)
        if (overlap(&r, &pend[k].dst)) {
          amd_mem self = load_kind(in);
          if (is_dest && self == pend[k].kind && self != MEM_SMEM) {
            /* a second load into the same register through an in-order counter lands after the first: the
             * older one is superseded, not a hazard */
            memmove(&pend[k], &pend[k + 1], (size_t)(np - k - 1) * sizeof *pend);
            np--;
            k--;
            continue;
          }
          if (!d) {
            *first_line = in->line;
            *first_kind = pend[k].kind;
            return;
          }
          int line = gasp_source_map_line(src, in->line);
          gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_HAZARD, line, line ? in->ops[o].col : 0,
                         "%s is %s before the s_waitcnt %s that covers the %s into it (line %d): the hardware would "
                         "%s%s",
                         in->ops[o].text, is_dest ? "written" : "read",
                         pend[k].kind == MEM_VM ? "vmcnt" : "lgkmcnt", pend[k].mn, gasp_source_map_line(src, pend[k].line),
                         is_dest ? "let the late load overwrite the new value" : "read a stale value",
                         line ? "" : " (in the harness scaffold)");
          (*errors)++;
          memmove(&pend[k], &pend[k + 1], (size_t)(np - k - 1) * sizeof *pend);
          np--;
          k--;
        }
    }
    amd_mem lk = load_kind(in);
    if (lk != MEM_NONE && in->nops > 0 && np < 256) {
      amd_reg r;
      if (parse_reg(in->ops[0].text, &r)) {
        pend[np].dst = r;
        pend[np].kind = lk;
        pend[np].line = in->line;
        snprintf(pend[np].mn, sizeof pend[np].mn, "%s", in->mn);
        np++;
      }
    }
    /* code after an unconditional jump or the end is not reached by falling through */
    if (!strcmp(in->mn, "s_branch") || !strcmp(in->mn, "s_endpgm") || starts(in->mn, "s_setpc")) np = 0;
  }
}

/* ---- the other own checks ---- */

static void check_registers(const amd_program *pr, const gasp_source *src, gasp_diags *d, int *errors) {
  int reported_v = 0, reported_s = 0;
  for (int i = 0; i < pr->n; i++)
    for (int o = 0; o < pr->v[i].nops; o++) {
      amd_reg r;
      if (!parse_reg(pr->v[i].ops[o].text, &r)) continue;
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
      else if (a->wave64 && starts(pr->v[i].mn, "v_") && !strcmp(op, "vcc_lo"))
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
    if (!starts(in->mn, "ds_")) continue;
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
  if (gasp_amd_tool("llvm-mc", mc, sizeof mc) || gasp_amd_tool("ld.lld", lld, sizeof lld)) {
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
  parse_program(src->text, &pr);
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
  check_waitcnt(&pr, src, a->gfx, d, &errors, NULL, NULL);
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

/* The s_waitcnt rewriter (issue 7): before the first use of a register whose load is still outstanding, insert
 * the wait that covers it (vmcnt(0) for vector memory, lgkmcnt(0) for scalar and LDS loads), then look again,
 * until no use is premature. Waiting for zero is always correct, if not always the fastest. Each insertion is
 * noted in d; the answer's line numbers are kept through the source's line map. */
int gasp_amd_rewrite(const gasp_target *t, const gasp_task *task, gasp_source *src, gasp_diags *d) {
  (void)task;
  const gasp_amd_arch *a = gasp_amd_arch_of(t);
  int changes = 0;
  for (int round = 0; round < 256; round++) {
    amd_program pr;
    parse_program(src->text, &pr);
    int line;
    amd_mem kind;
    int errors = 0;
    check_waitcnt(&pr, src, a->gfx, NULL, &errors, &line, &kind);
    free(pr.v);
    if (!line) break;
    /* the line table, made from the range the first time */
    int nlines = 1;
    for (const char *c = src->text; *c; c++) nlines += *c == '\n';
    if (!src->line_map) {
      int *first = malloc((size_t)nlines * sizeof *first);
      for (int i = 0; i < nlines; i++) first[i] = gasp_source_map_line(src, i + 1);
      src->line_map = first;
      src->line_map_len = nlines;
    }
    const char *at = src->text;
    for (int i = 1; i < line && at; i++) at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL;
    if (!at) break;
    const char *wait = kind == MEM_VM ? "  s_waitcnt vmcnt(0)\n" : "  s_waitcnt lgkmcnt(0)\n";
    gasp_str s;
    gasp_str_init(&s);
    gasp_str_append(&s, src->text, (size_t)(at - src->text));
    gasp_str_puts(&s, wait);
    gasp_str_puts(&s, at);
    free(src->text);
    src->text = gasp_str_take(&s);
    int *m = malloc((size_t)(src->line_map_len + 1) * sizeof *m);
    memcpy(m, src->line_map, (size_t)(line - 1) * sizeof *m);
    m[line - 1] = 0;
    memcpy(m + line, src->line_map + line - 1, (size_t)(src->line_map_len - line + 1) * sizeof *m);
    free(src->line_map);
    src->line_map = m;
    src->line_map_len++;
    int aline = m[line];
    gasp_diags_add(d, GASP_SEV_NOTE, GASP_CLASS_PASS, aline, aline ? 1 : 0, "rewrite: inserted s_waitcnt %s before this line",
                   kind == MEM_VM ? "vmcnt(0)" : "lgkmcnt(0)");
    changes++;
  }
  return changes;
}
