/* The PTX snippet decoding monitor (src/grammar/monitor.h): every snippet task's known-good answer, in the
 * grammar's spelling, passes at every byte (fed whole, byte by byte and in uneven pieces), and each rule refuses
 * at the byte that breaks it: a temporary or an output read before written, a guard on an unwritten predicate,
 * the fence closed before an input was read or an output written. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "grammar/grammar.h"
#include "grammar/monitor.h"
#include "target/target.h"
#include "task/task.h"

static const char *DECLS = ".reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .f32 %f<16>;\n.reg .b64 %rd<16>;\n.reg .f64 %fd<8>;\n";

/* "```ptx\n" + the declarations + body + "```" */
static char *answer_of(const char *body) {
  char *a = NULL;
  if (asprintf(&a, "```ptx\n%s%s```", DECLS, body) < 0) abort();
  return a;
}

/* the offset the monitor refuses (-1: none) feeding pieces of `step` bytes; checks it agrees with byte by byte */
static long refused_at(const gasp_monitor *m, const char *a, size_t step, const char **why) {
  gasp_mstate *s = gasp_mstate_new(m);
  size_t len = strlen(a);
  long at = -1;
  for (size_t i = 0; i < len && at < 0; i += step) {
    size_t n = i + step <= len ? step : len - i;
    if (!gasp_mstate_allows(s, a + i, n, why)) {
      /* the piece is refused: the byte that breaks the rule is inside it */
      for (size_t j = 0; j < n; j++) {
        if (!gasp_mstate_allows(s, a + i, j + 1, why)) {
          at = (long)(i + j);
          break;
        }
      }
      if (at < 0) at = (long)len; /* refused as a piece only: no byte alone is (cannot happen) */
    } else
      gasp_mstate_accept(s, a + i, n);
  }
  gasp_mstate_free(s);
  return at;
}

/* the offset of the last byte of the first occurrence of `mark` in a, less `back` (the byte expected to be refused) */
static long offset_after(const char *a, const char *mark, int back) {
  const char *p = strstr(a, mark);
  return p ? (long)(p - a) + (long)strlen(mark) - 1 - back : -2;
}

static void expect_refused(const gasp_monitor *m, const char *body, const char *mark, int back, const char *rule) {
  char *a = answer_of(body);
  long want = mark ? offset_after(a, mark, back) : (long)strlen(a) - 3;
  for (size_t step = 1; step <= 7; step += 3) {
    const char *why = NULL;
    long at = refused_at(m, a, step, &why);
    CHECK(at == want, "%s (pieces of %zu): refused at %ld, want %ld", body, step, at, want);
    CHECK(why && strstr(why, rule), "%s: rule '%s', want '%s'", body, why ? why : "(none)", rule);
  }
  free(a);
}

static void expect_allowed(const gasp_monitor *m, const char *body) {
  char *a = answer_of(body);
  for (size_t step = 1; step <= 13; step += 4) {
    const char *why = NULL;
    long at = refused_at(m, a, step, &why);
    CHECK(at < 0, "%s (pieces of %zu): refused at %ld: %s", body, step, at, why ? why : "");
  }
  CHECK(gasp_monitor_check(m, a, strlen(a), NULL) < 0, "%s: gasp_monitor_check refuses it", body);
  free(a);
}

