/* Our PTX parser against real compiler output (nvcc's reference answers of every PTX task, both targets),
 * the tasks' known-good snippets, the prompt's example and instruction list, and a table of crafted bad
 * lines with the line, column and message each must get. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/util.h"
#include "extract/extract.h"
#include "target/ptx/ptx_desc.h"
#include "target/ptx/ptx_isa.h"
#include "target/ptx/ptx_parse.h"
#include "target/target.h"
#include "task/task.h"

static int parses(const char *code, gasp_diags *d) {
  gasp_diags_clear(d);
  return gasp_ptx_parse(code, 1, d);
}

/* Lines a model commonly writes that must parse (snippet mode: instructions alone). */
static const char *const good[] = {
    "add.f32 %f1, %f2, 0f3F800000;",
    "add.rn.ftz.f32 %f1, %f2, -1.5;",
    "add.s64 %rd1, %rd2, -8;",
    "sub.u32 %r1, %r2, 0xFF;",
    "mul.wide.u32 %rd3, %r1, 4;",
    "mul.hi.s32 %r1, %r2, %r3;",
    "mul.rn.f64 %fd1, %fd2, 0d3FF0000000000000;",
    "mad.lo.s32 %r4, %r1, %r2, %r3;",
    "fma.rn.f32 %f4, %f1, %f2, %f3;",
    "div.rn.f32 %f1, %f2, %f3;",
    "div.approx.ftz.f32 %f1, %f2, %f3;",
    "div.full.f32 %f1, %f2, %f3;",
    "div.s32 %r1, %r2, 3;",
    "rem.u32 %r1, %r2, %r3;",
    "min.f32 %f1, %f2, %f3;",
    "max.NaN.f32 %f1, %f2, %f3;",
    "abs.s32 %r1, %r2;",
    "neg.f32 %f1, %f2;",
    "and.b32 %r1, %r2, 0x1f;",
    "or.pred %p1, %p2, %p3;",
    "xor.b64 %rd1, %rd2, %rd3;",
    "not.b32 %r1, %r2;",
    "shl.b32 %r1, %r2, 2;",
    "shr.s32 %r1, %r2, 31;",
    "setp.lt.f32 %p1, %f1, %f2;",
    "setp.ge.and.u32 %p1|%p2, %r1, %r2, !%p3;",
    "setp.nan.f32 %p1, %f1, %f1;",
    "selp.f32 %f3, %f1, %f2, %p1;",
    "slct.f32.s32 %f1, %f2, %f3, %r1;",
    "@%p1 bra DONE;",
    "@!%p1 bra.uni L1;",
    "L1:",
    "ret;",
    "exit;",
    "shfl.sync.bfly.b32 %r2, %r1, 16, 0x1f, 0xffffffff;",
    "shfl.sync.down.b32 %r2|%p1, %r1, 1, 31, -1;",
    "vote.sync.ballot.b32 %r1, %p1, 0xffffffff;",
    "vote.sync.all.pred %p2, !%p1, -1;",
    "activemask.b32 %r1;",
    "bar.sync 0;",
    "bar.sync 1, 64;",
    "bar.warp.sync -1;",
    "barrier.sync.aligned 0;",
    "membar.gl;",
    "fence.acq_rel.gpu;",
    "atom.global.add.f32 %f1, [%rd1], %f2;",
    "atom.shared.cas.b32 %r1, [%r2], %r3, %r4;",
    "red.shared.add.u32 [%r1], 1;",
    "red.relaxed.gpu.global.add.u32 [%rd1+4], %r1;",
    "popc.b32 %r1, %r2;",
    "clz.b64 %r1, %rd2;",
    "brev.b32 %r1, %r2;",
    "bfe.u32 %r1, %r2, 8, 4;",
    "bfi.b32 %r1, %r2, %r3, 0, 8;",
    "prmt.b32 %r1, %r2, %r3, 0x3210;",
    "rcp.rn.f32 %f1, %f2;",
    "rcp.approx.ftz.f64 %fd1, %fd2;",
    "sqrt.approx.f32 %f1, %f2;",
    "rsqrt.approx.ftz.f32 %f1, %f2;",
    "ex2.approx.ftz.f32 %f1, %f2;",
    "lg2.approx.f32 %f1, %f2;",
    "sin.approx.f32 %f1, %f2;",
    "cos.approx.ftz.f32 %f1, %f2;",
    "tanh.approx.f32 %f1, %f2;",
    "mov.u32 %r1, %tid.x;",
    "mov.b64 %rd1, {%r1, %r2};",
    "mov.b32 {%h1, %h2}, %r1;",
    "mov.f32 %f1, 0f00000000;",
    "mul24.lo.s32 %r1, %r2, %r3;",
    "mad24.lo.u32 %r1, %r2, %r3, %r4;",
    "copysign.f32 %f1, %f2, %f3;",
    "testp.finite.f32 %p1, %f1;",
    "cvt.rn.f32.s32 %f1, %r1;",
    "cvt.rzi.s32.f32 %r1, %f1;",
    "cvt.u64.u32 %rd1, %r1;",
    "cvt.sat.f32.f32 %f1, %f1;",
    "cvta.to.global.u64 %rd2, %rd1;",
    "cvta.shared.u64 %rd1, smem;",
    "ld.param.u64 %rd1, [x];",
    "ld.global.nc.f32 %f1, [%rd1+16];",
    "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd6];",
    "ld.shared.u32 %r30, [%r5+-4];",
    "ld.volatile.shared.f32 %f1, [smem+4];",
    "ld.global.ca.v2.u32 {%r1, %r2}, [%rd1];",
    "st.global.f32 [%rd4], %f1;",
    "st.shared.v2.f32 [%r1], {%f1, %f2};",
    "st.global.wt.u32 [%rd1], 0;",
    ".reg .f32 %t<4>;",
    ".reg .b32 %a, %b, %c;",
    "{\n.reg .pred %q;\nsetp.eq.s32 %q, %r1, 0;\n}",
    "/* block */ add.s32 %r1, %r2, 1; // trailing",
    "mul.lo.s32 %r1, %r2, 1000000007;",
    NULL,
};

