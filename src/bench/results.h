/* The results file: one JSON object per candidate (JSONL), appended and flushed per record, so an
 * interrupted run loses nothing it finished; --resume skips the keys already there. Keys are stable;
 * new fields are only ever added. */
#ifndef GASP_RESULTS_H
#define GASP_RESULTS_H

#include <stdio.h>

#include "../eval/eval.h"

#define GASP_VERSION "0.1.0"

/* Serialises a record as one line of JSON (no trailing newline). Caller frees. */
char *gasp_record_to_json(const gasp_record *r);
/* A result line's decoding configuration as gasp_record.grammar has it (0, 1 or 2) from its "grammar" and
 * "monitor" members (o: a jansson object). */
struct json_t;
int gasp_record_grammar_of(const struct json_t *o);

/* Appends one record and flushes it to disk (fsync). Returns 0 or -1. */
int gasp_results_append(FILE *f, const gasp_record *r);

/* A loaded row: the fields the summary and resume need. */
typedef struct {
  char task[64], target[32], backend[32], model[128], variant[48];
  int level, sample, turn;
  int stage;     /* gasp_stage */
  int cls;       /* gasp_class */
  int slow;
  int gpu_ran;
  int infra_error;
  int rewrites;
  int grammar;   /* decoded under the target's grammar: 1, and its decoding monitor as well: 2 (written as "grammar"
                  * and "monitor"; part of the configuration and the resume key) */
  int parsed;    /* our parser accepted the extracted code: 1, 0, or -1 when not known */
  int truncated; /* generation hit max tokens */
  uint64_t seed;
  double speedup;
} gasp_row;

typedef struct {
  gasp_row *rows;
  size_t count;
  size_t bad_lines;      /* lines that were not valid records (a torn last line after a kill, say) */
  size_t *index;         /* open-addressing hash of resume keys, built on first lookup */
  size_t index_cap;
} gasp_rows;

/* Reads a results file. A missing file gives zero rows. Returns -1 only on read errors. */
int gasp_rows_load(const char *path, gasp_rows *rows, char *err, size_t errcap);
void gasp_rows_free(gasp_rows *rows);
/* Whether a candidate with this key is recorded (rows marked infra_error do not count: resume retries them). */
int gasp_rows_has(const gasp_rows *rows, const char *task, const char *target, const char *backend, const char *model,
                  const char *variant, int grammar, int sample, uint64_t seed);

/* The last recorded turn of a candidate (-1: none), its class in *cls: --resume continues a repair chain that
 * an interruption cut. */
int gasp_rows_last_turn(const gasp_rows *rows, const char *task, const char *target, const char *backend,
                        const char *model, const char *variant, int grammar, int sample, uint64_t seed, int *cls);
/* Reads one turn of a candidate back from a results file (answer, class, stage, diagnostics, detail, first
 * mismatch): what the next repair prompt quotes. Returns 0, or -1 when it is not there. */
int gasp_results_read_record(const char *path, const char *task, const char *target, const char *backend,
                              const char *model, const char *variant, int grammar, int sample, uint64_t seed, int turn,
                              gasp_record *out);
/* The same fields from one line of a results file (task, level, sample, turn too). Returns 0, or -1 when the line
 * is not a record. Free with gasp_record_free. */
int gasp_record_from_line(const char *line, size_t len, gasp_record *out);

/* What a repair prompt says about a failed candidate: class and stage, the first diagnostics with their line and
 * column, the verdict's details and the first mismatch. Caller frees. */
char *gasp_record_describe_failure(const gasp_record *rec);

#endif
