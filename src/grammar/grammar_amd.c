/* The AMD GBNF generator (gfx900, gfx1030, gfx1100): answers in the form the AMD prompts ask for and the corpus
 * is written in (amdgcn.c: a snippet's instruction lines, or a kernel body with local labels), over the
 * mnemonics the emulator executes on that generation (emu_optab.c, generated from LLVM 19's disassembler, so
 * the spelling is llvm-mc's). The operands are shaped, not typed: registers in the ranges the prompt offers,
 * literals, the wave's special registers, and the few operand syntaxes program control has (s_waitcnt's
 * counters, s_delay_alu's fields, labels). What it cannot express (v[4:5] being a pair, an operand count per
 * opcode) llvm-mc still judges; the grammar's part is that every line names an instruction the emulator runs,
 * in llvm-mc's spelling, with operands that exist in this wave size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "../target/amdgcn/amd.h"
#include "../target/amdgcn/emu/emu.h"

/* An alternation of the names with bit `enc`, written as a prefix tree so that llama.cpp's engine follows one
 * branch per character instead of every name (a flat alternation of 300 names starting "v_" keeps 300 stacks
 * alive after the first character). names[lo..hi) are sorted; depth is the length of their common prefix. */
static void trie(gasp_str *g, const char **names, int lo, int hi, size_t depth) {
  int ends = !names[lo][depth]; /* sorted and distinct: a name ending here comes first, and only one */
  if (ends) lo++;
  int groups = 0;
  for (int i = lo; i < hi; groups++) {
    int j = i + 1;
    while (j < hi && names[j][depth] == names[i][depth]) j++;
    i = j;
  }
  int paren = ends || groups > 1;
  if (paren) gasp_str_puts(g, "(");
  for (int i = lo; i < hi;) {
    int j = i + 1;
    while (j < hi && names[j][depth] == names[i][depth]) j++;
    /* the run names[i..j) share from depth on, up to where one of them ends or they differ */
    size_t l = 1;
    for (int same = 1; same && names[i][depth + l]; l += same)
      for (int k = i + 1; k < j && same; k++) same = names[k][depth + l] == names[i][depth + l];
    gasp_str_printf(g, "%s\"%.*s\"", i > lo ? " | " : "", (int)l, names[i] + depth);
    if (j - i > 1) {
      gasp_str_puts(g, " ");
      trie(g, names, i, j, depth + l);
    }
    i = j;
  }
  if (paren) gasp_str_puts(g, ends ? ")?" : ")");
}

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* rule ::= the names of ms with any bit of enc (and none of without) that keep accepts, each without its first
 * `skip` characters; returns how many (0: no rule written) */
static int name_rule(gasp_str *g, const char *rule, const gasp_emu_mnemonic *ms, int n, unsigned enc, unsigned without,
                     int (*keep)(const char *), size_t skip) {
  const char **names = malloc(sizeof *names * (size_t)(n ? n : 1));
  int k = 0;
  for (int i = 0; i < n; i++)
    if ((ms[i].enc & enc) && !(ms[i].enc & without) && (!keep || keep(ms[i].name))) names[k++] = ms[i].name + skip;
  if (k) {
    qsort(names, (size_t)k, sizeof *names, by_name);
    gasp_str_printf(g, "%s ::= ", rule);
    trie(g, names, 0, k, 0);
    gasp_str_puts(g, "\n");
  }
  free(names);
  return k;
}

/* SOPP instructions by their operand syntax */
static int is_branch(const char *n) { return !strncmp(n, "s_branch", 8) || !strncmp(n, "s_cbranch_", 10); }
static int is_plain_sopp(const char *n) {
  return !is_branch(n) && strcmp(n, "s_waitcnt") && strcmp(n, "s_delay_alu") && strcmp(n, "s_sendmsg") &&
         strcmp(n, "s_endpgm") && strcmp(n, "s_barrier");
}
static int has_named(const gasp_emu_mnemonic *ms, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(ms[i].name, name)) return 1;
  return 0;
}

