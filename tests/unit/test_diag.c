/* Class and stage names are stable keys of the results file; diagnostics format as FILE:LINE:COL. */
#include <string.h>

#include "check.h"
#include "core/diag.h"

int main(void) {
  for (int c = 0; c < GASP_CLASS_COUNT; c++)
    CHECK(gasp_class_from_name(gasp_class_name(c)) == c, "class %d round trip", c);
  CHECK(!strcmp(gasp_class_name(GASP_CLASS_OOB_WRITE), "out-of-bounds-write"), "oob name");
  CHECK(!strcmp(gasp_class_name(GASP_CLASS_ILLEGAL_ADDRESS), "illegal-address"), "illegal-address name");
  CHECK(gasp_class_from_name("nonsense") == -1, "unknown class");
  for (int s = 0; s < GASP_STAGE_COUNT; s++) CHECK(gasp_stage_from_name(gasp_stage_name(s)) == s, "stage %d", s);
  gasp_diags d;
  gasp_diags_init(&d);
  CHECK(gasp_diags_first_class(&d) == GASP_CLASS_PASS, "empty is pass");
  gasp_diags_add(&d, GASP_SEV_WARNING, GASP_CLASS_SYNTAX, 1, 1, "w");
  gasp_diags_add(&d, GASP_SEV_ERROR, GASP_CLASS_RANGE, 12, 7, "register '%s' out of range", "%r9");
  CHECK(gasp_diags_errors(&d) == 1, "one error");
  CHECK(gasp_diags_first_class(&d) == GASP_CLASS_RANGE, "first error class");
  char buf[256];
  gasp_diag_format(&d.items[1], "k.ptx", buf, sizeof buf);
  CHECK(!strcmp(buf, "k.ptx:12:7: error: range: register '%r9' out of range"), "format: %s", buf);
  for (int i = 0; i < 2000; i++) gasp_diags_add(&d, GASP_SEV_ERROR, GASP_CLASS_SYNTAX, i, 1, "x");
  CHECK(d.count == 1000, "bounded at 1000, got %zu", d.count);
  gasp_diags_free(&d);
  return DONE();
}
