/* The r300 target: ARB_fragment_program / ARB_vertex_program assembly as the Radeon 9700 (R300, 2002)
 * ran it. Mesa parses and runs the programs on its software renderer (src/exec/gl.c); the R300's own
 * limits, which Mesa does not enforce, are checked here (see ../../../shared facts: 64 ALU + 32 TEX
 * instructions, 4 texture indirections, 32 temporaries, 32 constants per fragment program; about 256
 * instructions per vertex program). */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/util.h"
#include "../../exec/gl.h"
#include "../target.h"

/* R300 limits (ATI R300 programming guide via Mesa's r300 compiler: r300_fragprog limits; the brief's
 * facts file). */
enum { R300_FP_ALU = 64, R300_FP_TEX = 32, R300_FP_INDIRECTIONS = 4, R300_TEMPS = 32, R300_CONSTS = 32, R300_VP_INSTR = 256 };

static const char *const fp_ops[] = {"ABS", "ADD", "CMP", "COS", "DP3", "DP4", "DPH", "DST", "EX2", "FLR", "FRC",
                                     "KIL", "LG2", "LIT", "LRP", "MAD", "MAX", "MIN", "MOV", "MUL", "POW", "RCP",
                                     "RSQ", "SCS", "SGE", "SIN", "SLT", "SUB", "SWZ", "TEX", "TXB", "TXP", "XPD",
                                     "ARL", "EXP", "LOG", NULL};

static void arb_facts(const gasp_target *t, const gasp_task *task, gasp_str *o) {
  (void)t;
  gasp_str_puts(o,
                "- The Radeon 9700 (R300, 2002, DirectX 9 shader model 2.0) runs ARB_vertex_program and "
                "ARB_fragment_program assembly: there are no branches or loops in fragment programs (use CMP, "
                "SLT/SGE and LRP to select), no integer types, every register is a float4.\n"
                "- Fragment program limits on the R300: at most 64 ALU and 32 texture instructions, 4 levels of "
                "dependent texture reads (indirections), 32 temporaries, 32 constants. Vertex programs: about 256 "
                "instructions.\n"
                "- Instructions: ABS ADD CMP DP3 DP4 DPH DST EX2 FLR FRC KIL LG2 LIT LRP MAD MAX MIN MOV MUL POW RCP RSQ "
                "SCS SGE SIN SLT SUB SWZ XPD, texture TEX TXB TXP (fragment only). CMP d, a, b, c gives b where a < 0 "
                "else c, per component. RCP/RSQ/EX2/LG2/POW take a scalar (.x) operand.\n"
                "- Declarations: TEMP t; PARAM c = {1.0, 2.0, 3.0, 4.0}; ATTRIB / OUTPUT aliases. Swizzles .xyzw, write "
                "masks on destinations, negation -a.\n");
  if (task->vertex_program)
    gasp_str_puts(o, "- Vertex programs start with !!ARBvp1.0 and end with END; inputs vertex.attrib[n], outputs "
                     "result.position and result.color.\n");
  else
    gasp_str_puts(o, "- Fragment programs start with !!ARBfp1.0 and end with END; inputs fragment.texcoord[n] and "
                     "texture[n] (TEX r, fragment.texcoord[0], texture[0], 2D;), program.local[n]; output result.color.\n");
}

static void arb_constraints(const gasp_target *t, const gasp_task *task, gasp_str *o) {
  (void)t;
  gasp_str_printf(o, "- Syntax: one complete %s program, from the %s line to END; statements end with ';'.\n",
                  task->vertex_program ? "ARB vertex" : "ARB fragment", task->vertex_program ? "!!ARBvp1.0" : "!!ARBfp1.0");
  gasp_str_puts(o, "- Semantics: declare every temporary with TEMP before use; texture units and program.local "
                   "indices are the ones the task names; write every component of result.color.\n");
  gasp_str_printf(o, "- Hardware context: R300 limits (64 ALU, 32 TEX, 4 indirections, 32 temporaries, 32 "
                     "constants%s); no branches.\n", task->vertex_program ? "; 256 vertex instructions" : "");
}

static void arb_example(const gasp_target *t, const gasp_task *task, gasp_str *o) {
  (void)t;
  if (task->vertex_program)
    gasp_str_puts(o, "```\n!!ARBvp1.0\nTEMP v;\nMUL v, vertex.attrib[1], 2.0;\nMOV result.position, vertex.position;\n"
                     "MOV result.color, v;\nEND\n```\n");
  else
    gasp_str_puts(o, "```\n!!ARBfp1.0\nTEMP x;\nTEX x, fragment.texcoord[0], texture[0], 2D;\n"
                     "MUL result.color, x, program.local[0];\nEND\n```\n");
}

static int upper_word(const char *s, size_t n, size_t *len) {
  size_t k = 0;
  while (k < n && (isupper((unsigned char)s[k]) || isdigit((unsigned char)s[k]) || s[k] == '_')) k++;
  *len = k;
  return k > 0;
}

