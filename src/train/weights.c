/* config.json and weights.bin (see weights.h): the trainer's interchange format, read with every size checked. */
#include "weights.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "../core/util.h"

/* bounds on what a file from another machine may claim (far above any model gasp ships: 50 MB) */
#define MAX_VOCAB (1 << 20)
#define MAX_EMBD 16384
#define MAX_LAYER 256
#define MAX_FF 131072
#define MAX_TENSORS (16 * MAX_LAYER + 16)
#define MAX_NAME 63

static int get_int(json_t *o, const char *k, int lo, int hi, int *out, char *err, size_t cap) {
  json_t *v = json_object_get(o, k);
  if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
    snprintf(err, cap, "config: \"%s\" must be an integer in [%d, %d]", k, lo, hi);
    return -1;
  }
  *out = (int)json_integer_value(v);
  return 0;
}

int gasp_train_config_check(const gasp_train_config *c, char *err, size_t cap) {
  if (strcmp(c->arch, "llama")) {
    snprintf(err, cap, "config: arch '%s' is not supported (llama only)", c->arch);
    return -1;
  }
  if (c->n_vocab < 2 || c->n_vocab > MAX_VOCAB || c->n_embd < 2 || c->n_embd > MAX_EMBD || c->n_layer < 1 ||
      c->n_layer > MAX_LAYER || c->n_head < 1 || c->n_head_kv < 1 || c->n_ff < 1 || c->n_ff > MAX_FF ||
      c->n_ctx_train < 1 || c->n_ctx_train > (1 << 20)) {
    snprintf(err, cap, "config: a size is out of range (n_vocab %d, n_embd %d, n_layer %d, n_ff %d, n_ctx_train %d)",
             c->n_vocab, c->n_embd, c->n_layer, c->n_ff, c->n_ctx_train);
    return -1;
  }
  if (c->n_embd % c->n_head || c->n_head % c->n_head_kv || (c->n_embd / c->n_head) % 2) {
    snprintf(err, cap, "config: n_embd %d must split into %d heads of even size, and heads into %d kv heads", c->n_embd,
             c->n_head, c->n_head_kv);
    return -1;
  }
  if (!(c->rope_theta > 0) || !(c->rms_eps > 0) || c->rms_eps > 1) {
    snprintf(err, cap, "config: rope_theta and rms_eps must be positive (rms_eps at most 1)");
    return -1;
  }
  return 0;
}

int gasp_train_config_read(const char *path, gasp_train_config *c, char *err, size_t cap) {
  memset(c, 0, sizeof *c);
  json_error_t je;
  json_t *o = json_load_file(path, 0, &je);
  if (!json_is_object(o)) {
    snprintf(err, cap, "%s:%d: %s", path, je.line, o ? "not a JSON object" : je.text);
    json_decref(o);
    return -1;
  }
  int rc = -1;
  const char *arch = json_string_value(json_object_get(o, "arch"));
  const char *vocab = json_string_value(json_object_get(o, "vocab"));
  json_t *tied = json_object_get(o, "tied_embeddings"), *rt = json_object_get(o, "rope_theta"),
         *re = json_object_get(o, "rms_eps");
  if (!arch || !vocab || strlen(arch) >= sizeof c->arch || strlen(vocab) >= sizeof c->vocab) {
    snprintf(err, cap, "%s: \"arch\" and \"vocab\" must be strings", path);
    goto out;
  }
  if (!json_is_boolean(tied) || !json_is_number(rt) || !json_is_number(re)) {
    snprintf(err, cap, "%s: \"tied_embeddings\" must be a boolean, \"rope_theta\" and \"rms_eps\" numbers", path);
    goto out;
  }
  gasp_strlcpy(c->arch, arch, sizeof c->arch);
  gasp_strlcpy(c->vocab, vocab, sizeof c->vocab);
  c->tied_embeddings = json_is_true(tied);
  c->rope_theta = json_number_value(rt);
  c->rms_eps = json_number_value(re);
  if (get_int(o, "n_vocab", 2, MAX_VOCAB, &c->n_vocab, err, cap) || get_int(o, "n_embd", 2, MAX_EMBD, &c->n_embd, err, cap) ||
      get_int(o, "n_layer", 1, MAX_LAYER, &c->n_layer, err, cap) || get_int(o, "n_head", 1, MAX_EMBD, &c->n_head, err, cap) ||
      get_int(o, "n_head_kv", 1, MAX_EMBD, &c->n_head_kv, err, cap) || get_int(o, "n_ff", 1, MAX_FF, &c->n_ff, err, cap) ||
      get_int(o, "n_ctx_train", 1, 1 << 20, &c->n_ctx_train, err, cap))
    goto out;
  rc = gasp_train_config_check(c, err, cap);
out:
  json_decref(o);
  return rc;
}

