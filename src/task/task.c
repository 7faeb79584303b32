/* Task files: YAML through libyaml's document API, checked field by field with positions. */
#define _GNU_SOURCE
#include "task.h"
#include "map.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "../core/expr.h"
#include "../core/util.h"
#include "gen.h"
#include "ref/ref.h"

static const char *const dtype_names[GASP_DT_COUNT] = {"f32", "f64", "s32", "u32", "s64", "u64"};
static const size_t dtype_sizes[GASP_DT_COUNT] = {4, 8, 4, 4, 8, 8};

const char *gasp_dtype_name(gasp_dtype t) { return (t >= 0 && t < GASP_DT_COUNT) ? dtype_names[t] : "?"; }
size_t gasp_dtype_size(gasp_dtype t) { return (t >= 0 && t < GASP_DT_COUNT) ? dtype_sizes[t] : 0; }
int gasp_dtype_is_float(gasp_dtype t) { return t == GASP_DT_F32 || t == GASP_DT_F64; }
int gasp_dtype_from_name(const char *s) {
  for (int i = 0; i < GASP_DT_COUNT; i++)
    if (!strcmp(s, dtype_names[i])) return i;
  return -1;
}

typedef struct {
  yaml_document_t *doc;
  gasp_diags *d;
  int errors;
} ld;

static void err_at(ld *l, yaml_node_t *n, const char *fmt, const char *arg) {
  int line = n ? (int)n->start_mark.line + 1 : 0, col = n ? (int)n->start_mark.column + 1 : 0;
  gasp_diags_add(l->d, GASP_SEV_ERROR, GASP_CLASS_ERROR, line, col, fmt, arg);
  l->errors++;
}

static yaml_node_t *map_get(ld *l, yaml_node_t *map, const char *key) {
  if (!map || map->type != YAML_MAPPING_NODE) return NULL;
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(l->doc, p->key);
    if (k && k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, key))
      return yaml_document_get_node(l->doc, p->value);
  }
  return NULL;
}

static const char *scalar(ld *l, yaml_node_t *n, const char *what) {
  if (!n) return NULL;
  if (n->type != YAML_SCALAR_NODE) {
    err_at(l, n, "'%s' must be a plain value", what);
    return NULL;
  }
  return (const char *)n->data.scalar.value;
}

static void copy_field(ld *l, yaml_node_t *n, const char *what, char *dst, size_t cap) {
  const char *s = scalar(l, n, what);
  if (!s) return;
  if (strlen(s) >= cap) {
    err_at(l, n, "'%s' is too long", what);
    return;
  }
  gasp_strlcpy(dst, s, cap);
}

static char *dup_field(ld *l, yaml_node_t *n, const char *what) {
  const char *s = scalar(l, n, what);
  return s ? gasp_strdup(s) : NULL;
}

static int int_field(ld *l, yaml_node_t *n, const char *what, int dflt) {
  const char *s = scalar(l, n, what);
  if (!s) return dflt;
  char *end;
  long v = strtol(s, &end, 0);
  if (*end || end == s) {
    err_at(l, n, "'%s' must be an integer", what);
    return dflt;
  }
  return (int)v;
}

static double num_field(ld *l, yaml_node_t *n, const char *what, double dflt) {
  const char *s = scalar(l, n, what);
  if (!s) return dflt;
  char *end;
  double v = strtod(s, &end);
  if (*end || end == s) {
    err_at(l, n, "'%s' must be a number", what);
    return dflt;
  }
  return v;
}

static const char *const known_top[] = {"id", "level", "title", "description", "source", "kernel", "snippet",
                                        "params", "sizes", "launch", "trials", "tolerance", "timeout_ms",
                                        "max_regs", "time_reps", "ref", "cuda", "ptx_snippet", "tags",
                                        "isa", "program", "arb_reference", "map", NULL};

static void check_keys(ld *l, yaml_node_t *map, const char *const *known, const char *where) {
  if (!map || map->type != YAML_MAPPING_NODE) return;
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(l->doc, p->key);
    if (!k || k->type != YAML_SCALAR_NODE) continue;
    int ok = 0;
    for (int i = 0; known[i]; i++) ok |= !strcmp(known[i], (char *)k->data.scalar.value);
    if (!ok) {
      char m[160];
      snprintf(m, sizeof m, "unknown key '%s' in %s", (char *)k->data.scalar.value, where);
      err_at(l, k, "%s", m);
    }
  }
}

