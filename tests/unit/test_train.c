/* gasp train (issue 9): the weights interchange (config.json + weights.bin, every size checked), export and
 * dump against llama.cpp itself (mkmodel -> dump -> export f32 gives bit-identical logits and greedy output;
 * f16 and q8_0 load, generate and stay close), prepare's token stream, and finetune lowering the loss. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/util.h"
#include "llama.h"
#include "llm/mkmodel.h"
#include "train/finetune.h"
#include "train/gguf_io.h"
#include "train/prepare.h"
#include "train/weights.h"

static char dir[2048];
static const char *P(const char *name) {
  static char b[8][4096];
  static int k;
  k = (k + 1) % 8;
  snprintf(b[k], sizeof b[k], "%s/%s", dir, name);
  return b[k];
}

static void quiet(enum ggml_log_level l, const char *t, void *u) { (void)l, (void)t, (void)u; }

/* greedy tokens and the logits of every step, for a fixed prompt */
static int run_model(const char *path, int steps, llama_token *out, float **logits, int *nv) {
  struct llama_model_params mp = llama_model_default_params();
  struct llama_model *m = llama_model_load_from_file(path, mp);
  if (!m) return -1;
  const struct llama_vocab *v = llama_model_get_vocab(m);
  *nv = llama_vocab_n_tokens(v);
  struct llama_context_params cp = llama_context_default_params();
  cp.n_ctx = 256, cp.n_batch = 256, cp.n_threads = cp.n_threads_batch = 2;
  struct llama_context *c = llama_init_from_model(m, cp);
  const char *prompt = "Write a PTX kernel that adds two vectors.\n```\n.version";
  llama_token toks[128];
  int n = llama_tokenize(v, prompt, (int)strlen(prompt), toks, 128, true, false);
  *logits = malloc((size_t)steps * (size_t)*nv * sizeof(float));
  struct llama_batch b = llama_batch_get_one(toks, n);
  int rc = 0;
  for (int s = 0; s < steps && !rc; s++) {
    if (llama_decode(c, b)) { rc = -1; break; }
    const float *lg = llama_get_logits_ith(c, -1);
    memcpy(*logits + (size_t)s * *nv, lg, (size_t)*nv * sizeof(float));
    int best = 0;
    for (int i = 1; i < *nv; i++) best = lg[i] > lg[best] ? i : best;
    out[s] = best;
    b = llama_batch_get_one(&out[s], 1);
  }
  llama_free(c);
  llama_model_free(m);
  return rc;
}

