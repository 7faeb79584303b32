/* Small helpers every stage needs: growable strings, bounded file reads, hashing, a cache directory. */
#ifndef GASP_UTIL_H
#define GASP_UTIL_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  char *data;   /* always NUL-terminated once anything was appended */
  size_t len, cap;
} gasp_str;

void gasp_str_init(gasp_str *s);
void gasp_str_free(gasp_str *s);
int gasp_str_append(gasp_str *s, const char *p, size_t n);
int gasp_str_puts(gasp_str *s, const char *p);
int gasp_str_printf(gasp_str *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns the buffer (caller owns it, free()) and resets s. Never NULL. */
char *gasp_str_take(gasp_str *s);

/* Reads a whole file of at most max_bytes. Returns 0 and a malloc'ed NUL-terminated buffer, or -1 with
 * errno set (EFBIG when larger than max_bytes). */
int gasp_read_file(const char *path, size_t max_bytes, char **out, size_t *out_len);
int gasp_write_file(const char *path, const void *data, size_t len);

uint64_t gasp_fnv1a(const void *p, size_t n, uint64_t seed);
#define GASP_FNV_SEED 0xcbf29ce484222325ULL

/* Directory for cached compiler outputs: $GASP_CACHE_DIR, else $XDG_CACHE_HOME/gasp, else ~/.cache/gasp.
 * Created on demand. Returns 0 on success. */
int gasp_cache_dir(char *buf, size_t cap);
int gasp_mkdir_p(const char *path);

/* A fresh private temporary directory under $TMPDIR (mkdtemp). */
int gasp_tmpdir(char *buf, size_t cap);
/* Removes a directory made by gasp_tmpdir and the plain files in it. */
void gasp_rmtree_flat(const char *dir);

double gasp_now_s(void);
char *gasp_strdup(const char *s);
/* Copies at most cap-1 bytes and always terminates. */
void gasp_strlcpy(char *dst, const char *src, size_t cap);
int gasp_str_ends_with(const char *s, const char *suffix);
/* Simple shell-style glob match (* and ?), used for --tasks filters. */
int gasp_glob_match(const char *pattern, const char *s);

#endif