int gasp_train_config_write(const char *path, const gasp_train_config *c, char *err, size_t cap) {
  json_t *o = json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:f, s:f, s:b}", "arch", c->arch, "vocab",
                        c->vocab, "n_vocab", c->n_vocab, "n_embd", c->n_embd, "n_layer", c->n_layer, "n_head",
                        c->n_head, "n_head_kv", c->n_head_kv, "n_ff", c->n_ff, "n_ctx_train", c->n_ctx_train,
                        "rope_theta", c->rope_theta, "rms_eps", c->rms_eps, "tied_embeddings", c->tied_embeddings);
  int rc = o ? json_dump_file(o, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : -1;
  json_decref(o);
  if (rc) snprintf(err, cap, "cannot write '%s'", path);
  return rc ? -1 : 0;
}

/* The tensors a config implies, in the order they are written: name and PyTorch shape. */
typedef struct {
  char name[64];
  int n_dims;
  int64_t dims[2];
} expect_t;

static int expected(const gasp_train_config *c, expect_t *e) {
  int n = 0;
  int64_t E = c->n_embd, gqa = (int64_t)(c->n_embd / c->n_head) * c->n_head_kv;
#define ADD1(nm, d0) (snprintf(e[n].name, 64, "%s", nm), e[n].n_dims = 1, e[n].dims[0] = d0, n++)
#define ADD2(nm, d0, d1) (snprintf(e[n].name, 64, "%s", nm), e[n].n_dims = 2, e[n].dims[0] = d0, e[n].dims[1] = d1, n++)
  ADD2("token_embd.weight", c->n_vocab, E);
  char b[64];
  for (int l = 0; l < c->n_layer; l++) {
#define B(s) (snprintf(b, sizeof b, "blk.%d." s, l), b)
    ADD1(B("attn_norm.weight"), E);
    ADD2(B("attn_q.weight"), E, E);
    ADD2(B("attn_k.weight"), gqa, E);
    ADD2(B("attn_v.weight"), gqa, E);
    ADD2(B("attn_output.weight"), E, E);
    ADD1(B("ffn_norm.weight"), E);
    ADD2(B("ffn_gate.weight"), c->n_ff, E);
    ADD2(B("ffn_up.weight"), c->n_ff, E);
    ADD2(B("ffn_down.weight"), E, c->n_ff);
#undef B
  }
  ADD1("output_norm.weight", E);
  if (!c->tied_embeddings) ADD2("output.weight", c->n_vocab, E);
#undef ADD1
#undef ADD2
  return n;
}

static int64_t numel(int nd, const int64_t *d) {
  int64_t n = 1;
  for (int i = 0; i < nd; i++) n *= d[i];
  return n;
}

gasp_train_tensor *gasp_train_model_find(const gasp_train_model *m, const char *name) {
  for (int i = 0; i < m->n; i++)
    if (!strcmp(m->t[i].name, name)) return &m->t[i];
  return NULL;
}

gasp_train_tensor *gasp_train_model_add(gasp_train_model *m, const char *name, int n_dims, const int64_t *dims,
                                        float *data) {
  if (m->n >= MAX_TENSORS || n_dims < 1 || n_dims > 4 || strlen(name) > MAX_NAME) return NULL;
  if (!m->t) m->t = calloc(MAX_TENSORS, sizeof *m->t);
  gasp_train_tensor *t = &m->t[m->n++];
  gasp_strlcpy(t->name, name, sizeof t->name);
  t->n_dims = n_dims;
  for (int i = 0; i < n_dims; i++) t->dims[i] = dims[i];
  t->data = data;
  return t;
}

void gasp_train_model_free(gasp_train_model *m) {
  for (int i = 0; i < m->n; i++) free(m->t[i].data);
  free(m->t);
  memset(m, 0, sizeof *m);
}

