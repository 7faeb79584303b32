/* The PTX and AMD grammar generators without llama.cpp: every task gets a grammar, every rule it uses is
 * defined and every rule it defines is used, no repetition is unbounded, every row of the description is
 * offered (PTX kernels), the grammar carries the task's names (PTX) and the shape the AMD prompts ask for.
 * test_grammar_llama runs them in llama.cpp. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "grammar/grammar.h"
#include "target/amdgcn/emu/emu.h"
#include "target/ptx/ptx_desc.h"
#include "target/target.h"
#include "task/task.h"

#define MAX_RULES 512

typedef struct {
  char name[64];
  int defined, used;
} rule;

static rule *find(rule *r, int *n, const char *s, size_t len) {
  for (int i = 0; i < *n; i++)
    if (strlen(r[i].name) == len && !strncmp(r[i].name, s, len)) return &r[i];
  if (*n >= MAX_RULES || len >= sizeof r[0].name) return NULL;
  memcpy(r[*n].name, s, len);
  r[*n].name[len] = 0;
  r[*n].defined = r[*n].used = 0;
  return &r[(*n)++];
}

static int is_name(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'; }

/* Rules defined and used, and unbounded repetitions, outside string literals and character classes. */
static void scan(const char *g, rule *r, int *n, int *unbounded) {
  for (const char *line = g; *line;) {
    const char *end = strchr(line, '\n');
    if (!end) end = line + strlen(line);
    if (*line != '#' && end > line) {
      const char *def = strstr(line, "::=");
      if (def && def > end) def = NULL;
      if (def) {
        const char *e = line;
        while (is_name(*e)) e++;
        rule *x = find(r, n, line, (size_t)(e - line));
        if (x) x->defined = 1;
      }
      {
        /* a rule's body, or a continuation line of the rule above */
        for (const char *p = def ? def + 3 : line; p < end; p++) {
          if (*p == '"') {
            for (p++; p < end && *p != '"'; p++)
              if (*p == '\\') p++;
          } else if (*p == '[') {
            for (p++; p < end && *p != ']'; p++)
              if (*p == '\\') p++;
          } else if (*p == '*' || *p == '+') {
            (*unbounded)++;
          } else if (*p == '{') {
            const char *c = strchr(p, '}');
            if (c && c[-1] == ',') (*unbounded)++;
          } else if (is_name(*p) && !(p[-1] >= '0' && p[-1] <= '9' && *p >= '0' && *p <= '9')) {
            const char *s = p;
            while (p < end && is_name(*p)) p++;
            if (!(*s >= '0' && *s <= '9')) {
              rule *u = find(r, n, s, (size_t)(p - s));
              if (u) u->used = 1;
            }
            p--;
          }
        }
      }
    }
    line = *end ? end + 1 : end;
  }
}

/* the checks every grammar passes: each rule used is defined and each defined is used, no repetition is
 * unbounded, every line is a comment or a whole rule (llama.cpp ends a rule at a newline outside parentheses) */
static void well_formed(const char *g, const char *what) {
  rule r[MAX_RULES];
  int n = 0, unbounded = 0;
  scan(g, r, &n, &unbounded);
  CHECK(unbounded == 0, "%s: every repetition is bounded (%d unbounded)", what, unbounded);
  for (int i = 0; i < n; i++) {
    CHECK(r[i].defined, "%s: rule '%s' is used and defined", what, r[i].name);
    CHECK(r[i].used || !strcmp(r[i].name, "root"), "%s: rule '%s' is defined and used", what, r[i].name);
  }
  int whole = 1;
  for (const char *l = g; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
    const char *e = strchr(l, '\n');
    size_t len = e ? (size_t)(e - l) : strlen(l);
    if (len && *l != '#' && !memmem(l, len, "::=", 3)) whole = 0;
  }
  CHECK(whole, "%s: every line of the grammar is a whole rule", what);
}

/* The AMD grammars: one per task on each generation, shaped as the prompts ask (amdgcn.c): a snippet has no
 * memory, labels or program control and the registers it offers; a kernel body has them; wave32 spells the
 * low halves only; dual issue on gfx11 only. The mnemonics come from the emulator's table. */
