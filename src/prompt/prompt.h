/* Prompts: the source article's template with its three constraint layers (syntax, semantics, hardware
 * context), an output-format line and an example, with ISA facts drawn from the target. Variants let the
 * article's prompt experiment be rerun: bare, constrained, constrained+example, constrained+example+facts. */
#ifndef GASP_PROMPT_H
#define GASP_PROMPT_H

#include "../target/target.h"
#include "../task/task.h"

#define GASP_VARIANT_DEFAULT "constrained+example+facts"

/* NULL-terminated list of variant names. */
const char *const *gasp_prompt_variants(void);
int gasp_prompt_variant_valid(const char *v);

/* Builds the prompt; returns a malloc'ed string, or NULL for an unknown variant. */
char *gasp_prompt_build(const gasp_target *t, const gasp_task *task, const char *variant);

/* A repair turn: the original prompt, the previous answer and how it failed (class, stage, diagnostics with
 * line and column, the first mismatch), and a request for a corrected complete answer. `failure` is text
 * the caller formats from the record. Returns a malloc'ed string, or NULL for an unknown variant. */
char *gasp_prompt_repair(const gasp_target *t, const gasp_task *task, const char *variant, const char *prev_answer,
                         const char *failure);

#endif
