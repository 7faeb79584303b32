/* The HTML report: one self-contained page (inline CSS and SVG, no script, no network) with the charts a
 * reader of a benchmark wants: pass rate by level and target, the stage funnel, failure classes per target,
 * repair lift per turn, the speedup distribution, and each failed candidate's answer with its diagnostic
 * lines marked. */
#ifndef GASP_REPORT_HTML_H
#define GASP_REPORT_HTML_H

#include <stddef.h>

/* Reads the results file at in_path and writes the page to out_path. Returns 0, or -1 with a message. */
int gasp_report_html(const char *in_path, const char *out_path, char *err, size_t errcap);

#endif
