/* The PTX grammars in llama.cpp's real grammar engine: every task's grammar compiles, and random walks
 * through the grammar sampler (vocab-only models, random logits, a random allowed token at each step) give
 * answers that all extract and parse with our parser. Needs libllama (GASP_HAVE_LLAMA). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/util.h"
#include "extract/extract.h"
#include "grammar/grammar.h"
#include "llama.h"
#include "target/amdgcn/emu/emu.h"
#include "target/amdgcn/emu/emu_internal.h"
#include "target/ptx/ptx_parse.h"
#include "target/target.h"
#include "task/task.h"

#define MAX_STEPS 6000 /* tokens per walk: far above what the bounded grammars allow */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 11);
}

typedef struct {
  const struct llama_vocab *vocab;
  int n_vocab;
  llama_token *cand;   /* tokens made of characters the grammars use: the walk's candidate pool */
  int ncand;
  llama_token *eog;
  int neog;
  char (*piece)[48];
  llama_token single[128];     /* a token whose piece is exactly this character, or -1 */
  llama_token *bucket[128];    /* pool tokens by first character */
  int nbucket[128];
} vocab_info;

static int load_vocab(const char *path, struct llama_model **model, vocab_info *vi) {
  struct llama_model_params mp = llama_model_default_params();
  mp.vocab_only = true;
  *model = llama_model_load_from_file(path, mp);
  if (!*model) return -1;
  vi->vocab = llama_model_get_vocab(*model);
  vi->n_vocab = llama_vocab_n_tokens(vi->vocab);
  vi->cand = malloc(sizeof(llama_token) * (size_t)vi->n_vocab);
  vi->eog = malloc(sizeof(llama_token) * (size_t)vi->n_vocab);
  vi->piece = calloc((size_t)vi->n_vocab, sizeof *vi->piece);
  vi->ncand = vi->neog = 0;
  for (llama_token t = 0; t < vi->n_vocab; t++) {
    if (llama_vocab_is_eog(vi->vocab, t)) { vi->eog[vi->neog++] = t; continue; }
    char buf[64];
    int n = llama_token_to_piece(vi->vocab, t, buf, sizeof buf - 1, 0, false);
    if (n <= 0 || n >= 47) continue;
    buf[n] = 0;
    int ok = 1;
    for (int i = 0; i < n && ok; i++) ok = (buf[i] >= 32 && buf[i] < 127) || buf[i] == '\n';
    if (!ok) continue;
    memcpy(vi->piece[t], buf, (size_t)n + 1);
    vi->cand[vi->ncand++] = t;
  }
  for (int c = 0; c < 128; c++) { vi->single[c] = -1; vi->nbucket[c] = 0; vi->bucket[c] = NULL; }
  for (int i = 0; i < vi->ncand; i++) {
    const char *p = vi->piece[vi->cand[i]];
    if (!p[1] && vi->single[(int)p[0]] < 0) vi->single[(int)p[0]] = vi->cand[i];
    vi->nbucket[(int)p[0]]++;
  }
  for (int c = 0; c < 128; c++) {
    vi->bucket[c] = malloc(sizeof(llama_token) * (size_t)(vi->nbucket[c] + 1));
    vi->nbucket[c] = 0;
  }
  for (int i = 0; i < vi->ncand; i++) {
    int c = vi->piece[vi->cand[i]][0];
    vi->bucket[c][vi->nbucket[c]++] = vi->cand[i];
  }
  return 0;
}

/* One walk. Returns 0 with the text in out, 1 when the grammar left no token (a dead end), 2 when it did
 * not end within MAX_STEPS. */
