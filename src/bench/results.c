/* JSONL results through jansson. */
#define _GNU_SOURCE
#include "results.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/util.h"

/* Answers are untrusted bytes: keep them exactly when they are UTF-8 (NUL included, as \u0000), else
 * replace each invalid byte with U+FFFD so the record stays valid JSON. */
static json_t *text_value(const char *p, size_t len) {
  if (!p) return json_string("");
  if (!len) len = strlen(p);
  json_t *j = json_stringn(p, len);
  if (j) return j;
  gasp_str s;
  gasp_str_init(&s);
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)p[i];
    if (c < 0x80) gasp_str_append(&s, p + i, 1);
    else gasp_str_puts(&s, "\xEF\xBF\xBD");
  }
  j = json_stringn(s.data ? s.data : "", s.len);
  gasp_str_free(&s);
  return j ? j : json_string("");
}

static json_t *num_or_null(double v, int have) { return have ? json_real(v) : json_null(); }

int gasp_record_grammar_of(const json_t *o) {
  if (!json_is_true(json_object_get(o, "grammar"))) return 0;
  return json_is_true(json_object_get(o, "monitor")) ? 2 : 1;
}

char *gasp_record_to_json(const gasp_record *r) {
  json_t *o = json_object();
  json_object_set_new(o, "task", text_value(r->task, 0));
  json_object_set_new(o, "level", json_integer(r->level));
  json_object_set_new(o, "target", text_value(r->target, 0));
  json_object_set_new(o, "backend", text_value(r->backend, 0));
  json_object_set_new(o, "model", text_value(r->model, 0));
  json_object_set_new(o, "variant", text_value(r->variant, 0));
  json_object_set_new(o, "sample", json_integer(r->sample));
  json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
  json_object_set_new(o, "turn", json_integer(r->turn));
  json_object_set_new(o, "stage", json_string(gasp_stage_name(r->stage)));
  json_object_set_new(o, "class", json_string(gasp_class_name(r->cls)));
  json_object_set_new(o, "pass", json_boolean(r->cls == GASP_CLASS_PASS));
  json_object_set_new(o, "gpu_ran", json_boolean(r->gpu_ran));
  if (r->skip_reason[0]) json_object_set_new(o, "skip_reason", text_value(r->skip_reason, 0));
  if (r->infra_error) json_object_set_new(o, "infra_error", json_true());
  if (r->rewrites) json_object_set_new(o, "rewrites", json_integer(r->rewrites));
  json_t *ds = json_array();
  for (size_t i = 0; i < r->diags.count; i++) {
    const gasp_diag *g = &r->diags.items[i];
    static const char *const sev[] = {"error", "warning", "note"};
    json_t *d = json_object();
    json_object_set_new(d, "severity", json_string(sev[g->sev]));
    json_object_set_new(d, "class", json_string(gasp_class_name(g->cls)));
    json_object_set_new(d, "line", json_integer(g->line));
    json_object_set_new(d, "col", json_integer(g->col));
    json_object_set_new(d, "message", text_value(g->msg, 0));
    json_array_append_new(ds, d);
  }
  json_object_set_new(o, "diagnostics", ds);
  const gasp_verdict *v = &r->verdict;
  if (v->detail[0]) json_object_set_new(o, "detail", text_value(v->detail, 0));
  if (v->has_mismatch) {
    json_t *m = json_object();
    json_object_set_new(m, "param", text_value(v->param, 0));
    json_object_set_new(m, "index", json_integer(v->index));
    json_object_set_new(m, "expected", json_string(v->expected));
    json_object_set_new(m, "got", json_string(v->got));
    json_object_set_new(m, "wrong_elements", json_integer(v->bad_elements));
    json_object_set_new(m, "unwritten_elements", json_integer(v->unwritten_elements));
    json_object_set_new(o, "first_mismatch", m);
  }
  if (v->cuda_error) json_object_set_new(o, "cuda_error", json_integer(v->cuda_error));
  if (r->gpu_ran) json_object_set_new(o, "trials", json_integer(v->trials_run));
  if (v->regs > 0) json_object_set_new(o, "regs", json_integer(v->regs));
  json_t *t = json_object();
  json_object_set_new(t, "generate_s", json_real(r->t_generate_s));
  json_object_set_new(t, "check_s", json_real(r->t_check_s));
  json_object_set_new(t, "run_s", json_real(r->t_run_s));
  json_object_set_new(t, "kernel_median_ms", num_or_null(v->kernel_ms, v->kernel_ms > 0));
  json_object_set_new(t, "reference_median_ms", num_or_null(v->baseline_ms, v->baseline_ms > 0));
  json_object_set_new(o, "timings", t);
  json_object_set_new(o, "speedup", num_or_null(v->speedup, v->speedup > 0));
  json_object_set_new(o, "slow", json_boolean(v->slow));
  if (v->suspicious) json_object_set_new(o, "suspicious", json_true());
  if (r->tokens) {
    json_object_set_new(o, "tokens", json_integer(r->tokens));
    json_object_set_new(o, "tokens_per_s", json_real(r->tokens_per_s));
  }
  json_object_set_new(o, "grammar", json_boolean(r->grammar));
  if (r->grammar == 2) json_object_set_new(o, "monitor", json_true());
  if (r->parsed >= 0) json_object_set_new(o, "parsed", json_boolean(r->parsed));
  if (r->truncated) json_object_set_new(o, "truncated", json_true());
  if (r->nlogprobs) {
    /* [{"token": piece, "logprob": x, "top": [[piece, x], ...]}, ...] */
    json_t *lps = json_array();
    for (int i = 0; i < r->nlogprobs; i++) {
      const gasp_tok_logprob *l = &r->logprobs[i];
      json_t *e = json_object(), *top = json_array();
      json_object_set_new(e, "token", text_value(l->chosen.piece, 0));
      json_object_set_new(e, "logprob", json_real(l->chosen.logprob));
      for (int k = 0; k < l->ntop; k++) {
        json_t *pair = json_array();
        json_array_append_new(pair, text_value(l->top[k].piece, 0));
        json_array_append_new(pair, json_real(l->top[k].logprob));
        json_array_append_new(top, pair);
      }
      json_object_set_new(e, "top", top);
      json_array_append_new(lps, e);
    }
    json_object_set_new(o, "logprobs", lps);
  }
  json_object_set_new(o, "answer", text_value(r->answer, r->answer_len));
  json_object_set_new(o, "device", r->device[0] ? text_value(r->device, 0) : json_null());
  json_object_set_new(o, "gasp_version", json_string(GASP_VERSION));
  char *s = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
  json_decref(o);
  return s;
}

