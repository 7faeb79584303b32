/* The `llama` backend: llama.cpp embedded, the source article's setup (a local model in raw-completion mode)
 * made gasp's default when a model is configured. Beyond the article:
 *  - several samples of one prompt are decoded as parallel sequences in one batch, the prompt's KV cells
 *    shared by all of them (a unified KV cache; with kv_split a stream per sequence, the prompt copied), for
 *    throughput;
 *  - decoding under the target's GBNF grammar (target->grammar), so answers are well-formed by construction.
 *    Each token is drawn from the tokens the grammar allows (the exact constrained distribution, not
 *    llama.cpp's common sampler's shortcut of checking a token drawn from the whole vocabulary, which
 *    differs once top-k/top-p truncate). Masking the whole vocabulary per token is the cost llama.cpp users
 *    measured at up to 37%; here the mask of each grammar state is computed once and cached
 *    (grammar_cache.h), since the grammar returns to the same few states at every line and operand, and a
 *    cached mask makes the draw cheaper than one over the whole vocabulary; the grammar's work that needs no
 *    logits runs while the GPU computes the step;
 *  - lanes: contexts that decode shares of a batch on their own threads, so one's host work (launching its
 *    step, sampling) overlaps another's step on the GPU;
 *  - our own sampler (sample.h), which reads the logits in place instead of building llama.cpp's candidate
 *    array of the whole vocabulary for each token;
 *  - per-token log-probabilities with the top 5 alternatives.
 * llama.cpp's own log lines are kept (last few, for error messages) and printed only with GASP_LLAMA_VERBOSE. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/util.h"
#include "backend.h"
#include "fjpool.h"
#include "grammar_cache.h"
#include "../grammar/monitor.h"
#include "llama.h"
#include "sample.h"

#define LOG_KEEP 2048
#define PROMPT_CTX_DEFAULT 4096
#define MAX_LANES 4

/* One lane: a llama.cpp context of its own (its KV cache and, on a GPU, its own stream) that decodes a share
 * of a batch's sequences on its own thread. With one lane a step is decode -> wait -> sample, and the GPU
 * idles while the CPU builds and launches the next step and samples; with two, one lane's host work runs
 * while the other's step computes. */
typedef struct {
  struct llama_context *ctx;
  unsigned ctx_cells;          /* n_ctx of ctx (0: none yet) */
  gasp_fjpool *pool;           /* sampling threads */
  int threads;                 /* llama.cpp's CPU threads and the pool's size */
  gasp_gen_stats stats;        /* totals since the backend opened */
} lane;

typedef struct {
  struct llama_model *model;
  const struct llama_vocab *vocab;
  lane lanes[MAX_LANES];
  int nlanes;
  int parallel, threads, logprobs, prompt_ctx, grammar;
  int monitor;                 /* decode under the target's monitor as well (gasp_backend_opts.monitor) */
  gasp_monitor *mon;           /* the monitor of cache_task (NULL: none for it) */
  char *pieces;                /* every token's text, for the monitor: piece_at[v] .. piece_at[v + 1] */
  int *piece_at;
  int kv_split;                /* a KV stream per sequence (gasp_backend_opts.kv_split) */
  int grammar_serial;          /* the grammar's phases after the wait, not beside the GPU (gasp_backend_opts) */
  /* answers decoded ahead for the next samples of the same prompt */
  char *cache_prompt;
  int cache_first, cache_n;   /* samples [first, first+n) of cache_prompt's first turn */
  gasp_answer cache[64];
  char *grammar_text;          /* the grammar of cache_task (one task's grammar is reused by all its samples) */
  char cache_task[64];
  const void *cache_target;
  gasp_gcache *gcache;         /* grammar_text compiled, and the masks of its states met so far */
  size_t gcache_bytes;         /* the mask cache's bound (0: masks are not kept) */
  int gcache_cold;             /* forget the masks before each batch */
} llama_state;


/* llama.cpp logs through a global callback: keep the last lines for our error messages */
static char log_tail[LOG_KEEP];
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER; /* lanes decode on several threads */
static void on_log(enum ggml_log_level level, const char *text, void *user) {
  (void)user;
  if (getenv("GASP_LLAMA_VERBOSE")) fputs(text, stderr);
  if (level == GGML_LOG_LEVEL_DEBUG) return;
  pthread_mutex_lock(&log_mu);
  size_t have = strlen(log_tail), add = strlen(text);
  if (add >= LOG_KEEP) text += add - (LOG_KEEP - 1), add = LOG_KEEP - 1;
  if (have + add >= LOG_KEEP) {
    size_t drop = have + add - (LOG_KEEP - 1);
    memmove(log_tail, log_tail + drop, have - drop + 1);
    have -= drop;
  }
  memcpy(log_tail + have, text, add + 1);
  pthread_mutex_unlock(&log_mu);
}

/* The last error-looking line llama.cpp logged, for messages. */
static const char *last_log_line(char *buf, size_t cap) {
  buf[0] = 0;
  pthread_mutex_lock(&log_mu);
  char *copy = gasp_strdup(log_tail), *save = NULL;
  pthread_mutex_unlock(&log_mu);
  for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
    if (strstr(l, "error") || strstr(l, "failed") || strstr(l, "invalid") || strstr(l, "parse"))
      snprintf(buf, cap, "%s", l);
  free(copy);
  return buf;
}

