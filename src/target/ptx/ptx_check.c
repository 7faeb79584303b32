/* PTX checks beyond ptxas: register ranges with columns, provable misalignment, ptxas output parsing. */
#define _GNU_SOURCE
#include "ptx_check.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_isa.h"

typedef struct {
  char name[64];
  int count;   /* -1: a plain name; else %name<count> */
  int line;
} regdecl;

typedef struct {
  regdecl *v;
  int n, cap;
} decls;

static void add_decl(decls *ds, const char *name, size_t len, int count, int line) {
  if (len >= sizeof ds->v[0].name) return;
  if (ds->n == ds->cap) {
    ds->cap = ds->cap ? ds->cap * 2 : 32;
    ds->v = realloc(ds->v, (size_t)ds->cap * sizeof *ds->v);
  }
  memcpy(ds->v[ds->n].name, name, len);
  ds->v[ds->n].name[len] = 0;
  ds->v[ds->n].count = count;
  ds->v[ds->n].line = line;
  ds->n++;
}

static int is_ident(int c) { return isalnum(c) || c == '_' || c == '$'; }

static int is_special(const char *name, size_t len) {
  for (int i = 0; gasp_ptx_special_regs[i]; i++) {
    size_t k = strlen(gasp_ptx_special_regs[i]);
    if (len == k && !strncmp(name, gasp_ptx_special_regs[i], k)) return 1;
  }
  return 0;
}

/* Strips // and block comments from a copy of the text, keeping columns and newlines. */
static char *strip_comments(const char *s) {
  char *o = gasp_strdup(s);
  int in_block = 0;
  for (char *p = o; *p; p++) {
    if (in_block) {
      if (p[0] == '*' && p[1] == '/') { p[0] = p[1] = ' '; p++; in_block = 0; }
      else if (*p != '\n') *p = ' ';
      continue;
    }
    if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n') *p++ = ' ';
      if (!*p) break;
    } else if (p[0] == '/' && p[1] == '*') {
      p[0] = p[1] = ' ';
      p++;
      in_block = 1;
    } else if (*p == '"') {
      for (p++; *p && *p != '"' && *p != '\n'; p++) {}
      if (!*p) break;
    }
  }
  return o;
}

/* `.reg .type %a<4>, %b, %c<2>;` on one line */
static void collect_decls(const char *line, int lineno, decls *ds) {
  const char *p = line;
  while (isspace((unsigned char)*p)) p++;
  if (strncmp(p, ".reg", 4) || is_ident((unsigned char)p[4])) return;
  p += 4;
  while (*p && *p != ';') {
    if (*p == '%') {
      const char *b = p++;
      while (is_ident((unsigned char)*p)) p++;
      size_t len = (size_t)(p - b);
      int count = -1;
      if (*p == '<') {
        count = atoi(p + 1);
        while (*p && *p != '>') p++;
      }
      add_decl(ds, b, len, count, lineno);
    } else {
      p++;
    }
  }
}

static const regdecl *find_decl(const decls *ds, const char *name, size_t len) {
  for (int i = 0; i < ds->n; i++)
    if (ds->v[i].count < 0 && strlen(ds->v[i].name) == len && !strncmp(ds->v[i].name, name, len)) return &ds->v[i];
  return NULL;
}

static const regdecl *find_family(const decls *ds, const char *name, size_t len) {
  for (int i = 0; i < ds->n; i++)
    if (ds->v[i].count >= 0 && strlen(ds->v[i].name) == len && !strncmp(ds->v[i].name, name, len)) return &ds->v[i];
  return NULL;
}

/* Registers known to hold a cudaMalloc'ed pointer (256-byte aligned): loaded from a .u64 param and
 * converted with cvta.to.global, or a plain copy of such a register. */
typedef struct {
  char names[64][48];
  int n;
} aligned_set;

static int aligned_has(const aligned_set *a, const char *n, size_t len) {
  for (int i = 0; i < a->n; i++)
    if (strlen(a->names[i]) == len && !strncmp(a->names[i], n, len)) return 1;
  return 0;
}

static void aligned_add(aligned_set *a, const char *n, size_t len) {
  if (a->n < 64 && len < 48 && !aligned_has(a, n, len)) {
    memcpy(a->names[a->n], n, len);
    a->names[a->n][len] = 0;
    a->n++;
  }
}

