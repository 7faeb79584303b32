/* The grammar mask cache of the llama backend (src/llm/grammar_cache.cpp) is exact:
 *  1. random walks through the PTX grammars (llama.cpp's vocabularies, a random allowed token at each step): at
 *     every step the mask the backend uses (from the cache, or computed through the first-byte prefilter and
 *     sliced applies, then cached) equals llama.cpp's own apply on the whole vocabulary, with a roomy cache
 *     and with one so small that it evicts all the time;
 *  2. the llama backend decodes the same answers with the cache on, off and cold, with a KV stream per
 *     sequence instead of one shared cache, and with the grammar's phases after the wait for the logits
 *     instead of beside the model's step, and with the sequences decoded in two lanes (a random-weight model,
 *     parallel sequences under the grammar, fixed seeds).
 * Needs libllama (GASP_HAVE_LLAMA). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/util.h"
#include "llama.h"
#include "llm/backend.h"
#include "llm/grammar_cache.h"
#include "llm/mkmodel.h"
#include "prompt/prompt.h"
#include "target/target.h"
#include "task/task.h"

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 11);
}

static void quiet_log(enum ggml_log_level level, const char *text, void *user) { (void)level, (void)text, (void)user; }

/* The backend's way to a mask (llama.c phases G, B, C): the cache, else prefilter + applies in slices + put. */
static int backend_mask(gasp_gcache *c, gasp_gstate *g, const float *logits, llama_token_data *sub, uint64_t *bits,
                        size_t words) {
  if (gasp_gcache_get(c, g, bits)) return 1;
  size_t n = gasp_gstate_prefilter(g, logits, sub);
  for (size_t lo = 0; lo < n; lo += 4099) { /* slices, as the sampling threads apply them */
    llama_token_data_array part = {sub + lo, n - lo < 4099 ? n - lo : 4099, -1, false};
    gasp_gstate_apply(g, &part);
  }
  gasp_gcache_put(c, g, sub, n);
  memset(bits, 0, words * sizeof *bits);
  for (size_t i = 0; i < n; i++)
    if (!isinf(sub[i].logit)) bits[sub[i].id / 64] |= 1ULL << (sub[i].id % 64);
  return 0;
}

static void walks(const struct llama_vocab *vocab, const char *gbnf, int nwalks, int max_steps) {
  int nv = llama_vocab_n_tokens(vocab);
  gasp_gcache *big = gasp_gcache_new(vocab, gbnf, "root", 64u << 20);
  CHECK(big != NULL, "the grammar compiles");
  if (!big) return;
  size_t words = gasp_gcache_mask_words(big);
  /* room for about three masks: nearly every put evicts */
  gasp_gcache *small = gasp_gcache_new(vocab, gbnf, "root", 3 * (words * 8 + 2048));
  llama_token_data *full = malloc(sizeof *full * (size_t)nv), *sub = malloc(sizeof *sub * (size_t)nv);
  float *logits = calloc((size_t)nv, sizeof *logits);
  uint64_t *ref = malloc(words * 8), *got = malloc(words * 8), *prev = calloc(words, 8);
  llama_token *allowed = malloc(sizeof *allowed * (size_t)nv);
  int *plen = malloc(sizeof *plen * (size_t)nv); /* piece lengths: 3 steps in 4 take the longest allowed token */
  for (int v = 0; v < nv; v++) {
    char buf[256];
    plen[v] = llama_token_to_piece(vocab, v, buf, sizeof buf, 0, true);
  }
  long steps = 0, mismatches = 0, hits = 0, changes = 0, ended = 0;
  for (int w = 0; w < nwalks; w++) {
    gasp_gstate *g = gasp_gstate_new(big), *gs = gasp_gstate_new(small);
    gasp_str text; /* the walk's answer, shown with GASP_GCACHE_SHOW */
    gasp_str_init(&text);
    for (int step = 0; step < max_steps; step++) {
      for (int v = 0; v < nv; v++) full[v] = (llama_token_data){v, 0.0f, 0.0f};
      llama_token_data_array arr = {full, (size_t)nv, -1, false};
      gasp_gstate_apply(g, &arr); /* llama.cpp's own apply over the whole vocabulary: the reference */
      memset(ref, 0, words * 8);
      int na = 0;
      for (int v = 0; v < nv; v++)
        if (!isinf(full[v].logit)) ref[v / 64] |= 1ULL << (v % 64), allowed[na++] = v;
      for (int which = 0; which < 2; which++) {
        hits += backend_mask(which ? small : big, which ? gs : g, logits, sub, got, words);
        if (memcmp(got, ref, words * 8)) {
          if (!mismatches++)
            printf("walk %d step %d: the %s cache's mask differs from llama.cpp's apply\n", w, step,
                   which ? "small" : "big");
        }
      }
      changes += memcmp(prev, ref, words * 8) != 0;
      memcpy(prev, ref, words * 8);
      steps++;
      CHECK(na > 0, "walk %d step %d: the grammar allows some token", w, step);
      if (!na) break;
      llama_token t = allowed[rnd() % (unsigned)na];
      if (rnd() % 4) /* through fixed text (the kernel's header) quickly, to the instructions */
        for (int i = 0; i < na; i++)
          if (plen[allowed[i]] > plen[t]) t = allowed[i];
      if (llama_vocab_is_eog(vocab, t)) {
        ended++;
        break;
      }
      gasp_gstate_accept(g, t);
      gasp_gstate_accept(gs, t);
      char piece[256];
      int k = llama_token_to_piece(vocab, t, piece, sizeof piece, 0, true);
      if (k > 0) gasp_str_append(&text, piece, (size_t)k);
    }
    if (getenv("GASP_GCACHE_SHOW") && text.data) printf("walk %d:\n%s\n", w, text.data);
    gasp_str_free(&text);
    gasp_gstate_free(g);
    gasp_gstate_free(gs);
  }
  gasp_gcache_counts cb, cs;
  gasp_gcache_get_counts(big, &cb);
  gasp_gcache_get_counts(small, &cs);
  printf("%ld steps in %d walks (%ld ended), masks changed %ld times; big cache %ld hits %ld misses %ld entries, "
         "small %ld hits %ld misses %ld entries\n",
         steps, nwalks, ended, changes, cb.hits, cb.misses, cb.entries, cs.hits, cs.misses, cs.entries);
  CHECK(mismatches == 0, "%ld masks of %ld differ from llama.cpp's apply", mismatches, 2 * steps);
  /* the test has teeth only if states recur (hits compared) and the masks vary (a stale mask would show) */
  CHECK(cb.hits > steps / 4, "the big cache answered %ld of %ld lookups", cb.hits, steps);
  CHECK(cb.misses > 10 && changes > steps / 4, "the walks met %ld states and %ld mask changes", cb.misses, changes);
  CHECK(cs.entries <= (long)(3 * (words * 8 + 2048) / (words * 8)) && cs.misses > cb.misses,
        "the small cache evicts (%ld entries, %ld misses)", cs.entries, cs.misses);
  CHECK(cb.bytes <= 64u << 20 && cs.bytes <= 3 * (words * 8 + 2048), "caches stay within their bounds");
  gasp_gcache_free(big);
  gasp_gcache_free(small);
  free(full), free(sub), free(logits), free(ref), free(got), free(prev), free(allowed), free(plen);
}

