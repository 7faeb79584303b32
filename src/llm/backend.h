/* Model backends: where answers come from. A backend is a small set of functions behind one struct;
 * `reference` (the vendor compiler's output), `files` (answers produced elsewhere), `openai` (any
 * OpenAI-compatible server). The embedded llama.cpp backend plugs in the same way. */
#ifndef GASP_BACKEND_H
#define GASP_BACKEND_H

#include <stdint.h>

#include "../core/diag.h"
#include "../target/target.h"
#include "../task/task.h"

typedef struct {
  double temperature;   /* default 0.2 */
  double top_p;         /* default 0.95 */
  int max_tokens;       /* default 2048 */
  uint64_t seed;
  const char *stop[4];  /* NULL-terminated */
  int chat;             /* openai: use /chat/completions rather than raw /completions */
  int turn;             /* 0: first answer; k > 0: the k-th repair turn (the prompt then quotes the failure) */
} gasp_gen_params;

void gasp_gen_params_default(gasp_gen_params *p);

typedef struct {
  char *text;           /* malloc'ed */
  size_t len;           /* bytes in text (it may hold NUL bytes); 0: strlen(text) */
  int tokens;           /* generated tokens when the backend knows, else 0 */
  double seconds;
} gasp_answer;

typedef struct {
  const char *answers;  /* files: a directory or a .jsonl file */
  const char *url;      /* openai: base URL, e.g. http://127.0.0.1:8080/v1, or several, comma-separated (a pool) */
  const char *model;    /* openai: model name */
  const char *key_env;  /* openai: environment variable holding the API key (default GASP_API_KEY) */
  int timeout_s;        /* openai: per request */
  int retries;          /* openai: on 429/5xx/connection errors, with exponential backoff */
  int endpoint_limit;   /* openai: requests in flight per endpoint unless its URL#N says; 0: no limit */
  void (*notice)(const char *msg); /* openai: endpoint health changes (never the key); may be NULL */
} gasp_backend_opts;

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
};

/* Opens a backend by name. Returns NULL with a message in err when the name is unknown or it cannot start. */
gasp_backend *gasp_backend_open(const char *name, const gasp_backend_opts *o, char *err, size_t errcap);
void gasp_backend_close(gasp_backend *b);
const char *const *gasp_backend_names(void);

#endif