static void aligned_remove(aligned_set *a, const char *n, size_t len) {
  for (int i = 0; i < a->n; i++)
    if (strlen(a->names[i]) == len && !strncmp(a->names[i], n, len)) {
      memmove(a->names[i], a->names[i + 1], (size_t)(a->n - i - 1) * sizeof a->names[0]);
      a->n--;
      return;
    }
}

/* the first operand register of an instruction line (the destination) */
static const char *first_reg(const char *p, size_t *len) {
  while (*p && *p != '%' && *p != ';') p++;
  if (*p != '%') return NULL;
  const char *b = p++;
  while (is_ident((unsigned char)*p)) p++;
  *len = (size_t)(p - b);
  return b;
}

static int vec_access_bytes(const char *op, size_t oplen) {
  /* ld/st with .v2/.v4 and a type: the access is vector count x type size */
  int vec = 1, size = 0;
  const char *e = op + oplen;
  for (const char *p = op; p < e; p++) {
    if (*p != '.') continue;
    if (!strncmp(p, ".v2", 3)) vec = 2;
    else if (!strncmp(p, ".v4", 3)) vec = 4;
    else if (!strncmp(p, ".v8", 3)) vec = 8;
    else if (p[1] == 'f' || p[1] == 'u' || p[1] == 's' || p[1] == 'b') {
      int bits = atoi(p + 2);
      if (bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128) size = bits / 8;
    }
  }
  return size ? vec * size : 0;
}

static void check_line(const char *line, int lineno, const gasp_source *src, const decls *ds, aligned_set *al,
                       gasp_diags *d, int *errors) {
  const char *p = line;
  while (isspace((unsigned char)*p)) p++;
  if (*p == '.' && strncmp(p, ".reg", 4)) return; /* other directives: .param names, .shared arrays */
  if (!strncmp(p, ".reg", 4)) return;
  int orig = gasp_source_map_line(src, lineno);
  /* guard predicate */
  const char *ins = p;
  if (*ins == '@') {
    while (*ins && !isspace((unsigned char)*ins)) ins++;
    while (isspace((unsigned char)*ins)) ins++;
  }
  const char *op = ins;
  while (*ins && !isspace((unsigned char)*ins) && *ins != ';') ins++;
  size_t oplen = (size_t)(ins - op);
  /* register tokens */
  for (const char *q = p; *q; q++) {
    if (*q != '%') continue;
    if (q > line && is_ident((unsigned char)q[-1])) continue;
    const char *b = q++;
    while (is_ident((unsigned char)*q)) q++;
    size_t len = (size_t)(q - b);
    if (len < 2) continue;
    if (is_special(b, len) || find_decl(ds, b, len)) {
      q--;
      continue;
    }
    /* split trailing digits */
    size_t k = len;
    while (k > 1 && isdigit((unsigned char)b[k - 1])) k--;
    const regdecl *fam = k < len ? find_family(ds, b, k) : NULL;
    int col = (int)(b - line) + 1;
    if (fam) {
      long idx = strtol(b + k, NULL, 10);
      if (idx >= fam->count) {
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RANGE, orig, col,
                       "register '%.*s' is outside '%s<%d>' declared on line %d (valid: %s0..%s%d)", (int)len, b,
                       fam->name, fam->count, gasp_source_map_line(src, fam->line), fam->name, fam->name,
                       fam->count - 1);
        (*errors)++;
      }
    } else if (!is_special(b, k)) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, orig, col, "register '%.*s' is not declared", (int)len, b);
      (*errors)++;
    }
    q--;
  }
  if (!oplen) return;
  /* alignment tracking */
  size_t dlen = 0;
  const char *dst = first_reg(ins, &dlen);
  if (!strncmp(op, "ld.param.u64", 12) || !strncmp(op, "ld.param.b64", 12)) {
    if (dst) aligned_add(al, dst, dlen); /* a pointer parameter: cudaMalloc memory, 256-byte aligned */
    return;
  }
  if (!strncmp(op, "cvta.to.global", 14) || !strncmp(op, "mov.u64", 7) || !strncmp(op, "mov.b64", 7)) {
    size_t slen = 0;
    const char *s = dst ? first_reg(dst + dlen, &slen) : NULL;
    if (dst && s && aligned_has(al, s, slen)) aligned_add(al, dst, dlen);
    else if (dst) aligned_remove(al, dst, dlen);
    return;
  }
  int is_mem = (oplen > 3 && (!strncmp(op, "ld.", 3) || !strncmp(op, "st.", 3))) && !strstr(op, ".param") &&
               !strstr(op, ".shared") && !strstr(op, ".local") && !strstr(op, ".const");
  if (is_mem) {
    const char *br = strchr(ins, '[');
    int bytes = vec_access_bytes(op, oplen);
    if (br && bytes > 1) {
      const char *r = br + 1;
      while (isspace((unsigned char)*r)) r++;
      const char *rb = r;
      while (*r == '%' || is_ident((unsigned char)*r)) r++;
      size_t rlen = (size_t)(r - rb);
      while (isspace((unsigned char)*r)) r++;
      long off = 0;
      if (*r == '+' || *r == '-') off = strtol(r, NULL, 0);
      if (*rb == '%' && aligned_has(al, rb, rlen) && off % bytes) {
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_SEMANTIC, orig, (int)(br - line) + 1,
                       "misaligned: %d-byte access at offset %ld from '%.*s', a 256-byte aligned buffer pointer",
                       bytes, off, (int)rlen, rb);
        (*errors)++;
      }
    }
  }
  /* any other write to a tracked register ends what we know about it */
  if (dst && !is_mem && strncmp(op, "st.", 3) && strncmp(op, "bra", 3)) aligned_remove(al, dst, dlen);
}

