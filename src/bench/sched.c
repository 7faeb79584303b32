/* The dispatcher: forked workers, one item at a time each, results reordered into work-list order. */
#define _GNU_SOURCE
#include "sched.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/util.h"
#include "../exec/proto.h"

/* Messages on a worker's socket. Dispatcher -> worker: ITEM (u64), QUIT. Worker -> dispatcher: LINE (u64 item,
 * bytes), DONE (u64 item, u32 fatal, note bytes). */
enum { MSG_ITEM = 101, MSG_QUIT, MSG_LINE, MSG_DONE };

struct gasp_sched_worker {
  const gasp_sched_opts *o;
  gasp_sched_stats *st; /* in-process only */
  int id, fd, inproc;
  size_t item;
  char note[64];
};

int gasp_sched_worker_id(const gasp_sched_worker *w) { return w->id; }

void gasp_sched_note(gasp_sched_worker *w, const char *status) { gasp_strlcpy(w->note, status ? status : "", sizeof w->note); }

int gasp_sched_emit(gasp_sched_worker *w, const char *line, size_t len) {
  if (w->inproc) {
    if (w->o->write_line(w->o->ctx, w->item, line, len)) {
      w->st->write_failed = 1;
      return -1;
    }
    w->st->lines_written++;
    return 0;
  }
  gasp_wire m;
  gasp_wire_init(&m);
  gasp_wire_u64(&m, w->item);
  gasp_wire_put(&m, line, len);
  int rc = gasp_msg_write(w->fd, MSG_LINE, m.p, m.len);
  gasp_wire_free(&m);
  return rc;
}

static int run_inproc(const gasp_sched_opts *o, size_t n, gasp_sched_stats *st) {
  gasp_sched_worker w = {o, st, 0, -1, 1, 0, ""};
  if (o->worker_init && o->worker_init(o->ctx, 0)) return 1;
  for (size_t i = 0; i < n && !(o->stop && *o->stop) && !st->write_failed; i++) {
    w.item = i;
    w.note[0] = 0;
    int r = o->run_item(o->ctx, &w, i);
    st->items_done++;
    if (o->item_done) o->item_done(o->ctx, i, w.note);
    if (r) {
      st->fatal = 1;
      break;
    }
  }
  if (o->worker_fini) o->worker_fini(o->ctx, 0);
  return st->items_done == n && !st->write_failed ? 0 : 1;
}

static void child_main(const gasp_sched_opts *o, int id, int fd) {
  /* the dispatcher decides when to stop: an interrupt must not cut a candidate in half */
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, SIG_IGN);
  if (o->worker_init && o->worker_init(o->ctx, id)) _exit(3);
  gasp_sched_worker w = {o, NULL, id, fd, 0, 0, ""};
  gasp_wire in, out;
  gasp_wire_init(&in);
  gasp_wire_init(&out);
  for (;;) {
    gasp_msg_hdr h;
    if (gasp_msg_read(fd, &h, &in) || h.type != MSG_ITEM) break;
    w.item = (size_t)gasp_wire_get_u64(&in);
    w.note[0] = 0;
    int r = o->run_item(o->ctx, &w, w.item);
    out.len = 0;
    gasp_wire_u64(&out, w.item);
    gasp_wire_u32(&out, r ? 1u : 0u);
    gasp_wire_put(&out, w.note, strlen(w.note));
    if (gasp_msg_write(fd, MSG_DONE, out.p, out.len) || r) break;
  }
  if (o->worker_fini) o->worker_fini(o->ctx, id);
  fflush(NULL);
  _exit(0);
}

enum { PENDING, RUNNING, DONE, LOST };
typedef struct {
  gasp_wire lines; /* u64 length + bytes, per line */
  uint8_t state, tries;
} slot;

typedef struct {
  pid_t pid;
  int fd, alive, quit_sent;
  long item; /* -1: idle */
} kid;

static void write_slot(const gasp_sched_opts *o, size_t i, slot *s, gasp_sched_stats *st) {
  s->lines.pos = 0;
  while (s->lines.pos < s->lines.len) {
    uint64_t len = gasp_wire_get_u64(&s->lines);
    const char *p = gasp_wire_get(&s->lines, len);
    if (!p) break;
    if (!st->write_failed && o->write_line(o->ctx, i, p, len)) st->write_failed = 1;
    else st->lines_written++;
  }
  gasp_wire_free(&s->lines);
}

