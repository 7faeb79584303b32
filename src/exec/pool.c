/* Worker processes: spawn, hello, job, watchdog, replacement. */
#define _GNU_SOURCE
#include "pool.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/util.h"

extern char **environ;

typedef struct {
  pid_t pid;
  int to_fd, from_fd;
  uint8_t *in_map, *out_map; /* shared with the worker: job inputs, results */
  size_t shm_size;
  int ready;        /* hello received */
  gasp_hello hello;
} worker;

#define MAX_SPARES 16

struct gasp_pool {
  gasp_pool_opts o;
  size_t shm_size;
  char path[PATH_MAX];
  worker active;
  worker spares[MAX_SPARES];
  int nspares;
  gasp_pool_stats st;
  char device[GASP_HELLO_NAME];
  int cc, device_count;
  gasp_wire w;
};

void gasp_pool_default_opts(gasp_pool_opts *o) {
  memset(o, 0, sizeof *o);
  o->spares = 1;
  o->start_timeout_ms = 60000;
}

static void find_worker(const char *given, char *buf, size_t cap) {
  const char *e = given ? given : getenv("GASP_WORKER");
  if (e && *e) {
    gasp_strlcpy(buf, e, cap);
    return;
  }
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = 0;
    snprintf(buf, cap, "%s/gasp-worker", dirname(self));
  } else {
    gasp_strlcpy(buf, "gasp-worker", cap);
  }
}

static int spawn(gasp_pool *p, worker *w) {
  memset(w, 0, sizeof *w);
  int to[2], from[2];
  if (pipe2(to, O_CLOEXEC)) return -1;
  if (pipe2(from, O_CLOEXEC)) { close(to[0]); close(to[1]); return -1; }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, to[0], 0);
  posix_spawn_file_actions_adddup2(&fa, from[1], 1);
  /* two shared regions (fds 3 and 4 in the worker) carry buffer contents without the pipe */
  int in_fd = -1, out_fd = -1;
  if (p->shm_size) {
    in_fd = memfd_create("gasp-in", MFD_CLOEXEC);
    out_fd = memfd_create("gasp-out", MFD_CLOEXEC);
    if (in_fd >= 0 && out_fd >= 0 && !ftruncate(in_fd, (off_t)p->shm_size) && !ftruncate(out_fd, (off_t)p->shm_size)) {
      w->in_map = mmap(NULL, p->shm_size, PROT_READ | PROT_WRITE, MAP_SHARED, in_fd, 0);
      w->out_map = mmap(NULL, p->shm_size, PROT_READ, MAP_SHARED, out_fd, 0);
      if (w->in_map == MAP_FAILED || w->out_map == MAP_FAILED) {
        if (w->in_map != MAP_FAILED) munmap(w->in_map, p->shm_size);
        if (w->out_map != MAP_FAILED) munmap(w->out_map, p->shm_size);
        w->in_map = w->out_map = NULL;
      } else {
        w->shm_size = p->shm_size;
        posix_spawn_file_actions_adddup2(&fa, in_fd, 3);
        posix_spawn_file_actions_adddup2(&fa, out_fd, 4);
      }
    }
  }
  if (!w->in_map) {
    /* no shared regions: fds 3 and 4 must not be whatever the parent happens to have there */
    posix_spawn_file_actions_addopen(&fa, 3, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 4, "/dev/null", O_RDONLY, 0);
  }
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  /* own process group, so the watchdog's kill reaches anything the driver forked */
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&at, 0);
  char dev[16];
  snprintf(dev, sizeof dev, "%d", p->o.device);
  setenv("GASP_DEVICE", dev, 1);
  char *argv[] = {p->path, NULL};
  int rc = posix_spawn(&w->pid, p->path, &fa, &at, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  if (in_fd >= 0) close(in_fd);
  if (out_fd >= 0) close(out_fd);
  close(to[0]);
  close(from[1]);
  if (rc) {
    close(to[1]);
    close(from[0]);
    if (w->in_map) munmap(w->in_map, w->shm_size);
    if (w->out_map) munmap(w->out_map, w->shm_size);
    w->in_map = w->out_map = NULL;
    errno = rc;
    return -1;
  }
  w->to_fd = to[1];
  w->from_fd = from[0];
  /* a job carries megabytes; the default 64 KiB pipe makes that many context switches */
  fcntl(w->to_fd, F_SETPIPE_SZ, 1 << 20);
  fcntl(w->from_fd, F_SETPIPE_SZ, 1 << 20);
  return 0;
}

