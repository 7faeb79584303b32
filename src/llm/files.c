/* The `files` backend: answers produced elsewhere. Either a directory holding <task>.<sample>.txt (or
 * <task>.txt / <task>.ptx for sample 0), or a JSONL file of {"task", "sample", "answer"} objects. */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/util.h"
#include "../extract/extract.h"
#include "backend.h"

/* one JSONL row's key, sorted for lookup: a corpus repair run asks for tens of thousands of answers, and a scan
 * of every row per answer made that quadratic */
typedef struct {
  const char *task;
  int sample, turn;
  size_t order; /* the row's place in the file: the first of equal keys is the one answered */
  json_t *row;
} files_key;

typedef struct {
  char path[1024];
  int is_dir;
  json_t *rows; /* JSONL: array of objects */
  files_key *keys;
  size_t nkeys;
} files_state;

static int key_cmp(const void *a, const void *b) {
  const files_key *x = a, *y = b;
  int c = strcmp(x->task, y->task);
  if (c) return c;
  if (x->sample != y->sample) return x->sample < y->sample ? -1 : 1;
  return x->turn < y->turn ? -1 : x->turn > y->turn;
}

static int key_cmp_stable(const void *a, const void *b) {
  int c = key_cmp(a, b);
  if (c) return c;
  size_t x = ((const files_key *)a)->order, y = ((const files_key *)b)->order;
  return x < y ? -1 : x > y;
}

static int files_generate(gasp_backend *b, const gasp_target *t, const gasp_task *task, const char *prompt,
                          const gasp_gen_params *p, int sample, gasp_answer *out, gasp_diags *d) {
  (void)t; (void)prompt;
  files_state *s = b->state;
  memset(out, 0, sizeof *out);
  if (s->is_dir) {
    /* repair turns: <task>.<sample>.t<turn>.txt */
    const char *patterns[] = {"%s/%s.%d.txt", "%s/%s.%d.ptx", "%s/%s.txt", "%s/%s.ptx", NULL};
    for (int i = 0; patterns[i]; i++) {
      if (i >= 2 && (sample != 0 || p->turn)) break;
      char f[1400];
      if (p->turn) {
        if (i > 0) break;
        snprintf(f, sizeof f, "%s/%s.%d.t%d.txt", s->path, task->id, sample, p->turn);
      } else {
        snprintf(f, sizeof f, patterns[i], s->path, task->id, sample);
      }
      /* at most one byte past the answer limit, so an oversized answer reaches extraction as such */
      FILE *fp = fopen(f, "rb");
      if (!fp) continue;
      out->text = malloc(GASP_MAX_ANSWER_BYTES + 2);
      out->len = fread(out->text, 1, GASP_MAX_ANSWER_BYTES + 1, fp);
      out->text[out->len] = 0;
      fclose(fp);
      return 0;
    }
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "no answer file for task '%s' sample %d turn %d in '%s'",
                   task->id, sample, p->turn, s->path);
    return -1;
  }
  /* the first row of the key, as the scan found it before */
  files_key want = {task->id, sample, p->turn, 0, NULL};
  files_key *k = bsearch(&want, s->keys, s->nkeys, sizeof *s->keys, key_cmp);
  while (k && k > s->keys && !key_cmp(k - 1, &want)) k--;
  if (k) {
    json_t *a = json_object_get(k->row, "answer");
    size_t n = json_string_length(a);
    out->text = malloc(n + 1);
    memcpy(out->text, json_string_value(a), n);
    out->text[n] = 0;
    out->len = n;
    return 0;
  }
  gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "no answer for task '%s' sample %d in '%s'", task->id,
                 sample, s->path);
  return -1;
}

static void files_close(gasp_backend *b) {
  files_state *s = b->state;
  if (s) json_decref(s->rows), free(s->keys);
  free(s);
}

gasp_backend *gasp_backend_files_open(const gasp_backend_opts *o, char *err, size_t cap) {
  if (!o || !o->answers) {
    snprintf(err, cap, "the files backend needs --answers DIR or --answers FILE.jsonl");
    return NULL;
  }
  struct stat st;
  if (stat(o->answers, &st)) {
    snprintf(err, cap, "cannot open answers '%s'", o->answers);
    return NULL;
  }
  files_state *s = calloc(1, sizeof *s);
  gasp_strlcpy(s->path, o->answers, sizeof s->path);
  s->is_dir = S_ISDIR(st.st_mode);
  if (!s->is_dir) {
    FILE *f = fopen(o->answers, "r");
    s->rows = json_array();
    char *line = NULL;
    size_t lcap = 0;
    ssize_t n;
    int lineno = 0;
    while (f && (n = getline(&line, &lcap, f)) > 0) {
      lineno++;
      if (n <= 1) continue;
      json_error_t je;
      json_t *row = json_loads(line, JSON_ALLOW_NUL, &je);
      if (!row || !json_is_object(row)) {
        snprintf(err, cap, "%s:%d:%d: not a JSON object: %s", o->answers, lineno, je.column, je.text);
        json_decref(row);
        free(line);
        fclose(f);
        json_decref(s->rows);
        free(s);
        return NULL;
      }
      json_array_append_new(s->rows, row);
    }
    free(line);
    if (f) fclose(f);
    /* rows with a task and an answer, keyed; equal keys stay in file order */
    s->keys = calloc(json_array_size(s->rows) + 1, sizeof *s->keys);
    size_t i;
    json_t *row;
    json_array_foreach(s->rows, i, row) {
      const char *id = json_string_value(json_object_get(row, "task"));
      if (!id || !json_is_string(json_object_get(row, "answer"))) continue;
      json_t *smp = json_object_get(row, "sample");
      s->keys[s->nkeys] = (files_key){id, smp ? (int)json_integer_value(smp) : 0,
                                      (int)json_integer_value(json_object_get(row, "turn")), s->nkeys, row};
      s->nkeys++;
    }
    qsort(s->keys, s->nkeys, sizeof *s->keys, key_cmp_stable);
  }
  gasp_backend *b = calloc(1, sizeof *b);
  b->name = "files";
  const char *base = strrchr(o->answers, '/');
  gasp_strlcpy(b->model, base && base[1] ? base + 1 : o->answers, sizeof b->model);
  b->state = s;
  b->generate = files_generate;
  b->close = files_close;
  return b;
}
