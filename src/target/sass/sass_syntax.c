/* One line of nvdisasm syntax -> control prefix, guard, form key and placeholder tokens. The rules are those of
 * tools/sass-syntax.py (the learner's tokenizer); a key that differs shows up in unit_sass as an unknown form. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "sass_internal.h"

static int is_word(int c) { return isalnum(c) || c == '_'; }

static int match_reg(const char *s, size_t i, size_t n, int *kind, size_t *end)
{
  static const struct { const char *p; int k; } pre[] = {
    {"UR", SASS_K_UR}, {"UP", SASS_K_UP}, {"SB", SASS_K_SB}, {"R", SASS_K_R}, {"P", SASS_K_P}, {"B", SASS_K_B}};
  if (i > 0 && is_word((unsigned char)s[i - 1]))
    return 0;
  for (size_t k = 0; k < sizeof pre / sizeof pre[0]; k++) {
    size_t l = strlen(pre[k].p);
    if (i + l >= n + 1 || strncmp(s + i, pre[k].p, l))
      continue;
    size_t j = i + l;
    if (j < n && (s[j] == 'Z' || s[j] == 'T'))
      j++;
    else
      while (j < n && isdigit((unsigned char)s[j]))
        j++;
    if (j == i + l || (j < n && is_word((unsigned char)s[j])))
      continue;
    *kind = pre[k].k;
    *end = j;
    return 1;
  }
  return 0;
}

static int match_num(const char *s, size_t i, size_t n, size_t *end)
{
  if (i > 0 && !strchr(" \t,[(+", s[i - 1]))
    return 0;
  size_t j = i;
  if (j < n && (s[j] == '-' || s[j] == '+'))
    j++;
  size_t b = j;
  if (j + 1 < n && s[j] == '0' && s[j + 1] == 'x' && j + 2 < n && isxdigit((unsigned char)s[j + 2])) {
    j += 2;
    while (j < n && (isdigit((unsigned char)s[j]) || (s[j] >= 'a' && s[j] <= 'f')))
      j++;
  } else if (j < n && isdigit((unsigned char)s[j])) {
    while (j < n && isdigit((unsigned char)s[j]))
      j++;
    size_t save = j;
    if (j + 1 < n && s[j] == '.' && isdigit((unsigned char)s[j + 1])) {
      j++;
      while (j < n && isdigit((unsigned char)s[j]))
        j++;
      save = j;
    }
    if (j + 2 < n && s[j] == 'e' && (s[j + 1] == '-' || s[j + 1] == '+') && isdigit((unsigned char)s[j + 2])) {
      j += 2;
      while (j < n && isdigit((unsigned char)s[j]))
        j++;
    } else {
      j = save;
    }
  } else if (!strncmp(s + j, "INF", 3) || !strncmp(s + j, "NAN", 3)) {
    j += 3;
  } else if (!strncmp(s + j, "QNAN", 4)) {
    j += 4;
  } else {
    return 0;
  }
  if (j == b || (j < n && (is_word((unsigned char)s[j]) || s[j] == '.')))
    return 0;
  *end = j;
  return 1;
}

static void key_put(sass_parsed *p, char c)
{
  if (p->key_len + 1 < sizeof p->key)
    p->key[p->key_len++] = c;
}

/* Appends literal text to the key with the learner's normalisation: blank runs become one blank, blanks
 * around commas and at both ends vanish. `pend` carries a blank not yet written. */
static void key_lit(sass_parsed *p, const char *s, size_t n, int *pend)
{
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == ' ' || c == '\t') {
      *pend = 1;
      continue;
    }
    if (c == ',') {
      /* drop a blank before the comma and any after it */
      key_put(p, ',');
      *pend = 0;
      while (i + 1 < n && (s[i + 1] == ' ' || s[i + 1] == '\t'))
        i++;
      if (i + 1 == n)
        *pend = -1; /* the next literal starts right after a comma: no blank */
      continue;
    }
    if (*pend == 1 && p->key_len > 0 && p->key[p->key_len - 1] != ' ' && p->key[p->key_len - 1] != ',')
      key_put(p, ' ');
    *pend = 0;
    key_put(p, c);
  }
}