static void amd_grammars(const gasp_taskset *ts) {
  const char *names[] = {"gfx900", "gfx1030", "gfx1100"};
  for (int m = 0; m < 3; m++) {
    const gasp_target *t = gasp_target_find(names[m]);
    CHECK(t && t->grammar, "%s has a grammar", names[m]);
    if (!t || !t->grammar) continue;
    int nm = gasp_emu_mnemonics(names[m], NULL, 0);
    gasp_emu_mnemonic ms[1024];
    CHECK(nm > 250 && nm <= 1024 && gasp_emu_mnemonics(names[m], ms, 1024) == nm, "%s: %d mnemonics, the same count "
          "when stored", names[m], nm);
    int vop = 0, vop3 = 0, dual = 0, inv = 0;
    for (int i = 0; i < nm && i < 1024; i++) {
      vop += !strcmp(ms[i].name, "v_add_f32") && (ms[i].enc & GASP_EMU_ENC_VOP) && (ms[i].enc & GASP_EMU_ENC_VOP3);
      vop3 += !strcmp(ms[i].name, "v_fma_f32") && ms[i].enc == GASP_EMU_ENC_VOP3;
      dual += (ms[i].enc & GASP_EMU_ENC_VOPDX) != 0;
      inv += ms[i].enc == GASP_EMU_ENC_CACHE;
      for (int k = 0; k < i; k++) CHECK(strcmp(ms[i].name, ms[k].name), "%s: %s listed once", names[m], ms[i].name);
    }
    CHECK(vop == 1 && vop3 == 1, "%s: v_add_f32 in VOP2 and VOP3, v_fma_f32 in VOP3 only", names[m]);
    CHECK(m == 2 ? dual > 5 : dual == 0, "%s: %d dual-issue X halves", names[m], dual);
    CHECK(inv == (m ? 2 : 0), "%s: %d cache invalidates", names[m], inv);
    /* a smaller room: the count is the same and only the room is written */
    gasp_emu_mnemonic few[4] = {{0}};
    CHECK(gasp_emu_mnemonics(names[m], few, 3) == nm && few[3].name == NULL && few[2].name, "%s: room for 3", names[m]);
    int amd = 0, snippets = 0;
    gasp_diags d;
    gasp_diags_init(&d);
    for (size_t k = 0; k < ts->count; k++) {
      const gasp_task *task = &ts->items[k];
      gasp_diags_clear(&d);
      char *g = t->grammar(t, task, &d);
      if (!gasp_task_fits(task, t->isa)) {
        CHECK(g == NULL && gasp_diags_errors(&d) == 1, "no %s grammar for the %s task %s", names[m], task->isa, task->id);
        free(g);
        continue;
      }
      CHECK(g != NULL, "grammar for %s on %s", task->id, names[m]);
      if (!g) continue;
      amd++;
      char what[160];
      snprintf(what, sizeof what, "%s on %s", task->id, names[m]);
      well_formed(g, what);
      CHECK(strstr(g, "root ::= \"```amdgcn\\n\"") != NULL, "%s: the answer is a ```amdgcn fence", what);
      const char *sp = strstr(g, "\nspecial ::=");
      char special[200] = "";
      if (sp) snprintf(special, sizeof special, "%.*s", (int)strcspn(sp + 1, "\n"), sp + 1);
      CHECK(strstr(special, "\"vcc_lo\"") && (strstr(special, "\"vcc\"") != NULL) == (m == 0),
            "%s: vcc only in wave64 (%s)", what, special);
      CHECK((strstr(special, "\"null\"") != NULL) == (m > 0), "%s: null from gfx10", what);
      CHECK((strstr(g, "vopd ::=") != NULL) == (m == 2), "%s: dual issue only on gfx11", what);
      if (task->snippet) {
        snippets++;
        CHECK(!strstr(g, "mem ::=") && !strstr(g, "label ::=") && !strstr(g, "s_endpgm") && !strstr(g, "sopp"),
              "%s: a snippet has no memory, labels or program control", what);
        CHECK(strstr(g, "vidx ::= [0-9] | [1-5] [0-9] | \"6\" [0-3]\n") != NULL &&
                  strstr(g, "sidx ::= [0-9] | [1-3] [0-9] | \"4\" [0-7]\n") != NULL,
              "%s: the snippet's registers v0-v63, s0-s47", what);
      } else {
        CHECK(strstr(g, "mem ::=") && strstr(g, "label ::=") && strstr(g, "\"s_endpgm\"") && strstr(g, "s_waitcnt"),
              "%s: a body has memory, labels, s_endpgm and s_waitcnt", what);
        CHECK(strstr(g, "vidx ::= [0-9] | [1-9] [0-9] | \"1\" [0-9] [0-9] | \"2\" ([0-4] [0-9] | \"5\" [0-5])\n") &&
                  strstr(g, m ? "sidx ::= [0-9] | [1-9] [0-9] | \"1\" \"0\" [0-5]\n" : "sidx ::= [0-9] | [1-9] [0-9] | "
                                "\"1\" \"0\" [0-1]\n"),
              "%s: a body's registers v0-v255 and s0-s%d", what, m ? 105 : 101);
      }
      free(g);
    }
    CHECK(amd >= 40 && snippets >= 10 && snippets < amd, "%s: %d AMD tasks, %d snippets", names[m], amd, snippets);
    gasp_diags_free(&d);
  }
}

