#define _GNU_SOURCE
/* pass@k and the summary funnel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/stats.h"
#include "check.h"

int main(void) {
  CHECK(fabs(gasp_pass_at_k(10, 0, 1)) < 1e-12, "none correct");
  CHECK(fabs(gasp_pass_at_k(10, 10, 5) - 1) < 1e-12, "all correct");
  CHECK(fabs(gasp_pass_at_k(10, 3, 1) - 0.3) < 1e-12, "pass@1 = c/n");
  /* 1 - C(7,2)/C(10,2) = 1 - 21/45 */
  CHECK(fabs(gasp_pass_at_k(10, 3, 2) - (1 - 21.0 / 45)) < 1e-12, "pass@2");
  CHECK(fabs(gasp_pass_at_k(5, 1, 5) - 1) < 1e-12, "k = n with one correct");
  gasp_row r[6];
  memset(r, 0, sizeof r);
  for (int i = 0; i < 6; i++) {
    strcpy(r[i].task, i < 3 ? "a" : "b");
    strcpy(r[i].target, "ptx-sm90");
    r[i].level = i < 3 ? 0 : 2;
    r[i].sample = i % 3;
    r[i].gpu_ran = 1;
    r[i].stage = GASP_STAGE_VERIFY;
    r[i].cls = GASP_CLASS_WRONG;
  }
  r[0].cls = GASP_CLASS_PASS;
  r[0].speedup = 1.2;
  r[1].cls = GASP_CLASS_PASS;
  r[1].speedup = 0.5;
  r[1].slow = 1;
  r[3].cls = GASP_CLASS_SYNTAX;
  r[3].stage = GASP_STAGE_CHECK;
  r[3].gpu_ran = 0;
  r[4].cls = GASP_CLASS_SKIPPED;
  r[4].stage = GASP_STAGE_ASSEMBLE;
  r[4].gpu_ran = 0;
  gasp_rows rows = {r, 6, 0, NULL, 0};
  gasp_bucket b[9];
  gasp_summary_compute(&rows, 3, b);
  CHECK(b[8].n == 6 && b[8].correct == 2 && b[8].fast == 1 && b[8].skipped == 1, "counts");
  CHECK(b[8].assembled == 5, "assembled %ld", b[8].assembled);
  CHECK(b[0].groups == 1 && fabs(b[0].pass1_sum - 2.0 / 3) < 1e-12, "pass@1 of task a");
  CHECK(b[2].groups == 1 && fabs(b[2].pass1_sum) < 1e-12, "task b: skipped excluded, 0 of 2");
  CHECK(b[8].classes[GASP_CLASS_SYNTAX] == 1, "class counts");
  /* two configurations: a table for each, then both together */
  strcpy(r[5].backend, "openai");
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  gasp_summary_print(&rows, 3, m);
  fclose(m);
  int heads = 0;
  for (const char *p = buf; (p = strstr(p, "\n== ")); p++) heads++;
  CHECK(!strncmp(buf, "== ptx-sm90 / ", 14) && heads == 2 && strstr(buf, "== all configurations together"),
        "per-configuration tables: %d more headers\n%s", heads, buf);
  free(buf);
  return DONE();
}
