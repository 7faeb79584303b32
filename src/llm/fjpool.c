/* The llama backend's fork-join pool (fjpool.h). */
#include "fjpool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct gasp_fjpool {
  pthread_t *th;
  int n;
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  unsigned gen;
  int stop, busy, items;
  atomic_int next;
  void (*fn)(void *ctx, int item);
  void *ctx;
};

static void drain(gasp_fjpool *p) {
  for (int i; (i = atomic_fetch_add(&p->next, 1)) < p->items;) p->fn(p->ctx, i);
}

static void *worker(void *arg) {
  gasp_fjpool *p = arg;
  unsigned seen = 0;
  for (;;) {
    pthread_mutex_lock(&p->mu);
    while (p->gen == seen && !p->stop) pthread_cond_wait(&p->go, &p->mu);
    if (p->stop) {
      pthread_mutex_unlock(&p->mu);
      return NULL;
    }
    seen = p->gen;
    pthread_mutex_unlock(&p->mu);
    drain(p);
    pthread_mutex_lock(&p->mu);
    if (--p->busy == 0) pthread_cond_signal(&p->done);
    pthread_mutex_unlock(&p->mu);
  }
}

gasp_fjpool *gasp_fjpool_open(int threads) {
  gasp_fjpool *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->go, NULL);
  pthread_cond_init(&p->done, NULL);
  p->th = calloc((size_t)(threads > 1 ? threads - 1 : 1), sizeof *p->th);
  for (int i = 0; p->th && i < threads - 1; i++)
    if (pthread_create(&p->th[p->n], NULL, worker, p) == 0) p->n++;
  return p;
}

void gasp_fjpool_run(gasp_fjpool *p, int items, void (*fn)(void *, int), void *ctx) {
  if (items <= 0) return;
  if (!p || !p->n || items == 1) {
    for (int i = 0; i < items; i++) fn(ctx, i);
    return;
  }
  pthread_mutex_lock(&p->mu);
  p->fn = fn, p->ctx = ctx, p->items = items;
  atomic_store(&p->next, 0);
  p->busy = p->n;
  p->gen++;
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  drain(p);
  pthread_mutex_lock(&p->mu);
  while (p->busy) pthread_cond_wait(&p->done, &p->mu);
  pthread_mutex_unlock(&p->mu);
}

void gasp_fjpool_close(gasp_fjpool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->n; i++) pthread_join(p->th[i], NULL);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->go);
  pthread_cond_destroy(&p->done);
  free(p->th);
  free(p);
}
