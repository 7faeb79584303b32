/* Finding the assembly in a model's answer: markdown fences, prose around code, or bare code.
 * The answer is untrusted: its size is bounded and NUL bytes are refused, and every line we keep
 * remembers where it was so diagnostics point into the answer the model wrote. */
#ifndef GASP_EXTRACT_H
#define GASP_EXTRACT_H

#include <stddef.h>

#include "../core/diag.h"
#include "../target/target.h"

#define GASP_MAX_ANSWER_BYTES (1u << 20)

typedef struct {
  char *code;       /* the extracted text, malloc'ed */
  int first_line;   /* the answer line where code starts (1-based) */
  int from_fence;   /* 1 when taken from a markdown fence */
} gasp_extracted;

/* Returns 0 with out filled, or -1 with an `extract` diagnostic. */
int gasp_extract(const char *answer, size_t len, const gasp_target *t, gasp_extracted *out, gasp_diags *d);
void gasp_extracted_free(gasp_extracted *e);

#endif
