/* PTX answers in the grammar's form (grammar.h: gasp_grammar_ptx_form). A model trained on nvcc's spelling
 * (`.reg .b32 %r<12>;`, tabs, `$L__BB0_2`) and then decoded under the grammar (`.reg .b32 %r<100>;`, four
 * spaces, `L1`) is pushed off the text it learned at the first token where they differ; the shipped model's
 * PTX pass@10 under the grammar was 0.067 on L0 against 0.133 on the AMD targets without one (2026-12-02).
 * Rewriting the training answers into the grammar's form removes that mismatch. The rewrite is textual and
 * keeps the program: register renaming within one class, label renaming, spacing; every rewritten reference
 * answer is still run and verified before it enters a corpus. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "grammar.h"

#define MAX_DECLS 256
#define MAX_LABELS 64
#define MAX_LINES 1024

/* A declared register: a single name, or a family `%r<n>` (prefix, n). */
typedef struct {
  char name[48];
  int family, count, cls;
} decl;

/* A register of the answer and the name it gets. */
typedef struct {
  char old[48], neu[16];
} reg_rename;

typedef struct {
  int snippet;
  decl decls[MAX_DECLS];
  int ndecls;
  reg_rename regs[512];
  int nregs, next[GASP_GRAMMAR_NCLASSES];
  char labels[MAX_LABELS][64];
  int nlabels;
  char shared_old[2][96]; /* static, dynamic */
  long shared_bytes;
  gasp_diags *d;
} form;

static int fail(form *f, const char *fmt, const char *what) {
  gasp_diags_add(f->d, GASP_SEV_ERROR, GASP_CLASS_UNSUPPORTED, 0, 0, fmt, what); /* valid PTX the form cannot spell */
  return -1;
}

static int class_of_type(const char *ty) {
  static const char *const by[GASP_GRAMMAR_NCLASSES][3] = {
      {".pred"}, {".b32", ".u32", ".s32"}, {".f32"}, {".b64", ".u64", ".s64"}, {".f64"}};
  for (int c = 0; c < GASP_GRAMMAR_NCLASSES; c++)
    for (int k = 0; k < 3 && by[c][k]; k++)
      if (!strcmp(by[c][k], ty)) return c;
  return -1;
}

/* `.reg .TYPE %a, %b<4>;` (trimmed, without the ';') */
static int add_decls(form *f, const char *s) {
  char ty[16];
  int n = 0;
  if (sscanf(s, ".reg %15s%n", ty, &n) != 1) return fail(f, "unreadable declaration '%s'", s);
  int cls = class_of_type(ty);
  if (cls < 0) return fail(f, "a register type the grammar does not declare (%s)", ty);
  for (const char *p = s + n; *p;) {
    while (*p == ' ' || *p == '\t' || *p == ',') p++;
    if (!*p) break;
    size_t l = strcspn(p, " \t,<");
    if (l == 0 || l >= sizeof f->decls[0].name || f->ndecls >= MAX_DECLS) return fail(f, "declaration too long: '%s'", s);
    decl *x = &f->decls[f->ndecls++];
    memcpy(x->name, p, l);
    x->name[l] = 0, x->cls = cls, x->family = 0, x->count = 0;
    p += l;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '<') {
      x->family = 1, x->count = atoi(p + 1);
      p = strchr(p, '>');
      if (!p) return fail(f, "unreadable declaration '%s'", s);
      p++;
    }
  }
  return 0;
}

/* The class of a declared register, or -1 (a parameter of the snippet scaffold, a special register). */
static int declared(const form *f, const char *name) {
  for (int i = 0; i < f->ndecls; i++) {
    const decl *x = &f->decls[i];
    if (!x->family) {
      if (!strcmp(x->name, name)) return x->cls;
      continue;
    }
    size_t l = strlen(x->name);
    if (strncmp(name, x->name, l) || !name[l]) continue;
    const char *q = name + l;
    while (isdigit((unsigned char)*q)) q++;
    if (!*q && atoi(name + l) < x->count) return x->cls;
  }
  return -1;
}

static const char *reg_new_name(form *f, const char *old) {
  for (int i = 0; i < f->nregs; i++)
    if (!strcmp(f->regs[i].old, old)) return f->regs[i].neu;
  int c = declared(f, old);
  if (c < 0) return NULL;
  const gasp_grammar_reg_class *rc = &gasp_grammar_reg_classes[c];
  int idx = ++f->next[c], cap = f->snippet ? rc->snippet_count : rc->kernel_count;
  if (idx >= cap || f->nregs >= (int)(sizeof f->regs / sizeof f->regs[0])) {
    fail(f, "more %s registers than the grammar declares", rc->type);
    return "";
  }
  reg_rename *r = &f->regs[f->nregs++];
  snprintf(r->old, sizeof r->old, "%s", old);
  snprintf(r->neu, sizeof r->neu, "%s%d", rc->prefix, idx);
  return r->neu;
}