/* Killed workers are reaped later: tearing down a CUDA context after a fault took hundreds of
 * milliseconds on the H200, and nothing needs to wait for it. */
static pid_t zombies[256];
static int nzombies;

static void reap(int block) {
  for (int i = 0; i < nzombies;) {
    pid_t r = waitpid(zombies[i], NULL, block ? 0 : WNOHANG);
    if (r == zombies[i] || (r < 0 && errno == ECHILD)) zombies[i] = zombies[--nzombies];
    else i++;
  }
}

static void kill_worker(worker *w) {
  if (w->pid <= 0) return;
  kill(-w->pid, SIGKILL);
  kill(w->pid, SIGKILL);
  close(w->to_fd);
  close(w->from_fd);
  if (w->in_map) munmap(w->in_map, w->shm_size);
  if (w->out_map) munmap(w->out_map, w->shm_size);
  w->in_map = w->out_map = NULL;
  reap(0);
  if (nzombies == 256) reap(1);
  zombies[nzombies++] = w->pid;
  w->pid = 0;
}

static int await_hello(gasp_pool *p, worker *w, char *why, size_t cap) {
  if (w->ready) return 0;
  gasp_msg_hdr h;
  int r = gasp_msg_read_timeout(w->from_fd, &h, &p->w, p->o.start_timeout_ms);
  if (r || h.type != GASP_MSG_HELLO || h.len != sizeof(gasp_hello)) {
    if (r == -2) snprintf(why, cap, "GPU worker did not start within %d ms", p->o.start_timeout_ms);
    else snprintf(why, cap, "GPU worker '%.200s' failed to start", p->path);
    kill_worker(w);
    return -1;
  }
  memcpy(&w->hello, p->w.p, sizeof w->hello);
  if (w->hello.status) {
    snprintf(why, cap, "%s", w->hello.error);
    kill_worker(w);
    return -1;
  }
  w->ready = 1;
  p->st.init_ms_last = w->hello.init_ms;
  p->st.cuinit_ms_last = w->hello.cuinit_ms;
  p->st.ctx_ms_last = w->hello.ctx_ms;
  p->st.module_ms_last = w->hello.module_ms;
  return 0;
}

static void top_up_spares(gasp_pool *p) {
  int want = p->o.fresh_per_job ? 0 : p->o.spares;
  while (p->nspares < want && p->nspares < MAX_SPARES) {
    if (spawn(p, &p->spares[p->nspares])) break;
    p->nspares++;
  }
}

/* Makes p->active a ready worker: a spare if one is there, else a new one. */
static int replace_active(gasp_pool *p, char *why, size_t cap) {
  double t0 = gasp_now_s();
  kill_worker(&p->active);
  for (int tries = 0; tries < 3; tries++) {
    if (p->nspares > 0) {
      p->active = p->spares[0];
      memmove(&p->spares[0], &p->spares[1], (size_t)(p->nspares - 1) * sizeof p->spares[0]);
      p->nspares--;
    } else if (spawn(p, &p->active)) {
      snprintf(why, cap, "cannot start '%.200s': %s", p->path, strerror(errno));
      return -1;
    }
    top_up_spares(p);
    if (await_hello(p, &p->active, why, cap) == 0) {
      double ms = (gasp_now_s() - t0) * 1e3;
      p->st.restart_wait_ms += ms;
      if (ms > p->st.max_restart_wait_ms) p->st.max_restart_wait_ms = ms;
      return 0;
    }
  }
  return -1;
}