static void log_reset(void) {
  pthread_mutex_lock(&log_mu);
  log_tail[0] = 0;
  pthread_mutex_unlock(&log_mu);
}

/* ggml aborts the process on a backend error (a CUDA error, say). The process is lost either way; this
 * leaves the reason and llama.cpp's last log lines on stderr, which the default handler's backtrace buries. */
static void on_abort(const char *message) {
  fprintf(stderr, "gasp: llama.cpp aborted: %s\n", message ? message : "?");
  if (log_tail[0]) fprintf(stderr, "gasp: llama.cpp's last log lines:\n%s\n", log_tail);
}

static long long mem_available_bytes(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return -1;
  char line[256];
  long long kb = -1, swap = 0;
  while (fgets(line, sizeof line, f)) {
    sscanf(line, "MemAvailable: %lld kB", &kb);
    sscanf(line, "SwapFree: %lld kB", &swap);
  }
  fclose(f);
  return kb < 0 ? -1 : (kb + swap) * 1024;
}

static void cache_clear(llama_state *s) {
  for (int i = 0; i < s->cache_n; i++) gasp_answer_free(&s->cache[i]);
  s->cache_n = 0;
  free(s->cache_prompt);
  s->cache_prompt = NULL;
}

static void llama_close(gasp_backend *b) {
  llama_state *s = b->state;
  if (!s) return;
  cache_clear(s);
  for (int i = 0; i < s->nlanes; i++) {
    gasp_fjpool_close(s->lanes[i].pool);
    if (s->lanes[i].ctx) llama_free(s->lanes[i].ctx);
  }
  gasp_gcache_free(s->gcache);
  free(s->grammar_text);
  gasp_monitor_free(s->mon);
  free(s->pieces);
  free(s->piece_at);
  if (s->model) llama_model_free(s->model);
  free(s);
  b->state = NULL;
}

/* The most sequences one lane decodes at once: lane 0's share of a full batch. */
static int lane_parallel(const llama_state *s) { return (s->parallel + s->nlanes - 1) / s->nlanes; }

/* A lane's context with room for the prompt plus `gen` tokens for each of n sequences. Recreated only when a
 * larger one is needed. */
static int ensure_ctx(llama_state *s, lane *ln, unsigned need, int n, gasp_diags *d) {
  if (ln->ctx && ln->ctx_cells >= need) return 0;
  if (ln->ctx) llama_free(ln->ctx);
  struct llama_context_params cp = llama_context_default_params();
  cp.n_ctx = need;
  cp.n_batch = need < 2048 ? need : 2048;
  if (cp.n_batch < (unsigned)n) cp.n_batch = (unsigned)n;
  cp.n_ubatch = cp.n_batch < 512 ? cp.n_batch : 512;
  cp.n_seq_max = (unsigned)(lane_parallel(s) > n ? lane_parallel(s) : n);
  /* unified: one KV buffer for all sequences, the prompt's cells shared, not copied; but every token then
   * attends over every sequence's cells (masked), and llama.cpp builds that mask on the CPU each step, n
   * tokens x all cells. Split: a stream per sequence (n_ctx is divided among them), the prompt copied. */
  cp.kv_unified = !s->kv_split;
  cp.n_threads = cp.n_threads_batch = ln->threads;
  cp.no_perf = true;
  log_reset();
  ln->ctx = llama_init_from_model(s->model, cp);
  ln->ctx_cells = ln->ctx ? llama_n_ctx(ln->ctx) : 0;
  if (!ln->ctx) {
    char l[512];
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0,
                   "llama.cpp could not create a context of %u tokens for %d sequence(s) (out of memory?) %s", need, n,
                   last_log_line(l, sizeof l));
    return -1;
  }
  return 0;
}

static void piece_of(const struct llama_vocab *v, llama_token t, char *buf, size_t cap) {
  int n = llama_token_to_piece(v, t, buf, (int32_t)cap - 1, 0, false);
  buf[n > 0 ? n : 0] = 0;
}

/* log-softmax of the raw logits at the chosen token, and the top 5, in one pass over the vocabulary */
static void token_logprob(const llama_state *s, const float *logits, int nv, llama_token chosen, gasp_tok_logprob *out) {
  float mx = -INFINITY;
  for (int i = 0; i < nv; i++) mx = logits[i] > mx ? logits[i] : mx;
  double sum = 0;
  int top[5];
  int nt = 0;
  for (int i = 0; i < nv; i++) {
    sum += exp((double)logits[i] - mx);
    /* insertion into a sorted top-5 */
    if (nt < 5 || logits[i] > logits[top[nt - 1]]) {
      int j = nt < 5 ? nt++ : 4;
      while (j > 0 && logits[top[j - 1]] < logits[i]) {
        top[j] = top[j - 1];
        j--;
      }
      top[j] = i;
    }
  }
  double lse = mx + log(sum);
  out->chosen.token = chosen;
  out->chosen.logprob = (float)(logits[chosen] - lse);
  piece_of(s->vocab, chosen, out->chosen.piece, sizeof out->chosen.piece);
  out->ntop = nt;
  for (int k = 0; k < nt; k++) {
    out->top[k].token = top[k];
    out->top[k].logprob = (float)(logits[top[k]] - lse);
    piece_of(s->vocab, top[k], out->top[k].piece, sizeof out->top[k].piece);
  }
}

