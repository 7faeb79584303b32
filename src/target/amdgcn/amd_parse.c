/* The AMD targets' line parser: mnemonic, operands with their columns, modifiers; descriptor directives; the
 * roles of instructions. Shared by the checks, the scaffold's register count and the s_waitcnt rewriter. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd_parse.h"

int gasp_amd_parse_reg(const char *op, amd_reg *r) {
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

long gasp_amd_directive(const char *text, const char *name, long dflt) {
  size_t n = strlen(name);
  for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
    const char *s = l;
    while (*s == ' ' || *s == '\t') s++;
    if (!strncmp(s, name, n) && (s[n] == ' ' || s[n] == '\t')) return directive_value(s);
  }
  return dflt;
}

void gasp_amd_parse_program(const char *text, amd_program *pr) {
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

int gasp_amd_starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

void gasp_amd_scan_regs(const char *text, int *max_vgpr, int *max_sgpr) {
  amd_program pr;
  gasp_amd_parse_program(text, &pr);
  *max_vgpr = *max_sgpr = -1;
  for (int i = 0; i < pr.n; i++)
    for (int k = 0; k < pr.v[i].nops; k++) {
      amd_reg r;
      if (!gasp_amd_parse_reg(pr.v[i].ops[k].text, &r)) continue;
      int *mx = r.cls == 'v' ? max_vgpr : max_sgpr;
      if (r.hi > *mx) *mx = r.hi;
    }
  free(pr.v);
}

/* ---- instruction roles ---- */


int gasp_amd_has_dest(const amd_insn *in, int gfx) {
  const char *m = in->mn;
  if (gasp_amd_starts(m, "global_store") || gasp_amd_starts(m, "flat_store") || gasp_amd_starts(m, "buffer_store") || gasp_amd_starts(m, "scratch_store") ||
      gasp_amd_starts(m, "s_store") || gasp_amd_starts(m, "s_buffer_store") || gasp_amd_starts(m, "s_cmp") || gasp_amd_starts(m, "s_bitcmp") ||
      gasp_amd_starts(m, "s_setpc") || gasp_amd_starts(m, "s_cbranch") || gasp_amd_starts(m, "s_branch") || gasp_amd_starts(m, "s_waitcnt") ||
      gasp_amd_starts(m, "s_sendmsg") || gasp_amd_starts(m, "s_setreg"))
    return 0;
  if (gfx >= 10 && gasp_amd_starts(m, "v_cmpx")) return 0; /* RDNA's v_cmpx writes EXEC only */
  if (gasp_amd_starts(m, "ds_")) return strstr(m, "read") || strstr(m, "load") || strstr(m, "_rtn") || gasp_amd_starts(m, "ds_swizzle") ||
                               gasp_amd_starts(m, "ds_permute") || gasp_amd_starts(m, "ds_bpermute");
  if (strstr(m, "_atomic_")) return strstr(in->mods, "glc") || strstr(in->mods, "sc0");
  return 1;
}

amd_mem gasp_amd_load_kind(const amd_insn *in) {
  const char *m = in->mn;
  if (gasp_amd_starts(m, "global_load") || gasp_amd_starts(m, "flat_load") || gasp_amd_starts(m, "buffer_load") || gasp_amd_starts(m, "scratch_load"))
    return MEM_VM;
  if ((gasp_amd_starts(m, "global_atomic") || gasp_amd_starts(m, "flat_atomic") || gasp_amd_starts(m, "buffer_atomic")) &&
      (strstr(in->mods, "glc") || strstr(in->mods, "sc0")))
    return MEM_VM;
  if (gasp_amd_starts(m, "s_load") || gasp_amd_starts(m, "s_buffer_load")) return MEM_SMEM;
  if (gasp_amd_starts(m, "ds_") && (strstr(m, "read") || strstr(m, "load") || strstr(m, "_rtn") || gasp_amd_starts(m, "ds_bpermute") ||
                           gasp_amd_starts(m, "ds_permute") || gasp_amd_starts(m, "ds_swizzle")))
    return MEM_DS;
  return MEM_NONE;
}