static int arb_looks_like_code(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && isspace((unsigned char)s[i])) i++;
  if (i == n) return 0;
  if (n - i >= 5 && !strncmp(s + i, "!!ARB", 5)) return 1;
  size_t k;
  if (!upper_word(s + i, n - i, &k)) return 0;
  if (k == 3 && !strncmp(s + i, "END", 3)) return i + 3 >= n || isspace((unsigned char)s[i + 3]);
  /* an opcode (with optional _SAT) or a declaration, then operands up to ';' */
  const char *semi = memchr(s + i, ';', n - i);
  if (!semi) return 0;
  const char *const decl[] = {"TEMP", "PARAM", "ATTRIB", "OUTPUT", "OPTION", "ADDRESS", "ALIAS", NULL};
  for (int d = 0; decl[d]; d++)
    if (strlen(decl[d]) == k && !strncmp(s + i, decl[d], k)) return 1;
  size_t base = k >= 4 && !strncmp(s + i + k - 4, "_SAT", 4) ? k - 4 : k;
  for (int o = 0; fp_ops[o]; o++)
    if (strlen(fp_ops[o]) == base && !strncmp(s + i, fp_ops[o], base)) return 1;
  return 0;
}

/* Our own counts, on the text: instructions by kind, declared temporaries, constants (PARAM entries and
 * inline literals), and texture indirections (a texture read whose coordinate was computed by an ALU
 * instruction since the last indirection starts a new one, as the R300 counts them). */
typedef struct {
  int alu, tex, temps, consts, indirections, instructions;
  int first_over_line;
} arb_counts;

static void count_program(const char *text, arb_counts *c, int vertex) {
  memset(c, 0, sizeof *c);
  c->indirections = 1;
  char written[64][32];  /* temporaries written by ALU since the last indirection */
  int nwritten = 0;
  const char *p = text;
  int line = 1;
  while (*p) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char l[512];
    size_t m = n < sizeof l - 1 ? n : sizeof l - 1;
    memcpy(l, p, m);
    l[m] = 0;
    char *hash = strchr(l, '#');
    if (hash) *hash = 0;
    /* a line may hold several statements */
    for (char *st = strtok(l, ";"); st; st = strtok(NULL, ";")) {
      while (isspace((unsigned char)*st)) st++;
      size_t k;
      if (!upper_word(st, strlen(st), &k)) continue;
      char op[16] = {0};
      memcpy(op, st, k < 15 ? k : 15);
      if (!strcmp(op, "TEMP")) {
        for (char *q = st + k; *q; q++) c->temps += *q == ',';
        c->temps++;
        continue;
      }
      if (!strcmp(op, "PARAM")) {
        c->consts++;
        continue;
      }
      if (!strcmp(op, "ATTRIB") || !strcmp(op, "OUTPUT") || !strcmp(op, "OPTION") || !strcmp(op, "ALIAS") ||
          !strcmp(op, "ADDRESS") || !strcmp(op, "END"))
        continue;
      char *sat = strstr(op, "_SAT");
      if (sat) *sat = 0;
      int known = 0;
      for (int o = 0; fp_ops[o]; o++) known |= !strcmp(op, fp_ops[o]);
      if (!known) continue;
      c->instructions++;
      /* inline literal constants take constant slots too */
      for (char *q = st + k; *q; q++)
        if ((isdigit((unsigned char)*q) || *q == '{') && (q[-1] == ' ' || q[-1] == ',' || q[-1] == '-' || q[-1] == '{')) {
          if (*q == '{') c->consts++;
          else if (q[-1] != '{' && q[-1] != ',') c->consts++;
          while (*q && *q != ',' && *q != '}') q++;
          if (!*q) break;
        }
      char dst[32] = {0};
      const char *a = st + k;
      while (isspace((unsigned char)*a)) a++;
      size_t dn = strcspn(a, " ,.");
      memcpy(dst, a, dn < 31 ? dn : 31);
      int is_tex = !strcmp(op, "TEX") || !strcmp(op, "TXB") || !strcmp(op, "TXP") || !strcmp(op, "KIL");
      if (is_tex && !vertex) {
        c->tex++;
        /* the coordinate (second operand; KIL's first) */
        const char *coord = strcmp(op, "KIL") ? strchr(a, ',') : a - 1;
        if (coord) {
          coord++;
          while (isspace((unsigned char)*coord) || *coord == '-') coord++;
          size_t cn = strcspn(coord, " ,.;");
          for (int w = 0; w < nwritten; w++)
            if (strlen(written[w]) == cn && !strncmp(written[w], coord, cn)) {
              c->indirections++;
              nwritten = 0;
              break;
            }
        }
      } else {
        c->alu++;
        if (nwritten < 64 && strncmp(dst, "result", 6)) gasp_strlcpy(written[nwritten++], dst, 32);
      }
      int over = vertex ? c->instructions > R300_VP_INSTR
                        : (c->alu > R300_FP_ALU || c->tex > R300_FP_TEX || c->indirections > R300_FP_INDIRECTIONS);
      if (over && !c->first_over_line) c->first_over_line = line;
    }
    line++;
    p = e ? e + 1 : p + n;
  }
}

