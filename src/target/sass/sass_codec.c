/* Assembler and disassembler over the learned forms: a form is fixed bits plus one field per placeholder
 * (up to two bit segments, e.g. the sm_90 branch offset in bits 16-23 and 34-81), so encoding is base | fields
 * and decoding is finding the form whose fixed bits match, then printing its skeleton with the field values. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sass_internal.h"

static void put_bits(uint64_t w[2], int pos, int width, uint64_t v)
{
  for (int b = 0; b < width; b++)
    if (v >> b & 1)
      w[(pos + b) >> 6] |= 1ull << ((pos + b) & 63);
}

static uint64_t get_bits(const uint64_t w[2], int pos, int width)
{
  uint64_t v = 0;
  for (int b = 0; b < width; b++)
    v |= (w[(pos + b) >> 6] >> ((pos + b) & 63) & 1) << b;
  return v;
}

static uint32_t f32_bits(float f)
{
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* double -> IEEE half, round to nearest even (what Python's struct 'e' does, used by the learner) */
static int f16_bits(double d, uint16_t *out)
{
  if (isnan(d)) {
    *out = 0x7e00;
    return 0;
  }
  uint16_t sign = signbit(d) ? 0x8000 : 0;
  d = fabs(d);
  if (isinf(d)) {
    *out = sign | 0x7c00;
    return 0;
  }
  if (d == 0) {
    *out = sign;
    return 0;
  }
  int e;
  double m = frexp(d, &e); /* d = m * 2^e, m in [0.5, 1) */
  int exp = e - 1 + 15;
  if (exp >= 31)
    return -1;
  double scaled = exp <= 0 ? ldexp(d, 24) : ldexp(m, 11); /* subnormal: units of 2^-24 */
  double r = nearbyint(scaled);
  uint32_t mant = (uint32_t)r;
  if (exp <= 0) {
    *out = sign | (uint16_t)mant; /* may round up into the smallest normal: the encoding still works */
    return 0;
  }
  if (mant == 2048) {
    mant = 1024;
    if (++exp >= 31)
      return -1;
  }
  *out = sign | (uint16_t)(exp << 10) | (uint16_t)(mant & 0x3ff);
  return 0;
}

static double f16_value(uint16_t h)
{
  int e = h >> 10 & 0x1f, m = h & 0x3ff;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
  return h & 0x8000 ? -v : v;
}

static int tok_eq(const sass_tok *t, const char *s) { return strlen(s) == t->len && !memcmp(t->txt, s, t->len); }

static int is_nan_text(const sass_tok *t)
{
  const char *s = t->txt;
  size_t n = t->len;
  if (n && (*s == '-' || *s == '+'))
    s++, n--;
  return (n == 3 && !memcmp(s, "NAN", 3)) || (n == 4 && !memcmp(s, "QNAN", 4));
}

