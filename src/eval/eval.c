/* The candidate pipeline. Stages hand plain structs on; none reaches back. */
#include "eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "../extract/extract.h"

void gasp_record_init(gasp_record *r) {
  memset(r, 0, sizeof *r);
  gasp_diags_init(&r->diags);
  r->cls = GASP_CLASS_ERROR;
  r->parsed = -1;
}

void gasp_record_free(gasp_record *r) {
  free(r->answer);
  free(r->logprobs);
  gasp_diags_free(&r->diags);
  memset(r, 0, sizeof *r);
}

/* Whether every error in d is a hazard (then --allow-hazards may run the binary). */
static int only_hazards(const gasp_diags *d) {
  int n = 0;
  for (size_t i = 0; i < d->count; i++)
    if (d->items[i].sev == GASP_SEV_ERROR) {
      if (d->items[i].cls != GASP_CLASS_HAZARD) return 0;
      n++;
    }
  return n > 0;
}

int gasp_eval(const gasp_target *t, const gasp_task *task, const gasp_eval_opts *o, gasp_record *rec) {
  const char *answer = rec->answer ? rec->answer : "";
  size_t len = rec->answer ? (rec->answer_len ? rec->answer_len : strlen(rec->answer)) : 0;
  rec->stage = GASP_STAGE_EXTRACT;
  double t0 = gasp_now_s();
  gasp_extracted ex;
  if (gasp_extract(answer, len, t, &ex, &rec->diags)) {
    rec->cls = GASP_CLASS_EXTRACT;
    return 0;
  }
  rec->stage = GASP_STAGE_CHECK;
  if (t->parse) {
    /* measured, not enforced: the assembler stays the authority on syntax; this tells how often answers are
     * well-formed in the ISA description's terms (the grammar's language) */
    gasp_diags pd;
    gasp_diags_init(&pd);
    rec->parsed = t->parse(t, task, ex.code, ex.first_line, &pd) == 0;
    gasp_diags_free(&pd);
  }
  gasp_source src;
  memset(&src, 0, sizeof src); /* targets fill what they use; the rest (the optional line table) stays empty */
  if (t->prepare(t, task, ex.code, ex.first_line, &src, &rec->diags)) {
    gasp_extracted_free(&ex);
    rec->cls = gasp_diags_first_class(&rec->diags);
    if (rec->cls == GASP_CLASS_PASS) rec->cls = GASP_CLASS_SYNTAX;
    return 0;
  }
  gasp_extracted_free(&ex);
  if (o->rewrite && t->rewrite) rec->rewrites = t->rewrite(t, task, &src, &rec->diags);
  if (o->source_out) *o->source_out = gasp_strdup(src.text ? src.text : "");
  gasp_binary bin;
  memset(&bin, 0, sizeof bin);
  int rc = t->check(t, task, &src, &bin, &rec->diags);
  rec->t_check_s = gasp_now_s() - t0;
  gasp_source_free(&src);
  if (rc && o->allow_hazards && bin.data && only_hazards(&rec->diags)) rc = 0;
  if (rc) {
    rec->cls = gasp_diags_first_class(&rec->diags);
    if (rec->cls == GASP_CLASS_PASS) rec->cls = GASP_CLASS_ERROR;
    gasp_binary_free(&bin);
    return 0;
  }
  rec->stage = GASP_STAGE_ASSEMBLE;
  if (o->stop_after_check) {
    rec->cls = GASP_CLASS_PASS;
    if (o->binary_out) *o->binary_out = bin;
    else gasp_binary_free(&bin);
    return 0;
  }
  if (t->exec == GASP_EXEC_GL) {
    /* Mesa's software renderer in this process: no GPU, no worker */
    gasp_verify_opts vo = {o->seed, 0, 0, NULL, NULL};
    double t1 = gasp_now_s();
    int vr = gasp_verify_gl(task, &bin, &vo, &rec->verdict);
    rec->t_run_s = gasp_now_s() - t1;
    rec->gpu_ran = vr == 0;
    rec->cls = rec->verdict.cls;
    rec->stage = vr == 0 ? rec->verdict.stage : GASP_STAGE_ASSEMBLE;
    if (vr) snprintf(rec->skip_reason, sizeof rec->skip_reason, "%.150s", rec->verdict.detail);
    else snprintf(rec->device, sizeof rec->device, "Mesa llvmpipe");
    if (o->binary_out) *o->binary_out = bin;
    else gasp_binary_free(&bin);
    return 0;
  }
  if (t->exec == GASP_EXEC_EMU) {
    /* the AMD functional emulator in this process: no GPU, no worker */
    gasp_verify_opts vo = {o->seed, 0, 0, NULL, NULL};
    double t1 = gasp_now_s();
    int vr = gasp_verify_emu(task, &bin, &vo, &rec->verdict);
    rec->t_run_s = gasp_now_s() - t1;
    rec->gpu_ran = vr == 0; /* the run stage ran (on the emulator, or a HIP device when present) */
    rec->cls = rec->verdict.cls;
    rec->stage = vr == 0 ? rec->verdict.stage : GASP_STAGE_ASSEMBLE;
    if (vr) snprintf(rec->skip_reason, sizeof rec->skip_reason, "%.150s", rec->verdict.detail);
    else snprintf(rec->device, sizeof rec->device, "gasp AMD emulator (%s)", t->arch);
    if (o->binary_out) *o->binary_out = bin;
    else gasp_binary_free(&bin);
    return 0;
  }
  if (!o->pool) {
    rec->cls = GASP_CLASS_SKIPPED;
    rec->gpu_ran = 0;
    snprintf(rec->skip_reason, sizeof rec->skip_reason, "%s", o->no_gpu_reason ? o->no_gpu_reason : "no GPU");
    gasp_binary_free(&bin);
    return 0;
  }
  if (gasp_pool_cc(o->pool) != t->cc) {
    rec->cls = GASP_CLASS_SKIPPED;
    snprintf(rec->skip_reason, sizeof rec->skip_reason, "target needs compute capability %d.%d; this GPU is %d.%d",
             t->cc / 10, t->cc % 10, gasp_pool_cc(o->pool) / 10, gasp_pool_cc(o->pool) % 10);
    gasp_binary_free(&bin);
    return 0;
  }
  snprintf(rec->device, sizeof rec->device, "%s", gasp_pool_device(o->pool));
  gasp_verify_opts vo = {o->seed, o->time, o->flush_l2, o->baseline, o->baseline_cache_ms};
  double t1 = gasp_now_s();
  int vr = gasp_verify(o->pool, task, &bin, &vo, &rec->verdict);
  rec->t_run_s = gasp_now_s() - t1;
  rec->gpu_ran = 1;
  rec->cls = rec->verdict.cls;
  rec->stage = rec->verdict.stage;
  if (o->binary_out) *o->binary_out = bin;
  else gasp_binary_free(&bin);
  return vr;
}

int gasp_assemble_answer(const gasp_target *t, const gasp_task *task, const char *answer, gasp_binary *bin,
                         gasp_diags *d) {
  gasp_record rec;
  gasp_record_init(&rec);
  rec.answer = gasp_strdup(answer);
  memset(bin, 0, sizeof *bin);
  gasp_eval_opts eo = {0};
  eo.stop_after_check = 1;
  eo.binary_out = bin;
  gasp_eval(t, task, &eo, &rec);
  int ok = rec.cls == GASP_CLASS_PASS;
  for (size_t i = 0; i < rec.diags.count; i++) {
    const gasp_diag *g = &rec.diags.items[i];
    gasp_diags_add(d, g->sev, g->cls, g->line, g->col, "%s", g->msg);
  }
  gasp_record_free(&rec);
  return ok ? 0 : -1;
}
