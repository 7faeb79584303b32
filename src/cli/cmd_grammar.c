/* gasp grammar: prints the GBNF grammar a target generates for a task (grammar-constrained decoding). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "common.h"
#include "../core/util.h"
#include "../grammar/grammar.h"
#include "../grammar/monitor.h"

int cmd_grammar(int argc, char **argv) {
  const char *target = NULL, *task_id = NULL, *form = NULL, *match = NULL, *monitor = NULL;
  gasp_opt opts[] = {
      {"target", 't', OPT_STR, "T", "the target: ptx-sm90, ptx-sm89, gfx900, gfx1030 or gfx1100 (the targets with a grammar)", &target},
      {"task", 0, OPT_STR, "ID", "the task whose answers the grammar describes", &task_id},
      {"form", 0, OPT_STR, "FILE", "print the PTX in FILE rewritten into the grammar's form instead", &form},
      {"match", 0, OPT_STR, "FILE", "check whether FILE (a whole answer, fence included) is in the grammar's "
                                    "language (llama.cpp's engine); exit 0 yes, 1 no", &match},
      {"monitor", 0, OPT_STR, "FILE", "check FILE (a whole answer) against the decoding monitor's rules instead; "
                                      "exit 0 none broken, 1 broken", &monitor},
      {0}};
  gasp_cmd_spec spec = {"grammar", "--target T --task ID [--form FILE | --match FILE | --monitor FILE]",
                        "Print the GBNF grammar (llama.cpp's format) of well-formed answers to a task.",
                        "The grammar is generated from the target's ISA description and shaped by the task: a snippet\n"
                        "task gets instruction lines over the scaffold's registers, a kernel task a whole module with\n"
                        "the task's kernel name and parameters. Every answer it allows parses with gasp's own parser.\n"
                        "--form rewrites PTX (nvcc's, or any) into the grammar's spelling: its declarations, registers\n"
                        "renamed in order of first use, labels L1, L2, ...; the reference answers (and so the corpus\n"
                        "a model is trained on) are written this way. --match reports the first byte the grammar\n"
                        "refuses, as line:column. --monitor reports the first byte the decoding monitor refuses\n"
                        "(a PTX snippet: a register read before any line wrote it, or the fence closed before every\n"
                        "input was read and every output written), with the rule; bench --monitor on decodes under\n"
                        "both the grammar and these rules.",
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
  const char *file = form ? form : match ? match : monitor;
  char *text = NULL;
  size_t len = 0;
  if (g && file && gasp_read_file(file, 16u << 20, &text, &len)) {
    gasp_cli_error("grammar", "cannot read '%s'", file);
    code = GASP_EXIT_ENV;
  } else if (g && form) {
    char *out = gasp_grammar_ptx_form(t, task, text, &d);
    if (out) fputs(out, stdout);
    else cli_print_diags(&d, file, stderr), code = GASP_EXIT_FAIL;
    free(out);
  } else if (g && monitor) {
    gasp_monitor *m = gasp_monitor_new(t, task);
    const char *why = NULL;
    long at = m ? gasp_monitor_check(m, text, len, &why) : -1;
    if (!m) {
      printf("%s: no monitor for task '%s' on %s (PTX snippet tasks only)\n", file, task->id, t->name);
    } else if (at < 0) {
      printf("%s: breaks none of the monitor's rules\n", file);
    } else {
      int line = 1, col = 1;
      for (long i = 0; i < at; i++) text[i] == '\n' ? (line++, col = 1) : col++;
      printf("%s:%d:%d: the monitor refuses this character: the answer %s\n", file, line, col, why ? why : "?");
      code = GASP_EXIT_FAIL;
    }
    gasp_monitor_free(m);
  } else if (g && match) {
    size_t at = 0;
    int m = gasp_grammar_match(g, text, &at);
    if (m < 0) {
      gasp_cli_error("grammar", "the grammar does not compile (or gasp was built without llama.cpp)");
      code = GASP_EXIT_ENV;
    } else if (m) {
      printf("%s: in the grammar's language\n", file);
    } else {
      int line = 1, col = 1;
      for (size_t i = 0; i < at; i++) text[i] == '\n' ? (line++, col = 1) : col++;
      printf("%s:%d:%d: the grammar refuses this %s\n", file, line, col, text[at] ? "character" : "end");
      code = GASP_EXIT_FAIL;
    }
  }
  free(text);
  if (g && !file) {
    fputs(g, stdout);
  }
  if (g) {
    free(g);
  } else {
    cli_print_diags(&d, task->path, stderr);
    code = GASP_EXIT_ENV;
  }
  gasp_diags_free(&d);
  gasp_taskset_free(&ts);
  return code;
}
