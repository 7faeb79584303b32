/* The PTX tokenizer: words, numbers, strings and punctuation with their line and column. */
#include "ptx_lex.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int word_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
static int word_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.'; }

int gasp_ptx_lex(const char *code, gasp_ptx_tok **out, size_t *nout) {
  size_t cap = 256, n = 0;
  gasp_ptx_tok *v = malloc(cap * sizeof *v);
  if (!v) return -1;
  int line = 1, col = 1;
  const char *p = code;
  while (*p) {
    if (n + 2 >= cap) {
      gasp_ptx_tok *nv = realloc(v, (cap *= 2) * sizeof *v);
      if (!nv) { free(v); return -1; }
      v = nv;
    }
    if (*p == '\n') { line++; col = 1; p++; continue; }
    if (isspace((unsigned char)*p)) { col++; p++; continue; }
    if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n') p++;
      continue;
    }
    if (p[0] == '/' && p[1] == '*') {
      p += 2; col += 2;
      while (*p && !(p[0] == '*' && p[1] == '/')) {
        if (*p == '\n') { line++; col = 1; } else col++;
        p++;
      }
      if (*p) { p += 2; col += 2; }
      continue;
    }
    gasp_ptx_tok t = {T_PUNCT, p, 1, line, col};
    unsigned char c = (unsigned char)*p;
    if (word_start(c)) {
      size_t k = 1;
      /* "::" belongs to a word (.shared::cta); a single ':' ends a label */
      while (word_char((unsigned char)p[k]) || (p[k] == ':' && p[k + 1] == ':' && word_char((unsigned char)p[k + 2])))
        k += p[k] == ':' ? 2 : 1;
      t.kind = T_WORD;
      t.len = k;
    } else if (isdigit(c)) {
      size_t k = 1;
      int hexlike = p[0] == '0' && strchr("xXfFdD", p[1]) && p[1];
      while (isalnum((unsigned char)p[k]) || p[k] == '.' || p[k] == '_' ||
             (!hexlike && (p[k] == '+' || p[k] == '-') && (p[k - 1] == 'e' || p[k - 1] == 'E')))
        k++;
      t.kind = T_NUM;
      t.len = k;
    } else if (c == '"') {
      size_t k = 1;
      while (p[k] && p[k] != '"' && p[k] != '\n') k++;
      t.kind = p[k] == '"' ? T_STR : T_BAD;
      t.len = p[k] == '"' ? k + 1 : k;
    } else if (!strchr(",;:[]{}()+-!@|<>=", c)) {
      t.kind = T_BAD;
    }
    v[n++] = t;
    p += t.len;
    col += (int)t.len;
  }
  v[n] = (gasp_ptx_tok){T_END, p, 0, line, col};
  *out = v;
  *nout = n;
  return 0;
}

/* A numeric literal of PTX (ISA 9.0, 4.5.1): decimal, 0x hex, 0b binary, 0 octal integers with an
 * optional U; 0f + 8 hex digits (f32 bits), 0d + 16 (f64 bits); decimal floating point. */
int gasp_ptx_valid_number(const gasp_ptx_tok *t) {
  const char *s = t->s;
  size_t n = t->len, i;
  if (n > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
    size_t want = (s[1] == 'f' || s[1] == 'F') ? 8 : 16;
    if (n != want + 2) return 0;
    for (i = 2; i < n; i++)
      if (!isxdigit((unsigned char)s[i])) return 0;
    return 1;
  }
  if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    for (i = 2; i < n && isxdigit((unsigned char)s[i]); i++) {}
    if (i == 2) return 0;
    if (i < n && (s[i] == 'U' || s[i] == 'u')) i++;
    return i == n;
  }
  if (n > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    for (i = 2; i < n && (s[i] == '0' || s[i] == '1'); i++) {}
    if (i < n && (s[i] == 'U' || s[i] == 'u')) i++;
    return i > 2 && i == n;
  }
  for (i = 0; i < n && isdigit((unsigned char)s[i]); i++) {}
  if (i == n) return 1;
  if (s[i] == 'U' || s[i] == 'u') return i + 1 == n;
  if (s[i] == '.') {
    i++;
    while (i < n && isdigit((unsigned char)s[i])) i++;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    size_t k = i;
    while (i < n && isdigit((unsigned char)s[i])) i++;
    if (i == k) return 0;
  }
  return i == n;
}

