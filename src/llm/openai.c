/* The `openai` backend: any OpenAI-compatible server (llama-server, vLLM, Ollama, hosted APIs) through
 * libcurl. Raw /completions by default, the source article's choice (a chat template can corrupt raw
 * assembly); /chat/completions on request. The API key comes from an environment variable and is never
 * logged or written to results. Responses are parsed with jansson and bounded in size. Several URLs make a
 * pool (endpoints.h): each request takes the least busy healthy endpoint and fails over past dead ones. */
#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/util.h"
#include "../extract/extract.h"
#include "backend.h"
#include "endpoints.h"

#define MAX_RESPONSE_BYTES (8u << 20)

typedef struct {
  gasp_endpoints *pool;
  char model[128];
  char key_env[64];
  int timeout_s, retries;
} openai_state;

typedef struct {
  gasp_str body;
  int overflow;
} sink;

static size_t on_data(char *p, size_t sz, size_t n, void *u) {
  sink *s = u;
  size_t k = sz * n;
  if (s->body.len + k > MAX_RESPONSE_BYTES) {
    s->overflow = 1;
    return 0;
  }
  gasp_str_append(&s->body, p, k);
  return k;
}

static char *build_request(const openai_state *s, const char *prompt, const gasp_gen_params *p) {
  json_t *o = json_object();
  json_object_set_new(o, "model", json_string(s->model));
  if (p->chat) {
    json_t *msgs = json_array(), *m = json_object();
    json_object_set_new(m, "role", json_string("user"));
    json_object_set_new(m, "content", json_string(prompt));
    json_array_append_new(msgs, m);
    json_object_set_new(o, "messages", msgs);
  } else {
    json_object_set_new(o, "prompt", json_string(prompt));
  }
  json_object_set_new(o, "temperature", json_real(p->temperature));
  json_object_set_new(o, "top_p", json_real(p->top_p));
  json_object_set_new(o, "max_tokens", json_integer(p->max_tokens));
  json_object_set_new(o, "seed", json_integer((json_int_t)(p->seed & 0x7fffffff)));
  json_object_set_new(o, "n", json_integer(1));
  if (p->stop[0]) {
    json_t *st = json_array();
    for (int i = 0; i < 4 && p->stop[i]; i++) json_array_append_new(st, json_string(p->stop[i]));
    json_object_set_new(o, "stop", st);
  }
  char *r = json_dumps(o, JSON_COMPACT);
  json_decref(o);
  return r;
}

/* Pulls the answer text and token count out of a completions or chat response. */
static int parse_response(const char *body, int chat, gasp_answer *out, char *err, size_t cap) {
  json_error_t je;
  json_t *o = json_loads(body, 0, &je);
  if (!o) {
    snprintf(err, cap, "response is not JSON (line %d: %s)", je.line, je.text);
    return -1;
  }
  json_t *e = json_object_get(o, "error");
  if (e) {
    const char *m = json_string_value(json_object_get(e, "message"));
    snprintf(err, cap, "server error: %.300s", m ? m : json_string_value(e) ? json_string_value(e) : "(no message)");
    json_decref(o);
    return -1;
  }
  json_t *c0 = json_array_get(json_object_get(o, "choices"), 0);
  const char *text = chat ? json_string_value(json_object_get(json_object_get(c0, "message"), "content"))
                          : json_string_value(json_object_get(c0, "text"));
  if (!text) {
    snprintf(err, cap, "response has no choices[0].%s", chat ? "message.content" : "text");
    json_decref(o);
    return -1;
  }
  out->text = gasp_strdup(text);
  out->tokens = (int)json_integer_value(json_object_get(json_object_get(o, "usage"), "completion_tokens"));
  json_decref(o);
  return 0;
}

