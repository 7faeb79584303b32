/* Extraction of code from answers: fences, prose, bare code, garbage, NUL bytes, oversize. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "extract/extract.h"
#include "target/target.h"

static int ext(const char *s, gasp_extracted *e, gasp_diags *d) {
  return gasp_extract(s, strlen(s), gasp_target_find("ptx-sm90"), e, d);
}

int main(void) {
  gasp_diags d;
  gasp_diags_init(&d);
  gasp_extracted e;
  const char *fenced = "Sure! Here is the kernel:\n\n```ptx\n.version 8.0\nadd.f32 %f1, %f2, %f3;\n```\nHope it helps.\n";
  CHECK(ext(fenced, &e, &d) == 0, "fenced");
  CHECK(e.first_line == 4 && e.from_fence, "starts on line 4: %d", e.first_line);
  CHECK(!strcmp(e.code, ".version 8.0\nadd.f32 %f1, %f2, %f3;\n"), "code: %s", e.code);
  gasp_extracted_free(&e);
  const char *two = "```\nplain words here\n```\n\n```asm\nmov.u32 %r1, %tid.x;\n```\n";
  CHECK(ext(two, &e, &d) == 0 && strstr(e.code, "mov.u32") && e.first_line == 6, "picks the code block");
  gasp_extracted_free(&e);
  const char *prose = "The answer is\nadd.f32 %d, %a, %b;\nwhich adds.\n";
  CHECK(ext(prose, &e, &d) == 0 && !strcmp(e.code, "add.f32 %d, %a, %b;\n") && e.first_line == 2, "prose");
  gasp_extracted_free(&e);
  const char *unterminated = "```ptx\nret;\n";
  CHECK(ext(unterminated, &e, &d) == 0 && strstr(e.code, "ret;"), "unterminated fence");
  gasp_extracted_free(&e);
  const char *crlf = "```ptx\r\nadd.f32 %d, %a, %b;\r\n```\r\n";
  CHECK(ext(crlf, &e, &d) == 0 && !strchr(e.code, '\r'), "CRLF stripped");
  gasp_extracted_free(&e);
  gasp_diags_clear(&d);
  CHECK(ext("I cannot help with that.", &e, &d) == -1 && d.items[0].cls == GASP_CLASS_EXTRACT, "no code");
  gasp_diags_clear(&d);
  CHECK(ext("", &e, &d) == -1, "empty");
  gasp_diags_clear(&d);
  char nul[] = "add.f32 %d, %a, %b;\nab\0cd\n";
  CHECK(gasp_extract(nul, sizeof nul - 1, gasp_target_find("ptx-sm90"), &e, &d) == -1 && d.items[0].line == 2 &&
            d.items[0].col == 3, "NUL located at 2:3");
  gasp_diags_clear(&d);
  size_t n = GASP_MAX_ANSWER_BYTES + 10;
  char *huge = malloc(n + 1);
  memset(huge, 'a', n);
  huge[n] = 0;
  CHECK(gasp_extract(huge, n, gasp_target_find("ptx-sm90"), &e, &d) == -1 && strstr(d.items[0].msg, "bytes"), "oversize");
  free(huge);
  /* random bytes never crash it */
  srand(1);
  for (int k = 0; k < 200; k++) {
    char buf[512];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (char)(rand() % 96 + 32);
    for (int j = 0; j < 20; j++) buf[rand() % 512] = '\n';
    buf[rand() % 512] = '`';
    gasp_diags_clear(&d);
    if (gasp_extract(buf, sizeof buf, gasp_target_find("ptx-sm90"), &e, &d) == 0) gasp_extracted_free(&e);
  }
  CHECK(1, "fuzzed");
  gasp_diags_free(&d);
  return DONE();
}
