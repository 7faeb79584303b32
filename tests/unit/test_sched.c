/* The dispatcher: K forked workers write what one writes, in work-list order; a worker that dies has its item
 * run again elsewhere, an item that kills two workers is reported lost; a fatal item and a stop end the
 * hand-out while what finished is still written. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/sched.h"
#include "check.h"

typedef struct {
  char lines[400][48];
  int nlines;
  size_t order[400];
  int done, lost, workers_seen[16];
  int crash_always, crash_once, fatal_at, stop_after;
  char marker[64];
  volatile sig_atomic_t stop;
} ctx;

static int run_item(void *vc, gasp_sched_worker *w, size_t item) {
  ctx *c = vc;
  /* uneven work, so items finish out of order */
  struct timespec ts = {0, (long)((item * 7919) % 5) * 1000000L};
  nanosleep(&ts, NULL);
  if ((int)item == c->crash_always) _exit(9);
  if ((int)item == c->crash_once) {
    int fd = open(c->marker, O_CREAT | O_EXCL | O_WRONLY, 0600);
    if (fd >= 0) _exit(9); /* the first worker to get it dies */
  }
  for (int j = 0; j < 2; j++) {
    char line[48];
    int n = snprintf(line, sizeof line, "item %zu line %d", item, j);
    gasp_sched_emit(w, line, (size_t)n);
  }
  char note[16];
  snprintf(note, sizeof note, "%d", gasp_sched_worker_id(w));
  gasp_sched_note(w, note);
  return (int)item == c->fatal_at ? -1 : 0;
}

static int write_line(void *vc, size_t item, const char *line, size_t len) {
  ctx *c = vc;
  if (c->nlines < 400) {
    memcpy(c->lines[c->nlines], line, len < 47 ? len : 47);
    c->lines[c->nlines][len < 47 ? len : 47] = 0;
    c->order[c->nlines++] = item;
  }
  return 0;
}

static void item_done(void *vc, size_t item, const char *status) {
  ctx *c = vc;
  (void)item;
  c->done++;
  int w = atoi(status);
  if (w >= 0 && w < 16) c->workers_seen[w] = 1;
  if (c->stop_after && c->done >= c->stop_after) c->stop = 1;
}

static void item_lost(void *vc, size_t item, const char *why) {
  (void)item, (void)why;
  ((ctx *)vc)->lost++;
}

static gasp_sched_opts opts(ctx *c, int workers) {
  memset(c, 0, sizeof *c);
  c->crash_always = c->crash_once = c->fatal_at = -1;
  gasp_sched_opts o = {workers, c, NULL, run_item, NULL, write_line, item_done, item_lost, &c->stop};
  return o;
}

/* every line of items 0..n-1 except `skip`, in order */
static int in_order(const ctx *c, int n, int skip) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (i == skip) continue;
    for (int j = 0; j < 2; j++, k++) {
      char want[48];
      snprintf(want, sizeof want, "item %d line %d", i, j);
      if (k >= c->nlines || strcmp(c->lines[k], want)) return 0;
    }
  }
  return k == c->nlines;
}

int main(void) {
  static ctx c;
  gasp_sched_stats st;
  gasp_sched_opts o = opts(&c, 1);
  CHECK(gasp_sched_run(&o, 40, &st) == 0, "one worker, in process");
  CHECK(in_order(&c, 40, -1), "one worker writes every line in order");

  o = opts(&c, 4);
  CHECK(gasp_sched_run(&o, 40, &st) == 0, "four workers");
  CHECK(in_order(&c, 40, -1), "four workers write what one writes, in the same order");
  int seen = 0;
  for (int i = 0; i < 16; i++) seen += c.workers_seen[i];
  CHECK(seen >= 2, "items went to several workers (%d)", seen);
  CHECK(st.items_done == 40 && st.worker_deaths == 0, "all done, no deaths");

  o = opts(&c, 5);
  c.crash_always = 7;
  c.crash_once = 5;
  snprintf(c.marker, sizeof c.marker, "/tmp/gasp-sched-%d", (int)getpid());
  unlink(c.marker);
  CHECK(gasp_sched_run(&o, 30, &st) == 1, "a lost item makes the run incomplete");
  unlink(c.marker);
  CHECK(in_order(&c, 30, 7), "item 5 redone once after its worker died; item 7 missing; the rest in order");
  CHECK(st.items_lost == 1 && c.lost == 1, "item 7 reported lost (%zu)", st.items_lost);
  CHECK(st.worker_deaths == 3, "three workers died (%d)", st.worker_deaths);

  o = opts(&c, 3);
  c.fatal_at = 4;
  CHECK(gasp_sched_run(&o, 60, &st) == 1 && st.fatal, "a fatal item stops the run");
  CHECK(st.items_done < 60, "no new items after the fatal one (%zu done)", st.items_done);
  int ok = 1;
  for (int i = 1; i < c.nlines; i++) ok &= c.order[i] >= c.order[i - 1];
  CHECK(ok && c.nlines == 2 * (int)st.items_done, "what finished is written, in order");

  o = opts(&c, 3);
  c.stop_after = 5;
  CHECK(gasp_sched_run(&o, 60, &st) == 1, "a stop leaves items undone");
  CHECK(st.items_done >= 5 && st.items_done <= 8, "only the items in flight finish after the stop (%zu)", st.items_done);
  CHECK(c.nlines == 2 * (int)st.items_done, "every finished item written");
  return DONE();
}
