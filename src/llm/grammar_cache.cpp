/* Grammar states and the allowed-token mask cache of the llama backend (see grammar_cache.h).
 *
 * Why C++, and the only C++ file of gasp: a grammar's state in llama.cpp is `struct llama_grammar` (its
 * pushdown stacks, vectors of pointers into the rules, and the partial UTF-8 sequence), declared only in the
 * internal header src/llama-grammar.h of the llama.cpp tree we build (node-llama-cpp@3.21.1's bundle, pinned
 * and sha512-checked by tools/llama-build.sh), with no C accessor. Keying a cache on that state needs to read
 * it, so this file includes that header and uses llama.cpp's internal grammar functions (exported by
 * libllama: llama_grammar_init_impl, _clone_impl, _apply_impl, _accept_impl, _free_impl). The pin makes the
 * layout exact; a llama.cpp update must re-check this file (tests/unit/test_grammar_cache.c does, at run time:
 * the cached masks must equal llama.cpp's own apply on the whole vocabulary).
 *
 * The key of a state is exact, not a hash: partial UTF-8 (value, bytes remaining), then each stack as its
 * length and its elements, every element pointer rewritten as a position in the rules (the same for every
 * clone of the grammar, whose rules are copies at other addresses). The mask of a state depends on nothing
 * else: llama_grammar_apply_impl reads only the stacks, the partial UTF-8, the rules and the vocabulary (and
 * the lazy-trigger flag, always off here: gasp's grammars are not lazy). */
#include "grammar_cache.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <list>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "llama-grammar.h"

namespace {

typedef std::vector<uint32_t> state_key;

struct key_hash {
  size_t operator()(const state_key &k) const {
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a over the words */
    for (uint32_t w : k) h = (h ^ w) * 0x100000001b3ULL;
    return (size_t)(h ^ (h >> 29));
  }
};

struct mask_entry {
  const state_key *key; /* the map's own copy (node keys of an unordered_map do not move) */
  std::vector<uint64_t> bits;
};

/* Where a rule's elements lie in one grammar copy, and the first position number they get in keys. */
struct rule_span {
  const llama_grammar_element *begin, *end;
  uint32_t base;
};

} // namespace

struct gasp_gcache {
  const llama_vocab *vocab = nullptr;
  llama_grammar *start = nullptr; /* compiled once; sequences start as clones */
  int n_vocab = 0;
  size_t words = 0, max_bytes = 0, bytes = 0;
  std::vector<unsigned char> first_byte, empty_piece, eog;
  llama_token probe[256];
  std::mutex mu;
  std::list<mask_entry> lru; /* most recently used first */
  std::unordered_map<state_key, std::list<mask_entry>::iterator, key_hash> map;
  long hits = 0, misses = 0;
};

struct gasp_gstate {
  gasp_gcache *c = nullptr;
  llama_grammar *g = nullptr;
  std::vector<rule_span> spans; /* sorted by address */
  state_key key;
  bool key_ok = false, keyable = false;
};

/* The exact key of g's state; false when an element is not found in the rules (never expected: the state is
 * then simply not cached). */
static bool make_key(gasp_gstate *g) {
  if (g->key_ok) return g->keyable;
  g->key_ok = true;
  g->keyable = false;
  state_key &k = g->key;
  k.clear();
  if (g->g->awaiting_trigger) return false;
  k.push_back(g->g->partial_utf8.value);
  k.push_back((uint32_t)g->g->partial_utf8.n_remain);
  k.push_back((uint32_t)g->g->stacks.size());
  for (const llama_grammar_stack &st : g->g->stacks) {
    k.push_back((uint32_t)st.size());
    for (const llama_grammar_element *e : st) {
      auto it = std::upper_bound(g->spans.begin(), g->spans.end(), e,
                                 [](const llama_grammar_element *p, const rule_span &s) { return p < s.begin; });
      if (it == g->spans.begin()) return false;
      --it;
      if (e >= it->end) return false;
      k.push_back(it->base + (uint32_t)(e - it->begin));
    }
  }
  g->keyable = true;
  return true;
}

