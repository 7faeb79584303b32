/* The PTX GBNF generator: one rule per row of the instruction description (ptx_desc.c), operands drawn
 * from the registers the grammar itself declares, the task's parameters and the special registers. */
#include "grammar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "../target/ptx/ptx_desc.h"
#include "../target/ptx/ptx_isa.h"

/* The registers a grammar declares: fixed names and counts, so every register an answer can name is
 * declared and in range (ptxas rejects %r9 under `.reg .b32 %r<8>`). */
typedef struct {
  const char *type, *prefix;
  int kernel_count, snippet_count;
} reg_class;

static const reg_class reg_classes[] = {
    {".pred", "%p", 32, 8}, {".b32", "%r", 100, 16}, {".f32", "%f", 100, 16},
    {".b64", "%rd", 100, 16}, {".f64", "%fd", 32, 8},
};
#define NCLASSES (sizeof reg_classes / sizeof reg_classes[0])

/* A GBNF rule matching the decimal numbers 0..n-1 (n <= 100). */
static void index_rule(gasp_str *g, const char *name, int n) {
  gasp_str_printf(g, "%s ::= ", name);
  if (n <= 10) {
    gasp_str_printf(g, "[0-%d]\n", n - 1);
    return;
  }
  int tens = n / 10, ones = n % 10;
  gasp_str_printf(g, "[0-9]");
  if (tens > 1) gasp_str_printf(g, " | [1-%d] [0-9]", tens - 1);
  if (ones) gasp_str_printf(g, " | \"%d\" [0-%d]", tens, ones - 1);
  gasp_str_puts(g, "\n");
}

static int row_in_snippet(const gasp_ptx_insn *row) {
  /* a snippet runs inside the scaffold's kernel, which stores the outputs after it: leaving early would
   * skip that store (the prompt says so); the parser accepts these, the grammar just does not offer them */
  return strcmp(row->op, "ret") && strcmp(row->op, "exit") && strcmp(row->op, "trap") && strcmp(row->op, "brkpt");
}

static void operand_rule(gasp_str *g, char k) {
  switch (k) {
  case 'r': gasp_str_puts(g, "reg"); break;
  case 'p': gasp_str_puts(g, "pdst"); break;
  case 'd': gasp_str_puts(g, "ddst"); break;
  case 'q': gasp_str_puts(g, "psrc"); break;
  case 'a': gasp_str_puts(g, "val"); break;
  case 's': case 'x': gasp_str_puts(g, "sval"); break;
  case 'm': gasp_str_puts(g, "addr"); break;
  case 'v': gasp_str_puts(g, "vdst"); break;
  case 'w': gasp_str_puts(g, "vsrc"); break;
  case 'l': gasp_str_puts(g, "label"); break;
  }
}

/* One rule per row: the opcode, its groups in order, its operands (an optional tail as a nested option). */
static void insn_rules(gasp_str *g, int snippet) {
  gasp_str alts;
  gasp_str_init(&alts);
  gasp_str_append(&alts, "", 0);
  for (int r = 0; gasp_ptx_insns[r].op; r++) {
    const gasp_ptx_insn *row = &gasp_ptx_insns[r];
    if (snippet && !row_in_snippet(row)) continue;
    gasp_str_printf(&alts, "%si%d", alts.len ? " | " : "", r);
    gasp_str_printf(g, "i%d ::= \"%s\"", r, row->op);
    gasp_ptx_group gr[GASP_PTX_MAX_GROUPS];
    int ng = gasp_ptx_groups(row, gr);
    for (int k = 0; k < ng; k++) {
      gasp_str_puts(g, " (");
      for (int a = 0; a < gr[k].nalts; a++) gasp_str_printf(g, "%s\".%s\"", a ? " | " : "", gr[k].alts[a]);
      gasp_str_puts(g, gr[k].optional ? ")?" : ")");
    }
    int n = 0, opened = 0;
    for (const char *c = row->operands; *c; c++) {
      if (*c == '?') continue;
      int optional = c[1] == '?';
      if (optional) { gasp_str_puts(g, " ("); opened++; }
      gasp_str_puts(g, n ? " \", \" " : " \" \" ");
      operand_rule(g, *c);
      n++;
    }
    for (; opened; opened--) gasp_str_puts(g, ")?");
    gasp_str_puts(g, "\n");
  }
  gasp_str_printf(g, "insn ::= %s\n", alts.data);
  gasp_str_free(&alts);
}

