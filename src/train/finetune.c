/* train finetune (see finetune.h). */
#define _GNU_SOURCE
#include "finetune.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "../core/util.h"
#include "ggml-opt.h"
#include "gguf_io.h"
#include "llama.h"

static void quiet_log(enum ggml_log_level level, const char *text, void *user) {
  (void)level, (void)user;
  if (getenv("GASP_LLAMA_VERBOSE")) fputs(text, stderr);
}

static struct ggml_opt_optimizer_params opt_pars(void *ud) {
  struct ggml_opt_optimizer_params p = ggml_opt_get_default_optimizer_params(NULL);
  p.adamw.alpha = (float)*(const double *)ud;
  p.adamw.wd = 0.0f;
  return p;
}

/* index.json + tokens.u32, every id checked against the vocabulary; samples as (offset, length) */
static int load_data(const char *dir, int n_vocab, uint32_t **tokens, long *ntok, long (**samples)[2], long *ns,
                     char *err, size_t cap) {
  char path[4096];
  snprintf(path, sizeof path, "%s/index.json", dir);
  json_error_t je;
  json_t *ix = json_load_file(path, 0, &je);
  json_t *ss = json_object_get(ix, "samples");
  if (!json_is_object(ix) || !json_is_array(ss)) {
    snprintf(err, cap, "%s: %s", path, ix ? "no \"samples\" array" : je.text);
    json_decref(ix);
    return -1;
  }
  int iv = (int)json_integer_value(json_object_get(ix, "n_vocab"));
  if (iv != n_vocab) {
    snprintf(err, cap, "%s: prepared for a vocabulary of %d tokens, the model has %d", path, iv, n_vocab);
    json_decref(ix);
    return -1;
  }
  snprintf(path, sizeof path, "%s/tokens.u32", dir);
  char *buf;
  size_t len;
  if (gasp_read_file(path, (size_t)1 << 32, &buf, &len) || len % 4) {
    snprintf(err, cap, "cannot read '%s'%s", path, errno == EFBIG ? " (over 4 GiB)" : len % 4 ? " (not whole u32s)" : "");
    json_decref(ix);
    return -1;
  }
  *ntok = (long)(len / 4);
  *tokens = (uint32_t *)buf;
  for (long i = 0; i < *ntok; i++) {
    const unsigned char *b = (const unsigned char *)buf + 4 * i;
    uint32_t v = b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    if (v >= (uint32_t)n_vocab) {
      snprintf(err, cap, "%s: token %ld is %u, past the vocabulary (%d)", path, i, v, n_vocab);
      json_decref(ix);
      return -1;
    }
    (*tokens)[i] = v;
  }
  *ns = (long)json_array_size(ss);
  *samples = malloc((size_t)(*ns ? *ns : 1) * sizeof **samples);
  for (long i = 0; i < *ns; i++) {
    json_t *s = json_array_get(ss, (size_t)i);
    json_int_t off = json_integer_value(json_array_get(s, 0)), n = json_integer_value(json_array_get(s, 1));
    if (!json_is_array(s) || off < 0 || n <= 0 || off + n > *ntok) {
      snprintf(err, cap, "%s/index.json: sample %ld is outside tokens.u32", dir, i);
      json_decref(ix);
      return -1;
    }
    (*samples)[i][0] = (long)off, (*samples)[i][1] = (long)n;
  }
  json_decref(ix);
  return 0;
}

