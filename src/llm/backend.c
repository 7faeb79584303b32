/* Backend registry. */
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gasp_backend *gasp_backend_reference_open(const gasp_backend_opts *o, char *err, size_t cap);
gasp_backend *gasp_backend_files_open(const gasp_backend_opts *o, char *err, size_t cap);
gasp_backend *gasp_backend_openai_open(const gasp_backend_opts *o, char *err, size_t cap);
#ifdef GASP_HAVE_LLAMA
gasp_backend *gasp_backend_llama_open(const gasp_backend_opts *o, char *err, size_t cap);
#else
static gasp_backend *gasp_backend_llama_open(const gasp_backend_opts *o, char *err, size_t cap) {
  (void)o;
  snprintf(err, cap, "this gasp was built without llama.cpp: run tools/llama-build.sh (setup.sh does), then rebuild");
  return NULL;
}
#endif

static const struct {
  const char *name;
  gasp_backend *(*open)(const gasp_backend_opts *, char *, size_t);
} table[] = {
    {"reference", gasp_backend_reference_open},
    {"files", gasp_backend_files_open},
    {"openai", gasp_backend_openai_open},
    {"llama", gasp_backend_llama_open},
};

static const char *const names[] = {"reference", "files", "openai", "llama", NULL};

const char *const *gasp_backend_names(void) { return names; }

void gasp_gen_params_default(gasp_gen_params *p) {
  memset(p, 0, sizeof *p);
  p->temperature = 0.2;
  p->top_p = 0.95;
  p->max_tokens = 2048;
}

gasp_backend *gasp_backend_open(const char *name, const gasp_backend_opts *o, char *err, size_t cap) {
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(table[i].name, name)) return table[i].open(o, err, cap);
  snprintf(err, cap, "unknown backend '%s' (reference, files, openai, llama)", name);
  return NULL;
}

void gasp_gen_stats_add(gasp_gen_stats *a, const gasp_gen_stats *b, int sign) {
  a->steps += sign * b->steps, a->tokens += sign * b->tokens, a->masks += sign * b->masks;
  a->mask_hits += sign * b->mask_hits, a->allowed += sign * b->allowed;
  a->prompt_s += sign * b->prompt_s, a->decode_s += sign * b->decode_s, a->wait_s += sign * b->wait_s;
  a->sample_s += sign * b->sample_s, a->gcheck_s += sign * b->gcheck_s, a->gmask_s += sign * b->gmask_s;
  a->gaccept_s += sign * b->gaccept_s;
  a->monitor_refused += sign * b->monitor_refused, a->monitor_open += sign * b->monitor_open;
}

void gasp_answer_free(gasp_answer *a) {
  free(a->text);
  free(a->logprobs);
  memset(a, 0, sizeof *a);
}

void gasp_backend_close(gasp_backend *b) {
  if (!b) return;
  if (b->close) b->close(b);
  free(b);
}