int sass_parse_line(const char *line, sass_parsed *p, char *err, size_t errcap, int *col)
{
  memset(p, 0, sizeof *p);
  *col = 0;
  const char *s = line;
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
    n--;
  if (n && s[n - 1] == ';')
    n--;
  const char *end = s + n;
  if (*s == '[') {
    /* [B012345:R0:W0:Y:S00]: wait mask, read and write scoreboard (0-5 or -), yield (Y when the bit is 0,
     * facts file), stall 00-15 */
    char b[7], r, w, y;
    unsigned st;
    int used = 0;
    if (sscanf(s, "[B%6[-0-9]:R%c:W%c:%c:S%2u]%n", b, &r, &w, &y, &st, &used) != 5 || !used || strlen(b) != 6) {
      snprintf(err, errcap, "malformed control prefix (expected [B------:R-:W-:Y:S00])");
      *col = (int)(s - line) + 1;
      return -1;
    }
    for (int k = 0; k < 6; k++) {
      if (b[k] == '-')
        continue;
      if (b[k] != '0' + k) {
        snprintf(err, errcap, "wait mask position %d must be '%d' or '-' (scoreboards SB0-SB5)", k, k);
        *col = (int)(s - line) + 3 + k;
        return -1;
      }
      p->wait |= 1u << k;
    }
    if ((r != '-' && (r < '0' || r > '5')) || (w != '-' && (w < '0' || w > '5'))) {
      snprintf(err, errcap, "scoreboard must be 0-5 or '-' (six scoreboards)");
      *col = (int)(s - line) + 1;
      return -1;
    }
    if (st > 15 || (y != 'Y' && y != '-')) {
      snprintf(err, errcap, st > 15 ? "stall %u over 15 (4-bit field)" : "yield must be Y or -", st);
      *col = (int)(s - line) + used - 2;
      return -1;
    }
    p->has_ctl = 1;
    p->rbar = r == '-' ? 7 : (unsigned)(r - '0');
    p->wbar = w == '-' ? 7 : (unsigned)(w - '0');
    p->yield = y == 'Y' ? 0 : 1;
    p->stall = st;
    s += used;
    while (s < end && (*s == ' ' || *s == '\t'))
      s++;
  }
  if (s < end && *s == '@') {
    const char *g = s + 1;
    if (g < end && *g == '!')
      p->guard_neg = 1, g++;
    if (g < end && *g == 'U')
      p->guard_up = 1, g++;
    if (g + 1 >= end || *g != 'P' || !(isdigit((unsigned char)g[1]) || g[1] == 'T')) {
      snprintf(err, errcap, "malformed guard predicate");
      *col = (int)(s - line) + 1;
      return -1;
    }
    p->guard_idx = g[1] == 'T' ? 7 : g[1] - '0';
    if (p->guard_idx > 6 && g[1] != 'T') {
      snprintf(err, errcap, "guard predicate P%c out of range (P0-P6, PT)", g[1]);
      *col = (int)(g - line) + 1;
      return -1;
    }
    g += 2;
    if (g < end && is_word((unsigned char)*g)) {
      snprintf(err, errcap, "guard predicate out of range (P0-P6, PT)");
      *col = (int)(s - line) + 1;
      return -1;
    }
    p->has_guard = 1;
    s = g;
    while (s < end && (*s == ' ' || *s == '\t'))
      s++;
  }
  if (s >= end) {
    snprintf(err, errcap, "no instruction");
    return -1;
  }
  p->mnem = s;
  p->mnem_col = (int)(s - line);
  while (s < end && *s != ' ' && *s != '\t')
    s++;
  p->mnem_len = (size_t)(s - p->mnem);
  for (size_t i = 0; i < p->mnem_len; i++)
    key_put(p, p->mnem[i]);
  key_put(p, ' ');
  const char *ops = s;
  size_t on = (size_t)(end - ops), pos = 0;
  int pend = -1;
  for (size_t i = 0; i < on;) {
    int kind;
    size_t e;
    int tok = 0;
    if (ops[i] == '`' && i + 1 < on && ops[i + 1] == '(') {
      const char *cl = memchr(ops + i + 2, ')', on - i - 2);
      if (!cl) {
        snprintf(err, errcap, "unterminated label");
        *col = (int)(ops + i - line) + 1;
        return -1;
      }
      kind = SASS_K_L;
      e = (size_t)(cl - ops) + 1;
      tok = 1;
    } else if (match_reg(ops, i, on, &kind, &e)) {
      tok = 1;
    } else if (match_num(ops, i, on, &e)) {
      kind = SASS_K_N;
      tok = 1;
    }
    if (!tok) {
      i++;
      continue;
    }
    /* literal text since the last token, minus .reuse (which belongs to the previous placeholder) */
    const char *lit = ops + pos;
    size_t ln = i - pos;
    for (;;) {
      const char *r = NULL;
      for (size_t k = 0; k + 6 <= ln; k++)
        if (!memcmp(lit + k, ".reuse", 6) && (k + 6 == ln || !is_word((unsigned char)lit[k + 6]))) {
          r = lit + k;
          break;
        }
      if (!r)
        break;
      if (!p->ntok) {
        snprintf(err, errcap, ".reuse before any register");
        *col = (int)(r - line) + 1;
        return -1;
      }
      p->reuse |= 1u << (p->ntok - 1);
      key_lit(p, lit, (size_t)(r - lit), &pend);
      ln -= (size_t)(r - lit) + 6;
      lit = r + 6;
    }
    key_lit(p, lit, ln, &pend);
    if (p->ntok == SASS_MAX_OPS) {
      snprintf(err, errcap, "more than %d operands", SASS_MAX_OPS);
      *col = (int)(ops + i - line) + 1;
      return -1;
    }
    if (pend == 1 && p->key_len && p->key[p->key_len - 1] != ' ' && p->key[p->key_len - 1] != ',')
      key_put(p, ' ');
    pend = 0;
    sass_tok *t = &p->toks[p->ntok++];
    t->kind = (uint8_t)kind;
    t->col = (int)(ops + i - line);
    if (kind == SASS_K_L) {
      t->txt = ops + i + 2, t->len = e - i - 3;
      key_put(p, '`'), key_put(p, '('), key_put(p, '%'), key_put(p, ')');
    } else if (kind == SASS_K_N) {
      t->txt = ops + i, t->len = e - i;
      key_put(p, '%');
      /* nvdisasm prints one blank after INF and NAN texts (`+INF , PT`): it is part of the number */
      if (ops[e - 1] == 'F' || ops[e - 1] == 'N')
        if (e < on && ops[e] == ' ')
          e++;
    } else {
      static const char *kn[] = {"R", "UR", "P", "UP", "B", "SB"};
      size_t pl = strlen(kn[kind]);
      t->txt = ops + i + pl, t->len = e - i - pl;
      for (size_t k = 0; k < pl; k++)
        key_put(p, kn[kind][k]);
      key_put(p, '%');
    }
    pos = i = e;
  }
  /* trailing literal */
  const char *lit = ops + pos;
  size_t ln = on - pos;
  for (;;) {
    const char *r = NULL;
    for (size_t k = 0; k + 6 <= ln; k++)
      if (!memcmp(lit + k, ".reuse", 6)) {
        r = lit + k;
        break;
      }
    if (!r)
      break;
    if (!p->ntok) {
      snprintf(err, errcap, ".reuse before any register");
      return -1;
    }
    p->reuse |= 1u << (p->ntok - 1);
    key_lit(p, lit, (size_t)(r - lit), &pend);
    ln -= (size_t)(r - lit) + 6;
    lit = r + 6;
  }
  key_lit(p, lit, ln, &pend);
  /* the learner strips blanks at the end; the key always has the blank after the mnemonic */
  while (p->key_len > p->mnem_len + 1 && p->key[p->key_len - 1] == ' ')
    p->key_len--;
  p->key[p->key_len] = 0;
  return 0;
}