/* Value of a number token under interpretation `how`, as the integer the field stores. */
static int number_value(const sass_tok *t, int how, int64_t *out, char *err, size_t errcap)
{
  char buf[64];
  if (t->len >= sizeof buf) {
    snprintf(err, errcap, "number too long");
    return -1;
  }
  memcpy(buf, t->txt, t->len);
  buf[t->len] = 0;
  const char *b = buf + (buf[0] == '-' || buf[0] == '+');
  int neg = buf[0] == '-';
  int is_hex = b[0] == '0' && b[1] == 'x';
  int is_float = !is_hex; /* nvdisasm: integers in hex, floats in decimal */
  if (how == SASS_H_INT) {
    if (is_float) {
      snprintf(err, errcap, "'%s': this operand takes an integer", buf);
      return -1;
    }
    char *e;
    uint64_t u = strtoull(b, &e, is_hex ? 16 : 10);
    if (*e) {
      snprintf(err, errcap, "'%s' is not a number", buf);
      return -1;
    }
    *out = neg ? -(int64_t)u : (int64_t)u;
    return 0;
  }
  double d = !strcmp(b, "INF") ? INFINITY : is_hex ? (double)strtoull(b, NULL, 16) : strtod(b, NULL);
  if (neg)
    d = -d;
  if (how == SASS_H_F32) {
    if (isfinite(d) && fabs(d) > 3.4028234663852886e38) {
      snprintf(err, errcap, "'%s' does not fit a 32-bit float", buf);
      return -1;
    }
    *out = f32_bits((float)d);
  } else if (how == SASS_H_F64H) {
    uint64_t u;
    memcpy(&u, &d, 8);
    if (u & 0xffffffffu) {
      snprintf(err, errcap, "'%s': only the high 32 bits of a double immediate are encoded, the rest must be 0", buf);
      return -1;
    }
    *out = (int64_t)(u >> 32);
  } else if (how == SASS_H_F16) {
    uint16_t h;
    if (f16_bits(d, &h)) {
      snprintf(err, errcap, "'%s' does not fit a 16-bit float", buf);
      return -1;
    }
    *out = h;
  } else {
    uint32_t u = f32_bits((float)d);
    if (u & 0xffff) {
      snprintf(err, errcap, "'%s' is not a bfloat16 value", buf);
      return -1;
    }
    *out = u >> 16;
  }
  return 0;
}

static const char *kind_name(int k)
{
  static const char *n[] = {"R", "UR", "P", "UP", "B", "SB", "number", "label"};
  return n[k];
}

static int reg_value(const sass_tok *t, int kind, int64_t *v, char *err, size_t errcap)
{
  static const int maxi[] = {254, 62, 6, 6, 15, 5};
  static const int zero[] = {255, 63, 7, 7, -1, -1};
  if (t->len == 1 && (t->txt[0] == 'Z' || t->txt[0] == 'T')) {
    int want = kind == SASS_K_R || kind == SASS_K_UR ? 'Z' : 'T';
    if (zero[kind] < 0 || t->txt[0] != want) {
      snprintf(err, errcap, "%s%c does not exist", kind_name(kind), t->txt[0]);
      return -1;
    }
    *v = zero[kind];
    return 0;
  }
  long n = 0;
  for (size_t i = 0; i < t->len; i++)
    n = n * 10 + (t->txt[i] - '0');
  if (t->len > 4 || n > maxi[kind]) {
    snprintf(err, errcap, "%s%.*s out of range (%s0-%s%d%s)", kind_name(kind), (int)t->len, t->txt, kind_name(kind),
             kind_name(kind), maxi[kind],
             kind == SASS_K_R ? ", RZ" : kind == SASS_K_UR ? ", URZ" : kind == SASS_K_P ? ", PT" : kind == SASS_K_UP ? ", UPT" : "");
    return -1;
  }
  *v = n;
  return 0;
}

/* Nearest known form for an error message: same mnemonic root and fewest differing key characters. */
static const sass_form *nearest(const sass_isa *isa, const char *key)
{
  const sass_form *best = NULL;
  size_t bestd = (size_t)-1;
  size_t root = strcspn(key, ". ");
  for (size_t i = 0; i < isa->nforms; i++) {
    const sass_form *f = &isa->forms[i];
    size_t d = 0, a = strlen(key), b = strlen(f->key);
    if (strncmp(f->key, key, root) || (f->key[root] != '.' && f->key[root] != ' '))
      d += 1000;
    /* cheap distance: length of the differing middle after the common prefix and suffix */
    size_t pre = 0, suf = 0;
    while (pre < a && pre < b && key[pre] == f->key[pre])
      pre++;
    while (suf < a - pre && suf < b - pre && key[a - 1 - suf] == f->key[b - 1 - suf])
      suf++;
    d += (a - pre - suf) + (b - pre - suf);
    if (d < bestd || (d == bestd && best && f->count > best->count))
      bestd = d, best = f;
  }
  return best;
}