gasp_pool *gasp_pool_open(const gasp_pool_opts *o, char *why, size_t cap) {
  gasp_pool *p = calloc(1, sizeof *p);
  if (o) p->o = *o;
  else gasp_pool_default_opts(&p->o);
  if (p->o.start_timeout_ms <= 0) p->o.start_timeout_ms = 60000;
  if (p->o.spares < 0) p->o.spares = 0;
  if (p->o.spares > MAX_SPARES) p->o.spares = MAX_SPARES;
  find_worker(p->o.worker_path, p->path, sizeof p->path);
  /* shared regions per worker; jobs larger than this go through the pipe */
  const char *mb = getenv("GASP_SHM_MB");
  p->shm_size = (size_t)(mb ? atoi(mb) : 64) << 20;
  if (access(p->path, X_OK)) {
    snprintf(why, cap, "GPU worker '%s' not found", p->path);
    free(p);
    return NULL;
  }
  signal(SIGPIPE, SIG_IGN);
  if (spawn(p, &p->active) || await_hello(p, &p->active, why, cap)) {
    gasp_wire_free(&p->w);
    free(p);
    return NULL;
  }
  gasp_strlcpy(p->device, p->active.hello.device, sizeof p->device);
  p->cc = p->active.hello.cc_major * 10 + p->active.hello.cc_minor;
  p->device_count = p->active.hello.device_count;
  top_up_spares(p);
  return p;
}

void gasp_pool_close(gasp_pool *p) {
  if (!p) return;
  if (p->active.pid > 0) gasp_msg_write(p->active.to_fd, GASP_MSG_QUIT, "", 0);
  kill_worker(&p->active);
  for (int i = 0; i < p->nspares; i++) kill_worker(&p->spares[i]);
  reap(1);
  gasp_wire_free(&p->w);
  free(p);
}

const char *gasp_pool_device(const gasp_pool *p) { return p->device; }
int gasp_pool_cc(const gasp_pool *p) { return p->cc; }
int gasp_pool_device_count(const gasp_pool *p) { return p->device_count; }
void gasp_pool_get_stats(const gasp_pool *p, gasp_pool_stats *s) { *s = p->st; }

static int decode_result(gasp_wire *w, gasp_job_result *r, const worker *wk, const gasp_job *j) {
  r->stage = (int)gasp_wire_get_u32(w);
  r->cuda_error = (int)gasp_wire_get_u32(w);
  const char *e = gasp_wire_get(w, sizeof r->error);
  if (e) memcpy(r->error, e, sizeof r->error);
  r->error[sizeof r->error - 1] = 0;
  r->sticky = (int)gasp_wire_get_u32(w);
  r->heartbeat_ok = (int)gasp_wire_get_u32(w);
  r->regs = (int)gasp_wire_get_u32(w);
  r->kernel_ms = gasp_wire_get_f64(w);
  r->load_ms = gasp_wire_get_f64(w);
  r->copy_ms = gasp_wire_get_f64(w);
  r->ntimes = gasp_wire_get_u32(w);
  if (r->ntimes > 1000000) return -1;
  const void *t = gasp_wire_get(w, r->ntimes * sizeof(float));
  if (r->ntimes && t) {
    r->times = malloc(r->ntimes * sizeof(float));
    if (!r->times) return -1;
    memcpy(r->times, t, r->ntimes * sizeof(float));
  }
  r->nbufs = gasp_wire_get_u32(w);
  if (r->nbufs > GASP_JOB_MAX_BUFS) return -1;
  size_t off[GASP_JOB_MAX_BUFS];
  size_t total = gasp_job_layout(j, off);
  if (j->shm) {
    r->bufs_borrowed = 1;
    if (r->nbufs > j->nbufs || total > wk->shm_size) return -1;
    for (uint32_t i = 0; i < r->nbufs; i++) {
      r->buflen[i] = gasp_wire_get_u64(w);
      if (r->buflen[i] && r->buflen[i] != j->bufs[i].size + 2 * j->bufs[i].guard) return -1;
      r->bufs[i] = r->buflen[i] ? wk->out_map + off[i] : NULL;
    }
    return w->bad ? -1 : 0;
  }
  for (uint32_t i = 0; i < r->nbufs; i++) {
    r->buflen[i] = gasp_wire_get_u64(w);
    const void *b = gasp_wire_get(w, r->buflen[i]);
    if (!b) return -1;
    if (r->buflen[i]) {
      if (i >= j->nbufs || r->buflen[i] != j->bufs[i].size + 2 * j->bufs[i].guard) return -1;
      r->bufs[i] = malloc(r->buflen[i]);
      if (!r->bufs[i]) return -1;
      memcpy(r->bufs[i], b, r->buflen[i]);
    }
  }
  return w->bad ? -1 : 0;
}