int gasp_ptx_lint(const gasp_source *src, gasp_diags *d) {
  char *text = strip_comments(src->text);
  decls ds = {0};
  /* pass 1: declarations */
  int lineno = 1;
  for (char *l = text; l; lineno++) {
    char *nl = strchr(l, '\n');
    if (nl) *nl = 0;
    collect_decls(l, lineno, &ds);
    if (nl) *nl = '\n';
    l = nl ? nl + 1 : NULL;
  }
  /* pass 2: uses */
  int errors = 0;
  aligned_set al = {.n = 0};
  lineno = 1;
  for (char *l = text; l; lineno++) {
    char *nl = strchr(l, '\n');
    if (nl) *nl = 0;
    check_line(l, lineno, src, &ds, &al, d, &errors);
    if (nl) *nl = '\n';
    l = nl ? nl + 1 : NULL;
  }
  free(ds.v);
  free(text);
  return errors;
}

/* ---- ptxas output ---- */

static gasp_class classify(const char *msg, int fatal) {
  static const struct { const char *needle; gasp_class c; } rules[] = {
      {"syntax error", GASP_CLASS_SYNTAX},      {"Parsing error", GASP_CLASS_SYNTAX},
      {"Unexpected", GASP_CLASS_SYNTAX},        {"unexpected", GASP_CLASS_SYNTAX},
      {"too much shared", GASP_CLASS_RESOURCE}, {"too many resources", GASP_CLASS_RESOURCE},
      {"Too many", GASP_CLASS_RESOURCE},        {"exceeds", GASP_CLASS_RESOURCE},
      {"out of range", GASP_CLASS_RANGE},
  };
  for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
    if (strstr(msg, rules[i].needle)) return rules[i].c;
  (void)fatal;
  return GASP_CLASS_SEMANTIC;
}

/* The column of the quoted subject of a message (Unknown symbol '%r9', near 'x') in the line, else the
 * first non-blank character. */
static int column_for(const char *text, int line, const char *msg) {
  const char *l = text;
  for (int i = 1; i < line && l; i++) {
    l = strchr(l, '\n');
    if (l) l++;
  }
  if (!l) return 1;
  const char *e = strchr(l, '\n');
  size_t ll = e ? (size_t)(e - l) : strlen(l);
  const char *q = strchr(msg, '\'');
  if (q) {
    const char *q2 = strchr(q + 1, '\'');
    if (q2 && q2 > q + 1) {
      size_t n = (size_t)(q2 - q - 1);
      for (size_t i = 0; i + n <= ll; i++)
        if (!strncmp(l + i, q + 1, n)) return (int)i + 1;
    }
  }
  size_t i = 0;
  while (i < ll && isspace((unsigned char)l[i])) i++;
  return (int)i + 1;
}

