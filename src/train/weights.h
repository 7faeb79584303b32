/* The weights interchange between gasp and the PyTorch trainer (tools/train/train.py): DIR/config.json (the
 * hyperparameters) and DIR/weights.bin (named f32 tensors in PyTorch order). The files come from another
 * machine, so every count is checked against the file size and the config before anything is allocated. */
#ifndef GASP_TRAIN_WEIGHTS_H
#define GASP_TRAIN_WEIGHTS_H

#include <stddef.h>
#include <stdint.h>

#define GASP_WEIGHTS_MAGIC "GASPW001"

typedef struct {
  char arch[16];           /* "llama" (the only one supported) */
  char vocab[1024];        /* a vocab name (llama-spm, qwen2) or a GGUF path */
  int n_vocab, n_embd, n_layer, n_head, n_head_kv, n_ff, n_ctx_train;
  double rope_theta, rms_eps;
  int tied_embeddings;     /* no output.weight: the output projection is token_embd */
} gasp_train_config;

typedef struct {
  char name[64];
  int n_dims;
  int64_t dims[4];         /* PyTorch order: dims[0] outermost (a Linear weight is [out, in]) */
  float *data;             /* malloc'ed, row-major */
} gasp_train_tensor;

typedef struct {
  gasp_train_config cfg;
  gasp_train_tensor *t;
  int n;
} gasp_train_model;

/* Reads and checks config.json (ranges, head shapes). Returns 0, or -1 with the reason in err. */
int gasp_train_config_read(const char *path, gasp_train_config *c, char *err, size_t cap);
int gasp_train_config_write(const char *path, const gasp_train_config *c, char *err, size_t cap);
/* Checks a config's values (also used after reading one from a GGUF). */
int gasp_train_config_check(const gasp_train_config *c, char *err, size_t cap);

/* Reads DIR/config.json and DIR/weights.bin into m: every tensor the config implies must be there exactly
 * once with its shape, nothing else. Returns 0, or -1 with the reason in err (m is then empty). */
int gasp_train_model_read(const char *dir, gasp_train_model *m, char *err, size_t cap);
/* Writes DIR/config.json and DIR/weights.bin (DIR is created). */
int gasp_train_model_write(const char *dir, const gasp_train_model *m, char *err, size_t cap);
/* Checks that m holds exactly the tensors its config implies, with their shapes. */
int gasp_train_model_check(const gasp_train_model *m, char *err, size_t cap);
/* The tensor of that name, or NULL. */
gasp_train_tensor *gasp_train_model_find(const gasp_train_model *m, const char *name);
/* Appends a tensor (data is taken over). Returns the new tensor, or NULL when full. */
gasp_train_tensor *gasp_train_model_add(gasp_train_model *m, const char *name, int n_dims, const int64_t *dims,
                                        float *data);
void gasp_train_model_free(gasp_train_model *m);

#endif
