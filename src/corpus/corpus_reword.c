/* A generated snippet task in other words (gasp corpus reword): the same map, so the same verified answer, with
 * another description form, phrasing of its type, notes, register sentence and title, and on AMD other register
 * names.
 *
 * Why: the fifth training run showed the small model follows wording, not meaning. The same 20 held-out tasks,
 * reworded, fell from 0.42 to 0.26 pass@1; every task whose description moved to a new form fell from 5 of 5 to
 * 0 or 1 (tools/train/README.md, "The fifth run"). Each verified answer shown under several wordings teaches
 * what stays the same, and costs no verification: the answer does not change. */
#include <stdio.h>
#include <string.h>

#include "corpus_int.h"

static uint32_t fnv(const char *p, uint32_t h) {
  for (; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
  return h;
}

/* A sequence (several steps) or one instruction: the description's steps are the operations other than
 * comparisons (a comparison is written into its select), less the top one */
static int is_sequence(const gasp_map *m) {
  int ops = 0;
  for (int i = 0; i < m->count; i++)
    ops += m->n[i].op > GASP_MOP_LIT && m->n[i].op != GASP_MOP_ACC && m->n[i].type != GASP_MT_PRED;
  return ops >= 2;
}

/* Titles without the list of operations the generator's titles carry (the benchmark's name the computation,
 * "Linear interpolation"; a list of operations would be a cue that only the corpus has) */
static void title_for(const gasp_task *t, const gasp_map *m, int k, uint32_t h, char *buf, size_t cap) {
  const char *ty = gasp_map_type_name(m->n[m->root].type);
  static const char *const seq[] = {"%s straight-line sequence", "A short %s computation", "%s expression",
                                    "Element-wise %s computation", "Compute a value (%s)"};
  static const char *const one[] = {"One %s instruction", "Single %s operation", "%s arithmetic",
                                    "One element-wise %s operation"};
  int seqf = is_sequence(m);
  int n = seqf ? (int)(sizeof seq / sizeof seq[0]) : (int)(sizeof one / sizeof one[0]);
  int pick = (int)((h / 7 + (uint32_t)k) % (uint32_t)(n + 1));
  if (pick == n) { /* the generator's own title, one time in n + 1 */
    snprintf(buf, cap, "%s", t->title);
    return;
  }
  snprintf(buf, cap, seqf ? seq[pick] : one[pick], ty);
}

int gasp_corpus_reword(const gasp_task *t, int k, int rename, gasp_task *w, gasp_str *desc, char *err, size_t errcap) {
  if (!t->map || !t->snippet) {
    snprintf(err, errcap, "%s is not a generated snippet task (no map)", t->id);
    return -1;
  }
  gasp_map m;
  char e[160];
  int col;
  if (gasp_map_parse(t->map, t, &m, &col, e, sizeof e)) {
    snprintf(err, errcap, "%s: map column %d: %s", t->id, col + 1, e);
    return -1;
  }
  *w = *t; /* shallow: the caller keeps t alive and frees only desc */
  uint32_t h = fnv(t->id, 2166136261u);
  if (rename) {
    /* another name set (the map reads its parameters by position, so its tree is unchanged) */
    int nin = 0;
    for (int i = 0; i < w->nparams; i++) nin += w->params[i].role == GASP_ROLE_IN;
    if (nin > CORPUS_MAXIN) {
      snprintf(err, errcap, "%s has %d inputs, more than the name sets' %d", t->id, nin, CORPUS_MAXIN);
      return -1;
    }
    int set = (int)((h + (uint32_t)k * 3u) % CORPUS_NAME_SETS), j = 0;
    const char *first = NULL;
    for (int i = 0; i < w->nparams; i++)
      if (w->params[i].role == GASP_ROLE_IN && !first) first = w->params[i].name;
    if (first && !strcmp(first, corpus_name_sets[set][0])) set = (set + 1) % CORPUS_NAME_SETS;
    for (int i = 0; i < w->nparams; i++)
      if (w->params[i].role == GASP_ROLE_IN) gasp_strlcpy(w->params[i].name, corpus_name_sets[set][j++], sizeof w->params[i].name);
    for (int tries = 0; tries < CORPUS_OUT_NAMES; tries++) {
      const char *o = corpus_out_names[(h / 13 + (uint32_t)k + (uint32_t)tries) % CORPUS_OUT_NAMES];
      int clash = 0;
      for (int i = 0; i < w->nparams; i++) clash |= w->params[i].role == GASP_ROLE_IN && !strcmp(o, w->params[i].name);
      if (clash) continue;
      for (int i = 0; i < w->nparams; i++)
        if (w->params[i].role == GASP_ROLE_OUT) gasp_strlcpy(w->params[i].name, o, sizeof w->params[i].name);
      break;
    }
  }
  /* a form other than the generator's: the seven (three for one instruction) in turn from a place the id picks */
  int form;
  if (is_sequence(&m)) {
    int orig = (int)(gasp_corpus_wording_hash(&m) % 6);
    form = (int)((h + (uint32_t)k) % (GASP_CORPUS_FORMS - 1));
    if (form >= orig) form++;
  } else {
    int orig = (int)(gasp_corpus_wording_hash(&m) % 3);
    form = (int)((h + (uint32_t)k) % 2);
    if (form >= orig) form++;
  }
  /* and the style: the type in one of five phrasings, the notes left out one time in three where the operations
   * say it all, the register sentence one time in four (the prompt's constraints name the registers as well) */
  unsigned style = (unsigned)((h / 11 + (uint32_t)k) % GASP_CORPUS_TYPE_WORDINGS);
  if ((h / 17 + (uint32_t)k) % 3 == 0) style |= GASP_CORPUS_STYLE_TERSE;
  if ((h / 23 + (uint32_t)k) % 2 == 0) style |= GASP_CORPUS_STYLE_WORDS;
  gasp_str_init(desc);
  gasp_corpus_describe_styled(&m, w, GASP_RENDER_SNIPPET, form, style, desc);
  if ((h / 19 + (uint32_t)k) % 4) gasp_corpus_registers_text(w, (int)((h / 5 + (uint32_t)k) % 3), desc);
  w->description = desc->data;
  title_for(t, &m, k, h, w->title, sizeof w->title);
  return 0;
}