typedef struct {
  gasp_sampler smp;
  gasp_sample_buf buf;     /* the sampler's scratch */
  gasp_gstate *grammar;
  gasp_mstate *mon;        /* the decoding monitor's position (NULL: none) */
  int refused, opened;     /* this draw: allowed tokens the monitor took away; 1 when it was overruled */
  gasp_str text;
  gasp_tok_logprob *lp;
  int nlp, caplp;
  int tokens, done, truncated, batch_idx;
  llama_token tok;
  int hit;                 /* the mask of the grammar's state came from the cache */
  const float *logits;
  llama_token_data *sub;   /* on a cache miss, the prefilter's candidates for the grammar */
  int nsub;
  int32_t *aid;            /* the tokens the grammar allows, in vocabulary order, and their logits */
  float *alog;
  int nallow;
  uint64_t *bits;          /* a cached mask */
} seq_state;

/* One decode step over every running sequence, in phases (each timed for gasp genspeed). Under a grammar the
 * work that does not read the logits is done while the GPU computes the step (after llama_decode launched it,
 * before its logits are waited for): accepting the token just drawn and finding the mask of the state it leads
 * to. Only listing the allowed tokens' logits and the draw wait for the model.
 *  A (per sequence)      the grammar accepts the token drawn in the last step;
 *  G (per sequence)      the mask of its state from the cache; on a miss, the first-byte prefilter leaves the
 *                        candidates for the grammar;
 *  B (per sequence x slice) on a miss, the grammar masks those candidates, in slices;
 *  C (per sequence)      a miss's mask goes into the cache and the sequence's bits;
 *  --- the step's logits ---
 *  T (per sequence)      under a grammar, the allowed tokens (from the bits, in vocabulary order) and their logits;
 *  S (per sequence)      the draw: from the allowed tokens, or from the whole vocabulary without a grammar;
 *  L (per sequence)      log-probabilities, when asked for. */
typedef struct {
  llama_state *s;
  lane *ln;
  seq_state **run;   /* the sequences of this phase */
  int nrun, nv, slices;
} step_ctx;

static void phase_a(void *c, int i) {
  step_ctx *k = c;
  seq_state *q = k->run[i];
  if (q->tok >= 0) gasp_gstate_accept(q->grammar, q->tok);
  if (q->tok >= 0 && q->mon) {
    const llama_state *s = k->s;
    gasp_mstate_accept(q->mon, s->pieces + s->piece_at[q->tok], (size_t)(s->piece_at[q->tok + 1] - s->piece_at[q->tok]));
  }
}

static void phase_g(void *c, int i) {
  step_ctx *k = c;
  seq_state *q = k->run[i];
  q->nsub = 0;
  q->hit = gasp_gcache_get(k->s->gcache, q->grammar, q->bits);
  /* the mask does not depend on the logits: the candidates go to the grammar with logit 0 */
  if (!q->hit) q->nsub = (int)gasp_gstate_prefilter(q->grammar, NULL, q->sub);
}

static void phase_b(void *c, int item) {
  step_ctx *k = c;
  /* items enumerate (sequence, slice); only cache misses have work here */
  seq_state *q = k->run[item / k->slices];
  if (q->hit) return;
  int sl = item % k->slices, per = (q->nsub + k->slices - 1) / k->slices, lo = sl * per,
      hi = lo + per < q->nsub ? lo + per : q->nsub;
  if (lo >= hi) return;
  llama_token_data_array part = {q->sub + lo, (size_t)(hi - lo), -1, false};
  gasp_gstate_apply(q->grammar, &part);
}

static void phase_c(void *c, int i) {
  step_ctx *k = c;
  seq_state *q = k->run[i];
  if (q->hit) return;
  gasp_gcache_put(k->s->gcache, q->grammar, q->sub, (size_t)q->nsub);
  /* the sequence's bits as a cache hit would have copied them: the draw must not depend on whether this
   * state's mask was cached (the cache may also be too small to keep it) */
  memset(q->bits, 0, gasp_gcache_mask_words(k->s->gcache) * sizeof *q->bits);
  for (int v = 0; v < q->nsub; v++)
    if (!(isinf(q->sub[v].logit) && q->sub[v].logit < 0)) q->bits[q->sub[v].id / 64] |= 1ull << (q->sub[v].id % 64);
}

static void phase_t(void *c, int i) {
  step_ctx *k = c;
  seq_state *q = k->run[i];
  q->nallow = 0;
  size_t words = gasp_gcache_mask_words(k->s->gcache);
  for (size_t w = 0; w < words; w++)
    for (uint64_t m = q->bits[w]; m; m &= m - 1) {
      int v = (int)(w * 64 + (unsigned)__builtin_ctzll(m));
      q->aid[q->nallow] = v, q->alog[q->nallow++] = q->logits[v];
    }
  q->refused = q->opened = 0;
  if (!q->mon) return;
  /* the monitor's rules on each allowed token's text; when it refuses them all (a path the grammar allows but
   * no rule-abiding answer continues, as a source operand that only an unwritten register fits) it is
   * overruled for this draw rather than ending the answer */
  const llama_state *s = k->s;
  int kept = 0;
  for (int j = 0; j < q->nallow; j++) {
    int v = q->aid[j];
    if (gasp_mstate_allows(q->mon, s->pieces + s->piece_at[v], (size_t)(s->piece_at[v + 1] - s->piece_at[v]), NULL))
      q->aid[kept] = v, q->alog[kept++] = q->alog[j];
  }
  /* kept == 0 wrote nothing: the list is as the grammar left it */
  if (kept) q->refused = q->nallow - kept, q->nallow = kept;
  else q->opened = q->nallow > 0;
}