int gasp_results_append(FILE *f, const gasp_record *r) {
  char *s = gasp_record_to_json(r);
  if (!s) return -1;
  int rc = fprintf(f, "%s\n", s) < 0 ? -1 : 0;
  free(s);
  if (fflush(f)) rc = -1;
  fsync(fileno(f));
  return rc;
}

static void get_str(json_t *o, const char *k, char *dst, size_t cap) {
  const char *s = json_string_value(json_object_get(o, k));
  gasp_strlcpy(dst, s ? s : "", cap);
}

int gasp_rows_load(const char *path, gasp_rows *rows, char *err, size_t errcap) {
  memset(rows, 0, sizeof *rows);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char *line = NULL;
  size_t cap = 0, alloc = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, f)) > 0) {
    if (n <= 1) continue;
    json_error_t je;
    json_t *o = json_loads(line, JSON_ALLOW_NUL, &je);
    if (!o || !json_is_object(o)) {
      rows->bad_lines++;
      json_decref(o);
      continue;
    }
    if (rows->count == alloc) {
      alloc = alloc ? alloc * 2 : 256;
      rows->rows = realloc(rows->rows, alloc * sizeof *rows->rows);
    }
    gasp_row *r = &rows->rows[rows->count++];
    memset(r, 0, sizeof *r);
    get_str(o, "task", r->task, sizeof r->task);
    get_str(o, "target", r->target, sizeof r->target);
    get_str(o, "backend", r->backend, sizeof r->backend);
    get_str(o, "model", r->model, sizeof r->model);
    get_str(o, "variant", r->variant, sizeof r->variant);
    r->level = (int)json_integer_value(json_object_get(o, "level"));
    r->sample = (int)json_integer_value(json_object_get(o, "sample"));
    r->turn = (int)json_integer_value(json_object_get(o, "turn"));
    r->stage = gasp_stage_from_name(json_string_value(json_object_get(o, "stage")));
    r->cls = gasp_class_from_name(json_string_value(json_object_get(o, "class")));
    r->slow = json_is_true(json_object_get(o, "slow"));
    r->gpu_ran = json_is_true(json_object_get(o, "gpu_ran"));
    r->speedup = json_number_value(json_object_get(o, "speedup"));
    r->seed = (uint64_t)json_integer_value(json_object_get(o, "seed"));
    r->infra_error = json_is_true(json_object_get(o, "infra_error"));
    r->rewrites = (int)json_integer_value(json_object_get(o, "rewrites"));
    r->grammar = gasp_record_grammar_of(o);
    json_t *pj = json_object_get(o, "parsed");
    r->parsed = pj ? json_is_true(pj) : -1;
    r->truncated = json_is_true(json_object_get(o, "truncated"));
    if (r->stage < 0 || r->cls < 0) {
      rows->count--;
      rows->bad_lines++;
    }
    json_decref(o);
  }
  free(line);
  int e = ferror(f);
  fclose(f);
  if (e) {
    snprintf(err, errcap, "error reading '%s'", path);
    return -1;
  }
  return 0;
}

