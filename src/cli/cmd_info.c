/* gasp tasks, gasp targets, gasp prompt: looking at the suite without running anything. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "../prompt/prompt.h"
#include "../target/amdgcn/amd.h"
#include "cli.h"
#include "common.h"

int cmd_tasks(int argc, char **argv) {
  const char *target = NULL, *glob = NULL;
  int json = 0;
  gasp_opt opts[] = {
      {"target", 't', OPT_STR, "T", "only tasks this target can take (PTX tasks for ptx-*, ARB tasks for r300)", &target},
      {"tasks", 0, OPT_STR, "GLOB", "only task ids matching GLOB (e.g. 'warp_*')", &glob},
      {"json", 0, OPT_FLAG, NULL, "one JSON object per line", &json},
      {0}};
  gasp_cmd_spec spec = {"tasks", "[--target T] [--tasks GLOB] [--json]",
                        "List the task suite: one line per task, starting with its id and level.",
                        "Tasks are read from $GASP_TASKS_DIR, else the suite installed with gasp.", opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 0);
  if (rc) return rc < 0 ? 0 : rc;
  const gasp_target *tg = target ? cli_target("tasks", target) : NULL;
  if (target && !tg) return GASP_EXIT_USAGE;
  gasp_taskset ts;
  if (cli_load_tasks("tasks", &ts, 0) && !ts.count) return GASP_EXIT_ENV;
  for (size_t i = 0; i < ts.count; i++) {
    const gasp_task *t = &ts.items[i];
    if (glob && !gasp_glob_match(glob, t->id)) continue;
    if (tg && !gasp_task_fits(t, tg->isa)) continue;
    if (json) {
      json_t *o = json_object();
      json_object_set_new(o, "id", json_string(t->id));
      json_object_set_new(o, "level", json_integer(t->level));
      json_object_set_new(o, "title", json_string(t->title));
      json_object_set_new(o, "snippet", json_boolean(t->snippet));
      json_object_set_new(o, "isa", json_string(t->isa));
      json_object_set_new(o, "kernel", json_string(t->kernel));
      json_object_set_new(o, "trials", json_integer(t->trials));
      json_object_set_new(o, "path", json_string(t->path));
      char *s = json_dumps(o, JSON_COMPACT);
      printf("%s\n", s);
      free(s);
      json_decref(o);
    } else {
      printf("%-22s L%d  %s%s%s\n", t->id, t->level, t->title, t->snippet ? " [snippet]" : "",
             strcmp(t->isa, "ptx") ? " [arb]" : "");
    }
  }
  gasp_taskset_free(&ts);
  return 0;
}

int cmd_targets(int argc, char **argv) {
  gasp_opt opts[] = {{0}};
  gasp_cmd_spec spec = {"targets", "", "List the targets: name, ISA, architecture, where it runs.", NULL, opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 0);
  if (rc) return rc < 0 ? 0 : rc;
  for (const gasp_target *const *p = gasp_targets(); *p; p++)
    printf("%-10s %-4s %-6s %s%s\n", (*p)->name, (*p)->isa, (*p)->arch, (*p)->gpu,
           (*p)->exec == GASP_EXEC_GL ? " (runs on Mesa's software renderer, no GPU needed)"
           : (*p)->exec == GASP_EXEC_EMU && gasp_amd_emulator_built() ? " (runs on gasp's AMD emulator, no GPU needed)"
           : (*p)->cc == 90        ? " (runs on the H200)"
                                   : " (check and assemble only here)");
  return 0;
}

int cmd_prompt(int argc, char **argv) {
  const char *target = NULL, *task_id = NULL, *variant = GASP_VARIANT_DEFAULT;
  gasp_opt opts[] = {
      {"task", 0, OPT_STR, "ID", "the task", &task_id},
      {"target", 't', OPT_STR, "T", CLI_TARGET_HELP, &target},
      {"variant", 0, OPT_STR, "V", "bare | constrained | constrained+example | constrained+example+facts (default)", &variant},
      {0}};
  gasp_cmd_spec spec = {"prompt", "--task ID --target T [--variant V]",
                        "Print the prompt that would be sent to a model.",
                        "The variants rerun the source article's prompt experiment: a bare request, then the three "
                        "constraint layers (syntax, semantics, hardware context), then an example, then ISA facts.",
                        opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 0);
  if (rc) return rc < 0 ? 0 : rc;
  if (!task_id) {
    gasp_cli_error("prompt", "--task is required (see 'gasp tasks')");
    return GASP_EXIT_USAGE;
  }
  const gasp_target *t = cli_target("prompt", target);
  if (!t) return GASP_EXIT_USAGE;
  if (!gasp_prompt_variant_valid(variant)) {
    gasp_cli_error("prompt", "unknown variant '%s'", variant);
    return GASP_EXIT_USAGE;
  }
  gasp_taskset ts;
  cli_load_tasks("prompt", &ts, 0);
  const gasp_task *task = gasp_taskset_find(&ts, task_id);
  if (task && !gasp_task_fits(task, t->isa)) {
    gasp_cli_error("prompt", "task '%s' is written for %s, not for target '%s' (see 'gasp tasks --target %s')", task_id,
                   task->isa, t->name, t->name);
    gasp_taskset_free(&ts);
    return GASP_EXIT_USAGE;
  }
  if (!task) {
    gasp_cli_error("prompt", "no task '%s' (see 'gasp tasks')", task_id);
    gasp_taskset_free(&ts);
    return GASP_EXIT_USAGE;
  }
  char *p = gasp_prompt_build(t, task, variant);
  fputs(p, stdout);
  free(p);
  gasp_taskset_free(&ts);
  return 0;
}