/* Answers of 4 parallel sequences under the grammar, with the given cache setting. */
static int decode(const char *model, const gasp_target *t, const gasp_task *task, int cache_mb, int cold, int kv_split,
                  int serial, int lanes, char **out, long *hits) {
  gasp_backend_opts bo = {0};
  bo.model = model;
  bo.parallel = 4;
  bo.grammar = 1;
  bo.threads = 1;
  bo.n_ctx = 2048; /* room for the prompt; a small KV cache keeps the tiny model's steps short */
  bo.grammar_cache_mb = cache_mb;
  bo.grammar_cache_cold = cold;
  bo.kv_split = kv_split;
  bo.grammar_serial = serial;
  bo.lanes = lanes;
  char err[512];
  gasp_backend *b = gasp_backend_open("llama", &bo, err, sizeof err);
  CHECK(b != NULL, "llama backend: %s", err);
  if (!b) return -1;
  char *prompt = gasp_prompt_build(t, task, GASP_VARIANT_DEFAULT);
  int rc = 0;
  for (int round = 0; round < 2 && !rc; round++) /* round 2 meets round 1's masks unless cold */
    for (int s = 0; s < 4 && !rc; s++) {
      gasp_gen_params gp;
      gasp_gen_params_default(&gp);
      gp.max_tokens = 64;
      gp.temperature = 1.0;
      gp.top_p = 1.0;
      gp.seed = 11 + (uint64_t)round * 100;
      gp.n_samples = 4;
      gasp_answer a;
      gasp_diags d;
      gasp_diags_init(&d);
      rc = b->generate(b, t, task, prompt, &gp, s, &a, &d);
      CHECK(rc == 0, "generate: %s", d.count ? d.items[0].msg : "?");
      if (!rc) out[round * 4 + s] = a.text, a.text = NULL;
      gasp_answer_free(&a);
      gasp_diags_free(&d);
    }
  gasp_gen_stats st;
  b->stats(b, &st);
  *hits = st.mask_hits;
  free(prompt);
  gasp_backend_close(b);
  return rc;
}

