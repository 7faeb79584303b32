/* Message framing and a bounds-checked byte buffer for the worker protocol. */
#include "proto.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void gasp_wire_init(gasp_wire *w) { memset(w, 0, sizeof *w); }
void gasp_wire_free(gasp_wire *w) { free(w->p); memset(w, 0, sizeof *w); }

static int wire_reserve(gasp_wire *w, size_t n) {
  if (w->len + n <= w->cap) return 0;
  size_t cap = w->cap ? w->cap : 4096;
  while (cap < w->len + n) cap *= 2;
  uint8_t *p = realloc(w->p, cap);
  if (!p) return -1;
  w->p = p;
  w->cap = cap;
  return 0;
}

void gasp_wire_put(gasp_wire *w, const void *p, size_t n) {
  if (!n) return;
  if (wire_reserve(w, n)) { w->bad = 1; return; }
  memcpy(w->p + w->len, p, n);
  w->len += n;
}
void gasp_wire_u32(gasp_wire *w, uint32_t v) { gasp_wire_put(w, &v, 4); }
void gasp_wire_u64(gasp_wire *w, uint64_t v) { gasp_wire_put(w, &v, 8); }
void gasp_wire_f64(gasp_wire *w, double v) { gasp_wire_put(w, &v, 8); }

const void *gasp_wire_get(gasp_wire *w, size_t n) {
  if (w->bad || n > w->len - w->pos) {
    w->bad = 1;
    return NULL;
  }
  const void *p = w->p + w->pos;
  w->pos += n;
  return p;
}
uint32_t gasp_wire_get_u32(gasp_wire *w) { uint32_t v = 0; const void *p = gasp_wire_get(w, 4); if (p) memcpy(&v, p, 4); return v; }
uint64_t gasp_wire_get_u64(gasp_wire *w) { uint64_t v = 0; const void *p = gasp_wire_get(w, 8); if (p) memcpy(&v, p, 8); return v; }
double gasp_wire_get_f64(gasp_wire *w) { double v = 0; const void *p = gasp_wire_get(w, 8); if (p) memcpy(&v, p, 8); return v; }

static int write_all(int fd, const void *p, size_t n) {
  const uint8_t *c = p;
  while (n) {
    ssize_t k = write(fd, c, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    c += k;
    n -= (size_t)k;
  }
  return 0;
}

int gasp_msg_write(int fd, uint32_t type, const void *payload, size_t len) {
  gasp_msg_hdr h = {GASP_PROTO_MAGIC, type, len};
  if (write_all(fd, &h, sizeof h)) return -1;
  return write_all(fd, payload, len);
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* deadline_ms < 0: wait forever */
static int read_all(int fd, void *p, size_t n, double deadline_ms) {
  uint8_t *c = p;
  while (n) {
    if (deadline_ms >= 0) {
      double left = deadline_ms - now_ms();
      if (left <= 0) return -2;
      struct pollfd pf = {fd, POLLIN, 0};
      int r = poll(&pf, 1, (int)left + 1);
      if (r < 0 && errno == EINTR) continue;
      if (r == 0) return -2;
      if (r < 0) return -1;
    }
    ssize_t k = read(fd, c, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    c += k;
    n -= (size_t)k;
  }
  return 0;
}

static int msg_read(int fd, gasp_msg_hdr *h, gasp_wire *w, double deadline) {
  int r = read_all(fd, h, sizeof *h, deadline);
  if (r) return r;
  if (h->magic != GASP_PROTO_MAGIC || h->len > GASP_PROTO_MAX_MSG) return -1;
  w->len = w->pos = 0;
  w->bad = 0;
  if (wire_reserve(w, h->len ? h->len : 1)) return -1;
  r = read_all(fd, w->p, h->len, deadline);
  if (r) return r;
  w->len = h->len;
  return 0;
}

int gasp_msg_read(int fd, gasp_msg_hdr *h, gasp_wire *w) { return msg_read(fd, h, w, -1); }

int gasp_msg_read_timeout(int fd, gasp_msg_hdr *h, gasp_wire *w, int timeout_ms) {
  return msg_read(fd, h, w, now_ms() + timeout_ms);
}
