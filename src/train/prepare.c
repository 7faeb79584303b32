/* train prepare (see prepare.h). */
#define _GNU_SOURCE
#include "prepare.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "../core/util.h"
#include "../llm/mkmodel.h"
#include "llama.h"

static void quiet_log(enum ggml_log_level level, const char *text, void *user) {
  (void)level, (void)user;
  if (getenv("GASP_LLAMA_VERBOSE")) fputs(text, stderr);
}

typedef struct {
  llama_token *v;
  int n, cap;
} toks_t;

static int toks_reserve(toks_t *t, int need) {
  if (t->cap >= need) return 0;
  int cap = t->cap ? t->cap : 256;
  while (cap < need) cap *= 2;
  llama_token *v = realloc(t->v, (size_t)cap * sizeof *v);
  if (!v) return -1;
  t->v = v, t->cap = cap;
  return 0;
}

/* text's tokens into t; special: as src/llm/llama.c tokenizes a raw prompt (BOS per the vocab), else no BOS; special
 * tokens are never parsed */
static int tokenize_as(const struct llama_vocab *vocab, const char *text, size_t len, int special, toks_t *t) {
  if (toks_reserve(t, (int)len + 16)) return -1;
  t->n = llama_tokenize(vocab, text, (int32_t)len, t->v, t->cap, special, false);
  if (t->n < 0) {
    if (toks_reserve(t, -t->n)) return -1;
    t->n = llama_tokenize(vocab, text, (int32_t)len, t->v, t->cap, special, false);
  }
  return t->n < 0 ? -1 : 0;
}

static int tokenize(const struct llama_vocab *vocab, const char *text, size_t len, toks_t *t) {
  return tokenize_as(vocab, text, len, 1, t);
}

/* ---- the line cache ----
 * Why: every prompt carries the same ISA facts, constraints and notes (about 3 KB), and tokenizing 441,451 samples
 * (632M tokens) took 130 s of each 570 s device call of 2026-12-07 (tools/train/README.md, "The twentieth run"),
 * the prompt twice each (alone and with its completion). 92-95% of the bytes of a 2,000-sample chunk are lines seen
 * before in it. With llama.cpp's SentencePiece tokenizer a line's tokens do not depend on the lines around it when no
 * piece of the vocabulary contains a newline: the merges are of adjacent pieces, so none crosses the newline, which
 * is its own byte token <0x0A>; the space prefix is added once, before the first line. So the tokens of
 * "L0\nL1\n..." are those of L0 (BOS and prefix as the whole text's), then for each later line <0x0A> and the
 * tokens of "\nLi" past those of "\n" alone. cache_usable() checks the conditions on the vocabulary (else every
 * text is tokenized whole), and the tests compare both ways byte for byte on real pairs (train_cli.sh). */
#define LINE_SLOTS (1u << 16)

typedef struct {
  char *key; /* the line, and a first byte 1 for a first line (BOS and prefix), 0 for a later one */
  size_t klen;
  llama_token *v;
  int n;
} line_ent;

typedef struct {
  line_ent *e; /* LINE_SLOTS entries, direct-mapped: a colliding line replaces the one there */
  llama_token nl[2]; /* the tokens of "\n" alone: the space prefix and <0x0A> */
  long hits, misses;
} line_cache;

static int cache_usable(const struct llama_vocab *vocab, llama_token nl[2]) {
  if (llama_vocab_type(vocab) != LLAMA_VOCAB_TYPE_SPM) return 0;
  int n = llama_vocab_n_tokens(vocab);
  for (llama_token i = 0; i < n; i++) {
    if (llama_vocab_get_attr(vocab, i) & LLAMA_TOKEN_ATTR_USER_DEFINED) return 0; /* parsed out of raw text */
    if (llama_vocab_get_attr(vocab, i) & LLAMA_TOKEN_ATTR_BYTE) continue;      /* <0x0A> is the newline's */
    const char *t = llama_vocab_get_text(vocab, i);
    if (t && strchr(t, '\n')) return 0;
  }
  llama_token v[8];
  return llama_tokenize(vocab, "\n", 1, v, 8, false, false) == 2 && (nl[0] = v[0], nl[1] = v[1], 1);
}

/* FNV-1a of the flag byte, then the line */
static uint64_t line_hash(int first, const char *p, size_t n) {
  uint64_t h = (1469598103934665603ull ^ (unsigned char)first) * 1099511628211ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
  return h;
}