static int is_ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* An integer literal the grammar cannot spell (more than 9 decimal digits) in an instruction on 32-bit
 * values: the same 32 bits in hex (PTX truncates a literal to the instruction's width). */
static int big_literal(form *f, const char *insn, const char *num, size_t len, gasp_str *o) {
  char buf[32];
  if (len >= sizeof buf) return fail(f, "literal too long in '%s'", insn);
  memcpy(buf, num, len);
  buf[len] = 0;
  size_t digits = strlen(buf) - (buf[0] == '-');
  if (digits <= 9) {
    gasp_str_puts(o, buf);
    return 0;
  }
  char op[64];
  snprintf(op, sizeof op, "%.*s", (int)strcspn(insn, " \t"), insn);
  if (strstr(op, "64") || !(strstr(op, "32"))) return fail(f, "a literal the grammar cannot spell in '%s'", insn);
  long long v = strtoll(buf, NULL, 10);
  gasp_str_printf(o, "0x%x", (unsigned)(v & 0xffffffffu));
  return 0;
}

/* Renames registers, labels and shared variables in one operand list, with the grammar's spacing. */
static int operands(form *f, const char *insn, const char *s, gasp_str *o) {
  int depth = 0;
  const char *p = s;
  while (*p == ' ' || *p == '\t') p++;
  gasp_str_puts(o, " ");
  while (*p) {
    char c = *p;
    if (c == ' ' || c == '\t') {
      p++;
      continue;
    }
    if (c == ',') {
      gasp_str_puts(o, ", ");
      p++;
      continue;
    }
    if (c == '{' || c == '[') depth++;
    if (c == '}' || c == ']') depth--;
    if (c == '%') {
      const char *e = p + 1;
      while (is_ident_char((unsigned char)*e)) e++;
      char name[48];
      if ((size_t)(e - p) >= sizeof name) return fail(f, "register name too long in '%s'", insn);
      memcpy(name, p, (size_t)(e - p));
      name[e - p] = 0;
      const char *n = reg_new_name(f, name);
      if (n && !*n) return -1;
      gasp_str_puts(o, n ? n : name);
      p = e;
      continue;
    }
    if (isdigit((unsigned char)c) || (c == '-' && isdigit((unsigned char)p[1]))) {
      const char *e = p + (c == '-');
      if (e[0] == '0' && (e[1] == 'f' || e[1] == 'd' || e[1] == 'x' || e[1] == 'F' || e[1] == 'D' || e[1] == 'X')) {
        /* bit patterns: 0f/0d upper-case hex as nvcc writes them, 0x lower-case (the grammar's spelling) */
        const char *q = e + 2;
        while (isxdigit((unsigned char)*q)) q++;
        gasp_str_append(o, p, (size_t)(e + 2 - p));
        for (const char *h = e + 2; h < q; h++)
          gasp_str_printf(o, "%c", (e[1] | 32) == 'x' ? tolower((unsigned char)*h) : toupper((unsigned char)*h));
        p = q;
        continue;
      }
      const char *q = e;
      while (isdigit((unsigned char)*q)) q++;
      if (*q == '.' || *q == 'e' || *q == 'E') { /* a decimal float: as written */
        while (isdigit((unsigned char)*q) || *q == '.' || *q == 'e' || *q == 'E' || *q == '-' || *q == '+') q++;
        gasp_str_append(o, p, (size_t)(q - p));
      } else if (big_literal(f, insn, p, (size_t)(q - p), o)) {
        return -1;
      }
      p = q;
      continue;
    }
    if (isalpha((unsigned char)c) || c == '_' || c == '$') {
      const char *e = p;
      while (is_ident_char((unsigned char)*e)) e++;
      size_t l = (size_t)(e - p);
      int done = 0;
      for (int i = 0; i < f->nlabels && !done; i++)
        if (strlen(f->labels[i]) == l && !strncmp(f->labels[i], p, l)) gasp_str_printf(o, "L%d", i + 1), done = 1;
      for (int k = 0; k < 2 && !done; k++)
        if (f->shared_old[k][0] && strlen(f->shared_old[k]) == l && !strncmp(f->shared_old[k], p, l))
          gasp_str_puts(o, k ? "dsmem" : "smem"), done = 1;
      if (!done) gasp_str_append(o, p, l);
      p = e;
      continue;
    }
    gasp_str_append(o, p, 1);
    p++;
  }
  if (depth) return fail(f, "unbalanced brackets in '%s'", insn);
  return 0;
}

/* One instruction (trimmed, without ';'), with its guard, as the grammar spells it. */
static int instruction(form *f, const char *s, gasp_str *o) {
  const char *p = s;
  if (*p == '@') {
    const char *e = p + 1 + (p[1] == '!');
    const char *q = e;
    while (*q && *q != ' ' && *q != '\t') q++;
    char name[48];
    if ((size_t)(q - e) >= sizeof name) return fail(f, "unreadable guard in '%s'", s);
    memcpy(name, e, (size_t)(q - e));
    name[q - e] = 0;
    const char *n = reg_new_name(f, name);
    if (!n || !*n) return n ? -1 : fail(f, "a guard on an undeclared predicate in '%s'", s);
    gasp_str_printf(o, "@%s%s ", p[1] == '!' ? "!" : "", n);
    p = q;
    while (*p == ' ' || *p == '\t') p++;
  }
  size_t l = strcspn(p, " \t");
  gasp_str_append(o, p, l);
  if (p[l]) return operands(f, s, p + l, o);
  return 0;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\r') s++;
  char *e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) *--e = 0;
  return s;
}