int gasp_train_model_check(const gasp_train_model *m, char *err, size_t cap) {
  if (gasp_train_config_check(&m->cfg, err, cap)) return -1;
  expect_t *e = malloc(MAX_TENSORS * sizeof *e);
  int ne = expected(&m->cfg, e), rc = -1;
  for (int i = 0; i < m->n; i++)
    for (int j = 0; j < i; j++)
      if (!strcmp(m->t[i].name, m->t[j].name)) {
        snprintf(err, cap, "tensor '%s' appears twice", m->t[i].name);
        goto out;
      }
  for (int i = 0; i < ne; i++) {
    gasp_train_tensor *t = gasp_train_model_find(m, e[i].name);
    if (!t) {
      snprintf(err, cap, "tensor '%s' is missing", e[i].name);
      goto out;
    }
    if (t->n_dims != e[i].n_dims || t->dims[0] != e[i].dims[0] || (t->n_dims == 2 && t->dims[1] != e[i].dims[1])) {
      snprintf(err, cap, "tensor '%s' has shape [%lld%s%lld], the config implies [%lld%s%lld]", t->name,
               (long long)t->dims[0], t->n_dims > 1 ? ", " : "", t->n_dims > 1 ? (long long)t->dims[1] : 0LL,
               (long long)e[i].dims[0], e[i].n_dims > 1 ? ", " : "", e[i].n_dims > 1 ? (long long)e[i].dims[1] : 0LL);
      goto out;
    }
  }
  if (m->n != ne) {
    for (int i = 0; i < m->n; i++) {
      int known = 0;
      for (int j = 0; j < ne && !known; j++) known = !strcmp(m->t[i].name, e[j].name);
      if (!known) {
        snprintf(err, cap, "tensor '%s' is not part of a %s model with this config%s", m->t[i].name, m->cfg.arch,
                 !strcmp(m->t[i].name, "output.weight") ? " (tied_embeddings is true)" : "");
        goto out;
      }
    }
  }
  rc = 0;
out:
  free(e);
  return rc;
}

static int rd(FILE *f, void *p, size_t n) { return fread(p, 1, n, f) == n ? 0 : -1; }
static uint32_t le32(const unsigned char *b) { return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24; }
static uint64_t le64(const unsigned char *b) { return le32(b) | (uint64_t)le32(b + 4) << 32; }