static void test_roundtrip(void) {
  gasp_mkmodel_opts o = {.arch = "llama"};
  gasp_mkmodel_preset("tiny", &o);
  char err[1024];
  CHECK(gasp_mkmodel_write(&o, P("tiny.gguf"), NULL, err, sizeof err) == 0, "%s", err);
  gasp_train_model m, m2;
  CHECK(gasp_train_dump(P("tiny.gguf"), &m, err, sizeof err) == 0, "%s", err);
  CHECK(!strcmp(m.cfg.vocab, "llama-spm") && m.cfg.n_vocab == 32000 && m.cfg.n_layer == 2 && m.cfg.n_head_kv == 2 &&
            !m.cfg.tied_embeddings && m.cfg.n_ctx_train == 8192,
        "config %s %d", m.cfg.vocab, m.cfg.n_vocab);
  gasp_train_tensor *k = gasp_train_model_find(&m, "blk.0.attn_k.weight");
  CHECK(k && k->n_dims == 2 && k->dims[0] == 32 && k->dims[1] == 64, "attn_k is [out 32, in 64] in PyTorch order");
  CHECK(gasp_train_model_write(P("w"), &m, err, sizeof err) == 0, "%s", err);
  CHECK(gasp_train_model_read(P("w"), &m2, err, sizeof err) == 0, "%s", err);
  int same = m.n == m2.n;
  for (int i = 0; same && i < m.n; i++) {
    gasp_train_tensor *t = gasp_train_model_find(&m2, m.t[i].name);
    int64_t n = 1;
    for (int d = 0; d < m.t[i].n_dims; d++) n *= m.t[i].dims[d];
    same = t && !memcmp(t->data, m.t[i].data, (size_t)n * 4);
  }
  CHECK(same, "weights.bin round trip");
  CHECK(gasp_train_export(&m2, P("e32.gguf"), GASP_EXPORT_F32, NULL, err, sizeof err) == 0, "%s", err);
  CHECK(gasp_train_export(&m2, P("e16.gguf"), GASP_EXPORT_F16, NULL, err, sizeof err) == 0, "%s", err);
  CHECK(gasp_train_export(&m2, P("eq8.gguf"), GASP_EXPORT_Q8_0, NULL, err, sizeof err) == 0, "%s", err);
  CHECK(gasp_gguf_all_f32(P("e32.gguf")) == 1 && gasp_gguf_all_f32(P("eq8.gguf")) == 0, "types");

  enum { STEPS = 12 };
  llama_token g0[STEPS], g1[STEPS], g2[STEPS], g3[STEPS];
  float *l0, *l1, *l2, *l3;
  int nv;
  CHECK(run_model(P("tiny.gguf"), STEPS, g0, &l0, &nv) == 0, "mkmodel's model runs");
  CHECK(run_model(P("e32.gguf"), STEPS, g1, &l1, &nv) == 0, "exported f32 runs");
  CHECK(!memcmp(g0, g1, sizeof g0), "same greedy output");
  CHECK(!memcmp(l0, l1, (size_t)STEPS * nv * sizeof(float)), "bit-identical logits at every step");
  CHECK(run_model(P("e16.gguf"), STEPS, g2, &l2, &nv) == 0, "f16 export loads and generates");
  CHECK(run_model(P("eq8.gguf"), STEPS, g3, &l3, &nv) == 0, "q8_0 export loads and generates");
  /* first step only (later steps follow their own greedy tokens): the quantized logits stay close */
  double mx = 0, d16 = 0, d8 = 0;
  for (int i = 0; i < nv; i++) {
    mx = fmax(mx, fabs(l0[i]));
    d16 = fmax(d16, fabs(l2[i] - l0[i]));
    d8 = fmax(d8, fabs(l3[i] - l0[i]));
  }
  printf("logits: max |f32| %.4f, max |f16 - f32| %.2e, max |q8_0 - f32| %.2e\n", mx, d16, d8);
  CHECK(mx > 0 && d16 < 0.01 * mx && d8 < 0.1 * mx && d16 > 0, "quantized logits close (f16 %g, q8_0 %g of %g)", d16, d8, mx);
  free(l0), free(l1), free(l2), free(l3);

  /* a dump of the q8_0 model is its dequantized weights: close to the original */
  gasp_train_model mq;
  CHECK(gasp_train_dump(P("eq8.gguf"), &mq, err, sizeof err) == 0, "%s", err);
  gasp_train_tensor *a = gasp_train_model_find(&m, "blk.1.ffn_down.weight"), *b = gasp_train_model_find(&mq, "blk.1.ffn_down.weight");
  double dm = 0;
  for (int i = 0; a && b && i < 64 * 128; i++) dm = fmax(dm, fabs(a->data[i] - b->data[i]));
  CHECK(a && b && dm > 0 && dm < 0.002, "q8_0 dequantized within a step (%g)", dm);
  gasp_train_model_free(&mq);
  gasp_train_model_free(&m2);
  gasp_train_model_free(&m);
}