typedef struct {
  const char *code;
  int line, col;
  const char *msg; /* a part of the message */
} bad_case;

static const bad_case bad[] = {
    {"ad.f32 %f1, %f2, %f3;", 1, 1, "did you mean 'add'"},
    {"add.rx.f32 %f1, %f2, %f3;", 1, 4, "'.rx' is not a modifier of 'add'"},
    {"add.rx.f32 %f1, %f2, %f3;", 1, 4, ".rn"},
    {"mul.s32 %r1, %r2, %r3;", 1, 4, ".lo .hi .wide"},
    {"cvt.rn.f32 %f1, %r1;", 1, 1, "incomplete"},
    {"add.f32 %f1, %f2;", 1, 17, "operand 3 of 'add.f32'"},
    {"add.f32 %f1, %f2, %f3, %f4;", 1, 22, "takes 3 operand(s)"},
    {"add.f32 %f1 %f2, %f3;", 1, 13, "expected ','"},
    {"add.f32 %f1, %f2, %f3", 1, 22, "expected ';'"},
    {"ld.global.f32 %f1, %rd1;", 1, 20, "must be an address"},
    {"st.global.f32 %rd1, %f1;", 1, 15, "must be an address"},
    {"setp.lt.and.s32 %p1, %r1, %r2;", 1, 30, "must be a predicate"},
    {"mov.u32 %r1, 0f3F80;", 1, 14, "malformed number"},
    {"mov.f32 %f1, 1.5.2;", 1, 14, "malformed number"},
    {"@p1 bra L;", 1, 2, "predicate register after '@'"},
    {"bra %r1;", 1, 5, "must be a label"},
    {".reg .f32 %f<4;", 1, 15, "expected '>'"},
    {".reg .float %f<4>;", 1, 6, "register type"},
    {"add.f32 %f1, %f2, %f3;\nsubb.f32 %f1, %f2, %f3;\nmul.f32 %f1, %f2, %f3;", 2, 1, "did you mean 'sub'"},
    {"mov.u32 %r1, %tid.x;\n\n  shfl.sync.bfly %r2, %r1, 1, 31, -1;", 3, 3, "incomplete"},
    {"add.f32 %f1, %f2, %f3; #", 1, 24, "unexpected character"},
    {"}", 1, 1, "without a matching"},
    {"{\nadd.f32 %f1, %f2, %f3;", 2, 23, "expected '}'"},
    {".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n.param .u64 x)\n{\nret\n}", 8, 1,
     "expected ';'"},
    {".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n.param .ptr x)\n{\nret;\n}", 5, 13,
     "parameter type"},
    {".version 8.0\n.target sm_90\n.address_size 48\n", 3, 15, "64 or 32"},
    {".version 8.0\n.target sm_90\n.visible .entry k()\n{\n.version 8.0\nret;\n}", 5, 1, "not allowed inside"},
    {".version 8.0\n.target sm_90\nadd.f32 %f1, %f2, %f3;", 3, 1, "expected a directive"},
    {NULL, 0, 0, NULL},
};

/* Instruction examples quoted in the prompt's instruction list: a dotted opcode of the description
 * followed by operands and ';'. */
