/* Mutants of a verified answer, for repair pairs (issue 9, gasp corpus repair). Measured on the shipped model:
 * 0 of 244 repair turns passed (gfx1030 L1/L2, --repair 2), and the repair prompt, which quotes a failed answer
 * and its diagnostic, is a form the corpus never showed. A repair pair is (repair prompt quoting a wrong answer
 * and how gasp judged it, the verified answer). The wrong answers here are one edit away from a verified one,
 * each edit of a kind the models' own failures show (models/train-2026-12-05-run12): a sibling opcode (add for
 * sub, lt for gt, the shift's direction), a type sibling (s32 for u32: vector_add's integer add), swapped source
 * operands (lerp's ends), another register of the same file as a source (dot3's pairs), another kernel
 * parameter loaded (saxpy's store through y), a changed constant, and an instruction dropped (a missing
 * s_waitcnt reads stale data). Which of them are wrong is not decided here: gasp judges every mutant like any
 * answer and only those it fails enter (an edit that changes nothing, such as swapping the operands of an add,
 * passes and is dropped).
 *
 * The edits are textual and per line, so that one code path serves PTX, AMDGCN and ARB: a line is leading space,
 * an optional guard (@%p1), the mnemonic, comma-separated operands, and a tail from the first ';', '//' or '#'
 * (PTX's terminator, AMD's comment, ARB's terminator) kept verbatim. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"

const char *const gasp_mutation_kinds[] = {"opcode", "type", "swap", "operand", "param", "const", "drop", NULL};
enum { K_OPCODE, K_TYPE, K_SWAP, K_OPERAND, K_PARAM, K_CONST, K_DROP, K_N };

/* Sibling components of a mnemonic: the component (split at '.' or '_') is replaced by its sibling, in the ISAs
 * where the sibling exists (P PTX, A AMDGCN, R ARB), so that a mutant is a plausible slip rather than a made-up
 * opcode: PTX add.rn.f32 -> sub.rn.f32, AMD v_sub_f32_e32 -> v_subrev_f32_e32, ARB SLT -> SGE. */
enum { P = 1, A = 2, R = 4 };
typedef struct {
  const char *from, *to;
  int isa;
} sibling;
static const sibling opcode_pairs[] = {
    {"add", "sub", P | A}, {"sub", "add", P | A}, {"sub", "subrev", A}, {"subrev", "sub", A}, {"min", "max", P | A},
    {"max", "min", P | A}, {"lt", "gt", P | A}, {"gt", "lt", P | A}, {"le", "ge", P | A}, {"ge", "le", P | A},
    {"lt", "le", P | A}, {"gt", "ge", P | A}, {"eq", "ne", P | A}, {"ne", "eq", P | A}, {"and", "or", P | A},
    {"or", "xor", P | A}, {"xor", "and", P | A}, {"shl", "shr", P}, {"shr", "shl", P}, {"lshlrev", "lshrrev", A},
    {"lshrrev", "lshlrev", A}, {"ashrrev", "lshrrev", A}, {"lo", "hi", P | A}, {"hi", "lo", P | A}, {"neg", "abs", P},
    {"abs", "neg", P}, {"ADD", "SUB", R}, {"SUB", "ADD", R}, {"MIN", "MAX", R}, {"MAX", "MIN", R}, {"SLT", "SGE", R},
    {"SGE", "SLT", R}, {"DP3", "DP4", R}, {"MUL", "ADD", R}, {"MAD", "MUL", R}, {NULL, NULL, 0}};
/* Type components: signedness, and integer for float (vector_add's integer add: PTX .s32/.u32/.f32, AMD
 * _i32/_u32/_f32) */
static const sibling type_pairs[] = {
    {"s32", "u32", P}, {"u32", "s32", P}, {"f32", "s32", P}, {"f32", "u32", P}, {"s32", "f32", P}, {"u32", "f32", P},
    {"f64", "f32", P | A}, {"s64", "u64", P}, {"i32", "u32", A}, {"u32", "i32", A}, {"f32", "i32", A},
    {"f32", "u32", A}, {"i32", "f32", A}, {"u32", "f32", A}, {NULL, NULL, 0}};

typedef struct {
  int kind;
  int line;
  char *text; /* the whole code with the edit */
} edit;

typedef struct {
  edit *items;
  int n, cap;
} edits;

