/* A task: what the model is asked to write, how its kernel is called, how inputs are made and how the
 * result is judged. Loaded from one YAML file per task (tasks/<id>.yaml); see tasks/README.md. */
#ifndef GASP_TASK_H
#define GASP_TASK_H

#include <stddef.h>
#include <stdint.h>

#include "../core/diag.h"

#define GASP_MAX_PARAMS 16
#define GASP_MAX_GENS 8
#define GASP_MAX_SIZE_SETS 8
#define GASP_MAX_SIZE_NAMES 8

typedef enum { GASP_DT_F32 = 0, GASP_DT_F64, GASP_DT_S32, GASP_DT_U32, GASP_DT_S64, GASP_DT_U64, GASP_DT_COUNT } gasp_dtype;

const char *gasp_dtype_name(gasp_dtype t);  /* "f32" ... */
size_t gasp_dtype_size(gasp_dtype t);
int gasp_dtype_is_float(gasp_dtype t);
int gasp_dtype_from_name(const char *s);

typedef enum { GASP_ROLE_IN = 0, GASP_ROLE_OUT, GASP_ROLE_SCALAR } gasp_role;

typedef struct {
  char name[32];
  gasp_dtype type;       /* element type for arrays, value type for scalars */
  gasp_role role;
  char count[64];        /* arrays: element count, an expression over the size names */
  char value[64];        /* scalars: an expression (integers) or a literal (floats) */
  char gen[GASP_MAX_GENS][64]; /* arrays in: input generator per trial, cycling (see gen.h) */
  int ngen;
} gasp_param;

typedef struct gasp_task {
  char id[64];
  int level;             /* 0..7, the source article's granularity (tasks/README.md) */
  char title[128];
  char *description;     /* what the kernel must compute, shown in the prompt */
  char *source;          /* L7: the C/CUDA snippet to translate, shown in the prompt (may be NULL) */
  char kernel[64];       /* the entry the answer must define (default: id) */
  int snippet;           /* 1: answer is an instruction snippet spliced into the target's scaffold */
  gasp_param params[GASP_MAX_PARAMS];
  int nparams;
  char size_names[GASP_MAX_SIZE_NAMES][32];
  int nsize_names;
  int64_t size_sets[GASP_MAX_SIZE_SETS][GASP_MAX_SIZE_NAMES]; /* trial t uses set t % nsize_sets */
  int nsize_sets;
  char block[3][48], grid[3][48], shared[48]; /* launch geometry expressions; shared = dynamic bytes */
  int trials;            /* independent runs with fresh inputs (default 3) */
  double rel_tol, abs_tol; /* |got-exp| <= abs_tol + rel_tol*|exp| for floats; integers exact */
  int timeout_ms;        /* per run, watchdog (default 2000) */
  int max_regs;          /* registers per thread budget (default 255) */
  int time_reps;         /* timed launches (default 20) */
  char ref[64];          /* C reference function name (default: id) */
  char *cuda;            /* CUDA C reference kernel, extern "C" __global__, the speed baseline */
  char *ptx_snippet;     /* snippet tasks: a known-good PTX snippet (tests the scaffold) */
  char isa[16];          /* the ISA family the task is written for: "ptx" (default) or "arb" */
  int vertex_program;    /* arb: 1 for !!ARBvp1.0 tasks, 0 for fragment programs */
  char *arb_reference;   /* arb: the hand-written reference program */
  char *amd_reference;   /* amdgcn: the OpenCL C reference (tasks/amdgcn/<id>.cl); NULL: not offered to AMD */
  char amd_reference_path[512];
  char *map;             /* element-wise tasks: out[i] as an expression (map.h), the "map" reference's input */
  char path[512];
} gasp_task;

/* Whether a target can take a task: the task's ISA family is the target's (PTX tasks for ptx-sm*, ARB
 * tasks for r300); AMD targets (isa "AMDGCN") take the PTX tasks that have tasks/amdgcn/<id>.cl. */
struct gasp_target;
int gasp_task_fits(const gasp_task *task, const char *target_isa);

/* Loads and validates one task file. Returns 0, or -1 with diagnostics (line/column inside the YAML). */
int gasp_task_load(const char *path, gasp_task *t, gasp_diags *d);
void gasp_task_free(gasp_task *t);

typedef struct {
  gasp_task *items;
  size_t count;
} gasp_taskset;

/* Loads every *.yaml in dir, sorted by level then id. Files that fail to load are reported in d
 * (message prefixed with the file name) and skipped; returns -1 only when dir cannot be read. */
int gasp_taskset_load(const char *dir, gasp_taskset *ts, gasp_diags *d);
void gasp_taskset_free(gasp_taskset *ts);
const gasp_task *gasp_taskset_find(const gasp_taskset *ts, const char *id);
/* The tasks directory: $GASP_TASKS_DIR, else the one compiled in (GASP_TASKS_DIR_DEFAULT). */
const char *gasp_tasks_dir(void);

/* Concrete values for one trial. */
typedef struct {
  int64_t sizes[GASP_MAX_SIZE_NAMES];
  int64_t count[GASP_MAX_PARAMS];       /* arrays: element counts */
  union { int64_t i; uint64_t u; double f; } scalar[GASP_MAX_PARAMS];
  uint32_t block[3], grid[3], shared_bytes;
} gasp_trial_shape;

/* Evaluates the expressions of trial number `trial`. Returns 0 or -1 with a message in err. */
int gasp_task_shape(const gasp_task *t, int trial, gasp_trial_shape *s, char *err, int errcap);

#endif