static void pretty_key(const char *key, char *out, size_t cap)
{
  size_t j = 0;
  for (const char *p = key; *p && j + 2 < cap; p++) {
    if (*p == '%')
      out[j++] = 'n';
    else
      out[j++] = *p;
    if (*p == ',' && j + 2 < cap)
      out[j++] = ' ';
  }
  out[j] = 0;
}

int sass_asm_line(const sass_isa *isa, const char *line, uint64_t addr, const sass_asm_opts *opts, uint64_t word[2],
                  char *err, size_t errcap, int *col)
{
  sass_parsed p;
  if (sass_parse_line(line, &p, err, errcap, col))
    return -1;
  /* register ranges first: they hold whatever the form */
  for (int i = 0; i < p.ntok; i++) {
    int64_t v;
    if (p.toks[i].kind <= SASS_K_SB && reg_value(&p.toks[i], p.toks[i].kind, &v, err, errcap)) {
      *col = p.toks[i].col + 1;
      return -1;
    }
  }
  const sass_form *f = sass_find_form(isa, p.key, p.key_len);
  if (!f) {
    const sass_form *nf = nearest(isa, p.key);
    char a[256], b[256];
    pretty_key(p.key, a, sizeof a);
    pretty_key(nf ? nf->key : "", b, sizeof b);
    snprintf(err, errcap, "no sm_%d encoding for '%s'; nearest known form: '%s'", isa->sm, a, b);
    *col = p.mnem_col + 1;
    return -1;
  }
  word[0] = f->enc[0], word[1] = f->enc[1];
  if (p.has_guard && p.guard_up != f->guard_up) {
    snprintf(err, errcap, "%.*s takes a %s guard", (int)p.mnem_len, p.mnem, f->guard_up ? "UP" : "P");
    *col = 1;
    return -1;
  }
  unsigned g = p.has_guard ? (unsigned)p.guard_idx | (unsigned)p.guard_neg << 3 : 7;
  word[0] |= (uint64_t)g << 12;
  for (int i = 0; i < f->nfields; i++) {
    const sass_field *fd = &f->fields[i];
    const sass_tok *t = &p.toks[fd->idx];
    int64_t v = 0;
    if (fd->kind == SASS_K_L) {
      uint64_t target;
      if (opts && opts->label && opts->label(opts->label_ctx, t->txt, t->len, &target))
        v = (int64_t)(target - (addr + 16));
      else if (opts && opts->unknown_label_zero)
        v = 0;
      else {
        snprintf(err, errcap, "unknown label '%.*s'", (int)t->len, t->txt);
        *col = t->col + 1;
        return -1;
      }
    } else if (fd->kind == SASS_K_N) {
      if (is_nan_text(t)) {
        int found = 0;
        for (int k = 0; k < f->nnan; k++)
          if (f->nan[k].idx == fd->idx && tok_eq(t, f->nan[k].text))
            v = (int64_t)f->nan[k].bits, found = 1;
        if (!found) {
          /* canonical quiet NaN of the field's type */
          int s = t->txt[0] == '-';
          v = fd->how == SASS_H_F32 ? (s ? 0xffc00000 : 0x7fc00000) : fd->how == SASS_H_F64H ? (s ? 0xfff80000 : 0x7ff80000)
            : fd->how == SASS_H_F16 ? (s ? 0xfe00 : 0x7e00) : (s ? 0xffc0 : 0x7fc0);
          if (fd->how == SASS_H_INT) {
            snprintf(err, errcap, "NaN given for an integer operand");
            *col = t->col + 1;
            return -1;
          }
        }
      } else if (number_value(t, fd->how, &v, err, errcap)) {
        *col = t->col + 1;
        return -1;
      }
    } else {
      if (reg_value(t, fd->kind, &v, err, errcap)) {
        *col = t->col + 1;
        return -1;
      }
      if (f->align[fd->idx] && v != 255 && v % f->align[fd->idx]) {
        snprintf(err, errcap, "R%" PRId64 " must be a multiple of %d (%d-bit operand)", v, f->align[fd->idx],
                 32 * f->align[fd->idx]);
        *col = t->col + 1;
        return -1;
      }
    }
    if (fd->shift && (v & ((1 << fd->shift) - 1))) {
      snprintf(err, errcap, "%s must be a multiple of %d", kind_name(fd->kind), 1 << fd->shift);
      *col = t->col + 1;
      return -1;
    }
    int64_t u = v >> fd->shift;
    /* range: the segments hold bits [0, total); the value must fit, signed or unsigned */
    int total = 0;
    for (int s = 0; s < fd->nseg; s++)
      total += fd->seg[s].width;
    if (total < 64) {
      int64_t lo = -(INT64_C(1) << (total - 1)), hi = (INT64_C(1) << total) - 1;
      if (u < lo || u > hi || (u < 0 && !fd->is_signed && fd->kind != SASS_K_N)) {
        snprintf(err, errcap, "%s value %" PRId64 " does not fit its %d-bit field", kind_name(fd->kind), v, total);
        *col = t->col + 1;
        return -1;
      }
    }
    for (int s = 0; s < fd->nseg; s++) {
      uint64_t part = (uint64_t)(u >> fd->seg[s].vlo);
      if (fd->seg[s].width < 64)
        part &= (UINT64_C(1) << fd->seg[s].width) - 1;
      put_bits(word, fd->seg[s].pos, fd->seg[s].width, part);
    }
  }
  for (int i = 0; i < p.ntok; i++)
    if (p.reuse >> i & 1) {
      if (f->reuse[i] < 0) {
        snprintf(err, errcap, "operand %d of this form has no reuse slot", i + 1);
        *col = p.toks[i].col + 1;
        return -1;
      }
      word[1] |= 1ull << (122 - 64 + f->reuse[i]);
    }
  unsigned stall = 15, yield = 1, wbar = 7, rbar = 7, wait = 0;
  if (p.has_ctl)
    stall = p.stall, yield = p.yield, wbar = p.wbar, rbar = p.rbar, wait = p.wait;
  word[1] |= (uint64_t)stall << (105 - 64) | (uint64_t)yield << (109 - 64) | (uint64_t)wbar << (110 - 64) |
             (uint64_t)rbar << (113 - 64) | (uint64_t)wait << (116 - 64);
  return 0;
}

