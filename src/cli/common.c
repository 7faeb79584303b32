/* Helpers shared by subcommands. */
#include "common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const char *cli_default_backend(const char *model) {
  const char *env = getenv("GASP_MODEL");
  return (model && gasp_str_ends_with(model, ".gguf")) || (!model && env && *env) ? "llama" : "reference";
}
