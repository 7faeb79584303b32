/* Option parsing from a declared table; the usage text is generated from the same table. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void gasp_cli_error(const char *cmd, const char *fmt, ...) {
  fprintf(stderr, "gasp %s: error: ", cmd);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

void gasp_cli_usage(const gasp_cmd_spec *s, FILE *out) {
  fprintf(out, "usage: gasp %s %s\n\n%s\n\noptions:\n", s->name, s->synopsis, s->summary);
  for (const gasp_opt *o = s->opts; o && o->name; o++) {
    char left[64];
    if (o->short_name)
      snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    else
      snprintf(left, sizeof left, "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    fprintf(out, "  %-28s %s\n", left, o->help);
  }
  fprintf(out, "  %-28s %s\n", "-h, --help", "show this help");
  if (s->details) fprintf(out, "\n%s\n", s->details);
  fprintf(out, "\nexit codes: 0 success/pass, 1 candidate failed, 2 usage error, 3 environment error, 4 skipped (no GPU)\n");
}

static const gasp_opt *find(const gasp_cmd_spec *s, const char *name, char sh) {
  for (const gasp_opt *o = s->opts; o && o->name; o++)
    if ((name && !strcmp(o->name, name)) || (sh && o->short_name == sh)) return o;
  return NULL;
}

static int set(const gasp_cmd_spec *s, const gasp_opt *o, const char *val) {
  char *end;
  switch (o->kind) {
  case OPT_FLAG: *(int *)o->dst = 1; return 0;
  case OPT_STR: *(const char **)o->dst = val; return 0;
  case OPT_INT:
    *(int *)o->dst = (int)strtol(val, &end, 0);
    if (*end || !*val) { gasp_cli_error(s->name, "--%s expects an integer, got '%s'", o->name, val); return -1; }
    return 0;
  case OPT_DOUBLE:
    *(double *)o->dst = strtod(val, &end);
    if (*end || !*val) { gasp_cli_error(s->name, "--%s expects a number, got '%s'", o->name, val); return -1; }
    return 0;
  case OPT_MULTI: {
    gasp_multi *m = o->dst;
    if (m->n == 16) { gasp_cli_error(s->name, "--%s given too many times", o->name); return -1; }
    m->v[m->n++] = val;
    return 0;
  }
  }
  return -1;
}

int gasp_cli_parse(const gasp_cmd_spec *s, int argc, char **argv, const char **pos, int *npos, int maxpos) {
  *npos = 0;
  int only_pos = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!only_pos && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
      gasp_cli_usage(s, stdout);
      return -1;
    }
    if (!only_pos && !strcmp(a, "--")) { only_pos = 1; continue; }
    if (!only_pos && a[0] == '-' && a[1]) {
      const gasp_opt *o;
      const char *val = NULL;
      char name[64];
      if (a[1] == '-') {
        const char *eq = strchr(a + 2, '=');
        size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        if (n >= sizeof name) n = sizeof name - 1;
        memcpy(name, a + 2, n);
        name[n] = 0;
        o = find(s, name, 0);
        if (eq) val = eq + 1;
      } else {
        o = a[2] ? NULL : find(s, NULL, a[1]);
        snprintf(name, sizeof name, "%s", a);
      }
      if (!o) {
        gasp_cli_error(s->name, "unknown option '%s' (see 'gasp %s --help')", a, s->name);
        return GASP_EXIT_USAGE;
      }
      if (o->kind != OPT_FLAG && !val) {
        if (i + 1 >= argc) {
          gasp_cli_error(s->name, "option '--%s' needs a value", o->name);
          return GASP_EXIT_USAGE;
        }
        val = argv[++i];
      }
      if (set(s, o, val)) return GASP_EXIT_USAGE;
      continue;
    }
    if (*npos == maxpos) {
      gasp_cli_error(s->name, "unexpected argument '%s' (see 'gasp %s --help')", a, s->name);
      return GASP_EXIT_USAGE;
    }
    pos[(*npos)++] = a;
  }
  return 0;
}