static long fallbacks[4];
static void quiet_log(enum ggml_log_level level, const char *text, void *user) { (void)level; (void)text; (void)user; }
static int walk(vocab_info *vi, struct llama_sampler *smpl, llama_token_data *buf, char *out, size_t cap, int *steps) {
  size_t len = 0;
  out[0] = 0;
  llama_sampler_reset(smpl);
  for (*steps = 0; *steps < MAX_STEPS; (*steps)++) {
    /* The grammar engine answers only "is this token allowed": probe one single-character token per
     * first character (and the end-of-generation tokens) to learn which first characters can follow,
     * then offer a random sample of the pool's tokens that start with those. When no single-character
     * token exists for some character, or nothing in the sample fits, fall back to the whole vocabulary
     * so that a dead end is a real one. */
    int chosen = -1;
    size_t n = 0;
    for (int c = 0; c < 128; c++)
      if (vi->single[c] >= 0) buf[n++] = (llama_token_data){vi->single[c], 0, 0};
    for (int i = 0; i < vi->neog; i++) buf[n++] = (llama_token_data){vi->eog[i], 0, 0};
    llama_token_data_array arr = {buf, n, -1, false};
    llama_sampler_apply(smpl, &arr);
    int first_ok[128] = {0}, nfirst = 0, eog_ok = -1;
    for (size_t i = 0; i < arr.size; i++) {
      if (!isfinite(arr.data[i].logit)) continue;
      if (llama_vocab_is_eog(vi->vocab, arr.data[i].id)) eog_ok = arr.data[i].id;
      else { first_ok[(int)vi->piece[arr.data[i].id][0]] = 1; nfirst++; }
    }
    if (eog_ok >= 0 && nfirst == 0) return 0; /* only the end is left */
    if (nfirst) {
      n = 0;
      long total = 0;
      for (int c = 0; c < 128; c++)
        if (first_ok[c]) total += vi->nbucket[c];
      for (int k = 0; k < 256 && total; k++) {
        long r = (long)(rnd() % (uint32_t)total);
        for (int c = 0; c < 128; c++) {
          if (!first_ok[c]) continue;
          if (r < vi->nbucket[c]) { buf[n++] = (llama_token_data){vi->bucket[c][r], 0, 0}; break; }
          r -= vi->nbucket[c];
        }
      }
      /* random logits, longer pieces favoured so a walk takes fewer steps */
      for (size_t i = 0; i < n; i++) buf[i].logit = (float)(rnd() % 1000) / 100.0f + 0.5f * (float)strlen(vi->piece[buf[i].id]);
      arr = (llama_token_data_array){buf, n, -1, false};
      llama_sampler_apply(smpl, &arr);
      float best = -INFINITY;
      for (size_t i = 0; i < arr.size; i++)
        if (isfinite(arr.data[i].logit) && arr.data[i].logit > best) { best = arr.data[i].logit; chosen = arr.data[i].id; }
      if (chosen < 0) {
        /* none of the sample: one of the allowed single characters (always allowed, probed above) */
        int pick = (int)(rnd() % (uint32_t)nfirst);
        for (int c = 0; c < 128 && chosen < 0; c++)
          if (first_ok[c] && pick-- == 0) chosen = vi->single[c];
        fallbacks[1]++;
      }
    } else {
      /* no single-character token fits: the whole vocabulary */
      fallbacks[2]++;
      n = 0;
      for (int i = 0; i < vi->n_vocab; i++) buf[n++] = (llama_token_data){i, (float)(rnd() % 1000), 0};
      arr = (llama_token_data_array){buf, n, -1, false};
      llama_sampler_apply(smpl, &arr);
      float best = -INFINITY;
      for (size_t i = 0; i < arr.size; i++)
        if (isfinite(arr.data[i].logit) && arr.data[i].logit > best) { best = arr.data[i].logit; chosen = arr.data[i].id; }
      if (chosen >= 0 && llama_vocab_is_eog(vi->vocab, chosen)) return 0;
    }
    if (chosen < 0) return 1;
    fallbacks[0]++;
    if (llama_vocab_is_eog(vi->vocab, chosen)) return 0;
    size_t pl = strlen(vi->piece[chosen]);
    if (!pl) {
      char b[64];
      int n = llama_token_to_piece(vi->vocab, chosen, b, sizeof b - 1, 0, false);
      b[n > 0 ? n : 0] = 0;
      pl = strlen(b);
      if (len + pl + 1 < cap) memcpy(out + len, b, pl + 1);
    } else if (len + pl + 1 < cap) {
      memcpy(out + len, vi->piece[chosen], pl + 1);
    }
    len += pl;
    if (len + 1 >= cap) return 2;
    llama_sampler_accept(smpl, chosen);
  }
  return 2;
}

