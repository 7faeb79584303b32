/* A pool of OpenAI-compatible endpoints used together: per-endpoint limits on requests in flight, the least
 * busy healthy endpoint first, failover past one that refuses, times out or answers 5xx. The counters live
 * in memory shared with forked workers (gasp bench --workers), so limits hold across all of them. */
#ifndef GASP_ENDPOINTS_H
#define GASP_ENDPOINTS_H

#include <stddef.h>

#define GASP_MAX_ENDPOINTS 32

typedef struct gasp_endpoints gasp_endpoints;

/* list: "URL[#N],URL[#N],..." (#N: at most N requests in flight there; else default_limit, 0 = no limit).
 * notice (may be NULL) receives health changes and the closing tally; URLs only, never credentials in
 * headers. Returns NULL with err filled on a malformed list. */
gasp_endpoints *gasp_endpoints_open(const char *list, int default_limit, void (*notice)(const char *msg), char *err,
                                    size_t errcap);
/* Sends the per-endpoint tally to notice when there are several endpoints or any failed. */
void gasp_endpoints_close(gasp_endpoints *e);

int gasp_endpoints_count(const gasp_endpoints *e);
const char *gasp_endpoints_url(const gasp_endpoints *e, int i);

/* Takes a slot: among endpoints not in `tried` (bit i: endpoint i already failed this request) that are
 * healthy and below their limit, the one with the fewest requests in flight. When every untried endpoint is
 * set aside (or all were tried), any endpoint below its limit, healthy first, else the one whose pause ends
 * first. Blocks while every candidate is at its limit. Returns the endpoint's index. */
int gasp_endpoints_acquire(gasp_endpoints *e, unsigned long long tried);

/* Gives the slot back. answered: the server gave an HTTP answer that says nothing against its health
 * (anything but 5xx); else it is set aside for 1 s, doubling with each failure in a row up to 30 s. */
void gasp_endpoints_release(gasp_endpoints *e, int i, int answered, const char *why);

typedef struct {
  long requests, failures, max_in_flight;
  int limit, down;
} gasp_endpoint_stats;
void gasp_endpoints_stats(gasp_endpoints *e, int i, gasp_endpoint_stats *s);

#endif