/* One digit from a to b: a class, or the digit itself. */
static void digit_class(gasp_str *g, char a, char b) {
  if (a == b) gasp_str_printf(g, "\"%c\"", a);
  else gasp_str_printf(g, "[%c-%c]", a, b);
}

/* The digit strings from lo to hi, both of one length (a regular-expression range, digit by digit): at most three
 * alternatives, in parentheses when more than one. */
static void digit_range(gasp_str *g, const char *lo, const char *hi) {
  size_t len = strlen(lo);
  if (len == 1) {
    digit_class(g, lo[0], hi[0]);
    return;
  }
  if (lo[0] == hi[0]) {
    gasp_str_printf(g, "\"%c\" ", lo[0]);
    digit_range(g, lo + 1, hi + 1);
    return;
  }
  int lo_zeros = strspn(lo + 1, "0") == len - 1, hi_nines = strspn(hi + 1, "9") == len - 1;
  char first = lo_zeros ? lo[0] : (char)(lo[0] + 1), last = hi_nines ? hi[0] : (char)(hi[0] - 1);
  int alts = !lo_zeros + (first <= last) + !hi_nines;
  const char *sep = "";
  if (alts > 1) gasp_str_puts(g, "(");
  if (!lo_zeros) {
    char nines[8];
    memset(nines, '9', len - 1);
    nines[len - 1] = 0;
    gasp_str_printf(g, "\"%c\" ", lo[0]);
    digit_range(g, lo + 1, nines);
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
    digit_range(g, zeros, hi + 1);
  }
  if (alts > 1) gasp_str_puts(g, ")");
}

/* A GBNF rule matching the decimal numbers 0..n-1 without leading zeros (1 <= n <= 1000). */
static void range_rule(gasp_str *g, const char *name, int n) {
  gasp_str_printf(g, "%s ::= ", name);
  for (int len = 1, lo = 0, p = 10; lo < n; len++, lo = p, p *= 10) {
    char a[8], b[8];
    snprintf(a, sizeof a, "%d", lo);
    snprintf(b, sizeof b, "%d", (n < p ? n : p) - 1);
    if (lo) gasp_str_puts(g, " | ");
    digit_range(g, a, b);
  }
  gasp_str_puts(g, "\n");
}

