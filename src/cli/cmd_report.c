/* gasp report: the summary table of a results file. */
#include <stdlib.h>

#include "../bench/report_html.h"
#include "../bench/stats.h"
#include "cli.h"

int cmd_report(int argc, char **argv) {
  int k = 0;
  const char *html = NULL;
  gasp_opt opts[] = {{"k", 'k', OPT_INT, "K", "k for pass@k (default: the most samples of any task)", &k},
                     {"html", 0, OPT_STR, "OUT", "also write a self-contained HTML page with charts", &html},
                     {0}};
  gasp_cmd_spec spec = {"report", "results.jsonl [--k K] [--html OUT.html]",
                        "Print the summary of a results file: per level and overall, the stage funnel (extracted, "
                        "assembled, loaded, ran, correct), pass@1, pass@k, fast_1, and counts per failure class.",
                        "pass@k uses the unbiased estimator 1 - C(n-c,k)/C(n,k) per task, averaged over tasks.\n"
                        "fast_1 counts correct candidates not slower than the nvcc reference beyond 5% (timing noise).",
                        opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 1);
  if (rc) return rc < 0 ? 0 : rc;
  if (npos != 1) {
    gasp_cli_error("report", "expected one results file (see 'gasp report --help')");
    return GASP_EXIT_USAGE;
  }
  FILE *f = fopen(pos[0], "r");
  if (!f) {
    gasp_cli_error("report", "cannot open '%s'", pos[0]);
    return GASP_EXIT_ENV;
  }
  fclose(f);
  gasp_rows rows;
  char err[256];
  if (gasp_rows_load(pos[0], &rows, err, sizeof err)) {
    gasp_cli_error("report", "%s", err);
    return GASP_EXIT_ENV;
  }
  if (k <= 0) {
    /* the largest sample count of any group */
    for (size_t i = 0; i < rows.count; i++)
      if (rows.rows[i].sample + 1 > k) k = rows.rows[i].sample + 1;
    if (k <= 0) k = 1;
  }
  if (!rows.count) printf("no records in %s\n", pos[0]);
  else {
    gasp_summary_print(&rows, k, stdout);
    gasp_repair_print(&rows, stdout);
  }
  gasp_rows_free(&rows);
  if (html) {
    if (gasp_report_html(pos[0], html, err, sizeof err)) {
      gasp_cli_error("report", "%s", err);
      return GASP_EXIT_ENV;
    }
    fprintf(stderr, "wrote %s\n", html);
  }
  return 0;
}