static void phase_s(void *c, int i) {
  step_ctx *k = c;
  seq_state *q = k->run[i];
  /* under a grammar that allows nothing (it cannot end here either) the sequence stops: tok -1 */
  q->tok = q->grammar ? gasp_sampler_draw(&q->smp, q->alog, q->aid, q->nallow, &q->buf)
                      : gasp_sampler_draw(&q->smp, q->logits, NULL, k->nv, &q->buf);
}

static void phase_l(void *c, int i) {
  step_ctx *k = c;
  seq_state *q = k->run[i];
  if (q->tok < 0) return;
  if (q->nlp == q->caplp) {
    q->caplp = q->caplp ? 2 * q->caplp : 256;
    q->lp = realloc(q->lp, (size_t)q->caplp * sizeof *q->lp);
  }
  token_logprob(k->s, q->logits, k->nv, q->tok, &q->lp[q->nlp++]);
}

/* gasp_fjpool_run, its wall time added to *acc */
static void timed_run(gasp_fjpool *p, int items, void (*fn)(void *, int), void *ctx, double *acc) {
  double t = gasp_now_s();
  gasp_fjpool_run(p, items, fn, ctx);
  *acc += gasp_now_s() - t;
}

static int ends_with_stop(const gasp_str *t, const gasp_gen_params *p) {
  for (int i = 0; i < 4 && p->stop[i]; i++) {
    size_t n = strlen(p->stop[i]);
    if (n && t->len >= n && !memcmp(t->data + t->len - n, p->stop[i], n)) return (int)n;
  }
  return 0;
}

/* Under a grammar, the phases that need no logits for the sequences still running (A for those with a token
 * drawn, then G, B, C): the next draw's masks. */
static void grammar_ahead(step_ctx *sc, seq_state *qs, int n) {
  gasp_gen_stats *st = &sc->ln->stats;
  gasp_fjpool *pool = sc->ln->pool;
  sc->nrun = 0;
  for (int q = 0; q < n; q++)
    if (!qs[q].done) sc->run[sc->nrun++] = &qs[q];
  if (!sc->nrun) return;
  timed_run(pool, sc->nrun, phase_a, sc, &st->gaccept_s);
  timed_run(pool, sc->nrun, phase_g, sc, &st->gcheck_s);
  int misses = 0;
  for (int i = 0; i < sc->nrun; i++) st->mask_hits += sc->run[i]->hit, misses += !sc->run[i]->hit;
  st->masks += sc->nrun;
  /* the mask work only when some sequence missed the cache: waking the pool for nothing cost about as
   * much as the rest of the grammar's step for one sequence */
  if (misses) {
    timed_run(pool, sc->nrun * sc->slices, phase_b, sc, &st->gmask_s);
    timed_run(pool, sc->nrun, phase_c, sc, &st->gmask_s);
  }
}