static int arb_check(const gasp_target *t, const gasp_task *task, const gasp_source *src, gasp_binary *bin,
                     gasp_diags *d) {
  (void)t;
  char why[256];
  gasp_gl *g = gasp_gl_shared(why, sizeof why);
  if (!g) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "no GL context for checking ARB programs: %s", why);
    return -1;
  }
  const char *text = src->text;
  while (*text && isspace((unsigned char)*text)) text++;
  int vertex = !strncmp(text, "!!ARBvp", 7);
  if (task && task->arb_reference && vertex != task->vertex_program) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, gasp_source_map_line(src, 1), 1,
                   "the task asks for a %s program", task->vertex_program ? "vertex (!!ARBvp1.0)" : "fragment (!!ARBfp1.0)");
    return -1;
  }
  gasp_arb_status st;
  size_t skipped = (size_t)(text - src->text);
  if (gasp_gl_check(g, vertex, text, strlen(text), &st)) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "GL: %s", st.message);
    return -1;
  }
  int lead_lines = 0;
  for (size_t i = 0; i < skipped; i++) lead_lines += src->text[i] == '\n';
  if (!st.ok) {
    /* Mesa's messages: "line L, char C: error: ..."; undeclared names surface as syntax errors */
    const char *msg = strstr(st.message, "error: ");
    msg = msg ? msg + 7 : st.message;
    gasp_class cls = strstr(msg, "syntax") ? GASP_CLASS_SYNTAX : GASP_CLASS_SEMANTIC;
    /* Mesa's parser reports a name that was never declared as an unexpected IDENTIFIER where a declared
     * one (USED_IDENTIFIER) or an operand was expected (Mesa 22.3): that is a semantic error, not syntax */
    int undeclared = strstr(msg, "unexpected IDENTIFIER") != NULL;
    if (undeclared) cls = GASP_CLASS_SEMANTIC;
    if (strstr(msg, "out of range") || strstr(msg, "invalid texture") || strstr(msg, "exceeds")) cls = GASP_CLASS_RANGE;
    gasp_diags_add(d, GASP_SEV_ERROR, cls, gasp_source_map_line(src, st.line + lead_lines), st.col, "%s%s", msg,
                   undeclared ? " (a name used without a TEMP/PARAM/ATTRIB declaration?)" : "");
    return -1;
  }
  arb_counts c;
  count_program(text, &c, vertex);
  int over_line = c.first_over_line ? gasp_source_map_line(src, c.first_over_line + lead_lines) : 0;
  int errors = 0;
  if (!vertex) {
    if (c.alu > R300_FP_ALU)
      errors++, gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RESOURCE, over_line, 1,
                               "%d ALU instructions; the R300 runs at most %d per fragment program", c.alu, R300_FP_ALU);
    if (c.tex > R300_FP_TEX)
      errors++, gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RESOURCE, over_line, 1,
                               "%d texture instructions; the R300 runs at most %d", c.tex, R300_FP_TEX);
    if (c.indirections > R300_FP_INDIRECTIONS)
      errors++, gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RESOURCE, over_line, 1,
                               "%d texture indirections (dependent reads); the R300 allows %d", c.indirections,
                               R300_FP_INDIRECTIONS);
  } else if (c.instructions > R300_VP_INSTR) {
    errors++, gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RESOURCE, over_line, 1,
                             "%d instructions; the R300 runs at most %d per vertex program", c.instructions, R300_VP_INSTR);
  }
  int temps = st.native_temporaries > c.temps ? st.native_temporaries : c.temps;
  if (temps > R300_TEMPS)
    errors++, gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RESOURCE, 0, 0, "%d temporaries; the R300 has %d", temps, R300_TEMPS);
  if (c.consts > R300_CONSTS)
    errors++, gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RESOURCE, 0, 0, "%d constants; the R300 has %d", c.consts, R300_CONSTS);
  if (errors) return -1;
  if (bin) {
    memset(bin, 0, sizeof *bin);
    bin->data = gasp_strdup(text);
    bin->len = strlen(text);
    gasp_strlcpy(bin->kernel, vertex ? "vertex" : "fragment", sizeof bin->kernel);
    bin->regs = temps;
    bin->shared_static = 0;
  }
  return 0;
}

static int arb_reference_answer(const gasp_target *t, const gasp_task *task, char **answer, gasp_diags *d) {
  (void)t;
  if (!task->arb_reference) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "task '%s' has no arb_reference", task->id);
    return -1;
  }
  *answer = gasp_strdup(task->arb_reference);
  return 0;
}

const gasp_target gasp_target_r300 = {
    .name = "r300", .isa = "ARB", .arch = "R300", .gpu = "ATI Radeon 9700", .exec = GASP_EXEC_GL, .cc = 0,
    .fence_tags = "arb asm assembly glsl", .facts = arb_facts, .constraints = arb_constraints, .example = arb_example,
    .looks_like_code = arb_looks_like_code, .prepare = gasp_prepare_verbatim, .check = arb_check,
    .reference_answer = arb_reference_answer, .baseline = NULL,
};
