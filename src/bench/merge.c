/* Merging results files: parse keys with jansson, sort, keep one record per key, report the rest. */
#define _GNU_SOURCE
#include "merge.h"

#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "results.h"

typedef struct {
  char *line;
  size_t len;
  const char *src;
  size_t seq; /* input order: the first of equal keys wins */
  char task[64], target[32], backend[32], model[128], variant[48];
  long long seed;
  int sample, turn, infra, order, grammar;
} mrec;

struct gasp_merge {
  mrec *r;
  size_t n, cap;
  size_t inputs, lines, bad_lines;
  const gasp_taskset *suite;
  const char *exp_target;
  const char *const *exp_ids;
  int exp_n, exp_samples;
};

void gasp_merge_expect(gasp_merge *m, const char *target, const char *const *ids, int n, int samples) {
  m->exp_target = target;
  m->exp_ids = ids;
  m->exp_n = n;
  m->exp_samples = samples;
}

gasp_merge *gasp_merge_new(void) { return calloc(1, sizeof(gasp_merge)); }

void gasp_merge_free(gasp_merge *m) {
  if (!m) return;
  for (size_t i = 0; i < m->n; i++) free(m->r[i].line);
  free(m->r);
  free(m);
}

void gasp_merge_set_suite(gasp_merge *m, const gasp_taskset *ts) { m->suite = ts; }

static void get_str(json_t *o, const char *k, char *dst, size_t cap) {
  const char *s = json_string_value(json_object_get(o, k));
  gasp_strlcpy(dst, s ? s : "", cap);
}

int gasp_merge_add(gasp_merge *m, const char *name, const char *data, size_t len) {
  m->inputs++;
  const char *p = data, *end = data + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    size_t ll = (size_t)(e - p);
    if (ll) {
      m->lines++;
      json_error_t je;
      json_t *o = json_loadb(p, ll, JSON_ALLOW_NUL, &je);
      /* a record has at least the key fields and a class */
      if (!o || !json_is_object(o) || !json_is_string(json_object_get(o, "task")) ||
          !json_is_string(json_object_get(o, "class")) || !json_is_integer(json_object_get(o, "sample"))) {
        m->bad_lines++;
      } else {
        if (m->n == m->cap) {
          size_t nc = m->cap ? m->cap * 2 : 1024;
          mrec *nr = realloc(m->r, nc * sizeof *nr);
          if (!nr) {
            json_decref(o);
            return -1;
          }
          m->r = nr;
          m->cap = nc;
        }
        mrec *r = &m->r[m->n];
        memset(r, 0, sizeof *r);
        r->line = malloc(ll + 1);
        if (!r->line) {
          json_decref(o);
          return -1;
        }
        memcpy(r->line, p, ll);
        r->line[ll] = 0;
        r->len = ll;
        r->src = name;
        r->seq = m->n;
        get_str(o, "task", r->task, sizeof r->task);
        get_str(o, "target", r->target, sizeof r->target);
        get_str(o, "backend", r->backend, sizeof r->backend);
        get_str(o, "model", r->model, sizeof r->model);
        get_str(o, "variant", r->variant, sizeof r->variant);
        r->seed = (long long)json_integer_value(json_object_get(o, "seed"));
        r->sample = (int)json_integer_value(json_object_get(o, "sample"));
        r->turn = (int)json_integer_value(json_object_get(o, "turn"));
        r->infra = json_is_true(json_object_get(o, "infra_error"));
        r->grammar = gasp_record_grammar_of(o);
        m->n++;
      }
      json_decref(o);
    }
    p = nl ? nl + 1 : end;
  }
  return 0;
}

int gasp_merge_add_file(gasp_merge *m, const char *path, char *err, size_t errcap) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errcap, "cannot read '%s'", path);
    return -1;
  }
  gasp_str s;
  gasp_str_init(&s);
  char buf[1 << 16];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) gasp_str_append(&s, buf, k);
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    gasp_str_free(&s);
    snprintf(err, errcap, "error reading '%s'", path);
    return -1;
  }
  int rc = gasp_merge_add(m, path, s.data ? s.data : "", s.len);
  gasp_str_free(&s);
  if (rc) snprintf(err, errcap, "out of memory reading '%s'", path);
  return rc;
}