/* every malformed weights file is refused with a reason, never a crash or a huge allocation */
static void test_corrupt(void) {
  char *orig;
  size_t len;
  char err[1024];
  CHECK(gasp_read_file(P("w/weights.bin"), 1 << 26, &orig, &len) == 0, "read weights");
  if (!orig) return;
  struct {
    const char *what;
    size_t at;      /* byte to overwrite, or SIZE_MAX: truncate to `len2` */
    const char *bytes;
    size_t n, len2;
  } cases[] = {
      {"magic", 0, "GASPW002", 8, 0},
      {"count huge", 8, "\xff\xff\xff\x7f", 4, 0},
      {"count one more", 8, "\x16\x00\x00\x00", 4, 0},
      {"name length huge", 12, "\xff\xff\xff\x00", 4, 0},
      {"name length zero", 12, "\x00\x00\x00\x00", 4, 0},
      {"name changed", 16, "X", 1, 0},
      {"n_dims 9", 12 + 4 + 17, "\x09\x00\x00\x00", 4, 0},
      {"dim huge", 12 + 4 + 17 + 4, "\x00\x00\x00\x00\x00\x00\x01\x00", 8, 0},
      {"dim off by one", 12 + 4 + 17 + 4, "\x01\x7d\x00\x00", 4, 0},
      {"dtype 1", 12 + 4 + 17 + 4 + 16, "\x01\x00\x00\x00", 4, 0},
      {"truncated in a header", SIZE_MAX, NULL, 0, 30},
      {"truncated in data", SIZE_MAX, NULL, 0, 1000},
      {"one byte short", SIZE_MAX, NULL, 0, (size_t)-2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *buf = malloc(len + 1);
    memcpy(buf, orig, len);
    size_t n = len;
    if (cases[i].at == SIZE_MAX) n = cases[i].len2 == (size_t)-2 ? len - 1 : cases[i].len2;
    else memcpy(buf + cases[i].at, cases[i].bytes, cases[i].n);
    gasp_write_file(P("w/weights.bin"), buf, n);
    gasp_train_model m;
    err[0] = 0;
    int rc = gasp_train_model_read(P("w"), &m, err, sizeof err);
    CHECK(rc == -1 && err[0] && m.n == 0, "%s: refused (%s)", cases[i].what, err);
    free(buf);
  }
  /* one trailing byte */
  char *buf = malloc(len + 1);
  memcpy(buf, orig, len);
  buf[len] = 0;
  gasp_write_file(P("w/weights.bin"), buf, len + 1);
  gasp_train_model m;
  CHECK(gasp_train_model_read(P("w"), &m, err, sizeof err) == -1 && strstr(err, "after the last"), "trailing byte: %s", err);
  /* random byte flips in the file's first header (magic, count, the first tensor's name, dims, dtype): each
   * one is refused, none crashes */
  uint64_t s = 7;
  int refused = 0;
  for (int it = 0; it < 300; it++) {
    memcpy(buf, orig, len);
    for (int k = 0; k < 3; k++) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      buf[(s >> 33) % 57] ^= (char)(1 + ((s >> 20) & 0x7f));
    }
    gasp_write_file(P("w/weights.bin"), buf, len);
    if (gasp_train_model_read(P("w"), &m, err, sizeof err)) refused++;
    else gasp_train_model_free(&m);
  }
  CHECK(refused == 300, "flipped headers refused: %d of 300", refused);
  gasp_write_file(P("w/weights.bin"), orig, len);
  /* the config must agree with the tensors */
  char *cfg;
  size_t cl;
  gasp_read_file(P("w/config.json"), 1 << 20, &cfg, &cl);
  char *x = strstr(cfg, "\"n_layer\": 2");
  CHECK(x != NULL, "config has n_layer");
  if (x) {
    x[11] = '3';
    gasp_write_file(P("w/config.json"), cfg, cl);
    CHECK(gasp_train_model_read(P("w"), &m, err, sizeof err) == -1 && strstr(err, "blk.2"), "3 layers claimed: %s", err);
    x[11] = '2';
  }
  char *t = strstr(cfg, "false");
  if (t) {
    memcpy(t, "true ", 5);
    gasp_write_file(P("w/config.json"), cfg, cl);
    CHECK(gasp_train_model_read(P("w"), &m, err, sizeof err) == -1 && strstr(err, "output.weight"), "tied but output.weight: %s", err);
    memcpy(t, "false", 5);
  }
  gasp_write_file(P("w/config.json"), cfg, cl);
  CHECK(gasp_train_model_read(P("w"), &m, err, sizeof err) == 0, "restored: %s", err);
  gasp_train_model_free(&m);
  free(cfg);
  free(buf);
  free(orig);
}

static uint32_t *read_u32(const char *path, size_t *n) {
  char *b;
  size_t len;
  if (gasp_read_file(path, 1 << 26, &b, &len)) return NULL;
  *n = len / 4;
  return (uint32_t *)b;
}

