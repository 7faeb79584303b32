/* The HTML report with SVG charts, written from the JSONL results. */
#define _GNU_SOURCE
#include "report_html.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/diag.h"
#include "../core/util.h"
#include "results.h"

#define MAX_FAILURES_SHOWN 200
#define MAX_ANSWER_SHOWN 20000

static void esc(gasp_str *o, const char *s, size_t n) {
  for (size_t i = 0; i < n && s[i]; i++) {
    switch (s[i]) {
    case '<': gasp_str_puts(o, "&lt;"); break;
    case '>': gasp_str_puts(o, "&gt;"); break;
    case '&': gasp_str_puts(o, "&amp;"); break;
    case '"': gasp_str_puts(o, "&quot;"); break;
    default:
      if ((unsigned char)s[i] < 32 && s[i] != '\n' && s[i] != '\t') gasp_str_puts(o, "&#xFFFD;");
      else gasp_str_append(o, s + i, 1);
    }
  }
}

static void esc_s(gasp_str *o, const char *s) { esc(o, s ? s : "", (size_t)-1); }

static const char *jstr(json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s ? s : "";
}

/* A horizontal bar chart: one row per label, value in [0, max]. */
static void bar_chart(gasp_str *o, const char *title, const char *const *labels, const double *vals, const char *const *notes,
                      int n, double max, const char *unit) {
  int row = 22, left = 190, width = 420, h = n * row + 30;
  gasp_str_printf(o, "<figure><figcaption>");
  esc_s(o, title);
  gasp_str_printf(o, "</figcaption><svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">",
                  left + width + 160, h, left + width + 160, h);
  for (int i = 0; i < n; i++) {
    double w = max > 0 ? vals[i] / max * width : 0;
    if (w < 0) w = 0;
    int y = 10 + i * row;
    gasp_str_printf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", left - 8, y + 14);
    esc_s(o, labels[i]);
    gasp_str_printf(o, "</text><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" class=\"bar\"/>", left, y + 2, w, row - 6);
    gasp_str_printf(o, "<text x=\"%.1f\" y=\"%d\">%.*f%s", left + w + 6, y + 14, unit[0] == '%' ? 1 : 0, vals[i], unit);
    if (notes && notes[i]) {
      gasp_str_puts(o, " ");
      esc_s(o, notes[i]);
    }
    gasp_str_puts(o, "</text>");
  }
  gasp_str_printf(o, "<line x1=\"%d\" y1=\"5\" x2=\"%d\" y2=\"%d\" class=\"axis\"/></svg></figure>\n", left, left, h - 15);
}

typedef struct {
  json_t *rows; /* array of records */
} report;

static void config_of(json_t *r, char *buf, size_t cap) {
  snprintf(buf, cap, "%.31s / %.31s %.40s / %.47s", jstr(r, "target"), jstr(r, "backend"), jstr(r, "model"),
           jstr(r, "variant"));
}

static int in_config(json_t *r, const char *cfg) {
  char c[160];
  config_of(r, c, sizeof c);
  return !strcmp(c, cfg);
}