/* The grammar's form (grammar_form.c): every suite snippet and the committed nvcc kernels, rewritten, are in
 * the grammar's language in llama.cpp's engine; a kernel over the grammar's bounds is refused with a reason. */
static void grammar_form(const gasp_target *t, const gasp_taskset *ts) {
  static const char *const nvcc[] = {"vector_add", "warp_reduce_sum", "block_scan", "transpose_smem", "branch_divergent",
                                     "warp_ballot_count", "saxpy", "translate_mandel_iter"};
  int snippets = 0, kernels = 0;
  for (size_t k = 0; k < ts->count + sizeof nvcc / sizeof nvcc[0]; k++) {
    const gasp_task *task;
    char *code = NULL;
    size_t len;
    int refuse = 0;
    if (k < ts->count) {
      task = &ts->items[k];
      if (!gasp_task_fits(task, "PTX") || !task->snippet || !task->ptx_snippet) continue;
      code = gasp_strdup(task->ptx_snippet);
    } else {
      const char *id = nvcc[k - ts->count];
      task = gasp_taskset_find(ts, id);
      char path[1200];
      snprintf(path, sizeof path, "%s/../tests/data/ptx-nvcc/%s.ptx", gasp_tasks_dir(), id);
      CHECK(task && gasp_read_file(path, 1 << 20, &code, &len) == 0, "nvcc sample %s and its task", id);
      if (!task || !code) continue;
      refuse = !strcmp(id, "translate_mandel_iter");
    }
    gasp_diags fd;
    gasp_diags_init(&fd);
    char *form = gasp_grammar_ptx_form(t, task, code, &fd);
    if (refuse) {
      CHECK(!form && fd.count && strstr(fd.items[0].msg, "labels"), "%s refused for its labels", task->id);
    } else {
      CHECK(form != NULL, "%s in the grammar's form (%s)", task->id, fd.count ? fd.items[0].msg : "");
      char *g = t->grammar(t, task, &fd);
      if (form && g) {
        gasp_str a;
        gasp_str_init(&a);
        gasp_str_printf(&a, "```ptx\n%s```", form);
        size_t at = 0;
        int m = gasp_grammar_match(g, a.data, &at);
        CHECK(m == 1, "%s: the grammar accepts its form (refused at byte %zu: '%.40s')", task->id, at, a.data + at);
        task->snippet ? snippets++ : kernels++;
        gasp_str_free(&a);
      }
      free(g);
    }
    free(form);
    free(code);
    gasp_diags_free(&fd);
  }
  printf("grammar form: %d snippets and %d nvcc kernels rewritten and accepted by the grammar\n", snippets, kernels);
  CHECK(snippets >= 10 && kernels == 7, "the form covers the suite's snippets and the nvcc samples");
}

/* 1 when the whole answer `body` (fenced here) is in the language of grammar g */
static int amd_in(const char *g, const char *body) {
  char text[512];
  snprintf(text, sizeof text, "```amdgcn\n%s\n```", body);
  size_t at;
  return gasp_grammar_match(g, text, &at) == 1;
}

static int listed(const gasp_emu_mnemonic *ms, int n, const char *name, size_t len) {
  for (int i = 0; i < n; i++)
    if (strlen(ms[i].name) == len && !strncmp(ms[i].name, name, len)) return 1;
  return 0;
}

/* The AMD grammars in llama.cpp's engine. Every mnemonic the emulator executes is accepted in the spelling and
 * place its encoding allows (the prefix tree leaves none out) and nothing past it; every name of LLVM's table the
 * emulator does not execute is refused; the answers of the corpus's shapes are accepted and the prompt's
 * prohibitions refused. Then random walks: each ends, extracts, and names only listed instructions. */
