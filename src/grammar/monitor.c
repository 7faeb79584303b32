/* The PTX snippet monitor (monitor.h): a character scanner over the answer whose whole state is a few bit sets,
 * so a candidate token is checked on a copy of the sequence's state. */
#include "monitor.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../target/ptx/ptx_desc.h"
#include "../target/ptx/ptx_isa.h"
#include "grammar.h"

#define NAME_CAP 32
#define MAX_OPS 128
#define TEMP_BITS 64 /* temporaries %f0..%f63 tracked per class; the grammar declares at most %f<16> in a snippet */

struct gasp_monitor {
  int nparams;
  char names[GASP_MAX_PARAMS][NAME_CAP]; /* the snippet's parameter registers, without the '%' */
  uint64_t inputs, outputs;              /* which of names are inputs and outputs (bits) */
  int nops;
  struct { char op[16]; int has_dest; } ops[MAX_OPS];
};

enum { AT_LINE, IN_GUARD, IN_MNEMONIC, IN_OPERANDS, SKIP_LINE, CLOSED };

struct gasp_mstate {
  const gasp_monitor *m;
  int opened;                              /* the opening fence's line is done */
  int phase, fence_line;                   /* fence_line: the line being skipped is the opening fence */
  int has_dest, operand, depth;            /* the instruction: its first operand a destination; where we are */
  int in_name, name_len;
  char name[NAME_CAP];
  char mnemonic[16];
  int mnemonic_len;
  uint64_t temps[GASP_GRAMMAR_NCLASSES];   /* temporaries written by committed lines */
  uint64_t written, read;                  /* parameters written and read by committed lines */
  uint64_t line_temps[GASP_GRAMMAR_NCLASSES], line_written, line_read; /* by the line being scanned */
};

static int is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c == '.';
}

int gasp_monitor_target_has(const gasp_target *t) { return t && !strcmp(t->isa, "PTX"); }

gasp_monitor *gasp_monitor_new(const gasp_target *t, const gasp_task *task) {
  if (!task || !task->snippet || !gasp_monitor_target_has(t)) return NULL;
  gasp_monitor *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  for (int i = 0; i < task->nparams && m->nparams < 64; i++) {
    const gasp_param *p = &task->params[i];
    if (p->role == GASP_ROLE_SCALAR) continue; /* a snippet's registers are its array parameters (ptx_prepare) */
    int k = m->nparams++;
    strncpy(m->names[k], p->name, NAME_CAP - 1);
    if (p->role == GASP_ROLE_IN) m->inputs |= 1ull << k;
    else m->outputs |= 1ull << k;
  }
  /* an opcode writes its first operand when the description's first operand letter is a register destination
   * (ptx_desc.h: r, p, c, d, v); st, red, bar, nanosleep, prefetch only read theirs */
  for (const gasp_ptx_insn *r = gasp_ptx_insns; r->op; r++) {
    int dest = r->operands && strchr("rpcdv", r->operands[0]) && r->operands[0];
    int k = 0;
    while (k < m->nops && strcmp(m->ops[k].op, r->op)) k++;
    if (k == m->nops) {
      if (m->nops == MAX_OPS || strlen(r->op) >= sizeof m->ops[0].op) continue;
      strcpy(m->ops[m->nops].op, r->op);
      m->ops[m->nops++].has_dest = dest;
    } else
      m->ops[k].has_dest |= dest;
  }
  return m;
}

void gasp_monitor_free(gasp_monitor *m) { free(m); }

gasp_mstate *gasp_mstate_new(const gasp_monitor *m) {
  gasp_mstate *s = calloc(1, sizeof *s);
  if (s) s->m = m, s->phase = AT_LINE;
  return s;
}

void gasp_mstate_free(gasp_mstate *s) { free(s); }

static int param_of(const gasp_monitor *m, const char *n, size_t len) {
  for (int k = 0; k < m->nparams; k++)
    if (strlen(m->names[k]) == len && !memcmp(m->names[k], n, len)) return k;
  return -1;
}

/* A temporary's class and index ("fd3": the .f64 class, 3), or -1 when n is not one. The longest class prefix
 * wins (%rd before %r). */
