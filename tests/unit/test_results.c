/* Results records: JSON round trip, odd answers stay valid JSON, torn lines are skipped, resume keys. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/results.h"
#include "check.h"
#include "core/util.h"

int main(void) {
  gasp_record r;
  gasp_record_init(&r);
  strcpy(r.task, "vector_add");
  r.level = 2;
  strcpy(r.target, "ptx-sm90");
  strcpy(r.backend, "files");
  strcpy(r.model, "m");
  strcpy(r.variant, "bare");
  r.sample = 3;
  r.stage = GASP_STAGE_VERIFY;
  r.cls = GASP_CLASS_WRONG;
  r.gpu_ran = 1;
  r.verdict.has_mismatch = 1;
  strcpy(r.verdict.param, "c");
  r.verdict.index = 77;
  strcpy(r.verdict.expected, "1");
  strcpy(r.verdict.got, "2");
  gasp_diags_add(&r.diags, GASP_SEV_ERROR, GASP_CLASS_RANGE, 4, 9, "quote \" and backslash \\");
  static const char bytes[] = "ok\0nul \xff\xfe bad utf8";
  r.answer = malloc(sizeof bytes);
  memcpy(r.answer, bytes, sizeof bytes);
  r.answer_len = sizeof bytes - 1;
  char *s = gasp_record_to_json(&r);
  CHECK(s != NULL, "serialised");
  json_error_t je;
  json_t *o = json_loads(s, JSON_ALLOW_NUL, &je);
  CHECK(o != NULL, "valid JSON: %s", je.text);
  CHECK(!strcmp(json_string_value(json_object_get(o, "class")), "wrong"), "class");
  CHECK(json_integer_value(json_object_get(json_object_get(o, "first_mismatch"), "index")) == 77, "mismatch index");
  CHECK(json_string_length(json_object_get(o, "answer")) > 10, "answer kept");
  CHECK(json_object_get(o, "gasp_version") && json_object_get(o, "timings"), "stable keys");
  json_decref(o);
  free(s);

  char path[] = "/tmp/gasp-results-XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fdopen(fd, "w");
  CHECK(gasp_results_append(f, &r) == 0, "append");
  r.sample = 4;
  r.grammar = 1;
  gasp_results_append(f, &r);
  r.grammar = 0;
  r.sample = 9;
  r.infra_error = 1; /* the backend gave no answer: resume must try it again */
  gasp_results_append(f, &r);
  r.infra_error = 0;
  fputs("{\"task\":\"torn", f); /* what a kill mid-write leaves */
  fclose(f);
  gasp_rows rows;
  char err[128];
  CHECK(gasp_rows_load(path, &rows, err, sizeof err) == 0, "load");
  CHECK(rows.count == 3 && rows.bad_lines == 1, "3 rows, 1 torn line: %zu %zu", rows.count, rows.bad_lines);
  CHECK(!gasp_rows_has(&rows, "vector_add", "ptx-sm90", "files", "m", "bare", 0, 9, 0), "infra errors are retried");
  CHECK(gasp_rows_has(&rows, "vector_add", "ptx-sm90", "files", "m", "bare", 0, 3, 0), "resume key present");
  CHECK(!gasp_rows_has(&rows, "vector_add", "ptx-sm90", "files", "m", "bare", 1, 3, 0), "grammar on is another key");
  CHECK(!gasp_rows_has(&rows, "vector_add", "ptx-sm90", "files", "m", "bare", 0, 3, 7), "another seed is another key");
  CHECK(!gasp_rows_has(&rows, "vector_add", "ptx-sm90", "files", "m", "bare", 0, 5, 0), "absent key");
  CHECK(gasp_rows_has(&rows, "vector_add", "ptx-sm90", "files", "m", "bare", 1, 4, 0) &&
            !gasp_rows_has(&rows, "vector_add", "ptx-sm90", "files", "m", "bare", 0, 4, 0),
        "grammar is read back and keyed");
  CHECK(rows.count && rows.rows[0].cls == GASP_CLASS_WRONG && rows.rows[0].stage == GASP_STAGE_VERIFY, "fields");
  gasp_rows_free(&rows);
  unlink(path);
  CHECK(gasp_rows_load("/nonexistent/x.jsonl", &rows, err, sizeof err) == 0 && rows.count == 0, "missing file");
  gasp_record_free(&r);
  return DONE();
}
