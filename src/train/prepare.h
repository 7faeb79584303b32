/* `gasp train prepare`: (prompt, completion) pairs in JSONL -> the token stream a trainer learns from.
 * Each sample is exactly what the llama backend feeds for the prompt in raw mode (src/llm/llama.c: BOS added,
 * special tokens not parsed), then the tokens that detokenize to the completion, then EOS. The completion is
 * never tokenized alone (SentencePiece would add a space prefix): the prompt and prompt+completion are
 * tokenized, and the completion's tokens are the joint tokens past the prompt, verified by detokenizing them
 * the way the backend renders generated tokens (llama_token_to_piece, special tokens unrendered).
 * Texts are tokenized line by line through a cache of the lines seen, where the vocabulary allows it (SentencePiece,
 * no piece holding a newline): the same tokens as whole texts, 9-13 times faster on the training pairs, whose
 * prompts repeat the same facts (tools/train/bench-prepare.sh). */
#ifndef GASP_TRAIN_PREPARE_H
#define GASP_TRAIN_PREPARE_H

#include <stddef.h>

#define GASP_PREPARE_MAX_TARGETS 64

typedef struct {
  const char *vocab;               /* a vocab name (llama-spm, qwen2) or a GGUF path */
  const char *const *inputs;       /* JSONL files */
  int n_inputs;
  const char *out_dir;
  int max_tokens;                  /* longer samples are dropped (0: 4096) */
  const char *targets;             /* comma list of targets to keep, or NULL for all */
  void (*notice)(const char *msg); /* a line per dropped sample (may be NULL) */
  int no_line_cache;               /* tokenize every text whole (the line cache gives the same tokens, faster) */
} gasp_prepare_opts;

typedef struct {
  char name[32];
  long samples, tokens, completion_tokens;
} gasp_prepare_target;

typedef struct {
  long lines, kept, tokens;
  long bad_json;        /* not an object with string prompt and completion */
  long filtered;        /* target not in --targets */
  long too_long;        /* past max_tokens */
  long no_split;        /* no split of the joint tokens detokenizes to the completion */
  long detok_mismatch;  /* the completion's tokens do not detokenize to the completion byte for byte */
  long line_hits, line_misses; /* the line cache's lookups (both 0 when it is off or the vocabulary rules it out) */
  int n_vocab, bos, eos;
  gasp_prepare_target t[GASP_PREPARE_MAX_TARGETS];
  int nt;
} gasp_prepare_stats;

/* Writes out_dir/tokens.u32, mask.u8 and index.json. Returns 0, or -1 with the reason in err. */
int gasp_train_prepare(const gasp_prepare_opts *o, gasp_prepare_stats *st, char *err, size_t cap);

#endif