static void edits_add(edits *e, int kind, int line, char *text) {
  if (e->n == e->cap) {
    e->cap = e->cap ? e->cap * 2 : 64;
    e->items = realloc(e->items, (size_t)e->cap * sizeof *e->items);
  }
  e->items[e->n++] = (edit){kind, line, text};
}

/* the code's lines, each a malloc'ed copy without its newline */
typedef struct {
  char **l;
  int n;
} lines;

static void lines_split(const char *code, lines *ls) {
  ls->n = 0;
  int cap = 16;
  ls->l = malloc((size_t)cap * sizeof *ls->l);
  const char *p = code;
  while (*p) {
    size_t k = strcspn(p, "\n");
    if (ls->n == cap) ls->l = realloc(ls->l, (size_t)(cap *= 2) * sizeof *ls->l);
    ls->l[ls->n++] = strndup(p, k);
    p += k + (p[k] == '\n');
  }
}

static void lines_free(lines *ls) {
  for (int i = 0; i < ls->n; i++) free(ls->l[i]);
  free(ls->l);
}

/* the code with line i replaced by repl (NULL: removed) */
static char *lines_join(const lines *ls, int i, const char *repl) {
  gasp_str s;
  gasp_str_init(&s);
  for (int k = 0; k < ls->n; k++) {
    if (k == i && !repl) continue;
    gasp_str_puts(&s, k == i ? repl : ls->l[k]);
    gasp_str_puts(&s, "\n");
  }
  return gasp_str_take(&s);
}

/* One instruction line taken apart; spans into the line. */
typedef struct {
  int ok;
  size_t mn, mn_len;        /* the mnemonic */
  size_t ops_end;           /* operands are [mn + mn_len, ops_end) */
  int nops;
  size_t op[8], op_len[8];  /* each operand, trimmed */
} insn;

/* ARB's declarations and the lines no ISA executes */
static int is_declaration(const char *m, size_t n) {
  static const char *const decl[] = {"TEMP", "PARAM", "ATTRIB", "OUTPUT", "ADDRESS", "ALIAS", "OPTION", "END", "ret",
                                     "exit", "s_endpgm", "bra", "s_branch", "s_cbranch_scc0", "s_cbranch_scc1",
                                     "s_cbranch_execz", "s_cbranch_execnz", "s_cbranch_vccz", "s_cbranch_vccnz", NULL};
  for (int i = 0; decl[i]; i++)
    if (strlen(decl[i]) == n && !strncmp(decl[i], m, n)) return 1;
  /* bra.uni */
  return n > 4 && !strncmp(m, "bra.", 4);
}

static void parse_insn(const char *l, insn *in) {
  memset(in, 0, sizeof *in);
  size_t i = strspn(l, " \t");
  if (l[i] == '@') i += strcspn(l + i, " \t"), i += strspn(l + i, " \t");
  /* directives (.reg, .param), labels, braces, the ARB header and empty lines */
  if (!l[i] || l[i] == '.' || l[i] == '{' || l[i] == '}' || l[i] == ')' || l[i] == '!' || l[i] == '/' || l[i] == ';' ||
      l[i] == '#')
    return;
  in->mn = i;
  in->mn_len = strcspn(l + i, " \t;");
  if (l[i + in->mn_len - 1] == ':' || is_declaration(l + i, in->mn_len)) return;
  /* the tail: PTX's and ARB's terminator, AMD's comment, a // or # comment */
  size_t end = i + in->mn_len;
  while (l[end] && l[end] != ';' && l[end] != '#' && !(l[end] == '/' && l[end + 1] == '/')) end++;
  in->ops_end = end;
  size_t p = i + in->mn_len;
  int depth = 0;
  size_t start = p;
  for (size_t k = p; k <= end; k++) {
    char c = k < end ? l[k] : ',';
    if (c == '[' || c == '{' || c == '(') depth++;
    if (c == ']' || c == '}' || c == ')') depth--;
    if (c == ',' && depth <= 0) {
      size_t a = start, b = k;
      while (a < b && isspace((unsigned char)l[a])) a++;
      while (b > a && isspace((unsigned char)l[b - 1])) b--;
      if (b > a && in->nops < 8) {
        in->op[in->nops] = a;
        in->op_len[in->nops] = b - a;
        in->nops++;
      }
      start = k + 1;
    }
  }
  in->ok = 1;
}

