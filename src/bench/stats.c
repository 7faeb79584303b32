/* Summary statistics and the summary table. */
#include "stats.h"

#include <stdlib.h>
#include <string.h>

double gasp_pass_at_k(int n, int c, int k) {
  if (n <= 0 || k <= 0) return 0;
  if (k > n) k = n;
  if (n - c < k) return 1.0;
  double prod = 1.0;
  for (int i = n - c + 1; i <= n; i++) prod *= 1.0 - (double)k / i;
  return 1.0 - prod;
}

static void add_row(gasp_bucket *b, const gasp_row *r) {
  b->n++;
  if (r->cls == GASP_CLASS_SKIPPED) b->skipped++;
  if (r->stage >= GASP_STAGE_CHECK) b->extracted++; /* extraction succeeded: the candidate moved on */
  if (r->stage >= GASP_STAGE_ASSEMBLE) b->assembled++;
  if (r->gpu_ran && r->stage >= GASP_STAGE_RUN) b->loaded++;
  if (r->gpu_ran && r->stage >= GASP_STAGE_VERIFY) b->ran++;
  if (r->cls == GASP_CLASS_PASS) {
    b->correct++;
    if (r->speedup > 0 && !r->slow) b->fast++;
  }
  if (r->cls >= 0 && r->cls < GASP_CLASS_COUNT) b->classes[r->cls]++;
}

void gasp_summary_compute(const gasp_rows *rows, int k, gasp_bucket buckets[9]) {
  memset(buckets, 0, 9 * sizeof *buckets);
  for (size_t i = 0; i < rows->count; i++) {
    const gasp_row *r = &rows->rows[i];
    if (r->turn != 0 || r->infra_error) continue; /* repair turns are reported apart; infra errors are no candidates */
    int lv = r->level >= 0 && r->level < 8 ? r->level : 7;
    add_row(&buckets[lv], r);
    add_row(&buckets[8], r);
  }
  /* pass@k over groups of samples of one task under one configuration */
  char *done = calloc(rows->count ? rows->count : 1, 1);
  for (size_t i = 0; i < rows->count; i++) {
    const gasp_row *a = &rows->rows[i];
    if (done[i] || a->turn != 0 || a->infra_error) continue;
    int n = 0, c = 0;
    for (size_t j = i; j < rows->count; j++) {
      const gasp_row *b = &rows->rows[j];
      if (done[j] || b->turn != 0 || b->infra_error || strcmp(a->task, b->task) || strcmp(a->target, b->target) ||
          strcmp(a->backend, b->backend) || strcmp(a->model, b->model) || strcmp(a->variant, b->variant) || a->grammar != b->grammar)
        continue;
      done[j] = 1;
      if (b->cls == GASP_CLASS_SKIPPED) continue;
      n++;
      c += b->cls == GASP_CLASS_PASS;
    }
    if (!n) continue;
    int lv = a->level >= 0 && a->level < 8 ? a->level : 7;
    double p1 = gasp_pass_at_k(n, c, 1), pk = gasp_pass_at_k(n, c, k);
    buckets[lv].pass1_sum += p1;
    buckets[lv].passk_sum += pk;
    buckets[lv].groups++;
    buckets[8].pass1_sum += p1;
    buckets[8].passk_sum += pk;
    buckets[8].groups++;
  }
  free(done);
}

static void pct(char *buf, size_t cap, long a, long b) {
  if (b <= 0) snprintf(buf, cap, "-");
  else snprintf(buf, cap, "%.1f%%", 100.0 * (double)a / (double)b);
}

/* The level table for one set of rows. */
static void level_table(const gasp_rows *rows, int k, FILE *out, gasp_bucket b[9]) {
  gasp_summary_compute(rows, k, b);
  static const char *const names[9] = {"L0 instruction", "L1 sequence", "L2 fixed kernel", "L3 control flow",
                                       "L4 warp-level", "L5 shared+barrier", "L6 performance", "L7 translation",
                                       "all"};
  fprintf(out, "%-18s %6s %9s %9s %9s %9s %9s %8s %8s %8s %7s\n", "level", "n", "extracted", "assembled", "loaded",
          "ran", "correct", "pass@1", "pass@k", "fast_1", "skipped");
  for (int i = 0; i < 9; i++) {
    if (!b[i].n) continue;
    if (i == 8) fprintf(out, "%.*s\n", 118, "------------------------------------------------------------------------------------------------------------------------");
    char e[16], a[16], l[16], r[16], c[16], p1[16], pk[16], f[16];
    pct(e, sizeof e, b[i].extracted, b[i].n);
    pct(a, sizeof a, b[i].assembled, b[i].n);
    long ran_base = b[i].n - b[i].skipped;
    pct(l, sizeof l, b[i].loaded, ran_base);
    pct(r, sizeof r, b[i].ran, ran_base);
    pct(c, sizeof c, b[i].correct, ran_base);
    if (b[i].groups) {
      snprintf(p1, sizeof p1, "%.3f", b[i].pass1_sum / (double)b[i].groups);
      snprintf(pk, sizeof pk, "%.3f", b[i].passk_sum / (double)b[i].groups);
    } else {
      snprintf(p1, sizeof p1, "-");
      snprintf(pk, sizeof pk, "-");
    }
    pct(f, sizeof f, b[i].fast, ran_base);
    fprintf(out, "%-18s %6ld %9s %9s %9s %9s %9s %8s %8s %8s %7ld\n", names[i], b[i].n, e, a, l, r, c, p1, pk, f,
            b[i].skipped);
  }
}