static void load_param(ld *l, yaml_node_t *n, gasp_param *p) {
  static const char *const keys[] = {"name", "type", "role", "count", "value", "gen", NULL};
  if (n->type != YAML_MAPPING_NODE) {
    err_at(l, n, "%s", "each param must be a mapping {name, type, role, ...}");
    return;
  }
  check_keys(l, n, keys, "a param");
  copy_field(l, map_get(l, n, "name"), "name", p->name, sizeof p->name);
  if (!p->name[0]) err_at(l, n, "%s", "param without a name");
  const char *ty = scalar(l, map_get(l, n, "type"), "type");
  int dt = ty ? gasp_dtype_from_name(ty) : -1;
  if (dt < 0) err_at(l, map_get(l, n, "type") ? map_get(l, n, "type") : n, "unknown type '%s' (f32 f64 s32 u32 s64 u64)", ty ? ty : "");
  p->type = dt < 0 ? GASP_DT_F32 : (gasp_dtype)dt;
  const char *role = scalar(l, map_get(l, n, "role"), "role");
  if (!role || !strcmp(role, "scalar")) p->role = GASP_ROLE_SCALAR;
  else if (!strcmp(role, "in")) p->role = GASP_ROLE_IN;
  else if (!strcmp(role, "out")) p->role = GASP_ROLE_OUT;
  else err_at(l, map_get(l, n, "role"), "unknown role '%s' (in, out, scalar)", role);
  copy_field(l, map_get(l, n, "count"), "count", p->count, sizeof p->count);
  copy_field(l, map_get(l, n, "value"), "value", p->value, sizeof p->value);
  if (p->role != GASP_ROLE_SCALAR && !p->count[0]) err_at(l, n, "array param '%s' needs a count", p->name);
  if (p->role == GASP_ROLE_SCALAR && !p->value[0]) err_at(l, n, "scalar param '%s' needs a value", p->name);
  yaml_node_t *g = map_get(l, n, "gen");
  if (g && g->type == YAML_SCALAR_NODE) {
    copy_field(l, g, "gen", p->gen[0], sizeof p->gen[0]);
    p->ngen = 1;
  } else if (g && g->type == YAML_SEQUENCE_NODE) {
    for (yaml_node_item_t *it = g->data.sequence.items.start; it < g->data.sequence.items.top; it++) {
      if (p->ngen == GASP_MAX_GENS) {
        err_at(l, g, "%s", "too many generators");
        break;
      }
      copy_field(l, yaml_document_get_node(l->doc, *it), "gen", p->gen[p->ngen], sizeof p->gen[0]);
      p->ngen++;
    }
  }
  if (p->role == GASP_ROLE_IN && p->ngen == 0) {
    gasp_strlcpy(p->gen[0], gasp_dtype_is_float(p->type) ? "uniform(-1,1)" : "int(-1000,1000)", sizeof p->gen[0]);
    gasp_strlcpy(p->gen[1], gasp_dtype_is_float(p->type) ? "heavy" : "int(-2147483648,2147483647)", sizeof p->gen[1]);
    gasp_strlcpy(p->gen[2], gasp_dtype_is_float(p->type) ? "special" : "int(0,7)", sizeof p->gen[2]);
    p->ngen = 3;
  }
  for (int i = 0; i < p->ngen; i++) {
    char e[128];
    if (gasp_gen_validate(p->gen[i], p->type, e, sizeof e)) err_at(l, g, "bad generator: %s", e);
  }
}

static void load_dims(ld *l, yaml_node_t *n, const char *what, char dst[3][48], const char *dflt) {
  for (int i = 0; i < 3; i++) gasp_strlcpy(dst[i], dflt, 48);
  if (!n) return;
  if (n->type == YAML_SCALAR_NODE) {
    copy_field(l, n, what, dst[0], 48);
    return;
  }
  if (n->type != YAML_SEQUENCE_NODE) {
    err_at(l, n, "'%s' must be a list of up to 3 expressions", what);
    return;
  }
  int i = 0;
  for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++, i++) {
    if (i == 3) {
      err_at(l, n, "'%s' has more than 3 dimensions", what);
      break;
    }
    copy_field(l, yaml_document_get_node(l->doc, *it), what, dst[i], 48);
  }
}

