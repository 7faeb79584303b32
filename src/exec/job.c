/* Encoding of jobs for the worker (the results are encoded by the worker itself). */
#include "job.h"

#include <stdlib.h>
#include <string.h>

void gasp_job_encode(const gasp_job *j, gasp_wire *w) {
  gasp_wire_u64(w, j->image_hash);
  gasp_wire_u64(w, j->image_len);
  gasp_wire_put(w, j->image, j->image_len);
  gasp_wire_put(w, j->kernel, sizeof j->kernel);
  for (int i = 0; i < 3; i++) gasp_wire_u32(w, j->grid[i]);
  for (int i = 0; i < 3; i++) gasp_wire_u32(w, j->block[i]);
  gasp_wire_u32(w, j->shared_bytes);
  gasp_wire_u32(w, (uint32_t)j->shm);
  gasp_wire_u32(w, j->nbufs);
  for (uint32_t i = 0; i < j->nbufs; i++) {
    const gasp_job_buf *b = &j->bufs[i];
    gasp_wire_u64(w, b->size);
    gasp_wire_u64(w, b->guard);
    gasp_wire_u32(w, (uint32_t)b->copy_back);
    if (!j->shm) gasp_wire_put(w, b->data, b->size + 2 * b->guard);
  }
  gasp_wire_u32(w, j->nparams);
  for (uint32_t i = 0; i < j->nparams; i++) {
    const gasp_job_param *p = &j->params[i];
    gasp_wire_u32(w, (uint32_t)p->is_buf);
    gasp_wire_u32(w, p->buf);
    gasp_wire_u32(w, p->size);
    gasp_wire_u64(w, p->bits);
  }
  gasp_wire_u32(w, j->reps);
  gasp_wire_u32(w, j->warmup);
  gasp_wire_u32(w, (uint32_t)j->flush_l2);
  gasp_wire_u64(w, j->nonce);
}

int gasp_job_decode(gasp_wire *w, gasp_job *j) {
  memset(j, 0, sizeof *j);
  j->image_hash = gasp_wire_get_u64(w);
  j->image_len = gasp_wire_get_u64(w);
  j->image = gasp_wire_get(w, j->image_len);
  const char *k = gasp_wire_get(w, sizeof j->kernel);
  if (k) memcpy(j->kernel, k, sizeof j->kernel);
  j->kernel[sizeof j->kernel - 1] = 0;
  for (int i = 0; i < 3; i++) j->grid[i] = gasp_wire_get_u32(w);
  for (int i = 0; i < 3; i++) j->block[i] = gasp_wire_get_u32(w);
  j->shared_bytes = gasp_wire_get_u32(w);
  j->shm = (int)gasp_wire_get_u32(w);
  j->nbufs = gasp_wire_get_u32(w);
  if (j->nbufs > GASP_JOB_MAX_BUFS) return -1;
  for (uint32_t i = 0; i < j->nbufs && !w->bad; i++) {
    gasp_job_buf *b = &j->bufs[i];
    b->size = gasp_wire_get_u64(w);
    b->guard = gasp_wire_get_u64(w);
    b->copy_back = (int)gasp_wire_get_u32(w);
    if (b->size > GASP_PROTO_MAX_MSG || b->guard > (1u << 20)) return -1;
    b->data = j->shm ? NULL : (uint8_t *)gasp_wire_get(w, b->size + 2 * b->guard);
  }
  j->nparams = gasp_wire_get_u32(w);
  if (j->nparams > GASP_JOB_MAX_PARAMS) return -1;
  for (uint32_t i = 0; i < j->nparams; i++) {
    gasp_job_param *p = &j->params[i];
    p->is_buf = (int)gasp_wire_get_u32(w);
    p->buf = gasp_wire_get_u32(w);
    p->size = gasp_wire_get_u32(w);
    p->bits = gasp_wire_get_u64(w);
    if ((p->is_buf && p->buf >= j->nbufs) || (!p->is_buf && p->size != 4 && p->size != 8)) return -1;
  }
  j->reps = gasp_wire_get_u32(w);
  j->warmup = gasp_wire_get_u32(w);
  j->flush_l2 = (int)gasp_wire_get_u32(w);
  j->nonce = gasp_wire_get_u64(w);
  return w->bad || !j->image ? -1 : 0;
}

size_t gasp_job_layout(const gasp_job *j, size_t off[GASP_JOB_MAX_BUFS]) {
  size_t total = 0;
  for (uint32_t i = 0; i < j->nbufs && i < GASP_JOB_MAX_BUFS; i++) {
    off[i] = total;
    total += (j->bufs[i].size + 2 * j->bufs[i].guard + 255) & ~(size_t)255;
  }
  return total;
}

void gasp_job_result_free(gasp_job_result *r) {
  free(r->times);
  if (!r->bufs_borrowed)
    for (uint32_t i = 0; i < GASP_JOB_MAX_BUFS; i++) free(r->bufs[i]);
  gasp_wire_free(&r->raw);
  memset(r, 0, sizeof *r);
}
