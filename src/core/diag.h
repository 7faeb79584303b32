/* Diagnostics and the failure taxonomy shared by every stage.
 * Library code never prints or exits: it fills a gasp_diags list that the CLI prints and the repair
 * prompt quotes back to the model, each entry with the file, line and column of the offending text. */
#ifndef GASP_DIAG_H
#define GASP_DIAG_H

#include <stddef.h>

/* One class per candidate. Order is the order a summary lists them in; names are stable (JSONL keys). */
typedef enum {
  GASP_CLASS_PASS = 0,
  GASP_CLASS_EXTRACT,             /* no assembly found in the answer */
  GASP_CLASS_SYNTAX,
  GASP_CLASS_SEMANTIC,            /* types, undeclared names, wrong operand kinds */
  GASP_CLASS_RESOURCE,            /* registers or shared memory over budget */
  GASP_CLASS_RANGE,               /* register or predicate index outside its declared or hardware range */
  GASP_CLASS_HAZARD,              /* a result read before it is ready (SASS control codes, AMD s_waitcnt) */
  GASP_CLASS_LOAD,                /* the driver refused the binary or the kernel name */
  GASP_CLASS_ILLEGAL_ADDRESS,
  GASP_CLASS_MISALIGNED,
  GASP_CLASS_ILLEGAL_INSTRUCTION,
  GASP_CLASS_UNSUPPORTED,         /* valid, but our emulator does not implement it (named in the detail) */
  GASP_CLASS_TRAP,
  GASP_CLASS_TIMEOUT,
  GASP_CLASS_OOB_WRITE,           /* guard bytes around a buffer changed */
  GASP_CLASS_INPUT_MUTATED,
  GASP_CLASS_UNWRITTEN,           /* poison left in an output element */
  GASP_CLASS_WRONG,
  GASP_CLASS_SKIPPED,             /* stage could not run here (no GPU): never counted as a pass */
  GASP_CLASS_ERROR,               /* the harness itself failed (tool missing, worker died unexpectedly) */
  GASP_CLASS_COUNT
} gasp_class;

const char *gasp_class_name(gasp_class c);
/* Returns the class named `name`, or -1. */
int gasp_class_from_name(const char *name);

/* The pipeline stages, in order. A record stores the last stage a candidate reached. */
typedef enum {
  GASP_STAGE_EXTRACT = 0,
  GASP_STAGE_CHECK,
  GASP_STAGE_ASSEMBLE,
  GASP_STAGE_LOAD,
  GASP_STAGE_RUN,
  GASP_STAGE_VERIFY,
  GASP_STAGE_TIME,
  GASP_STAGE_COUNT
} gasp_stage;

const char *gasp_stage_name(gasp_stage s);
int gasp_stage_from_name(const char *name);

typedef enum { GASP_SEV_ERROR = 0, GASP_SEV_WARNING, GASP_SEV_NOTE } gasp_severity;

typedef struct {
  gasp_severity sev;
  gasp_class cls;
  int line;       /* 1-based; 0 when the problem has no position */
  int col;        /* 1-based; 0 when unknown */
  char msg[512];
} gasp_diag;

typedef struct {
  gasp_diag *items;
  size_t count, cap;
} gasp_diags;

void gasp_diags_init(gasp_diags *d);
void gasp_diags_free(gasp_diags *d);
void gasp_diags_clear(gasp_diags *d);
/* Appends a diagnostic; formatting as printf. Silently drops entries past 1000 to bound memory. */
void gasp_diags_add(gasp_diags *d, gasp_severity sev, gasp_class cls, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
size_t gasp_diags_errors(const gasp_diags *d);
/* The class of the first error, or GASP_CLASS_PASS when there is none. */
gasp_class gasp_diags_first_class(const gasp_diags *d);
/* Formats one diagnostic as `FILE:LINE:COL: error: CLASS: message` into buf. */
void gasp_diag_format(const gasp_diag *g, const char *file, char *buf, size_t cap);

#endif
