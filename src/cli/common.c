/* Helpers shared by subcommands. */
#include "common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#include "../extract/extract.h"
#include "cli.h"

int cli_load_tasks(const char *cmd, gasp_taskset *ts, int strict) {
  gasp_diags d;
  gasp_diags_init(&d);
  int rc = gasp_taskset_load(gasp_tasks_dir(), ts, &d);
  for (size_t i = 0; i < d.count; i++) {
    char buf[800];
    snprintf(buf, sizeof buf, "%s", d.items[i].msg);
    /* task messages carry the file as prefix: print file:line:col */
    const char *colon = strstr(buf, ".yaml: ");
    if (colon) {
      int n = (int)(colon - buf) + 5;
      fprintf(stderr, "%.*s:%d:%d: error: %s\n", n, buf, d.items[i].line, d.items[i].col, colon + 7);
    } else {
      fprintf(stderr, "gasp %s: error: %s\n", cmd, buf);
    }
  }
  int bad = rc || (strict && d.count);
  gasp_diags_free(&d);
  return bad ? GASP_EXIT_ENV : 0;
}

const gasp_target *cli_target(const char *cmd, const char *name) {
  if (!name) {
    gasp_cli_error(cmd, "--target is required (one of: ptx-sm90 ptx-sm89 r300; see 'gasp targets')");
    return NULL;
  }
  const gasp_target *t = gasp_target_find(name);
  if (!t) {
    fprintf(stderr, "gasp %s: error: unknown target '%s'; targets:", cmd, name);
    for (const gasp_target *const *p = gasp_targets(); *p; p++) fprintf(stderr, " %s", (*p)->name);
    fputc('\n', stderr);
  }
  return t;
}

gasp_pool *cli_open_pool(const gasp_pool_opts *o, char *why, size_t cap) {
  const char *no = getenv("GASP_NO_GPU");
  if (no && *no && strcmp(no, "0")) {
    snprintf(why, cap, "GASP_NO_GPU is set");
    return NULL;
  }
  return gasp_pool_open(o, why, cap);
}

void cli_print_diags(const gasp_diags *d, const char *file, FILE *out) {
  for (size_t i = 0; i < d->count; i++) {
    char buf[1200];
    gasp_diag_format(&d->items[i], file, buf, sizeof buf);
    fprintf(out, "%s\n", buf);
  }
}

int cli_read_answer(const char *cmd, const char *path, char **text, size_t *len) {
  /* at most one byte past the limit, so extraction sees an oversized answer as such without us
   * holding all of it */
  FILE *f = fopen(path, "rb");
  if (!f) {
    gasp_cli_error(cmd, "cannot read '%s': %s", path, strerror(errno));
    return -1;
  }
  size_t cap = GASP_MAX_ANSWER_BYTES + 1;
  *text = malloc(cap + 1);
  *len = fread(*text, 1, cap, f);
  (*text)[*len] = 0;
  int err = ferror(f);
  fclose(f);
  if (err) {
    gasp_cli_error(cmd, "cannot read '%s'", path);
    free(*text);
    return -1;
  }
  return 0;
}

void cli_default_task(gasp_task *t) {
  memset(t, 0, sizeof *t);
  gasp_strlcpy(t->id, "file", sizeof t->id);
  t->max_regs = 255;
  gasp_strlcpy(t->block[0], "1", 48);
  gasp_strlcpy(t->block[1], "1", 48);
  gasp_strlcpy(t->block[2], "1", 48);
  gasp_strlcpy(t->grid[0], "1", 48);
  gasp_strlcpy(t->grid[1], "1", 48);
  gasp_strlcpy(t->grid[2], "1", 48);
  gasp_strlcpy(t->shared, "0", 48);
  t->description = "";
}

#ifndef GASP_SHIPPED_MODEL
#define GASP_SHIPPED_MODEL ""
#endif

const char *cli_shipped_model(void) {
  static char path[4096];
  const char *data = getenv("GASP_DATA_DIR");
  if (data && *data) {
    snprintf(path, sizeof path, "%s/models/gasp-small.gguf", data);
    if (!access(path, R_OK)) return path;
  }
  if (*GASP_SHIPPED_MODEL && !access(GASP_SHIPPED_MODEL, R_OK)) return GASP_SHIPPED_MODEL;
  return NULL;
}

int cli_model_none(const char *model_opt) { return model_opt && !strcmp(model_opt, "none"); }

const char *cli_llama_model(const char *model_opt) {
  if (cli_model_none(model_opt)) return NULL;
  if (model_opt && *model_opt) return model_opt;
  const char *env = getenv("GASP_MODEL");
  if (env && *env) return env;
  return cli_shipped_model();
}

const char *cli_default_backend(const char *model) {
  if (cli_model_none(model)) return "reference";
  if (model) return gasp_str_ends_with(model, ".gguf") ? "llama" : "reference";
  return cli_llama_model(NULL) ? "llama" : "reference";
}

int cli_run_self(char **argv) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return -1;
  self[n] = 0;
  argv[0] = self;
  pid_t pid;
  if (posix_spawn(&pid, self, NULL, NULL, argv, environ)) return -1;
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int cli_run_argv(char **argv) {
  pid_t pid;
  if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ)) return -1;
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int cli_run_bench(const cli_bench_call *c) {
  char kbuf[16], wbuf[16], sbuf[16];
  snprintf(kbuf, sizeof kbuf, "%d", c->samples);
  snprintf(wbuf, sizeof wbuf, "%d", c->workers);
  snprintf(sbuf, sizeof sbuf, "%d", c->seed);
  char *argv[24];
  int n = 0;
  argv[n++] = "bench";
  argv[n++] = "--target";
  argv[n++] = (char *)c->target;
  argv[n++] = "--backend";
  argv[n++] = (char *)c->backend;
  argv[n++] = "-o";
  argv[n++] = (char *)c->results;
  argv[n++] = "--no-time";
  argv[n++] = "--seed";
  argv[n++] = sbuf;
  if (c->answers) {
    argv[n++] = "--answers";
    argv[n++] = (char *)c->answers;
  }
  if (c->tasks_glob) {
    argv[n++] = "--tasks";
    argv[n++] = (char *)c->tasks_glob;
  }
  if (c->samples > 0) {
    argv[n++] = "--samples";
    argv[n++] = kbuf;
  }
  if (c->resume) argv[n++] = "--resume";
  if (c->workers > 0) {
    argv[n++] = "--workers";
    argv[n++] = wbuf;
  }
  if (c->quiet) argv[n++] = "-q";
  argv[n] = NULL;
  /* bench loads its tasks from $GASP_TASKS_DIR (gasp_tasks_dir); set for this call only, so that the caller's
   * later reads of the benchmark's own suite (the corpus exclusion, gasp merge) are not pointed at a generated set */
  char *old = NULL;
  if (c->tasks_dir) {
    const char *e = getenv("GASP_TASKS_DIR");
    old = e ? strdup(e) : NULL;
    setenv("GASP_TASKS_DIR", c->tasks_dir, 1);
  }
  int rc = cmd_bench(n, argv);
  if (c->tasks_dir) {
    if (old) setenv("GASP_TASKS_DIR", old, 1);
    else unsetenv("GASP_TASKS_DIR");
    free(old);
  }
  return rc;
}