/* Register, value, address and label rules; `names` are the symbols an address or mov may name. */
static void operand_rules(gasp_str *g, const gasp_task *task, int snippet, const char *const *names, int nnames) {
  gasp_str_puts(g, "reg ::= preg");
  for (size_t c = 1; c < NCLASSES; c++) gasp_str_printf(g, " | \"%s\" idx%zu", reg_classes[c].prefix, c);
  if (snippet)
    for (int i = 0; i < task->nparams; i++)
      if (task->params[i].role != GASP_ROLE_SCALAR) gasp_str_printf(g, " | \"%%%s\"", task->params[i].name);
  gasp_str_puts(g, "\n");
  for (size_t c = 0; c < NCLASSES; c++) {
    char name[16];
    snprintf(name, sizeof name, "idx%zu", c);
    index_rule(g, name, snippet ? reg_classes[c].snippet_count : reg_classes[c].kernel_count);
  }
  gasp_str_puts(g, "preg ::= \"%p\" idx0\n"
                   "pdst ::= preg (\"|\" preg)?\n"
                   "ddst ::= reg (\"|\" preg)?\n"
                   "psrc ::= \"!\"? preg\n"
                   "val ::= reg | imm\n");
  gasp_str_puts(g, "sval ::= reg | imm | sreg");
  if (nnames) gasp_str_puts(g, " | sym");
  gasp_str_puts(g, "\nsreg ::= ");
  int first = 1;
  for (int i = 0; gasp_ptx_special_regs[i]; i++) {
    const char *s = gasp_ptx_special_regs[i];
    if (!strcmp(s, "%envreg")) continue; /* needs an index 0..31: not offered */
    const char *comp = gasp_ptx_sreg_components(s);
    gasp_str_printf(g, "%s\"%s\"", first ? "" : " | ", s);
    if (*comp) gasp_str_puts(g, " (\".x\" | \".y\" | \".z\")");
    first = 0;
  }
  gasp_str_puts(g, "\n");
  if (nnames) {
    gasp_str_puts(g, "sym ::= ");
    for (int i = 0; i < nnames; i++) gasp_str_printf(g, "%s\"%s\"", i ? " | " : "", names[i]);
    gasp_str_puts(g, "\n");
  }
  gasp_str_printf(g, "addr ::= \"[\" (reg%s) (\"+\" \"-\"? uint)? \"]\"\n", nnames ? " | sym" : "");
  gasp_str_puts(g, "vdst ::= reg | \"{\" reg \", \" reg \"}\" | \"{\" reg \", \" reg \", \" reg \", \" reg \"}\"\n"
                   "vsrc ::= val | \"{\" reg \", \" reg \"}\" | \"{\" reg \", \" reg \", \" reg \", \" reg \"}\"\n"
                   "label ::= \"L\" [0-9] [0-9]?\n"
                   /* PTX literals (ISA 9.0, 4.5.1): 0f + 8 hex digits is an f32 bit pattern, 0d + 16 an f64 */
                   "imm ::= \"-\"? uint | \"0x\" [0-9a-f]{1,8} | \"0f\" [0-9A-F]{8} | \"0d\" [0-9A-F]{16} | "
                   "\"-\"? uint \".\" [0-9]{1,6}\n"
                   "uint ::= [0-9] | [1-9] [0-9]{1,9}\n");
}

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
    for (size_t c = 0; c < NCLASSES; c++)
      gasp_str_printf(&g, ".reg %s %s<%d>;\\n", reg_classes[c].type, reg_classes[c].prefix, reg_classes[c].snippet_count);
    gasp_str_puts(&g, "\"\nline ::= guard? insn \";\\n\" | label \":\\n\"\n");
  } else {
    const gasp_ptx_arch *a = t->cc == 90 ? &gasp_ptx_sm90 : &gasp_ptx_sm89;
    for (int i = 0; i < task->nparams; i++) names[nnames++] = task->params[i].name;
    names[nnames++] = "smem";
    int dyn = strcmp(task->shared, "0") != 0;
    if (dyn) names[nnames++] = "dsmem";
    gasp_str_printf(&g, "code ::= \".version %s\\n.target %s\\n.address_size 64\\n\\n\" shared? ", a->ptx_version,
                    a->arch);
    gasp_str_printf(&g, "\".visible .entry %s(\\n", task->kernel);
    for (int i = 0; i < task->nparams; i++) {
      const gasp_param *p = &task->params[i];
      gasp_str_printf(&g, "    .param %s %s%s\\n", p->role == GASP_ROLE_SCALAR ? gasp_ptx_type(p->type) : ".u64",
                      p->name, i + 1 < task->nparams ? "," : "");
    }
    gasp_str_puts(&g, ")\\n{\\n");
    for (size_t c = 0; c < NCLASSES; c++)
      gasp_str_printf(&g, "    .reg %s %s<%d>;\\n", reg_classes[c].type, reg_classes[c].prefix,
                      reg_classes[c].kernel_count);
    gasp_str_printf(&g, "\" line{1,%d} \"    ret;\\n}\\n\"\n", GASP_GRAMMAR_KERNEL_LINES);
    /* static shared memory at module scope, at most 48 KB without opt-in (CUDA programming guide) */
    gasp_str_puts(&g, "shared ::= \".shared .align 16 .b8 smem[\" [1-9] [0-9]{0,4} \"];\\n\"");
    if (dyn) gasp_str_puts(&g, " (\".extern .shared .align 16 .b8 dsmem[];\\n\")?");
    if (dyn) gasp_str_puts(&g, " | \".extern .shared .align 16 .b8 dsmem[];\\n\"");
    gasp_str_puts(&g, "\nline ::= \"    \" guard? insn \";\\n\" | label \":\\n\"\n");
  }
  gasp_str_puts(&g, "guard ::= \"@\" \"!\"? preg \" \"\n");
  insn_rules(&g, snippet);
  operand_rules(&g, task, snippet, names, nnames);
  return gasp_str_take(&g);
}