char *gasp_grammar_amd(const gasp_target *t, const gasp_task *task, gasp_diags *d) {
  const gasp_amd_arch *a = t ? gasp_amd_arch_of(t) : NULL;
  if (!a || !task) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "the AMD grammar needs an AMD target and a task");
    return NULL;
  }
  if (!gasp_task_fits(task, t->isa)) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "task '%s' is not an AMD task", task->id);
    return NULL;
  }
  int n = gasp_emu_mnemonics(a->mcpu, NULL, 0);
  gasp_emu_mnemonic *ms = n > 0 ? malloc(sizeof *ms * (size_t)n) : NULL;
  if (!ms || gasp_emu_mnemonics(a->mcpu, ms, n) != n) {
    free(ms);
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "the emulator has no instruction table for %s", a->mcpu);
    return NULL;
  }
  int snippet = task->snippet, gfx11 = a->gfx >= 11;
  gasp_str g;
  gasp_str_init(&g);
  gasp_str_printf(&g, "# AMD answers for task %s on %s (%s), generated by gasp from the emulator's instruction table.\n",
                  task->id, t->name, a->wave64 ? "wave64" : "wave32");
  gasp_str_puts(&g, "root ::= \"```amdgcn\\n\" code \"```\"\n");
  if (snippet) {
    /* straight-line code spliced into the harness's kernel: no labels, branches, memory or s_endpgm (the
     * snippet prompt, amdgcn.c), registers in the ranges it offers (v0-v63, s0-s47) */
    gasp_str_printf(&g, "code ::= line{1,%d}\nline ::= insn comment? \"\\n\"\n", GASP_GRAMMAR_AMD_SNIPPET_LINES);
    gasp_str_printf(&g, "insn ::= salu | valu%s\n", gfx11 ? " | vopd" : "");
  } else {
    /* a body: instructions indented two spaces, local labels at column 0, clang's alignment directive */
    gasp_str_printf(&g, "code ::= line{1,%d}\n", GASP_GRAMMAR_AMD_KERNEL_LINES);
    gasp_str_puts(&g, "line ::= (\"  \" (insn comment? | align) | label \":\") \"\\n\"\n"
                      "align ::= \".p2align\" [ \\t] [0-9] [0-9]? (\", 0x\" [0-9a-f] [0-9a-f]?)?\n"
                      "label ::= \".LBB\" [0-9] \"_\" [0-9] [0-9]? [0-9]?\n");
    gasp_str_printf(&g, "insn ::= salu | valu%s | sopp | mem\n", gfx11 ? " | vopd" : "");
  }
  /* a comment after the instruction, bounded so that it cannot take the answer's length */
  gasp_str_puts(&g, "comment ::= \" \"{1,16} \";\" [^\\n]{0,48}\n");
  /* VALU: VOP1/VOP2/VOPC written bare or with _e32/_e64; VOP3-only instructions bare (clang's spelling) */
  int nvop = name_rule(&g, "vopname", ms, n, GASP_EMU_ENC_VOP, 0, NULL, 0);
  int nvop3 = name_rule(&g, "vop3name", ms, n, GASP_EMU_ENC_VOP3, GASP_EMU_ENC_VOP, NULL, 0);
  gasp_str_puts(&g, "valu ::= ");
  if (nvop) gasp_str_puts(&g, "vopname (\"_e32\" | \"_e64\")? \" \" ops");
  /* SDWA (GCN5 and RDNA2; RDNA3 has none): sub-dword operand selects, as clang writes them */
  if (nvop && a->gfx < 11) gasp_str_puts(&g, " | vopname \"_sdwa \" ops sdwa{1,4}");
  if (nvop3) gasp_str_printf(&g, "%svop3name \" \" ops vmods?", nvop ? " | " : "");
  if (nvop && a->gfx < 11)
    gasp_str_puts(&g, "\nsdwa ::= \" \" (\"dst_sel:\" sel | \"dst_unused:UNUSED_\" (\"PAD\" | \"SEXT\" | \"PRESERVE\") | "
                      "\"src0_sel:\" sel | \"src1_sel:\" sel)\nsel ::= \"DWORD\" | \"WORD_\" [01] | \"BYTE_\" [0-3]");
  gasp_str_puts(&g, "\nvmods ::= (\" clamp\" | \" mul:2\" | \" mul:4\" | \" div:2\"){1,2}\n");
  name_rule(&g, "saluname", ms, n, GASP_EMU_ENC_SALU, 0, NULL, 0);
  gasp_str_puts(&g, "salu ::= saluname \" \" ops\n");
  if (gfx11) {
    /* v_dual_<X> ops :: v_dual_<Y> ops (VOPD, RDNA3 ISA 7.6); the halves come from their own opcode lists */
    name_rule(&g, "vopdx", ms, n, GASP_EMU_ENC_VOPDX, 0, NULL, 2); /* v_mov_b32 -> mov_b32 */
    name_rule(&g, "vopdy", ms, n, GASP_EMU_ENC_VOPDY, 0, NULL, 2);
    gasp_str_puts(&g, "vopd ::= \"v_dual_\" vopdx \" \" ops \" :: v_dual_\" vopdy \" \" ops\n");
  }
  if (!snippet) {
    /* program control by operand syntax; counters as clang prints them (`s_waitcnt vmcnt(0) lgkmcnt(0)`) */
    gasp_str_puts(&g, "sopp ::= branch \" \" label | \"s_endpgm\"");
    if (has_named(ms, n, "s_barrier")) gasp_str_puts(&g, " | \"s_barrier\"");
    if (has_named(ms, n, "s_waitcnt")) gasp_str_puts(&g, " | \"s_waitcnt \" (cnt (\" \" cnt){0,2} | uint)");
    if (gfx11 && has_named(ms, n, "s_delay_alu"))
      gasp_str_puts(&g, " | \"s_delay_alu \" dfield (\" | \" dfield){0,2}");
    if (gfx11 && has_named(ms, n, "s_sendmsg")) gasp_str_puts(&g, " | \"s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\"");
    if (a->gfx >= 10) gasp_str_puts(&g, " | \"buffer_gl0_inv\" | \"buffer_gl1_inv\"");
    gasp_str_puts(&g, " | plainsopp (\" \" imm)?\n");
    name_rule(&g, "branch", ms, n, GASP_EMU_ENC_SOPP, 0, is_branch, 0);
    if (!name_rule(&g, "plainsopp", ms, n, GASP_EMU_ENC_SOPP, 0, is_plain_sopp, 0))
      gasp_str_puts(&g, "plainsopp ::= \"s_nop\"\n");
    gasp_str_printf(&g, "cnt ::= (\"vmcnt\" | \"lgkmcnt\" | \"expcnt\"%s) \"(\" [0-9] [0-9]? \")\"\n",
                    a->gfx >= 10 ? " | \"vscnt\"" : "");
    if (gfx11)
      gasp_str_puts(&g, "dfield ::= \"instid\" [01] \"(\" (\"VALU_DEP_\" [1-4] | \"TRANS32_DEP_\" [1-3] | \"SALU_CYCLE_\" "
                        "[1-3] | \"NO_DEP\") \")\" | \"instskip(\" (\"SAME\" | \"NEXT\" | \"SKIP_\" [1-4]) \")\"\n");
    /* memory: scalar loads, LDS, global/flat/scratch, with their offset and cache modifiers */
    gasp_str_puts(&g, "mem ::= memname \" \" ops mmods?\n"
                      "mmods ::= (\" offset:\" \"-\"? uint | \" offset0:\" uint | \" offset1:\" uint | \" glc\" | \" slc\" "
                      "| \" dlc\" | \" gds\"){1,4}\n");
    name_rule(&g, "memname", ms, n,
              GASP_EMU_ENC_SMEM | GASP_EMU_ENC_DS | GASP_EMU_ENC_GLOBAL | GASP_EMU_ENC_FLAT | GASP_EMU_ENC_SCRATCH, 0,
              NULL, 0);
  }
  free(ms);
  /* operands: up to six, each a register, a literal or a special register, with VOP3's negation and |abs| */
  gasp_str_printf(&g, "ops ::= op (\", \" op){0,5}\n"
                     "op ::= \"-\"? (src | \"|\" src \"|\"%s)\n", a->gfx < 11 ? " | \"sext(\" src \")\"" : "");
  gasp_str_printf(&g, "src ::= vreg | sreg | imm | special%s\n", snippet ? "" : " | \"off\"");
  gasp_str_puts(&g, "vreg ::= \"v\" vidx | \"v[\" vidx \":\" vidx \"]\"\n"
                    "sreg ::= \"s\" sidx | \"s[\" sidx \":\" sidx \"]\"\n");
  /* the register files: VGPRs v0-v255 and SGPRs to s101 (GCN5) or s105 (RDNA) in a kernel; a snippet's prompt
   * offers v0-v63 and s0-s47 */
  range_rule(&g, "vidx", snippet ? 64 : 256);
  range_rule(&g, "sidx", snippet ? 48 : a->gfx >= 10 ? 106 : 102);
  /* wave32 names the low halves (the prompt: `vcc_lo`, never `vcc`); null exists from gfx10 */
  gasp_str_printf(&g, "special ::= \"vcc_lo\" | \"vcc_hi\" | \"exec_lo\" | \"exec_hi\" | \"m0\"%s%s\n",
                  a->wave64 ? " | \"vcc\" | \"exec\"" : "", a->gfx >= 10 ? " | \"null\"" : "");
  /* literals: integers, hex up to 64 bits, decimals (llvm-mc's inline floats 0.5, 1.0, 0.15915494, ...) */
  gasp_str_puts(&g, "imm ::= \"-\"? uint (\".\" [0-9]{1,8})? | \"0x\" [0-9a-f]{1,16}\n"
                    "uint ::= [0-9] | [1-9] [0-9]{1,9}\n");
  return gasp_str_take(&g);
}