void gasp_rows_free(gasp_rows *rows) {
  free(rows->rows);
  free(rows->index);
  memset(rows, 0, sizeof *rows);
}

static uint64_t key_hash(const char *task, const char *target, const char *backend, const char *model,
                         const char *variant, int grammar, int sample, uint64_t seed) {
  const char *parts[] = {task, target, backend, model, variant};
  uint64_t h = GASP_FNV_SEED;
  for (int i = 0; i < 5; i++) h = gasp_fnv1a(parts[i], strlen(parts[i]) + 1, h);
  h = gasp_fnv1a(&grammar, sizeof grammar, h);
  h = gasp_fnv1a(&sample, sizeof sample, h);
  return gasp_fnv1a(&seed, sizeof seed, h);
}

/* Resume asks once per candidate; a linear scan made long runs quadratic. The index holds row numbers + 1
 * (0 = empty) of rows that count (not infra_error). */
static void build_index(gasp_rows *rows) {
  size_t cap = 16;
  while (cap < rows->count * 2 + 1) cap *= 2;
  rows->index = calloc(cap, sizeof *rows->index);
  rows->index_cap = rows->index ? cap : 0;
  for (size_t i = 0; rows->index && i < rows->count; i++) {
    const gasp_row *r = &rows->rows[i];
    if (r->infra_error) continue;
    size_t k = key_hash(r->task, r->target, r->backend, r->model, r->variant, r->grammar, r->sample, r->seed) & (cap - 1);
    while (rows->index[k]) k = (k + 1) & (cap - 1);
    rows->index[k] = i + 1;
  }
}

int gasp_rows_has(const gasp_rows *crows, const char *task, const char *target, const char *backend, const char *model,
                  const char *variant, int grammar, int sample, uint64_t seed) {
  gasp_rows *rows = (gasp_rows *)crows; /* the index is a cache: building it changes no answer */
  if (!rows->index) build_index(rows);
  if (!rows->index) return 0;
  size_t k = key_hash(task, target, backend, model, variant, grammar, sample, seed) & (rows->index_cap - 1);
  for (; rows->index[k]; k = (k + 1) & (rows->index_cap - 1)) {
    const gasp_row *r = &rows->rows[rows->index[k] - 1];
    if (r->sample == sample && r->seed == seed && r->grammar == grammar && !strcmp(r->task, task) && !strcmp(r->target, target) &&
        !strcmp(r->backend, backend) && !strcmp(r->model, model) && !strcmp(r->variant, variant))
      return 1;
  }
  return 0;
}

int gasp_rows_last_turn(const gasp_rows *crows, const char *task, const char *target, const char *backend,
                        const char *model, const char *variant, int grammar, int sample, uint64_t seed, int *cls) {
  gasp_rows *rows = (gasp_rows *)crows;
  if (!rows->index) build_index(rows);
  if (!rows->index) return -1;
  int last = -1;
  size_t k = key_hash(task, target, backend, model, variant, grammar, sample, seed) & (rows->index_cap - 1);
  for (; rows->index[k]; k = (k + 1) & (rows->index_cap - 1)) {
    const gasp_row *r = &rows->rows[rows->index[k] - 1];
    if (r->sample == sample && r->seed == seed && r->grammar == grammar && !strcmp(r->task, task) &&
        !strcmp(r->target, target) && !strcmp(r->backend, backend) && !strcmp(r->model, model) &&
        !strcmp(r->variant, variant) && r->turn > last) {
      last = r->turn;
      if (cls) *cls = r->cls;
    }
  }
  return last;
}

