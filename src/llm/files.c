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

typedef struct {
  char path[1024];
  int is_dir;
  json_t *rows; /* JSONL: array of objects */
} files_state;

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
  size_t i;
  json_t *row;
  json_array_foreach(s->rows, i, row) {
    const char *id = json_string_value(json_object_get(row, "task"));
    json_t *smp = json_object_get(row, "sample");
    int sm = smp ? (int)json_integer_value(smp) : 0;
    if ((int)json_integer_value(json_object_get(row, "turn")) != p->turn) continue;
    const char *ans = json_string_value(json_object_get(row, "answer"));
    if (id && ans && !strcmp(id, task->id) && sm == sample) {
      size_t n = json_string_length(json_object_get(row, "answer"));
      out->text = malloc(n + 1);
      memcpy(out->text, ans, n);
      out->text[n] = 0;
      out->len = n;
      return 0;
    }
  }
  gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "no answer for task '%s' sample %d in '%s'", task->id,
                 sample, s->path);
  return -1;
}

static void files_close(gasp_backend *b) {
  files_state *s = b->state;
  if (s) json_decref(s->rows);
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