static void test_prepare(void) {
  FILE *f = fopen(P("pairs.jsonl"), "w");
  fprintf(f, "{\"task\":\"t\",\"target\":\"r300\",\"prompt\":\"Write  \",\"completion\":\" hello world\"}\n");
  fprintf(f, "not json\n\n");
  fprintf(f, "{\"task\":\"t\",\"target\":\"ptx-sm90\",\"prompt\":\"Write the kernel.\\n\",\"completion\":\"```\\nadd.f32 %%f1, %%f2;\\n```\"}\n");
  fprintf(f, "{\"task\":\"t\",\"target\":\"gfx1030\",\"prompt\":\"abc\",\"completion\":\"");
  for (int i = 0; i < 300; i++) fputs(" word", f);
  fprintf(f, "\"}\n");
  fclose(f);
  const char *in[] = {P("pairs.jsonl")};
  gasp_prepare_opts o = {"llama-spm", in, 1, P("prep"), 100, NULL, NULL};
  gasp_prepare_stats st;
  char err[1024];
  CHECK(gasp_train_prepare(&o, &st, err, sizeof err) == 0, "%s", err);
  CHECK(st.lines == 4 && st.kept == 2 && st.bad_json == 1 && st.too_long == 1 && st.bos == 1 && st.eos == 2,
        "counts: %ld lines, %ld kept, %ld bad, %ld long", st.lines, st.kept, st.bad_json, st.too_long);
  size_t n = 0, nm = 0;
  uint32_t *t = read_u32(P("prep/tokens.u32"), &n);
  char *mask;
  gasp_read_file(P("prep/mask.u8"), 1 << 26, &mask, &nm);
  CHECK(t && n == (size_t)st.tokens && nm == n, "%zu tokens, %zu mask bytes", n, nm);
  if (!t || n < 6) return;
  /* "Write  " is BOS, ▁Write, ▁▁ as llama.cpp's SentencePiece vocab has them; the completion " hello world"
   * continues with ▁hello ▁world (no extra space token), then EOS */
  uint32_t want[] = {1, 14350, 259, 22172, 3186, 2};
  CHECK(!memcmp(t, want, sizeof want), "sample 0: %u %u %u %u %u %u", t[0], t[1], t[2], t[3], t[4], t[5]);
  CHECK(!memcmp(mask, "\0\0\0\1\1\1", 6), "sample 0 mask");
  /* the second sample: its prompt part is what llama_tokenize gives the raw prompt (BOS, no special parsing) */
  struct llama_model_params mp = llama_model_default_params();
  mp.vocab_only = true;
  char vb[4096];
  struct llama_model *vm = llama_model_load_from_file(gasp_vocab_resolve("llama-spm", vb, sizeof vb), mp);
  const struct llama_vocab *v = llama_model_get_vocab(vm);
  llama_token pt[64];
  int np = llama_tokenize(v, "Write the kernel.\n", 18, pt, 64, true, false);
  int ok = np > 0 && 6 + (size_t)np < n;
  for (int i = 0; ok && i < np; i++) ok = t[6 + i] == (uint32_t)pt[i] && mask[6 + i] == 0;
  CHECK(ok, "prompt tokens as the backend's");
  char text[256];
  int k = 0;
  for (size_t i = 6 + (size_t)np; i + 1 < n; i++) {
    CHECK(mask[i] == 1, "completion masked in");
    k += llama_token_to_piece(v, (llama_token)t[i], text + k, (int)sizeof text - k, 0, false);
  }
  text[k > 0 ? k : 0] = 0;
  CHECK(!strcmp(text, "```\nadd.f32 %f1, %f2;\n```") && t[n - 1] == 2 && mask[n - 1] == 1, "completion detokenizes: '%s'", text);
  llama_model_free(vm);
  /* --targets keeps only the listed ones */
  o.targets = "ptx-sm90,gfx900";
  o.out_dir = P("prep2");
  CHECK(gasp_train_prepare(&o, &st, err, sizeof err) == 0 && st.kept == 1 && st.filtered == 2 && st.nt == 1 &&
            !strcmp(st.t[0].name, "ptx-sm90"),
        "filter: %ld kept %ld filtered", st.kept, st.filtered);
  free(t);
  free(mask);
}