int gasp_report_html(const char *in_path, const char *out_path, char *err, size_t errcap) {
  FILE *f = fopen(in_path, "r");
  if (!f) {
    snprintf(err, errcap, "cannot open '%s'", in_path);
    return -1;
  }
  report R = {json_array()};
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  size_t bad = 0;
  while ((n = getline(&line, &cap, f)) > 0) {
    if (n <= 1) continue;
    json_error_t je;
    json_t *o = json_loads(line, JSON_ALLOW_NUL, &je);
    if (!o || !json_is_object(o) || !json_string_value(json_object_get(o, "class"))) {
      bad++;
      json_decref(o);
      continue;
    }
    json_array_append_new(R.rows, o);
  }
  free(line);
  fclose(f);
  size_t nrows = json_array_size(R.rows);

  gasp_str o;
  gasp_str_init(&o);
  gasp_str_puts(&o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gasp report</title>\n<style>\n"
                    "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}\n"
                    "h1{font-size:1.6em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}\n"
                    "table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #eee;text-align:right}\n"
                    "th:first-child,td:first-child{text-align:left}\n"
                    "svg.chart text{font:12px system-ui,sans-serif;fill:#333}.bar{fill:#3b7dd8}.bar2{fill:#e0843a}\n"
                    ".axis{stroke:#999}figure{margin:1em 0}figcaption{font-weight:600;margin-bottom:4px}\n"
                    "pre{background:#f7f7f7;padding:6px;overflow-x:auto;font-size:12px}.bad{background:#ffd7d7;display:block}\n"
                    ".diag{color:#a00;font-size:12px}details{margin:6px 0}\n</style></head><body>\n");
  gasp_str_puts(&o, "<h1>gasp report</h1>\n<p>");
  esc_s(&o, in_path);
  gasp_str_printf(&o, ": %zu candidate record(s)", nrows);
  if (bad) gasp_str_printf(&o, ", %zu line(s) not valid records (ignored)", bad);
  gasp_str_puts(&o, ".</p>\n");

  /* configurations present: target, backend, model and prompt variant; each gets its own charts */
  char targets[16][160];
  int ntargets = 0;
  size_t i;
  json_t *r;
  json_array_foreach(R.rows, i, r) {
    char t[160];
    config_of(r, t, sizeof t);
    int k;
    for (k = 0; k < ntargets; k++)
      if (!strcmp(targets[k], t)) break;
    if (k == ntargets && ntargets < 16) gasp_strlcpy(targets[ntargets++], t, sizeof targets[0]);
  }

  /* pass rate by level and target (first turn only) */
  gasp_str_puts(&o, "<h2>Pass rate by level and target</h2>\n");
  static const char *const level_names[8] = {"L0 instruction", "L1 sequence", "L2 fixed kernel", "L3 control flow",
                                             "L4 warp-level", "L5 shared+barrier", "L6 performance", "L7 translation"};
  for (int t = 0; t < ntargets; t++) {
    const char *labels[8];
    double vals[8];
    char notebuf[8][80];
    const char *notes[8];
    int m = 0;
    for (int lv = 0; lv < 8; lv++) {
      long total = 0, pass = 0, skipped = 0;
      json_array_foreach(R.rows, i, r) {
        if (!in_config(r, targets[t]) || json_integer_value(json_object_get(r, "level")) != lv ||
            json_integer_value(json_object_get(r, "turn")) != 0)
          continue;
        const char *c = jstr(r, "class");
        if (!strcmp(c, "skipped")) { skipped++; continue; }
        total++;
        pass += !strcmp(c, "pass");
      }
      if (!total && !skipped) continue;
      labels[m] = level_names[lv];
      vals[m] = total ? 100.0 * (double)pass / (double)total : 0;
      snprintf(notebuf[m], sizeof notebuf[m], "(%ld/%ld%s)", pass, total, skipped ? ", some skipped" : "");
      notes[m] = notebuf[m];
      m++;
    }
    char title[256];
    snprintf(title, sizeof title, "%.150s: share correct on the GPU", targets[t]);
    bar_chart(&o, title, labels, vals, notes, m, 100, "%");
  }

  /* the stage funnel */
  gasp_str_puts(&o, "<h2>Stage funnel</h2>\n");
  for (int t = 0; t < ntargets; t++) {
    long cnt[6] = {0}, all = 0;
    json_array_foreach(R.rows, i, r) {
      if (!in_config(r, targets[t]) || json_integer_value(json_object_get(r, "turn")) != 0) continue;
      all++;
      const char *c = jstr(r, "class");
      int st = gasp_stage_from_name(jstr(r, "stage"));
      int ran = json_is_true(json_object_get(r, "gpu_ran"));
      if (st >= GASP_STAGE_CHECK) cnt[0]++;
      if (st >= GASP_STAGE_ASSEMBLE) cnt[1]++;
      if (ran && st >= GASP_STAGE_RUN) cnt[2]++;
      if (ran && st >= GASP_STAGE_VERIFY) cnt[3]++;
      if (!strcmp(c, "pass")) cnt[4]++;
      if (!strcmp(c, "pass") && json_number_value(json_object_get(r, "speedup")) > 0 && !json_is_true(json_object_get(r, "slow"))) cnt[5]++;
    }
    const char *labels[6] = {"extracted", "assembled", "loaded", "ran", "correct", "fast"};
    double vals[6];
    for (int k = 0; k < 6; k++) vals[k] = (double)cnt[k];
    char title[256];
    snprintf(title, sizeof title, "%.150s: reaching each stage (of %ld)", targets[t], all);
    bar_chart(&o, title, labels, vals, NULL, 6, (double)all, "");
  }

  /* failure classes per target */
  gasp_str_puts(&o, "<h2>Failure classes</h2>\n");
  for (int t = 0; t < ntargets; t++) {
    const char *labels[GASP_CLASS_COUNT];
    double vals[GASP_CLASS_COUNT];
    int m = 0;
    double max = 0;
    for (int c = 0; c < GASP_CLASS_COUNT; c++) {
      long k = 0;
      json_array_foreach(R.rows, i, r) {
        if (in_config(r, targets[t]) && json_integer_value(json_object_get(r, "turn")) == 0 &&
            !strcmp(jstr(r, "class"), gasp_class_name(c)))
          k++;
      }
      if (!k) continue;
      labels[m] = gasp_class_name(c);
      vals[m] = (double)k;
      if (vals[m] > max) max = vals[m];
      m++;
    }
    char title[256];
    snprintf(title, sizeof title, "%.150s: candidates per class", targets[t]);
    bar_chart(&o, title, labels, vals, NULL, m, max, "");
  }

  /* repair lift per turn */
  gasp_str_puts(&o, "<h2>Repair turns</h2>\n");
  int max_turn = 0;
  json_array_foreach(R.rows, i, r) {
    int tn = (int)json_integer_value(json_object_get(r, "turn"));
    if (tn > max_turn) max_turn = tn;
  }
  if (!max_turn) {
    gasp_str_puts(&o, "<p>No repair turns in this file (run <code>gasp bench --repair N</code>).</p>\n");
  } else {
    const char *labels[16];
    double vals[16];
    char lb[16][24];
    int m = 0;
    for (int tn = 0; tn <= max_turn && m < 16; tn++) {
      long total = 0, pass = 0;
      json_array_foreach(R.rows, i, r) {
        if (json_integer_value(json_object_get(r, "turn")) != tn || !strcmp(jstr(r, "class"), "skipped")) continue;
        total++;
        pass += !strcmp(jstr(r, "class"), "pass");
      }
      snprintf(lb[m], sizeof lb[m], "turn %d", tn);
      labels[m] = lb[m];
      vals[m] = total ? 100.0 * (double)pass / (double)total : 0;
      m++;
    }
    bar_chart(&o, "Share correct after each turn", labels, vals, NULL, m, 100, "%");
  }

  /* speedup distribution: log2 bins */
  gasp_str_puts(&o, "<h2>Speed against the nvcc reference</h2>\n");
  static const double edges[] = {0, 0.25, 0.5, 0.8, 0.95, 1.05, 1.25, 2, 4, 10, 1e300};
  static const char *const bin_labels[] = {"< 0.25x", "0.25-0.5x", "0.5-0.8x", "0.8-0.95x", "0.95-1.05x",
                                           "1.05-1.25x", "1.25-2x", "2-4x", "4-10x", "> 10x (inspect)"};
  double bins[10] = {0};
  long timed = 0;
  json_array_foreach(R.rows, i, r) {
    double sp = json_number_value(json_object_get(r, "speedup"));
    if (sp <= 0) continue;
    timed++;
    for (int b = 0; b < 10; b++)
      if (sp >= edges[b] && sp < edges[b + 1]) bins[b]++;
  }
  if (!timed) gasp_str_puts(&o, "<p>No timed passes in this file.</p>\n");
  else {
    double max = 0;
    for (int b = 0; b < 10; b++) max = bins[b] > max ? bins[b] : max;
    char title[256];
    snprintf(title, sizeof title, "Passing candidates by speedup (reference time / candidate time), %ld timed", timed);
    bar_chart(&o, title, bin_labels, bins, NULL, 10, max, "");
  }

  /* failed candidates */
  gasp_str_puts(&o, "<h2>Failed candidates</h2>\n");
  int shown = 0;
  long failed = 0;
  json_array_foreach(R.rows, i, r) {
    const char *c = jstr(r, "class");
    if (!strcmp(c, "pass") || !strcmp(c, "skipped")) continue;
    failed++;
    if (shown >= MAX_FAILURES_SHOWN) continue;
    shown++;
    gasp_str_puts(&o, "<details><summary>");
    esc_s(&o, jstr(r, "task"));
    gasp_str_printf(&o, " &middot; %s &middot; ", jstr(r, "target"));
    esc_s(&o, jstr(r, "backend"));
    gasp_str_printf(&o, " sample %lld &middot; <b>", (long long)json_integer_value(json_object_get(r, "sample")));
    esc_s(&o, c);
    gasp_str_puts(&o, "</b>");
    const char *detail = jstr(r, "detail");
    if (*detail) {
      gasp_str_puts(&o, " &middot; ");
      esc(&o, detail, 200);
    }
    gasp_str_puts(&o, "</summary>\n");
    json_t *ds = json_object_get(r, "diagnostics");
    size_t k;
    json_t *dg;
    int marked[4096] = {0};
    json_array_foreach(ds, k, dg) {
      int ln = (int)json_integer_value(json_object_get(dg, "line"));
      if (ln > 0 && ln < 4096) marked[ln] = 1;
      gasp_str_printf(&o, "<div class=\"diag\">line %d, col %lld: ", ln, (long long)json_integer_value(json_object_get(dg, "col")));
      esc_s(&o, jstr(dg, "class"));
      gasp_str_puts(&o, ": ");
      esc_s(&o, jstr(dg, "message"));
      gasp_str_puts(&o, "</div>\n");
    }
    gasp_str_puts(&o, "<pre>");
    const char *ans = jstr(r, "answer");
    size_t alen = strlen(ans);
    if (alen > MAX_ANSWER_SHOWN) alen = MAX_ANSWER_SHOWN;
    int ln = 1;
    const char *p = ans, *end = ans + alen;
    while (p < end) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
      int m = ln < 4096 && marked[ln];
      gasp_str_printf(&o, "%s%4d  ", m ? "<span class=\"bad\">" : "", ln);
      esc(&o, p, len);
      gasp_str_puts(&o, m ? "</span>" : "\n");
      p += len + (nl ? 1 : 0);
      ln++;
    }
    if (strlen(ans) > MAX_ANSWER_SHOWN) gasp_str_puts(&o, "... (cut)\n");
    gasp_str_puts(&o, "</pre></details>\n");
  }
  if (!failed) gasp_str_puts(&o, "<p>None.</p>\n");
  else if (failed > shown) gasp_str_printf(&o, "<p>%ld more not shown.</p>\n", failed - shown);
  gasp_str_printf(&o, "<p style=\"color:#888\">gasp %s</p>\n</body></html>\n", GASP_VERSION);
  json_decref(R.rows);
  int rc = gasp_write_file(out_path, o.data, o.len);
  gasp_str_free(&o);
  if (rc) {
    snprintf(err, errcap, "cannot write '%s'", out_path);
    return -1;
  }
  return 0;
}