/* Decodes n samples of one prompt together into answers[0..n). */
static int decode_batch(llama_state *s, lane *ln, const gasp_task *task, const char *prompt,
                        const gasp_gen_params *p, int first, int n, gasp_answer *answers, gasp_diags *d) {
  double t0 = gasp_now_s();
  /* the prompt: raw text (the article's raw-completion mode) or the model's own chat template */
  char *text = NULL;
  if (p->chat) {
    const char *tmpl = llama_model_chat_template(s->model, NULL);
    if (!tmpl) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0,
                     "--chat: the model has no chat template (tokenizer.chat_template); use raw completion");
      return -1;
    }
    struct llama_chat_message m = {"user", prompt};
    int need = llama_chat_apply_template(tmpl, &m, 1, true, NULL, 0);
    if (need < 0) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "llama.cpp does not support this model's chat template");
      return -1;
    }
    text = malloc((size_t)need + 1);
    llama_chat_apply_template(tmpl, &m, 1, true, text, need + 1);
    text[need] = 0;
  } else
    text = gasp_strdup(prompt);
  int plen = (int)strlen(text);
  int cap = plen + 16;
  llama_token *toks = malloc((size_t)cap * sizeof *toks);
  /* raw: the model's BOS as in training; chat: the template already wrote its special tokens */
  int np = llama_tokenize(s->vocab, text, plen, toks, cap, !p->chat, p->chat);
  free(text);
  if (np < 0) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "the prompt could not be tokenized");
    free(toks);
    return -1;
  }
  if (np > s->prompt_ctx) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0,
                   "context overflow: the prompt is %d tokens but the context for prompts holds %d (raise --ctx)", np,
                   s->prompt_ctx);
    free(toks);
    return -1;
  }
  /* sized for the run (prompt room + every parallel sequence at max tokens), not for this batch: a context
   * that grew with the batches made a sample's answer depend on what ran before it */
  unsigned nseq = (unsigned)(lane_parallel(s) > n ? lane_parallel(s) : n),
           need = s->kv_split ? nseq * ((unsigned)s->prompt_ctx + (unsigned)p->max_tokens + 16)
                              : (unsigned)s->prompt_ctx + nseq * (unsigned)p->max_tokens + 16;
  if (ensure_ctx(s, ln, need, n, d)) {
    free(toks);
    return -1;
  }
  llama_memory_clear(llama_get_memory(ln->ctx), true);

  int nv = llama_vocab_n_tokens(s->vocab);
  int bcap = (int)llama_n_batch(ln->ctx);
  struct llama_batch batch = llama_batch_init(bcap > n ? bcap : n, 0, n);
  /* the prompt once, its cells belonging to every sequence */
  int rc = 0;
  double tp = gasp_now_s();
  for (int at = 0; at < np && !rc; at += bcap) {
    batch.n_tokens = 0;
    for (int i = at; i < np && i < at + bcap; i++) {
      int k = batch.n_tokens++;
      batch.token[k] = toks[i];
      batch.pos[k] = i;
      /* split: the prompt into sequence 0's stream, copied into the others' below */
      batch.n_seq_id[k] = s->kv_split ? 1 : n;
      for (int q = 0; q < batch.n_seq_id[k]; q++) batch.seq_id[k][q] = q;
      batch.logits[k] = i == np - 1;
    }
    if (llama_decode(ln->ctx, batch)) rc = -1;
  }
  /* the copies are done by llama.cpp at the next decode (whole streams: seq_cp across streams copies buffers) */
  for (int q = 1; s->kv_split && q < n && !rc; q++) llama_memory_seq_cp(llama_get_memory(ln->ctx), 0, q, -1, -1);
  ln->stats.prompt_s += gasp_now_s() - tp;
  free(toks);
  if (rc) {
    char l[512];
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "llama.cpp failed to decode the prompt %s",
                   last_log_line(l, sizeof l));
    llama_batch_free(batch);
    return -1;
  }
  seq_state *qs = calloc((size_t)n, sizeof *qs);
  for (int q = 0; q < n; q++) {
    uint64_t seed = p->seed + (uint64_t)(first + q) + 7919u * (uint64_t)p->turn; /* as the openai backend */
    gasp_sampler_init(&qs[q].smp, p->temperature, p->top_p, p->min_p, p->top_k, seed);
    gasp_str_init(&qs[q].text);
    qs[q].batch_idx = batch.n_tokens - 1;
    qs[q].tok = -1; /* nothing drawn yet for the grammar to accept */
    if (s->grammar && s->gcache && !(qs[q].grammar = gasp_gstate_new(s->gcache)) && !rc) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "out of memory for the grammar of task '%s'", task->id);
      rc = -1;
    }
    if (qs[q].grammar && s->mon && !(qs[q].mon = gasp_mstate_new(s->mon)) && !rc) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "out of memory for the monitor of task '%s'", task->id);
      rc = -1;
    }
  }
  for (int q = 0; q < n && !rc; q++) {
    if (gasp_sample_buf_reserve(&qs[q].buf, nv)) rc = -1;
    if (qs[q].grammar) {
      qs[q].sub = malloc((size_t)nv * sizeof *qs[q].sub);
      qs[q].aid = malloc((size_t)nv * sizeof *qs[q].aid);
      qs[q].alog = malloc((size_t)nv * sizeof *qs[q].alog);
      qs[q].bits = malloc(gasp_gcache_mask_words(s->gcache) * sizeof *qs[q].bits);
      if (!qs[q].sub || !qs[q].aid || !qs[q].alog || !qs[q].bits) rc = -1;
    }
    if (rc) gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "out of memory for %d sequences' sampling", n);
  }
  seq_state **run = calloc((size_t)n, sizeof *run);
  step_ctx sc = {s, ln, run, 0, nv, ln->threads > 1 ? ln->threads : 1};
  int active = rc ? 0 : n;
  /* the grammar's phases that need no logits run while the GPU computes (s->grammar_serial: after the wait,
   * as before, for measuring the difference) */
  int ahead = s->gcache && !s->grammar_serial;
  if (active && ahead) grammar_ahead(&sc, qs, n);
  for (int step = 0; active > 0; step++) {
    gasp_gen_stats *st = &ln->stats;
    sc.nrun = 0;
    double tw = gasp_now_s(); /* the logits of the last decode: the wait for the model to finish the step */
    for (int q = 0; q < n; q++)
      if (!qs[q].done) {
        qs[q].logits = llama_get_logits_ith(ln->ctx, qs[q].batch_idx);
        run[sc.nrun++] = &qs[q];
      }
    st->wait_s += gasp_now_s() - tw;
    /* serial: the same phases for the same sequences (run is rebuilt alike), after the model finished */
    if (s->gcache && !ahead) grammar_ahead(&sc, qs, n);
    if (s->gcache) timed_run(ln->pool, sc.nrun, phase_t, &sc, &st->gcheck_s);
    timed_run(ln->pool, sc.nrun, phase_s, &sc, &st->sample_s);
    for (int i = 0; s->gcache && i < sc.nrun; i++) {
      st->allowed += run[i]->nallow + run[i]->refused;
      st->monitor_refused += run[i]->refused, st->monitor_open += run[i]->opened;
    }
    if (s->logprobs) timed_run(ln->pool, sc.nrun, phase_l, &sc, &st->sample_s);
    st->steps++;
    st->tokens += sc.nrun;
    batch.n_tokens = 0;
    for (int q = 0; q < n; q++) {
      seq_state *x = &qs[q];
      if (x->done) continue;
      llama_token tok = x->tok;
      if (tok < 0 || llama_vocab_is_eog(s->vocab, tok)) {
        x->truncated = tok < 0;
        x->done = 1;
        active--;
        continue;
      }
      char piece[256];
      int k = llama_token_to_piece(s->vocab, tok, piece, sizeof piece, 0, false);
      if (k > 0) gasp_str_append(&x->text, piece, (size_t)k);
      x->tokens++;
      int stop = ends_with_stop(&x->text, p);
      if (stop) {
        x->text.len -= (size_t)stop;
        x->text.data[x->text.len] = 0;
      }
      if (stop || x->tokens >= p->max_tokens) {
        x->truncated = !stop;
        x->done = 1;
        active--;
        continue;
      }
      int b = batch.n_tokens++;
      batch.token[b] = tok;
      batch.pos[b] = np + step;
      batch.n_seq_id[b] = 1;
      batch.seq_id[b][0] = q;
      batch.logits[b] = 1;
      x->batch_idx = b;
    }
    if (!batch.n_tokens) break;
    double td = gasp_now_s();
    int drc = llama_decode(ln->ctx, batch);
    ln->stats.decode_s += gasp_now_s() - td;
    if (drc) {
      /* no room left in the context: the sequences still running end here, marked truncated */
      for (int q = 0; q < n; q++)
        if (!qs[q].done) qs[q].done = qs[q].truncated = 1;
      break;
    }
    if (ahead) grammar_ahead(&sc, qs, n);
  }
  for (int q = 0; q < n; q++) free(qs[q].sub), free(qs[q].aid), free(qs[q].alog), free(qs[q].bits), gasp_sample_buf_free(&qs[q].buf);
  free(run);
  llama_batch_free(batch);
  double secs = gasp_now_s() - t0;
  for (int q = 0; q < n; q++) {
    if (!rc) {
      gasp_answer *a = &answers[q];
      memset(a, 0, sizeof *a);
      a->len = qs[q].text.len;
      a->text = gasp_str_take(&qs[q].text);
      a->tokens = qs[q].tokens;
      a->seconds = secs; /* each answer took the whole batch's time */
      a->truncated = qs[q].truncated;
      a->logprobs = qs[q].lp;
      a->nlogprobs = qs[q].nlp;
      qs[q].lp = NULL;
    }
    gasp_str_free(&qs[q].text);
    free(qs[q].lp);
    gasp_gstate_free(qs[q].grammar);
    gasp_mstate_free(qs[q].mon);
  }
  free(qs);
  return rc;
}

