/* Model backends: where answers come from. A backend is a small set of functions behind one struct;
 * `reference` (the vendor compiler's output), `files` (answers produced elsewhere), `openai` (any
 * OpenAI-compatible server), `llama` (llama.cpp embedded, see llama.c). */
#ifndef GASP_BACKEND_H
#define GASP_BACKEND_H

#include <stdint.h>

#include "../core/diag.h"
#include "../target/target.h"
#include "../task/task.h"

typedef struct {
  double temperature;   /* default 0.2 */
  double top_p;         /* default 0.95 */
  int top_k;            /* llama: 0 = off (default) */
  double min_p;         /* llama: 0 = off (default) */
  int n_samples;        /* samples of this prompt in the run; llama decodes up to its --parallel of them at once */
  int max_tokens;       /* default 2048 */
  uint64_t seed;
  const char *stop[4];  /* NULL-terminated */
  int chat;             /* openai: use /chat/completions rather than raw /completions */
  int turn;             /* 0: first answer; k > 0: the k-th repair turn (the prompt then quotes the failure) */
} gasp_gen_params;

void gasp_gen_params_default(gasp_gen_params *p);

/* The log-probability of one generated token and its strongest alternatives, under the model's own
 * distribution (raw logits, temperature 1), whatever the sampler then did: the source article studied
 * how confident a model is in each opcode. */
typedef struct {
  char piece[32];       /* the token's text (truncated) */
  int token;
  float logprob;
} gasp_tok_prob;

typedef struct {
  gasp_tok_prob chosen;
  gasp_tok_prob top[5];
  int ntop;
} gasp_tok_logprob;

typedef struct {
  char *text;           /* malloc'ed */
  size_t len;           /* bytes in text (it may hold NUL bytes); 0: strlen(text) */
  int tokens;           /* generated tokens when the backend knows, else 0 */
  double seconds;
  gasp_tok_logprob *logprobs;  /* malloc'ed, one per generated token, or NULL */
  int nlogprobs;
  int truncated;        /* generation stopped at max tokens or a full context, not at its end */
} gasp_answer;

typedef struct {
  const char *answers;  /* files: a directory or a .jsonl file */
  const char *url;      /* openai: base URL, e.g. http://127.0.0.1:8080/v1, or several, comma-separated (a pool) */
  const char *model;    /* openai: model name */
  const char *key_env;  /* openai: environment variable holding the API key (default GASP_API_KEY) */
  int timeout_s;        /* openai: per request */
  int retries;          /* openai: on 429/5xx/connection errors, with exponential backoff */
  /* llama: `model` is the GGUF path */
  int gpu_layers;       /* layers offloaded to the GPU (-1 all, 0 none: the default) */
  int n_ctx;            /* context for the prompt (0: 4096); generation room is added per parallel sequence */
  int parallel;         /* sequences decoded together in one batch (0: 1) */
  int grammar;          /* decode under the target's GBNF grammar */
  int monitor;          /* llama, with grammar: also under the target's decoding monitor (src/grammar/monitor.h) */
  int logprobs;         /* record token log-probabilities */
  int threads;          /* CPU threads (0: all cores) */
  int grammar_cache_mb; /* llama: memory for cached grammar masks, MiB (0: 64; negative: none, every mask computed) */
  int grammar_cache_cold; /* llama: forget the masks before each batch (measures a task's first batch) */
  int kv_split;         /* llama: one KV stream per sequence, the prompt copied into each (else one shared cache) */
  int lanes;            /* llama: contexts decoding shares of a batch on their own threads, so one's host work
                         * overlaps another's step on the GPU (0: 2 with GPU layers and 8+ parallel, else 1) */
  int grammar_serial;   /* llama: accept and find the next masks after waiting for the logits, not while the GPU
                         * computes the step (the order before; genspeed --grammar all measures both) */
  int endpoint_limit;   /* openai: requests in flight per endpoint unless its URL#N says; 0: no limit */
  void (*notice)(const char *msg); /* openai: endpoint health changes (never the key); may be NULL */
} gasp_backend_opts;

/* Where a backend's generation time went (llama): totals since it opened. A step is one decode of every
 * running sequence; the phases are wall time on the calling thread, each spread over the sampling threads. */
typedef struct {
  long steps, tokens;      /* decode steps after the prompt; tokens sampled in them */
  double prompt_s;         /* the prompts' decodes */
  double decode_s;         /* the steps' decodes (llama_decode: building and launching the step) */
  double wait_s;           /* waiting for the steps' logits (the model finishing the step) */
  double sample_s;         /* the sampler: the draws, log-probabilities */
  double gcheck_s;         /* the mask cache's lookups and the allowed tokens listed, the first-byte prefilter */
  double gmask_s;          /* the grammar over the prefilter's candidates (cache misses), storing the mask */
  double gaccept_s;        /* the grammar advancing over the chosen tokens */
  long masks;              /* tokens drawn under a grammar: each needs the mask of allowed tokens */
  long mask_hits;          /* of those, masks found in the cache */
  long allowed;            /* the tokens those masks allowed, summed (the draws' candidates) */
  long monitor_refused;    /* of those, tokens the decoding monitor took away */
  long monitor_open;       /* draws where the monitor refused every allowed token and was overruled (a dead end) */
  int lanes;               /* lanes whose totals these are: their phases overlap in time */
  long cache_entries;      /* masks cached now, and their memory */
  size_t cache_bytes;
} gasp_gen_stats;

/* a += sign * b over the totals (counts and times; lanes and the cache's size are levels, kept from a): sums
 * over lanes, differences between two readings. */
void gasp_gen_stats_add(gasp_gen_stats *a, const gasp_gen_stats *b, int sign);

typedef struct gasp_backend gasp_backend;
struct gasp_backend {
  const char *name;
  char model[128];      /* recorded in results */
  void *state;
  /* Produces one answer for `sample` of (task, target, prompt). Returns 0, or -1 with a diagnostic
   * (the candidate is then recorded with class `error` and the message). */
  int (*generate)(gasp_backend *b, const gasp_target *t, const gasp_task *task, const char *prompt,
                  const gasp_gen_params *p, int sample, gasp_answer *out, gasp_diags *d);
  void (*close)(gasp_backend *b);
  void (*stats)(gasp_backend *b, gasp_gen_stats *out); /* optional (NULL): where the time went */
  int grammar;          /* answers are decoded under a grammar (recorded in results) */
  int monitor;          /* and under a decoding monitor where the target has one for the task (recorded) */
};

void gasp_answer_free(gasp_answer *a);

#ifdef GASP_HAVE_LLAMA
/* The llama backend's sampler (sample.h) against the llama.cpp chain it replaced, side by side on the same
 * random logits of an nv-token vocabulary: microseconds per token for each (temperature, top-p as given). */
void gasp_llama_sampler_bench(int nv, int iters, double temperature, double top_p, double *ours_us, double *llama_us);
#endif

/* Opens a backend by name. Returns NULL with a message in err when the name is unknown or it cannot start. */
gasp_backend *gasp_backend_open(const char *name, const gasp_backend_opts *o, char *err, size_t errcap);
void gasp_backend_close(gasp_backend *b);
const char *const *gasp_backend_names(void);

#endif
