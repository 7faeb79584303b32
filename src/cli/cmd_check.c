/* gasp check and gasp asm: static validation and assembly of one answer file. */
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "../core/util.h"
#include "../extract/extract.h"
#include "cli.h"
#include "common.h"

static int check_or_asm(const char *cmd, int argc, char **argv, int want_binary) {
  const char *target = NULL, *task_id = NULL, *out = NULL, *emit = NULL;
  int quiet = 0, fix = 0, parse_only = 0;
  gasp_opt check_opts[] = {
      {"target", 't', OPT_STR, "T", CLI_TARGET_HELP, &target},
      {"task", 0, OPT_STR, "ID", "judge FILE as an answer to this task (snippet tasks need it)", &task_id},
      {"quiet", 'q', OPT_FLAG, NULL, "print nothing; the exit code tells", &quiet},
      {"rewrite", 0, OPT_FLAG, NULL, "apply the target's rewriters first (e.g. split misaligned vector accesses, "
       "SASS hazards)", &fix},
      {"fix", 0, OPT_FLAG, NULL, "the same as --rewrite", &fix},
      {"emit", 0, OPT_STR, "FILE", "write the assembler input after the rewriters to FILE (e.g. SASS with the "
       "control codes gasp assigned or repaired)", &emit},
      {"parse-only", 0, OPT_FLAG, NULL, "only gasp's own parser (syntax), no assembler", &parse_only},
      {0}};
  gasp_opt asm_opts[] = {
      check_opts[0], check_opts[1], check_opts[2], check_opts[3], check_opts[4], check_opts[5],
      {"output", 'o', OPT_STR, "OUT", "where to write the binary", &out},
      {0}};
  gasp_cmd_spec spec = {
      cmd, want_binary ? "--target T [--task ID] FILE -o OUT" : "--target T [--task ID] FILE",
      want_binary ? "Assemble FILE (a model's answer or plain assembly) into a loadable binary (a cubin for PTX)."
                  : "Statically validate FILE: syntax, declarations, register ranges, provable misalignment, "
                    "registers per thread.",
      "FILE may be a raw model answer: the assembly is taken from markdown fences or from the prose around it.\n"
      "Problems are printed one per line as FILE:LINE:COL: error: CLASS: message, where CLASS is one of extract,\n"
      "syntax, semantic, resource, range, hazard; lines and columns point into FILE as given. Notes say what\n"
      "gasp did or found (SASS: control codes it assigned, registers per thread and the occupancy that follows).",
      want_binary ? asm_opts : check_opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 1);
  if (rc) return rc < 0 ? 0 : rc;
  if (npos != 1) {
    gasp_cli_error(cmd, "expected one FILE (see 'gasp %s --help')", cmd);
    return GASP_EXIT_USAGE;
  }
  if (want_binary && !out) {
    gasp_cli_error(cmd, "-o OUT is required");
    return GASP_EXIT_USAGE;
  }
  const gasp_target *t = cli_target(cmd, target);
  if (!t) return GASP_EXIT_USAGE;
  gasp_taskset ts = {0};
  gasp_task dflt;
  const gasp_task *task = NULL;
  if (task_id) {
    cli_load_tasks(cmd, &ts, 0);
    task = gasp_taskset_find(&ts, task_id);
    if (task && !gasp_task_fits(task, t->isa)) {
      gasp_cli_error(cmd, "task '%s' is written for %s, not for target '%s'", task_id, task->isa, t->name);
      gasp_taskset_free(&ts);
      return GASP_EXIT_USAGE;
    }
    if (!task) {
      gasp_cli_error(cmd, "no task '%s' (see 'gasp tasks')", task_id);
      gasp_taskset_free(&ts);
      return GASP_EXIT_USAGE;
    }
  } else {
    cli_default_task(&dflt);
    snprintf(dflt.isa, sizeof dflt.isa, "%s", t->exec == GASP_EXEC_GL ? "arb" : "ptx");
    task = &dflt;
  }
  gasp_record rec;
  gasp_record_init(&rec);
  if (cli_read_answer(cmd, pos[0], &rec.answer, &rec.answer_len)) {
    gasp_taskset_free(&ts);
    return GASP_EXIT_ENV;
  }
  if (parse_only && !want_binary) {
    /* our parser alone: how grammar validity is measured; ptxas stays the authority of a full check */
    int exit_code = GASP_EXIT_OK;
    gasp_extracted ex;
    if (!t->parse) {
      gasp_cli_error(cmd, "target '%s' has no parser of its own", t->name);
      exit_code = GASP_EXIT_USAGE;
    } else if (gasp_extract(rec.answer, rec.answer_len, t, &ex, &rec.diags) == 0) {
      if (t->parse(t, task, ex.code, ex.first_line, &rec.diags)) exit_code = GASP_EXIT_FAIL;
      gasp_extracted_free(&ex);
    } else {
      exit_code = GASP_EXIT_FAIL;
    }
    if (!quiet) cli_print_diags(&rec.diags, pos[0], stderr);
    if (!quiet && exit_code == GASP_EXIT_OK) fprintf(stderr, "%s: parses\n", pos[0]);
    gasp_record_free(&rec);
    gasp_taskset_free(&ts);
    return exit_code;
  }
  gasp_binary bin;
  memset(&bin, 0, sizeof bin);
  gasp_eval_opts eo = {0};
  eo.stop_after_check = 1;
  eo.binary_out = &bin;
  eo.rewrite = fix;
  char *emitted = NULL;
  if (emit) eo.source_out = &emitted;
  gasp_eval(t, task, &eo, &rec);
  if (emit && emitted && gasp_write_file(emit, emitted, strlen(emitted))) {
    gasp_cli_error(cmd, "cannot write '%s'", emit);
    free(emitted);
    gasp_binary_free(&bin);
    gasp_record_free(&rec);
    gasp_taskset_free(&ts);
    return GASP_EXIT_ENV;
  }
  free(emitted);
  int exit_code = GASP_EXIT_OK;
  if (!quiet) cli_print_diags(&rec.diags, pos[0], stderr);
  if (rec.cls == GASP_CLASS_ERROR) exit_code = GASP_EXIT_ENV; /* the tool failed, not the answer */
  else if (rec.cls != GASP_CLASS_PASS) exit_code = GASP_EXIT_FAIL;
  if (exit_code == GASP_EXIT_OK && want_binary) {
    if (gasp_write_file(out, bin.data, bin.len)) {
      gasp_cli_error(cmd, "cannot write '%s'", out);
      exit_code = GASP_EXIT_ENV;
    } else if (!quiet) {
      fprintf(stderr, "wrote %s: %zu bytes, kernel %s, %d registers per thread\n", out, bin.len, bin.kernel, bin.regs);
    }
  } else if (exit_code == GASP_EXIT_OK && !quiet) {
    fprintf(stderr, "%s: ok (%d registers per thread)\n", pos[0], bin.regs);
  }
  gasp_binary_free(&bin);
  gasp_record_free(&rec);
  gasp_taskset_free(&ts);
  return exit_code;
}

int cmd_check(int argc, char **argv) { return check_or_asm("check", argc, argv, 0); }
int cmd_asm(int argc, char **argv) { return check_or_asm("asm", argc, argv, 1); }