static int check_prompt_examples(gasp_diags *d) {
  int found = 0;
  for (int i = 0; gasp_ptx_ops[i].op; i++) {
    const char *w = gasp_ptx_ops[i].what;
    for (const char *p = w; *p; p++) {
      if (p != w && p[-1] != ' ' && p[-1] != '`') continue;
      size_t base = strcspn(p, ". ;,");
      if (p[base] != '.' || !gasp_ptx_is_opcode(p, base)) continue;
      size_t word = strcspn(p, " ;,");
      if (p[word] != ' ' || !strchr("%[{0123456789-", p[word + 1])) continue;
      const char *semi = strchr(p, ';');
      if (!semi) continue;
      char line[256];
      snprintf(line, sizeof line, "%.*s", (int)(semi - p + 1), p);
      int e = parses(line, d);
      CHECK(e == 0, "prompt example '%s' parses: %s", line, d->count ? d->items[0].msg : "");
      found++;
    }
    /* the names in the list's first column: each opcode with its modifiers is in the description */
    char ops[128];
    gasp_strlcpy(ops, gasp_ptx_ops[i].op, sizeof ops);
    for (char *tok = strtok(ops, "/"); tok; tok = strtok(NULL, "/")) {
      while (*tok == ' ') tok++;
      if (!strncmp(tok, "@%p ", 4)) tok += 4;
      size_t n = strcspn(tok, " ");
      tok[n] = 0;
      size_t base = strcspn(tok, ".");
      CHECK(gasp_ptx_is_opcode(tok, base), "prompt lists '%s', which the description knows", tok);
      /* every modifier it names is in some group of some row of that opcode */
      for (char *m = strchr(tok, '.'); m; m = strchr(m + 1, '.')) {
        size_t ml = strcspn(m + 1, ".");
        int known = 0;
        for (int r = 0; gasp_ptx_insns[r].op && !known; r++) {
          if (strlen(gasp_ptx_insns[r].op) != base || strncmp(gasp_ptx_insns[r].op, tok, base)) continue;
          gasp_ptx_group g[GASP_PTX_MAX_GROUPS];
          int ng = gasp_ptx_groups(&gasp_ptx_insns[r], g);
          for (int k = 0; k < ng && !known; k++)
            for (int a = 0; a < g[k].nalts && !known; a++)
              known = strlen(g[k].alts[a]) == ml && !strncmp(g[k].alts[a], m + 1, ml);
        }
        CHECK(known, "modifier '.%.*s' of '%s' in the prompt list is in the description", (int)ml, m + 1, tok);
      }
    }
  }
  return found;
}

/* The description checks itself: groups not truncated, one class per operand, type groups where the
 * classes name types. */
static void check_description(void) {
  static const char *const types = " pred b8 b16 b32 b64 u8 u16 u32 u64 s8 s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64 tf32 ";
  int rows = 0;
  for (int r = 0; gasp_ptx_insns[r].op; r++, rows++) {
    const gasp_ptx_insn *row = &gasp_ptx_insns[r];
    gasp_ptx_group g[GASP_PTX_MAX_GROUPS];
    int ng = gasp_ptx_groups(row, g), spaces = 0, bars = 0, alts = 0, type_groups = 0;
    for (const char *c = row->mods; *c; c++) {
      spaces += *c == ' ' && c[1] && c[1] != ' ';
      bars += *c == '|';
    }
    for (int k = 0; k < ng; k++) {
      alts += g[k].nalts;
      int all = g[k].nalts > 0;
      for (int a = 0; a < g[k].nalts; a++) {
        char w[32];
        snprintf(w, sizeof w, " %s ", g[k].alts[a]);
        CHECK(g[k].alts[a][0] && strlen(g[k].alts[a]) < sizeof g[k].alts[a] - 1, "row %d (%s): alternative fits", r,
              row->op);
        if (!strstr(types, w)) all = 0;
      }
      type_groups += all;
    }
    CHECK(!row->mods[0] || ng == spaces + 1, "row %d (%s): %d groups parsed, %d written", r, row->op, ng, spaces + 1);
    CHECK(!row->mods[0] || alts == bars + ng, "row %d (%s): every alternative kept (%d of %d)", r, row->op, alts,
          bars + ng);
    int nops = 0;
    for (const char *c = row->operands; *c; c++) nops += *c != '?';
    CHECK(!row->classes || (int)strlen(row->classes) == nops, "row %d (%s): one class per operand", r, row->op);
    if (row->classes && (strchr(row->classes, 'T') || strchr(row->classes, 'W')))
      CHECK(type_groups >= 1, "row %d (%s): its classes name the type, so it has a type group", r, row->op);
    if (row->classes && strchr(row->classes, 'S'))
      CHECK(type_groups >= 2, "row %d (%s): its classes name a second type", r, row->op);
    for (int q = 0; q < r; q++)
      CHECK(strcmp(gasp_ptx_insns[q].op, row->op) || strcmp(gasp_ptx_insns[q].mods, row->mods) ||
                strcmp(gasp_ptx_insns[q].operands, row->operands),
            "rows %d and %d (%s) differ", q, r, row->op);
  }
  CHECK(rows >= 80, "the description has its rows (%d)", rows);
}

