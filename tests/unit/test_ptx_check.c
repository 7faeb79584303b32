/* PTX checks beyond ptxas: register ranges and declarations with columns, provable misalignment, and
 * ptxas's messages mapped to the answer's lines (snippet offsets included). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "target/ptx/ptx_check.h"

static gasp_source src(const char *text) {
  gasp_source s = {(char *)text, 1, 1000, 1};
  return s;
}

static const gasp_diag *find(const gasp_diags *d, gasp_class c) {
  for (size_t i = 0; i < d->count; i++)
    if (d->items[i].cls == c) return &d->items[i];
  return NULL;
}

int main(void) {
  gasp_diags d;
  gasp_diags_init(&d);
  gasp_source s = src(".reg .f32 %f<4>;\n.reg .pred %p<2>;\n  add.f32 %f1, %f2, %f4;\n  @%p2 bra L;\n");
  CHECK(gasp_ptx_lint(&s, &d) == 2, "two range errors, got %zu", d.count);
  const gasp_diag *g = find(&d, GASP_CLASS_RANGE);
  CHECK(g && g->line == 3 && g->col == 21 && strstr(g->msg, "%f0..%f3"), "%%f4 at 3:21: %d:%d %s", g ? g->line : 0,
        g ? g->col : 0, g ? g->msg : "");
  CHECK(d.count == 2 && d.items[1].line == 4 && d.items[1].col == 4, "%%p2 at 4:4");
  gasp_diags_clear(&d);
  s = src(".reg .b32 %r<2>;\nmov.u32 %r1, %tid.x;\nmov.u32 %q1, %laneid;\n// %zz in a comment\n");
  CHECK(gasp_ptx_lint(&s, &d) == 1 && d.items[0].cls == GASP_CLASS_SEMANTIC && d.items[0].line == 3 &&
            d.items[0].col == 9, "undeclared %%q1 only");
  gasp_diags_clear(&d);
  s = src(".reg .b64 %rd<4>;\n.reg .f32 %f<4>;\nld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\n"
          "ld.global.v4.f32 {%f0,%f1,%f2,%f3}, [%rd2+8];\nld.global.v2.f32 {%f0,%f1}, [%rd2+8];\n"
          "add.s64 %rd3, %rd2, %rd1;\nld.global.v4.f32 {%f0,%f1,%f2,%f3}, [%rd3+4];\n");
  CHECK(gasp_ptx_lint(&s, &d) == 1, "one provable misalignment, got %zu", d.count);
  CHECK(d.count && d.items[0].line == 5 && strstr(d.items[0].msg, "16-byte"), "the v4 at +8");
  gasp_diags_clear(&d);
  /* snippet mapping: text lines 10.. are answer lines 3.. */
  gasp_source sn = {"l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\n  add.f32 %d, %a, %zz;\n", 10, 1, 3};
  gasp_ptx_lint(&sn, &d);
  int mapped = 0;
  for (size_t i = 0; i < d.count; i++) mapped |= d.items[i].line == 3 && d.items[i].col == 19 && strstr(d.items[i].msg, "%zz");
  CHECK(mapped, "%%zz mapped to answer line 3, column 19");
  gasp_diags_clear(&d);
  /* ptxas output */
  const char *text = ".version 8.0\n.target sm_90\nmov.u32 %r1, %r9;\nfoo bar;\n";
  gasp_source ps = src(text);
  int regs, smem;
  const char *err = "ptxas /tmp/gasp.x/answer.ptx, line 3; error   : Unknown symbol '%r9'\n"
                    "ptxas /tmp/gasp.x/answer.ptx, line 4; fatal   : Parsing error near 'bar': syntax error\n"
                    "ptxas fatal   : Ptx assembly aborted due to errors\n";
  CHECK(gasp_ptxas_parse(err, &ps, NULL, &d, &regs, &smem) == 2, "two errors (the summary line is dropped)");
  CHECK(d.items[0].line == 3 && d.items[0].col == 14 && d.items[0].cls == GASP_CLASS_SEMANTIC, "symbol column");
  CHECK(d.items[1].line == 4 && d.items[1].col == 5 && d.items[1].cls == GASP_CLASS_SYNTAX, "syntax near 'bar': %d:%d %s %s", d.items[1].line, d.items[1].col, gasp_class_name(d.items[1].cls), d.items[1].msg);
  gasp_diags_clear(&d);
  const char *info = "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                     "ptxas info    : Used 12 registers, used 1 barriers, 1024 bytes smem, 384 bytes cmem[0]\n";
  CHECK(gasp_ptxas_parse(info, &ps, NULL, &d, &regs, &smem) == 0 && regs == 12 && smem == 1024, "regs %d smem %d", regs, smem);
  const char *two = "ptxas info    : Compiling entry function 'big' for 'sm_90'\n"
                    "ptxas info    : Used 90 registers, used 0 barriers, 384 bytes cmem[0]\n"
                    "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                    "ptxas info    : Used 12 registers, used 0 barriers, 2048 bytes smem, 384 bytes cmem[0]\n";
  CHECK(gasp_ptxas_parse(two, &ps, "k", &d, &regs, &smem) == 0 && regs == 12 && smem == 2048, "the launched kernel's: %d %d", regs, smem);
  CHECK(gasp_ptxas_parse(two, &ps, "big", &d, &regs, &smem) == 0 && regs == 90 && smem == 0, "big: %d %d", regs, smem);
  CHECK(gasp_ptxas_parse(two, &ps, NULL, &d, &regs, &smem) == 0 && regs == 90 && smem == 2048, "largest: %d %d", regs, smem);
  /* the rewriter: misaligned vector accesses become scalar ones on the same line */
  gasp_diags_clear(&d);
  gasp_source rw = {NULL, 1, 1000, 1};
  rw.text = strdup(".reg .b64 %rd<4>;\n.reg .f32 %f<4>;\n.reg .pred %p<2>;\nld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\n"
                   "  @%p1 ld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%rd2+8];\nst.global.v2.f32 [%rd2+4], {%f0,%f1};\n"
                   "ld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%rd2+16];\nret;\n");
  CHECK(gasp_ptx_split_misaligned(&rw, &d) == 2, "two rewritten");
  CHECK(strstr(rw.text, "  @%p1 ld.global.f32 %f0, [%rd2+8]; @%p1 ld.global.f32 %f1, [%rd2+12]; @%p1 ld.global.f32 %f2, [%rd2+16]; @%p1 ld.global.f32 %f3, [%rd2+20];") != NULL,
        "split with the guard kept: %s", rw.text);
  CHECK(strstr(rw.text, "st.global.f32 [%rd2+4], %f0; st.global.f32 [%rd2+8], %f1;") != NULL, "store split");
  CHECK(strstr(rw.text, "ld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%rd2+16];") != NULL, "aligned access untouched");
  int nl = 0;
  for (const char *c = rw.text; *c; c++) nl += *c == '\n';
  CHECK(nl == 9, "line count kept: %d", nl);
  gasp_diags_clear(&d);
  CHECK(gasp_ptx_lint(&rw, &d) == 0, "nothing left to flag (%zu)", d.count);
  free(rw.text);
  gasp_diags_free(&d);
  return DONE();
}
