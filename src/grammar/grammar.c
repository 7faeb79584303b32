/* The PTX GBNF generator: one rule per row of the instruction description (ptx_desc.c), operands drawn
 * from the registers the grammar itself declares, the task's parameters and the special registers. */
#include "grammar.h"
#include "grammar_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "../target/ptx/ptx_desc.h"
#include "../target/ptx/ptx_isa.h"

/* The registers a grammar declares: fixed names and counts, so every register an answer can name is
 * declared and in range (ptxas rejects %r9 under `.reg .b32 %r<8>`). Shared with grammar_form.c. */
const gasp_grammar_reg_class gasp_grammar_reg_classes[GASP_GRAMMAR_NCLASSES] = {
    {".pred", "%p", 32, 8}, {".b32", "%r", 100, 16}, {".f32", "%f", 100, 16},
    {".b64", "%rd", 100, 16}, {".f64", "%fd", 32, 8},
};
#define reg_classes gasp_grammar_reg_classes
#define NCLASSES GASP_GRAMMAR_NCLASSES

/* grammar.h: the literal text of an answer, written once for the grammar (as GBNF string literals) and for
 * grammar_form.c (as it is), so the two cannot drift apart. */
void gasp_grammar_ptx_head(gasp_str *o, const gasp_target *t) {
  const gasp_ptx_arch *a = t->cc == 90 ? &gasp_ptx_sm90 : &gasp_ptx_sm89;
  gasp_str_printf(o, ".version %s\n.target %s\n.address_size 64\n\n", a->ptx_version, a->arch);
}

void gasp_grammar_ptx_entry(gasp_str *o, const gasp_task *task) {
  gasp_str_printf(o, ".visible .entry %s(\n", task->kernel);
  for (int i = 0; i < task->nparams; i++) {
    const gasp_param *p = &task->params[i];
    gasp_str_printf(o, "    .param %s %s%s\n", p->role == GASP_ROLE_SCALAR ? gasp_ptx_type(p->type) : ".u64", p->name,
                    i + 1 < task->nparams ? "," : "");
  }
  gasp_str_puts(o, ")\n{\n");
}

void gasp_grammar_ptx_decls(gasp_str *o, int snippet) {
  for (size_t c = 0; c < NCLASSES; c++)
    gasp_str_printf(o, "%s.reg %s %s<%d>;\n", snippet ? "" : "    ", reg_classes[c].type, reg_classes[c].prefix,
                    snippet ? reg_classes[c].snippet_count : reg_classes[c].kernel_count);
}

/* text as the body of a GBNF string literal: newlines, quotes and backslashes escaped */
static void put_literal(gasp_str *g, const gasp_str *text) {
  for (size_t i = 0; i < text->len; i++) {
    char c = text->data[i];
    if (c == '\n') gasp_str_puts(g, "\\n");
    else if (c == '"' || c == '\\') gasp_str_printf(g, "\\%c", c);
    else gasp_str_append(g, &c, 1);
  }
}

/* One digit from a to b: a class, or the digit itself. */
static void digit_class(gasp_str *g, char a, char b) {
  if (a == b) gasp_str_printf(g, "\"%c\"", a);
  else gasp_str_printf(g, "[%c-%c]", a, b);
}

/* The digit strings from lo to hi, both of one length (a regular-expression range, digit by digit): at most three
 * alternatives, in parentheses when more than one unless top (a rule's own alternatives). */
static void digit_range(gasp_str *g, const char *lo, const char *hi, int top) {
  size_t len = strlen(lo);
  if (len == 1) {
    digit_class(g, lo[0], hi[0]);
    return;
  }
  if (lo[0] == hi[0]) {
    gasp_str_printf(g, "\"%c\" ", lo[0]);
    digit_range(g, lo + 1, hi + 1, 0);
    return;
  }
  int lo_zeros = strspn(lo + 1, "0") == len - 1, hi_nines = strspn(hi + 1, "9") == len - 1;
  char first = lo_zeros ? lo[0] : (char)(lo[0] + 1), last = hi_nines ? hi[0] : (char)(hi[0] - 1);
  int alts = !lo_zeros + (first <= last) + !hi_nines;
  const char *sep = "";
  if (alts > 1 && !top) gasp_str_puts(g, "(");
  if (!lo_zeros) {
    char nines[8];
    memset(nines, '9', len - 1);
    nines[len - 1] = 0;
    gasp_str_printf(g, "\"%c\" ", lo[0]);
    digit_range(g, lo + 1, nines, 0);
    sep = " | ";
  }
  if (first <= last) {
    gasp_str_puts(g, sep);
    digit_class(g, first, last);
    for (size_t k = 1; k < len; k++) gasp_str_puts(g, " [0-9]");
    sep = " | ";
  }
  if (!hi_nines) {
    char zeros[8];
    memset(zeros, '0', len - 1);
    zeros[len - 1] = 0;
    gasp_str_printf(g, "%s\"%c\" ", sep, hi[0]);
    digit_range(g, zeros, hi + 1, 0);
  }
  if (alts > 1 && !top) gasp_str_puts(g, ")");
}