int gasp_task_load(const char *path, gasp_task *t, gasp_diags *d) {
  memset(t, 0, sizeof *t);
  gasp_strlcpy(t->path, path, sizeof t->path);
  FILE *f = fopen(path, "rb");
  if (!f) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "cannot open: %s", strerror(errno));
    return -1;
  }
  yaml_parser_t parser;
  yaml_document_t doc;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_file(&parser, f);
  if (!yaml_parser_load(&parser, &doc)) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, (int)parser.problem_mark.line + 1,
                   (int)parser.problem_mark.column + 1, "YAML: %s", parser.problem ? parser.problem : "parse error");
    yaml_parser_delete(&parser);
    fclose(f);
    return -1;
  }
  yaml_parser_delete(&parser);
  fclose(f);
  ld L = {&doc, d, 0}, *l = &L;
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  if (!root || root->type != YAML_MAPPING_NODE) {
    err_at(l, root, "%s", "a task file must be a mapping");
    yaml_document_delete(&doc);
    return -1;
  }
  check_keys(l, root, known_top, "the task");
  copy_field(l, map_get(l, root, "id"), "id", t->id, sizeof t->id);
  if (!t->id[0]) err_at(l, root, "%s", "missing 'id'");
  for (const char *c = t->id; *c; c++)
    if (!(*c == '_' || *c == '-' || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9'))) {
      err_at(l, map_get(l, root, "id"), "id '%s' may hold only a-z, 0-9, '_' and '-'", t->id);
      break;
    }
  t->level = int_field(l, map_get(l, root, "level"), "level", -1);
  if (t->level < 0 || t->level > 7) err_at(l, map_get(l, root, "level") ? map_get(l, root, "level") : root, "%s", "'level' must be 0..7");
  copy_field(l, map_get(l, root, "title"), "title", t->title, sizeof t->title);
  t->description = dup_field(l, map_get(l, root, "description"), "description");
  if (!t->description) err_at(l, root, "%s", "missing 'description'");
  t->source = dup_field(l, map_get(l, root, "source"), "source");
  copy_field(l, map_get(l, root, "kernel"), "kernel", t->kernel, sizeof t->kernel);
  if (!t->kernel[0]) gasp_strlcpy(t->kernel, t->id, sizeof t->kernel);
  for (char *c = t->kernel; *c; c++)
    if (*c == '-') *c = '_';
  const char *sn = scalar(l, map_get(l, root, "snippet"), "snippet");
  t->snippet = sn && (!strcmp(sn, "true") || !strcmp(sn, "yes") || !strcmp(sn, "1"));

  yaml_node_t *ps = map_get(l, root, "params");
  if (!ps || ps->type != YAML_SEQUENCE_NODE) err_at(l, ps ? ps : root, "%s", "'params' must be a list");
  else
    for (yaml_node_item_t *it = ps->data.sequence.items.start; it < ps->data.sequence.items.top; it++) {
      if (t->nparams == GASP_MAX_PARAMS) {
        err_at(l, ps, "%s", "too many params");
        break;
      }
      load_param(l, yaml_document_get_node(&doc, *it), &t->params[t->nparams++]);
    }

  yaml_node_t *ss = map_get(l, root, "sizes");
  if (ss && ss->type == YAML_MAPPING_NODE) {
    /* a single set */
    err_at(l, ss, "%s", "'sizes' must be a list of mappings, e.g. [{n: 4099}, {n: 1000}]");
  } else if (ss && ss->type == YAML_SEQUENCE_NODE) {
    for (yaml_node_item_t *it = ss->data.sequence.items.start; it < ss->data.sequence.items.top; it++) {
      yaml_node_t *set = yaml_document_get_node(&doc, *it);
      if (t->nsize_sets == GASP_MAX_SIZE_SETS) {
        err_at(l, set, "%s", "too many size sets");
        break;
      }
      if (!set || set->type != YAML_MAPPING_NODE) {
        err_at(l, set, "%s", "each size set must be a mapping");
        continue;
      }
      for (yaml_node_pair_t *p = set->data.mapping.pairs.start; p < set->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&doc, p->key), *v = yaml_document_get_node(&doc, p->value);
        const char *name = scalar(l, k, "size name");
        if (!name) continue;
        int idx = -1;
        for (int i = 0; i < t->nsize_names; i++)
          if (!strcmp(t->size_names[i], name)) idx = i;
        if (idx < 0) {
          if (t->nsize_sets > 0) {
            err_at(l, k, "size '%s' is not in the first set", name);
            continue;
          }
          if (t->nsize_names == GASP_MAX_SIZE_NAMES) {
            err_at(l, k, "%s", "too many size names");
            continue;
          }
          idx = t->nsize_names++;
          gasp_strlcpy(t->size_names[idx], name, sizeof t->size_names[0]);
        }
        char e[128];
        const char *vs = scalar(l, v, "size");
        if (vs && gasp_expr_eval(vs, NULL, &t->size_sets[t->nsize_sets][idx], e, sizeof e))
          err_at(l, v, "bad size: %s", e);
      }
      t->nsize_sets++;
    }
  }
  yaml_node_t *la = map_get(l, root, "launch");
  if (!la) err_at(l, root, "%s", "missing 'launch' {block, grid}");
  else {
    static const char *const keys[] = {"block", "grid", "shared", NULL};
    check_keys(l, la, keys, "launch");
  }
  load_dims(l, map_get(l, la, "block"), "block", t->block, "1");
  load_dims(l, map_get(l, la, "grid"), "grid", t->grid, "1");
  gasp_strlcpy(t->shared, "0", sizeof t->shared);
  copy_field(l, map_get(l, la, "shared"), "shared", t->shared, sizeof t->shared);
  t->trials = int_field(l, map_get(l, root, "trials"), "trials", 3);
  if (t->trials < 1 || t->trials > 64) err_at(l, map_get(l, root, "trials"), "%s", "'trials' must be 1..64");
  yaml_node_t *tol = map_get(l, root, "tolerance");
  t->rel_tol = num_field(l, map_get(l, tol, "rel"), "rel", 1e-6);
  t->abs_tol = num_field(l, map_get(l, tol, "abs"), "abs", 0);
  t->timeout_ms = int_field(l, map_get(l, root, "timeout_ms"), "timeout_ms", 2000);
  t->max_regs = int_field(l, map_get(l, root, "max_regs"), "max_regs", 255);
  t->time_reps = int_field(l, map_get(l, root, "time_reps"), "time_reps", 20);
  if (t->time_reps < 1 || t->time_reps > 10000) err_at(l, map_get(l, root, "time_reps"), "%s", "'time_reps' must be 1..10000");
  if (t->timeout_ms < 10 || t->timeout_ms > 600000) err_at(l, map_get(l, root, "timeout_ms"), "%s", "'timeout_ms' must be 10..600000");
  copy_field(l, map_get(l, root, "ref"), "ref", t->ref, sizeof t->ref);
  /* map: the element-wise computation as an expression (map.h); its reference is the generic "map" */
  t->map = dup_field(l, map_get(l, root, "map"), "map");
  if (!t->ref[0]) gasp_strlcpy(t->ref, t->map ? "map" : t->id, sizeof t->ref);
  if (t->map) {
    gasp_map m;
    char e[160];
    int col = 0;
    if (gasp_map_parse(t->map, t, &m, &col, e, sizeof e)) {
      yaml_node_t *mn = map_get(l, root, "map");
      char msg[220];
      snprintf(msg, sizeof msg, "map, column %d of the expression: %s", col + 1, e);
      err_at(l, mn, "%s", msg);
    }
  }
  if (!strcmp(t->ref, "map") && !t->map) err_at(l, root, "%s", "ref 'map' needs a 'map' expression");
  if (!gasp_ref_find(t->ref)) err_at(l, root, "no CPU reference function named '%s' (src/task/ref)", t->ref);
  gasp_strlcpy(t->isa, "ptx", sizeof t->isa);
  copy_field(l, map_get(l, root, "isa"), "isa", t->isa, sizeof t->isa);
  if (strcmp(t->isa, "ptx") && strcmp(t->isa, "arb")) err_at(l, map_get(l, root, "isa"), "unknown isa '%s' (ptx, arb)", t->isa);
  const char *prog = scalar(l, map_get(l, root, "program"), "program");
  t->vertex_program = prog && !strcmp(prog, "vertex");
  if (prog && strcmp(prog, "vertex") && strcmp(prog, "fragment"))
    err_at(l, map_get(l, root, "program"), "'program' must be fragment or vertex, not '%s'", prog);
  t->arb_reference = dup_field(l, map_get(l, root, "arb_reference"), "arb_reference");
  t->cuda = dup_field(l, map_get(l, root, "cuda"), "cuda");
  if (!strcmp(t->isa, "ptx") && !t->cuda) err_at(l, root, "%s", "missing 'cuda' (the CUDA C reference kernel)");
  if (!strcmp(t->isa, "arb") && !t->arb_reference) err_at(l, root, "%s", "missing 'arb_reference' (the reference program)");
  t->ptx_snippet = dup_field(l, map_get(l, root, "ptx_snippet"), "ptx_snippet");
  if (t->snippet) {
    for (int i = 0; i < t->nparams; i++)
      if (t->params[i].role == GASP_ROLE_SCALAR && strcmp(t->params[i].name, "n"))
        err_at(l, ps, "%s", "snippet tasks take arrays and one scalar 'n' only");
  }
  /* every expression must evaluate for every trial */
  if (!L.errors) {
    for (int tr = 0; tr < t->trials; tr++) {
      gasp_trial_shape s;
      char e[160];
      if (gasp_task_shape(t, tr, &s, e, sizeof e)) {
        err_at(l, root, "%s", e);
        break;
      }
    }
  }
  yaml_document_delete(&doc);
  if (L.errors) {
    gasp_task_free(t);
    return -1;
  }
  /* AMD targets take the kernel ABI, generators and CPU reference of a PTX task when an OpenCL C reference
   * sits beside it in amdgcn/ (tasks/README.md) */
  const char *slash = strrchr(path, '/');
  snprintf(t->amd_reference_path, sizeof t->amd_reference_path, "%.*samdgcn/%s.cl", slash ? (int)(slash - path + 1) : 0,
           path, t->id);
  size_t cl_len;
  if (!strcmp(t->isa, "ptx") && gasp_read_file(t->amd_reference_path, 1 << 20, &t->amd_reference, &cl_len)) {
    t->amd_reference = NULL;
    t->amd_reference_path[0] = 0;
  }
  return 0;
}

