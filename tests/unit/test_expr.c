/* Task expressions: arithmetic, names, functions, and errors with a column. */
#include <string.h>

#include "check.h"
#include "core/expr.h"

int main(void) {
  const char *names[] = {"n", "rows"};
  int64_t vals[] = {4099, 33};
  gasp_expr_env env = {names, vals, 2};
  int64_t v;
  char err[128];
  CHECK(gasp_expr_eval("cdiv(n,256)", &env, &v, err, sizeof err) == 0 && v == 17, "cdiv = %lld", (long long)v);
  CHECK(gasp_expr_eval("n*rows + 1", &env, &v, err, sizeof err) == 0 && v == 4099 * 33 + 1, "arith");
  CHECK(gasp_expr_eval("(n - 3) / 4 % 7", &env, &v, err, sizeof err) == 0 && v == ((4099 - 3) / 4) % 7, "prec");
  CHECK(gasp_expr_eval("shl(1,20)", &env, &v, err, sizeof err) == 0 && v == 1 << 20, "shl");
  CHECK(gasp_expr_eval("min(n, 100) + max(rows, 40)", &env, &v, err, sizeof err) == 0 && v == 140, "min/max");
  CHECK(gasp_expr_eval("0x100", NULL, &v, err, sizeof err) == 0 && v == 256, "hex");
  CHECK(gasp_expr_eval("-5 + 2", NULL, &v, err, sizeof err) == 0 && v == -3, "unary minus");
  CHECK(gasp_expr_eval("m + 1", &env, &v, err, sizeof err) == -1 && strstr(err, "column 1"), "unknown name: %s", err);
  CHECK(gasp_expr_eval("n / 0", &env, &v, err, sizeof err) == -1 && strstr(err, "division"), "div0: %s", err);
  CHECK(gasp_expr_eval("cdiv(n)", &env, &v, err, sizeof err) == -1, "arity");
  CHECK(gasp_expr_eval("n n", &env, &v, err, sizeof err) == -1 && strstr(err, "unexpected"), "trailing: %s", err);
  CHECK(gasp_expr_eval("foo(1,2)", &env, &v, err, sizeof err) == -1, "unknown function");
  return DONE();
}