static void amd_grammars(const gasp_taskset *ts, vocab_info *vi, llama_token_data *buf, char *text, int walks,
                         int names) {
  static const char *const mcpus[] = {"gfx900", "gfx1030", "gfx1100"};
  static const emu_optab_row *const tabs[] = {emu_optab_gfx900, emu_optab_gfx1030, emu_optab_gfx1100};
  for (int m = 0; m < 3; m++) {
    const gasp_target *t = gasp_target_find(mcpus[m]);
    const gasp_task *sn = gasp_taskset_find(ts, "add_f32"), *kn = gasp_taskset_find(ts, "vector_add");
    CHECK(t && t->grammar && sn && kn && sn->snippet && !kn->snippet, "%s: a grammar, a snippet and a kernel task",
          mcpus[m]);
    if (!t || !t->grammar || !sn || !kn) continue;
    gasp_diags d;
    gasp_diags_init(&d);
    char *gs = t->grammar(t, sn, &d), *gk = t->grammar(t, kn, &d);
    gasp_emu_mnemonic ms[1024];
    int n = gasp_emu_mnemonics(mcpus[m], ms, 1024);
    CHECK(gs && gk && n > 250 && n <= 1024, "%s: both grammars and %d mnemonics", mcpus[m], n);
    if (!gs || !gk || n <= 0 || n > 1024) goto next;
    char line[256];
    int accepted = 0, total = 0;
    for (int i = 0; i < n && names; i++) {
      const char *nm = ms[i].name;
      unsigned e = ms[i].enc;
      int ok = 1;
      if (e & GASP_EMU_ENC_VOP) {
        static const char *const sfx[] = {"", "_e32", "_e64"};
        for (int k = 0; k < 3; k++) {
          snprintf(line, sizeof line, "%s%s v4, v2, v3", nm, sfx[k]);
          ok &= amd_in(gs, line);
        }
      } else if (e & GASP_EMU_ENC_VOP3) {
        snprintf(line, sizeof line, "%s v4, v2, v3, v5", nm);
        ok &= amd_in(gs, line);
        snprintf(line, sizeof line, "%s_e32 v4, v2, v3, v5", nm);
        ok &= !amd_in(gs, line); /* VOP3 only: no 32-bit encoding */
      }
      if (e & GASP_EMU_ENC_SALU) {
        snprintf(line, sizeof line, "%s s33, s34", nm);
        ok &= amd_in(gs, line);
      }
      if (e & (GASP_EMU_ENC_SMEM | GASP_EMU_ENC_DS | GASP_EMU_ENC_GLOBAL | GASP_EMU_ENC_FLAT | GASP_EMU_ENC_SCRATCH)) {
        snprintf(line, sizeof line, "  %s v1, v[2:3], off offset:16\n  s_endpgm", nm);
        ok &= amd_in(gk, line) && !amd_in(gs, line + 2); /* memory in a body, never in a snippet */
      }
      if (e & (GASP_EMU_ENC_SOPP | GASP_EMU_ENC_CACHE)) {
        int branch = !strncmp(nm, "s_branch", 8) || !strncmp(nm, "s_cbranch_", 10);
        snprintf(line, sizeof line, "  %s%s\n.LBB0_1:\n  s_endpgm", nm, branch ? " .LBB0_1" : "");
        if (strcmp(nm, "s_waitcnt") && strcmp(nm, "s_delay_alu") && strcmp(nm, "s_sendmsg")) ok &= amd_in(gk, line);
      }
      if (e & GASP_EMU_ENC_VOPDX) {
        snprintf(line, sizeof line, "  v_dual_%s v1, v2, v3 :: v_dual_mov_b32 v4, v5\n  s_endpgm", nm + 2);
        ok &= amd_in(gk, line);
      }
      /* nothing longer: the name with a letter appended is no instruction */
      snprintf(line, sizeof line, "%sq v4, v2, v3", nm);
      ok &= !amd_in(gs, line);
      CHECK(ok, "%s: %s (encodings 0x%x) is offered where its encoding allows, and only there", mcpus[m], nm, e);
      accepted += ok;
      total++;
    }
    /* LLVM's names the emulator does not execute (unsupported at run time) are refused everywhere */
    int refused = 0, unimpl = 0;
    for (const emu_optab_row *r = tabs[m]; r->fmt && names; r++) {
      if (r->op != EMU_OP_NONE || listed(ms, n, r->name, strlen(r->name))) continue;
      snprintf(line, sizeof line, "%s v4, v2, v3", r->name);
      char kline[300];
      snprintf(kline, sizeof kline, "  %s v4, v2, v3\n  s_endpgm", r->name);
      int in = amd_in(gs, line) || amd_in(gk, kline);
      CHECK(!in, "%s: %s, not executed by the emulator, is refused", mcpus[m], r->name);
      refused += !in;
      unimpl++;
    }
    /* the corpus's shapes and the prompt's prohibitions */
    const char *vc = m ? "vcc_lo" : "vcc";
    snprintf(line, sizeof line, "v_cmp_gt_f32_e32 %s, v2, v3\nv_cndmask_b32_e32 v4, v3, v2, %s", vc, vc);
    CHECK(amd_in(gs, line), "%s: a compare and a select on %s", mcpus[m], vc);
    CHECK(!amd_in(gs, "v_cmp_gt_f32_e32 vcc, v2, v3") == (m > 0), "%s: vcc refused in wave32 only", mcpus[m]);
    CHECK(amd_in(gs, "v_fma_f32 v4, -v2, |v3|, 0.5") && amd_in(gs, "v_add_f32_e32 v4, 0x3f800000, v2 ; x + 1"),
          "%s: negation, absolute value, literals and a comment", mcpus[m]);
    CHECK(!amd_in(gs, "v_add_f32 v64, v2, v3") && !amd_in(gs, "s_mov_b32 s48, 0") && !amd_in(gs, "s_endpgm") &&
              !amd_in(gs, "v_add_f32 v4, v2, v3\n.LBB0_1:"),
          "%s: a snippet's register ranges, no s_endpgm, no label", mcpus[m]);
    snprintf(line, sizeof line, "  %s s[4:5], s[0:1], 0x8\n  s_waitcnt vmcnt(0) lgkmcnt(0)\n"
             "  s_cbranch_execz .LBB0_2\n.LBB0_2:\n  s_endpgm\n  .p2align\t6, 0x0", m == 2 ? "s_load_b64" : "s_load_dwordx2");
    CHECK(amd_in(gk, line), "%s: a body with a scalar load, a wait, a branch, a label and clang's alignment", mcpus[m]);
    CHECK(!amd_in(gk, "s_endpgm") && !amd_in(gk, "  v_add_f32 v256, v2, v3\n  s_endpgm"),
          "%s: a body's instructions are indented; v256 does not exist", mcpus[m]);
    if (names)
      printf("%s: %d of %d mnemonics offered where their encodings allow; %d of %d unexecuted names refused\n", mcpus[m],
           accepted, total, refused, unimpl);
    /* random walks through both grammars */
    for (int w = 0; w < 2 * walks; w++) {
      const char *g = w % 2 ? gk : gs;
      struct llama_sampler *smpl = llama_sampler_init_grammar(vi->vocab, g, "root");
      CHECK(smpl != NULL, "%s: the grammar compiles in llama.cpp", mcpus[m]);
      if (!smpl) break;
      int steps, r = walk(vi, smpl, buf, text, 1 << 20, &steps);
      llama_sampler_free(smpl);
      CHECK(r == 0, "%s walk %d ends (%d)", mcpus[m], w, r);
      if (r) continue;
      gasp_extracted ex;
      gasp_diags pd;
      gasp_diags_init(&pd);
      int ok = gasp_extract(text, strlen(text), t, &ex, &pd) == 0;
      CHECK(ok, "%s walk %d extracts: %s\n%s", mcpus[m], w, pd.count ? pd.items[0].msg : "", text);
      for (const char *l = ok ? ex.code : ""; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        while (*l == ' ') l++;
        if (*l == '.' || *l == '\n' || !*l) continue; /* a label or the alignment */
        size_t len = strcspn(l, " \n");
        const char *nm = l;
        if (!strncmp(nm, "v_dual_", 7)) {
          char full[64];
          snprintf(full, sizeof full, "v_%.*s", (int)(len - 7), nm + 7);
          CHECK(listed(ms, n, full, strlen(full)), "%s walk %d: %s is listed", mcpus[m], w, full);
          continue;
        }
        if (len > 4 && (!strncmp(nm + len - 4, "_e32", 4) || !strncmp(nm + len - 4, "_e64", 4))) len -= 4;
        else if (len > 5 && !strncmp(nm + len - 5, "_sdwa", 5)) len -= 5;
        CHECK(listed(ms, n, nm, len), "%s walk %d: %.*s is listed", mcpus[m], w, (int)len, nm);
      }
      if (ok) gasp_extracted_free(&ex);
      gasp_diags_free(&pd);
    }
  next:
    free(gs);
    free(gk);
    gasp_diags_free(&d);
  }
}