/* ---- disassembler ---- */

typedef struct {
  char *p;
  size_t left;
} out_buf;

static void emit(out_buf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void emit(out_buf *o, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(o->p, o->left, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n >= o->left)
    n = o->left ? (int)o->left - 1 : 0;
  o->p += n, o->left -= (size_t)n;
}

/* nvdisasm's float format, read off the corpus: %.20g below 2^31 in magnitude, %.20e from there on; INF and
 * NaN with a sign and one trailing blank (`+INF , PT`). */
static void emit_float(out_buf *o, double d, int is_nan, int nan_sign, int quiet)
{
  if (is_nan) {
    emit(o, "%s%s ", nan_sign ? "-" : "+", quiet ? "QNAN" : "SNAN");
  } else if (isinf(d)) {
    emit(o, "%sINF ", d < 0 ? "-" : "+");
  } else if (fabs(d) < 2147483648.0) {
    emit(o, "%.20g", d);
  } else {
    emit(o, "%.20e", d);
  }
}

static void emit_value(out_buf *o, const sass_form *f, const sass_field *fd, const uint64_t w[2], uint64_t addr,
                       sass_name_fn name, void *ctx)
{
  uint64_t u = 0;
  int total = 0;
  for (int s = 0; s < fd->nseg; s++) {
    u |= get_bits(w, fd->seg[s].pos, fd->seg[s].width) << fd->seg[s].vlo;
    total = fd->seg[s].vlo + fd->seg[s].width;
  }
  int64_t v = (int64_t)u;
  if (fd->is_signed && total < 64 && (u >> (total - 1) & 1))
    v = (int64_t)(u | ~((UINT64_C(1) << total) - 1));
  v = (int64_t)((uint64_t)v << fd->shift);
  (void)f;
  switch (fd->kind) {
  case SASS_K_R:
    if (v == 255) emit(o, "Z"); else emit(o, "%" PRId64, v);
    return;
  case SASS_K_UR:
    if (v == 63) emit(o, "Z"); else emit(o, "%" PRId64, v);
    return;
  case SASS_K_P:
  case SASS_K_UP:
    if (v == 7) emit(o, "T"); else emit(o, "%" PRId64, v);
    return;
  case SASS_K_B:
  case SASS_K_SB:
    emit(o, "%" PRId64, v);
    return;
  case SASS_K_L: {
    uint64_t target = addr + 16 + (uint64_t)v;
    const char *n = name ? name(ctx, target) : NULL;
    if (n) emit(o, "%s", n); else emit(o, ".L_%" PRIx64, target);
    return;
  }
  }
  switch (fd->how) {
  case SASS_H_INT:
    if (v < 0)
      emit(o, "-0x%" PRIx64, (uint64_t)-v);
    else
      emit(o, "0x%" PRIx64, (uint64_t)v);
    return;
  case SASS_H_F32: {
    uint32_t b = (uint32_t)u;
    float fl;
    memcpy(&fl, &b, 4);
    emit_float(o, fl, isnan(fl), b >> 31, b >> 22 & 1);
    return;
  }
  case SASS_H_F64H: {
    uint64_t b = u << 32;
    double d;
    memcpy(&d, &b, 8);
    emit_float(o, d, isnan(d), (int)(b >> 63), (int)(b >> 51 & 1));
    return;
  }
  case SASS_H_F16: {
    double d = f16_value((uint16_t)u);
    emit_float(o, d, isnan(d), (int)(u >> 15 & 1), (int)(u >> 9 & 1));
    return;
  }
  default: {
    uint32_t b = (uint32_t)u << 16;
    float fl;
    memcpy(&fl, &b, 4);
    emit_float(o, fl, isnan(fl), b >> 31, b >> 22 & 1);
    return;
  }
  }
}

const sass_form *sass_match_form(const sass_isa *isa, const uint64_t w[2])
{
  unsigned opc = (unsigned)(w[0] & 0xfff);
  /* The most specific matching form; among aliases (same fixed bits) the one whose never-varying operands
   * match this word, as nvdisasm chooses IMAD.MOV or IMAD.IADD by operand values. */
  const sass_form *f = NULL;
  int best_fix = -1, best_const = -1, best_fit = -1;
  for (uint32_t i = isa->opc_start[opc]; i < isa->opc_start[opc + 1]; i++) {
    const sass_form *c = &isa->forms[isa->by_opc[i]];
    if ((w[0] & c->fixmask[0]) != c->base[0] || (w[1] & c->fixmask[1]) != c->base[1])
      continue;
    int ok = 1, fit = 0;
    for (int k = 0; k < c->nfields; k++) {
      const sass_field *fd = &c->fields[k];
      uint64_t u = 0;
      for (int sg = 0; sg < fd->nseg; sg++)
        u |= get_bits(w, fd->seg[sg].pos, fd->seg[sg].width) << fd->seg[sg].vlo;
      fit += fd->need >= 64 || (fd->need > 0 && (u >> fd->need) == 0) || u == 0;
    }
    for (int k = 0; k < c->nfields && ok; k++) {
      const sass_field *fd = &c->fields[k];
      if (!(c->const_mask >> fd->idx & 1))
        continue;
      uint64_t u = 0;
      for (int sg = 0; sg < fd->nseg; sg++)
        u |= get_bits(w, fd->seg[sg].pos, fd->seg[sg].width) << fd->seg[sg].vlo;
      ok = u == c->const_val[fd->idx];
    }
    int score = ok ? c->nconst : -1;
    fit -= c->nfields; /* 0 when every value fits the widths the corpus showed */
    /* order: values fit the corpus widths, seen in the corpus, constant operands agree, most fixed bits, most
     * constant operands */
    int better = !f || fit > best_fit;
    if (!better && fit == best_fit && (c->count > 0) != (f->count > 0))
      better = c->count > 0; /* a form seen in the corpus before one composed by the learner */
    else if (!better && fit == best_fit) {
      int okc = score >= 0, okb = best_const >= 0;
      better = okc > okb || (okc == okb && (c->fixbits > best_fix || (c->fixbits == best_fix && (score > best_const ||
               (score == best_const && c->count > f->count)))));
    }
    if (better)
      f = c, best_fix = c->fixbits, best_const = score, best_fit = fit;
  }
  return f;
}

int sass_disasm_word(const sass_isa *isa, const uint64_t w[2], uint64_t addr, int with_ctl, sass_name_fn name,
                     void *name_ctx, char *buf, size_t cap)
{
  out_buf o = {buf, cap};
  if (cap)
    buf[0] = 0;
  unsigned opc = (unsigned)(w[0] & 0xfff);
  const sass_form *f = sass_match_form(isa, w);
  if (!f) {
    emit(&o, "?? opcode 0x%03x: no known sm_%d form matches 0x%016" PRIx64 " 0x%016" PRIx64, opc, isa->sm, w[0], w[1]);
    return -1;
  }
  if (with_ctl) {
    unsigned wait = (unsigned)(w[1] >> (116 - 64) & 0x3f), rb = (unsigned)(w[1] >> (113 - 64) & 7);
    unsigned wb = (unsigned)(w[1] >> (110 - 64) & 7), y = (unsigned)(w[1] >> (109 - 64) & 1);
    unsigned st = (unsigned)(w[1] >> (105 - 64) & 15);
    char b[7];
    for (int k = 0; k < 6; k++)
      b[k] = wait >> k & 1 ? (char)('0' + k) : '-';
    b[6] = 0;
    char r[2] = {rb == 7 ? '-' : (char)('0' + rb), 0}, wr[2] = {wb == 7 ? '-' : (char)('0' + wb), 0};
    emit(&o, "[B%s:R%s:W%s:%s:S%02u] ", b, r, wr, y ? "-" : "Y", st);
  }
  unsigned g = (unsigned)(w[0] >> 12 & 0xf);
  if (g != 7)
    emit(&o, "@%s%sP%c ", g & 8 ? "!" : "", f->guard_up ? "U" : "", (g & 7) == 7 ? 'T' : (char)('0' + (g & 7)));
  emit(&o, "%s", f->mnem);
  unsigned reuse = (unsigned)(w[1] >> (122 - 64) & 0xf);
  int idx = 0;
  for (const char *s = f->skel; *s; s++) {
    if (*s != '%') {
      char c[2] = {*s, 0};
      emit(&o, "%s", c);
      continue;
    }
    const sass_field *fd = NULL;
    for (int k = 0; k < f->nfields; k++)
      if (f->fields[k].idx == idx)
        fd = &f->fields[k];
    if (fd)
      emit_value(&o, f, fd, w, addr, name, name_ctx);
    if (f->reuse[idx] >= 0 && (reuse >> f->reuse[idx] & 1) && (fd->kind == SASS_K_R || fd->kind == SASS_K_UR)) {
      /* .reuse follows the register, before any .H0_H0-style suffix but after a closing '|' */
      const char *s2 = s + 1;
      while (*s2 == '|')
        s2++;
      if (s2 != s + 1) {
        emit(&o, "%.*s", (int)(s2 - s - 1), s + 1);
        s = s2 - 1;
      }
      emit(&o, ".reuse");
    }
    idx++;
  }
  /* nvdisasm writes `X;` instead of `X ;` exactly when bits 105-121 are 0x7e0 (stall 0, yield bit 0, no
   * scoreboards, no waits): 1473 of 1473 such instructions in the corpus, and no other */
  emit(&o, (w[1] >> (105 - 64) & 0x1ffff) == 0x7e0 ? ";" : " ;");
  return 0;
}