static int openai_generate(gasp_backend *b, const gasp_target *t, const gasp_task *task, const char *prompt,
                           const gasp_gen_params *p, int sample, gasp_answer *out, gasp_diags *d) {
  (void)t; (void)task;
  openai_state *s = b->state;
  memset(out, 0, sizeof *out);
  gasp_gen_params pp = *p;
  pp.seed = p->seed + (uint64_t)sample + 7919u * (uint64_t)p->turn;
  char *req = build_request(s, prompt, &pp);
  const char *key = getenv(s->key_env);
  char auth[1024] = "";
  if (key && *key) snprintf(auth, sizeof auth, "Authorization: Bearer %s", key);
  double t0 = gasp_now_s();
  int rc = -1, backoffs = 0;
  char err[512] = "";
  /* one endpoint: retries + 1 attempts, each retry after a backoff (as before pools). Several: a failed
   * endpoint is skipped for this request at once; the backoff only comes once every endpoint has failed it. */
  int nep = gasp_endpoints_count(s->pool), attempts = s->retries + nep;
  unsigned long long tried = 0;
  for (int attempt = 0; attempt < attempts; attempt++) {
    int e = gasp_endpoints_acquire(s->pool, tried);
    if ((tried >> e) & 1) {
      /* exponential backoff: 0.5 s, 1 s, 2 s, ... capped at 16 s */
      double wait = 0.5 * (double)(1 << (backoffs < 5 ? backoffs : 5));
      backoffs++;
      struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
      nanosleep(&ts, NULL);
    }
    char url[600];
    snprintf(url, sizeof url, "%s/%s", gasp_endpoints_url(s->pool, e), p->chat ? "chat/completions" : "completions");
    CURL *c = curl_easy_init();
    struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
    if (auth[0]) h = curl_slist_append(h, auth);
    sink sk;
    gasp_str_init(&sk.body);
    sk.overflow = 0;
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, req);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &sk);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, (long)s->timeout_s);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    CURLcode cr = curl_easy_perform(c);
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    int retry = 0, healthy = 1;
    if (sk.overflow) {
      snprintf(err, sizeof err, "response larger than %u bytes", MAX_RESPONSE_BYTES);
    } else if (cr != CURLE_OK) {
      snprintf(err, sizeof err, "request to %.300s failed: %s", url, curl_easy_strerror(cr));
      retry = 1;
      healthy = 0;
    } else if (status == 429 || status >= 500) {
      snprintf(err, sizeof err, "server answered HTTP %ld: %.200s", status, sk.body.data ? sk.body.data : "");
      retry = 1;
      healthy = status == 429; /* busy, not broken: not set aside, but the next request may go elsewhere */
    } else if (status != 200) {
      snprintf(err, sizeof err, "server answered HTTP %ld: %.200s", status, sk.body.data ? sk.body.data : "");
    } else if (parse_response(sk.body.data ? sk.body.data : "", p->chat, out, err, sizeof err) == 0) {
      rc = 0;
    }
    char why[200];
    snprintf(why, sizeof why, "%s", cr != CURLE_OK ? curl_easy_strerror(cr) : "HTTP error");
    if (cr == CURLE_OK && status) snprintf(why, sizeof why, "HTTP %ld", status);
    gasp_endpoints_release(s->pool, e, healthy, why);
    gasp_str_free(&sk.body);
    if (rc == 0 || !retry) break;
    tried |= 1ull << e;
  }
  free(req);
  out->seconds = gasp_now_s() - t0;
  if (rc) gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "%s", err);
  return rc;
}

static void openai_close(gasp_backend *b) {
  openai_state *s = b->state;
  gasp_endpoints_close(s->pool);
  free(s);
}

gasp_backend *gasp_backend_openai_open(const gasp_backend_opts *o, char *err, size_t cap) {
  const char *url = o && o->url ? o->url : getenv("GASP_OPENAI_URL");
  if (!url || !*url) {
    snprintf(err, cap, "the openai backend needs --url (e.g. http://127.0.0.1:8080/v1) or GASP_OPENAI_URL");
    return NULL;
  }
  static int curl_ready;
  if (!curl_ready) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    curl_ready = 1;
  }
  openai_state *s = calloc(1, sizeof *s);
  s->pool = gasp_endpoints_open(url, o ? o->endpoint_limit : 0, o ? o->notice : NULL, err, cap);
  if (!s->pool) {
    free(s);
    return NULL;
  }
  const char *model = o && o->model ? o->model : getenv("GASP_OPENAI_MODEL");
  gasp_strlcpy(s->model, model && *model ? model : "default", sizeof s->model);
  gasp_strlcpy(s->key_env, o && o->key_env ? o->key_env : "GASP_API_KEY", sizeof s->key_env);
  s->timeout_s = o && o->timeout_s > 0 ? o->timeout_s : 300;
  s->retries = o && o->retries >= 0 ? o->retries : 3;
  gasp_backend *b = calloc(1, sizeof *b);
  b->name = "openai";
  gasp_strlcpy(b->model, s->model, sizeof b->model);
  b->state = s;
  b->generate = openai_generate;
  b->close = openai_close;
  return b;
}
