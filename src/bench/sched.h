/* Candidates across worker processes: a dispatcher hands work items one at a time to forked workers (each
 * with its own GPU pool, fixture cache and GL context, none of which is shared or locked) and writes their
 * record lines in work-list order, so a run with K workers writes the file a single worker writes. */
#ifndef GASP_SCHED_H
#define GASP_SCHED_H

#include <signal.h>
#include <stddef.h>

typedef struct gasp_sched_worker gasp_sched_worker;

typedef struct {
  int nworkers; /* 1: everything runs in this process, no fork */
  void *ctx;    /* handed to every callback */
  /* In the worker (after fork), before its first item: open its GPU pool and so on. Returns 0, or -1: the
   * worker quits and its item goes to another worker. */
  int (*worker_init)(void *ctx, int worker);
  /* In the worker: runs one item, handing each record line to gasp_sched_emit. Returns 0, or -1 when the
   * run cannot go on (a GPU worker that cannot be restarted): no item is handed out after that. */
  int (*run_item)(void *ctx, gasp_sched_worker *w, size_t item);
  /* In the worker, after its last item (may be NULL). */
  void (*worker_fini)(void *ctx, int worker);
  /* In this process: one record line of `item` (no newline), always in work-list order. Returns 0 or -1. */
  int (*write_line)(void *ctx, size_t item, const char *line, size_t len);
  /* In this process, as each item finishes (completion order): status is the item's note (e.g. its class).
   * May be NULL. */
  void (*item_done)(void *ctx, size_t item, const char *status);
  /* In this process: an item lost with its worker (crashed twice); nothing of it was written. May be NULL. */
  void (*item_lost)(void *ctx, size_t item, const char *why);
  volatile sig_atomic_t *stop; /* set by a signal handler: no new item is started; finished ones are written */
} gasp_sched_opts;

/* From run_item: one record line (no newline). Returns 0, or -1 when the dispatcher is gone. */
int gasp_sched_emit(gasp_sched_worker *w, const char *line, size_t len);
/* From run_item: a short note for item_done (the last class, say); copied. */
void gasp_sched_note(gasp_sched_worker *w, const char *status);
/* The worker's number, 0 .. nworkers-1. */
int gasp_sched_worker_id(const gasp_sched_worker *w);

typedef struct {
  size_t items_done, items_lost, lines_written;
  int worker_deaths; /* worker processes that ended without being told to */
  int fatal;         /* a run_item returned -1 */
  int write_failed;
} gasp_sched_stats;

/* Runs items 0 .. nitems-1. Returns 0 when every item was done, 1 when some were not (stopped, fatal, lost,
 * a write failed): st says which. Lines of finished items are written even when earlier ones are missing
 * (after a stop), still in work-list order. */
int gasp_sched_run(const gasp_sched_opts *o, size_t nitems, gasp_sched_stats *st);

#endif