int gasp_ptxas_parse(const char *err, const gasp_source *src, const char *kernel, gasp_diags *d, int *regs, int *smem) {
  int errors = 0;
  *regs = -1;
  *smem = -1;
  /* -v reports per function; keep the launched kernel's figures (the largest when it is not named) */
  char current[128] = "";
  int matched = 0;
  const char *p = err;
  while (p && *p) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char line[1024];
    if (len >= sizeof line) len = sizeof line - 1;
    memcpy(line, p, len);
    line[len] = 0;
    p = e ? e + 1 : NULL;
    const char *fn = strstr(line, "Compiling entry function '");
    if (!fn) fn = strstr(line, "Function properties for ");
    if (fn) {
      const char *b = strchr(fn, '\'') ? strchr(fn, '\'') + 1 : fn + strlen("Function properties for ");
      size_t n = strcspn(b, "' \n");
      if (n >= sizeof current) n = sizeof current - 1;
      memcpy(current, b, n);
      current[n] = 0;
      continue;
    }
    const char *u = strstr(line, "Used ");
    if (u && strstr(line, "registers")) {
      int r = atoi(u + 5), sm_bytes = 0;
      const char *sm = strstr(line, "bytes smem");
      if (sm) {
        const char *b = sm;
        while (b > line && (isdigit((unsigned char)b[-1]) || b[-1] == ' ')) b--;
        sm_bytes = atoi(b);
      }
      int mine = kernel && kernel[0] && !strcmp(current, kernel);
      if (mine || (!matched && (r > *regs || sm_bytes > *smem))) {
        if (mine && !matched) *regs = *smem = -1;
        if (mine || r > *regs) *regs = r;
        if (mine || sm_bytes > *smem) *smem = sm_bytes;
        matched |= mine;
      }
      continue;
    }
    /* "ptxas /path/k.ptx, line 12; error   : message" or "ptxas error   : message" */
    int lineno = 0;
    const char *ln = strstr(line, ", line ");
    if (ln) lineno = atoi(ln + 7);
    /* the severity is the word after "line N; " (or after "ptxas "), then a colon and the message */
    const char *sev = ln ? strchr(ln, ';') : (strncmp(line, "ptxas ", 6) ? NULL : line + 5);
    if (!sev) continue;
    sev++;
    while (*sev == ' ') sev++;
    int fatal = 0;
    gasp_severity s;
    if (!strncmp(sev, "error", 5)) s = GASP_SEV_ERROR;
    else if (!strncmp(sev, "fatal", 5)) { s = GASP_SEV_ERROR; fatal = 1; }
    else if (!strncmp(sev, "warning", 7)) s = GASP_SEV_WARNING;
    else continue;
    const char *colon = strchr(sev, ':');
    const char *msg = colon ? colon + 1 : sev;
    while (*msg == ' ') msg++;
    /* "Ptx assembly aborted due to errors" only repeats that there were errors */
    if (fatal && !lineno && strstr(msg, "aborted due to errors")) continue;
    int orig = lineno ? gasp_source_map_line(src, lineno) : 0;
    int col = lineno ? column_for(src->text, lineno, msg) : 0;
    if (lineno && !orig) {
      /* in the scaffold, outside the model's snippet */
      gasp_diags_add(d, s, classify(msg, fatal), 0, 0, "%s (scaffold line %d)", msg, lineno);
    } else {
      gasp_diags_add(d, s, classify(msg, fatal), orig, orig ? col : 0, "%s", msg);
    }
    if (s == GASP_SEV_ERROR) errors++;
  }
  return errors;
}

/* ---- rewriter: split provably misaligned vector accesses ---- */

/* Rewrites one `ld/st.*.vN.T` statement into N scalar accesses on the same line (line numbers stay valid
 * for later diagnostics). Returns a malloc'ed line, or NULL when the statement has a shape we do not touch. */
