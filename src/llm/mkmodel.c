/* Random-weight GGUF writer (see mkmodel.h), through ggml's own gguf API, as llama.cpp's tests make their
 * random models. Tensor names and shapes follow llama.cpp's loader for the llama and qwen2 architectures
 * (src/models/llama.cpp, qwen2.cpp of the pinned source): ggml lists dimensions innermost first. */
#include "mkmodel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml.h"
#include "gguf.h"

#ifndef GASP_LLAMA_VOCAB_DIR
#define GASP_LLAMA_VOCAB_DIR ""
#endif

int gasp_mkmodel_preset(const char *name, gasp_mkmodel_opts *o) {
  const char *arch = o->arch ? o->arch : "llama";
  memset(o, 0, sizeof *o);
  o->arch = arch;
  o->seed = 1;
  o->init_std = 0.02;
  if (!strcmp(name, "tiny")) {
    o->n_embd = 64, o->n_layer = 2, o->n_head = 4, o->n_head_kv = 2, o->n_ff = 128, o->n_ctx = 8192;
  } else if (!strcmp(name, "100m")) {
    o->n_embd = 768, o->n_layer = 12, o->n_head = 12, o->n_head_kv = 12, o->n_ff = 2048, o->n_ctx = 8192;
    o->f16 = 1;
  } else
    return -1;
  return 0;
}

static int gasp_ends_gguf(const char *s) {
  size_t n = strlen(s);
  return n >= 5 && !strcmp(s + n - 5, ".gguf");
}

const char *gasp_mkmodel_default_vocab(const char *arch) {
  static char path[4096];
  const char *dir = getenv("GASP_LLAMA_VOCAB_DIR");
  if (!dir || !*dir) dir = GASP_LLAMA_VOCAB_DIR;
  if (!*dir) return NULL;
  snprintf(path, sizeof path, "%s/ggml-vocab-%s.gguf", dir, !strcmp(arch, "qwen2") ? "qwen2" : "llama-spm");
  return path;
}

