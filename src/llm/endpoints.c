/* Endpoint pool state in a shared anonymous mapping, guarded by a process-shared robust mutex (a worker
 * killed while holding it must not freeze the others). */
#define _GNU_SOURCE
#include "endpoints.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "../core/util.h"

typedef struct {
  char url[512];
  int limit;             /* 0: none */
  int in_flight;
  long requests, failures, max_in_flight;
  int fails_in_row;
  double down_until;     /* CLOCK_MONOTONIC seconds; 0: healthy */
} endpoint;

typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int n;
  unsigned rr;           /* rotates the start of the search, so equal endpoints share the work */
  endpoint ep[GASP_MAX_ENDPOINTS];
} shared_state;

struct gasp_endpoints {
  shared_state *s;
  void (*notice)(const char *msg);
};

static double mono_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void say(const gasp_endpoints *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const gasp_endpoints *e, const char *fmt, ...) {
  if (!e->notice) return;
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  e->notice(buf);
}

static void lock(shared_state *s) {
  if (pthread_mutex_lock(&s->mu) == EOWNERDEAD) pthread_mutex_consistent(&s->mu);
}

gasp_endpoints *gasp_endpoints_open(const char *list, int default_limit, void (*notice)(const char *), char *err,
                                    size_t cap) {
  shared_state *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (s == MAP_FAILED) {
    snprintf(err, cap, "cannot map the endpoint pool's state");
    return NULL;
  }
  memset(s, 0, sizeof *s);
  char *copy = gasp_strdup(list), *save = NULL;
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    while (*tok == ' ') tok++;
    if (!*tok) continue;
    if (s->n == GASP_MAX_ENDPOINTS) {
      snprintf(err, cap, "more than %d endpoints", GASP_MAX_ENDPOINTS);
      goto fail;
    }
    endpoint *ep = &s->ep[s->n];
    ep->limit = default_limit > 0 ? default_limit : 0;
    /* URL#N: a fragment is never sent to a server, so it cannot be part of an API base URL */
    char *hash = strrchr(tok, '#');
    if (hash) {
      char *end;
      long v = strtol(hash + 1, &end, 10);
      if (*end || v < 1 || v > 100000 || end == hash + 1) {
        snprintf(err, cap, "endpoint '%.300s': the limit after '#' must be a number 1..100000", tok);
        goto fail;
      }
      ep->limit = (int)v;
      *hash = 0;
    }
    if (strncmp(tok, "http://", 7) && strncmp(tok, "https://", 8)) {
      snprintf(err, cap, "endpoint '%.300s' is not an http:// or https:// URL", tok);
      goto fail;
    }
    gasp_strlcpy(ep->url, tok, sizeof ep->url);
    size_t n = strlen(ep->url);
    while (n && ep->url[n - 1] == '/') ep->url[--n] = 0;
    s->n++;
  }
  free(copy);
  copy = NULL;
  if (!s->n) {
    snprintf(err, cap, "no endpoint URL given");
    goto fail;
  }
  pthread_mutexattr_t ma;
  pthread_mutexattr_init(&ma);
  pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
  pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
  pthread_mutex_init(&s->mu, &ma);
  pthread_mutexattr_destroy(&ma);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&s->cv, &ca);
  pthread_condattr_destroy(&ca);
  gasp_endpoints *e = calloc(1, sizeof *e);
  e->s = s;
  e->notice = notice;
  return e;
fail:
  free(copy);
  munmap(s, sizeof *s);
  return NULL;
}

void gasp_endpoints_stats(gasp_endpoints *e, int i, gasp_endpoint_stats *st) {
  lock(e->s);
  endpoint *ep = &e->s->ep[i];
  st->requests = ep->requests;
  st->failures = ep->failures;
  st->max_in_flight = ep->max_in_flight;
  st->limit = ep->limit;
  st->down = ep->down_until > mono_s();
  pthread_mutex_unlock(&e->s->mu);
}

