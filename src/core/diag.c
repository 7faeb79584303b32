/* Diagnostics list and the stable names of classes and stages. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const class_names[GASP_CLASS_COUNT] = {
    "pass",          "extract", "syntax",   "semantic",           "resource",   "range",
    "hazard",        "load",    "illegal-address",     "misaligned",         "illegal-instruction",
    "unsupported",
    "trap",          "timeout", "out-of-bounds-write",            "input-mutated",
    "unwritten",     "wrong",   "skipped",  "error",
};

static const char *const stage_names[GASP_STAGE_COUNT] = {
    "extract", "check", "assemble", "load", "run", "verify", "time",
};

const char *gasp_class_name(gasp_class c) {
  return (c >= 0 && c < GASP_CLASS_COUNT) ? class_names[c] : "?";
}

int gasp_class_from_name(const char *name) {
  for (int i = 0; i < GASP_CLASS_COUNT; i++)
    if (name && strcmp(name, class_names[i]) == 0) return i;
  return -1;
}

const char *gasp_stage_name(gasp_stage s) {
  return (s >= 0 && s < GASP_STAGE_COUNT) ? stage_names[s] : "?";
}

int gasp_stage_from_name(const char *name) {
  for (int i = 0; i < GASP_STAGE_COUNT; i++)
    if (name && strcmp(name, stage_names[i]) == 0) return i;
  return -1;
}

void gasp_diags_init(gasp_diags *d) { memset(d, 0, sizeof *d); }

void gasp_diags_free(gasp_diags *d) {
  free(d->items);
  memset(d, 0, sizeof *d);
}

void gasp_diags_clear(gasp_diags *d) { d->count = 0; }

void gasp_diags_add(gasp_diags *d, gasp_severity sev, gasp_class cls, int line, int col, const char *fmt, ...) {
  if (d->count >= 1000) return;
  if (d->count == d->cap) {
    size_t cap = d->cap ? d->cap * 2 : 8;
    gasp_diag *n = realloc(d->items, cap * sizeof *n);
    if (!n) return;
    d->items = n;
    d->cap = cap;
  }
  gasp_diag *g = &d->items[d->count++];
  g->sev = sev;
  g->cls = cls;
  g->line = line;
  g->col = col;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->msg, sizeof g->msg, fmt, ap);
  va_end(ap);
}

size_t gasp_diags_errors(const gasp_diags *d) {
  size_t n = 0;
  for (size_t i = 0; i < d->count; i++) n += d->items[i].sev == GASP_SEV_ERROR;
  return n;
}

gasp_class gasp_diags_first_class(const gasp_diags *d) {
  for (size_t i = 0; i < d->count; i++)
    if (d->items[i].sev == GASP_SEV_ERROR) return d->items[i].cls;
  return GASP_CLASS_PASS;
}

void gasp_diag_format(const gasp_diag *g, const char *file, char *buf, size_t cap) {
  static const char *const sev[] = {"error", "warning", "note"};
  snprintf(buf, cap, "%s:%d:%d: %s: %s: %s", file ? file : "<answer>", g->line, g->col, sev[g->sev],
           gasp_class_name(g->cls), g->msg);
}