static int temp_of(const char *n, size_t len, int *index) {
  int best = -1;
  size_t best_len = 0;
  for (int c = 0; c < GASP_GRAMMAR_NCLASSES; c++) {
    const char *pre = gasp_grammar_reg_classes[c].prefix + 1; /* without the '%' */
    size_t pl = strlen(pre);
    if (pl < len && !memcmp(n, pre, pl) && pl > best_len) best = c, best_len = pl;
  }
  if (best < 0) return -1;
  int v = 0;
  for (size_t i = best_len; i < len; i++) {
    if (n[i] < '0' || n[i] > '9') return -1;
    v = v < 100000 ? v * 10 + (n[i] - '0') : v;
  }
  *index = v;
  return best;
}

static int readable_param(const gasp_mstate *s, int k) {
  return ((s->m->inputs >> k) & 1) || ((s->written >> k) & 1);
}

/* Whether a complete source register name may be read here. */
static int readable(const gasp_mstate *s, const char *n, size_t len) {
  int k = param_of(s->m, n, len);
  if (k >= 0) return readable_param(s, k);
  int idx;
  int c = temp_of(n, len, &idx);
  if (c < 0 || idx >= TEMP_BITS) return 1; /* special registers (%tid.x), names the grammar does not offer */
  return (int)((s->temps[c] >> idx) & 1);
}

/* Whether a source register name cut off at the end of the text can still become one that may be read: the
 * readable names are listed (the inputs, what was written, the special registers) and one must begin so. */
static int readable_prefix(const gasp_mstate *s, const char *n, size_t len) {
  const gasp_monitor *m = s->m;
  for (int k = 0; k < m->nparams; k++)
    if (strlen(m->names[k]) >= len && !memcmp(m->names[k], n, len) && readable_param(s, k)) return 1;
  for (int c = 0; c < GASP_GRAMMAR_NCLASSES; c++)
    for (uint64_t w = s->temps[c]; w; w &= w - 1) {
      char name[NAME_CAP];
      int nl = snprintf(name, sizeof name, "%s%d", gasp_grammar_reg_classes[c].prefix + 1, __builtin_ctzll(w));
      if ((size_t)nl >= len && !memcmp(name, n, len)) return 1;
    }
  for (const char *const *r = gasp_ptx_special_regs; *r; r++) {
    size_t rl = strlen(*r + 1);
    /* %tid begins %tid.x: a component after the name */
    if (rl >= len ? !memcmp(*r + 1, n, len) : !memcmp(*r + 1, n, rl) && n[rl] == '.') return 1;
  }
  return 0;
}

static int op_has_dest(const gasp_monitor *m, const char *mn, int len) {
  int oplen = 0;
  while (oplen < len && mn[oplen] != '.') oplen++;
  for (int k = 0; k < m->nops; k++)
    if ((int)strlen(m->ops[k].op) == oplen && !memcmp(m->ops[k].op, mn, (size_t)oplen)) return m->ops[k].has_dest;
  return 0; /* an opcode we do not know: every operand a source, nothing recorded as written */
}

/* The name just ended: its role by where it stands. Returns 0 when reading it breaks the rule. */
static int end_name(gasp_mstate *s, const char **why) {
  s->in_name = 0;
  const char *n = s->name;
  size_t len = (size_t)s->name_len;
  int dest = s->phase == IN_OPERANDS && s->has_dest && s->operand == 0;
  int k = param_of(s->m, n, len), idx;
  if (dest) {
    if (k >= 0) s->line_written |= 1ull << k;
    else {
      int c = temp_of(n, len, &idx);
      if (c >= 0 && idx < TEMP_BITS) s->line_temps[c] |= 1ull << idx;
    }
    return 1;
  }
  if (!readable(s, n, len)) {
    if (why) *why = k >= 0 ? "reads an output before writing it" : "reads a register no earlier line wrote";
    return 0;
  }
  if (k >= 0) s->line_read |= 1ull << k;
  return 1;
}

static void commit_line(gasp_mstate *s) {
  for (int c = 0; c < GASP_GRAMMAR_NCLASSES; c++) s->temps[c] |= s->line_temps[c], s->line_temps[c] = 0;
  s->written |= s->line_written, s->read |= s->line_read;
  s->line_written = s->line_read = 0;
}

