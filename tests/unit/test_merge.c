/* Merging results: one record per key (grammar and turn included), the first of two different ones kept and
 * counted as a conflict, identical ones as duplicates, infra errors giving way, torn lines skipped, missing
 * cells of the implied grid and of an expected grid counted; output sorted by the key. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/merge.h"
#include "check.h"

#define REC(task, sample, turn, cls, extra)                                                                         \
  "{\"task\":\"" task "\",\"target\":\"r300\",\"backend\":\"reference\",\"model\":\"m\",\"variant\":\"v\",\"seed\":1," \
  "\"sample\":" #sample ",\"turn\":" #turn ",\"class\":\"" cls "\",\"answer\":\"x\"" extra "}\n"

static char *merged(gasp_merge *m, gasp_merge_report *rep, gasp_diags *d) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  gasp_merge_write(m, f, rep, d);
  fclose(f);
  return buf;
}

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

int main(void) {
  const char *a = REC("t2", 0, 0, "pass", "") REC("t1", 1, 0, "wrong", "") REC("t1", 0, 0, "pass", "")
      REC("t1", 0, 1, "pass", "") "{\"task\":\"t3\",\"cl";
  const char *b = REC("t1", 0, 0, "pass", ",\"timings\":{\"run_s\":9}")  /* same content, other timings */
      REC("t1", 1, 0, "pass", "")                                        /* conflict with a's wrong */
      REC("t2", 1, 0, "error", ",\"infra_error\":true")                  /* infra error, nothing better */
      REC("t2", 0, 0, "error", ",\"infra_error\":true")                  /* superseded by a's pass */
      REC("t1", 0, 0, "pass", ",\"grammar\":true");                      /* another key: grammar on */
  gasp_merge *m = gasp_merge_new();
  CHECK(gasp_merge_add(m, "a", a, strlen(a)) == 0, "add a");
  CHECK(gasp_merge_add(m, "b", b, strlen(b)) == 0, "add b");
  gasp_merge_report rep;
  gasp_diags d;
  gasp_diags_init(&d);
  char *out = merged(m, &rep, &d);
  CHECK(rep.bad_lines == 1, "the torn line skipped (%zu)", rep.bad_lines);
  CHECK(rep.duplicates == 1, "one duplicate (%zu)", rep.duplicates);
  CHECK(rep.conflicts == 1, "one conflict (%zu)", rep.conflicts);
  CHECK(rep.superseded == 1, "one infra error superseded (%zu)", rep.superseded);
  CHECK(rep.written == 6 && count_lines(out) == 6, "six records (%zu)", rep.written);
  CHECK(rep.missing == 0, "the implied grid is full (%zu)", rep.missing);
  /* order: task, then configuration (grammar off before on), sample, turn; the first input wins a conflict */
  const char *p0 = strstr(out, "\"task\":\"t1\",\"target\":\"r300\",\"backend\":\"reference\",\"model\":\"m\",\"variant\":\"v\",\"seed\":1,\"sample\":0,\"turn\":0");
  const char *p1 = strstr(out, "\"sample\":0,\"turn\":1");
  const char *p2 = strstr(out, "\"class\":\"wrong\"");
  const char *p3 = strstr(out, "\"grammar\":true");
  const char *p4 = strstr(out, "\"task\":\"t2\"");
  CHECK(p0 && p1 && p2 && p3 && p4 && p0 < p1 && p1 < p2 && p2 < p3 && p3 < p4, "sorted by key:\n%s", out);
  CHECK(!strstr(out, "run_s"), "the first of two identical records kept");
  CHECK(strstr(out, "\"sample\":1,\"turn\":0,\"class\":\"error\""), "an infra error with nothing better stays");
  int conflict_msg = 0;
  for (size_t i = 0; i < d.count; i++) conflict_msg |= d.items[i].sev == GASP_SEV_ERROR && strstr(d.items[i].msg, "t1 sample 1") != NULL;
  CHECK(conflict_msg, "the conflict is named");
  free(out);
  gasp_diags_free(&d);
  gasp_merge_free(m);

  /* missing work: a hole in the implied grid, and a whole task only the expected grid knows */
  const char *c = REC("t1", 0, 0, "pass", "") REC("t1", 2, 0, "pass", "") REC("t2", 0, 0, "pass", "");
  m = gasp_merge_new();
  gasp_merge_add(m, "c", c, strlen(c));
  gasp_diags_init(&d);
  out = merged(m, &rep, &d);
  CHECK(rep.missing == 3, "implied grid t1,t2 x 0..2: t1/1, t2/1, t2/2 missing (%zu)", rep.missing);
  free(out);
  gasp_diags_free(&d);
  const char *ids[] = {"t1", "t2", "t3"};
  gasp_merge_expect(m, "r300", ids, 3, 2);
  gasp_diags_init(&d);
  out = merged(m, &rep, &d);
  CHECK(rep.missing == 4, "expected grid t1..t3 x 0..1: t1/1, t2/1, t3/0, t3/1 missing (%zu)", rep.missing);
  free(out);
  gasp_diags_free(&d);
  gasp_merge_expect(m, "ptx-sm90", ids, 3, 2);
  gasp_diags_init(&d);
  out = merged(m, &rep, &d);
  CHECK(rep.missing == 6 && d.count == 1 && strstr(d.items[0].msg, "no record at all"), "no record of the target (%zu)", rep.missing);
  free(out);
  gasp_diags_free(&d);
  gasp_merge_free(m);
  return DONE();
}
