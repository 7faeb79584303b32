/* Grammar-constrained sampling state for the llama backend, with a cache of allowed-token masks keyed on the
 * grammar's exact state (XGrammar's adaptive token-mask cache, in spirit): our PTX grammar returns to a few
 * states again and again (line start, operand start), so the mask over the whole vocabulary, the cost of
 * decoding under a grammar, is computed once per state instead of once per token. Implemented in C++
 * (grammar_cache.cpp) because the state lives in llama.cpp's internal C++ types; this interface is C. */
#ifndef GASP_GRAMMAR_CACHE_H
#define GASP_GRAMMAR_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "llama.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One compiled grammar and the masks computed for its states. Shared by every sequence decoded under that
 * grammar; its functions may be called from several threads at once. */
typedef struct gasp_gcache gasp_gcache;
/* One sequence's position in the grammar (llama.cpp's llama_grammar, owned). One thread at a time, except
 * gasp_gstate_apply, which only reads the state and may run on disjoint slices in parallel. */
typedef struct gasp_gstate gasp_gstate;

typedef struct {
  long hits, misses;      /* gasp_gcache_get answers; misses include uncacheable states */
  long entries;           /* masks held now */
  size_t bytes;           /* their memory, keys and bitsets, as counted against the bound */
} gasp_gcache_counts;

/* Compiles `gbnf` (start rule `root`) for `vocab`, which must outlive the cache. max_bytes bounds the masks
 * kept (least recently used dropped first); 0 keeps none (every get misses). Returns NULL when the grammar
 * does not compile (llama.cpp logs why). */
gasp_gcache *gasp_gcache_new(const struct llama_vocab *vocab, const char *gbnf, const char *root, size_t max_bytes);
/* Frees the cache; every state made from it must be freed first. */
void gasp_gcache_free(gasp_gcache *c);
int gasp_gcache_n_vocab(const gasp_gcache *c);
/* 64-bit words in a mask: bit (t % 64) of word (t / 64) is set when token t is allowed. */
size_t gasp_gcache_mask_words(const gasp_gcache *c);
/* When g's state has a mask in the cache, copies it into bits (gasp_gcache_mask_words words) and returns 1;
 * returns 0 otherwise. */
int gasp_gcache_get(gasp_gcache *c, gasp_gstate *g, uint64_t *bits);
/* Records the mask of g's current state from the result of gasp_gstate_apply on `cand`: cand must hold every
 * token the grammar may allow in this state (the whole vocabulary, or gasp_gstate_prefilter's survivors),
 * and a token is allowed when its logit is not -inf. */
void gasp_gcache_put(gasp_gcache *c, gasp_gstate *g, const llama_token_data *cand, size_t n);
void gasp_gcache_get_counts(gasp_gcache *c, gasp_gcache_counts *out);
/* Drops every mask (the counts stay). */
void gasp_gcache_clear(gasp_gcache *c);

/* A new sequence at the grammar's start. NULL only when out of memory. */
gasp_gstate *gasp_gstate_new(gasp_gcache *c);
void gasp_gstate_free(gasp_gstate *g);
/* llama.cpp's own grammar apply: sets the logit of every token the grammar rejects here to -inf. */
void gasp_gstate_apply(const gasp_gstate *g, llama_token_data_array *cur);
/* Advances over token t, which the grammar must allow (llama.cpp aborts otherwise). */
void gasp_gstate_accept(gasp_gstate *g, llama_token t);
/* An exact first-byte prefilter: writes into out (room for the whole vocabulary) the tokens, in vocabulary
 * order with their logits, that the grammar may allow here, ruling out those whose first byte it rejects
 * (tested once per byte value; a token the grammar allows has an allowed first byte, as the language of a
 * grammar state is prefix-closed) and empty pieces. Returns how many. */
size_t gasp_gstate_prefilter(const gasp_gstate *g, const float *logits, llama_token_data *out);

#ifdef __cplusplus
}
#endif
#endif
