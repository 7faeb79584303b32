/* Prompt construction. */
#include "prompt.h"

#include <stdlib.h>
#include <string.h>

#include "../core/util.h"

static const char *const variants[] = {"bare", "constrained", "constrained+example", "constrained+example+facts", NULL};

const char *const *gasp_prompt_variants(void) { return variants; }

int gasp_prompt_variant_valid(const char *v) {
  for (int i = 0; variants[i]; i++)
    if (!strcmp(variants[i], v)) return 1;
  return 0;
}

static void task_text(const gasp_task *task, gasp_str *s) {
  gasp_str_puts(s, task->description);
  if (s->len && s->data[s->len - 1] != '\n') gasp_str_puts(s, "\n");
  if (task->source) {
    gasp_str_puts(s, "Translate this code:\n```\n");
    gasp_str_puts(s, task->source);
    if (s->data[s->len - 1] != '\n') gasp_str_puts(s, "\n");
    gasp_str_puts(s, "```\n");
  }
}

/* A kernel's parameters by role and element type ("- Data: a and b are f32 input arrays (read only); c is the
 * f32 output array; n is a u32 scalar."). The targets' argument lists name pointers without what they point at
 * (".param .u64 a", "a pointer (8 bytes) at offset 0") and a description need not say it ("Element-wise sum of two
 * float arrays"): the shipped model of 2026-12-05 added vector_add's floats as integers on every gfx1030 sample and
 * stored saxpy's result through its input y (tools/train/README.md, "The twelfth run"). */
static void data_text(const gasp_task *task, gasp_str *s) {
  int done[GASP_MAX_PARAMS] = {0}, first = 1;
  for (int i = 0; i < task->nparams; i++) {
    if (done[i]) continue;
    const gasp_param *p = &task->params[i];
    int idx[GASP_MAX_PARAMS], n = 0;
    for (int j = i; j < task->nparams; j++)
      if (!done[j] && task->params[j].role == p->role && task->params[j].type == p->type) done[j] = 1, idx[n++] = j;
    gasp_str_puts(s, first ? "- Data: " : "; ");
    first = 0;
    for (int k = 0; k < n; k++)
      gasp_str_printf(s, "%s%s", k == 0 ? "" : k == n - 1 ? " and " : ", ", task->params[idx[k]].name);
    const char *ty = gasp_dtype_name(p->type);
    const char *an = ty[0] == 'f' || ty[0] == 's' ? "an" : "a"; /* "an f32", "an s32", "a u32" */
    if (p->role == GASP_ROLE_SCALAR && n > 1) gasp_str_printf(s, " are %s scalars", ty);
    else if (p->role == GASP_ROLE_SCALAR) gasp_str_printf(s, " is %s %s scalar", an, ty);
    else if (p->role == GASP_ROLE_IN) gasp_str_printf(s, n > 1 ? " are %s input arrays (read only)" : " is the %s input array (read only)", ty);
    else gasp_str_printf(s, n > 1 ? " are %s output arrays" : " is the %s output array", ty);
  }
  if (!first) gasp_str_puts(s, ".\n");
}

char *gasp_prompt_build(const gasp_target *t, const gasp_task *task, const char *variant) {
  if (!gasp_prompt_variant_valid(variant)) return NULL;
  int constrained = strcmp(variant, "bare") != 0;
  int example = strstr(variant, "example") != NULL;
  int facts = strstr(variant, "facts") != NULL;
  gasp_str s;
  gasp_str_init(&s);
  gasp_str_printf(&s, "You are a GPU assembly expert for %s (%s). Generate ONLY valid %s assembly code for: %s\n\n",
                  t->gpu, t->arch, t->isa, task->title[0] ? task->title : task->id);
  gasp_str_puts(&s, "Task:\n");
  task_text(task, &s);
  if (!constrained) {
    if (task->snippet) {
      gasp_str_puts(&s, "Inputs are in registers");
      for (int i = 0; i < task->nparams; i++)
        if (task->params[i].role == GASP_ROLE_IN) gasp_str_printf(&s, " %%%s", task->params[i].name);
      gasp_str_puts(&s, "; write the result to");
      for (int i = 0; i < task->nparams; i++)
        if (task->params[i].role == GASP_ROLE_OUT) gasp_str_printf(&s, " %%%s", task->params[i].name);
      gasp_str_puts(&s, ".\n");
    } else if (t->exec != GASP_EXEC_GL) {
      gasp_str_printf(&s, "The kernel is named %s.\n", task->kernel);
    }
    return gasp_str_take(&s);
  }
  gasp_str_puts(&s, "\nConstraints:\n");
  t->constraints(t, task, &s);
  if (!task->snippet && t->exec != GASP_EXEC_GL) data_text(task, &s);
  size_t tag = strcspn(t->fence_tags, " ");
  gasp_str_printf(&s, "- Output format: only the assembly, in one ```%.*s fenced block, no explanation.\n", (int)tag,
                  t->fence_tags);
  if (facts) {
    gasp_str_printf(&s, "\nISA facts (%s, %s):\n", t->isa, t->arch);
    t->facts(t, task, &s);
  }
  if (example) {
    gasp_str_puts(&s, "\nExample output (format only; a different computation):\n");
    t->example(t, task, &s);
  }
  return gasp_str_take(&s);
}

char *gasp_prompt_repair(const gasp_target *t, const gasp_task *task, const char *variant, const char *prev_answer,
                         const char *failure) {
  char *base = gasp_prompt_build(t, task, variant);
  if (!base) return NULL;
  gasp_str s;
  gasp_str_init(&s);
  gasp_str_puts(&s, base);
  free(base);
  /* the previous answer is bounded: a runaway answer must not grow every later prompt */
  size_t n = strlen(prev_answer ? prev_answer : "");
  if (n > 8192) n = 8192;
  /* quoted as written, so that the diagnostics' line numbers (answer lines) point at the quoted lines; an answer
   * that has its own fence is not fenced again (a fence inside a fence ends the outer one) */
  int fenced = prev_answer && strstr(prev_answer, "```") != NULL;
  gasp_str_puts(&s, "\nYour previous answer was:\n");
  if (!fenced) gasp_str_puts(&s, "```\n");
  gasp_str_append(&s, prev_answer ? prev_answer : "", n);
  if (n && prev_answer[n - 1] != '\n') gasp_str_puts(&s, "\n");
  if (n == 8192) gasp_str_puts(&s, "... (cut)\n");
  if (!fenced || n == 8192) gasp_str_puts(&s, "```\n");
  gasp_str_puts(&s, "It failed:\n");
  gasp_str_puts(&s, failure);
  gasp_str_puts(&s, "\nWrite a corrected, complete answer in the same format. Output only the assembly.\n");
  return gasp_str_take(&s);
}