int main(void) {
  gasp_diags d;
  gasp_diags_init(&d);
  check_description();

  for (int i = 0; good[i]; i++) {
    int e = parses(good[i], &d);
    CHECK(e == 0, "'%s' parses: %s", good[i], d.count ? d.items[0].msg : "");
  }

  for (int i = 0; bad[i].code; i++) {
    int e = parses(bad[i].code, &d);
    CHECK(e == 1, "'%s' gives one error (got %d)", bad[i].code, e);
    if (!d.count) continue;
    CHECK(d.items[0].cls == GASP_CLASS_SYNTAX, "'%s' is a syntax error", bad[i].code);
    CHECK(d.items[0].line == bad[i].line && d.items[0].col == bad[i].col, "'%s' at %d:%d, got %d:%d (%s)", bad[i].code,
          bad[i].line, bad[i].col, d.items[0].line, d.items[0].col, d.items[0].msg);
    CHECK(strstr(d.items[0].msg, bad[i].msg) != NULL, "'%s': message '%s' says '%s'", bad[i].code, d.items[0].msg,
          bad[i].msg);
  }

  /* answer lines: code line 1 is answer line 40 */
  gasp_diags_clear(&d);
  CHECK(gasp_ptx_parse("ret;\nadd.f32 %f1, %f2;\n", 40, &d) == 1 && d.items[0].line == 41, "code lines are answer lines");
  /* one error per bad statement, and the parser goes on after it */
  CHECK(parses("ad.f32 %f1, %f2, %f3;\nmov.u32 %r1, %r2;\nsubb.s32 %r1, %r2, %r3;\n", &d) == 2,
        "two bad lines, two errors");

  int examples = check_prompt_examples(&d);
  CHECK(examples >= 10, "the prompt's instruction list quotes at least 10 examples (found %d)", examples);

  /* the tasks: known-good snippets, the prompt's example answers, nvcc's reference answers */
  gasp_taskset ts = {0};
  CHECK(gasp_taskset_load(gasp_tasks_dir(), &ts, &d) == 0, "tasks load");
  const char *targets[] = {"ptx-sm90", "ptx-sm89"};
  int refs = 0, snippets = 0, tasks = 0, nvcc_missing = 0;
  for (size_t k = 0; k < ts.count; k++) {
    const gasp_task *task = &ts.items[k];
    if (!gasp_task_fits(task, "PTX")) continue;
    tasks++;
    if (task->ptx_snippet) {
      int e = parses(task->ptx_snippet, &d);
      CHECK(e == 0, "snippet of %s parses: %s", task->id, d.count ? d.items[0].msg : "");
      snippets++;
    }
    for (int ti = 0; ti < 2; ti++) {
      const gasp_target *t = gasp_target_find(targets[ti]);
      CHECK(t && t->parse, "%s has a parser", targets[ti]);
      if (!t || !t->parse) continue;
      if (ti == 0) {
        gasp_str ex;
        gasp_str_init(&ex);
        t->example(t, task, &ex);
        gasp_extracted x;
        gasp_diags_clear(&d);
        CHECK(gasp_extract(ex.data, ex.len, t, &x, &d) == 0, "example of %s extracts", task->id);
        if (x.code) {
          gasp_diags_clear(&d);
          int e = t->parse(t, task, x.code, x.first_line, &d);
          CHECK(e == 0, "prompt example for %s parses: %s", task->id, d.count ? d.items[0].msg : "");
          gasp_extracted_free(&x);
        }
        gasp_str_free(&ex);
      }
      char *answer = NULL;
      gasp_diags_clear(&d);
      if (t->reference_answer(t, task, &answer, &d)) {
        nvcc_missing++;
        continue;
      }
      gasp_diags_clear(&d);
      int e = t->parse(t, task, answer, 1, &d);
      CHECK(e == 0, "nvcc's answer to %s on %s parses: %d:%d %s", task->id, t->name, d.count ? d.items[0].line : 0,
            d.count ? d.items[0].col : 0, d.count ? d.items[0].msg : "");
      refs++;
      free(answer);
    }
  }
  printf("%d PTX tasks: %d snippets and %d nvcc reference answers parse (%d references could not be made here)\n",
         tasks, snippets, refs, nvcc_missing);
  CHECK(tasks >= 50, "the suite has its PTX tasks (%d)", tasks);
  if (nvcc_missing) printf("note: nvcc is not usable here; reference answers were not parsed\n");
  gasp_taskset_free(&ts);
  gasp_diags_free(&d);
  return DONE();
}