void gasp_task_free(gasp_task *t) {
  free(t->description);
  free(t->source);
  free(t->cuda);
  free(t->ptx_snippet);
  free(t->arb_reference);
  free(t->amd_reference);
  free(t->map);
  t->amd_reference = NULL;
  t->map = NULL;
  t->description = t->source = t->cuda = t->ptx_snippet = t->arb_reference = NULL;
}

int gasp_task_fits(const gasp_task *task, const char *target_isa) {
  if (target_isa && !strcasecmp(target_isa, "AMDGCN")) return task->amd_reference != NULL;
  /* SASS targets take the whole-kernel PTX tasks: their CUDA reference gives nvcc's SASS (snippets need a PTX scaffold) */
  if (target_isa && !strcasecmp(target_isa, "SASS")) return !strcasecmp(task->isa, "ptx") && !task->snippet && task->cuda;
  return target_isa && !strcasecmp(task->isa, target_isa);
}

int gasp_task_shape(const gasp_task *t, int trial, gasp_trial_shape *s, char *err, int errcap) {
  memset(s, 0, sizeof *s);
  const char *names[GASP_MAX_SIZE_NAMES];
  int nset = t->nsize_sets ? trial % t->nsize_sets : 0;
  for (int i = 0; i < t->nsize_names; i++) {
    names[i] = t->size_names[i];
    s->sizes[i] = t->size_sets[nset][i];
  }
  gasp_expr_env env = {names, s->sizes, t->nsize_names};
  char e[128];
  int64_t v;
  for (int i = 0; i < t->nparams; i++) {
    const gasp_param *p = &t->params[i];
    if (p->role != GASP_ROLE_SCALAR) {
      if (gasp_expr_eval(p->count, &env, &v, e, sizeof e) || v < 0 || v > (1LL << 30)) {
        snprintf(err, (size_t)errcap, "param '%s' count '%s': %s", p->name, p->count, e[0] ? e : "out of range");
        return -1;
      }
      s->count[i] = v;
    } else if (gasp_dtype_is_float(p->type)) {
      char *end;
      s->scalar[i].f = strtod(p->value, &end);
      if (*end) {
        snprintf(err, (size_t)errcap, "param '%s' value '%s' is not a number", p->name, p->value);
        return -1;
      }
    } else {
      if (gasp_expr_eval(p->value, &env, &v, e, sizeof e)) {
        snprintf(err, (size_t)errcap, "param '%s' value '%s': %s", p->name, p->value, e);
        return -1;
      }
      s->scalar[i].i = v;
    }
  }
  const char *what[7] = {"block.x", "block.y", "block.z", "grid.x", "grid.y", "grid.z", "shared"};
  for (int k = 0; k < 7; k++) {
    const char *x = k < 3 ? t->block[k] : k < 6 ? t->grid[k - 3] : t->shared;
    if (gasp_expr_eval(x, &env, &v, e, sizeof e) || v < (k < 6 ? 1 : 0) || v > (k == 6 ? 232448 : 0x7fffffff)) {
      snprintf(err, (size_t)errcap, "launch %s '%s': %s", what[k], x, e[0] ? e : "out of range");
      return -1;
    }
    if (k < 3) s->block[k] = (uint32_t)v;
    else if (k < 6) s->grid[k - 3] = (uint32_t)v;
    else s->shared_bytes = (uint32_t)v;
  }
  if ((uint64_t)s->block[0] * s->block[1] * s->block[2] > 1024) {
    snprintf(err, (size_t)errcap, "block has more than 1024 threads");
    return -1;
  }
  return 0;
}

