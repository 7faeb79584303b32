/* Extraction of assembly from answers: fences first, then code-looking lines. */
#include "extract.h"

#include <stdlib.h>
#include <string.h>

#include "../core/util.h"

typedef struct {
  const char *start;
  size_t len;
} line_t;

static int split_lines(const char *s, size_t n, line_t **out) {
  int cap = 64, cnt = 0;
  line_t *v = malloc((size_t)cap * sizeof *v);
  size_t i = 0;
  while (i <= n) {
    size_t j = i;
    while (j < n && s[j] != '\n') j++;
    if (cnt == cap) {
      cap *= 2;
      v = realloc(v, (size_t)cap * sizeof *v);
    }
    size_t len = j - i;
    if (len && s[i + len - 1] == '\r') len--;
    v[cnt].start = s + i;
    v[cnt].len = len;
    cnt++;
    if (j >= n) break;
    i = j + 1;
  }
  *out = v;
  return cnt;
}

static int is_fence(const line_t *l, const char **tag, size_t *taglen) {
  size_t i = 0;
  while (i < l->len && (l->start[i] == ' ' || l->start[i] == '\t')) i++;
  if (i + 3 > l->len) return 0;
  if (strncmp(l->start + i, "```", 3) && strncmp(l->start + i, "~~~", 3)) return 0;
  i += 3;
  while (i < l->len && (l->start[i] == '`' || l->start[i] == '~')) i++;
  while (i < l->len && l->start[i] == ' ') i++;
  *tag = l->start + i;
  size_t k = i;
  while (k < l->len && l->start[k] != ' ' && l->start[k] != '{') k++;
  *taglen = k - i;
  return 1;
}

static int tag_matches(const char *tags, const char *tag, size_t n) {
  if (!n || !tags) return 0;
  const char *p = tags;
  while (*p) {
    size_t k = strcspn(p, " ");
    if (k == n && !strncasecmp(p, tag, n)) return 1;
    p += k;
    while (*p == ' ') p++;
  }
  return 0;
}

static char *join(const line_t *v, int from, int to) {
  gasp_str s;
  gasp_str_init(&s);
  gasp_str_append(&s, "", 0);
  for (int i = from; i < to; i++) {
    gasp_str_append(&s, v[i].start, v[i].len);
    gasp_str_append(&s, "\n", 1);
  }
  return gasp_str_take(&s);
}

int gasp_extract(const char *answer, size_t len, const gasp_target *t, gasp_extracted *out, gasp_diags *d) {
  memset(out, 0, sizeof *out);
  if (len > GASP_MAX_ANSWER_BYTES) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_EXTRACT, 0, 0, "answer is %zu bytes, more than the %u allowed", len,
                   GASP_MAX_ANSWER_BYTES);
    return -1;
  }
  const char *nul = memchr(answer, 0, len);
  if (nul) {
    int line = 1, col = 1;
    for (const char *c = answer; c < nul; c++) {
      if (*c == '\n') { line++; col = 1; } else col++;
    }
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_EXTRACT, line, col, "answer contains a NUL byte: not text");
    return -1;
  }
  line_t *v;
  int n = split_lines(answer, len, &v);
  /* fenced blocks */
  int best_from = -1, best_to = -1;
  long best_score = -1;
  for (int i = 0; i < n; i++) {
    const char *tag;
    size_t taglen;
    if (!is_fence(&v[i], &tag, &taglen)) continue;
    int j = i + 1;
    const char *t2;
    size_t l2;
    while (j < n && !is_fence(&v[j], &t2, &l2)) j++;
    long score = 0, code_lines = 0;
    for (int k = i + 1; k < j; k++) code_lines += t->looks_like_code(v[k].start, v[k].len) ? 1 : 0;
    if (code_lines) {
      score = code_lines + (tag_matches(t->fence_tags, tag, taglen) ? 100000 : 0);
      if (score > best_score) {
        best_score = score;
        best_from = i + 1;
        best_to = j;
      }
    }
    i = j; /* skip past the closing fence */
  }
  if (best_from >= 0) {
    out->code = join(v, best_from, best_to);
    out->first_line = best_from + 1;
    out->from_fence = 1;
    free(v);
    return 0;
  }
  /* bare code, possibly between prose: first to last code-looking line */
  int first = -1, last = -1;
  for (int i = 0; i < n; i++)
    if (t->looks_like_code(v[i].start, v[i].len)) {
      if (first < 0) first = i;
      last = i;
    }
  if (first >= 0) {
    out->code = join(v, first, last + 1);
    out->first_line = first + 1;
    free(v);
    return 0;
  }
  free(v);
  gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_EXTRACT, 0, 0, "no %s code found in the answer", t->isa);
  return -1;
}

void gasp_extracted_free(gasp_extracted *e) {
  free(e->code);
  memset(e, 0, sizeof *e);
}
