/* gasp grammar: prints the GBNF grammar a target generates for a task (grammar-constrained decoding). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "common.h"

int cmd_grammar(int argc, char **argv) {
  const char *target = NULL, *task_id = NULL;
  gasp_opt opts[] = {
      {"target", 't', OPT_STR, "T", "the target (ptx-sm90, ptx-sm89)", &target},
      {"task", 0, OPT_STR, "ID", "the task whose answers the grammar describes", &task_id},
      {0}};
  gasp_cmd_spec spec = {"grammar", "--target T --task ID",
                        "Print the GBNF grammar (llama.cpp's format) of well-formed answers to a task.",
                        "The grammar is generated from the target's ISA description and shaped by the task: a snippet\n"
                        "task gets instruction lines over the scaffold's registers, a kernel task a whole module with\n"
                        "the task's kernel name and parameters. Every answer it allows parses with gasp's own parser.",
                        opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 0);
  if (rc) return rc < 0 ? 0 : rc;
  if (!task_id) {
    gasp_cli_error("grammar", "--task ID is required (see 'gasp grammar --help')");
    return GASP_EXIT_USAGE;
  }
  const gasp_target *t = cli_target("grammar", target);
  if (!t) return GASP_EXIT_USAGE;
  if (!t->grammar) {
    gasp_cli_error("grammar", "target '%s' has no grammar", t->name);
    return GASP_EXIT_USAGE;
  }
  gasp_taskset ts = {0};
  if (cli_load_tasks("grammar", &ts, 0)) return GASP_EXIT_ENV;
  const gasp_task *task = gasp_taskset_find(&ts, task_id);
  if (!task || !gasp_task_fits(task, t->isa)) {
    gasp_cli_error("grammar", task ? "task '%s' is not written for target's ISA" : "no task '%s' (see 'gasp tasks')",
                   task_id);
    gasp_taskset_free(&ts);
    return GASP_EXIT_USAGE;
  }
  gasp_diags d;
  gasp_diags_init(&d);
  char *g = t->grammar(t, task, &d);
  int code = GASP_EXIT_OK;
  if (g) {
    fputs(g, stdout);
    free(g);
  } else {
    cli_print_diags(&d, task->path, stderr);
    code = GASP_EXIT_ENV;
  }
  gasp_diags_free(&d);
  gasp_taskset_free(&ts);
  return code;
}