static int task_cmp(const void *a, const void *b) {
  const gasp_task *x = a, *y = b;
  if (x->level != y->level) return x->level - y->level;
  return strcmp(x->id, y->id);
}

int gasp_taskset_load(const char *dir, gasp_taskset *ts, gasp_diags *d) {
  memset(ts, 0, sizeof *ts);
  DIR *dd = opendir(dir);
  if (!dd) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "cannot read tasks directory '%s': %s", dir, strerror(errno));
    return -1;
  }
  struct dirent *e;
  size_t cap = 0;
  while ((e = readdir(dd))) {
    if (!gasp_str_ends_with(e->d_name, ".yaml")) continue;
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    gasp_diags sub;
    gasp_diags_init(&sub);
    gasp_task t;
    if (gasp_task_load(p, &t, &sub)) {
      for (size_t i = 0; i < sub.count; i++)
        gasp_diags_add(d, sub.items[i].sev, sub.items[i].cls, sub.items[i].line, sub.items[i].col, "%s: %s", p,
                       sub.items[i].msg);
      gasp_diags_free(&sub);
      continue;
    }
    gasp_diags_free(&sub);
    if (gasp_taskset_find(ts, t.id)) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "%s: duplicate task id '%s'", p, t.id);
      gasp_task_free(&t);
      continue;
    }
    if (ts->count == cap) {
      cap = cap ? cap * 2 : 64;
      ts->items = realloc(ts->items, cap * sizeof *ts->items);
    }
    ts->items[ts->count++] = t;
  }
  closedir(dd);
  qsort(ts->items, ts->count, sizeof *ts->items, task_cmp);
  return 0;
}