/* splitmix64 then Box-Muller: reproducible from the seed on every machine */
static uint64_t next_u64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static double next_normal(uint64_t *s) {
  double u1 = ((next_u64(s) >> 11) + 1.0) / 9007199254740993.0, u2 = (next_u64(s) >> 11) / 9007199254740992.0;
  return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

typedef struct {
  struct ggml_context *ctx;
  struct gguf_context *gguf;
  uint64_t rng, params;
  const gasp_mkmodel_opts *o;
} builder;

/* kind 0: matrix of noise, 1: norm weights (ones), 2: bias (zeros) */
static void add(builder *b, const char *name, int64_t ne0, int64_t ne1, int kind) {
  enum ggml_type type = (ne1 > 1 && b->o->f16) ? GGML_TYPE_F16 : GGML_TYPE_F32;
  struct ggml_tensor *t = ne1 > 1 ? ggml_new_tensor_2d(b->ctx, type, ne0, ne1) : ggml_new_tensor_1d(b->ctx, type, ne0);
  ggml_set_name(t, name);
  int64_t n = ne0 * ne1;
  for (int64_t i = 0; i < n; i++) {
    float v = kind == 1 ? 1.0f : kind == 2 ? 0.0f : (float)(next_normal(&b->rng) * b->o->init_std);
    if (type == GGML_TYPE_F16) ((ggml_fp16_t *)t->data)[i] = ggml_fp32_to_fp16(v);
    else ((float *)t->data)[i] = v;
  }
  b->params += (uint64_t)n;
  gguf_add_tensor(b->gguf, t);
}

const char *gasp_vocab_resolve(const char *name_or_path, char *buf, size_t cap) {
  if (!name_or_path || !*name_or_path) return NULL;
  if (strchr(name_or_path, '/') || gasp_ends_gguf(name_or_path)) {
    snprintf(buf, cap, "%s", name_or_path);
    return buf;
  }
  const char *dir = getenv("GASP_LLAMA_VOCAB_DIR");
  if (!dir || !*dir) dir = GASP_LLAMA_VOCAB_DIR;
  if (!*dir) return NULL;
  snprintf(buf, cap, "%s/ggml-vocab-%s.gguf", dir, name_or_path);
  return buf;
}

int gasp_gguf_llama_header(struct gguf_context *g, const gasp_mkmodel_opts *o, const char *vocab, const char *name,
                           const char *description, int64_t *n_vocab, char *err, size_t errcap) {
  int qwen = !strcmp(o->arch, "qwen2");
  struct gguf_init_params gp = {true, NULL};
  struct gguf_context *src = gguf_init_from_file(vocab, gp);
  if (!src) {
    snprintf(err, errcap, "cannot read vocabulary GGUF '%s'", vocab);
    return -1;
  }
  int64_t tok = gguf_find_key(src, "tokenizer.ggml.tokens");
  if (tok < 0) {
    snprintf(err, errcap, "'%s' holds no tokenizer.ggml.tokens", vocab);
    gguf_free(src);
    return -1;
  }
  *n_vocab = (int64_t)gguf_get_arr_n(src, tok);
  /* the tokenizer and every general.* key from the vocab file; anything else (a full model's own
   * hyperparameters, when the vocabulary is taken from a model file) is dropped, then ours are set */
  gguf_set_kv(g, src);
  gguf_free(src);
  for (int64_t i = gguf_get_n_kv(g) - 1; i >= 0; i--) {
    const char *k = gguf_get_key(g, i);
    if (strncmp(k, "tokenizer.", 10) && strncmp(k, "general.", 8)) gguf_remove_key(g, k);
  }
  int64_t hd = o->n_embd / o->n_head;
  char key[128];
#define KEY(fmt) (snprintf(key, sizeof key, fmt, o->arch), key)
  gguf_set_val_str(g, "general.architecture", o->arch);
  gguf_set_val_str(g, "general.name", name);
  gguf_set_val_str(g, "general.description", description);
  gguf_set_val_u32(g, KEY("%s.context_length"), (uint32_t)o->n_ctx);
  gguf_set_val_u32(g, KEY("%s.embedding_length"), (uint32_t)o->n_embd);
  gguf_set_val_u32(g, KEY("%s.block_count"), (uint32_t)o->n_layer);
  gguf_set_val_u32(g, KEY("%s.feed_forward_length"), (uint32_t)o->n_ff);
  gguf_set_val_u32(g, KEY("%s.attention.head_count"), (uint32_t)o->n_head);
  gguf_set_val_u32(g, KEY("%s.attention.head_count_kv"), (uint32_t)o->n_head_kv);
  gguf_set_val_u32(g, KEY("%s.rope.dimension_count"), (uint32_t)hd);
  gguf_set_val_f32(g, KEY("%s.rope.freq_base"), o->rope_theta > 0 ? (float)o->rope_theta : qwen ? 1000000.0f : 10000.0f);
  gguf_set_val_f32(g, KEY("%s.attention.layer_norm_rms_epsilon"), o->rms_eps > 0 ? (float)o->rms_eps : 1e-6f);
  gguf_set_val_u32(g, "general.file_type", o->f16 ? 1 : 0);
  if (qwen && gguf_find_key(g, "tokenizer.chat_template") < 0)
    /* Qwen2's own ChatML template (as in Qwen2-7B-Instruct's tokenizer_config), for the chat-template path */
    gguf_set_val_str(g, "tokenizer.chat_template",
                     "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}"
                     "{{ '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n' }}{% endif %}"
                     "{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}"
                     "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}");
#undef KEY
  return 0;
}

int gasp_mkmodel_write(const gasp_mkmodel_opts *o, const char *path, uint64_t *params, char *err, size_t errcap) {
  int qwen = !strcmp(o->arch, "qwen2");
  if (!qwen && strcmp(o->arch, "llama")) {
    snprintf(err, errcap, "unknown architecture '%s' (llama or qwen2)", o->arch);
    return -1;
  }
  if (o->n_embd <= 0 || o->n_layer <= 0 || o->n_head <= 0 || o->n_head_kv <= 0 || o->n_ff <= 0 ||
      o->n_embd % o->n_head || o->n_head % o->n_head_kv || (o->n_embd / o->n_head) % 2) {
    snprintf(err, errcap, "bad shape: n_embd %d must split into %d heads of even size, and heads into %d kv heads",
             o->n_embd, o->n_head, o->n_head_kv);
    return -1;
  }
  const char *vocab = o->vocab ? o->vocab : gasp_mkmodel_default_vocab(o->arch);
  if (!vocab) {
    snprintf(err, errcap, "no vocabulary file: pass --vocab, or build llama.cpp with tools/llama-build.sh");
    return -1;
  }
  struct gguf_context *g = gguf_init_empty();
  int64_t n_vocab = 0;
  if (gasp_gguf_llama_header(g, o, vocab, qwen ? "gasp random qwen2" : "gasp random llama",
                             "random weights made by gasp mkmodel for tests and speed runs; it knows nothing", &n_vocab,
                             err, errcap)) {
    gguf_free(g);
    return -1;
  }
  int64_t hd = o->n_embd / o->n_head, n_gqa = hd * o->n_head_kv;
  size_t per = o->f16 ? 2 : 4;
  size_t bytes = (size_t)(2 * n_vocab * o->n_embd) * per +
                 (size_t)o->n_layer * ((size_t)(2 * o->n_embd * o->n_embd + 2 * o->n_embd * n_gqa + 3 * o->n_embd * o->n_ff) * per +
                                       (size_t)(4 * o->n_embd + 2 * n_gqa) * 4) +
                 (size_t)o->n_embd * 4;
  struct ggml_init_params ip = {bytes + (size_t)(o->n_layer * 16 + 8) * ggml_tensor_overhead() + 4096, NULL, false};
  builder b = {ggml_init(ip), g, o->seed, 0, o};
  if (!b.ctx) {
    snprintf(err, errcap, "cannot allocate %.1f MiB for the weights", bytes / 1048576.0);
    gguf_free(b.gguf);
    return -1;
  }
  add(&b, "token_embd.weight", o->n_embd, n_vocab, 0);
  add(&b, "output_norm.weight", o->n_embd, 1, 1);
  add(&b, "output.weight", o->n_embd, n_vocab, 0);
  for (int l = 0; l < o->n_layer; l++) {
    char n[64];
#define T(name) (snprintf(n, sizeof n, "blk.%d." name, l), n)
    add(&b, T("attn_norm.weight"), o->n_embd, 1, 1);
    add(&b, T("attn_q.weight"), o->n_embd, o->n_embd, 0);
    add(&b, T("attn_k.weight"), o->n_embd, n_gqa, 0);
    add(&b, T("attn_v.weight"), o->n_embd, n_gqa, 0);
    if (qwen) { /* Qwen2 has biases on q, k and v */
      add(&b, T("attn_q.bias"), o->n_embd, 1, 2);
      add(&b, T("attn_k.bias"), n_gqa, 1, 2);
      add(&b, T("attn_v.bias"), n_gqa, 1, 2);
    }
    add(&b, T("attn_output.weight"), o->n_embd, o->n_embd, 0);
    add(&b, T("ffn_norm.weight"), o->n_embd, 1, 1);
    add(&b, T("ffn_gate.weight"), o->n_embd, o->n_ff, 0);
    add(&b, T("ffn_down.weight"), o->n_ff, o->n_embd, 0);
    add(&b, T("ffn_up.weight"), o->n_embd, o->n_ff, 0);
#undef T
  }
  int ok = gguf_write_to_file(b.gguf, path, false);
  if (params) *params = b.params;
  gguf_free(b.gguf);
  ggml_free(b.ctx);
  if (!ok) {
    snprintf(err, errcap, "cannot write '%s'", path);
    return -1;
  }
  return 0;
}