static void test_finetune(void) {
  FILE *f = fopen(P("ft.jsonl"), "w");
  for (int i = 0; i < 48; i++)
    fprintf(f, "{\"target\":\"r300\",\"prompt\":\"Task %d: write a fragment program.\\n\",\"completion\":"
               "\"!!ARBfp1.0\\nTEMP r0;\\nADD result.color, fragment.color, r0;\\nEND\\n\"}\n",
            i % 4);
  fclose(f);
  const char *in[] = {P("ft.jsonl")};
  gasp_prepare_opts po = {"llama-spm", in, 1, P("ftprep"), 0, NULL, NULL};
  gasp_prepare_stats st;
  char err[1024];
  CHECK(gasp_train_prepare(&po, &st, err, sizeof err) == 0 && st.kept == 48, "%s", err);
  gasp_finetune_opts o = {P("eq8.gguf"), P("ftprep"), P("ft.gguf"), P("ft.loss.csv"), 3, 1e-3, 256, 1, 2, NULL};
  gasp_finetune_result r;
  double t0 = gasp_now_s();
  CHECK(gasp_train_finetune(&o, &r, err, sizeof err) == 0, "%s", err);
  printf("finetune (q8_0 start, converted): loss %.4f -> %.4f, epochs %.4f %.4f %.4f, %ld windows, %.1f s\n",
         r.loss_before, r.loss_after, r.epoch_loss[0], r.epoch_loss[1], r.epoch_loss[2], r.windows, gasp_now_s() - t0);
  CHECK(r.loss_after < r.loss_before - 0.5 && r.epoch_loss[2] < r.epoch_loss[0], "the training loss went down");
  gasp_train_model m;
  CHECK(gasp_train_dump(P("ft.gguf"), &m, err, sizeof err) == 0 && m.cfg.n_ctx_train == 8192, "context length kept");
  gasp_train_model_free(&m);
  char *csv;
  size_t cl;
  CHECK(gasp_read_file(P("ft.loss.csv"), 1 << 20, &csv, &cl) == 0, "loss csv");
  int lines = 0;
  for (size_t i = 0; i < cl; i++) lines += csv[i] == '\n';
  CHECK(lines == 6 && !strncmp(csv, "epoch,phase,loss", 16), "csv: %d lines", lines);
  free(csv);
  /* too little data for one window is an error, not a crash */
  o.n_ctx = 4096;
  CHECK(gasp_train_finetune(&o, &r, err, sizeof err) == -1 && strstr(err, "window"), "%s", err);
  CHECK(r.layers_trained == 0, "no layers trained when there is no window");
  /* 8 layers, as the shipped model: all 8 trained abort in llama.cpp's scheduler (its graph node budget); the top 7
   * train, and asking for 8 is an error, not an abort (finetune.h) */
  gasp_mkmodel_opts mo = {.arch = "llama"};
  gasp_mkmodel_preset("tiny", &mo);
  mo.n_layer = 8;
  CHECK(gasp_mkmodel_write(&mo, P("deep8.gguf"), NULL, err, sizeof err) == 0, "%s", err);
  gasp_finetune_opts d8 = {P("deep8.gguf"), P("ftprep"), P("ft8.gguf"), NULL, 1, 1e-3, 256, 1, 2, NULL, 0};
  CHECK(gasp_train_finetune(&d8, &r, err, sizeof err) == 0 && r.layers_trained == 7 && r.n_layer == 8 &&
            r.loss_after < r.loss_before,
        "8 layers: the top %d of %d train, loss %.4f -> %.4f (%s)", r.layers_trained, r.n_layer, r.loss_before,
        r.loss_after, err);
  d8.layers_trained = 8;
  CHECK(gasp_train_finetune(&d8, &r, err, sizeof err) == -1 && strstr(err, "at most 7 layers"), "%s", err);
}

int main(void) {
  char vb[4096];
  const char *v = gasp_vocab_resolve("llama-spm", vb, sizeof vb);
  if (!v || access(v, R_OK)) {
    printf("skipped: no llama.cpp vocabulary files\n");
    return 77;
  }
  llama_log_set(quiet, NULL);
  llama_backend_init();
  if (gasp_tmpdir(dir, sizeof dir)) return 1;
  test_roundtrip();
  llama_log_set(quiet, NULL);
  test_corrupt();
  test_prepare();
  test_finetune();
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) printf("note: could not remove %s\n", dir);
  return DONE();
}