int main(void) {
  const char *dir = getenv("GASP_LLAMA_DIR");
  if (!dir) dir = GASP_LLAMA_DIR_DEFAULT;
  const char *vocabs[] = {"ggml-vocab-llama-spm.gguf", "ggml-vocab-qwen2.gguf"};
  int walks = getenv("GASP_GRAMMAR_WALKS") ? atoi(getenv("GASP_GRAMMAR_WALKS")) : 50;
  const char *only = getenv("GASP_GRAMMAR_TASK");
  llama_backend_init();
  llama_log_set(quiet_log, NULL);
  gasp_taskset ts = {0};
  gasp_diags d;
  gasp_diags_init(&d);
  CHECK(gasp_taskset_load(gasp_tasks_dir(), &ts, &d) == 0, "tasks load");
  const gasp_target *t = gasp_target_find("ptx-sm90");
  CHECK(t && t->grammar, "ptx-sm90 has a grammar");
  if (!t || !t->grammar) return DONE();
  grammar_form(t, &ts);
  long total = 0, parsed = 0, extracted = 0, dead = 0, unended = 0, steps_sum = 0, chars_sum = 0;
  char *text = malloc(1 << 20);
  for (size_t v = 0; v < 2; v++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/src/models/%s", dir, vocabs[v]);
    struct llama_model *model;
    vocab_info vi;
    if (load_vocab(path, &model, &vi)) {
      fprintf(stderr, "skip: cannot load the vocabulary %s\n", path);
      return 77;
    }
    llama_token_data *buf = malloc(sizeof *buf * (size_t)(vi.n_vocab + vi.neog + 64));
    long v_total = 0, v_ok = 0;
    /* the AMD part draws from its own stream, so the PTX walks after it are the ones they were without it */
    double t_amd = gasp_now_s();
    uint64_t ptx_rng = rng;
    rng ^= 0xA3D0A3D0A3D0A3D0ULL;
    if (!only) amd_grammars(&ts, &vi, buf, text, walks / 5 ? walks / 5 : 1, v == 0);
    rng = ptx_rng;
    printf("%s: the AMD grammars took %.1f s\n", vocabs[v], gasp_now_s() - t_amd);
    for (size_t k = 0; k < ts.count; k++) {
      const gasp_task *task = &ts.items[k];
      if (!gasp_task_fits(task, "PTX") || (only && strcmp(only, task->id))) continue;
      gasp_diags_clear(&d);
      char *g = t->grammar(t, task, &d);
      CHECK(g != NULL, "task %s has a grammar", task->id);
      if (!g) continue;
      struct llama_sampler *smpl = llama_sampler_init_grammar(vi.vocab, g, "root");
      if (!smpl) {
        fprintf(stderr, "FAIL: the grammar of task %s does not compile in llama.cpp (%s)\n", task->id, vocabs[v]);
        CHECK(smpl != NULL, "grammar of %s compiles", task->id);
        free(g);
        continue;
      }
      int task_ok = 0;
      for (int w = 0; w < walks; w++) {
        int steps;
        int r = walk(&vi, smpl, buf, text, 1 << 20, &steps);
        total++;
        v_total++;
        steps_sum += steps;
        chars_sum += (long)strlen(text);
        if (r == 1) {
          dead++;
          fprintf(stderr, "FAIL: %s/%s walk %d: the grammar allows no token after:\n%s\n", vocabs[v], task->id, w, text);
          continue;
        }
        if (r == 2) {
          unended++;
          fprintf(stderr, "FAIL: %s/%s walk %d: no end within %d tokens\n", vocabs[v], task->id, w, MAX_STEPS);
          continue;
        }
        gasp_extracted ex;
        gasp_diags pd;
        gasp_diags_init(&pd);
        if (gasp_extract(text, strlen(text), t, &ex, &pd) == 0) {
          extracted++;
          int errors = t->parse(t, task, ex.code, ex.first_line, &pd);
          if (errors == 0) {
            parsed++;
            task_ok++;
            v_ok++;
          } else {
            fprintf(stderr, "FAIL: %s/%s walk %d does not parse: %d:%d: %s\n---\n%s\n---\n", vocabs[v], task->id, w,
                    pd.items[0].line, pd.items[0].col, pd.items[0].msg, text);
          }
          gasp_extracted_free(&ex);
        } else {
          fprintf(stderr, "FAIL: %s/%s walk %d does not extract: %s\n---\n%s\n---\n", vocabs[v], task->id, w,
                  pd.count ? pd.items[0].msg : "?", text);
        }
        gasp_diags_free(&pd);
        if (w == 0 && getenv("GASP_GRAMMAR_SHOW")) fprintf(stderr, "%s\n", text);
        if (getenv("GASP_GRAMMAR_DUMP")) { /* keep the answers, e.g. to run them through ptxas */
          char out[1200];
          snprintf(out, sizeof out, "%s/%s.%zu.%d.md", getenv("GASP_GRAMMAR_DUMP"), task->id, v, w);
          FILE *f = fopen(out, "w");
          if (f) { fputs(text, f); fclose(f); }
        }
      }
      CHECK(task_ok == walks, "%s/%s: %d of %d walks parse", vocabs[v], task->id, task_ok, walks);
      if (!strcmp(task->id, "saxpy")) {
        /* what the grammar costs a decoder that filters the whole vocabulary at every token: the
         * sampler over every token, at the positions of one walk (a figure, not a pass condition) */
        int steps, napply = 0;
        walk(&vi, smpl, buf, text, 1 << 20, &steps);
        llama_sampler_reset(smpl);
        double t0 = gasp_now_s();
        size_t pos = 0, len = strlen(text);
        while (pos < len && napply < 200) {
          size_t n = 0;
          for (int i = 0; i < vi.n_vocab; i++) buf[n++] = (llama_token_data){i, 0, 0};
          llama_token_data_array arr = {buf, n, -1, false};
          llama_sampler_apply(smpl, &arr);
          napply++;
          /* advance by the longest pool token that continues the walk's text and is allowed */
          llama_token best = -1;
          size_t bl = 0;
          for (size_t i = 0; i < arr.size; i++) {
            llama_token id = arr.data[i].id;
            if (!isfinite(arr.data[i].logit) || id >= vi.n_vocab || !vi.piece[id][0]) continue;
            size_t pl = strlen(vi.piece[id]);
            if (pl > bl && pos + pl <= len && !strncmp(text + pos, vi.piece[id], pl)) { best = id; bl = pl; }
          }
          if (best < 0) break;
          llama_sampler_accept(smpl, best);
          pos += bl;
        }
        double ms = napply ? (gasp_now_s() - t0) * 1000.0 / napply : 0;
        printf("%s: the grammar over all %d tokens costs %.2f ms a token (mean of %d positions of a saxpy answer)\n",
               vocabs[v], vi.n_vocab, ms, napply);
      }
      llama_sampler_free(smpl);
      free(g);
    }
    printf("%s: %ld of %ld random walks extract and parse (%.1f%%)\n", vocabs[v], v_ok, v_total,
           v_total ? 100.0 * (double)v_ok / (double)v_total : 0.0);
    free(buf);
    free(vi.cand);
    free(vi.eog);
    free(vi.piece);
    for (int c = 0; c < 128; c++) free(vi.bucket[c]);
    llama_model_free(model);
  }
  printf("all: %ld walks, %ld extracted, %ld parsed (%.2f%%), %ld dead ends, %ld unended; mean %.0f tokens, %.0f "
         "characters per answer\n",
         total, extracted, parsed, total ? 100.0 * (double)parsed / (double)total : 0.0, dead, unended,
         total ? (double)steps_sum / (double)total : 0.0, total ? (double)chars_sum / (double)total : 0.0);
  printf("%ld steps; no token of the sample fitted %ld times, no single character %ld times\n", fallbacks[0],
         fallbacks[1], fallbacks[2]);
  CHECK(total > 0 && parsed == total, "every walk parses");
  free(text);
  gasp_taskset_free(&ts);
  gasp_diags_free(&d);
  llama_backend_free();
  return DONE();
}