/* grammar_int.h. The top level's alternatives are written without parentheses (a rule's body needs none). */
void gasp_grammar_range_rule(gasp_str *g, const char *name, int n) {
  gasp_str_printf(g, "%s ::= ", name);
  for (int lo = 0, p = 10; lo < n; lo = p, p *= 10) {
    char a[12], b[12];
    snprintf(a, sizeof a, "%d", lo);
    snprintf(b, sizeof b, "%d", (n < p ? n : p) - 1);
    if (lo) gasp_str_puts(g, " | ");
    digit_range(g, a, b, 1);
  }
  gasp_str_puts(g, "\n");
}


/* What registers and literals fit an operand of a PTX type (PTX ISA 9.0, 5.4 "Operand type checking":
 * a register's type must be the instruction's, and .bN accepts any type of N bits). Types without a row
 * here (8- and 16-bit, .f16, .bf16, .tf32) have no registers in the grammar's declarations: the grammar
 * does not offer them, the parser still accepts them. */
typedef struct {
  const char *type, *reg, *imm, *sreg, *wide;
  int bits;
} type_class;

static const type_class type_classes[] = {
    {"pred", "preg", "pimm", NULL, NULL, 1}, /* mov.pred %p3, 0: nvcc writes it */
    {"b32", "r32", "iimm | fbits", "sreg32", NULL, 32},
    {"u32", "rr", "iimm", "sreg32", "rrd", 32},
    {"s32", "rr", "iimm", "sreg32", "rrd", 32},
    {"f32", "rf", "fimm", NULL, NULL, 32},
    {"b64", "r64", "iimm | dbits", "sreg64", NULL, 64},
    {"u64", "rrd", "iimm", "sreg64", NULL, 64},
    {"s64", "rrd", "iimm", "sreg64", NULL, 64},
    {"f64", "rfd", "dimm", NULL, NULL, 64},
};

static const type_class *class_of(const char *type) {
  for (size_t i = 0; i < sizeof type_classes / sizeof type_classes[0]; i++)
    if (!strcmp(type_classes[i].type, type)) return &type_classes[i];
  return NULL;
}

