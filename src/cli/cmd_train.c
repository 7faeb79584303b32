/* gasp train: the C side of training. prepare (pairs -> tokens), export (trainer weights -> GGUF), dump
 * (GGUF -> trainer weights), finetune (llama.cpp's own training API). The PyTorch trainer that sits between
 * prepare and export runs on the GPU machine (tools/train/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#ifdef GASP_HAVE_LLAMA
#include "../train/finetune.h"
#include "../train/gguf_io.h"
#include "../train/prepare.h"
#include "../train/weights.h"
#endif

#ifdef GASP_HAVE_LLAMA
static void print_notice(const char *m) { fprintf(stderr, "gasp train prepare: %s\n", m); }

static int train_prepare(int argc, char **argv) {
  const char *vocab = NULL, *out = NULL, *targets = NULL;
  int max_tokens = 4096, quiet = 0, no_cache = 0;
  gasp_opt opts[] = {
      {"vocab", 0, OPT_STR, "V", "vocabulary: llama-spm, qwen2 (the pinned llama.cpp's vocab files) or a GGUF path "
                                 "(required)", &vocab},
      {"output", 'o', OPT_STR, "DIR", "where to write tokens.u32, mask.u8 and index.json (required)", &out},
      {"max-tokens", 0, OPT_INT, "N", "drop samples longer than N tokens (default 4096)", &max_tokens},
      {"targets", 0, OPT_STR, "LIST", "keep only pairs whose \"target\" is in this comma list", &targets},
      {"quiet", 'q', OPT_FLAG, NULL, "do not list dropped samples on stderr", &quiet},
      {"no-line-cache", 0, OPT_FLAG, NULL, "tokenize every text whole instead of line by line through a cache of the "
                                           "lines seen (the same tokens; slower)", &no_cache},
      {0}};
  gasp_cmd_spec spec = {
      "train prepare", "--vocab V PAIRS.jsonl... -o DIR [--max-tokens N] [--targets LIST]",
      "Tokenize (prompt, completion) pairs for training: each sample is the prompt's tokens exactly as the llama "
      "backend feeds them in raw mode (BOS, no special-token parsing), the completion's tokens, then EOS.",
      "tokens.u32: little-endian u32 token ids of all samples back to back; mask.u8: one byte per token, 1 where it is "
      "learned (the completion and EOS), 0 for the prompt; index.json: vocab, n_vocab, bos, eos, samples "
      "[[offset, length], ...], per-target counts, tokens, dropped counts.\n"
      "The completion is never tokenized alone (SentencePiece adds a space prefix): the prompt and prompt+completion "
      "are tokenized, the split is checked by detokenizing, and a pair whose completion does not come back byte for "
      "byte is dropped and counted.",
      opts};
  const char *pos[256];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 256);
  if (rc) return rc < 0 ? 0 : rc;
  if (!vocab || !out || !npos) {
    gasp_cli_error("train prepare", "--vocab V, -o DIR and at least one PAIRS.jsonl are required");
    return GASP_EXIT_USAGE;
  }
  if (max_tokens < 2) {
    gasp_cli_error("train prepare", "--max-tokens must be at least 2");
    return GASP_EXIT_USAGE;
  }
  gasp_prepare_opts o = {vocab, pos, npos, out, max_tokens, targets, quiet ? NULL : print_notice, no_cache};
  gasp_prepare_stats st;
  char err[1024];
  if (gasp_train_prepare(&o, &st, err, sizeof err)) {
    gasp_cli_error("train prepare", "%s", err);
    return GASP_EXIT_ENV;
  }
  printf("%-16s %8s %10s %12s\n", "target", "samples", "tokens", "completion");
  for (int i = 0; i < st.nt; i++)
    printf("%-16s %8ld %10ld %12ld\n", st.t[i].name, st.t[i].samples, st.t[i].tokens, st.t[i].completion_tokens);
  printf("%-16s %8ld %10ld\n", "all", st.kept, st.tokens);
  printf("read %ld pairs; dropped: %ld too long, %ld without a split, %ld not detokenizing back, %ld malformed; "
         "%ld filtered out by --targets\n",
         st.lines, st.too_long, st.no_split, st.detok_mismatch, st.bad_json, st.filtered);
  printf("vocab %s: %d tokens, bos %d, eos %d -> %s\n", vocab, st.n_vocab, st.bos, st.eos, out);
  if (st.line_hits + st.line_misses)
    printf("line cache: %ld of %ld lines found tokenized\n", st.line_hits, st.line_hits + st.line_misses);
  else if (!no_cache)
    printf("line cache: off (not a SentencePiece vocabulary, or a piece of it holds a newline)\n");
  return st.kept ? 0 : GASP_EXIT_FAIL;
}

static int train_export(int argc, char **argv) {
  const char *out = NULL, *type = "q8_0", *name = NULL;
  gasp_opt opts[] = {
      {"output", 'o', OPT_STR, "M.gguf", "the model to write (required)", &out},
      {"type", 0, OPT_STR, "T", "f32, f16 or q8_0 (default q8_0, through llama.cpp's llama_model_quantize)", &type},
      {"name", 0, OPT_STR, "NAME", "general.name of the model (default \"gasp trained llama\")", &name},
      {0}};
  gasp_cmd_spec spec = {"train export", "DIR -o M.gguf [--type f32|f16|q8_0]",
                        "Write the trainer's weights (DIR/config.json, DIR/weights.bin) as a llama-architecture GGUF "
                        "with the vocabulary's real tokenizer.",
                        "weights.bin: \"GASPW001\", u32 tensor count, then per tensor u32 name length, name, u32 n_dims, "
                        "u64 dims (PyTorch order), u32 dtype (0 = f32), little-endian f32 data. Every size is checked "
                        "against the file and the config.",
                        opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 1);
  if (rc) return rc < 0 ? 0 : rc;
  gasp_export_type t;
  if (!out || npos != 1) {
    gasp_cli_error("train export", "DIR and -o M.gguf are required");
    return GASP_EXIT_USAGE;
  }
  if (gasp_export_type_parse(type, &t)) {
    gasp_cli_error("train export", "unknown --type '%s' (f32, f16 or q8_0)", type);
    return GASP_EXIT_USAGE;
  }
  gasp_train_model m;
  char err[1024];
  if (gasp_train_model_read(pos[0], &m, err, sizeof err) || gasp_train_export(&m, out, t, name, err, sizeof err)) {
    gasp_cli_error("train export", "%s", err);
    gasp_train_model_free(&m);
    return GASP_EXIT_ENV;
  }
  printf("wrote %s: llama, %d x %d layers, vocab %s (%d), %s\n", out, m.cfg.n_embd, m.cfg.n_layer, m.cfg.vocab,
         m.cfg.n_vocab, type);
  gasp_train_model_free(&m);
  return 0;
}

static int train_dump(int argc, char **argv) {
  const char *out = NULL;
  gasp_opt opts[] = {{"output", 'o', OPT_STR, "DIR", "where to write config.json and weights.bin (required)", &out},
                     {0}};
  gasp_cmd_spec spec = {"train dump", "M.gguf -o DIR",
                        "Write a llama-architecture GGUF's weights as config.json + weights.bin in f32 (quantized "
                        "tensors dequantized by ggml), for the trainer to start from.",
                        NULL, opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 1);
  if (rc) return rc < 0 ? 0 : rc;
  if (!out || npos != 1) {
    gasp_cli_error("train dump", "M.gguf and -o DIR are required");
    return GASP_EXIT_USAGE;
  }
  gasp_train_model m;
  char err[1024];
  if (gasp_train_dump(pos[0], &m, err, sizeof err) || gasp_train_model_write(out, &m, err, sizeof err)) {
    gasp_cli_error("train dump", "%s", err);
    gasp_train_model_free(&m);
    return GASP_EXIT_ENV;
  }
  printf("wrote %s: %d tensors, %d x %d layers, vocab %s (%d)%s\n", out, m.n, m.cfg.n_embd, m.cfg.n_layer,
         m.cfg.vocab, m.cfg.n_vocab, m.cfg.tied_embeddings ? ", tied embeddings" : "");
  gasp_train_model_free(&m);
  return 0;
}
static void print_progress(const char *m) { fprintf(stderr, "gasp train finetune: %s\n", m); }

static int train_finetune(int argc, char **argv) {
  const char *model = NULL, *data = NULL, *out = NULL;
  int epochs = 1, n_ctx = 256, seed = 1, threads = 0, layers = 0;
  double lr = 1e-4;
  gasp_opt opts[] = {
      {"model", 'm', OPT_STR, "M.gguf", "the model to start from, llama architecture (required)", &model},
      {"data", 0, OPT_STR, "DIR", "'gasp train prepare' output (required)", &data},
      {"output", 'o', OPT_STR, "M2.gguf", "the fine-tuned model, f32 (required); the loss goes to M2.loss.csv", &out},
      {"epochs", 0, OPT_INT, "E", "passes over the data (default 1)", &epochs},
      {"lr", 0, OPT_DOUBLE, "X", "AdamW learning rate (default 1e-4)", &lr},
      {"ctx", 0, OPT_INT, "N", "training window in tokens (default 256)", &n_ctx},
      {"seed", 0, OPT_INT, "S", "order of the samples before packing (default 1)", &seed},
      {"threads", 0, OPT_INT, "N", "CPU threads (default: all cores)", &threads},
      {"layers", 0, OPT_INT, "N", "train the top N transformer layers (default and most: 7; llama.cpp's training graph "
                                  "of more aborts)", &layers},
      {0}};
  gasp_cmd_spec spec = {
      "train finetune", "--model M.gguf --data DIR -o M2.gguf [--epochs E] [--lr X] [--ctx N] [--seed S] [--layers N]",
      "Fine-tune a GGUF model on prepared tokens with llama.cpp's own training API (llama_opt_init, llama_opt_epoch).",
      "The loss is printed before training, after each epoch and after training (stderr), and written to M2.loss.csv "
      "(epoch, phase, loss, windows, tokens, lr).\n"
      "Limits of llama.cpp's API: the loss covers every token (it takes no mask, so prompts are learned too; the "
      "PyTorch trainer in tools/train uses mask.u8); only f32 tensors train, and never token_embd.weight; samples "
      "are packed and cut into windows of --ctx tokens. A f16 or q8_0 model is converted to f32 first; the output "
      "is f32 (re-quantize with 'gasp train dump' + 'gasp train export --type q8_0').",
      opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 0);
  if (rc) return rc < 0 ? 0 : rc;
  if (!model || !data || !out) {
    gasp_cli_error("train finetune", "--model M.gguf, --data DIR and -o M2.gguf are required");
    return GASP_EXIT_USAGE;
  }
  if (epochs < 1 || epochs > GASP_FINETUNE_MAX_EPOCHS || n_ctx < 8 || n_ctx > 65536 || !(lr > 0)) {
    gasp_cli_error("train finetune", "--epochs must be 1..%d, --ctx 8..65536, --lr positive", GASP_FINETUNE_MAX_EPOCHS);
    return GASP_EXIT_USAGE;
  }
  char csv[4096];
  size_t n = strlen(out);
  if (n > 5 && !strcmp(out + n - 5, ".gguf")) snprintf(csv, sizeof csv, "%.*s.loss.csv", (int)(n - 5), out);
  else snprintf(csv, sizeof csv, "%s.loss.csv", out);
  gasp_finetune_opts o = {model, data, out, csv, epochs, lr, n_ctx, (uint64_t)seed, threads, print_progress, layers};
  gasp_finetune_result r;
  char err[1024];
  if (gasp_train_finetune(&o, &r, err, sizeof err)) {
    gasp_cli_error("train finetune", "%s", err);
    return GASP_EXIT_ENV;
  }
  printf("wrote %s: loss %.4f -> %.4f after %d epoch(s) over %ld windows of %d tokens; loss log %s\n", out,
         r.loss_before, r.loss_after, r.epochs, r.windows, r.n_ctx, csv);
  return 0;
}
#endif

int cmd_train(int argc, char **argv) {
  static const char *help =
      "usage: gasp train <prepare|export|dump|finetune> [options]\n\n"
      "The C side of training a model for gasp.\n\n"
      "  prepare   tokenize (prompt, completion) pairs: tokens.u32, mask.u8, index.json\n"
      "  export    trainer weights (config.json, weights.bin) -> llama GGUF (f32, f16, q8_0)\n"
      "  dump      llama GGUF -> trainer weights in f32\n"
      "  finetune  fine-tune a GGUF on prepared tokens with llama.cpp's own training API\n\n"
      "'gasp train <sub> --help' describes each.\n";
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    fputs(help, argc < 2 ? stderr : stdout);
    return argc < 2 ? GASP_EXIT_USAGE : 0;
  }
#ifndef GASP_HAVE_LLAMA
  gasp_cli_error("train", "this gasp was built without llama.cpp (run tools/llama-build.sh, then rebuild)");
  return GASP_EXIT_ENV;
#else
  if (!strcmp(argv[1], "prepare")) return train_prepare(argc - 1, argv + 1);
  if (!strcmp(argv[1], "export")) return train_export(argc - 1, argv + 1);
  if (!strcmp(argv[1], "dump")) return train_dump(argc - 1, argv + 1);
  if (!strcmp(argv[1], "finetune")) return train_finetune(argc - 1, argv + 1);
  gasp_cli_error("train", "unknown subcommand '%s' (prepare, export, dump, finetune)", argv[1]);
  return GASP_EXIT_USAGE;
#endif
}