int main(void) {
  char vpath[1024];
  const char *vocab_file = gasp_vocab_resolve("llama-spm", vpath, sizeof vpath);
  if (!vocab_file || access(vocab_file, R_OK)) {
    printf("skip: no llama.cpp vocabulary (tools/llama-build.sh)\n");
    return 77;
  }
  llama_backend_init();
  llama_log_set(quiet_log, NULL);
  gasp_taskset ts = {0};
  gasp_diags d;
  gasp_diags_init(&d);
  CHECK(gasp_taskset_load(gasp_tasks_dir(), &ts, &d) == 0, "tasks load");
  const gasp_target *t = gasp_target_find("ptx-sm90");
  /* a snippet task: its answers reach instructions within a few tokens (a kernel's header is long) */
  const gasp_task *task = gasp_taskset_find(&ts, "add_f32");
  CHECK(t && t->grammar && task, "ptx-sm90 and add_f32");
  if (!t || !t->grammar || !task) return DONE();

  /* SentencePiece (llama, 32k) and byte-level BPE (Qwen2, 152k: pieces are decoded bytes, spaces folded into
   * tokens), a kernel's grammar (these walks stay in its long fixed header) and a snippet's (instructions) */
  const struct { const char *vocab, *task; int walks, steps; } runs[] = {
      {"llama-spm", "vector_add", 4, 250}, {"llama-spm", "add_f32", 3, 150}, {"qwen2", "vector_add", 3, 100}};
  for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
    char vp[1024];
    const char *vf = gasp_vocab_resolve(runs[r].vocab, vp, sizeof vp);
    const gasp_task *wt = gasp_taskset_find(&ts, runs[r].task);
    struct llama_model_params mp = llama_model_default_params();
    mp.vocab_only = true;
    struct llama_model *vm = vf && wt ? llama_model_load_from_file(vf, mp) : NULL;
    CHECK(vm != NULL, "load %s, task %s", runs[r].vocab, runs[r].task);
    char *gbnf = vm ? t->grammar(t, wt, &d) : NULL;
    CHECK(!vm || gbnf != NULL, "the grammar of %s", runs[r].task);
    if (vm && gbnf) {
      double t0 = gasp_now_s();
      printf("%s, %s: ", runs[r].vocab, runs[r].task);
      walks(llama_model_get_vocab(vm), gbnf, runs[r].walks, runs[r].steps);
      printf("walks: %.1f s\n", gasp_now_s() - t0);
    }
    free(gbnf);
    if (vm) llama_model_free(vm);
  }

  /* the backend end to end: the same answers whatever the cache does */
  char model[] = "/tmp/gasp-gcache-XXXXXX";
  int fd = mkstemp(model);
  CHECK(fd >= 0, "temp file");
  if (fd >= 0) {
    close(fd);
    gasp_mkmodel_opts o = {.arch = "llama"};
    gasp_mkmodel_preset("tiny", &o);
    char err[512];
    CHECK(gasp_mkmodel_write(&o, model, NULL, err, sizeof err) == 0, "mkmodel: %s", err);
    char *on[8] = {0}, *off[8] = {0}, *cold[8] = {0}, *split[8] = {0}, *serial[8] = {0}, *lanes[8] = {0};
    long hon = 0, hoff = 0, hcold = 0, hsplit = 0, hserial = 0, hlanes = 0;
    double t0 = gasp_now_s();
    if (!decode(model, t, task, 0, 0, 0, 0, 1, on, &hon) && !decode(model, t, task, -1, 0, 0, 0, 1, off, &hoff) &&
        !decode(model, t, task, 0, 1, 0, 0, 1, cold, &hcold) && !decode(model, t, task, 0, 0, 1, 0, 1, split, &hsplit) &&
        !decode(model, t, task, 0, 0, 0, 1, 1, serial, &hserial) && !decode(model, t, task, 0, 0, 0, 0, 2, lanes, &hlanes)) {
      for (int i = 0; i < 8; i++) {
        CHECK(on[i] && off[i] && !strcmp(on[i], off[i]), "answer %d: the same with the cache and without", i);
        CHECK(on[i] && cold[i] && !strcmp(on[i], cold[i]), "answer %d: the same with a cold cache", i);
        /* a KV stream per sequence, the prompt copied into each: the same model inputs, so the same answers */
        CHECK(on[i] && split[i] && !strcmp(on[i], split[i]), "answer %d: the same with a KV stream per sequence", i);
        /* the grammar's accept and masks while the model computes, or after its logits: the same draws */
        CHECK(on[i] && serial[i] && !strcmp(on[i], serial[i]), "answer %d: the same with the grammar's phases serial", i);
        /* two lanes (contexts on their own threads, two sequences each): a sample's draws depend on its number */
        CHECK(on[i] && lanes[i] && !strcmp(on[i], lanes[i]), "answer %d: the same with two lanes", i);
      }
      CHECK(strcmp(on[0], on[1]) || strcmp(on[0], on[2]), "the sequences differ (they are sampled, not fixed)");
      CHECK(hon > hcold && hcold > 0 && hoff == 0 && hserial == hon, "cache hits: on %ld, cold %ld, off %ld, serial %ld",
            hon, hcold, hoff, hserial);
    }
    printf("backend: %.1f s\n", gasp_now_s() - t0);
    for (int i = 0; i < 8; i++) free(on[i]), free(off[i]), free(cold[i]), free(split[i]), free(serial[i]), free(lanes[i]);
    unlink(model);
  }
  gasp_taskset_free(&ts);
  return DONE();
}
