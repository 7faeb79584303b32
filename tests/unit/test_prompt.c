/* Prompts: each variant adds its layer; facts come from the target; the task text is there. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "prompt/prompt.h"
#include "target/target.h"

int main(void) {
  gasp_diags d;
  gasp_diags_init(&d);
  gasp_taskset ts;
  gasp_taskset_load(gasp_tasks_dir(), &ts, &d);
  const gasp_task *va = gasp_taskset_find(&ts, "vector_add"), *add = gasp_taskset_find(&ts, "add_f32");
  const gasp_target *t = gasp_target_find("ptx-sm90"), *t89 = gasp_target_find("ptx-sm89");
  CHECK(va && add && t && t89, "fixtures");
  if (!va || !add || !t || !t89) return DONE();
  char *bare = gasp_prompt_build(t, va, "bare");
  char *con = gasp_prompt_build(t, va, "constrained");
  char *ex = gasp_prompt_build(t, va, "constrained+example");
  char *full = gasp_prompt_build(t, va, "constrained+example+facts");
  CHECK(gasp_prompt_build(t, va, "nope") == NULL, "unknown variant");
  CHECK(strstr(bare, "c[i] = a[i] + b[i]") && !strstr(bare, "Constraints"), "bare has the task only");
  CHECK(strstr(con, "Constraints") && strstr(con, "Syntax") && strstr(con, "Semantics") && strstr(con, "Hardware context"),
        "three layers");
  CHECK(strstr(con, ".param .u64 a") && strstr(con, ".param .u32 n"), "the ABI in order");
  CHECK(!strstr(con, "Example output") && strstr(ex, "Example output"), "example layer");
  CHECK(!strstr(ex, "ISA facts") && strstr(full, "ISA facts") && strstr(full, "sm_90") && strstr(full, "132 SMs"),
        "facts layer from the target");
  CHECK(strlen(bare) < strlen(con) && strlen(con) < strlen(ex) && strlen(ex) < strlen(full), "layers grow");
  char *f89 = gasp_prompt_build(t89, va, "constrained+example+facts");
  CHECK(strstr(f89, "sm_89") && strstr(f89, "RTX 4090") && !strstr(f89, "sm_90"), "sm_89 facts");
  char *sn = gasp_prompt_build(t, add, "constrained");
  CHECK(strstr(sn, "%a") && strstr(sn, "%d") && strstr(sn, "No `.version`"), "snippet prompt names registers");
  /* the arrays' element types and roles, which the argument lists do not give; not for a snippet (its registers
   * are in the constraints) and not in the bare variant */
  CHECK(strstr(con, "- Data: a and b are f32 input arrays (read only); c is the f32 output array; n is a u32 scalar.\n"),
        "a kernel's data line");
  CHECK(!strstr(sn, "- Data:") && !strstr(bare, "- Data:"), "no data line for a snippet or a bare prompt");
  const gasp_task *sx = gasp_taskset_find(&ts, "saxpy");
  char *sxp = sx ? gasp_prompt_build(gasp_target_find("gfx1030"), sx, "constrained") : NULL;
  CHECK(sxp && strstr(sxp, "; out is the f32 output array; alpha is an f32 scalar; n is a u32 scalar.\n"),
        "one output among inputs, scalars of two types (gfx1030)");
  free(sxp);
  char *rep = gasp_prompt_repair(t, va, "constrained", "add.f32 %f1, %f9;", "class range at the check stage\nline 3, column 9: range: register '%f9' is outside\n");
  CHECK(rep && strstr(rep, "Constraints") && strstr(rep, "Your previous answer was:\n```\nadd.f32 %f1, %f9;\n```") &&
            strstr(rep, "line 3, column 9: range") && strstr(rep, "corrected"), "repair prompt quotes answer and failure");
  char big[20000];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = 0;
  char *rep2 = gasp_prompt_repair(t, va, "bare", big, "wrong");
  CHECK(rep2 && strlen(rep2) < 12000 && strstr(rep2, "(cut)"), "a huge previous answer is cut");
  /* an answer in its own fence is quoted as written, not inside a second fence */
  char *rep3 = gasp_prompt_repair(t, va, "constrained", "```ptx\nadd.f32 %f1, %f9;\n```", "class range");
  CHECK(rep3 && strstr(rep3, "Your previous answer was:\n```ptx\nadd.f32 %f1, %f9;\n```\nIt failed:\nclass range") &&
            !strstr(rep3, "```\n```"),
        "a fenced answer is not fenced again");
  free(rep); free(rep2); free(rep3);
  free(bare); free(con); free(ex); free(full); free(f89); free(sn);
  gasp_taskset_free(&ts);
  gasp_diags_free(&d);
  return DONE();
}