void gasp_endpoints_close(gasp_endpoints *e) {
  if (!e) return;
  long fails = 0;
  for (int i = 0; i < e->s->n; i++) fails += e->s->ep[i].failures;
  if (e->s->n > 1 || fails)
    for (int i = 0; i < e->s->n; i++) {
      gasp_endpoint_stats st;
      gasp_endpoints_stats(e, i, &st);
      say(e, "endpoint %s: %ld request(s), %ld failed, at most %ld at once (limit %s%d)%s", e->s->ep[i].url, st.requests,
          st.failures, st.max_in_flight, st.limit ? "" : "none", st.limit ? st.limit : 0, st.down ? ", set aside at the end" : "");
    }
  pthread_cond_destroy(&e->s->cv);
  pthread_mutex_destroy(&e->s->mu);
  munmap(e->s, sizeof *e->s);
  free(e);
}

int gasp_endpoints_count(const gasp_endpoints *e) { return e->s->n; }
const char *gasp_endpoints_url(const gasp_endpoints *e, int i) { return e->s->ep[i].url; }

static int has_room(const endpoint *ep) { return !ep->limit || ep->in_flight < ep->limit; }

int gasp_endpoints_acquire(gasp_endpoints *e, unsigned long long tried) {
  shared_state *s = e->s;
  lock(s);
  for (;;) {
    double now = mono_s();
    int best = -1, any_untried_up = 0;
    unsigned start = s->rr++;
    for (int k = 0; k < s->n; k++) {
      int i = (int)((start + (unsigned)k) % (unsigned)s->n);
      endpoint *ep = &s->ep[i];
      if ((tried >> i) & 1 || ep->down_until > now) continue;
      any_untried_up = 1;
      if (has_room(ep) && (best < 0 || ep->in_flight < s->ep[best].in_flight)) best = i;
    }
    if (best < 0 && !any_untried_up) {
      /* every endpoint failed this request or is set aside: the healthiest one with room */
      for (int k = 0; k < s->n; k++) {
        int i = (int)((start + (unsigned)k) % (unsigned)s->n);
        endpoint *ep = &s->ep[i];
        if (!has_room(ep)) continue;
        if (best < 0 || ep->down_until < s->ep[best].down_until) best = i;
      }
    }
    if (best >= 0) {
      endpoint *ep = &s->ep[best];
      ep->in_flight++;
      ep->requests++;
      if (ep->in_flight > ep->max_in_flight) ep->max_in_flight = ep->in_flight;
      pthread_mutex_unlock(&s->mu);
      return best;
    }
    /* all at their limits: wait for a release (bounded, so a slot freed by a dead worker's robust unlock or
     * a pause that ends is seen too) */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += 100 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000) ts.tv_sec++, ts.tv_nsec -= 1000000000;
    if (pthread_cond_timedwait(&s->cv, &s->mu, &ts) == EOWNERDEAD) pthread_mutex_consistent(&s->mu);
  }
}

void gasp_endpoints_release(gasp_endpoints *e, int i, int answered, const char *why) {
  shared_state *s = e->s;
  lock(s);
  endpoint *ep = &s->ep[i];
  if (ep->in_flight > 0) ep->in_flight--;
  char msg[900] = "";
  if (answered) {
    if (ep->fails_in_row) snprintf(msg, sizeof msg, "endpoint %s answers again", ep->url);
    ep->fails_in_row = 0;
    ep->down_until = 0;
  } else {
    ep->failures++;
    ep->fails_in_row++;
    double pause = 1.0;
    for (int k = 1; k < ep->fails_in_row && pause < 30; k++) pause *= 2;
    if (pause > 30) pause = 30;
    ep->down_until = mono_s() + pause;
    snprintf(msg, sizeof msg, "endpoint %s failed (%.300s); set aside for %.0f s%s", ep->url, why ? why : "no answer",
             pause, s->n > 1 ? ", requests go to the others" : "");
  }
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  if (msg[0]) say(e, "%s", msg);
}
