/* Merging results files (shards of one run, MPI ranks, a resumed run's pieces) into one: records are kept
 * verbatim, deduplicated by the key --resume uses (plus the repair turn), overlaps and conflicts counted,
 * and work missing from the (task, sample) grid the inputs imply is reported. */
#ifndef GASP_MERGE_H
#define GASP_MERGE_H

#include <stdio.h>

#include "../core/diag.h"
#include "../task/task.h"

typedef struct gasp_merge gasp_merge;

gasp_merge *gasp_merge_new(void);
void gasp_merge_free(gasp_merge *m);

/* Orders tasks as the suite does (the order `gasp bench` runs them in); tasks not in it come after, by name.
 * Without it tasks are ordered by name. The taskset must outlive the merge. */
void gasp_merge_set_suite(gasp_merge *m, const gasp_taskset *ts);

/* What the run was asked to do: every task in ids (n of them) with samples 0 .. samples-1 on `target`, for each
 * configuration (backend, model, variant, grammar, seed) of that target found in the inputs. Missing work is
 * then counted against this grid rather than the one the inputs imply, so a task absent from every input is
 * seen too. The strings must outlive the merge. */
void gasp_merge_expect(gasp_merge *m, const char *target, const char *const *ids, int n, int samples);

/* Adds the JSONL records in data (name is used in messages and must outlive the merge). Lines that are not
 * records (a torn last line after a kill) are counted and skipped. Returns 0, or -1 when out of memory. */
int gasp_merge_add(gasp_merge *m, const char *name, const char *data, size_t len);
/* The same from a file. A missing file is an error (-1 with err filled). */
int gasp_merge_add_file(gasp_merge *m, const char *path, char *err, size_t errcap);

typedef struct {
  size_t inputs, lines, bad_lines;
  size_t written;
  size_t duplicates;   /* a record whose key was already there with the same content: kept once */
  size_t conflicts;    /* the same key with different content (answer, class, stage, diagnostics): first kept */
  size_t superseded;   /* infra-error records replaced by a real record of the same key */
  size_t missing;      /* (task, sample) cells of a group's grid with no turn-0 record */
} gasp_merge_report;

/* Writes the merged records, one line each, sorted by suite task order, target, backend, model, variant,
 * grammar, seed, sample, turn (a one-process bench with one backend writes this order too). Each conflict and each
 * missing cell (up to 20 of each) becomes a diagnostic in d (conflicts are errors, missing work warnings).
 * Returns 0, or -1 when writing failed. */
int gasp_merge_write(gasp_merge *m, FILE *out, gasp_merge_report *rep, gasp_diags *d);

#endif