typedef struct {
  llama_state *s;
  lane *ln;
  const gasp_task *task;
  const char *prompt;
  const gasp_gen_params *p;
  int first, n, rc;
  gasp_answer *answers;
  gasp_diags d;
} lane_job;

static void *lane_main(void *arg) {
  lane_job *j = arg;
  j->rc = decode_batch(j->s, j->ln, j->task, j->prompt, j->p, j->first, j->n, j->answers, &j->d);
  return NULL;
}

/* n samples split over the lanes (samples first.. in order: lane 0 the first share), each lane on its own
 * thread. A sample's seed depends on its number only, so the split does not change what is drawn. */
static int decode_lanes(llama_state *s, const gasp_task *task, const char *prompt, const gasp_gen_params *p, int first,
                        int n, gasp_answer *answers, gasp_diags *d) {
  int nl = s->nlanes < n ? s->nlanes : n;
  if (nl <= 1) return decode_batch(s, &s->lanes[0], task, prompt, p, first, n, answers, d);
  lane_job jobs[MAX_LANES];
  pthread_t th[MAX_LANES];
  int started[MAX_LANES] = {0}, at = 0;
  double t0 = gasp_now_s();
  for (int i = 0; i < nl; i++) {
    int k = (n - at + (nl - i) - 1) / (nl - i); /* the earlier lanes take the larger shares */
    jobs[i] = (lane_job){s, &s->lanes[i], task, prompt, p, first + at, k, 0, answers + at, {0}};
    gasp_diags_init(&jobs[i].d);
    at += k;
  }
  for (int i = 1; i < nl; i++) started[i] = !pthread_create(&th[i], NULL, lane_main, &jobs[i]);
  lane_main(&jobs[0]);
  int rc = 0;
  for (int i = 1; i < nl; i++) {
    if (started[i]) pthread_join(th[i], NULL);
    else lane_main(&jobs[i]); /* no thread to be had: in turn, on this one */
  }
  for (int i = 0; i < nl; i++) {
    if (jobs[i].rc) rc = -1;
    for (size_t k = 0; k < jobs[i].d.count; k++)
      gasp_diags_add(d, jobs[i].d.items[k].sev, jobs[i].d.items[k].cls, 0, 0, "%s", jobs[i].d.items[k].msg);
    gasp_diags_free(&jobs[i].d);
  }
  if (rc) /* all or nothing: the answers some lane made are freed, as when one batch fails */
    for (int i = 0; i < nl; i++)
      if (!jobs[i].rc)
        for (int k = 0; k < jobs[i].n; k++) gasp_answer_free(&jobs[i].answers[k]);
  double secs = gasp_now_s() - t0;
  for (int k = 0; !rc && k < n; k++) answers[k].seconds = secs; /* each answer took the whole batch's time */
  return rc;
}

