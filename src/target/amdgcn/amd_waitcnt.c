/* The s_waitcnt check and its rewriter: a register written by a load (global/flat/buffer through vmcnt, LDS and
 * scalar loads through lgkmcnt) must not be used before the s_waitcnt that covers the load; llvm-mc accepts such
 * code with exit 0 and the hardware reads a stale value (amd-r300-facts.md). Static, along the fall-through path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd_parse.h"


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

void gasp_amd_check_waitcnt(const amd_program *pr, const gasp_source *src, int gfx, gasp_diags *d, int *errors,
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
    int dest = gasp_amd_has_dest(in, gfx);
    /* sources first (a register read is the hazard that matters), then the destination */
    for (int j = 0; j < in->nops; j++) {
      int o = dest ? (j + 1) % in->nops : j;
      amd_reg r;
      if (!gasp_amd_parse_reg(in->ops[o].text, &r)) continue;
      int is_dest = dest && o == 0;
      for (int k = 0; k < np; k++)
        if (overlap(&r, &pend[k].dst)) {
          amd_mem self = gasp_amd_load_kind(in);
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
    amd_mem lk = gasp_amd_load_kind(in);
    if (lk != MEM_NONE && in->nops > 0 && np < 256) {
      amd_reg r;
      if (gasp_amd_parse_reg(in->ops[0].text, &r)) {
        pend[np].dst = r;
        pend[np].kind = lk;
        pend[np].line = in->line;
        snprintf(pend[np].mn, sizeof pend[np].mn, "%s", in->mn);
        np++;
      }
    }
    /* code after an unconditional jump or the end is not reached by falling through */
    if (!strcmp(in->mn, "s_branch") || !strcmp(in->mn, "s_endpgm") || gasp_amd_starts(in->mn, "s_setpc")) np = 0;
  }
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
    gasp_amd_parse_program(src->text, &pr);
    int line;
    amd_mem kind;
    int errors = 0;
    gasp_amd_check_waitcnt(&pr, src, a->gfx, NULL, &errors, &line, &kind);
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