static int same_config(const gasp_row *a, const gasp_row *b) {
  return !strcmp(a->target, b->target) && !strcmp(a->backend, b->backend) && !strcmp(a->model, b->model) &&
         !strcmp(a->variant, b->variant) && a->grammar == b->grammar;
}

void gasp_summary_print(const gasp_rows *rows, int k, FILE *out) {
  gasp_bucket b[9];
  /* a file holding several configurations (targets, backends, models, prompt variants) gets a table for
   * each: pooling an r300 run with a PTX run, or a bare prompt with a full one, would say nothing */
  size_t nconf = 0;
  char *seen = calloc(rows->count ? rows->count : 1, 1);
  gasp_rows sub = {malloc((rows->count ? rows->count : 1) * sizeof(gasp_row)), 0, 0, NULL, 0};
  for (size_t i = 0; i < rows->count; i++) {
    if (seen[i]) continue;
    nconf++;
    for (size_t j = i; j < rows->count; j++) seen[j] |= same_config(&rows->rows[i], &rows->rows[j]);
  }
  if (nconf > 1) {
    memset(seen, 0, rows->count);
    for (size_t i = 0; i < rows->count; i++) {
      if (seen[i]) continue;
      sub.count = 0;
      for (size_t j = i; j < rows->count; j++)
        if (!seen[j] && same_config(&rows->rows[i], &rows->rows[j])) {
          seen[j] = 1;
          sub.rows[sub.count++] = rows->rows[j];
        }
      fprintf(out, "== %s / %s %s / %s%s\n", rows->rows[i].target, rows->rows[i].backend, rows->rows[i].model,
              rows->rows[i].variant, rows->rows[i].grammar == 2 ? " / grammar+monitor" : rows->rows[i].grammar ? " / grammar" : "");
      level_table(&sub, k, out, b);
      fprintf(out, "\n");
    }
    fprintf(out, "== all configurations together\n");
  }
  free(seen);
  free(sub.rows);
  level_table(rows, k, out, b);
  fprintf(out, "\npass@k with k=%d; loaded/ran/correct/fast_1 are shares of candidates that reached a GPU stage "
               "(skipped ones excluded: they are never counted as passes).\n", k);
  fprintf(out, "\nfailure classes (all levels):\n");
  for (int c = 0; c < GASP_CLASS_COUNT; c++)
    if (b[8].classes[c]) fprintf(out, "  %-22s %ld\n", gasp_class_name(c), b[8].classes[c]);
  size_t infra = 0, rewritten = 0, rewritten_pass = 0;
  for (size_t i = 0; i < rows->count; i++) {
    infra += rows->rows[i].infra_error;
    if (rows->rows[i].rewrites > 0) {
      rewritten++;
      rewritten_pass += rows->rows[i].cls == GASP_CLASS_PASS;
    }
  }
  if (rewritten)
    fprintf(out, "\nrewriters changed %zu candidate(s) before checking; %zu of them then passed\n", rewritten,
            rewritten_pass);
  if (infra)
    fprintf(out, "\n%zu candidate(s) got no answer from their backend (not counted above); 'gasp bench --resume' retries them\n", infra);
  if (rows->bad_lines) fprintf(out, "\n%zu line(s) of the results file were not valid records and were ignored\n", rows->bad_lines);
}

int gasp_repair_compute(const gasp_rows *rows, double *lift, int max_turns, long *candidates) {
  int top = 0;
  for (size_t i = 0; i < rows->count; i++)
    if (rows->rows[i].turn > top) top = rows->rows[i].turn;
  if (top > max_turns - 1) top = max_turns - 1;
  *candidates = 0;
  if (!top) return 0;
  long *pass_by = calloc((size_t)top + 1, sizeof *pass_by);
  char *done = calloc(rows->count ? rows->count : 1, 1);
  for (size_t i = 0; i < rows->count; i++) {
    const gasp_row *a = &rows->rows[i];
    if (done[i] || a->turn != 0 || a->infra_error || a->cls == GASP_CLASS_SKIPPED) continue;
    int first_pass = -1;
    for (size_t j = i; j < rows->count; j++) {
      const gasp_row *b = &rows->rows[j];
      if (b->sample != a->sample || b->seed != a->seed || strcmp(a->task, b->task) || strcmp(a->target, b->target) ||
          strcmp(a->backend, b->backend) || strcmp(a->model, b->model) || strcmp(a->variant, b->variant) || a->grammar != b->grammar)
        continue;
      done[j] = 1;
      if (b->cls == GASP_CLASS_PASS && (first_pass < 0 || b->turn < first_pass)) first_pass = b->turn;
    }
    (*candidates)++;
    for (int t = 0; t <= top; t++) pass_by[t] += first_pass >= 0 && first_pass <= t;
  }
  for (int t = 0; t <= top; t++) lift[t] = *candidates ? (double)pass_by[t] / (double)*candidates : 0;
  free(pass_by);
  free(done);
  return top + 1;
}

void gasp_repair_print(const gasp_rows *rows, FILE *out) {
  double lift[21];
  long n;
  int turns = gasp_repair_compute(rows, lift, 21, &n);
  if (!turns) return;
  fprintf(out, "\nrepair turns (%ld candidates): share correct", n);
  for (int t = 0; t < turns; t++) fprintf(out, "%s after turn %d: %.1f%%", t ? "," : "", t, 100.0 * lift[t]);
  fprintf(out, "\n");
}