/* Every token's text, once, for the monitor (which reads the text of every allowed token at every draw). */
static int pieces_build(llama_state *s) {
  int nv = llama_vocab_n_tokens(s->vocab);
  gasp_str all;
  gasp_str_init(&all);
  s->piece_at = malloc(((size_t)nv + 1) * sizeof *s->piece_at);
  if (!s->piece_at) return -1;
  for (int v = 0; v < nv; v++) {
    char buf[256];
    int k = llama_token_to_piece(s->vocab, v, buf, sizeof buf, 0, false);
    s->piece_at[v] = (int)all.len;
    if (k > 0) gasp_str_append(&all, buf, (size_t)k);
  }
  s->piece_at[nv] = (int)all.len;
  s->pieces = gasp_str_take(&all);
  return s->pieces ? 0 : -1;
}

static int llama_generate(gasp_backend *b, const gasp_target *t, const gasp_task *task, const char *prompt,
                          const gasp_gen_params *p, int sample, gasp_answer *out, gasp_diags *d) {
  llama_state *s = b->state;
  memset(out, 0, sizeof *out);
  if (p->max_tokens <= 0) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "max tokens must be positive");
    return -1;
  }
  /* decoded ahead in an earlier batch? */
  if (s->cache_prompt && !strcmp(s->cache_prompt, prompt) && p->turn == 0 && sample >= s->cache_first &&
      sample < s->cache_first + s->cache_n && s->cache[sample - s->cache_first].text) {
    *out = s->cache[sample - s->cache_first];
    memset(&s->cache[sample - s->cache_first], 0, sizeof *out);
    return 0;
  }
  if (s->grammar && (strcmp(s->cache_task, task->id) || s->cache_target != t)) {
    free(s->grammar_text);
    s->grammar_text = NULL;
    if (!t->grammar) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "target '%s' has no grammar (use --grammar off)", t->name);
      return -1;
    }
    s->grammar_text = t->grammar(t, task, d);
    if (!s->grammar_text) return -1;
    /* compiled once per task: its samples' sequences start from clones and share the masks of its states */
    gasp_gcache_free(s->gcache);
    log_reset();
    s->gcache = gasp_gcache_new(s->vocab, s->grammar_text, "root", s->gcache_bytes);
    if (!s->gcache) {
      char l[512];
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "the grammar for task '%s' failed to compile: %s",
                     task->id, last_log_line(l, sizeof l));
      free(s->grammar_text);
      s->grammar_text = NULL;
      s->cache_task[0] = 0;
      return -1;
    }
    gasp_strlcpy(s->cache_task, task->id, sizeof s->cache_task);
    s->cache_target = t;
    gasp_monitor_free(s->mon);
    s->mon = s->monitor ? gasp_monitor_new(t, task) : NULL;
    if (s->mon && !s->pieces && pieces_build(s)) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "out of memory for the vocabulary's texts");
      gasp_monitor_free(s->mon);
      s->mon = NULL;
      s->cache_task[0] = 0;
      return -1;
    }
  }
  if (s->gcache && s->gcache_cold) gasp_gcache_clear(s->gcache);
  /* a repair turn's prompt quotes its own sample's failure: nothing to share, and the samples decoded
   * ahead for the first turn stay cached */
  if (p->turn > 0) return decode_batch(s, &s->lanes[0], task, prompt, p, sample, 1, out, d);
  cache_clear(s);
  int total = p->n_samples > 0 ? p->n_samples : 1;
  int n = total - sample;
  if (n > s->parallel) n = s->parallel;
  if (n < 1) n = 1;
  if (n > (int)(sizeof s->cache / sizeof s->cache[0])) n = (int)(sizeof s->cache / sizeof s->cache[0]);
  if (decode_lanes(s, task, prompt, p, sample, n, s->cache, d)) return -1;
  s->cache_first = sample;
  s->cache_n = n;
  s->cache_prompt = gasp_strdup(prompt);
  *out = s->cache[0];
  memset(&s->cache[0], 0, sizeof *out);
  return 0;
}

void gasp_llama_sampler_bench(int nv, int iters, double temperature, double top_p, double *ours_us, double *llama_us) {
  float *logits = malloc((size_t)nv * sizeof *logits);
  llama_token_data *cand = malloc((size_t)nv * sizeof *cand);
  uint64_t x = 88172645463325252ULL;
  gasp_sample_buf buf = {0};
  gasp_sampler smp;
  gasp_sampler_init(&smp, temperature, top_p, 0, 0, 1);
  struct llama_sampler_chain_params cp = llama_sampler_chain_default_params();
  cp.no_perf = true;
  struct llama_sampler *chain = llama_sampler_chain_init(cp);
  if (top_p > 0 && top_p < 1) llama_sampler_chain_add(chain, llama_sampler_init_top_p((float)top_p, 1));
  llama_sampler_chain_add(chain, llama_sampler_init_temp((float)temperature));
  llama_sampler_chain_add(chain, llama_sampler_init_dist(1));
  double t_ours = 0, t_llama = 0;
  long sink = 0;
  for (int it = 0; it < iters; it++) {
    /* fresh logits each token, a model-like spread of about 12 with a few tokens above it */
    for (int v = 0; v < nv; v++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      logits[v] = (float)((double)(x >> 11) * 0x1.0p-53 * 12.0 - 6.0) + (v % 997 == 0 ? 8.0f : 0.0f);
    }
    double t0 = gasp_now_s();
    sink += gasp_sampler_draw(&smp, logits, NULL, nv, &buf);
    double t1 = gasp_now_s();
    /* what llama.c did before: the candidate array of the whole vocabulary, then the chain */
    for (int v = 0; v < nv; v++) cand[v] = (llama_token_data){v, logits[v], 0.0f};
    llama_token_data_array arr = {cand, (size_t)nv, -1, false};
    llama_sampler_apply(chain, &arr);
    sink += arr.data[arr.selected].id;
    double t2 = gasp_now_s();
    t_ours += t1 - t0, t_llama += t2 - t1;
  }
  (void)sink;
  *ours_us = 1e6 * t_ours / iters, *llama_us = 1e6 * t_llama / iters;
  llama_sampler_free(chain);
  gasp_sample_buf_free(&buf);
  free(logits), free(cand);
}