/* Group key without task and sample: records of one configuration. */
static int cmp_group(const mrec *a, const mrec *b) {
  int c;
  if ((c = strcmp(a->target, b->target))) return c;
  if ((c = strcmp(a->backend, b->backend))) return c;
  if ((c = strcmp(a->model, b->model))) return c;
  if ((c = strcmp(a->variant, b->variant))) return c;
  if (a->grammar != b->grammar) return a->grammar < b->grammar ? -1 : 1;
  return a->seed < b->seed ? -1 : a->seed > b->seed;
}

static int cmp_key(const void *pa, const void *pb) {
  const mrec *a = pa, *b = pb;
  int c;
  if (a->order != b->order) return a->order < b->order ? -1 : 1;
  if ((c = strcmp(a->task, b->task))) return c;
  if ((c = cmp_group(a, b))) return c;
  if (a->sample != b->sample) return a->sample < b->sample ? -1 : 1;
  if (a->turn != b->turn) return a->turn < b->turn ? -1 : 1;
  return 0;
}

static int cmp_key_seq(const void *pa, const void *pb) {
  int c = cmp_key(pa, pb);
  if (c) return c;
  const mrec *a = pa, *b = pb;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* For the missing-work grid: group, task, sample. */
static int cmp_grid(const void *pa, const void *pb) {
  const mrec *a = *(const mrec *const *)pa, *b = *(const mrec *const *)pb;
  int c;
  if ((c = cmp_group(a, b))) return c;
  if (a->order != b->order) return a->order < b->order ? -1 : 1;
  if ((c = strcmp(a->task, b->task))) return c;
  return a->sample < b->sample ? -1 : a->sample > b->sample;
}

/* What a candidate is, without what varies from run to run (timings, the machine, the version). */
static json_t *content(const mrec *r) {
  json_t *o = json_loadb(r->line, r->len, JSON_ALLOW_NUL, NULL);
  static const char *const volatile_keys[] = {"timings", "speedup", "slow", "tokens_per_s", "device", "gasp_version",
                                              "suspicious"};
  for (size_t i = 0; o && i < sizeof volatile_keys / sizeof volatile_keys[0]; i++) json_object_del(o, volatile_keys[i]);
  return o;
}

static int same_content(const mrec *a, const mrec *b) {
  if (a->len == b->len && !memcmp(a->line, b->line, a->len)) return 1;
  json_t *x = content(a), *y = content(b);
  int eq = x && y && json_equal(x, y);
  json_decref(x);
  json_decref(y);
  return eq;
}

int gasp_merge_write(gasp_merge *m, FILE *out, gasp_merge_report *rep, gasp_diags *d) {
  memset(rep, 0, sizeof *rep);
  rep->inputs = m->inputs;
  rep->lines = m->lines;
  rep->bad_lines = m->bad_lines;
  for (size_t i = 0; i < m->n; i++) {
    mrec *r = &m->r[i];
    r->order = INT_MAX;
    if (m->suite)
      for (size_t t = 0; t < m->suite->count; t++)
        if (!strcmp(m->suite->items[t].id, r->task)) {
          r->order = (int)t;
          break;
        }
  }
  if (m->n) qsort(m->r, m->n, sizeof *m->r, cmp_key_seq);
  const mrec **kept = calloc(m->n ? m->n : 1, sizeof *kept);
  size_t nkept = 0;
  int rc = 0;
  size_t conflicts_shown = 0;
  for (size_t i = 0; i < m->n;) {
    size_t j = i + 1;
    while (j < m->n && !cmp_key(&m->r[i], &m->r[j])) j++;
    /* the first real record of the key wins; infra errors only when there is nothing else (resume redoes them) */
    size_t win = i;
    for (size_t k = i; k < j; k++)
      if (!m->r[k].infra) {
        win = k;
        break;
      }
    const mrec *w = &m->r[win];
    for (size_t k = i; k < j; k++) {
      if (k == win) continue;
      const mrec *o = &m->r[k];
      if (o->infra && !w->infra) rep->superseded++;
      else if (same_content(w, o)) rep->duplicates++;
      else {
        rep->conflicts++;
        if (conflicts_shown++ < 20)
          gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0,
                         "conflict: %s sample %d turn %d (%s, %s, %s, %s, seed %lld) differs between '%s' and '%s'; "
                         "kept the one from '%s'",
                         w->task, w->sample, w->turn, w->target, w->backend, w->model, w->variant, w->seed, w->src,
                         o->src, w->src);
      }
    }
    kept[nkept++] = w;
    if (fprintf(out, "%s\n", w->line) < 0) rc = -1;
    i = j;
  }
  if (fflush(out)) rc = -1;
  rep->written = nkept;
  /* the grid each configuration implies: every task it holds, samples 0 .. its largest */
  const mrec **g = calloc(nkept ? nkept : 1, sizeof *g);
  size_t ng = 0, shown = 0;
  for (size_t i = 0; i < nkept; i++)
    if (kept[i]->turn == 0) g[ng++] = kept[i];
  if (ng) qsort(g, ng, sizeof *g, cmp_grid);
  if (m->exp_target) {
    /* the grid the run was asked for, per configuration of the target */
    int any = 0;
    unsigned char *have = calloc((size_t)m->exp_n * (size_t)m->exp_samples + 1, 1);
    for (size_t i = 0; have && i < ng;) {
      size_t j = i + 1;
      while (j < ng && !cmp_group(g[i], g[j])) j++;
      if (!strcmp(g[i]->target, m->exp_target)) {
        any = 1;
        memset(have, 0, (size_t)m->exp_n * (size_t)m->exp_samples);
        for (size_t a = i; a < j; a++)
          for (int t = 0; t < m->exp_n; t++)
            if (!strcmp(m->exp_ids[t], g[a]->task)) {
              if (g[a]->sample >= 0 && g[a]->sample < m->exp_samples) have[t * m->exp_samples + g[a]->sample] = 1;
              break;
            }
        for (int t = 0; t < m->exp_n; t++)
          for (int smp = 0; smp < m->exp_samples; smp++)
            if (!have[t * m->exp_samples + smp]) {
              rep->missing++;
              if (shown++ < 20)
                gasp_diags_add(d, GASP_SEV_WARNING, GASP_CLASS_ERROR, 0, 0, "missing: %s sample %d (%s, %s, %s, %s, seed %lld)",
                               m->exp_ids[t], smp, g[i]->target, g[i]->backend, g[i]->model, g[i]->variant, g[i]->seed);
            }
      }
      i = j;
    }
    if (!any) {
      rep->missing += (size_t)m->exp_n * (size_t)m->exp_samples;
      gasp_diags_add(d, GASP_SEV_WARNING, GASP_CLASS_ERROR, 0, 0, "missing: no record at all for target %s", m->exp_target);
    }
    free(have);
    ng = 0; /* the implied grid below is not needed */
  }
  for (size_t i = 0; i < ng;) {
    size_t j = i + 1;
    int maxs = g[i]->sample;
    while (j < ng && !cmp_group(g[i], g[j])) {
      if (g[j]->sample > maxs) maxs = g[j]->sample;
      j++;
    }
    for (size_t a = i; a < j;) {
      size_t b = a;
      int want = 0;
      while (b < j && !strcmp(g[a]->task, g[b]->task)) {
        for (; want < g[b]->sample; want++) {
          rep->missing++;
          if (shown++ < 20)
            gasp_diags_add(d, GASP_SEV_WARNING, GASP_CLASS_ERROR, 0, 0, "missing: %s sample %d (%s, %s, %s, %s, seed %lld)",
                           g[a]->task, want, g[a]->target, g[a]->backend, g[a]->model, g[a]->variant, g[a]->seed);
        }
        want = g[b]->sample + 1;
        b++;
      }
      for (; want <= maxs; want++) {
        rep->missing++;
        if (shown++ < 20)
          gasp_diags_add(d, GASP_SEV_WARNING, GASP_CLASS_ERROR, 0, 0, "missing: %s sample %d (%s, %s, %s, %s, seed %lld)",
                         g[a]->task, want, g[a]->target, g[a]->backend, g[a]->model, g[a]->variant, g[a]->seed);
      }
      a = b;
    }
    i = j;
  }
  free(g);
  free(kept);
  return rc;
}
