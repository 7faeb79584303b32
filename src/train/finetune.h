/* `gasp train finetune`: fine-tune a GGUF model on `train prepare` output with llama.cpp's own training API
 * (llama_opt_init / llama_opt_epoch, as the pinned source's examples/training/finetune.cpp). Limits of that
 * API, stated where they matter:
 *  - the loss is over every token: llama_opt_epoch fills one-hot labels for every position and takes no mask,
 *    so the prompt's tokens are learned too (mask.u8 is not used here; the PyTorch trainer uses it);
 *  - only f32 tensors are trained, and never token_embd.weight (a FIXME in llama-context.cpp): a model with
 *    f16/q8_0 tensors is converted to f32 first (dump + export), and the output is f32;
 *  - samples are packed back to back and cut into windows of n_ctx tokens (the API trains fixed windows);
 *  - the pinned llama.cpp sizes its scheduler for max(1024, 8 * n_tensors) graph nodes (llama-context.cpp,
 *    graph_max_nodes), and the training graph of a llama with all of 8 or more layers trained does not fit:
 *    llama_opt_epoch aborts the process in a GGML_ASSERT (ggml-backend.cpp, sched->hash_set.size). Measured
 *    (2026-12-05): 2-7 layers train whole; of 8 (the shipped model), 7 or fewer top layers train, all 8 abort, at
 *    any n_ctx. So only the top GASP_FINETUNE_MAX_LAYERS layers train unless layers_trained asks for fewer (the
 *    backward graph stops below the lowest trained layer). Deeper models than 8 layers are unmeasured. */
#ifndef GASP_TRAIN_FINETUNE_H
#define GASP_TRAIN_FINETUNE_H

#include <stddef.h>
#include <stdint.h>

#define GASP_FINETUNE_MAX_EPOCHS 1000
#define GASP_FINETUNE_MAX_LAYERS 7 /* the top layers llama.cpp's training graph holds (above) */

typedef struct {
  const char *model;      /* the GGUF to start from (llama architecture) */
  const char *data_dir;   /* `train prepare` output */
  const char *out;        /* the GGUF to write (f32) */
  const char *loss_csv;   /* where to log the loss (NULL: not logged) */
  int epochs;             /* default 1 */
  double lr;              /* AdamW learning rate (default 1e-4) */
  int n_ctx;              /* window length (default 256) */
  uint64_t seed;          /* order of the samples before packing */
  int threads;            /* 0: all cores */
  void (*progress)(const char *line); /* a line per epoch (may be NULL) */
  int layers_trained;     /* the top N transformer layers train (0: as many as fit, GASP_FINETUNE_MAX_LAYERS) */
} gasp_finetune_opts;

typedef struct {
  double loss_before, loss_after;   /* mean loss over all windows, weights before and after training */
  double epoch_loss[GASP_FINETUNE_MAX_EPOCHS];
  int epochs;
  long windows, tokens;
  int n_ctx;                        /* the window actually used (llama.cpp rounds the context up) */
  int layers_trained, n_layer;      /* the top layers trained, of all */
} gasp_finetune_result;

/* Returns 0, or -1 with the reason in err. */
int gasp_train_finetune(const gasp_finetune_opts *o, gasp_finetune_result *r, char *err, size_t cap);

#endif
