/* The `reference` backend: answers each task with the assembly the vendor compiler makes from the task's
 * reference kernel. An upper bound, and the suite's self-test: a task its own reference fails is a bug. */
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "backend.h"

static int ref_generate(gasp_backend *b, const gasp_target *t, const gasp_task *task, const char *prompt,
                        const gasp_gen_params *p, int sample, gasp_answer *out, gasp_diags *d) {
  (void)b; (void)prompt; (void)p; (void)sample;
  memset(out, 0, sizeof *out);
  double t0 = gasp_now_s();
  if (!t->reference_answer) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "target '%s' has no reference compiler", t->name);
    return -1;
  }
  if (t->reference_answer(t, task, &out->text, d)) return -1;
  out->seconds = gasp_now_s() - t0;
  return 0;
}

gasp_backend *gasp_backend_reference_open(const gasp_backend_opts *o, char *err, size_t cap) {
  (void)o; (void)err; (void)cap;
  gasp_backend *b = calloc(1, sizeof *b);
  b->name = "reference";
  gasp_strlcpy(b->model, "nvcc", sizeof b->model);
  b->generate = ref_generate;
  return b;
}