static int is_type_name(const char *a) {
  static const char *const all[] = {"pred", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64", "s8", "s16", "s32",
                                    "s64", "f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "tf32", NULL};
  for (int i = 0; all[i]; i++)
    if (!strcmp(all[i], a)) return 1;
  return 0;
}

static int is_type_group(const gasp_ptx_group *g) {
  for (int a = 0; a < g->nalts; a++)
    if (!is_type_name(g->alts[a])) return 0;
  return g->nalts > 0;
}

static int is_vector_group(const gasp_ptx_group *g) {
  return g->nalts == 2 && !strcmp(g->alts[0], "v2") && !strcmp(g->alts[1], "v4");
}

/* Operands of no class (a row without `classes`): any register, any literal. */
#define ANYREG "(preg | r32 | r64)"
#define ANYIMM "iimm | fimm | dimm"

/* One variant of a row: its types and its vector width fixed. */
typedef struct {
  const type_class *t, *s;
  int vec; /* 0, 2 or 4 */
  int has_sym;
} variant;

static const char *class_reg(char cls, const variant *v) {
  switch (cls) {
  case 'T': return v->t ? v->t->reg : ANYREG;
  case 'S': return v->s ? v->s->reg : ANYREG;
  case 'W': return v->t && v->t->wide ? v->t->wide : ANYREG;
  case 'u': case 'k': case 'b': case 'n': return "rr";
  case 'D': return "rrd";
  case 'P': return "preg";
  default: return ANYREG;
  }
}

static const char *class_imm(char cls, const variant *v) {
  switch (cls) {
  case 'T': return v->t ? v->t->imm : ANYIMM;
  case 'S': return v->s ? v->s->imm : ANYIMM;
  case 'W': case 'u': case 'D': return "iimm";
  case 'k': return "kimm";
  case 'b': return "bimm";
  case 'n': return "nimm";
  case 'i': return "limm";
  case 'P': return NULL;
  default: return ANYIMM;
  }
}

static void operand_rule(gasp_str *g, char k, char cls, const variant *v) {
  const char *reg = class_reg(cls, v), *imm = class_imm(cls, v);
  switch (k) {
  case 'r': gasp_str_puts(g, reg); break;
  case 'p': gasp_str_puts(g, "preg"); break;
  case 'c': gasp_str_puts(g, "pdst"); break;
  case 'd': gasp_str_printf(g, "%s (\"|\" preg)?", reg); break;
  case 'q': gasp_str_puts(g, "psrc"); break;
  case 'a':
    if (cls == 'i') gasp_str_puts(g, imm);
    else if (imm) gasp_str_printf(g, "(%s | %s)", reg, imm);
    else gasp_str_puts(g, reg);
    break;
  case 's': case 'x': {
    if (cls == 'Y') { /* cvta.shared: a register or a shared variable, nothing else */
      gasp_str_puts(g, v->has_sym ? "(rrd | sym)" : "rrd");
      break;
    }
    const type_class *tc = cls == 'T' ? v->t : cls == 'S' ? v->s : NULL;
    gasp_str_printf(g, "(%s", reg);
    if (imm) gasp_str_printf(g, " | %s", imm);
    if (tc && tc->sreg) gasp_str_printf(g, " | %s", tc->sreg);
    if (tc && tc->sreg && v->has_sym) gasp_str_puts(g, " | sym"); /* the address of a variable: an integer */
    gasp_str_puts(g, ")");
    break;
  }
  case 'v': case 'w':
    /* a vector's elements share one register type (ptxas 13.0) */
    if (v->vec && !strcmp(reg, "r32")) reg = "rr";
    if (v->vec && !strcmp(reg, "r64")) reg = "rrd";
    if (v->vec == 2) gasp_str_printf(g, "\"{\" %s \", \" %s \"}\"", reg, reg);
    else if (v->vec == 4) gasp_str_printf(g, "\"{\" %s \", \" %s \", \" %s \", \" %s \"}\"", reg, reg, reg, reg);
    else if (k == 'w' && imm) gasp_str_printf(g, "(%s | %s)", reg, imm);
    else gasp_str_puts(g, reg);
    break;
  case 'm': gasp_str_puts(g, cls == 'Z' ? "saddr" : cls == 'Q' ? "paddr" : "addr"); break;
  case 'l': gasp_str_puts(g, "label"); break;
  }
}

static void group_rule(gasp_str *g, const gasp_ptx_group *gr) {
  gasp_str_puts(g, " (");
  for (int a = 0; a < gr->nalts; a++) gasp_str_printf(g, "%s\".%s\"", a ? " | " : "", gr->alts[a]);
  gasp_str_puts(g, gr->optional ? ")?" : ")");
}

/* The groups from `from` on, with the type and vector groups fixed by v, then the operands. */
static void variant_tail(gasp_str *g, const gasp_ptx_insn *row, const gasp_ptx_group *gr, int ng, int from, int ti,
                         int si, int vi, const variant *v) {
  for (int k = from; k < ng; k++) {
    if (k == ti) gasp_str_printf(g, " \".%s\"", v->t->type);
    else if (k == si) gasp_str_printf(g, " \".%s\"", v->s->type);
    else if (k == vi) { if (v->vec) gasp_str_printf(g, " \".v%d\"", v->vec); }
    else group_rule(g, &gr[k]);
  }
  int n = 0, opened = 0;
  const char *cls = row->classes ? row->classes : "";
  for (const char *c = row->operands; *c; c++) {
    if (*c == '?') continue;
    if (c[1] == '?') { gasp_str_puts(g, " ("); opened++; }
    gasp_str_puts(g, n ? " \", \" " : " \" \" ");
    operand_rule(g, *c, (size_t)n < strlen(cls) ? cls[n] : '-', v);
    n++;
  }
  for (; opened; opened--) gasp_str_puts(g, ")?");
}

/* Rules for one row, after its opcode (which `insn`'s trie spells): the groups before the first fixed
 * group, then one alternative per type (and vector width) with operands of that type's registers. Returns 0
 * when no variant is offered, 2 when nothing follows the opcode (no rule is written), 1 otherwise. */
static int row_rules(gasp_str *g, int r, int has_sym, int has_params) {
  const gasp_ptx_insn *row = &gasp_ptx_insns[r];
  if (!row->classes) return 0; /* the parser's leniency, not offered */
  if (strchr(row->classes, 'Q') && !has_params) return 0; /* ld.param: a snippet has no parameters */
  gasp_ptx_group gr[GASP_PTX_MAX_GROUPS];
  int ng = gasp_ptx_groups(row, gr), ti = -1, si = -1, vi = -1;
  const char *cls = row->classes ? row->classes : "";
  int uses_t = strchr(cls, 'T') || strchr(cls, 'W'), uses_s = strchr(cls, 'S') != NULL;
  for (int k = 0; k < ng; k++) {
    if (is_vector_group(&gr[k])) vi = k;
    else if (is_type_group(&gr[k]) && ti < 0 && uses_t) ti = k;
    else if (is_type_group(&gr[k]) && si < 0 && uses_s && ti >= 0) si = k;
  }
  int first = ng;
  if (ti >= 0 && ti < first) first = ti;
  if (si >= 0 && si < first) first = si;
  if (vi >= 0 && vi < first) first = vi;
  gasp_str alts;
  gasp_str_init(&alts);
  gasp_str_append(&alts, "", 0);
  int nvar = 0;
  int nt = ti >= 0 ? gr[ti].nalts : 1, ns = si >= 0 ? gr[si].nalts : 1;
  for (int a = 0; a < nt; a++)
    for (int b = 0; b < ns; b++)
      for (int vec = 0; vec <= (vi >= 0 ? 4 : 0); vec += 2) {
        if (vec == 2 && vi < 0) continue;
        variant v = {ti >= 0 ? class_of(gr[ti].alts[a]) : NULL, si >= 0 ? class_of(gr[si].alts[b]) : NULL, vec, has_sym};
        if ((ti >= 0 && !v.t) || (si >= 0 && !v.s)) continue;
        if (strchr(cls, 'W') && !v.t->wide) continue;
        /* vectors of at most 128 bits: 256-bit accesses need sm_100 and PTX 8.8 (ptxas 13.0) */
        if (vec && (!v.t || v.t->bits * vec > 128 || v.t->bits < 32)) continue;
        gasp_str_puts(&alts, alts.len ? " |" : ""); /* one line: llama.cpp ends a rule at a newline outside parentheses */
        variant_tail(&alts, row, gr, ng, first, ti, si, vi, &v);
        nvar++;
      }
  int rc = 0;
  if (nvar) {
    gasp_str body;
    gasp_str_init(&body);
    gasp_str_append(&body, "", 0);
    for (int k = 0; k < first; k++) group_rule(&body, &gr[k]);
    if (first < ng || nvar > 1) gasp_str_printf(&body, " i%d-v\ni%d-v ::=%s", r, r, alts.data);
    else gasp_str_puts(&body, alts.data);
    rc = body.len ? 1 : 2;
    if (body.len) gasp_str_printf(g, "i%d ::=%s\n", r, body.data);
    gasp_str_free(&body);
  }
  gasp_str_free(&alts);
  return rc;
}

static int row_in_snippet(const gasp_ptx_insn *row) {
  /* a snippet runs inside the scaffold's kernel, which stores the outputs after it: leaving early would
   * skip that store (the prompt says so); the parser accepts these, the grammar just does not offer them */
  /* nor branches: a snippet is straight-line code (selp, min, max), and a label it defined could clash
   * with the scaffold's */
  return strcmp(row->op, "ret") && strcmp(row->op, "exit") && strcmp(row->op, "trap") && strcmp(row->op, "brkpt") &&
         strcmp(row->op, "bra");
}

typedef gasp_grammar_op op_entry;

int gasp_grammar_op_cmp(const void *a, const void *b) {
  const op_entry *x = a, *y = b;
  int c = strcmp(x->op, y->op);
  return c ? c : x->row - y->row;
}

/* Writes what follows the common prefix of length d of e[0..n) (sorted): the opcodes as a character trie, a
 * row's rule at the node where its opcode ends. With one alternative per opcode (148 rows for a kernel),
 * llama.cpp's grammar keeps one pushdown stack per row alive at every line start and walks each of them for
 * every token it checks; the trie keeps one per distinct next character. The language is the same. */
void gasp_grammar_op_trie(gasp_str *g, const op_entry *e, int n, size_t d) {
  gasp_str alts;
  gasp_str_init(&alts);
  gasp_str_append(&alts, "", 0);
  int nalts = 0, optional = 0, i = 0;
  for (; i < n && strlen(e[i].op) == d; i++) { /* opcodes that end here sort first */
    if (!e[i].has_rule) optional = 1;
    else gasp_str_printf(&alts, "%si%d", nalts++ ? " | " : "", e[i].row);
  }
  while (i < n) {
    int j = i;
    while (j < n && e[j].op[d] == e[i].op[d]) j++;
    size_t l = d + 1; /* the longest prefix the group shares */
    while (e[i].op[l]) {
      int same = 1;
      for (int k = i + 1; k < j && same; k++) same = e[k].op[l] == e[i].op[l];
      if (!same) break;
      l++;
    }
    gasp_str_printf(&alts, "%s\"%.*s\"", nalts++ ? " | " : "", (int)(l - d), e[i].op + d);
    gasp_grammar_op_trie(&alts, e + i, j - i, l);
    i = j;
  }
  if (nalts == 1 && !optional) gasp_str_printf(g, " %s", alts.data);
  else if (nalts) gasp_str_printf(g, " (%s)%s", alts.data, optional ? "?" : "");
  gasp_str_free(&alts);
}

/* One rule per row; `insn` spells the opcodes as a trie leading to them. */
static void insn_rules(gasp_str *g, int snippet, int has_sym, int has_params) {
  op_entry *e = calloc(sizeof *e, 1024);
  int n = 0;
  for (int r = 0; gasp_ptx_insns[r].op && n < 1024; r++) {
    if (snippet && !row_in_snippet(&gasp_ptx_insns[r])) continue;
    int rc = row_rules(g, r, has_sym, has_params);
    if (rc) e[n++] = (op_entry){gasp_ptx_insns[r].op, r, rc == 1};
  }
  qsort(e, (size_t)n, sizeof *e, gasp_grammar_op_cmp);
  gasp_str_puts(g, "insn ::=");
  gasp_grammar_op_trie(g, e, n, 0);
  gasp_str_puts(g, "\n");
  free(e);
}

/* Register, literal, address and label rules; `names` are the symbols an address or mov may name. */
static void operand_rules(gasp_str *g, const gasp_task *task, int snippet, const char *const *names, int nnames,
                          int has_params) {
  /* registers by class: the declared ones, and in a snippet the scaffold's %<param> of that type */
  static const struct { const char *rule; size_t cls; const char *ptype; } by_class[] = {
      {"rr", 1, "s32 u32"}, {"rf", 2, "f32"}, {"rrd", 3, "s64 u64"}, {"rfd", 4, "f64"}};
  for (size_t i = 0; i < sizeof by_class / sizeof by_class[0]; i++) {
    gasp_str_printf(g, "%s ::= \"%s\" idx%zu", by_class[i].rule, reg_classes[by_class[i].cls].prefix, by_class[i].cls);
    for (int k = 0; snippet && k < task->nparams; k++) {
      const gasp_param *p = &task->params[k];
      if (p->role != GASP_ROLE_SCALAR && strstr(by_class[i].ptype, gasp_ptx_type(p->type) + 1))
        gasp_str_printf(g, " | \"%%%s\"", p->name);
    }
    gasp_str_puts(g, "\n");
  }
  gasp_str_puts(g, "r32 ::= rr | rf\nr64 ::= rrd | rfd\n");
  for (size_t c = 0; c < NCLASSES; c++) {
    char name[16];
    snprintf(name, sizeof name, "idx%zu", c);
    gasp_grammar_range_rule(g, name, snippet ? reg_classes[c].snippet_count : reg_classes[c].kernel_count);
  }
  gasp_str_puts(g, "preg ::= \"%p\" idx0\n"
                   "pdst ::= preg (\"|\" preg)?\n"
                   "psrc ::= \"!\"? preg\n");
  /* special registers: 64-bit ones (PTX ISA 9.0, 10.x) read with 64-bit types, the rest with 32-bit ones */
  static const char *const sreg64[] = {"%clock64", "%globaltimer", "%gridid", "%current_graph_exec", NULL};
  gasp_str_puts(g, "sreg32 ::= ");
  int first = 1;
  for (int i = 0; gasp_ptx_special_regs[i]; i++) {
    const char *s = gasp_ptx_special_regs[i];
    int is64 = 0;
    for (int k = 0; sreg64[k]; k++) is64 |= !strcmp(sreg64[k], s);
    /* %envreg needs an index 0..31; %is_explicit_cluster is a predicate; %aggr_smem_size needs PTX 8.1
     * (ptxas 13.0) and our modules declare 8.0: not offered */
    if (is64 || !strcmp(s, "%envreg") || !strcmp(s, "%is_explicit_cluster") || !strcmp(s, "%aggr_smem_size"))
      continue;
    gasp_str_printf(g, "%s\"%s\"", first ? "" : " | ", s);
    if (*gasp_ptx_sreg_components(s)) gasp_str_puts(g, " (\".x\" | \".y\" | \".z\")");
    first = 0;
  }
  gasp_str_puts(g, "\nsreg64 ::= ");
  for (int k = 0; sreg64[k]; k++) gasp_str_printf(g, "%s\"%s\"", k ? " | " : "", sreg64[k]);
  gasp_str_puts(g, "\n");
  if (nnames) {
    gasp_str_puts(g, "sym ::= ");
    for (int i = 0; i < nnames; i++) gasp_str_printf(g, "%s\"%s\"", i ? " | " : "", names[i]);
    gasp_str_puts(g, "\n");
  }
  /* addresses (64-bit ABI): global, local and generic ones in 64-bit registers; shared ones also in 32-bit
   * registers (the shared window) or named by their variable; parameters by their name */
  gasp_str_puts(g, "addr ::= \"[\" rrd off? \"]\"\n");
  gasp_str_printf(g, "saddr ::= \"[\" (rrd | rr%s) off? \"]\"\n", nnames ? " | sym" : "");
  gasp_str_puts(g, "off ::= \"+\" \"-\"? uint\n");
  if (has_params) {
    gasp_str_puts(g, "paddr ::= \"[\" (");
    for (int i = 0; i < task->nparams; i++) gasp_str_printf(g, "%s\"%s\"", i ? " | " : "", task->params[i].name);
    gasp_str_puts(g, ") \"]\"\n");
  }
  if (!snippet) {
    gasp_str_puts(g, "label ::= \"L\" (");
    for (int k = 1; k <= GASP_GRAMMAR_KERNEL_LABELS; k++) gasp_str_printf(g, "%s\"%d\"", k > 1 ? " | " : "", k);
    gasp_str_puts(g, ")\n");
  }
  gasp_str_puts(g, /* PTX literals (ISA 9.0, 4.5.1): 0f + 8 hex digits is an f32 bit pattern, 0d + 16 an f64 */
                   "iimm ::= \"-\"? uint | \"0x\" [0-9a-f]{1,8}\n"
                   /* a decimal float is an f64 constant: .bN instructions take only bit patterns */
                   "fimm ::= fbits | \"-\"? uint \".\" [0-9]{1,6}\n"
                   "dimm ::= dbits | \"-\"? uint \".\" [0-9]{1,6}\n"
                   "fbits ::= \"0f\" [0-9A-F]{8}\n"
                   "dbits ::= \"0d\" [0-9A-F]{16}\n"
                   "kimm ::= [0-9] | [1-2] [0-9] | \"3\" [0-1]\n"
                   "bimm ::= [0-9] | \"1\" [0-5]\n"
                   "nimm ::= \"32\" | \"64\" | \"96\" | \"128\" | \"256\" | \"512\" | \"1024\"\n"
                   "limm ::= \"0x\" [0-9a-f] [0-9a-f]?\n"
                   "uint ::= [0-9] | [1-9] [0-9]{1,8}\n"
                   "pimm ::= [01]\n");
}

#ifndef GASP_HAVE_LLAMA
int gasp_grammar_match(const char *gbnf, const char *text, size_t *at) {
  (void)gbnf, (void)text;
  if (at) *at = 0;
  return -1; /* llama.cpp's grammar engine is not linked in */
}
#endif

static int is_ident(const char *s) {
  if (!*s || !(((*s | 32) >= 'a' && (*s | 32) <= 'z') || *s == '_')) return 0;
  for (; *s; s++)
    if (!(((*s | 32) >= 'a' && (*s | 32) <= 'z') || (*s >= '0' && *s <= '9') || *s == '_')) return 0;
  return 1;
}

char *gasp_grammar_ptx(const gasp_target *t, const gasp_task *task, gasp_diags *d) {
  if (!t || !task || strcmp(t->isa, "PTX")) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "the PTX grammar needs a PTX target and a task");
    return NULL;
  }
  if (!gasp_task_fits(task, t->isa)) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "task '%s' is not a PTX task", task->id);
    return NULL;
  }
  /* names go into the grammar's string literals and the module: only plain identifiers */
  if (!is_ident(task->kernel)) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "kernel name '%s' is not a PTX identifier", task->kernel);
    return NULL;
  }
  for (int i = 0; i < task->nparams; i++)
    if (!is_ident(task->params[i].name)) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "parameter name '%s' is not a PTX identifier",
                     task->params[i].name);
      return NULL;
    }
  int snippet = task->snippet;
  const char *names[GASP_MAX_PARAMS + 2];
  int nnames = 0;
  gasp_str g;
  gasp_str_init(&g);
  gasp_str_printf(&g, "# PTX answers for task %s on %s, generated by gasp from its PTX description.\n", task->id,
                  t->name);
  gasp_str_puts(&g, "root ::= \"```ptx\\n\" code \"```\"\n");
  if (snippet) {
    gasp_str_puts(&g, "code ::= decls line{1,");
    gasp_str_printf(&g, "%d}\ndecls ::= \"", GASP_GRAMMAR_SNIPPET_LINES);
    gasp_str text;
    gasp_str_init(&text);
    gasp_grammar_ptx_decls(&text, 1);
    put_literal(&g, &text);
    gasp_str_free(&text);
    gasp_str_puts(&g, "\"\nline ::= guard? insn \";\\n\"\n");
  } else {
    /* shared variables: a static array for the shared-memory level (L5), the dynamic one when the launch
     * gives dynamic shared memory; declared always when offered, so every name used is declared */
    int stat = task->level == 5, dyn = strcmp(task->shared, "0") != 0;
    if (stat) names[nnames++] = "smem";
    if (dyn) names[nnames++] = "dsmem";
    gasp_str text;
    gasp_str_init(&text);
    gasp_grammar_ptx_head(&text, t);
    gasp_str_puts(&g, "code ::= \"");
    put_literal(&g, &text);
    gasp_str_printf(&g, "\"%s \"", nnames ? " shared" : "");
    gasp_str_free(&text);
    gasp_str_init(&text);
    gasp_grammar_ptx_entry(&text, task);
    gasp_grammar_ptx_decls(&text, 0);
    put_literal(&g, &text);
    gasp_str_free(&text);
    gasp_str_puts(&g, "\" body \"    ret;\\n}\\n\"\n");
    /* labels L1, L2, ... defined in this order, each once (ptxas refuses a label defined twice); a label
     * line opens a block of instruction lines */
    gasp_str_printf(&g, "body ::= line{1,%d} lab1?\n", GASP_GRAMMAR_KERNEL_FIRST_LINES);
    for (int k = 1; k <= GASP_GRAMMAR_KERNEL_LABELS; k++) {
      gasp_str_printf(&g, "lab%d ::= \"L%d:\\n\" line{0,%d}", k, k, GASP_GRAMMAR_KERNEL_BLOCK_LINES);
      if (k < GASP_GRAMMAR_KERNEL_LABELS) gasp_str_printf(&g, " lab%d?", k + 1);
      gasp_str_puts(&g, "\n");
    }
    /* at module scope; static shared memory at most 48 KB without opt-in (CUDA programming guide): the
     * grammar allows up to 16 KB */
    if (nnames) {
      gasp_str_puts(&g, "shared ::=");
      if (stat) gasp_str_puts(&g, " \".shared .align 16 .b8 smem[\" ([1-9] [0-9]{0,3} | \"1\" [0-5] [0-9]{3}) \"];\\n\"");
      if (dyn) gasp_str_puts(&g, " \".extern .shared .align 16 .b8 dsmem[];\\n\"");
    }
    gasp_str_puts(&g, "\nline ::= \"    \" guard? insn \";\\n\"\n");
  }
  gasp_str_puts(&g, "guard ::= \"@\" \"!\"? preg \" \"\n");
  insn_rules(&g, snippet, nnames > 0, !snippet && task->nparams > 0);
  operand_rules(&g, task, snippet, names, nnames, !snippet && task->nparams > 0);
  return gasp_str_take(&g);
}
