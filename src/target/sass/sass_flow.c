/* SASS control-flow checks (see sass_flow.h). The graph is built from the text: an unguarded EXIT, RET or
 * BRA ends a block; a guarded one (@P0, or BRA with a predicate operand) also falls through; BRA and BSSY
 * name their targets as `(.L_x) or plain labels. Indirect branches (BRX, JMX) make the graph unknown, and
 * the EXIT check is then skipped rather than guessed. */
#include "sass_flow.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char op[16];        /* opcode without modifiers: "BRA", "EXIT", "BSSY" */
  int guarded;        /* @P / @!P in front, or a predicate operand on BRA */
  int target;         /* instruction index of the named label, -1 none */
  int barrier;        /* Bn of BSSY/BSYNC, -1 none */
} flow_info;

static const char *skip_ws(const char *p) {
  while (*p == ' ' || *p == '\t') p++;
  return p;
}

static int find_label(const char *name, size_t len, const char *const *labels, const size_t *at, size_t nl) {
  for (size_t k = 0; k < nl; k++)
    if (strlen(labels[k]) == len && !memcmp(labels[k], name, len)) return (int)at[k];
  return -1;
}

static void analyse(const char *s, flow_info *f, const char *const *labels, const size_t *at, size_t nl) {
  memset(f, 0, sizeof *f);
  f->target = f->barrier = -1;
  s = skip_ws(s);
  if (*s == '[') { /* control prefix */
    const char *e = strchr(s, ']');
    s = e ? skip_ws(e + 1) : s;
  }
  if (*s == '@') {
    /* @PT is always true: not a guard */
    f->guarded = !(s[1] == 'P' && s[2] == 'T' && !isalnum((unsigned char)s[3]));
    while (*s && *s != ' ') s++;
    s = skip_ws(s);
  }
  size_t k = 0;
  while (isalnum((unsigned char)s[k]) && k + 1 < sizeof f->op) f->op[k] = s[k], k++;
  f->op[k] = 0;
  const char *args = s + k;
  while (*args && *args != ' ') args++; /* modifiers */
  args = skip_ws(args);
  if (!strcmp(f->op, "BRA") && (args[0] == 'P' || (args[0] == '!' && args[1] == 'P')) && isdigit((unsigned char)args[args[0] == '!' ? 2 : 1]))
    f->guarded = 1; /* BRA P1, target: taken only where P1 holds */
  if (!strcmp(f->op, "BSSY") || !strcmp(f->op, "BSYNC") || !strcmp(f->op, "BREAK") || !strcmp(f->op, "BMOV")) {
    const char *b = strchr(args, 'B');
    if (b && isdigit((unsigned char)b[1])) f->barrier = atoi(b + 1);
  }
  /* a label operand: `(.L_x) or a bare name starting with '.' or a letter after the last comma */
  const char *l = strstr(args, "`(");
  if (l) {
    l += 2;
    size_t n = strcspn(l, ")");
    f->target = find_label(l, n, labels, at, nl);
  } else if (!strcmp(f->op, "BRA") || !strcmp(f->op, "BSSY")) {
    const char *c = strrchr(args, ',');
    c = skip_ws(c ? c + 1 : args);
    size_t n = strcspn(c, " ;");
    if (n) f->target = find_label(c, n, labels, at, nl);
  }
}

static int terminates(const flow_info *f) {
  return !f->guarded && (!strcmp(f->op, "EXIT") || !strcmp(f->op, "RET") || !strcmp(f->op, "BRA") ||
                         !strcmp(f->op, "BRX") || !strcmp(f->op, "JMX") || !strcmp(f->op, "JMP") ||
                         !strcmp(f->op, "KILL"));
}

int sass_check_flow(const sass_flow_insn *ins, size_t n, const char *const *labels, const size_t *label_at,
                    size_t nlabels, gasp_diags *d) {
  if (!n) return 0;
  flow_info *f = calloc(n, sizeof *f);
  char *seen = calloc(n + 1, 1);
  size_t *stack = malloc((n + 1) * sizeof *stack);
  int errors = 0, indirect = 0;
  if (!f || !seen || !stack) goto out;
  for (size_t i = 0; i < n; i++) {
    analyse(ins[i].text, &f[i], labels, label_at, nlabels);
    indirect |= !strcmp(f[i].op, "BRX") || !strcmp(f[i].op, "JMX");
  }
  /* every path ends in EXIT: walk from the entry; reaching index n means running off the end */
  if (!indirect) {
    size_t sp = 0;
    stack[sp++] = 0;
    seen[0] = 1;
    int off_end_from = -1;
    while (sp) {
      size_t i = stack[--sp];
      if (i == n) continue;
      size_t next[2];
      int nn = 0;
      if (!terminates(&f[i])) next[nn++] = i + 1;
      if (!strcmp(f[i].op, "BRA") && f[i].target >= 0) next[nn++] = (size_t)f[i].target;
      for (int k = 0; k < nn; k++) {
        if (next[k] == n && off_end_from < 0) off_end_from = (int)i;
        if (!seen[next[k]]) seen[next[k]] = 1, stack[sp++] = next[k];
      }
    }
    if (off_end_from >= 0) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, ins[off_end_from].line, 1,
                     "a path runs past the last instruction without EXIT (after this %s%s)",
                     f[off_end_from].guarded ? "guarded " : "", f[off_end_from].op[0] ? f[off_end_from].op : "line");
      errors++;
    }
  }
  /* BSSY Bn, L ... BSYNC Bn before L: each region closes, and no BSYNC is without its BSSY */
  for (size_t i = 0; i < n; i++) {
    if (!strcmp(f[i].op, "BSSY") && f[i].barrier >= 0) {
      if (f[i].target < 0) {
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, ins[i].line, 1,
                       "BSSY B%d names no label of this kernel as its reconvergence point", f[i].barrier);
        errors++;
        continue;
      }
      int found = 0;
      for (size_t j = i + 1; j < (size_t)f[i].target && j < n && !found; j++)
        found = !strcmp(f[j].op, "BSYNC") && f[j].barrier == f[i].barrier;
      if (!found) {
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, ins[i].line, 1,
                       "BSSY B%d opens a divergence region with no BSYNC B%d before its reconvergence point "
                       "(threads would not reconverge)", f[i].barrier, f[i].barrier);
        errors++;
      }
    } else if (!strcmp(f[i].op, "BSYNC") && f[i].barrier >= 0) {
      int found = 0;
      for (size_t j = 0; j < i && !found; j++)
        found = !strcmp(f[j].op, "BSSY") && f[j].barrier == f[i].barrier;
      if (!found) {
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, ins[i].line, 1,
                       "BSYNC B%d waits on a barrier no BSSY B%d set up before it", f[i].barrier, f[i].barrier);
        errors++;
      }
    }
  }
out:
  free(f);
  free(seen);
  free(stack);
  return errors;
}