int gasp_sched_run(const gasp_sched_opts *o, size_t n, gasp_sched_stats *st) {
  memset(st, 0, sizeof *st);
  if (o->nworkers <= 1) return run_inproc(o, n, st);
  signal(SIGPIPE, SIG_IGN);
  int nk = o->nworkers;
  kid *k = calloc((size_t)nk, sizeof *k);
  slot *s = calloc(n ? n : 1, sizeof *s);
  size_t *requeue = calloc(n ? n : 1, sizeof *requeue);
  size_t nrequeue = 0, next = 0, next_write = 0;
  if (!k || !s || !requeue) {
    free(k), free(s), free(requeue);
    return 1;
  }
  fflush(NULL); /* nothing buffered may be written twice */
  for (int i = 0; i < nk; i++) {
    int sv[2];
    k[i].item = -1;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) continue;
    pid_t pid = fork();
    if (pid == 0) {
      close(sv[0]);
      for (int j = 0; j < i; j++)
        if (k[j].alive) close(k[j].fd);
      child_main(o, i, sv[1]);
    }
    close(sv[1]);
    if (pid < 0) {
      close(sv[0]);
      continue;
    }
    k[i].pid = pid;
    k[i].fd = sv[0];
    k[i].alive = 1;
  }
  int stopping = 0;
  gasp_wire in;
  gasp_wire_init(&in);
  struct pollfd *pf = calloc((size_t)nk, sizeof *pf);
  int *who = calloc((size_t)nk, sizeof *who);
  for (;;) {
    if (o->stop && *o->stop) stopping = 1;
    /* hand out work to idle workers; when nothing is running and nothing can be handed out, say quit */
    int busy = 0, alive = 0;
    for (int i = 0; i < nk; i++) {
      if (!k[i].alive) continue;
      alive++;
      if (k[i].item < 0 && !stopping && (nrequeue || next < n)) {
        size_t it = nrequeue ? requeue[--nrequeue] : next++;
        uint64_t v = it;
        if (gasp_msg_write(k[i].fd, MSG_ITEM, &v, sizeof v) == 0) {
          k[i].item = (long)it;
          s[it].state = RUNNING;
        } else if (s[it].state != DONE) {
          requeue[nrequeue++] = it; /* its death shows up as EOF below */
        }
      }
      busy += k[i].item >= 0;
    }
    if (!alive) break;
    if (!busy)
      for (int i = 0; i < nk; i++)
        if (k[i].alive && !k[i].quit_sent) {
          gasp_msg_write(k[i].fd, MSG_QUIT, "", 0);
          k[i].quit_sent = 1;
        }
    int np = 0;
    for (int i = 0; i < nk; i++)
      if (k[i].alive) {
        pf[np].fd = k[i].fd;
        pf[np].events = POLLIN;
        pf[np].revents = 0;
        who[np++] = i;
      }
    int r = poll(pf, (nfds_t)np, 200);
    if (r < 0 && errno != EINTR) break;
    for (int p = 0; r > 0 && p < np; p++) {
      if (!pf[p].revents) continue;
      kid *c = &k[who[p]];
      gasp_msg_hdr h;
      int rd = gasp_msg_read(c->fd, &h, &in);
      if (!rd && h.type == MSG_LINE) {
        uint64_t it = gasp_wire_get_u64(&in);
        if (it < n && (long)it == c->item) {
          size_t len = in.len - in.pos;
          gasp_wire_u64(&s[it].lines, len);
          gasp_wire_put(&s[it].lines, (const char *)in.p + in.pos, len);
        }
        continue;
      }
      if (!rd && h.type == MSG_DONE) {
        uint64_t it = gasp_wire_get_u64(&in);
        int fatal = (int)gasp_wire_get_u32(&in);
        char note[64] = "";
        size_t nl = in.len - in.pos < sizeof note - 1 ? in.len - in.pos : sizeof note - 1;
        memcpy(note, in.p + in.pos, nl);
        if (it < n && (long)it == c->item) {
          s[it].state = DONE;
          st->items_done++;
          if (o->item_done) o->item_done(o->ctx, (size_t)it, note);
        }
        c->item = -1;
        if (fatal) {
          st->fatal = 1;
          stopping = 1;
        }
        while (next_write < n && (s[next_write].state == DONE || s[next_write].state == LOST)) {
          if (s[next_write].state == DONE) write_slot(o, next_write, &s[next_write], st);
          next_write++;
        }
        continue;
      }
      /* EOF or garbage: the worker is gone; its item goes to another worker once, then counts as lost */
      close(c->fd);
      c->alive = 0;
      waitpid(c->pid, NULL, 0);
      if (!c->quit_sent || c->item >= 0) st->worker_deaths++;
      if (c->item >= 0) {
        slot *sl = &s[c->item];
        gasp_wire_free(&sl->lines);
        gasp_wire_init(&sl->lines);
        if (++sl->tries < 2) {
          sl->state = PENDING;
          requeue[nrequeue++] = (size_t)c->item;
        } else {
          sl->state = LOST;
          st->items_lost++;
          if (o->item_lost) o->item_lost(o->ctx, (size_t)c->item, "its worker process died twice while running it");
        }
        c->item = -1;
      }
    }
  }
  /* after a stop, fatal error or lost workers: what finished is still written, in order */
  for (size_t i = next_write; i < n; i++)
    if (s[i].state == DONE) write_slot(o, i, &s[i], st);
  for (int i = 0; i < nk; i++)
    if (k[i].alive) {
      close(k[i].fd);
      waitpid(k[i].pid, NULL, 0);
    }
  for (size_t i = 0; i < n; i++) gasp_wire_free(&s[i].lines);
  gasp_wire_free(&in);
  free(pf), free(who), free(k), free(s), free(requeue);
  return st->items_done == n && !st->write_failed ? 0 : 1;
}