/* a line with [a, a+n) replaced by r */
static char *splice(const char *l, size_t a, size_t n, const char *r, size_t rn) {
  size_t len = strlen(l);
  char *s = malloc(len - n + rn + 1);
  memcpy(s, l, a);
  memcpy(s + a, r, rn);
  memcpy(s + a + rn, l + a + n, len - a - n + 1);
  return s;
}

/* A register token starting at t: PTX %name (%f12, %rd3, %p1; not %tid.x's component), AMD v5 / s7 / v[2:3] /
 * s[0:1], ARB R0 / r1 (a temporary: a letter and digits). Returns its length, 0 when none starts there. */
static size_t reg_len(const char *t, const char *isa) {
  if (t[0] == '%') {
    size_t k = 1;
    while (isalnum((unsigned char)t[k]) || t[k] == '_') k++;
    return k > 1 ? k : 0;
  }
  if (!strcmp(isa, "AMDGCN") && (t[0] == 'v' || t[0] == 's')) {
    if (t[1] == '[') {
      size_t k = 2;
      while (isdigit((unsigned char)t[k]) || t[k] == ':') k++;
      return t[k] == ']' ? k + 1 : 0;
    }
    size_t k = 1;
    while (isdigit((unsigned char)t[k])) k++;
    return k > 1 && !isalnum((unsigned char)t[k]) && t[k] != '_' ? k : 0;
  }
  if (!strcmp(isa, "ARB") && isalpha((unsigned char)t[0])) {
    size_t k = 1;
    while (isdigit((unsigned char)t[k])) k++;
    return k > 1 && !isalnum((unsigned char)t[k]) && t[k] != '_' ? k : 0;
  }
  return 0;
}

/* the register file a register token belongs to: its letters (%rd, %f, v, s, v[ ...) */
static size_t reg_class(const char *t, size_t n) {
  size_t k = t[0] == '%';
  while (k < n && isalpha((unsigned char)t[k])) k++;
  return k + (k < n && t[k] == '[');
}

typedef struct {
  char tok[24];
  size_t cls;
} reg;

/* every register the code's instructions name */
static int collect_regs(const lines *ls, const char *isa, reg *out, int cap) {
  int n = 0;
  for (int i = 0; i < ls->n; i++) {
    insn in;
    parse_insn(ls->l[i], &in);
    if (!in.ok) continue;
    for (int o = 0; o < in.nops; o++) {
      const char *t = ls->l[i] + in.op[o];
      for (size_t k = 0; k < in.op_len[o];) {
        size_t r = (k == 0 || !isalnum((unsigned char)t[k - 1])) ? reg_len(t + k, isa) : 0;
        if (!r || r >= sizeof out[0].tok) {
          k++;
          continue;
        }
        int seen = 0;
        for (int j = 0; j < n; j++) seen |= strlen(out[j].tok) == r && !strncmp(out[j].tok, t + k, r);
        if (!seen && n < cap) {
          memcpy(out[n].tok, t + k, r);
          out[n].tok[r] = 0;
          out[n].cls = reg_class(out[n].tok, r);
          n++;
        }
        k += r;
      }
    }
  }
  return n;
}

/* the identifiers inside [...] of ld.param (PTX kernel parameters) */
static int collect_params(const lines *ls, char out[][64], int cap) {
  int n = 0;
  for (int i = 0; i < ls->n; i++) {
    const char *p = strstr(ls->l[i], "ld.param");
    if (!p || !(p = strchr(p, '['))) continue;
    size_t k = strcspn(p + 1, "]+ ");
    if (!k || k >= 64 || p[1 + k] != ']') continue;
    int seen = 0;
    for (int j = 0; j < n; j++) seen |= strlen(out[j]) == k && !strncmp(out[j], p + 1, k);
    if (!seen && n < cap) {
      memcpy(out[n], p + 1, k);
      out[n][k] = 0;
      n++;
    }
  }
  return n;
}