int gasp_train_model_read(const char *dir, gasp_train_model *m, char *err, size_t cap) {
  memset(m, 0, sizeof *m);
  char path[4096];
  snprintf(path, sizeof path, "%s/config.json", dir);
  if (gasp_train_config_read(path, &m->cfg, err, cap)) return -1;
  snprintf(path, sizeof path, "%s/weights.bin", dir);
  FILE *f = fopen(path, "rb");
  struct stat st;
  if (!f || fstat(fileno(f), &st)) {
    snprintf(err, cap, "cannot read '%s': %s", path, strerror(errno));
    if (f) fclose(f);
    return -1;
  }
  uint64_t left = (uint64_t)st.st_size;
  unsigned char b[8];
  int rc = -1;
  if (left < 12 || rd(f, b, 8) || memcmp(b, GASP_WEIGHTS_MAGIC, 8) || rd(f, b, 4)) {
    snprintf(err, cap, "%s: not a weights file (it does not start with '" GASP_WEIGHTS_MAGIC "')", path);
    goto out;
  }
  left -= 12;
  uint32_t count = le32(b);
  if (count > MAX_TENSORS) {
    snprintf(err, cap, "%s: %u tensors claimed, at most %d allowed", path, count, MAX_TENSORS);
    goto out;
  }
  for (uint32_t i = 0; i < count; i++) {
    char name[MAX_NAME + 1];
    if (left < 4 || rd(f, b, 4)) goto trunc;
    left -= 4;
    uint32_t nl = le32(b);
    if (nl == 0 || nl > MAX_NAME || nl > left) {
      snprintf(err, cap, "%s: tensor %u: name length %u out of range", path, i, nl);
      goto out;
    }
    if (rd(f, name, nl)) goto trunc;
    name[nl] = 0;
    left -= nl;
    if (strlen(name) != nl) {
      snprintf(err, cap, "%s: tensor %u: name holds a NUL byte", path, i);
      goto out;
    }
    if (left < 4 || rd(f, b, 4)) goto trunc;
    left -= 4;
    uint32_t nd = le32(b);
    if (nd < 1 || nd > 4 || left < 8ull * nd + 4) {
      snprintf(err, cap, "%s: tensor '%s': %u dimensions (1 to 4 allowed)", path, name, nd);
      goto out;
    }
    int64_t dims[4];
    uint64_t elems = 1;
    for (uint32_t k = 0; k < nd; k++) {
      if (rd(f, b, 8)) goto trunc;
      uint64_t d = le64(b);
      if (d == 0 || d > (uint64_t)MAX_VOCAB * 2 || elems * d > left / 4) {
        snprintf(err, cap, "%s: tensor '%s': dimension %u is %llu, more than the file holds", path, name, k,
                 (unsigned long long)d);
        goto out;
      }
      elems *= d;
      dims[k] = (int64_t)d;
    }
    left -= 8ull * nd;
    if (rd(f, b, 4)) goto trunc;
    left -= 4;
    if (le32(b) != 0) {
      snprintf(err, cap, "%s: tensor '%s': dtype %u (only 0 = f32 is defined)", path, name, le32(b));
      goto out;
    }
    if (elems * 4 > left) goto trunc;
    if (gasp_train_model_find(m, name)) {
      snprintf(err, cap, "%s: tensor '%s' appears twice", path, name);
      goto out;
    }
    float *data = malloc(elems * 4);
    if (!data || rd(f, data, elems * 4)) {
      free(data);
      goto trunc;
    }
    left -= elems * 4;
    for (uint64_t k = 0; k < elems; k++) { /* little-endian on disk */
      uint32_t u;
      memcpy(&u, &data[k], 4);
      u = le32((unsigned char *)&u);
      memcpy(&data[k], &u, 4);
    }
    gasp_train_model_add(m, name, (int)nd, dims, data);
  }
  if (left) {
    snprintf(err, cap, "%s: %llu bytes after the last tensor", path, (unsigned long long)left);
    goto out;
  }
  rc = gasp_train_model_check(m, err, cap);
  if (rc) {
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%.500s: %.500s", path, err);
    snprintf(err, cap, "%s", tmp);
  }
  goto out;
trunc:
  snprintf(err, cap, "%s: truncated", path);
out:
  fclose(f);
  if (rc) gasp_train_model_free(m);
  return rc;
}

static void put32(FILE *f, uint32_t v) {
  unsigned char b[4] = {v, v >> 8, v >> 16, v >> 24};
  fwrite(b, 1, 4, f);
}

int gasp_train_model_write(const char *dir, const gasp_train_model *m, char *err, size_t cap) {
  if (gasp_train_model_check(m, err, cap)) return -1;
  if (gasp_mkdir_p(dir)) {
    snprintf(err, cap, "cannot create '%s': %s", dir, strerror(errno));
    return -1;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/config.json", dir);
  if (gasp_train_config_write(path, &m->cfg, err, cap)) return -1;
  snprintf(path, sizeof path, "%s/weights.bin", dir);
  FILE *f = fopen(path, "wb");
  if (!f) {
    snprintf(err, cap, "cannot write '%s': %s", path, strerror(errno));
    return -1;
  }
  /* the order the config implies, whatever order m holds them in */
  expect_t *e = malloc(MAX_TENSORS * sizeof *e);
  int ne = expected(&m->cfg, e);
  fwrite(GASP_WEIGHTS_MAGIC, 1, 8, f);
  put32(f, (uint32_t)ne);
  for (int i = 0; i < ne; i++) {
    const gasp_train_tensor *t = gasp_train_model_find(m, e[i].name);
    put32(f, (uint32_t)strlen(t->name));
    fwrite(t->name, 1, strlen(t->name), f);
    put32(f, (uint32_t)t->n_dims);
    for (int k = 0; k < t->n_dims; k++) put32(f, (uint32_t)t->dims[k]), put32(f, (uint32_t)((uint64_t)t->dims[k] >> 32));
    put32(f, 0);
    int64_t n = numel(t->n_dims, t->dims);
    for (int64_t k = 0; k < n; k++) {
      uint32_t u;
      memcpy(&u, &t->data[k], 4);
      put32(f, u);
    }
  }
  free(e);
  int bad = ferror(f) | fclose(f);
  if (bad) {
    snprintf(err, cap, "cannot write '%s' (disk full?)", path);
    return -1;
  }
  return 0;
}