static void llama_stats(gasp_backend *b, gasp_gen_stats *out) {
  llama_state *s = b->state;
  memset(out, 0, sizeof *out);
  /* summed over the lanes: with several, their phases overlap in time (lanes says how many) */
  for (int i = 0; i < s->nlanes; i++) gasp_gen_stats_add(out, &s->lanes[i].stats, 1);
  out->lanes = s->nlanes;
  if (s->gcache) {
    gasp_gcache_counts k;
    gasp_gcache_get_counts(s->gcache, &k);
    out->cache_entries = k.entries;
    out->cache_bytes = k.bytes;
  }
}

gasp_backend *gasp_backend_llama_open(const gasp_backend_opts *o, char *err, size_t cap) {
  const char *path = o->model && *o->model ? o->model : getenv("GASP_MODEL");
  if (!path || !*path) {
    snprintf(err, cap, "the llama backend needs a model: --model PATH.gguf or GASP_MODEL (gasp mkmodel makes a "
                       "random-weight one for tests)");
    return NULL;
  }
  struct stat st;
  if (stat(path, &st) || !S_ISREG(st.st_mode)) {
    snprintf(err, cap, "model file '%s' not found", path);
    return NULL;
  }
  FILE *f = fopen(path, "rb");
  char magic[4] = {0};
  if (!f || fread(magic, 1, 4, f) != 4 || memcmp(magic, "GGUF", 4)) {
    if (f) fclose(f);
    snprintf(err, cap, "'%s' is not a GGUF model file (it does not start with 'GGUF')", path);
    return NULL;
  }
  fclose(f);
  /* on the CPU the weights must fit in memory (mmap would otherwise thrash until the OOM killer comes) */
  long long avail = mem_available_bytes();
  if (o->gpu_layers == 0 && avail > 0 && (long long)st.st_size > avail) {
    snprintf(err, cap, "model '%s' is %.1f GiB but only %.1f GiB of memory is available", path,
             st.st_size / 1073741824.0, avail / 1073741824.0);
    return NULL;
  }
  llama_log_set(on_log, NULL);
  ggml_set_abort_callback(on_abort);
  llama_backend_init();
  struct llama_model_params mp = llama_model_default_params();
  mp.n_gpu_layers = o->gpu_layers;
  log_reset();
  struct llama_model *m = llama_model_load_from_file(path, mp);
  if (!m) {
    char l[512];
    snprintf(err, cap, "llama.cpp could not load '%s' (corrupt or unsupported model?): %s", path,
             last_log_line(l, sizeof l));
    return NULL;
  }
  llama_state *s = calloc(1, sizeof *s);
  s->model = m;
  s->vocab = llama_model_get_vocab(m);
  s->parallel = o->parallel > 0 ? o->parallel : 1;
  if (s->parallel > 64) s->parallel = 64;
  s->threads = o->threads > 0 ? o->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
  s->kv_split = o->kv_split;
  s->grammar_serial = o->grammar_serial;
  s->logprobs = o->logprobs;
  s->grammar = o->grammar;
  s->monitor = o->grammar && o->monitor;
  s->prompt_ctx = o->n_ctx > 0 ? o->n_ctx : PROMPT_CTX_DEFAULT;
  /* by default two when the model runs on a GPU and a batch is big enough to share: on the H200, 32 sequences
   * in two lanes gave 12-13x one sequence's rate where one lane gave 8.4-9.8x (docs/measurements-h200.md); on
   * CPU cores the lanes only compete for them */
  int want = o->lanes > 0 ? o->lanes : (o->gpu_layers != 0 && s->parallel >= 8 ? 2 : 1);
  s->nlanes = want < MAX_LANES ? want : MAX_LANES;
  if (s->nlanes > s->parallel) s->nlanes = s->parallel;
  /* lanes share the cores: each gets its part for llama.cpp's threads and its sampling pool */
  for (int i = 0; i < s->nlanes; i++) {
    lane *ln = &s->lanes[i];
    ln->threads = s->threads / s->nlanes > 0 ? s->threads / s->nlanes : 1;
    ln->pool = gasp_fjpool_open(ln->threads);
  }
  /* 64 MiB of masks by default: 16k states of a 32k vocabulary, 3.4k of Qwen2's 152k */
  s->gcache_cold = o->grammar_cache_cold;
  s->gcache_bytes = o->grammar_cache_mb < 0 ? 0 : (size_t)(o->grammar_cache_mb ? o->grammar_cache_mb : 64) << 20;
  gasp_backend *b = calloc(1, sizeof *b);
  b->name = "llama";
  const char *base = strrchr(path, '/');
  gasp_strlcpy(b->model, base ? base + 1 : path, sizeof b->model);
  b->state = s;
  b->generate = llama_generate;
  b->close = llama_close;
  b->stats = llama_stats;
  b->grammar = o->grammar;
  b->monitor = o->grammar && o->monitor;
  return b;
}