int main(void) {
  gasp_diags d;
  gasp_diags_init(&d);
  gasp_taskset ts = {0};
  CHECK(gasp_taskset_load(gasp_tasks_dir(), &ts, &d) == 0, "tasks load");
  const gasp_target *t = gasp_target_find("ptx-sm90"), *t89 = gasp_target_find("ptx-sm89");
  CHECK(t && t->grammar && t89 && t89->grammar, "the PTX targets have grammars");
  amd_grammars(&ts);
  if (!t || !t->grammar || !t89 || !t89->grammar) return DONE();
  int rows = 0;
  while (gasp_ptx_insns[rows].op) rows++;
  int tasks = 0;
  for (size_t k = 0; k < ts.count; k++) {
    const gasp_task *task = &ts.items[k];
    if (!gasp_task_fits(task, "PTX")) {
      gasp_diags_clear(&d);
      char *g = t->grammar(t, task, &d);
      CHECK(g == NULL && gasp_diags_errors(&d) == 1, "no PTX grammar for the %s task %s", task->isa, task->id);
      free(g);
      continue;
    }
    tasks++;
    for (int ti = 0; ti < 2; ti++) {
      const gasp_target *tt = ti ? t89 : t;
      gasp_diags_clear(&d);
      char *g = tt->grammar(tt, task, &d);
      CHECK(g != NULL, "grammar for %s on %s", task->id, tt->name);
      if (!g) continue;
      rule r[MAX_RULES];
      int n = 0, unbounded = 0;
      scan(g, r, &n, &unbounded);
      CHECK(unbounded == 0, "%s: every repetition is bounded (%d unbounded)", task->id, unbounded);
      int defined = 0;
      for (int i = 0; i < n; i++) {
        defined += r[i].defined;
        CHECK(r[i].defined, "%s: rule '%s' is used and defined", task->id, r[i].name);
        CHECK(r[i].used || !strcmp(r[i].name, "root"), "%s: rule '%s' is defined and used", task->id, r[i].name);
      }
      CHECK(strstr(g, "root ::= \"```ptx\\n\"") != NULL, "%s: the answer is a ```ptx fence", task->id);
      /* llama.cpp ends a rule at a newline outside parentheses: every line is a comment or a whole rule */
      int whole = 1;
      for (const char *l = g; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        if (len && *l != '#' && !memmem(l, len, "::=", 3)) whole = 0;
      }
      CHECK(whole, "%s: every line of the grammar is a whole rule", task->id);
      if (task->snippet) {
        CHECK(strstr(g, ".entry") == NULL && strstr(g, "\"ret\"") == NULL, "%s: a snippet has no entry and no ret",
              task->id);
        for (int i = 0; i < task->nparams; i++) {
          if (task->params[i].role == GASP_ROLE_SCALAR) continue;
          char want[64];
          snprintf(want, sizeof want, "\"%%%s\"", task->params[i].name);
          CHECK(strstr(g, want) != NULL, "%s: snippet registers include %s", task->id, want);
        }
      } else {
        char want[160];
        snprintf(want, sizeof want, ".visible .entry %s(\\n", task->kernel);
        CHECK(strstr(g, want) != NULL, "%s: the kernel is named %s", task->id, task->kernel);
        snprintf(want, sizeof want, ".target %s\\n", tt->arch);
        CHECK(strstr(g, want) != NULL, "%s: the module targets %s", task->id, tt->arch);
        for (int i = 0; i < task->nparams; i++) {
          snprintf(want, sizeof want, " %s%s\\n", task->params[i].name, i + 1 < task->nparams ? "," : "");
          CHECK(strstr(g, want) != NULL, "%s: parameter %s in order", task->id, task->params[i].name);
        }
        /* every row of the description is offered: its rule (what follows the opcode) exists and the opcode
         * trie of `insn` leads to it, or nothing follows its opcode and the trie spells it alone */
        const char *insn = strstr(g, "\ninsn ::=");
        CHECK(insn != NULL, "%s: an insn rule", task->id);
        for (int i = 0; i < rows && insn; i++) {
          const gasp_ptx_insn *row = &gasp_ptx_insns[i];
          if (!row->classes) continue; /* the parser's leniency only */
          char rn[32];
          snprintf(rn, sizeof rn, "\ni%d ::=", i);
          gasp_ptx_group gr[GASP_PTX_MAX_GROUPS];
          if (strstr(g, rn)) {
            int refs = 0;
            size_t l = (size_t)snprintf(rn, sizeof rn, "i%d", i);
            for (const char *p = insn + 1; (p = strstr(p, rn)) && p < strchr(insn + 1, '\n'); p += l)
              refs += (p[-1] == ' ' || p[-1] == '(') && (p[l] == ' ' || p[l] == ')' || p[l] == '\n');
            CHECK(refs == 1, "%s: row %d (%s) is reached from insn (%d refs)", task->id, i, row->op, refs);
          } else
            CHECK(!*row->operands && gasp_ptx_groups(row, gr) == 0, "%s: row %d (%s) is in the grammar", task->id, i,
                  row->op);
        }
      }
      (void)defined;
      free(g);
    }
  }
  CHECK(tasks >= 50, "the suite has its PTX tasks (%d)", tasks);
  gasp_taskset_free(&ts);
  gasp_diags_free(&d);
  return DONE();
}