/* the mnemonic's components, split at '.' and '_': each one that has a sibling in the table gives an edit */
static void mnemonic_edits(const lines *ls, int i, const insn *in, int kind, const sibling *table, int isa, edits *e) {
  const char *l = ls->l[i];
  size_t a = in->mn, end = in->mn + in->mn_len;
  while (a < end) {
    size_t n = 0;
    while (a + n < end && l[a + n] != '.' && l[a + n] != '_') n++;
    for (int t = 0; table[t].from; t++) {
      if (!(table[t].isa & isa) || strlen(table[t].from) != n || strncmp(l + a, table[t].from, n)) continue;
      char *nl = splice(l, a, n, table[t].to, strlen(table[t].to));
      edits_add(e, kind, i, lines_join(ls, i, nl));
      free(nl);
    }
    a += n + 1;
  }
}

/* A constant operand changed: a PTX float (0f/0d hex) or an AMD literal above 2^23 (a float's bits) gets its sign
 * bit flipped, a decimal integer one added, an inline float (0.5, -1.0) its sign changed. */
static void const_edits(const lines *ls, int i, const insn *in, edits *e) {
  const char *l = ls->l[i];
  for (int o = 0; o < in->nops; o++) {
    const char *t = l + in->op[o];
    size_t n = in->op_len[o];
    char rep[40];
    rep[0] = 0;
    if ((n == 10 && t[0] == '0' && (t[1] == 'f' || t[1] == 'F')) ||
        (n == 18 && t[0] == '0' && (t[1] == 'd' || t[1] == 'D'))) {
      /* the first hex digit holds the sign bit */
      memcpy(rep, t, n);
      rep[n] = 0;
      int v = isdigit((unsigned char)rep[2]) ? rep[2] - '0' : (tolower((unsigned char)rep[2]) - 'a' + 10);
      snprintf(rep + 2, 2, "%X", v ^ 8);
      memcpy(rep + 3, t + 3, n - 3);
      rep[n] = 0;
    } else if (n > 2 && n < 20 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
      unsigned long long v = strtoull(t, NULL, 16);
      v = v >= 0x800000ull && v <= 0xffffffffull ? v ^ 0x80000000ull : v + 1;
      snprintf(rep, sizeof rep, "0x%llx", v);
    } else if (n < 20 && (isdigit((unsigned char)t[0]) || (t[0] == '-' && n > 1 && isdigit((unsigned char)t[1])))) {
      int is_float = memchr(t, '.', n) != NULL;
      int plain = 1;
      for (size_t k = t[0] == '-'; k < n; k++) plain &= isdigit((unsigned char)t[k]) || (is_float && t[k] == '.');
      if (!plain) continue;
      if (is_float) {
        if (t[0] == '-') snprintf(rep, sizeof rep, "%.*s", (int)n - 1, t + 1);
        else snprintf(rep, sizeof rep, "-%.*s", (int)n, t);
      } else {
        snprintf(rep, sizeof rep, "%lld", strtoll(t, NULL, 10) + 1);
      }
    }
    if (!rep[0]) continue;
    char *nl = splice(l, in->op[o], n, rep, strlen(rep));
    edits_add(e, K_CONST, i, lines_join(ls, i, nl));
    free(nl);
  }
}