/* the tokens of one line (first: with BOS and the space prefix, as a text's first line) appended to out */
static int line_tokens(const struct llama_vocab *vocab, line_cache *c, const char *s, size_t n, int first, toks_t *out,
                       toks_t *tmp, gasp_str *buf) {
  line_ent *e = &c->e[line_hash(first, s, n) & (LINE_SLOTS - 1)];
  if (!(e->key && e->klen == n + 1 && e->key[0] == first && !memcmp(e->key + 1, s, n))) {
    c->misses++;
    int skip = 0;
    if (first) {
      if (tokenize(vocab, s, n, tmp)) return -1;
    } else {
      buf->len = 0;
      gasp_str_append(buf, "\n", 1);
      gasp_str_append(buf, s, n);
      if (tokenize_as(vocab, buf->data, buf->len, 0, tmp) || tmp->n < 2 || tmp->v[0] != c->nl[0] ||
          tmp->v[1] != c->nl[1])
        return -1;
      skip = 2;
    }
    char *key = malloc(n + 1);
    llama_token *v = malloc((size_t)(tmp->n - skip + 1) * sizeof *v);
    if (!key || !v) {
      free(key), free(v);
      return -1;
    }
    key[0] = (char)first;
    memcpy(key + 1, s, n);
    memcpy(v, tmp->v + skip, (size_t)(tmp->n - skip) * sizeof *v);
    free(e->key), free(e->v);
    *e = (line_ent){key, n + 1, v, tmp->n - skip};
  } else
    c->hits++;
  if (toks_reserve(out, out->n + e->n + 1)) return -1;
  if (!first) out->v[out->n++] = c->nl[1];
  memcpy(out->v + out->n, e->v, (size_t)e->n * sizeof *e->v);
  out->n += e->n;
  return 0;
}

/* text's tokens, as tokenize() gives them, line by line through the cache (c NULL: whole) */
static int tokenize_cached(const struct llama_vocab *vocab, line_cache *c, const char *text, size_t len, toks_t *t,
                           toks_t *tmp, gasp_str *buf) {
  if (!c || !len || text[0] == '\n') return tokenize(vocab, text, len, t);
  t->n = 0;
  for (size_t pos = 0, first = 1;; first = 0) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    size_t end = nl ? (size_t)(nl - text) : len;
    if (line_tokens(vocab, c, text + pos, end - pos, (int)first, t, tmp, buf)) return tokenize(vocab, text, len, t);
    if (!nl) return 0;
    pos = end + 1;
  }
}

static void cache_free(line_cache *c) {
  if (!c || !c->e) return;
  for (size_t i = 0; i < LINE_SLOTS; i++) free(c->e[i].key), free(c->e[i].v);
  free(c->e);
}

/* the text the llama backend appends for these generated tokens (its decode loop, piece by piece) */
static void detok(const struct llama_vocab *vocab, const llama_token *t, int n, gasp_str *out) {
  out->len = 0;
  if (out->data) out->data[0] = 0;
  char buf[256];
  for (int i = 0; i < n; i++) {
    int k = llama_token_to_piece(vocab, t[i], buf, sizeof buf, 0, false);
    if (k > 0) gasp_str_append(out, buf, (size_t)k);
    else if (k < 0) {
      char *big = malloc((size_t)-k);
      k = llama_token_to_piece(vocab, t[i], big, -k, 0, false);
      if (k > 0) gasp_str_append(out, big, (size_t)k);
      free(big);
    }
  }
}

static int same(const gasp_str *s, const char *text, size_t len) {
  return s->len == len && (!len || !memcmp(s->data, text, len));
}

static int in_list(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t k = e ? (size_t)(e - p) : strlen(p);
    if (k == n && !memcmp(p, name, n)) return 1;
    p += k + (e ? 1 : 0);
  }
  return 0;
}

static gasp_prepare_target *target_row(gasp_prepare_stats *st, const char *name) {
  for (int i = 0; i < st->nt; i++)
    if (!strcmp(st->t[i].name, name)) return &st->t[i];
  if (st->nt == GASP_PREPARE_MAX_TARGETS) return &st->t[GASP_PREPARE_MAX_TARGETS - 1];
  gasp_prepare_target *r = &st->t[st->nt++];
  gasp_strlcpy(r->name, name, sizeof r->name);
  return r;
}

static void notice(const gasp_prepare_opts *o, const char *file, long line, const char *why) {
  if (!o->notice) return;
  char m[512];
  snprintf(m, sizeof m, "%s:%ld: sample dropped: %s", file, line, why);
  o->notice(m);
}