static char *split_vector_line(const char *line) {
  const char *p = line;
  while (isspace((unsigned char)*p)) p++;
  size_t indent = (size_t)(p - line);
  const char *guard = p;
  size_t guard_len = 0;
  if (*p == '@') {
    while (*p && !isspace((unsigned char)*p)) p++;
    guard_len = (size_t)(p - guard);
    while (isspace((unsigned char)*p)) p++;
  }
  const char *op = p;
  while (*p && !isspace((unsigned char)*p)) p++;
  size_t oplen = (size_t)(p - op);
  int is_ld = !strncmp(op, "ld.", 3), is_st = !strncmp(op, "st.", 3);
  const char *v = NULL;
  for (const char *q = op; q + 3 <= op + oplen; q++)
    if (q[0] == '.' && q[1] == 'v' && (q[2] == '2' || q[2] == '4')) v = q;
  if ((!is_ld && !is_st) || !v) return NULL;
  int n = v[2] - '0';
  int size = vec_access_bytes(op, oplen) / n;
  if (size <= 0) return NULL;
  char scalar_op[64];
  size_t pre = (size_t)(v - op), post = oplen - pre - 3;
  if (pre + post >= sizeof scalar_op) return NULL;
  memcpy(scalar_op, op, pre);
  memcpy(scalar_op + pre, v + 3, post);
  scalar_op[pre + post] = 0;
  const char *br = strchr(p, '{'), *bre = br ? strchr(br, '}') : NULL;
  const char *sq = strchr(p, '['), *sqe = sq ? strchr(sq, ']') : NULL;
  if (!br || !bre || !sq || !sqe) return NULL;
  /* the address: base register and optional +/- offset */
  char base[64];
  const char *a = sq + 1;
  while (isspace((unsigned char)*a)) a++;
  size_t bl = 0;
  while (a + bl < sqe && (a[bl] == '%' || isalnum((unsigned char)a[bl]) || a[bl] == '_' || a[bl] == '$')) bl++;
  if (!bl || bl >= sizeof base) return NULL;
  memcpy(base, a, bl);
  base[bl] = 0;
  long off = 0;
  const char *r = a + bl;
  while (isspace((unsigned char)*r)) r++;
  if (*r == '+' || *r == '-') off = strtol(r, NULL, 0);
  /* the registers */
  char regs[8][48];
  int nr = 0;
  const char *q = br + 1;
  while (q < bre && nr < 8) {
    while (q < bre && (isspace((unsigned char)*q) || *q == ',')) q++;
    size_t k = 0;
    while (q + k < bre && q[k] != ',' && !isspace((unsigned char)q[k])) k++;
    if (!k || k >= sizeof regs[0]) break;
    memcpy(regs[nr], q, k);
    regs[nr][k] = 0;
    nr++;
    q += k;
  }
  if (nr != n) return NULL;
  gasp_str o;
  gasp_str_init(&o);
  gasp_str_append(&o, line, indent);
  for (int i = 0; i < n; i++) {
    if (i) gasp_str_puts(&o, " ");
    if (guard_len) gasp_str_printf(&o, "%.*s ", (int)guard_len, guard);
    if (is_ld) gasp_str_printf(&o, "%s %s, [%s+%ld];", scalar_op, regs[i], base, off + (long)i * size);
    else gasp_str_printf(&o, "%s [%s+%ld], %s;", scalar_op, base, off + (long)i * size, regs[i]);
  }
  gasp_str_puts(&o, " // gasp: split a misaligned vector access");
  return gasp_str_take(&o);
}

int gasp_ptx_split_misaligned(gasp_source *src, gasp_diags *d) {
  gasp_diags found;
  gasp_diags_init(&found);
  gasp_ptx_lint(src, &found);
  int changed = 0;
  for (size_t i = 0; i < found.count; i++) {
    const gasp_diag *g = &found.items[i];
    if (strncmp(g->msg, "misaligned:", 11) || !g->line) continue;
    int tline = g->line - src->map_orig_first + src->map_first; /* back to a line of src->text */
    char *start = src->text;
    for (int l = 1; l < tline && start; l++) {
      start = strchr(start, '\n');
      if (start) start++;
    }
    if (!start) continue;
    char *end = strchr(start, '\n');
    size_t len = end ? (size_t)(end - start) : strlen(start);
    char *line = malloc(len + 1);
    memcpy(line, start, len);
    line[len] = 0;
    char *fixed = split_vector_line(line);
    free(line);
    if (!fixed) continue;
    gasp_str o;
    gasp_str_init(&o);
    gasp_str_append(&o, src->text, (size_t)(start - src->text));
    gasp_str_puts(&o, fixed);
    if (end) gasp_str_puts(&o, end);
    free(fixed);
    free(src->text);
    src->text = gasp_str_take(&o);
    gasp_diags_add(d, GASP_SEV_NOTE, GASP_CLASS_PASS, g->line, g->col,
                   "rewritten: split a provably misaligned vector access into scalar accesses");
    changed++;
  }
  gasp_diags_free(&found);
  return changed;
}