/* The fields a repair prompt quotes, from one parsed record */
static void record_fill(json_t *o, gasp_record *out) {
  gasp_record_init(out);
  get_str(o, "task", out->task, sizeof out->task);
  out->level = (int)json_integer_value(json_object_get(o, "level"));
  out->sample = (int)json_integer_value(json_object_get(o, "sample"));
  out->turn = (int)json_integer_value(json_object_get(o, "turn"));
  json_t *a = json_object_get(o, "answer");
  out->answer_len = json_string_length(a);
  out->answer = malloc(out->answer_len + 1);
  memcpy(out->answer, json_string_value(a) ? json_string_value(a) : "", out->answer_len);
  out->answer[out->answer_len] = 0;
  int c = gasp_class_from_name(json_string_value(json_object_get(o, "class")));
  int st = gasp_stage_from_name(json_string_value(json_object_get(o, "stage")));
  out->cls = c >= 0 ? (gasp_class)c : GASP_CLASS_ERROR;
  out->stage = st >= 0 ? (gasp_stage)st : GASP_STAGE_EXTRACT;
  size_t i;
  json_t *d;
  json_array_foreach(json_object_get(o, "diagnostics"), i, d) {
    int dc = gasp_class_from_name(json_string_value(json_object_get(d, "class")));
    const char *sev = json_string_value(json_object_get(d, "severity"));
    gasp_diags_add(&out->diags, sev && !strcmp(sev, "note") ? GASP_SEV_NOTE : sev && !strcmp(sev, "warning") ? GASP_SEV_WARNING : GASP_SEV_ERROR,
                   dc >= 0 ? (gasp_class)dc : GASP_CLASS_ERROR, (int)json_integer_value(json_object_get(d, "line")),
                   (int)json_integer_value(json_object_get(d, "col")), "%s",
                   json_string_value(json_object_get(d, "message")) ? json_string_value(json_object_get(d, "message")) : "");
  }
  get_str(o, "detail", out->verdict.detail, sizeof out->verdict.detail);
  json_t *m = json_object_get(o, "first_mismatch");
  if (m) {
    out->verdict.has_mismatch = 1;
    get_str(m, "param", out->verdict.param, sizeof out->verdict.param);
    out->verdict.index = json_integer_value(json_object_get(m, "index"));
    get_str(m, "expected", out->verdict.expected, sizeof out->verdict.expected);
    get_str(m, "got", out->verdict.got, sizeof out->verdict.got);
  }
}

int gasp_record_from_line(const char *line, size_t len, gasp_record *out) {
  json_t *o = json_loadb(line, len, JSON_ALLOW_NUL, NULL);
  if (!o || !json_is_object(o) || !json_is_string(json_object_get(o, "task"))) {
    json_decref(o);
    return -1;
  }
  record_fill(o, out);
  json_decref(o);
  return 0;
}

int gasp_results_read_record(const char *path, const char *task, const char *target, const char *backend,
                              const char *model, const char *variant, int grammar, int sample, uint64_t seed, int turn,
                              gasp_record *out) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char *line = NULL;
  size_t cap = 0;
  int found = -1;
  while (found && getline(&line, &cap, f) > 0) {
    json_t *o = json_loads(line, JSON_ALLOW_NUL, NULL);
    if (!o) continue;
    const char *s;
#define SAME(k, v) ((s = json_string_value(json_object_get(o, k))) && !strcmp(s, v))
    if (SAME("task", task) && SAME("target", target) && SAME("backend", backend) && SAME("model", model) &&
        SAME("variant", variant) && gasp_record_grammar_of(o) == grammar &&
        json_integer_value(json_object_get(o, "sample")) == sample &&
        (uint64_t)json_integer_value(json_object_get(o, "seed")) == seed &&
        json_integer_value(json_object_get(o, "turn")) == turn && !json_is_true(json_object_get(o, "infra_error"))) {
#undef SAME
      record_fill(o, out);
      found = 0;
    }
    json_decref(o);
  }
  free(line);
  fclose(f);
  return found;
}

char *gasp_record_describe_failure(const gasp_record *rec) {
  gasp_str s;
  gasp_str_init(&s);
  gasp_str_printf(&s, "class %s at the %s stage\n", gasp_class_name(rec->cls), gasp_stage_name(rec->stage));
  int shown = 0;
  for (size_t i = 0; i < rec->diags.count && shown < 20; i++) {
    const gasp_diag *g = &rec->diags.items[i];
    if (g->sev == GASP_SEV_NOTE) continue;
    gasp_str_printf(&s, "line %d, column %d: %s: %s\n", g->line, g->col, gasp_class_name(g->cls), g->msg);
    shown++;
  }
  if (rec->verdict.detail[0]) gasp_str_printf(&s, "%s\n", rec->verdict.detail);
  /* the article's register-range and budget constraints, stated outright when those were the failure
   * (its measurement: register overflow 19% -> 0.3% once stated) */
  if (rec->cls == GASP_CLASS_RANGE)
    gasp_str_puts(&s, "Constraint: every register index must be below the count in its declaration (.reg .f32 %f<8> "
                      "declares %f0..%f7 only); declare enough registers, and use only predicates you declared.\n");
  if (rec->cls == GASP_CLASS_RESOURCE)
    gasp_str_puts(&s, "Constraint: stay within the register and shared-memory budget stated above; reuse registers "
                      "whose values are dead instead of keeping every value live.\n");
  if (rec->verdict.has_mismatch)
    gasp_str_printf(&s, "first wrong element: %s[%lld], expected %s, got %s\n", rec->verdict.param,
                    (long long)rec->verdict.index, rec->verdict.expected, rec->verdict.got);
  return gasp_str_take(&s);
}
