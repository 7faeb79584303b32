/* Integer expressions in task files: sizes, counts and launch geometry such as `cdiv(n, 256)`.
 * Grammar: sum of products of atoms; atoms are integers (decimal, hex, 1<<k written as shl(1,k)), names
 * bound by the caller, parentheses and the functions cdiv(a,b), min(a,b), max(a,b), shl(a,b). */
#ifndef GASP_EXPR_H
#define GASP_EXPR_H

#include <stdint.h>

typedef struct {
  const char *const *names;
  const int64_t *values;
  int count;
} gasp_expr_env;

/* Returns 0 and the value, or -1 with a message in err (position and reason). */
int gasp_expr_eval(const char *text, const gasp_expr_env *env, int64_t *out, char *err, int errcap);

#endif