/* splitmix64: the edits chosen depend on the seed and the code only */
static uint64_t mix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int gasp_corpus_mutate(const char *isa, const char *code, uint64_t seed, int want, gasp_mutant **out) {
  *out = NULL;
  if (!isa || !code || want <= 0) return 0;
  int isa_bit = !strcmp(isa, "PTX") ? P : !strcmp(isa, "AMDGCN") ? A : !strcmp(isa, "ARB") ? R : 0;
  lines ls;
  lines_split(code, &ls);
  reg regs[256];
  int nregs = collect_regs(&ls, isa, regs, 256);
  char params[16][64];
  int nparams = collect_params(&ls, params, 16);
  edits e = {0};
  for (int i = 0; i < ls.n; i++) {
    insn in;
    parse_insn(ls.l[i], &in);
    if (!in.ok) continue;
    const char *l = ls.l[i];
    mnemonic_edits(&ls, i, &in, K_OPCODE, opcode_pairs, isa_bit, &e);
    mnemonic_edits(&ls, i, &in, K_TYPE, type_pairs, isa_bit, &e);
    /* the sources (operands after the first) exchanged, when they differ; a store's address is its first */
    for (int a = 1; a < in.nops; a++)
      for (int b = a + 1; b < in.nops; b++) {
        if (in.op_len[a] == in.op_len[b] && !strncmp(l + in.op[a], l + in.op[b], in.op_len[a])) continue;
        gasp_str s;
        gasp_str_init(&s);
        gasp_str_printf(&s, "%.*s%.*s%.*s%.*s%s", (int)in.op[a], l, (int)in.op_len[b], l + in.op[b],
                        (int)(in.op[b] - in.op[a] - in.op_len[a]), l + in.op[a] + in.op_len[a], (int)in.op_len[a],
                        l + in.op[a], l + in.op[b] + in.op_len[b]);
        char *nl = gasp_str_take(&s);
        edits_add(&e, K_SWAP, i, lines_join(&ls, i, nl));
        free(nl);
      }
    /* a source register replaced by another of the same file that the code names */
    for (int o = 1; o < in.nops; o++) {
      const char *t = l + in.op[o];
      for (size_t k = 0; k < in.op_len[o];) {
        size_t r = (k == 0 || !isalnum((unsigned char)t[k - 1])) ? reg_len(t + k, isa) : 0;
        if (!r) {
          k++;
          continue;
        }
        size_t cls = reg_class(t + k, r);
        for (int j = 0; j < nregs; j++) {
          if (regs[j].cls != cls || strncmp(regs[j].tok, t + k, cls) ||
              (strlen(regs[j].tok) == r && !strncmp(regs[j].tok, t + k, r)))
            continue;
          char *nl = splice(l, in.op[o] + k, r, regs[j].tok, strlen(regs[j].tok));
          edits_add(&e, K_OPERAND, i, lines_join(&ls, i, nl));
          free(nl);
        }
        k += r;
      }
    }
    /* PTX: another kernel parameter loaded (saxpy's pointer y where out was meant) */
    if (!strncmp(l + in.mn, "ld.param", 8))
      for (int o = 0; o < in.nops; o++) {
        const char *t = l + in.op[o];
        if (t[0] != '[') continue;
        size_t k = strcspn(t + 1, "]+ ");
        for (int j = 0; j < nparams; j++) {
          if (strlen(params[j]) == k && !strncmp(params[j], t + 1, k)) continue;
          char *nl = splice(l, in.op[o] + 1, k, params[j], strlen(params[j]));
          edits_add(&e, K_PARAM, i, lines_join(&ls, i, nl));
          free(nl);
        }
      }
    const_edits(&ls, i, &in, &e);
    edits_add(&e, K_DROP, i, lines_join(&ls, i, NULL));
  }
  /* a seeded shuffle, then the kinds taken in turn, so that one kind with many edits (operand) does not crowd out
   * the others; duplicates and edits that change nothing are skipped */
  uint64_t s = seed ^ 0x6a09e667f3bcc908ull;
  for (const char *p = code; *p; p++) s = (s ^ (unsigned char)*p) * 0x100000001b3ull;
  for (int i = e.n - 1; i > 0; i--) {
    int j = (int)(mix(&s) % (uint64_t)(i + 1));
    edit t = e.items[i];
    e.items[i] = e.items[j];
    e.items[j] = t;
  }
  int start = (int)(mix(&s) % K_N);
  gasp_mutant *m = calloc((size_t)want, sizeof *m);
  int n = 0;
  char *used = calloc((size_t)e.n + 1, 1);
  for (int progress = 1; n < want && progress;) {
    progress = 0;
    for (int kk = 0; kk < K_N && n < want; kk++) {
      int k = (start + kk) % K_N;
      for (int i = 0; i < e.n; i++) {
        if (used[i] || e.items[i].kind != k) continue;
        used[i] = 1;
        int dup = !strcmp(e.items[i].text, code);
        for (int j = 0; j < n && !dup; j++) dup = !strcmp(m[j].code, e.items[i].text);
        if (dup) continue;
        m[n].code = e.items[i].text;
        e.items[i].text = NULL;
        m[n].kind = gasp_mutation_kinds[k];
        m[n].line = e.items[i].line + 1;
        n++;
        progress = 1;
        break;
      }
    }
  }
  for (int i = 0; i < e.n; i++) free(e.items[i].text);
  free(e.items);
  free(used);
  lines_free(&ls);
  if (!n) {
    free(m);
    m = NULL;
  }
  *out = m;
  return n;
}

void gasp_mutants_free(gasp_mutant *m, int n) {
  for (int i = 0; i < n; i++) free(m[i].code);
  free(m);
}
