/* tune's harvest (see tune.h). Answers are untrusted model output: they go into JSON through jansson only. */
#define _GNU_SOURCE
#include "tune.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../core/util.h"
#include "../prompt/prompt.h"

static int seen_add(gasp_tune_seen *s, uint64_t h) {
  for (size_t i = 0; i < s->n; i++)
    if (s->seen[i] == h) return 0;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 256;
    s->seen = realloc(s->seen, s->cap * sizeof *s->seen);
  }
  s->seen[s->n++] = h;
  return 1;
}

void gasp_tune_seen_free(gasp_tune_seen *s) {
  free(s->seen);
  memset(s, 0, sizeof *s);
}

int gasp_tune_harvest_pairs(const char *results, const gasp_taskset *ts, const gasp_target *t, int round,
                            FILE *pairs_out, gasp_tune_seen *seen, gasp_tune_harvest *h, char *err, size_t cap) {
  memset(h, 0, sizeof *h);
  FILE *f = fopen(results, "r");
  if (!f) {
    snprintf(err, cap, "cannot read '%s': %s", results, strerror(errno));
    return -1;
  }
  char *line = NULL;
  size_t lcap = 0;
  ssize_t got;
  while ((got = getline(&line, &lcap, f)) > 0) {
    json_t *r = json_loadb(line, (size_t)got, 0, NULL);
    const char *task_id = json_string_value(json_object_get(r, "task"));
    const char *target = json_string_value(json_object_get(r, "target"));
    const char *variant = json_string_value(json_object_get(r, "variant"));
    json_t *answer = json_object_get(r, "answer");
    if (!json_is_object(r) || !task_id || !target || strcmp(target, t->name) ||
        json_integer_value(json_object_get(r, "turn")) != 0) {
      json_decref(r);
      continue;
    }
    h->records++;
    if (!json_is_true(json_object_get(r, "pass")) || !json_is_string(answer)) {
      json_decref(r);
      continue;
    }
    h->passed++;
    const gasp_task *task = gasp_taskset_find(ts, task_id);
    char *prompt = task ? gasp_prompt_build(t, task, variant ? variant : GASP_VARIANT_DEFAULT) : NULL;
    uint64_t hash = gasp_fnv1a(task_id, strlen(task_id), GASP_FNV_SEED);
    hash = gasp_fnv1a(json_string_value(answer), json_string_length(answer), hash);
    if (prompt && seen_add(seen, hash)) {
      json_t *p = json_pack("{s:s, s:s, s:i, s:s, s:s, s:O, s:i, s:I}", "task", task_id, "family", "tune", "level",
                            task->level, "target", t->name, "prompt", prompt, "completion", answer, "round", round,
                            "sample", json_integer_value(json_object_get(r, "sample")));
      char *s = p ? json_dumps(p, JSON_COMPACT) : NULL;
      if (s) {
        fprintf(pairs_out, "%s\n", s);
        h->kept++;
      }
      free(s);
      json_decref(p);
    }
    free(prompt);
    json_decref(r);
  }
  free(line);
  fclose(f);
  if (ferror(pairs_out)) {
    snprintf(err, cap, "cannot write the pairs file (disk full?)");
    return -1;
  }
  return 0;
}
