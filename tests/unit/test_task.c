/* Task files: the suite loads; malformed files give errors with line and column. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/util.h"
#include "task/task.h"

static int load_text(const char *text, gasp_task *t, gasp_diags *d) {
  char path[] = "/tmp/gasp-task-XXXXXX.yaml";
  int fd = mkstemps(path, 5);
  if (write(fd, text, strlen(text)) < 0) return -2;
  close(fd);
  int rc = gasp_task_load(path, t, d);
  unlink(path);
  return rc;
}

static int has_msg(const gasp_diags *d, const char *needle, int line) {
  for (size_t i = 0; i < d->count; i++)
    if (strstr(d->items[i].msg, needle) && (line < 0 || d->items[i].line == line)) return 1;
  return 0;
}

int main(void) {
  gasp_diags d;
  gasp_diags_init(&d);
  gasp_taskset ts;
  CHECK(gasp_taskset_load(gasp_tasks_dir(), &ts, &d) == 0, "suite dir");
  CHECK(d.count == 0, "suite loads cleanly (%zu problems, first: %s)", d.count, d.count ? d.items[0].msg : "");
  CHECK(ts.count >= 2, "tasks: %zu", ts.count);
  const char *required[] = {"add_f32", "vector_add", "saxpy", "dot3", "relu_leaky", "warp_reduce_sum", "transpose_smem"};
  for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
    CHECK(gasp_taskset_find(&ts, required[i]) != NULL, "required task %s", required[i]);
  int levels[8] = {0};
  for (size_t i = 0; i < ts.count; i++) levels[ts.items[i].level]++;
  for (int l = 0; l < 8; l++) CHECK(levels[l] > 0, "level %d has tasks", l);
  CHECK(ts.count >= 40, "at least 40 tasks: %zu", ts.count);
  const gasp_task *va = gasp_taskset_find(&ts, "vector_add");
  if (va) {
    gasp_trial_shape s;
    char err[128];
    CHECK(gasp_task_shape(va, 0, &s, err, sizeof err) == 0, "shape: %s", err);
    CHECK(s.count[0] == 4099 && s.grid[0] == 17 && s.block[0] == 256, "trial 0 shape %lld %u", (long long)s.count[0], s.grid[0]);
    gasp_task_shape(va, 1, &s, err, sizeof err);
    CHECK(s.count[0] == 1000, "trial 1 uses the second size set");
  }
  gasp_taskset_free(&ts);

  gasp_task t;
  gasp_diags_clear(&d);
  CHECK(load_text("id: x\nlevel: 2\n  bad: [\n", &t, &d) == -1 && d.count && d.items[0].line > 0, "YAML error has a line");
  gasp_diags_clear(&d);
  const char *base = "id: t1\nlevel: 2\ndescription: d\nparams:\n"
                     "  - {name: a, type: f32, role: in, count: n}\n"
                     "  - {name: c, type: f99, role: out, count: n}\n"
                     "  - {name: n, type: u32, role: scalar, value: n}\n"
                     "sizes: [{n: 10}]\nlaunch: {block: [32], grid: [\"cdiv(n,32)\"]}\nref: vector_add\n"
                     "cuda: x\nbogus: 1\n";
  CHECK(load_text(base, &t, &d) == -1, "bad file refused");
  CHECK(has_msg(&d, "unknown type 'f99'", 6), "bad type reported on its line");
  CHECK(has_msg(&d, "unknown key 'bogus'", 12), "unknown key reported on its line");
  gasp_diags_clear(&d);
  const char *badexpr = "id: t2\nlevel: 2\ndescription: d\nparams:\n"
                        "  - {name: a, type: f32, role: in, count: m}\n"
                        "  - {name: n, type: u32, role: scalar, value: n}\n"
                        "sizes: [{n: 10}]\nlaunch: {block: [32], grid: [\"cdiv(n,32)\"]}\nref: vector_add\ncuda: x\n";
  CHECK(load_text(badexpr, &t, &d) == -1 && has_msg(&d, "unknown name", -1), "bad count expression");
  gasp_diags_clear(&d);
  const char *noref = "id: t3\nlevel: 2\ndescription: d\nparams:\n  - {name: n, type: u32, role: scalar, value: 1}\n"
                      "launch: {block: [32]}\nref: no_such_ref\ncuda: x\n";
  CHECK(load_text(noref, &t, &d) == -1 && has_msg(&d, "no CPU reference", -1), "missing reference");
  gasp_diags_clear(&d);
  const char *big = "id: t4\nlevel: 2\ndescription: d\nparams:\n  - {name: n, type: u32, role: scalar, value: 1}\n"
                    "launch: {block: [2048]}\nref: vector_add\ncuda: x\n";
  CHECK(load_text(big, &t, &d) == -1 && has_msg(&d, "1024", -1), "block too large");
  gasp_diags_free(&d);
  return DONE();
}
