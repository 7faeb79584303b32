/* Our PTX parser: a recursive descent over modules and function bodies (tokens from ptx_lex.c), and
 * instructions checked against the description's rows (modifier groups matched with backtracking, operand
 * shapes). */
#include "ptx_parse.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_desc.h"
#include "ptx_lex.h"

#define MAX_ERRORS 100

typedef gasp_ptx_tok tok;

typedef struct {
  tok *t;
  size_t n, i;
  int first_line, errors;
  gasp_diags *d;
} parser;

/* ---- helpers ---- */

static tok *cur(parser *ps) { return &ps->t[ps->i]; }
static tok *peek(parser *ps, size_t k) { return ps->i + k < ps->n ? &ps->t[ps->i + k] : &ps->t[ps->n]; }
static int is_p(const tok *t, char c) { return t->kind == T_PUNCT && t->s[0] == c; }
static int is_w(const tok *t, const char *w) { return t->kind == T_WORD && t->len == strlen(w) && !strncmp(t->s, w, t->len); }

static void err(parser *ps, const tok *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void err(parser *ps, const tok *t, const char *fmt, ...) {
  ps->errors++;
  if (ps->errors > MAX_ERRORS) return;
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  int line = t->line, col = t->col;
  if (t->kind == T_END && ps->n > 0) { /* just after the last token, not on a line past the code */
    const tok *last = &ps->t[ps->n - 1];
    line = last->line;
    col = last->col + (int)last->len;
  }
  gasp_diags_add(ps->d, GASP_SEV_ERROR, GASP_CLASS_SYNTAX, ps->first_line + line - 1, col, "%s", msg);
}

/* What a token is, for messages. */
static const char *show(const tok *t, char *buf, size_t cap) {
  if (t->kind == T_END) return "the end of the code";
  snprintf(buf, cap, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s);
  return buf;
}

/* After an error: skip the rest of the statement (to its ';' on the same line, or the line's end). */
static void recover(parser *ps, int line) {
  while (cur(ps)->kind != T_END && cur(ps)->line == line) {
    if (is_p(cur(ps), ';')) { ps->i++; return; }
    if (is_p(cur(ps), '{') || is_p(cur(ps), '}')) return;
    ps->i++;
  }
}

static int expect(parser *ps, char c, const char *what) {
  if (is_p(cur(ps), c)) { ps->i++; return 0; }
  char b[64];
  err(ps, cur(ps), "expected '%c' %s, found %s", c, what, show(cur(ps), b, sizeof b));
  return -1;
}

static int is_ident(const tok *t) {
  if (t->kind != T_WORD || t->s[0] == '.' || t->s[0] == '%') return 0;
  for (size_t i = 0; i < t->len; i++)
    if (t->s[i] == '.' || t->s[i] == ':') return 0;
  return 1;
}
static int is_reg(const tok *t) { return t->kind == T_WORD && t->s[0] == '%' && t->len > 1; }

/* An immediate: optional '-' and a number. Returns 1 and consumes it, 0 when there is none, -1 on a
 * malformed number (error added). */
static int imm(parser *ps) {
  size_t at = ps->i;
  if (is_p(cur(ps), '-')) ps->i++;
  if (cur(ps)->kind != T_NUM) { ps->i = at; return 0; }
  if (!gasp_ptx_valid_number(cur(ps))) {
    char b[64];
    err(ps, cur(ps), "malformed number %s (integers: 42, -7, 0x1F; floats: 1.5, 0f3F800000, 0d3FF0000000000000)",
        show(cur(ps), b, sizeof b));
    return -1;
  }
  ps->i++;
  return 1;
}

/* ---- instructions ---- */

typedef struct {
  const tok *t; /* the opcode token */
  char sfx[16][32];
  int col[16];  /* column of each suffix's dot */
  int nsfx;
} opcode;

/* Backtracking match of suffixes [j..] against groups [g..]. far/far_g record the deepest failure. */
static int match_mods(const gasp_ptx_group *gr, int ng, int g, const opcode *o, int j, int *far, int *far_g) {
  if (j > *far || (j == *far && g < *far_g)) { *far = j; *far_g = g; } /* first group tried there */
  if (g == ng) return j == o->nsfx;
  if (j < o->nsfx)
    for (int a = 0; a < gr[g].nalts; a++)
      if (!strcmp(gr[g].alts[a], o->sfx[j]) && match_mods(gr, ng, g + 1, o, j + 1, far, far_g)) return 1;
  return gr[g].optional && match_mods(gr, ng, g + 1, o, j, far, far_g);
}

static const char *kind_name(char k) {
  switch (k) {
  case 'r': return "a register";
  case 'p': return "a predicate register";
  case 'c': return "a predicate register (or two: %p|%q)";
  case 'd': return "a register (optionally %r|%p)";
  case 'q': return "a predicate (%p or !%p)";
  case 'a': return "a register or an immediate";
  case 's': case 'x': return "a register, an immediate or a variable name";
  case 'm': return "an address ([%rd1], [%rd1+8], [name])";
  case 'v': return "a register or a vector {%r1, %r2}";
  case 'w': return "a register, an immediate or a vector {%r1, %r2}";
  case 'l': return "a label";
  default: return "an operand";
  }
}

/* Parses one operand of kind k at the cursor. Returns 0, or -1 when it does not fit (cursor restored,
 * no error added unless a malformed number was met). `why` receives what was wrong. */
static int operand(parser *ps, char k, int *bad_number) {
  size_t at = ps->i;
  tok *t = cur(ps);
  int r;
  switch (k) {
  case 'r':
    if (is_reg(t)) { ps->i++; return 0; }
    break;
  case 'p':
    if (is_reg(t)) { ps->i++; return 0; }
    break;
  case 'c': case 'd':
    if (!is_reg(t)) break;
    ps->i++;
    if (is_p(cur(ps), '|')) {
      if (!is_reg(peek(ps, 1))) break;
      ps->i += 2;
    }
    return 0;
  case 'q':
    if (is_p(t, '!')) ps->i++;
    if (is_reg(cur(ps))) { ps->i++; return 0; }
    break;
  case 'a': case 's': case 'x': case 'w':
    if (is_reg(t) || ((k == 's' || k == 'x') && is_ident(t))) { ps->i++; return 0; }
    if ((r = imm(ps)) == 1) return 0;
    if (r < 0) { *bad_number = 1; break; }
    if ((k == 'x' || k == 'w') && is_p(t, '{')) {
      ps->i++;
      for (int n = 0;; n++) {
        if (is_reg(cur(ps)) || (is_ident(cur(ps)) && is_w(cur(ps), "_"))) ps->i++;
        else if ((r = imm(ps)) != 1) { if (r < 0) *bad_number = 1; goto fail; }
        if (is_p(cur(ps), '}')) { ps->i++; return n >= 1 ? 0 : -1; }
        if (!is_p(cur(ps), ',')) goto fail;
        ps->i++;
      }
    }
    break;
  case 'v':
    if (is_reg(t)) { ps->i++; return 0; }
    if (is_p(t, '{')) {
      ps->i++;
      for (int n = 0;; n++) {
        if (!is_reg(cur(ps)) && !is_w(cur(ps), "_")) goto fail;
        ps->i++;
        if (is_p(cur(ps), '}')) { ps->i++; return n >= 1 ? 0 : -1; }
        if (!is_p(cur(ps), ',')) goto fail;
        ps->i++;
      }
    }
    break;
  case 'm':
    if (!is_p(t, '[')) break;
    ps->i++;
    if (is_reg(cur(ps)) || is_ident(cur(ps))) ps->i++;
    else if ((r = imm(ps)) != 1) { if (r < 0) *bad_number = 1; goto fail; }
    if (is_p(cur(ps), '+') || is_p(cur(ps), '-')) {
      if (is_p(cur(ps), '+')) ps->i++;
      if ((r = imm(ps)) != 1) { if (r < 0) *bad_number = 1; goto fail; }
    }
    if (is_p(cur(ps), ']')) { ps->i++; return 0; }
    break;
  case 'l':
    if (is_ident(t)) { ps->i++; return 0; }
    break;
  }
fail:
  ps->i = at;
  return -1;
}

/* Operands against one row. Returns 0 on a fit; else -1 with *fail_at the index of the operand that did
 * not fit (or the count found when the count was wrong). */
static int match_operands(parser *ps, const char *shape, int *fail_at, const tok **fail_tok, int *bad_number) {
  size_t start = ps->i;
  int n = 0;
  size_t len = strlen(shape);
  for (size_t k = 0; k < len; k++) {
    if (shape[k] == '?') continue;
    int optional = k + 1 < len && shape[k + 1] == '?';
    for (size_t j = 0; j < k; j++) optional |= shape[j] == '?';
    if (optional && is_p(cur(ps), ';')) break;
    if (n > 0) {
      if (!is_p(cur(ps), ',')) {
        *fail_at = n;
        *fail_tok = cur(ps);
        if (!is_p(cur(ps), ';')) *bad_number = 2; /* something where the ',' belongs */
        ps->i = start;
        return -1;
      }
      ps->i++;
    }
    *fail_tok = cur(ps);
    if (operand(ps, shape[k], bad_number)) { *fail_at = n; ps->i = start; return -1; }
    n++;
  }
  if (!is_p(cur(ps), ';')) { *fail_at = n; *fail_tok = cur(ps); ps->i = start; return -1; }
  return 0;
}

static int count_operands(const char *shape, int *min) {
  int n = 0, m = -1;
  for (const char *c = shape; *c; c++) {
    if (*c == '?') { if (m < 0) m = n - 1; continue; }
    n++;
  }
  *min = m < 0 ? n : m;
  return n;
}

static void instruction(parser *ps) {
  tok *t = cur(ps);
  int line = t->line;
  char b[64];
  if (t->kind != T_WORD || t->s[0] == '%' || t->s[0] == '.') {
    err(ps, t, "expected an instruction, found %s", show(t, b, sizeof b));
    recover(ps, line);
    return;
  }
  opcode o = {t, {{0}}, {0}, 0};
  size_t base = strcspn(t->s, ".");
  if (base > t->len) base = t->len;
  for (size_t p = base; p < t->len && o.nsfx < 16;) {
    size_t q = p + 1, e = q;
    while (e < t->len && t->s[e] != '.') e++;
    size_t c = e - q < 31 ? e - q : 31;
    memcpy(o.sfx[o.nsfx], t->s + q, c);
    o.sfx[o.nsfx][c] = 0;
    o.col[o.nsfx++] = t->col + (int)p;
    p = e;
  }
  if (!gasp_ptx_is_opcode(t->s, base)) {
    const char *near = gasp_ptx_nearest_opcode(t->s, base);
    err(ps, t, "unknown instruction '%.*s'%s%s%s", (int)base, t->s, near ? " (did you mean '" : "", near ? near : "",
        near ? "'?)" : "");
    recover(ps, line);
    return;
  }
  ps->i++;
  /* every row of this opcode: the first that fits wins; otherwise report the row that got furthest */
  int best_far = -1, best_stage = -1, best_row = -1, best_fail = 0, best_bad = 0;
  int rows_far[8], groups_far[8], nrows_far = 0;
  const tok *best_tok = t;
  for (int r = 0; gasp_ptx_insns[r].op; r++) {
    const gasp_ptx_insn *row = &gasp_ptx_insns[r];
    if (strlen(row->op) != base || strncmp(row->op, t->s, base)) continue;
    gasp_ptx_group gr[GASP_PTX_MAX_GROUPS];
    int ng = gasp_ptx_groups(row, gr), far = 0, far_g = 0;
    if (!match_mods(gr, ng, 0, &o, 0, &far, &far_g)) {
      if (far > best_far) { best_far = far; best_row = r; nrows_far = 0; }
      if (far == best_far && nrows_far < 8) { rows_far[nrows_far] = r; groups_far[nrows_far++] = far_g; }
      continue;
    }
    int fail_at = 0, bad = 0;
    const tok *ft = NULL;
    if (match_operands(ps, row->operands, &fail_at, &ft, &bad) == 0) {
      ps->i++; /* ';' */
      return;
    }
    if (fail_at > best_stage) { best_stage = fail_at; best_row = r; best_fail = fail_at; best_tok = ft; best_bad = bad; }
  }
  if (best_stage >= 0) {
    const gasp_ptx_insn *row = &gasp_ptx_insns[best_row];
    int min, max = count_operands(row->operands, &min);
    if (best_bad == 1) {
      /* imm() reported the malformed number already */
    } else if (best_bad == 2) {
      err(ps, best_tok, "expected ',' before operand %d of '%.*s', found %s", best_fail + 1, (int)t->len, t->s,
          show(best_tok, b, sizeof b));
    } else if (best_fail >= min && best_fail <= max && !is_p(best_tok, ',')) {
      char count[32];
      if (min == max) snprintf(count, sizeof count, "%d", min);
      else snprintf(count, sizeof count, "%d to %d", min, max);
      err(ps, best_tok, "'%.*s' takes %s operand(s); expected ';' after operand %d, found %s", (int)t->len, t->s,
          count, best_fail, show(best_tok, b, sizeof b));
    } else if (best_fail >= max) {
      err(ps, best_tok, "'%.*s' takes %d operand(s), found more", (int)t->len, t->s, max);
    } else {
      char k = 0;
      for (int i = 0, n = 0; row->operands[i]; i++) {
        if (row->operands[i] == '?') continue;
        if (n++ == best_fail) { k = row->operands[i]; break; }
      }
      err(ps, best_tok, "operand %d of '%.*s' must be %s, found %s", best_fail + 1, (int)t->len, t->s, kind_name(k),
          show(best_tok, b, sizeof b));
    }
  } else {
    /* modifiers: name the one that failed and what that position allows */
    /* what the rows that got furthest allow at that point, each alternative once */
    char allowed[700] = "";
    for (int k = 0; k < nrows_far; k++) {
      gasp_ptx_group gr[GASP_PTX_MAX_GROUPS];
      int ng = gasp_ptx_groups(&gasp_ptx_insns[rows_far[k]], gr);
      for (int g = groups_far[k]; g < ng; g++) {
        for (int a = 0; a < gr[g].nalts; a++) {
          char one[40];
          snprintf(one, sizeof one, ".%s", gr[g].alts[a]);
          size_t l = strlen(allowed), ol = strlen(one);
          int dup = 0;
          for (const char *f = strstr(allowed, one); f && !dup; f = strstr(f + 1, one))
            dup = (f == allowed || f[-1] == ' ') && (f[ol] == ' ' || f[ol] == 0);
          if (!dup && l + ol + 2 < sizeof allowed) snprintf(allowed + l, sizeof allowed - l, "%s%s", l ? " " : "", one);
        }
        if (!gr[g].optional) break;
      }
    }
    if (best_far < o.nsfx) {
      tok at = *t;
      at.col = o.col[best_far];
      err(ps, &at, "'.%s' is not a modifier of '%.*s' here; allowed here: %s", o.sfx[best_far], (int)base, t->s,
          allowed[0] ? allowed : "nothing more");
    }
    else
      err(ps, t, "'%.*s' is incomplete: expected one of %s after '%.*s'", (int)t->len, t->s, allowed, (int)t->len, t->s);
  }
  recover(ps, line);
}

/* ---- declarations and directives ---- */

static int type_word(const tok *t) {
  static const char *const types[] = {".pred", ".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64",
                                      ".s8", ".s16", ".s32", ".s64", ".f16", ".f16x2", ".bf16", ".bf16x2", ".f32",
                                      ".f64", ".tf32", NULL};
  for (int i = 0; types[i]; i++)
    if (is_w(t, types[i])) return 1;
  return 0;
}

/* `.reg .type %a<N>;` or `.reg .type %a, %b;` (vectors .v2/.v4 allowed before the type). */
static void reg_decl(parser *ps) {
  tok *start = cur(ps);
  char b[64];
  ps->i++;
  if (is_w(cur(ps), ".v2") || is_w(cur(ps), ".v4")) ps->i++;
  if (!type_word(cur(ps))) {
    err(ps, cur(ps), "expected a register type (.pred .b32 .u32 .s32 .f32 .b64 .u64 .f64 ...) after '.reg', found %s",
        show(cur(ps), b, sizeof b));
    recover(ps, start->line);
    return;
  }
  ps->i++;
  for (;;) {
    if (!is_reg(cur(ps))) {
      err(ps, cur(ps), "expected a register name (%%r or %%r<8>) in '.reg', found %s", show(cur(ps), b, sizeof b));
      recover(ps, start->line);
      return;
    }
    ps->i++;
    if (is_p(cur(ps), '<')) {
      ps->i++;
      if (cur(ps)->kind != T_NUM || !gasp_ptx_valid_number(cur(ps))) {
        err(ps, cur(ps), "expected a count in '%%name<N>', found %s", show(cur(ps), b, sizeof b));
        recover(ps, start->line);
        return;
      }
      ps->i++;
      if (expect(ps, '>', "to close '<N>'")) { recover(ps, start->line); return; }
    }
    if (is_p(cur(ps), ',')) { ps->i++; continue; }
    break;
  }
  if (expect(ps, ';', "after the register declaration")) recover(ps, start->line);
}

/* `.shared|.local|.global|.const [.align N] [.vN] .type name[[N]]... [= init];` (also after .extern). */
static void var_decl(parser *ps) {
  tok *start = cur(ps);
  char b[64];
  ps->i++;
  if (is_w(cur(ps), ".align")) {
    ps->i++;
    if (cur(ps)->kind != T_NUM) {
      err(ps, cur(ps), "expected a byte count after '.align', found %s", show(cur(ps), b, sizeof b));
      recover(ps, start->line);
      return;
    }
    ps->i++;
  }
  if (is_w(cur(ps), ".v2") || is_w(cur(ps), ".v4")) ps->i++;
  if (!type_word(cur(ps))) {
    err(ps, cur(ps), "expected a type (.b8 .u32 .f32 ...) in the variable declaration, found %s",
        show(cur(ps), b, sizeof b));
    recover(ps, start->line);
    return;
  }
  ps->i++;
  if (!is_ident(cur(ps))) {
    err(ps, cur(ps), "expected a variable name, found %s", show(cur(ps), b, sizeof b));
    recover(ps, start->line);
    return;
  }
  ps->i++;
  while (is_p(cur(ps), '[')) {
    ps->i++;
    if (cur(ps)->kind == T_NUM) ps->i++;
    if (expect(ps, ']', "to close the array size")) { recover(ps, start->line); return; }
  }
  if (is_p(cur(ps), '=')) {
    /* initializers: a value or a braced list; syntax of the values is ptxas's concern */
    int depth = 0;
    ps->i++;
    while (cur(ps)->kind != T_END && !(depth == 0 && is_p(cur(ps), ';'))) {
      if (is_p(cur(ps), '{')) depth++;
      if (is_p(cur(ps), '}')) depth--;
      ps->i++;
    }
  }
  if (expect(ps, ';', "after the variable declaration")) recover(ps, start->line);
}

static void pragma(parser *ps) {
  tok *start = cur(ps);
  char b[64];
  ps->i++;
  if (cur(ps)->kind != T_STR) {
    err(ps, cur(ps), "expected a string after '.pragma', found %s", show(cur(ps), b, sizeof b));
    recover(ps, start->line);
    return;
  }
  while (cur(ps)->kind == T_STR || is_p(cur(ps), ',')) ps->i++;
  if (expect(ps, ';', "after '.pragma'")) recover(ps, start->line);
}

static int is_space_word(const tok *t) {
  return is_w(t, ".shared") || is_w(t, ".local") || is_w(t, ".global") || is_w(t, ".const");
}

/* Statements of a function body (or a snippet) until '}' (inside) or the end (top). */
static void body(parser *ps, int inside) {
  char b[64];
  while (cur(ps)->kind != T_END) {
    tok *t = cur(ps);
    if (is_p(t, '}')) {
      if (inside) return;
      err(ps, t, "'}' without a matching '{'");
      ps->i++;
      continue;
    }
    if (is_p(t, '{')) {
      ps->i++;
      body(ps, 1);
      if (expect(ps, '}', "to close the '{' scope")) return;
      continue;
    }
    if (is_p(t, ';')) { ps->i++; continue; } /* an empty statement */
    if (is_ident(t) && is_p(peek(ps, 1), ':')) { ps->i += 2; continue; }
    if (is_w(t, ".reg")) { reg_decl(ps); continue; }
    if (is_space_word(t)) { var_decl(ps); continue; }
    if (is_w(t, ".extern") && is_space_word(peek(ps, 1))) { ps->i++; var_decl(ps); continue; }
    if (is_w(t, ".pragma")) { pragma(ps); continue; }
    if (is_w(t, ".param")) { var_decl(ps); continue; }
    if (is_p(t, '@')) {
      ps->i++;
      if (is_p(cur(ps), '!')) ps->i++;
      if (!is_reg(cur(ps))) {
        err(ps, cur(ps), "expected a predicate register after '@' (@%%p1 or @!%%p1), found %s", show(cur(ps), b, sizeof b));
        recover(ps, t->line);
        continue;
      }
      ps->i++; /* the guarded instruction may follow on the next line: legal PTX */
      instruction(ps);
      continue;
    }
    if (t->kind == T_WORD && t->s[0] == '.') {
      err(ps, t, "directive %s is not allowed inside a function body", show(t, b, sizeof b));
      recover(ps, t->line);
      continue;
    }
    instruction(ps);
  }
}

/* `( .param .type name, ... )` of .entry and .func. */
static int param_list(parser *ps) {
  char b[64];
  if (expect(ps, '(', "to open the parameter list")) return -1;
  if (is_p(cur(ps), ')')) { ps->i++; return 0; }
  for (;;) {
    if (!is_w(cur(ps), ".param") && !is_w(cur(ps), ".reg")) {
      err(ps, cur(ps), "expected '.param' in the parameter list, found %s", show(cur(ps), b, sizeof b));
      return -1;
    }
    ps->i++;
    while (is_w(cur(ps), ".align") || is_w(cur(ps), ".ptr") || is_w(cur(ps), ".global") || is_w(cur(ps), ".shared") ||
           is_w(cur(ps), ".const") || is_w(cur(ps), ".local")) {
      int al = is_w(cur(ps), ".align");
      ps->i++;
      if (al) {
        if (cur(ps)->kind != T_NUM) {
          err(ps, cur(ps), "expected a byte count after '.align', found %s", show(cur(ps), b, sizeof b));
          return -1;
        }
        ps->i++;
      }
    }
    if (!type_word(cur(ps))) {
      err(ps, cur(ps), "expected a parameter type (.u64 for pointers, .u32, .s32, .f32 ...), found %s",
          show(cur(ps), b, sizeof b));
      return -1;
    }
    ps->i++;
    if (!is_ident(cur(ps)) && !is_reg(cur(ps))) {
      err(ps, cur(ps), "expected a parameter name, found %s", show(cur(ps), b, sizeof b));
      return -1;
    }
    ps->i++;
    if (is_p(cur(ps), '[')) {
      ps->i++;
      if (cur(ps)->kind == T_NUM) ps->i++;
      if (expect(ps, ']', "to close the array size")) return -1;
    }
    if (is_p(cur(ps), ',')) { ps->i++; continue; }
    return expect(ps, ')', "to close the parameter list");
  }
}

/* `.entry name (params) [perf directives] { body }` or `.func [(ret)] name [(params)] { body }`. */
static void function(parser *ps) {
  char b[64];
  int is_func = is_w(cur(ps), ".func");
  ps->i++;
  if (is_func && is_p(cur(ps), '(') && param_list(ps)) goto bad;
  if (!is_ident(cur(ps))) {
    err(ps, cur(ps), "expected the %s name, found %s", is_func ? "function" : "kernel", show(cur(ps), b, sizeof b));
    goto bad;
  }
  ps->i++;
  if (is_p(cur(ps), '(') && param_list(ps)) goto bad;
  while (is_w(cur(ps), ".maxntid") || is_w(cur(ps), ".reqntid") || is_w(cur(ps), ".minnctapersm") ||
         is_w(cur(ps), ".maxnctapersm") || is_w(cur(ps), ".maxnreg") || is_w(cur(ps), ".noreturn")) {
    int noarg = is_w(cur(ps), ".noreturn");
    ps->i++;
    for (int n = 0; !noarg; n++) {
      if (cur(ps)->kind != T_NUM || !gasp_ptx_valid_number(cur(ps))) {
        err(ps, cur(ps), "expected a number, found %s", show(cur(ps), b, sizeof b));
        goto bad;
      }
      ps->i++;
      if (!is_p(cur(ps), ',') || n == 2) break;
      ps->i++;
    }
  }
  if (is_p(cur(ps), ';')) { ps->i++; return; } /* a prototype */
  if (expect(ps, '{', "to open the body")) goto bad;
  body(ps, 1);
  expect(ps, '}', "to close the body");
  return;
bad:
  /* skip the header; the body is still parsed, so its own mistakes are reported too */
  while (cur(ps)->kind != T_END && !is_p(cur(ps), '{')) ps->i++;
  if (is_p(cur(ps), '{')) {
    ps->i++;
    body(ps, 1);
    if (is_p(cur(ps), '}')) ps->i++;
  }
}

static void module(parser *ps) {
  char b[64];
  while (cur(ps)->kind != T_END) {
    tok *t = cur(ps);
    int line = t->line;
    if (is_w(t, ".version")) {
      ps->i++;
      if (cur(ps)->kind != T_NUM || !gasp_ptx_valid_number(cur(ps)) || !memchr(cur(ps)->s, '.', cur(ps)->len)) {
        err(ps, cur(ps), "expected a version like 8.0 after '.version', found %s", show(cur(ps), b, sizeof b));
        recover(ps, line);
      } else
        ps->i++;
      continue;
    }
    if (is_w(t, ".target")) {
      ps->i++;
      if (!is_ident(cur(ps))) {
        err(ps, cur(ps), "expected an architecture like sm_90 after '.target', found %s", show(cur(ps), b, sizeof b));
        recover(ps, line);
        continue;
      }
      ps->i++;
      while (is_p(cur(ps), ',') && is_ident(peek(ps, 1))) ps->i += 2;
      continue;
    }
    if (is_w(t, ".address_size")) {
      ps->i++;
      if (cur(ps)->kind == T_NUM && (cur(ps)->len == 2) &&
          (!strncmp(cur(ps)->s, "64", 2) || !strncmp(cur(ps)->s, "32", 2)))
        ps->i++;
      else {
        err(ps, cur(ps), "expected 64 or 32 after '.address_size', found %s", show(cur(ps), b, sizeof b));
        recover(ps, line);
      }
      continue;
    }
    if (is_w(t, ".pragma")) { pragma(ps); continue; }
    if (is_w(t, ".file") || is_w(t, ".loc") || is_w(t, ".section")) {
      while (cur(ps)->kind != T_END && cur(ps)->line == line) ps->i++;
      continue;
    }
    if (is_w(t, ".visible") || is_w(t, ".extern") || is_w(t, ".weak")) {
      ps->i++;
      if (is_w(cur(ps), ".entry") || is_w(cur(ps), ".func")) function(ps);
      else if (is_space_word(cur(ps))) var_decl(ps);
      else {
        err(ps, cur(ps), "expected .entry, .func or a variable after %s, found %s", show(t, b, sizeof b),
            show(cur(ps), b + 32, 32));
        recover(ps, line);
      }
      continue;
    }
    if (is_w(t, ".entry") || is_w(t, ".func")) { function(ps); continue; }
    if (is_space_word(t)) { var_decl(ps); continue; }
    err(ps, t, "expected a directive (.version, .target, .address_size, .visible .entry, a variable), found %s",
        show(t, b, sizeof b));
    ps->i++;
    recover(ps, line);
  }
}

/* Module or snippet: code that names a module-level directive is a module (prepare splices everything else
 * into the task's scaffold). */
static int is_module(const tok *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (is_w(&v[i], ".version") || is_w(&v[i], ".target") || is_w(&v[i], ".entry") || is_w(&v[i], ".func") ||
        is_w(&v[i], ".visible") || is_w(&v[i], ".address_size"))
      return 1;
  return 0;
}

int gasp_ptx_parse(const char *code, int code_first_line, gasp_diags *d) {
  parser ps = {0};
  ps.d = d;
  ps.first_line = code_first_line > 0 ? code_first_line : 1;
  if (gasp_ptx_lex(code, &ps.t, &ps.n)) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "out of memory while parsing");
    return 1;
  }
  for (size_t i = 0; i < ps.n; i++)
    if (ps.t[i].kind == T_BAD) {
      char b[64];
      err(&ps, &ps.t[i], "unexpected character %s", show(&ps.t[i], b, sizeof b));
    }
  if (ps.errors == 0) {
    if (is_module(ps.t, ps.n)) module(&ps);
    else body(&ps, 0);
  }
  free(ps.t);
  return ps.errors > MAX_ERRORS ? MAX_ERRORS : ps.errors;
}