static uint64_t rnd(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double result_loss(ggml_opt_result_t r) {
  double loss = 0, unc = 0;
  ggml_opt_result_loss(r, &loss, &unc);
  return loss;
}

/* the top layers only (blk.N.* with N >= *from), and every tensor outside the blocks (the output norm) */
static bool top_layers(const struct ggml_tensor *t, void *ud) {
  int from = *(const int *)ud, l;
  if (sscanf(t->name, "blk.%d.", &l) == 1) return l >= from;
  return true;
}

int gasp_train_finetune(const gasp_finetune_opts *o, gasp_finetune_result *r, char *err, size_t cap) {
  memset(r, 0, sizeof *r);
  int epochs = o->epochs > 0 ? o->epochs : 1, n_ctx = o->n_ctx > 0 ? o->n_ctx : 256;
  double lr = o->lr > 0 ? o->lr : 1e-4;
  if (epochs > GASP_FINETUNE_MAX_EPOCHS) {
    snprintf(err, cap, "at most %d epochs", GASP_FINETUNE_MAX_EPOCHS);
    return -1;
  }
  if (o->layers_trained > GASP_FINETUNE_MAX_LAYERS) {
    snprintf(err, cap, "at most %d layers train through llama.cpp's API (its graph node budget; more abort)",
             GASP_FINETUNE_MAX_LAYERS);
    return -1;
  }
  int rc = -1;
  char f32_path[4096], trained[4096];
  snprintf(f32_path, sizeof f32_path, "%s.in-f32.tmp", o->out);
  snprintf(trained, sizeof trained, "%s.trained.tmp", o->out);
  const char *start = o->model;
  gasp_train_model m = {0};
  uint32_t *tokens = NULL;
  long(*samples)[2] = NULL;
  long ntok = 0, ns = 0;
  struct llama_model *model = NULL;
  struct llama_context *ctx = NULL;
  ggml_opt_dataset_t ds = NULL;
  ggml_opt_result_t rtrain = NULL, reval = NULL;
  FILE *csv = NULL;
  int orig_ctx = 0;

  /* the trainer only trains f32 tensors: convert a quantized or f16 model first */
  if (gasp_train_dump(o->model, &m, err, cap)) return -1;
  orig_ctx = m.cfg.n_ctx_train;
  int all = gasp_gguf_all_f32(o->model);
  if (all != 1) {
    if (gasp_train_export(&m, f32_path, GASP_EXPORT_F32, NULL, err, cap)) goto out;
    start = f32_path;
  }
  gasp_train_model_free(&m);

  llama_log_set(quiet_log, NULL);
  llama_backend_init();
  struct llama_model_params mp = llama_model_default_params();
  mp.load_mode = LLAMA_LOAD_MODE_NONE; /* writable weights: the optimizer updates them in place */
  model = llama_model_load_from_file(start, mp);
  if (!model) {
    snprintf(err, cap, "llama.cpp could not load '%s'", start);
    goto out;
  }
  int n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(model));
  if (load_data(o->data_dir, n_vocab, &tokens, &ntok, &samples, &ns, err, cap)) goto out;

  /* the samples in a seeded order, packed back to back, cut into windows of n_ctx (+1 for the labels) */
  uint64_t s = o->seed;
  for (long i = ns - 1; i > 0; i--) {
    long j = (long)(rnd(&s) % (uint64_t)(i + 1));
    long t0 = samples[i][0], t1 = samples[i][1];
    samples[i][0] = samples[j][0], samples[i][1] = samples[j][1];
    samples[j][0] = t0, samples[j][1] = t1;
  }
  uint32_t *stream = malloc((size_t)(ntok ? ntok : 1) * sizeof *stream);
  long at = 0;
  for (long i = 0; i < ns; i++)
    for (long k = 0; k < samples[i][1]; k++) stream[at++] = tokens[samples[i][0] + k];
  struct llama_context_params cp = llama_context_default_params();
  cp.n_ctx = (uint32_t)n_ctx;
  cp.n_batch = cp.n_ubatch = (uint32_t)n_ctx;
  cp.n_seq_max = 1;
  cp.type_k = cp.type_v = GGML_TYPE_F32; /* OUT_PROD has no f16 backward (finetune.cpp forces the same) */
  cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
  cp.n_threads = cp.n_threads_batch = o->threads > 0 ? o->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
  cp.no_perf = true;
  ctx = llama_init_from_model(model, cp);
  if (!ctx) {
    snprintf(err, cap, "llama.cpp could not create a training context of %d tokens", n_ctx);
    free(stream);
    goto out;
  }
  /* llama.cpp may round the context up (to 256): the windows and batches are then what the context holds,
   * and the trainer asserts that the context is a whole number of batches */
  if ((int)llama_n_ctx(ctx) != n_ctx) {
    n_ctx = (int)llama_n_ctx(ctx);
    llama_free(ctx);
    cp.n_ctx = cp.n_batch = cp.n_ubatch = (uint32_t)n_ctx;
    ctx = llama_init_from_model(model, cp);
    if (!ctx || (int)llama_n_ctx(ctx) != n_ctx) {
      snprintf(err, cap, "llama.cpp could not create a training context of %d tokens", n_ctx);
      free(stream);
      goto out;
    }
  }
  long windows = at > 0 ? (at - 1) / n_ctx : 0;
  if (windows < 1) {
    free(stream);
    snprintf(err, cap, "%ld tokens of samples: at least %d are needed for one window of --ctx %d", at, n_ctx + 1, n_ctx);
    goto out;
  }
  ds = ggml_opt_dataset_init(GGML_TYPE_I32, GGML_TYPE_I32, n_ctx, n_ctx, windows, 1);
  int32_t *data = (int32_t *)ggml_opt_dataset_data(ds)->data, *labels = (int32_t *)ggml_opt_dataset_labels(ds)->data;
  for (long w = 0; w < windows; w++)
    for (int k = 0; k < n_ctx; k++) {
      data[w * n_ctx + k] = (int32_t)stream[w * n_ctx + k];
      labels[w * n_ctx + k] = (int32_t)stream[w * n_ctx + k + 1];
    }
  free(stream);
  r->windows = windows;
  r->n_ctx = n_ctx;
  r->tokens = windows * n_ctx;

  /* the layers that train: see finetune.h (the pinned llama.cpp's node budget) */
  int n_layer = llama_model_n_layer(model), want = o->layers_trained > 0 ? o->layers_trained : GASP_FINETUNE_MAX_LAYERS;
  if (want > n_layer) want = n_layer;
  int from = n_layer - want;
  r->layers_trained = want;
  r->n_layer = n_layer;
  struct llama_opt_params lp = {(uint32_t)n_ctx, top_layers, &from, opt_pars, &lr,
                                GGML_OPT_OPTIMIZER_TYPE_ADAMW};
  llama_opt_init(ctx, model, lp);
  rtrain = ggml_opt_result_init();
  reval = ggml_opt_result_init();
  if (o->loss_csv) {
    csv = fopen(o->loss_csv, "w");
    if (!csv) {
      snprintf(err, cap, "cannot write '%s': %s", o->loss_csv, strerror(errno));
      goto out;
    }
    fprintf(csv, "epoch,phase,loss,windows,tokens,lr\n");
  }
  /* idata_split 0: every window evaluated, none trained */
  llama_opt_epoch(ctx, ds, rtrain, reval, 0, NULL, NULL);
  r->loss_before = result_loss(reval);
  ggml_opt_result_reset(reval);
  if (csv) fprintf(csv, "0,eval,%.6f,%ld,%ld,%g\n", r->loss_before, windows, r->tokens, lr);
  char line[256];
  snprintf(line, sizeof line, "before: loss %.4f over %ld windows of %d tokens; the top %d of %d layers train",
           r->loss_before, windows, n_ctx, want, n_layer);
  if (o->progress) o->progress(line);
  for (int e = 0; e < epochs; e++) {
    llama_opt_epoch(ctx, ds, rtrain, reval, windows, NULL, NULL);
    r->epoch_loss[e] = result_loss(rtrain);
    r->epochs = e + 1;
    ggml_opt_result_reset(rtrain);
    if (csv) fprintf(csv, "%d,train,%.6f,%ld,%ld,%g\n", e + 1, r->epoch_loss[e], windows, r->tokens, lr);
    snprintf(line, sizeof line, "epoch %d/%d: training loss %.4f", e + 1, epochs, r->epoch_loss[e]);
    if (o->progress) o->progress(line);
  }
  llama_opt_epoch(ctx, ds, rtrain, reval, 0, NULL, NULL);
  r->loss_after = result_loss(reval);
  if (csv) fprintf(csv, "%d,eval,%.6f,%ld,%ld,%g\n", epochs, r->loss_after, windows, r->tokens, lr);
  snprintf(line, sizeof line, "after: loss %.4f", r->loss_after);
  if (o->progress) o->progress(line);

  /* llama_opt_init set the model's training context to the window: write it, then restore the original
   * context length through dump + export (the weights pass through unchanged, f32) */
  llama_model_save_to_file(model, trained);
  if (gasp_train_dump(trained, &m, err, cap)) goto out;
  m.cfg.n_ctx_train = orig_ctx;
  if (gasp_train_export(&m, o->out, GASP_EXPORT_F32, "gasp fine-tuned llama", err, cap)) goto out;
  rc = 0;
out:
  if (csv && fclose(csv) && !rc) {
    snprintf(err, cap, "cannot write '%s'", o->loss_csv);
    rc = -1;
  }
  if (rtrain) ggml_opt_result_free(rtrain);
  if (reval) ggml_opt_result_free(reval);
  if (ds) ggml_opt_dataset_free(ds);
  if (ctx) llama_free(ctx);
  if (model) llama_model_free(model);
  gasp_train_model_free(&m);
  free(tokens);
  free(samples);
  unlink(f32_path);
  unlink(trained);
  return rc;
}
