/* gasp mkmodel: a random-weight GGUF model with a real tokenizer, for tests and speed runs. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#ifdef GASP_HAVE_LLAMA
#include "../llm/mkmodel.h"
#endif

int cmd_mkmodel(int argc, char **argv) {
  const char *out = NULL, *arch = "llama", *size = "tiny", *vocab = NULL;
  int n_embd = 0, n_layer = 0, n_head = 0, n_head_kv = 0, n_ff = 0, f16 = 0, seed = 1;
  gasp_opt opts[] = {
      {"output", 'o', OPT_STR, "OUT.gguf", "where to write the model (required)", &out},
      {"arch", 0, OPT_STR, "A", "llama (default) or qwen2 (the source article's model family)", &arch},
      {"size", 0, OPT_STR, "S", "preset: tiny (64 wide, 2 layers; default) or 100m (768 wide, 12 layers, f16)", &size},
      {"vocab", 0, OPT_STR, "V.gguf", "vocab-only GGUF to take the tokenizer from (default: the pinned llama.cpp's "
                                      "models/ggml-vocab-llama-spm.gguf, or -qwen2.gguf for --arch qwen2)", &vocab},
      {"embd", 0, OPT_INT, "N", "override the preset's embedding width", &n_embd},
      {"layers", 0, OPT_INT, "N", "override the preset's layer count", &n_layer},
      {"heads", 0, OPT_INT, "N", "override the preset's attention heads", &n_head},
      {"kv-heads", 0, OPT_INT, "N", "override the preset's key/value heads", &n_head_kv},
      {"ff", 0, OPT_INT, "N", "override the preset's feed-forward width", &n_ff},
      {"f16", 0, OPT_FLAG, NULL, "store matrices as f16", &f16},
      {"seed", 0, OPT_INT, "S", "seed of the random weights (default 1)", &seed},
      {0}};
  gasp_cmd_spec spec = {"mkmodel", "-o OUT.gguf [--arch llama|qwen2] [--size tiny|100m] [--vocab V.gguf]",
                        "Write a model with random weights and a real tokenizer (llama.cpp's vocab-only files), to "
                        "drive the llama backend end to end where no model weights can be downloaded.",
                        "These models prove plumbing and speed only: their answers are noise (grammar-shaped noise "
                        "with --grammar on). The same seed gives the same file on every machine.",
                        opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 0);
  if (rc) return rc < 0 ? 0 : rc;
#ifndef GASP_HAVE_LLAMA
  (void)out, (void)arch, (void)size, (void)vocab, (void)n_embd, (void)n_layer, (void)n_head, (void)n_head_kv;
  (void)n_ff, (void)f16, (void)seed;
  gasp_cli_error("mkmodel", "this gasp was built without llama.cpp (run tools/llama-build.sh, then rebuild)");
  return GASP_EXIT_ENV;
#else
  if (!out) {
    gasp_cli_error("mkmodel", "-o OUT.gguf is required");
    return GASP_EXIT_USAGE;
  }
  gasp_mkmodel_opts o = {.arch = arch};
  if (gasp_mkmodel_preset(size, &o)) {
    gasp_cli_error("mkmodel", "unknown --size '%s' (tiny or 100m)", size);
    return GASP_EXIT_USAGE;
  }
  o.vocab = vocab;
  o.seed = (uint64_t)seed;
  if (n_embd) o.n_embd = n_embd;
  if (n_layer) o.n_layer = n_layer;
  if (n_head) o.n_head = n_head, o.n_head_kv = n_head;
  if (n_head_kv) o.n_head_kv = n_head_kv;
  if (n_ff) o.n_ff = n_ff;
  if (f16) o.f16 = 1;
  uint64_t params = 0;
  char err[512];
  if (gasp_mkmodel_write(&o, out, &params, err, sizeof err)) {
    gasp_cli_error("mkmodel", "%s", err);
    return strstr(err, "bad shape") || strstr(err, "unknown arch") ? GASP_EXIT_USAGE : GASP_EXIT_ENV;
  }
  printf("wrote %s: %s, %.2fM parameters (%d x %d layers, %d heads, %d kv heads, ff %d, %s)\n", out, o.arch,
         params / 1e6, o.n_embd, o.n_layer, o.n_head, o.n_head_kv, o.n_ff, o.f16 ? "f16" : "f32");
  return 0;
#endif
}
