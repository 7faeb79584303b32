/* Small helpers every stage needs. */
#define _GNU_SOURCE
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void gasp_str_init(gasp_str *s) { s->data = NULL; s->len = s->cap = 0; }
void gasp_str_free(gasp_str *s) { free(s->data); gasp_str_init(s); }

static int str_reserve(gasp_str *s, size_t extra) {
  if (s->len + extra + 1 <= s->cap) return 0;
  size_t cap = s->cap ? s->cap : 64;
  while (cap < s->len + extra + 1) cap *= 2;
  char *n = realloc(s->data, cap);
  if (!n) return -1;
  s->data = n;
  s->cap = cap;
  return 0;
}

int gasp_str_append(gasp_str *s, const char *p, size_t n) {
  if (str_reserve(s, n)) return -1;
  memcpy(s->data + s->len, p, n);
  s->len += n;
  s->data[s->len] = 0;
  return 0;
}

int gasp_str_puts(gasp_str *s, const char *p) { return gasp_str_append(s, p, strlen(p)); }

int gasp_str_printf(gasp_str *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || str_reserve(s, (size_t)n)) return -1;
  va_start(ap, fmt);
  vsnprintf(s->data + s->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  s->len += (size_t)n;
  return 0;
}

char *gasp_str_take(gasp_str *s) {
  char *p = s->data ? s->data : calloc(1, 1);
  gasp_str_init(s);
  return p;
}

int gasp_read_file(const char *path, size_t max_bytes, char **out, size_t *out_len) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  gasp_str s;
  gasp_str_init(&s);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
    if (s.len + n > max_bytes) {
      fclose(f);
      gasp_str_free(&s);
      errno = EFBIG;
      return -1;
    }
    if (gasp_str_append(&s, buf, n)) {
      fclose(f);
      gasp_str_free(&s);
      errno = ENOMEM;
      return -1;
    }
  }
  int err = ferror(f);
  fclose(f);
  if (err) {
    gasp_str_free(&s);
    errno = EIO;
    return -1;
  }
  if (out_len) *out_len = s.len;
  *out = gasp_str_take(&s);
  return 0;
}

int gasp_write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t w = fwrite(data, 1, len, f);
  int rc = fclose(f);
  return (w == len && rc == 0) ? 0 : -1;
}

uint64_t gasp_fnv1a(const void *p, size_t n, uint64_t h) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) {
    h ^= c[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

int gasp_mkdir_p(const char *path) {
  char tmp[4096];
  gasp_strlcpy(tmp, path, sizeof tmp);
  for (char *p = tmp + 1; *p; p++) {
    if (*p == '/') {
      *p = 0;
      if (mkdir(tmp, 0755) && errno != EEXIST) return -1;
      *p = '/';
    }
  }
  if (mkdir(tmp, 0755) && errno != EEXIST) return -1;
  return 0;
}

int gasp_cache_dir(char *buf, size_t cap) {
  const char *e = getenv("GASP_CACHE_DIR");
  if (e && *e) snprintf(buf, cap, "%s", e);
  else if ((e = getenv("XDG_CACHE_HOME")) && *e) snprintf(buf, cap, "%s/gasp", e);
  else if ((e = getenv("HOME")) && *e) snprintf(buf, cap, "%s/.cache/gasp", e);
  else snprintf(buf, cap, "/tmp/gasp-cache-%d", (int)getuid());
  return gasp_mkdir_p(buf);
}

int gasp_tmpdir(char *buf, size_t cap) {
  const char *t = getenv("TMPDIR");
  snprintf(buf, cap, "%s/gasp.XXXXXX", (t && *t) ? t : "/tmp");
  return mkdtemp(buf) ? 0 : -1;
}

void gasp_rmtree_flat(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  char p[4096];
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    unlink(p);
  }
  closedir(d);
  rmdir(dir);
}

double gasp_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *gasp_strdup(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

void gasp_strlcpy(char *dst, const char *src, size_t cap) {
  if (!cap) return;
  size_t n = strlen(src);
  if (n >= cap) n = cap - 1;
  memcpy(dst, src, n);
  dst[n] = 0;
}

int gasp_str_ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

int gasp_glob_match(const char *p, const char *s) {
  if (!*p) return !*s;
  if (*p == '*') {
    for (;;) {
      if (gasp_glob_match(p + 1, s)) return 1;
      if (!*s) return 0;
      s++;
    }
  }
  if (!*s) return 0;
  if (*p == '?' || *p == *s) return gasp_glob_match(p + 1, s + 1);
  return 0;
}
