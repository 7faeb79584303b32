/* Random-weight GGUF models with real tokenizers, made on the spot: no model weights can be downloaded on
 * our machines (h200-and-llm-facts.md), yet the llama backend, the grammar and the whole loop must be driven
 * end to end by a real model file in tests and speed runs. The vocabulary (tokens, merges, scores, special
 * ids, chat template) is copied from llama.cpp's vocab-only files; the weights are seeded noise. These models
 * prove plumbing and speed only; no quality is claimed from them. */
#ifndef GASP_MKMODEL_H
#define GASP_MKMODEL_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  const char *arch;      /* "llama" or "qwen2" */
  const char *vocab;     /* a vocab-only GGUF (NULL: the pinned llama.cpp's models/ggml-vocab-<llama-spm|qwen2>.gguf) */
  int n_embd, n_layer, n_head, n_head_kv, n_ff, n_ctx;
  int f16;               /* store matrices as f16 (halves the file; the 100M speed model) */
  uint64_t seed;
  double init_std;       /* standard deviation of the matrices (default 0.02, as in GPT-2 style init) */
  double rope_theta;     /* 0: 10000 (llama), 1e6 (qwen2) */
  double rms_eps;        /* 0: 1e-6 */
} gasp_mkmodel_opts;

/* Presets: "tiny" (n_embd 64, 2 layers: a few MB, for tests), "100m" (768 x 12 layers, about 134M
 * parameters with the llama vocabulary: the speed model of issue 3). Returns -1 for an unknown name. */
int gasp_mkmodel_preset(const char *name, gasp_mkmodel_opts *o);

/* Writes the model to path. Returns 0, or -1 with the reason in err. *params gets the parameter count. */
int gasp_mkmodel_write(const gasp_mkmodel_opts *o, const char *path, uint64_t *params, char *err, size_t errcap);

/* The default vocab file for an architecture, or NULL when the llama.cpp source is not where it was built. */
const char *gasp_mkmodel_default_vocab(const char *arch);

/* A vocabulary by name ("llama-spm", "qwen2": the pinned llama.cpp's models/ggml-vocab-NAME.gguf) or by path
 * (anything with a '/' or ending in .gguf, taken as is). Returns buf, or NULL when a name is given and the
 * llama.cpp tree is unknown. The file's existence is not checked. */
const char *gasp_vocab_resolve(const char *name_or_path, char *buf, size_t cap);

/* Fills an empty GGUF context with a model's metadata: the tokenizer.* and general.* keys of the vocab file
 * (a vocab-only GGUF or any model GGUF), then general.architecture/name/description and o's hyperparameters
 * (o->arch, shapes, n_ctx, rope_theta, rms_eps, f16 as general.file_type). *n_vocab gets the vocabulary size.
 * Shared by mkmodel and `gasp train export`. Returns 0, or -1 with the reason in err. */
struct gguf_context;
int gasp_gguf_llama_header(struct gguf_context *g, const gasp_mkmodel_opts *o, const char *vocab, const char *name,
                           const char *description, int64_t *n_vocab, char *err, size_t errcap);

#endif
