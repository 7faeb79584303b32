/* The command layer: option tables, usage text generated from them, exit codes. Only this layer prints
 * to stdout or decides how the process exits. */
#ifndef GASP_CLI_H
#define GASP_CLI_H

#include <stdio.h>

/* Exit codes, the same for every subcommand. */
enum {
  GASP_EXIT_OK = 0,        /* success; for check/run: the candidate passed */
  GASP_EXIT_FAIL = 1,      /* the candidate failed (check found problems, run judged it wrong) */
  GASP_EXIT_USAGE = 2,     /* bad command line */
  GASP_EXIT_ENV = 3,       /* the environment or input files: a tool missing, a file unreadable, a bad task */
  GASP_EXIT_SKIPPED = 4,   /* the stage asked for could not run here (no GPU): nothing was judged */
};

typedef enum { OPT_FLAG, OPT_STR, OPT_INT, OPT_DOUBLE, OPT_MULTI } gasp_opt_kind;

typedef struct {
  const char *name;      /* long name without dashes */
  char short_name;       /* or 0 */
  gasp_opt_kind kind;
  const char *arg;       /* metavariable for usage, e.g. "T" */
  const char *help;
  void *dst;             /* int*, const char**, double*, or for OPT_MULTI a gasp_multi* */
} gasp_opt;

typedef struct {
  const char *v[16];
  int n;
} gasp_multi;

typedef struct {
  const char *name;
  const char *synopsis;  /* after "gasp NAME " */
  const char *summary;   /* one line */
  const char *details;   /* paragraphs after the options, may be NULL */
  gasp_opt *opts;        /* terminated by name == NULL */
} gasp_cmd_spec;

/* Parses argv (argv[0] is the subcommand). Positional arguments go to pos. Returns -1 when --help was
 * printed (exit 0), 0 on success, GASP_EXIT_USAGE after printing an error. */
int gasp_cli_parse(const gasp_cmd_spec *spec, int argc, char **argv, const char **pos, int *npos, int maxpos);
void gasp_cli_usage(const gasp_cmd_spec *spec, FILE *out);
/* Prints "gasp NAME: error: ..." to stderr. */
void gasp_cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int cmd_tasks(int argc, char **argv);
int cmd_prompt(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_asm(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_throughput(int argc, char **argv);
int cmd_targets(int argc, char **argv);
int cmd_experiment(int argc, char **argv);
int cmd_mkmodel(int argc, char **argv);
int cmd_genspeed(int argc, char **argv);
int cmd_grammar(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_corpus(int argc, char **argv);
int cmd_corpus_repair(int argc, char **argv); /* gasp corpus repair (cmd_corpus_repair.c) */

#endif