/* One character. Returns 0 when it breaks a rule. */
static int step(gasp_mstate *s, char ch, const char **why) {
  if (s->phase == CLOSED) return 1;
  if (s->in_name) {
    if (is_name_char(ch) && s->name_len < NAME_CAP - 1) {
      s->name[s->name_len++] = ch;
      return 1;
    }
    if (!end_name(s, why)) return 0;
  }
  switch (s->phase) {
  case AT_LINE:
    if (ch == ' ' || ch == '\t' || ch == '\n') return 1;
    if (ch == '`') {
      if (!s->opened) {
        s->phase = SKIP_LINE, s->fence_line = 1;
        return 1;
      }
      /* the closing fence: every input read, every output written */
      if ((s->m->inputs & ~s->read) != 0) {
        if (why) *why = "ends before reading every input";
        return 0;
      }
      if ((s->m->outputs & ~s->written) != 0) {
        if (why) *why = "ends before writing every output";
        return 0;
      }
      s->phase = CLOSED;
      return 1;
    }
    if (ch == '.' || !s->opened) {
      s->phase = SKIP_LINE; /* a directive (.reg) or text before the fence */
      return 1;
    }
    if (ch == '@') {
      s->phase = IN_GUARD;
      return 1;
    }
    s->phase = IN_MNEMONIC, s->mnemonic_len = 0;
    s->mnemonic[s->mnemonic_len++] = ch;
    return 1;
  case SKIP_LINE:
    if (ch == '\n') {
      if (s->fence_line) s->opened = 1, s->fence_line = 0;
      s->phase = AT_LINE;
    }
    return 1;
  case IN_GUARD:
    if (ch == '%') s->in_name = 1, s->name_len = 0;
    else if (ch == ' ') s->phase = IN_MNEMONIC, s->mnemonic_len = 0;
    return 1;
  case IN_MNEMONIC:
    if (ch == ' ' || ch == ';' || ch == '\n') {
      s->has_dest = op_has_dest(s->m, s->mnemonic, s->mnemonic_len);
      s->operand = 0, s->depth = 0;
      s->phase = ch == ' ' ? IN_OPERANDS : AT_LINE;
      if (ch == '\n') commit_line(s);
    } else if (s->mnemonic_len < (int)sizeof s->mnemonic - 1)
      s->mnemonic[s->mnemonic_len++] = ch;
    return 1;
  case IN_OPERANDS:
    if (ch == '%') s->in_name = 1, s->name_len = 0;
    else if (ch == '{' || ch == '[') s->depth++;
    else if (ch == '}' || ch == ']') s->depth -= s->depth > 0;
    else if (ch == ',' && s->depth == 0) s->operand++;
    else if (ch == '\n') {
      commit_line(s);
      s->phase = AT_LINE;
    }
    return 1;
  }
  return 1;
}

static int feed(gasp_mstate *s, const char *text, size_t len, const char **why) {
  for (size_t i = 0; i < len; i++)
    if (!step(s, text[i], why)) return 0;
  return 1;
}

int gasp_mstate_allows(const gasp_mstate *s, const char *text, size_t len, const char **why) {
  gasp_mstate c = *s;
  if (!feed(&c, text, len, why)) return 0;
  /* a source name cut off by the end of the token: can it still become one that may be read? */
  int dest = c.phase == IN_OPERANDS && c.has_dest && c.operand == 0;
  if (c.in_name && !dest && !readable_prefix(&c, c.name, (size_t)c.name_len)) {
    if (why) *why = "reads a register no earlier line wrote";
    return 0;
  }
  return 1;
}

void gasp_mstate_accept(gasp_mstate *s, const char *text, size_t len) {
  for (size_t i = 0; i < len; i++) step(s, text[i], NULL);
}

long gasp_monitor_check(const gasp_monitor *m, const char *answer, size_t len, const char **why) {
  gasp_mstate *s = gasp_mstate_new(m);
  if (!s) return 0;
  long at = -1;
  for (size_t i = 0; i < len && at < 0; i++) {
    if (!gasp_mstate_allows(s, answer + i, 1, why)) at = (long)i;
    else gasp_mstate_accept(s, answer + i, 1);
  }
  gasp_mstate_free(s);
  return at;
}