/* A shared array's declaration, `.shared .align 4 .b8 name[N]` or `.extern .shared .align 16 .b8 name[]`, at module
 * scope or (as nvcc writes a kernel's static one) inside the body; the grammar declares it at module scope. */
static int shared_decl(form *f, char *s) {
  char *br = strchr(s, '['), *nm = br;
  if (!br || !strstr(s, ".b8")) return fail(f, "a shared declaration the grammar cannot spell: '%s'", s);
  while (nm > s && is_ident_char((unsigned char)nm[-1])) nm--;
  int dyn = strstr(s, ".extern") != NULL;
  snprintf(f->shared_old[dyn], sizeof f->shared_old[dyn], "%.*s", (int)(br - nm), nm);
  if (!dyn) f->shared_bytes = atol(br + 1);
  return 0;
}

/* Statements of the body: instruction lines (index into text) and label positions. */
typedef struct {
  char *text[MAX_LINES];
  int label_before[MAX_LINES + 1]; /* label number (1-based) defined before statement i, else 0 */
  int n;
} body;

char *gasp_grammar_ptx_form(const gasp_target *t, const gasp_task *task, const char *code, gasp_diags *d) {
  if (!t || !task || !code || strcmp(t->isa, "PTX")) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "the PTX grammar form needs a PTX target and a task");
    return NULL;
  }
  form *f = calloc(1, sizeof *f);
  body *b = calloc(1, sizeof *b);
  char *copy = gasp_strdup(code);
  if (!f || !b || !copy) {
    free(f), free(b), free(copy);
    return NULL;
  }
  f->snippet = task->snippet, f->d = d;
  int rc = 0, in_body = task->snippet, depth = 0, seen_entry = 0;
  /* pass 1: declarations, labels, shared variables and the statements, in order */
  for (char *line = copy, *next; line && !rc; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    char *s = trim(line);
    char *cm = strstr(s, "//");
    if (cm) *cm = 0, s = trim(s);
    if (!*s) continue;
    if (!in_body) {
      if (!strncmp(s, ".version", 8) || !strncmp(s, ".target", 7) || !strncmp(s, ".address_size", 13)) continue;
      if (strstr(s, ".shared")) {
        rc = shared_decl(f, s);
        continue;
      }
      if (strstr(s, ".entry")) { seen_entry = 1; continue; }
      if (seen_entry && (*s == '.' || *s == '(' || *s == ')')) continue; /* the parameter list */
      if (seen_entry && !strcmp(s, "{")) { in_body = 1; depth = 1; continue; }
      rc = fail(f, "module-level text the grammar does not offer: '%s'", s);
      break;
    }
    if (!strcmp(s, "{")) { rc = fail(f, "%s", "a nested scope (the grammar has none)"); break; }
    if (!strcmp(s, "}")) {
      if (task->snippet || --depth < 0) { rc = fail(f, "%s", "an unbalanced '}'"); break; }
      in_body = 0;
      continue;
    }
    size_t l = strlen(s);
    if (s[l - 1] == ':') { /* a label */
      if (task->snippet) { rc = fail(f, "%s", "a label in a snippet (the grammar offers straight-line code)"); break; }
      if (f->nlabels >= MAX_LABELS) { rc = fail(f, "%s", "too many labels"); break; }
      if (b->label_before[b->n]) { rc = fail(f, "%s", "two labels on one statement"); break; }
      s[l - 1] = 0;
      snprintf(f->labels[f->nlabels++], sizeof f->labels[0], "%s", trim(s));
      b->label_before[b->n] = f->nlabels;
      continue;
    }
    if (s[l - 1] != ';') { rc = fail(f, "a statement without ';': '%s'", s); break; }
    s[l - 1] = 0;
    s = trim(s);
    if (!strncmp(s, ".reg", 4)) { rc = add_decls(f, s); continue; }
    if (!task->snippet && strstr(s, ".shared") && strchr(s, '[') && strstr(s, ".b8")) {
      rc = shared_decl(f, s);
      continue;
    }
    if (!strncmp(s, ".pragma", 7) || !strncmp(s, ".loc", 4)) continue; /* hints to ptxas, no semantics */
    if (*s == '.') { rc = fail(f, "a directive the grammar does not offer: '%s'", s); break; }
    if (b->n >= MAX_LINES) { rc = fail(f, "%s", "too many instructions"); break; }
    b->text[b->n++] = s;
  }
  if (!rc && !task->snippet && (!seen_entry || in_body)) rc = fail(f, "%s", "no complete .entry");
  /* the closing ret is the grammar's own */
  if (!rc && !task->snippet) {
    if (!b->n || strcmp(b->text[b->n - 1], "ret"))
      rc = fail(f, "%s", "the kernel does not end with ret");
    else
      b->n--;
  }
  /* bounds (grammar.h): labels, lines before the first label (at least one), lines after each */
  if (!rc && task->snippet && (b->n < 1 || b->n > GASP_GRAMMAR_SNIPPET_LINES))
    rc = fail(f, "%s", "a snippet longer than the grammar's bound (or empty)");
  if (!rc && !task->snippet) {
    int count[MAX_LABELS + 1] = {0}, blk = 0;
    for (int i = 0; i <= b->n; i++) {
      if (b->label_before[i]) blk = b->label_before[i];
      if (i < b->n) count[blk]++;
    }
    if (f->nlabels > GASP_GRAMMAR_KERNEL_LABELS) rc = fail(f, "%s", "more labels than the grammar's bound");
    else if (count[0] < 1 || count[0] > GASP_GRAMMAR_KERNEL_FIRST_LINES)
      rc = fail(f, "%s", "more lines before the first label than the grammar's bound (or none)");
    for (int k = 1; k <= f->nlabels && !rc; k++)
      if (count[k] > GASP_GRAMMAR_KERNEL_BLOCK_LINES) rc = fail(f, "%s", "more lines after a label than the grammar's bound");
  }
  if (f->shared_old[0][0] && task->level != 5) rc = rc ? rc : fail(f, "%s", "static shared memory outside L5 (the grammar offers it there)");
  if (f->shared_old[1][0] && !strcmp(task->shared, "0")) rc = rc ? rc : fail(f, "%s", "dynamic shared memory the launch does not give");
  if (f->shared_bytes > 15999) rc = rc ? rc : fail(f, "%s", "static shared memory over the grammar's 15,999 bytes");
  gasp_str o;
  gasp_str_init(&o);
  if (!rc && task->snippet) {
    gasp_grammar_ptx_decls(&o, 1);
    for (int i = 0; i < b->n && !rc; i++) {
      rc = instruction(f, b->text[i], &o);
      gasp_str_puts(&o, ";\n");
    }
  } else if (!rc) {
    gasp_grammar_ptx_head(&o, t);
    if (task->level == 5) gasp_str_printf(&o, ".shared .align 16 .b8 smem[%ld];\n", f->shared_bytes > 0 ? f->shared_bytes : 16);
    if (strcmp(task->shared, "0")) gasp_str_puts(&o, ".extern .shared .align 16 .b8 dsmem[];\n");
    gasp_grammar_ptx_entry(&o, task);
    gasp_grammar_ptx_decls(&o, 0);
    for (int i = 0; i <= b->n && !rc; i++) {
      if (b->label_before[i]) gasp_str_printf(&o, "L%d:\n", b->label_before[i]);
      if (i == b->n) break;
      gasp_str_puts(&o, "    ");
      rc = instruction(f, b->text[i], &o);
      gasp_str_puts(&o, ";\n");
    }
    gasp_str_puts(&o, "    ret;\n}\n");
  }
  free(copy), free(b), free(f);
  if (rc) {
    gasp_str_free(&o);
    return NULL;
  }
  return gasp_str_take(&o);
}