void gasp_taskset_free(gasp_taskset *ts) {
  for (size_t i = 0; i < ts->count; i++) gasp_task_free(&ts->items[i]);
  free(ts->items);
  memset(ts, 0, sizeof *ts);
}

const gasp_task *gasp_taskset_find(const gasp_taskset *ts, const char *id) {
  for (size_t i = 0; i < ts->count; i++)
    if (!strcmp(ts->items[i].id, id)) return &ts->items[i];
  return NULL;
}

#ifndef GASP_TASKS_DIR_DEFAULT
#define GASP_TASKS_DIR_DEFAULT "tasks"
#endif

/* $GASP_TASKS_DIR, else the source tree's tasks/ (compiled in), else tasks/ beside or above the running
 * executable (a build or install moved elsewhere, e.g. onto the GPU machine), else ./tasks. */
const char *gasp_tasks_dir(void) {
  const char *e = getenv("GASP_TASKS_DIR");
  if (e && *e) return e;
  struct stat st;
  if (stat(GASP_TASKS_DIR_DEFAULT, &st) == 0 && S_ISDIR(st.st_mode)) return GASP_TASKS_DIR_DEFAULT;
  static char found[PATH_MAX + 64];
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = 0;
    static const char *const rel[] = {"/tasks", "/../tasks", "/../share/gasp/tasks", NULL};
    char *slash = strrchr(self, '/');
    if (slash) *slash = 0;
    for (int i = 0; rel[i]; i++) {
      snprintf(found, sizeof found, "%s%s", self, rel[i]);
      if (stat(found, &st) == 0 && S_ISDIR(st.st_mode)) return found;
    }
  }
  return "tasks";
}