int main(void) {
  gasp_diags d;
  gasp_diags_init(&d);
  gasp_taskset ts = {0};
  CHECK(gasp_taskset_load(gasp_tasks_dir(), &ts, &d) == 0, "tasks load");
  const gasp_target *t = gasp_target_find("ptx-sm90"), *amd = gasp_target_find("gfx1030");
  CHECK(t && amd, "targets");
  if (!t || !amd) return DONE();
  CHECK(gasp_monitor_target_has(t) && !gasp_monitor_target_has(amd), "PTX has monitors, AMD none yet");

  /* every snippet task's known-good snippet in the grammar's spelling: no rule breaks at any byte */
  int snippets = 0;
  for (size_t i = 0; i < ts.count; i++) {
    const gasp_task *task = &ts.items[i];
    gasp_monitor *m = gasp_monitor_new(t, task);
    CHECK(!m == !(task->snippet && gasp_task_fits(task, t->isa)), "%s: a monitor exactly for PTX snippets", task->id);
    if (!m || !task->ptx_snippet) {
      gasp_monitor_free(m);
      continue;
    }
    gasp_diags fd;
    gasp_diags_init(&fd);
    char *form = gasp_grammar_ptx_form(t, task, task->ptx_snippet, &fd);
    CHECK(form != NULL, "%s: the snippet in the grammar's form", task->id);
    if (form) {
      char *a = NULL;
      if (asprintf(&a, "```ptx\n%s```", form) < 0) abort();
      for (size_t step = 1; step <= 9; step += 2) {
        const char *why = NULL;
        long at = refused_at(m, a, step, &why);
        CHECK(at < 0, "%s (pieces of %zu): refused at byte %ld (%s) of\n%s", task->id, step, at, why ? why : "", a);
      }
      snippets++;
      free(a);
    }
    free(form);
    gasp_diags_free(&fd);
    gasp_monitor_free(m);
  }
  CHECK(snippets >= 20, "%d snippet tasks checked", snippets);

  /* the rules, on clamp_f32 (inputs %x %lo %hi, output %d) */
  const gasp_task *clamp = gasp_taskset_find(&ts, "clamp_f32");
  CHECK(clamp != NULL, "clamp_f32");
  gasp_monitor *m = clamp ? gasp_monitor_new(t, clamp) : NULL;
  CHECK(m != NULL, "clamp_f32 has a monitor");
  if (m) {
    expect_allowed(m, "max.f32 %f1, %x, %lo;\nmin.f32 %d, %f1, %hi;\n");
    /* %f10 is written: %f1 may be read as a prefix of it and as itself */
    expect_allowed(m, "max.f32 %f10, %x, %lo;\nmin.f32 %d, %f10, %hi;\n");
    expect_allowed(m, "setp.lt.f32 %p1|%p2, %x, %lo;\nselp.f32 %f1, %lo, %x, %p1;\n@%p2 min.f32 %d, %f1, %hi;\n"
                      "@!%p2 min.f32 %d, %lo, %hi;\n");
    expect_allowed(m, "mov.u32 %r1, %tid.x;\nmax.f32 %f1, %x, %lo;\nmin.f32 %d, %f1, %hi;\nadd.f32 %d, %d, 0f00000000;\n");
    /* a temporary never written: refused at its first digit no written name continues */
    expect_refused(m, "max.f32 %f1, %x, %lo;\nmin.f32 %d, %f2, %hi;\n", "%f2", 0, "no earlier line wrote");
    /* a line's own destination is written only after it: with no %f written, refused at the class letter */
    expect_refused(m, "max.f32 %f1, %f1, %lo;\nmin.f32 %d, %f1, %hi;\n", "%f1, %f", 0, "no earlier line wrote");
    /* a class no line wrote: refused at its name, before any digit */
    expect_refused(m, "max.f32 %f1, %x, %lo;\ncvt.rn.f32.f64 %f2, %fd1;\nmin.f32 %d, %f2, %hi;\n", "%f2, %fd", 0,
                   "no earlier line wrote");
    /* the output read before it is written: %d could still begin %dynamic_smem_size, so refused where it ends */
    expect_refused(m, "max.f32 %f1, %x, %d;\nmin.f32 %d, %f1, %hi;\n", "%x, %d;", 0, "output before writing");
    /* a guard on a predicate no line set */
    expect_refused(m, "@%p1 max.f32 %f1, %x, %lo;\nmin.f32 %d, %f1, %hi;\n", "@%p1", 0, "no earlier line wrote");
    /* the fence closed with %hi unread, and with %d unwritten */
    expect_refused(m, "max.f32 %f1, %x, %lo;\nmin.f32 %d, %f1, %lo;\n", NULL, 0, "every input");
    expect_refused(m, "max.f32 %f1, %x, %lo;\nmin.f32 %f2, %f1, %hi;\n", NULL, 0, "every output");
    /* after the closing fence nothing is checked */
    char *a = answer_of("max.f32 %f1, %x, %lo;\nmin.f32 %d, %f1, %hi;\n");
    gasp_mstate *s = gasp_mstate_new(m);
    gasp_mstate_accept(s, a, strlen(a));
    CHECK(gasp_mstate_allows(s, " %f9 `", 6, NULL), "text after the closing fence");
    gasp_mstate_free(s);
    free(a);
  }
  gasp_monitor_free(m);
  gasp_taskset_free(&ts);
  gasp_diags_free(&d);
  return DONE();
}
