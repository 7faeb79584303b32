/* train export / dump (see gguf_io.h). Tensor names follow llama.cpp's loader for LLM_ARCH_LLAMA
 * (src/llama-arch.cpp of the pinned source); ggml lists dimensions innermost first, PyTorch outermost
 * first, and both are row-major, so a tensor's bytes are the same and only the dims are reversed. */
#define _GNU_SOURCE
#include "gguf_io.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/util.h"
#include "../llm/mkmodel.h"
#include "ggml.h"
#include "gguf.h"
#include "llama.h"

int gasp_export_type_parse(const char *s, gasp_export_type *t) {
  if (!strcmp(s, "f32")) *t = GASP_EXPORT_F32;
  else if (!strcmp(s, "f16")) *t = GASP_EXPORT_F16;
  else if (!strcmp(s, "q8_0")) *t = GASP_EXPORT_Q8_0;
  else return -1;
  return 0;
}

static void quiet_log(enum ggml_log_level level, const char *text, void *user) {
  (void)level, (void)user;
  if (getenv("GASP_LLAMA_VERBOSE")) fputs(text, stderr);
}

static int write_f32(const gasp_train_model *m, const char *path, const char *name, char *err, size_t cap) {
  const gasp_train_config *c = &m->cfg;
  char vbuf[4096];
  const char *vocab = gasp_vocab_resolve(c->vocab, vbuf, sizeof vbuf);
  if (!vocab || access(vocab, R_OK)) {
    snprintf(err, cap, "vocabulary '%s' not found%s%s", c->vocab, vocab ? " at " : "", vocab ? vocab : "");
    return -1;
  }
  gasp_mkmodel_opts o = {.arch = "llama", .n_embd = c->n_embd, .n_layer = c->n_layer, .n_head = c->n_head,
                         .n_head_kv = c->n_head_kv, .n_ff = c->n_ff, .n_ctx = c->n_ctx_train,
                         .rope_theta = c->rope_theta, .rms_eps = c->rms_eps};
  struct gguf_context *g = gguf_init_empty();
  int64_t n_vocab = 0;
  if (gasp_gguf_llama_header(g, &o, vocab, name ? name : "gasp trained llama",
                             "trained by gasp (tools/train, gasp train); see the gasp README", &n_vocab, err, cap)) {
    gguf_free(g);
    return -1;
  }
  if (n_vocab != c->n_vocab) {
    snprintf(err, cap, "the vocabulary '%s' has %lld tokens but the config says n_vocab %d", c->vocab,
             (long long)n_vocab, c->n_vocab);
    gguf_free(g);
    return -1;
  }
  struct ggml_init_params ip = {(size_t)(m->n + 4) * ggml_tensor_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(ip);
  for (int i = 0; i < m->n; i++) {
    const gasp_train_tensor *t = &m->t[i];
    struct ggml_tensor *gt = t->n_dims == 1 ? ggml_new_tensor_1d(ctx, GGML_TYPE_F32, t->dims[0])
                                            : ggml_new_tensor_2d(ctx, GGML_TYPE_F32, t->dims[1], t->dims[0]);
    ggml_set_name(gt, t->name);
    gt->data = t->data; /* gguf_add_tensor copies the header; the bytes are read at write time */
    gguf_add_tensor(g, gt);
  }
  int ok = gguf_write_to_file(g, path, false);
  gguf_free(g);
  ggml_free(ctx);
  if (!ok) {
    snprintf(err, cap, "cannot write '%s'", path);
    return -1;
  }
  return 0;
}

int gasp_train_export(const gasp_train_model *m, const char *path, gasp_export_type type, const char *name, char *err,
                      size_t cap) {
  if (gasp_train_model_check(m, err, cap)) return -1;
  if (type == GASP_EXPORT_F32) return write_f32(m, path, name, err, cap);
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.f32.tmp", path);
  if (write_f32(m, tmp, name, err, cap)) return -1;
  llama_log_set(quiet_log, NULL);
  llama_model_quantize_params qp = llama_model_quantize_default_params();
  qp.ftype = type == GASP_EXPORT_F16 ? LLAMA_FTYPE_MOSTLY_F16 : LLAMA_FTYPE_MOSTLY_Q8_0;
  qp.nthread = 0;
  uint32_t rc = llama_model_quantize(tmp, path, &qp);
  unlink(tmp);
  if (rc) {
    snprintf(err, cap, "llama_model_quantize failed (%u) writing '%s'", rc, path);
    return -1;
  }
  return 0;
}

static int get_uint(const struct gguf_context *g, const char *key, int *out) {
  int64_t k = gguf_find_key(g, key);
  if (k < 0) return -1;
  switch (gguf_get_kv_type(g, k)) {
  case GGUF_TYPE_UINT32: *out = gguf_get_val_u32(g, k) > INT_MAX ? -1 : (int)gguf_get_val_u32(g, k); return 0;
  case GGUF_TYPE_INT32: *out = gguf_get_val_i32(g, k); return 0;
  case GGUF_TYPE_UINT64: *out = gguf_get_val_u64(g, k) > INT_MAX ? -1 : (int)gguf_get_val_u64(g, k); return 0;
  default: return -1;
  }
}

static int get_f32(const struct gguf_context *g, const char *key, double *out) {
  int64_t k = gguf_find_key(g, key);
  if (k < 0 || gguf_get_kv_type(g, k) != GGUF_TYPE_FLOAT32) return -1;
  *out = gguf_get_val_f32(g, k);
  return 0;
}

static const char *get_str(const struct gguf_context *g, const char *key) {
  int64_t k = gguf_find_key(g, key);
  return k >= 0 && gguf_get_kv_type(g, k) == GGUF_TYPE_STRING ? gguf_get_val_str(g, k) : NULL;
}

/* a vocab name when the GGUF's tokenizer is that vocab file's, else the GGUF's own path */
static void vocab_name(const struct gguf_context *g, const char *path, int n_vocab, char *out, size_t cap) {
  const char *model = get_str(g, "tokenizer.ggml.model"), *pre = get_str(g, "tokenizer.ggml.pre");
  const char *cand = model && !strcmp(model, "llama") ? "llama-spm" : pre && !strcmp(pre, "qwen2") ? "qwen2" : NULL;
  char vbuf[4096];
  const char *vp = cand ? gasp_vocab_resolve(cand, vbuf, sizeof vbuf) : NULL;
  if (vp) {
    struct gguf_init_params gp = {true, NULL};
    struct gguf_context *v = gguf_init_from_file(vp, gp);
    int64_t k = v ? gguf_find_key(v, "tokenizer.ggml.tokens") : -1;
    int same = k >= 0 && (int64_t)gguf_get_arr_n(v, k) == n_vocab;
    if (v) gguf_free(v);
    if (same) {
      snprintf(out, cap, "%s", cand);
      return;
    }
  }
  char *abs = realpath(path, NULL);
  snprintf(out, cap, "%s", abs ? abs : path);
  free(abs);
}

int gasp_train_dump(const char *path, gasp_train_model *m, char *err, size_t cap) {
  memset(m, 0, sizeof *m);
  struct ggml_context *ctx = NULL;
  struct gguf_init_params gp = {false, &ctx};
  struct gguf_context *g = gguf_init_from_file(path, gp);
  if (!g) {
    snprintf(err, cap, "cannot read GGUF '%s'", path);
    return -1;
  }
  int rc = -1;
  gasp_train_config *c = &m->cfg;
  const char *arch = get_str(g, "general.architecture");
  if (!arch || strcmp(arch, "llama")) {
    snprintf(err, cap, "'%s' is a %s model; dump reads llama-architecture models only", path, arch ? arch : "(unnamed)");
    goto out;
  }
  gasp_strlcpy(c->arch, "llama", sizeof c->arch);
  int64_t tk = gguf_find_key(g, "tokenizer.ggml.tokens");
  int rope_dim = 0;
  c->rope_theta = 10000.0; /* llama.cpp's default for llama when the key is absent */
  c->rms_eps = 1e-5;
  get_f32(g, "llama.rope.freq_base", &c->rope_theta);
  if (tk < 0 || get_uint(g, "llama.embedding_length", &c->n_embd) || get_uint(g, "llama.block_count", &c->n_layer) ||
      get_uint(g, "llama.feed_forward_length", &c->n_ff) || get_uint(g, "llama.attention.head_count", &c->n_head) ||
      get_uint(g, "llama.context_length", &c->n_ctx_train) ||
      get_f32(g, "llama.attention.layer_norm_rms_epsilon", &c->rms_eps)) {
    snprintf(err, cap, "'%s' lacks a llama hyperparameter or the tokenizer", path);
    goto out;
  }
  c->n_head_kv = c->n_head;
  get_uint(g, "llama.attention.head_count_kv", &c->n_head_kv);
  c->n_vocab = (int)gguf_get_arr_n(g, tk);
  if (c->n_head > 0 && !get_uint(g, "llama.rope.dimension_count", &rope_dim) && rope_dim != c->n_embd / c->n_head) {
    snprintf(err, cap, "'%s': rope over %d of %d head dimensions is not supported", path, rope_dim, c->n_embd / c->n_head);
    goto out;
  }
  if (gasp_train_config_check(c, err, cap)) goto out;
  vocab_name(g, path, c->n_vocab, c->vocab, sizeof c->vocab);
  c->tied_embeddings = gguf_find_tensor(g, "output.weight") < 0;
  for (int64_t i = 0; i < gguf_get_n_tensors(g); i++) {
    const char *name = gguf_get_tensor_name(g, i);
    struct ggml_tensor *t = ggml_get_tensor(ctx, name);
    if (!t) {
      snprintf(err, cap, "'%s': tensor '%s' has no data", path, name);
      goto out;
    }
    int nd = ggml_n_dims(t);
    int64_t dims[4], n = ggml_nelements(t);
    for (int k = 0; k < nd; k++) dims[k] = t->ne[nd - 1 - k];
    float *data = malloc((size_t)n * sizeof *data);
    if (!data) {
      snprintf(err, cap, "out of memory");
      goto out;
    }
    if (t->type == GGML_TYPE_F32) memcpy(data, t->data, (size_t)n * 4);
    else {
      const struct ggml_type_traits *tr = ggml_get_type_traits(t->type);
      if (!tr->to_float || !ggml_is_contiguous(t)) {
        snprintf(err, cap, "'%s': tensor '%s' of type %s cannot be dequantized", path, name, ggml_type_name(t->type));
        free(data);
        goto out;
      }
      tr->to_float(t->data, data, n);
    }
    if (!gasp_train_model_add(m, name, nd, dims, data)) {
      snprintf(err, cap, "'%s': too many tensors", path);
      free(data);
      goto out;
    }
  }
  rc = gasp_train_model_check(m, err, cap);
out:
  gguf_free(g);
  if (ctx) ggml_free(ctx);
  if (rc) gasp_train_model_free(m);
  return rc;
}

int gasp_gguf_all_f32(const char *path) {
  struct gguf_init_params gp = {true, NULL};
  struct gguf_context *g = gguf_init_from_file(path, gp);
  if (!g) return -1;
  int all = 1;
  for (int64_t i = 0; i < gguf_get_n_tensors(g); i++) all &= gguf_get_tensor_type(g, i) == GGML_TYPE_F32;
  gguf_free(g);
  return all;
}