static void put_u32s(FILE *f, const llama_token *t, int n) {
  for (int i = 0; i < n; i++) {
    uint32_t v = (uint32_t)t[i];
    unsigned char b[4] = {v, v >> 8, v >> 16, v >> 24};
    fwrite(b, 1, 4, f);
  }
}

int gasp_train_prepare(const gasp_prepare_opts *o, gasp_prepare_stats *st, char *err, size_t cap) {
  memset(st, 0, sizeof *st);
  int max_tokens = o->max_tokens > 0 ? o->max_tokens : 4096;
  char vbuf[4096];
  const char *vpath = gasp_vocab_resolve(o->vocab, vbuf, sizeof vbuf);
  if (!vpath || access(vpath, R_OK)) {
    snprintf(err, cap, "vocabulary '%s' not found%s%s", o->vocab ? o->vocab : "", vpath ? " at " : "", vpath ? vpath : "");
    return -1;
  }
  llama_log_set(quiet_log, NULL);
  llama_backend_init();
  struct llama_model_params mp = llama_model_default_params();
  mp.vocab_only = true;
  struct llama_model *model = llama_model_load_from_file(vpath, mp);
  if (!model) {
    snprintf(err, cap, "llama.cpp could not load the vocabulary '%s'", vpath);
    return -1;
  }
  const struct llama_vocab *vocab = llama_model_get_vocab(model);
  st->n_vocab = llama_vocab_n_tokens(vocab);
  st->bos = llama_vocab_get_add_bos(vocab) ? llama_vocab_bos(vocab) : -1;
  st->eos = llama_vocab_eos(vocab);
  int rc = -1;
  FILE *ft = NULL, *fm = NULL;
  json_t *samples = json_array(), *ids = json_array(), *index = NULL;
  toks_t P = {0}, J = {0}, T = {0};
  gasp_str text, piece, kbuf;
  gasp_str_init(&text);
  gasp_str_init(&piece);
  gasp_str_init(&kbuf);
  line_cache lc = {0}, *cache = NULL;
  if (!o->no_line_cache && cache_usable(vocab, lc.nl) && (lc.e = calloc(LINE_SLOTS, sizeof *lc.e))) cache = &lc;
  char *line = NULL;
  size_t lcap = 0;
  if (st->eos < 0) {
    snprintf(err, cap, "the vocabulary '%s' has no EOS token", vpath);
    goto out;
  }
  char path[4096];
  if (gasp_mkdir_p(o->out_dir)) {
    snprintf(err, cap, "cannot create '%s': %s", o->out_dir, strerror(errno));
    goto out;
  }
  snprintf(path, sizeof path, "%s/tokens.u32", o->out_dir);
  ft = fopen(path, "wb");
  snprintf(path, sizeof path, "%s/mask.u8", o->out_dir);
  fm = fopen(path, "wb");
  if (!ft || !fm) {
    snprintf(err, cap, "cannot write in '%s': %s", o->out_dir, strerror(errno));
    goto out;
  }
  for (int fi = 0; fi < o->n_inputs; fi++) {
    const char *file = o->inputs[fi];
    FILE *in = fopen(file, "r");
    if (!in) {
      snprintf(err, cap, "cannot read '%s': %s", file, strerror(errno));
      goto out;
    }
    long ln = 0;
    ssize_t got;
    while ((got = getline(&line, &lcap, in)) >= 0) {
      ln++;
      if (got <= 1 && (got == 0 || line[0] == '\n')) continue;
      st->lines++;
      json_error_t je;
      json_t *j = json_loadb(line, (size_t)got, 0, &je);
      json_t *jp = json_object_get(j, "prompt"), *jc = json_object_get(j, "completion");
      if (!json_is_object(j) || !json_is_string(jp) || !json_is_string(jc)) {
        st->bad_json++;
        notice(o, file, ln, "not a JSON object with string \"prompt\" and \"completion\"");
        json_decref(j);
        continue;
      }
      const char *tgt = json_string_value(json_object_get(j, "target"));
      if (!tgt) tgt = "?";
      if (o->targets && !in_list(o->targets, tgt)) {
        st->filtered++;
        json_decref(j);
        continue;
      }
      const char *prompt = json_string_value(jp), *comp = json_string_value(jc);
      size_t pl = json_string_length(jp), cl = json_string_length(jc);
      text.len = 0;
      gasp_str_append(&text, prompt, pl);
      gasp_str_append(&text, comp, cl);
      if (tokenize_cached(vocab, cache, prompt, pl, &P, &T, &kbuf) ||
          tokenize_cached(vocab, cache, text.data, text.len, &J, &T, &kbuf)) {
        st->no_split++;
        notice(o, file, ln, "the text could not be tokenized");
        json_decref(j);
        continue;
      }
      /* where the joint tokens leave the prompt's */
      int d = 0;
      while (d < P.n && d < J.n && P.v[d] == J.v[d]) d++;
      int k = -1;
      if (d == P.n) k = P.n;
      else /* a token spans the boundary: some nearby cut may still detokenize to exactly the completion */
        for (int delta = 0; delta <= 8 && k < 0; delta++)
          for (int sgn = -1; sgn <= 1 && k < 0; sgn += 2) {
            int c = d + sgn * delta;
            if (c < 1 || c > J.n) continue;
            detok(vocab, J.v + c, J.n - c, &piece);
            if (same(&piece, comp, cl)) k = c;
          }
      if (k < 0) {
        st->no_split++;
        notice(o, file, ln, "no split of the prompt+completion tokens gives the completion back");
        json_decref(j);
        continue;
      }
      int nc = J.n - k;
      detok(vocab, J.v + k, nc, &piece);
      if (!same(&piece, comp, cl)) {
        st->detok_mismatch++;
        notice(o, file, ln, "the completion's tokens do not detokenize to the completion byte for byte");
        json_decref(j);
        continue;
      }
      int total = P.n + nc + 1;
      if (total > max_tokens) {
        st->too_long++;
        char why[128];
        snprintf(why, sizeof why, "%d tokens, more than --max-tokens %d", total, max_tokens);
        notice(o, file, ln, why);
        json_decref(j);
        continue;
      }
      llama_token eos = st->eos;
      put_u32s(ft, P.v, P.n);
      put_u32s(ft, J.v + k, nc);
      put_u32s(ft, &eos, 1);
      for (int i = 0; i < total; i++) fputc(i >= P.n, fm);
      json_array_append_new(samples, json_pack("[I, i]", (json_int_t)st->tokens, total));
      const char *tid = json_string_value(json_object_get(j, "task"));
      json_array_append_new(ids, json_sprintf("%s@%s", tid ? tid : "?", tgt));
      st->tokens += total;
      st->kept++;
      gasp_prepare_target *r = target_row(st, tgt);
      r->samples++;
      r->tokens += total;
      r->completion_tokens += nc + 1;
      json_decref(j);
    }
    fclose(in);
  }
  if (ferror(ft) || ferror(fm)) {
    snprintf(err, cap, "cannot write in '%s' (disk full?)", o->out_dir);
    goto out;
  }
  json_t *targets = json_object();
  for (int i = 0; i < st->nt; i++)
    json_object_set_new(targets, st->t[i].name,
                        json_pack("{s:I, s:I, s:I}", "samples", (json_int_t)st->t[i].samples, "tokens",
                                  (json_int_t)st->t[i].tokens, "completion_tokens", (json_int_t)st->t[i].completion_tokens));
  index = json_pack("{s:s, s:i, s:i, s:i, s:o, s:o, s:o, s:I, s:i, s:{s:I, s:I, s:I, s:I, s:I}}", "vocab", o->vocab,
                    "n_vocab", st->n_vocab, "bos", st->bos, "eos", st->eos, "samples", samples, "ids", ids, "targets", targets,
                    "tokens", (json_int_t)st->tokens, "max_tokens", max_tokens, "dropped", "bad_json",
                    (json_int_t)st->bad_json, "too_long", (json_int_t)st->too_long, "no_split",
                    (json_int_t)st->no_split, "detok_mismatch", (json_int_t)st->detok_mismatch, "filtered",
                    (json_int_t)st->filtered);
  samples = ids = NULL;
  snprintf(path, sizeof path, "%s/index.json", o->out_dir);
  if (!index || json_dump_file(index, path, JSON_COMPACT)) {
    snprintf(err, cap, "cannot write '%s'", path);
    goto out;
  }
  rc = 0;
out:
  if ((ft && fclose(ft)) | (fm && fclose(fm)) && !rc) {
    snprintf(err, cap, "cannot write in '%s' (disk full?)", o->out_dir);
    rc = -1;
  }
  json_decref(samples);
  json_decref(ids);
  json_decref(index);
  st->line_hits = lc.hits, st->line_misses = lc.misses;
  cache_free(cache);
  free(P.v), free(J.v), free(T.v), free(line);
  gasp_str_free(&text), gasp_str_free(&piece), gasp_str_free(&kbuf);
  llama_model_free(model);
  return rc;
}