static size_t entry_bytes(const gasp_gcache *c, const state_key &k) {
  return c->words * sizeof(uint64_t) + 2 * k.size() * sizeof(uint32_t) + 96; /* bitset, two key copies, nodes */
}

extern "C" {

gasp_gcache *gasp_gcache_new(const struct llama_vocab *vocab, const char *gbnf, const char *root, size_t max_bytes) {
  gasp_gcache *c = new (std::nothrow) gasp_gcache;
  if (!c) return nullptr;
  c->start = llama_grammar_init_impl(vocab, gbnf, root, false, nullptr, 0, nullptr, 0);
  if (!c->start) {
    delete c;
    return nullptr;
  }
  c->vocab = vocab;
  c->max_bytes = max_bytes;
  c->n_vocab = llama_vocab_n_tokens(vocab);
  c->words = ((size_t)c->n_vocab + 63) / 64;
  c->first_byte.assign((size_t)c->n_vocab, 0);
  c->empty_piece.assign((size_t)c->n_vocab, 0);
  c->eog.assign((size_t)c->n_vocab, 0);
  for (int b = 0; b < 256; b++) c->probe[b] = -1;
  for (llama_token v = 0; v < c->n_vocab; v++) {
    char piece[256];
    /* special = true: the piece as the grammar sees it (llama_vocab::token_to_piece of the token) */
    int k = llama_token_to_piece(vocab, v, piece, sizeof piece, 0, true);
    c->eog[v] = llama_vocab_is_eog(vocab, v);
    if (k <= 0 || piece[0] == 0) c->empty_piece[v] = 1;
    else c->first_byte[v] = (unsigned char)piece[0];
    if (k == 1 && piece[0] && c->probe[(unsigned char)piece[0]] < 0 && !c->eog[v]) c->probe[(unsigned char)piece[0]] = v;
  }
  return c;
}

void gasp_gcache_free(gasp_gcache *c) {
  if (!c) return;
  llama_grammar_free_impl(c->start);
  delete c;
}

int gasp_gcache_n_vocab(const gasp_gcache *c) { return c->n_vocab; }
size_t gasp_gcache_mask_words(const gasp_gcache *c) { return c->words; }

int gasp_gcache_get(gasp_gcache *c, gasp_gstate *g, uint64_t *bits) {
  bool keyable = c->max_bytes && make_key(g); /* no key to build when nothing is kept */
  std::lock_guard<std::mutex> lock(c->mu);
  auto it = keyable ? c->map.find(g->key) : c->map.end();
  if (it == c->map.end()) {
    c->misses++;
    return 0;
  }
  c->hits++;
  c->lru.splice(c->lru.begin(), c->lru, it->second);
  memcpy(bits, it->second->bits.data(), c->words * sizeof(uint64_t));
  return 1;
}

void gasp_gcache_put(gasp_gcache *c, gasp_gstate *g, const llama_token_data *cand, size_t n) {
  if (!make_key(g) || !c->max_bytes) return;
  std::vector<uint64_t> bits(c->words, 0);
  for (size_t i = 0; i < n; i++)
    if (!(std::isinf(cand[i].logit) && cand[i].logit < 0) && cand[i].id >= 0 && cand[i].id < c->n_vocab)
      bits[(size_t)cand[i].id / 64] |= 1ULL << (cand[i].id % 64);
  size_t need = entry_bytes(c, g->key);
  if (need > c->max_bytes) return;
  std::lock_guard<std::mutex> lock(c->mu);
  if (c->map.count(g->key)) return; /* another sequence in the same state got there first */
  while (c->bytes + need > c->max_bytes && !c->lru.empty()) {
    mask_entry &old = c->lru.back();
    c->bytes -= entry_bytes(c, *old.key);
    c->map.erase(*old.key);
    c->lru.pop_back();
  }
  c->lru.push_front(mask_entry{nullptr, std::move(bits)});
  auto ins = c->map.emplace(g->key, c->lru.begin());
  c->lru.front().key = &ins.first->first;
  c->bytes += need;
}

void gasp_gcache_get_counts(gasp_gcache *c, gasp_gcache_counts *out) {
  std::lock_guard<std::mutex> lock(c->mu);
  out->hits = c->hits;
  out->misses = c->misses;
  out->entries = (long)c->map.size();
  out->bytes = c->bytes;
}

void gasp_gcache_clear(gasp_gcache *c) {
  std::lock_guard<std::mutex> lock(c->mu);
  c->map.clear();
  c->lru.clear();
  c->bytes = 0;
}

gasp_gstate *gasp_gstate_new(gasp_gcache *c) {
  gasp_gstate *g = new (std::nothrow) gasp_gstate;
  if (!g) return nullptr;
  g->c = c;
  g->g = llama_grammar_clone_impl(*c->start);
  uint32_t base = 0;
  for (const llama_grammar_rule &r : g->g->rules) {
    g->spans.push_back(rule_span{r.data(), r.data() + r.size(), base});
    base += (uint32_t)r.size();
  }
  std::sort(g->spans.begin(), g->spans.end(), [](const rule_span &a, const rule_span &b) { return a.begin < b.begin; });
  return g;
}

void gasp_gstate_free(gasp_gstate *g) {
  if (!g) return;
  llama_grammar_free_impl(g->g);
  delete g;
}

void gasp_gstate_apply(const gasp_gstate *g, llama_token_data_array *cur) { llama_grammar_apply_impl(*g->g, cur); }

void gasp_gstate_accept(gasp_gstate *g, llama_token t) {
  llama_grammar_accept_impl(*g->g, t);
  g->key_ok = false;
}

size_t gasp_gstate_prefilter(const gasp_gstate *g, const float *logits, llama_token_data *out) {
  const gasp_gcache *c = g->c;
  llama_token_data probes[256];
  size_t np = 0;
  for (int b = 0; b < 256; b++)
    if (c->probe[b] >= 0) probes[np++] = llama_token_data{c->probe[b], 1.0f, 0.0f};
  llama_token_data_array pa = {probes, np, -1, false};
  llama_grammar_apply_impl(*g->g, &pa);
  /* bytes without a probe token, and continuation bytes (0x80-0xBF, which only a partial UTF-8 sequence
   * accepts), are left to the grammar */
  unsigned char ok[256];
  for (int b = 0; b < 256; b++) ok[b] = c->probe[b] < 0 || (b >= 0x80 && b < 0xC0);
  for (size_t i = 0; i < np; i++)
    if (!std::isinf(probes[i].logit)) ok[c->first_byte[(size_t)probes[i].id]] = 1;
  size_t n = 0;
  for (int v = 0; v < c->n_vocab; v++) {
    if (!c->eog[(size_t)v] && (c->empty_piece[(size_t)v] || !ok[c->first_byte[(size_t)v]])) continue;
    out[n++] = llama_token_data{v, logits ? logits[v] : 0.0f, 0.0f};
  }
  return n;
}

/* grammar.h: text in the grammar's language? llama.cpp's engine, one code point at a time (ASCII answers;
 * any other byte is a mismatch there, which the PTX grammars never allow anyway). */
int gasp_grammar_match(const char *gbnf, const char *text, size_t *at) {
  if (at) *at = 0;
  llama_grammar *g = llama_grammar_init_impl(nullptr, gbnf, "root", false, nullptr, 0, nullptr, 0);
  if (!g) return -1;
  size_t i = 0;
  for (; text[i]; i++) {
    if ((unsigned char)text[i] >= 128) break;
    llama_grammar_accept(g, (uint32_t)(unsigned char)text[i]);
    if (g->stacks.empty()) break;
  }
  int ok = 0;
  if (!text[i])
    for (const llama_grammar_stack &st : g->stacks) ok |= st.empty();
  if (at) *at = i;
  llama_grammar_free_impl(g);
  return ok;
}

} // extern "C"
