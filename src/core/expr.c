/* A recursive-descent evaluator for the integer expressions of task files. */
#include "expr.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  const char *s, *p;
  const gasp_expr_env *env;
  char *err;
  int errcap;
  int failed;
} ex;

static void fail(ex *e, const char *what) {
  if (!e->failed) snprintf(e->err, (size_t)e->errcap, "at column %d: %s", (int)(e->p - e->s) + 1, what);
  e->failed = 1;
}

static void ws(ex *e) {
  while (isspace((unsigned char)*e->p)) e->p++;
}

static int64_t sum(ex *e);

static int64_t atom(ex *e) {
  ws(e);
  if (*e->p == '(') {
    e->p++;
    int64_t v = sum(e);
    ws(e);
    if (*e->p != ')') fail(e, "expected ')'");
    else e->p++;
    return v;
  }
  if (*e->p == '-') {
    e->p++;
    return -atom(e);
  }
  if (isdigit((unsigned char)*e->p)) {
    int64_t v = 0;
    int base = 10;
    if (e->p[0] == '0' && (e->p[1] == 'x' || e->p[1] == 'X')) {
      base = 16;
      e->p += 2;
    }
    while (isxdigit((unsigned char)*e->p)) {
      int d = isdigit((unsigned char)*e->p) ? *e->p - '0' : (tolower((unsigned char)*e->p) - 'a' + 10);
      if (d >= base) break;
      v = v * base + d;
      e->p++;
    }
    return v;
  }
  if (isalpha((unsigned char)*e->p) || *e->p == '_') {
    const char *b = e->p;
    while (isalnum((unsigned char)*e->p) || *e->p == '_') e->p++;
    size_t n = (size_t)(e->p - b);
    ws(e);
    if (*e->p == '(') {
      e->p++;
      int64_t a = sum(e);
      ws(e);
      if (*e->p != ',') {
        fail(e, "expected ',' in function call");
        return 0;
      }
      e->p++;
      int64_t c = sum(e);
      ws(e);
      if (*e->p != ')') {
        fail(e, "expected ')' after arguments");
        return 0;
      }
      e->p++;
      if (n == 4 && !strncmp(b, "cdiv", 4)) {
        if (c <= 0) { fail(e, "cdiv by a non-positive number"); return 0; }
        return (a + c - 1) / c;
      }
      if (n == 3 && !strncmp(b, "min", 3)) return a < c ? a : c;
      if (n == 3 && !strncmp(b, "max", 3)) return a > c ? a : c;
      if (n == 3 && !strncmp(b, "shl", 3)) {
        if (c < 0 || c > 62) { fail(e, "shift out of range"); return 0; }
        return a << c;
      }
      fail(e, "unknown function");
      return 0;
    }
    for (int i = 0; e->env && i < e->env->count; i++)
      if (strlen(e->env->names[i]) == n && !strncmp(e->env->names[i], b, n)) return e->env->values[i];
    e->p = b;
    fail(e, "unknown name");
    e->p = b + n;
    return 0;
  }
  fail(e, "expected a number, a name or '('");
  return 0;
}

static int64_t product(ex *e) {
  int64_t v = atom(e);
  for (;;) {
    ws(e);
    char op = *e->p;
    if (op != '*' && op != '/' && op != '%') return v;
    e->p++;
    int64_t r = atom(e);
    if (op == '*') v *= r;
    else if (r == 0) { fail(e, "division by zero"); return 0; }
    else if (op == '/') v /= r;
    else v %= r;
  }
}

static int64_t sum(ex *e) {
  int64_t v = product(e);
  for (;;) {
    ws(e);
    char op = *e->p;
    if (op != '+' && op != '-') return v;
    e->p++;
    int64_t r = product(e);
    v = op == '+' ? v + r : v - r;
  }
}

int gasp_expr_eval(const char *text, const gasp_expr_env *env, int64_t *out, char *err, int errcap) {
  ex e = {text, text, env, err, errcap, 0};
  if (err && errcap) err[0] = 0;
  int64_t v = sum(&e);
  ws(&e);
  if (!e.failed && *e.p) fail(&e, "unexpected text after expression");
  if (e.failed) return -1;
  *out = v;
  return 0;
}