int gasp_pool_run(gasp_pool *p, const gasp_job *j, int timeout_ms, gasp_job_result *r) {
  memset(r, 0, sizeof *r);
  char why[256];
  double t0 = gasp_now_s();
  if (p->o.fresh_per_job && p->st.jobs > 0) {
    p->st.restarts++;
    if (replace_active(p, why, sizeof why)) return -1;
  }
  if (p->active.pid <= 0 && replace_active(p, why, sizeof why)) return -1;
  p->st.jobs++;
  gasp_wire_init(&r->raw);
  gasp_job jj = *j;
  size_t off[GASP_JOB_MAX_BUFS];
  size_t total = gasp_job_layout(j, off);
  if (p->active.in_map && total <= p->active.shm_size) {
    /* contents go through the shared region: one copy here, one DMA in the worker */
    for (uint32_t i = 0; i < j->nbufs; i++)
      memcpy(p->active.in_map + off[i], j->bufs[i].data, j->bufs[i].size + 2 * j->bufs[i].guard);
    jj.shm = 1;
  }
  gasp_job_encode(&jj, &r->raw);
  int wr = gasp_msg_write(p->active.to_fd, GASP_MSG_RUN, r->raw.p, r->raw.len);
  gasp_msg_hdr h;
  int rd = wr ? -1 : gasp_msg_read_timeout(p->active.from_fd, &h, &r->raw, timeout_ms);
  r->wall_ms = (gasp_now_s() - t0) * 1e3;
  if (rd == -2) {
    r->timed_out = 1;
    p->st.timeouts++;
    snprintf(r->error, sizeof r->error, "no reply within %d ms: worker killed", timeout_ms);
  } else if (rd || h.type != GASP_MSG_RESULT || decode_result(&r->raw, r, &p->active, &jj)) {
    r->worker_died = 1;
    p->st.crashes++;
    snprintf(r->error, sizeof r->error, "GPU worker died without a reply");
  }
  gasp_wire_free(&r->raw);
  if (!r->timed_out && !r->worker_died && r->stage == GASP_RUN_OK && r->sticky) {
    /* a clean run that claims a lost context is a broken reply */
    r->worker_died = 1;
    snprintf(r->error, sizeof r->error, "GPU worker sent an inconsistent reply");
  }
  if (r->timed_out || r->worker_died || r->sticky || r->stage == GASP_RUN_PROTOCOL) {
    /* the buffers may point into this worker's shared region, which goes with it */
    if (r->bufs_borrowed) {
      memset(r->bufs, 0, sizeof r->bufs);
      r->nbufs = 0;
    }
    p->st.restarts++;
    if (replace_active(p, why, sizeof why)) {
      kill_worker(&p->active);
      p->active.pid = 0;
    }
  }
  return 0;
}

int gasp_pool_crash_worker(gasp_pool *p) {
  return gasp_msg_write(p->active.to_fd, GASP_MSG_CRASH, "", 0);
}
