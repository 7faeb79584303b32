/* Verification of a candidate on the GPU: buffers, poison, guards, comparison, classification, timing. */
#define _GNU_SOURCE
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "../exec/gl.h"
#include "../task/gen.h"
#include "../task/ref/ref.h"
#include "../target/amdgcn/amd.h"

static gasp_verify_profile prof;

/* GL runs take float4 elements only. */
static int p_type_not_f32(const gasp_task *task) {
  for (int i = 0; i < task->nparams; i++)
    if (task->params[i].type != GASP_DT_F32) return 1;
  return 0;
}
void gasp_verify_profile_get(gasp_verify_profile *p) { *p = prof; }
void gasp_verify_profile_reset(void) { memset(&prof, 0, sizeof prof); }

typedef struct {
  uint8_t *dev[GASP_MAX_PARAMS];   /* what goes to the device: guard + data + guard */
  uint64_t bytes[GASP_MAX_PARAMS];
  void *ref[GASP_MAX_PARAMS];      /* the reference's copy (inputs as sent, outputs computed) */
  uint8_t poison, guard;
} trial_bufs;

static void free_bufs(trial_bufs *b) {
  for (int i = 0; i < GASP_MAX_PARAMS; i++) {
    free(b->dev[i]);
    free(b->ref[i]);
  }
  memset(b, 0, sizeof *b);
}

static void format_value(gasp_dtype t, const void *p, char *buf, size_t cap) {
  switch (t) {
  case GASP_DT_F32: {
    float f;
    uint32_t u;
    memcpy(&f, p, 4);
    memcpy(&u, p, 4);
    snprintf(buf, cap, "%.9g (0x%08x)", f, u);
    break;
  }
  case GASP_DT_F64: {
    double f;
    memcpy(&f, p, 8);
    snprintf(buf, cap, "%.17g", f);
    break;
  }
  case GASP_DT_S32: { int32_t v; memcpy(&v, p, 4); snprintf(buf, cap, "%d", v); break; }
  case GASP_DT_U32: { uint32_t v; memcpy(&v, p, 4); snprintf(buf, cap, "%u", v); break; }
  case GASP_DT_S64: { int64_t v; memcpy(&v, p, 8); snprintf(buf, cap, "%lld", (long long)v); break; }
  case GASP_DT_U64: { uint64_t v; memcpy(&v, p, 8); snprintf(buf, cap, "%llu", (unsigned long long)v); break; }
  default: snprintf(buf, cap, "?");
  }
}

static int value_ok(const gasp_task *task, gasp_dtype t, const void *exp, const void *got) {
  if (t == GASP_DT_F32 || t == GASP_DT_F64) {
    double e, g;
    if (t == GASP_DT_F32) {
      float a, b;
      memcpy(&a, exp, 4);
      memcpy(&b, got, 4);
      e = a;
      g = b;
    } else {
      memcpy(&e, exp, 8);
      memcpy(&g, got, 8);
    }
    if (isnan(e)) return isnan(g);
    if (isinf(e)) return e == g;
    if (!isfinite(g)) return 0;
    return fabs(g - e) <= task->abs_tol + task->rel_tol * fabs(e);
  }
  return memcmp(exp, got, gasp_dtype_size(t)) == 0;
}

static void set_mismatch(gasp_verdict *v, const gasp_param *p, int64_t idx, const void *exp, const void *got) {
  if (v->has_mismatch) return;
  v->has_mismatch = 1;
  gasp_strlcpy(v->param, p->name, sizeof v->param);
  v->index = idx;
  format_value(p->type, exp, v->expected, sizeof v->expected);
  format_value(p->type, got, v->got, sizeof v->got);
}

static gasp_class class_of_fault(int cuda_error) {
  switch (cuda_error) {
  case 700: return GASP_CLASS_ILLEGAL_ADDRESS;   /* CUDA_ERROR_ILLEGAL_ADDRESS */
  case 716: return GASP_CLASS_MISALIGNED;        /* CUDA_ERROR_MISALIGNED_ADDRESS */
  case 715: case 718: case 717: return GASP_CLASS_ILLEGAL_INSTRUCTION; /* ILLEGAL_INSTRUCTION, INVALID_PC, INVALID_ADDRESS_SPACE */
  case 714: return GASP_CLASS_ILLEGAL_INSTRUCTION; /* HARDWARE_STACK_ERROR */
  case 719: return GASP_CLASS_TRAP;              /* LAUNCH_FAILED: what `trap` gives (measured on the H200) */
  case 702: return GASP_CLASS_TIMEOUT;           /* LAUNCH_TIMEOUT */
  default: return GASP_CLASS_ERROR;
  }
}

/* A trial's fixture: device-bound buffers (guard, inputs or poison, guard) and the reference's copy with
 * the expected outputs. It depends only on (task, trial, seed), so it is made once and reused for every
 * candidate of a task in a run: input generation and the CPU reference are computed once, not per
 * candidate (they dominated verification time on small tasks, and take seconds on the L6 sizes). */
static void run_reference(const gasp_task *task, const gasp_trial_shape *sh, trial_bufs *tb) {
  gasp_ref_args a;
  memset(&a, 0, sizeof a);
  for (int i = 0; i < task->nparams; i++) {
    a.p[i] = tb->ref[i];
    a.count[i] = sh->count[i];
    a.s[i].i = sh->scalar[i].i;
  }
  memcpy(a.block, sh->block, sizeof a.block);
  memcpy(a.grid, sh->grid, sizeof a.grid);
  a.task = task;
  gasp_ref_find(task->ref)(&a);
}

static int make_fixture(const gasp_task *task, const gasp_trial_shape *sh, int trial, uint64_t seed, trial_bufs *tb) {
  memset(tb, 0, sizeof *tb);
  /* poison and guard patterns change per trial so that a stale value from an earlier launch cannot match */
  tb->poison = (uint8_t)(0xA5 ^ (trial * 0x3B));
  tb->guard = (uint8_t)(0xE7 ^ (trial * 0x2D));
  if (tb->guard == tb->poison) tb->guard ^= 0x10;
  for (int i = 0; i < task->nparams; i++) {
    const gasp_param *p = &task->params[i];
    if (p->role == GASP_ROLE_SCALAR) continue;
    uint64_t bytes = (uint64_t)sh->count[i] * gasp_dtype_size(p->type);
    tb->bytes[i] = bytes;
    tb->dev[i] = malloc(bytes + 2 * GASP_GUARD_BYTES);
    tb->ref[i] = malloc(bytes ? bytes : 1);
    if (!tb->dev[i] || !tb->ref[i]) return -1;
    memset(tb->dev[i], tb->guard, GASP_GUARD_BYTES);
    memset(tb->dev[i] + GASP_GUARD_BYTES + bytes, tb->guard, GASP_GUARD_BYTES);
    uint8_t *data = tb->dev[i] + GASP_GUARD_BYTES;
    if (p->role == GASP_ROLE_IN) {
      uint64_t s = seed * 0x9E3779B97F4A7C15ULL ^ gasp_fnv1a(task->id, strlen(task->id), GASP_FNV_SEED) ^
                   ((uint64_t)trial << 32) ^ (uint64_t)i * 0x51ED27;
      gasp_gen_fill(p->gen[trial % p->ngen], p->type, data, sh->count[i], s);
      memcpy(tb->ref[i], data, bytes);
    } else {
      memset(data, tb->poison, bytes);
      memset(tb->ref[i], 0, bytes);
    }
  }
  run_reference(task, sh, tb);
  return 0;
}

/* Enough slots for a bench cycling through every task's trials (53 tasks x 3 trials); the byte limit
 * decides what stays. With 16 slots, throughput over the 7 L2 tasks (21 fixtures) thrashed: 11 ms of
 * every candidate went into remaking fixtures (measured on the H200). */
#define FIXTURE_SLOTS 256
#define FIXTURE_BYTES_MAX (1ull << 30)
static struct {
  char task[64];
  int trial;
  uint64_t seed;
  trial_bufs tb;
  uint64_t bytes, used;
} fixtures[FIXTURE_SLOTS];
static uint64_t fixture_clock, fixture_bytes;

static uint64_t tb_bytes(const trial_bufs *tb) {
  uint64_t n = 0;
  for (int i = 0; i < GASP_MAX_PARAMS; i++) n += tb->dev[i] ? 2 * tb->bytes[i] + 2 * GASP_GUARD_BYTES : 0;
  return n;
}

/* Returns the fixture for (task, trial, seed), made now or earlier. *owned is set when it could not be
 * cached (too large) and the caller must free it. */
static trial_bufs *get_fixture(const gasp_task *task, const gasp_trial_shape *sh, int trial, uint64_t seed,
                               trial_bufs *scratch, int *owned) {
  *owned = 0;
  for (int k = 0; k < FIXTURE_SLOTS; k++)
    if (fixtures[k].used && fixtures[k].trial == trial && fixtures[k].seed == seed && !strcmp(fixtures[k].task, task->id)) {
      fixtures[k].used = ++fixture_clock;
      return &fixtures[k].tb;
    }
  if (make_fixture(task, sh, trial, seed, scratch)) {
    free_bufs(scratch);
    return NULL;
  }
  uint64_t bytes = tb_bytes(scratch);
  if (bytes > FIXTURE_BYTES_MAX / 2) {
    *owned = 1;
    return scratch;
  }
  for (;;) {
    int victim = -1, empty = -1;
    for (int k = 0; k < FIXTURE_SLOTS; k++) {
      if (!fixtures[k].used) { if (empty < 0) empty = k; continue; }
      if (victim < 0 || fixtures[k].used < fixtures[victim].used) victim = k;
    }
    if (empty >= 0 && fixture_bytes + bytes <= FIXTURE_BYTES_MAX) {
      gasp_strlcpy(fixtures[empty].task, task->id, sizeof fixtures[empty].task);
      fixtures[empty].trial = trial;
      fixtures[empty].seed = seed;
      fixtures[empty].tb = *scratch;
      fixtures[empty].bytes = bytes;
      fixtures[empty].used = ++fixture_clock;
      fixture_bytes += bytes;
      return &fixtures[empty].tb;
    }
    free_bufs(&fixtures[victim].tb);
    fixture_bytes -= fixtures[victim].bytes;
    fixtures[victim].used = 0;
  }
}

void gasp_verify_cache_clear(void) {
  for (int k = 0; k < FIXTURE_SLOTS; k++)
    if (fixtures[k].used) {
      free_bufs(&fixtures[k].tb);
      fixtures[k].used = 0;
    }
  fixture_bytes = 0;
}

/* The job for a fixture: buffers point into the fixture (read only), scalars by value. */
static void job_from_fixture(const gasp_task *task, const gasp_trial_shape *sh, const trial_bufs *tb,
                             const gasp_binary *bin, gasp_job *j) {
  memset(j, 0, sizeof *j);
  j->image = bin->data;
  j->image_len = bin->len;
  j->image_hash = gasp_fnv1a(bin->data, bin->len, GASP_FNV_SEED);
  gasp_strlcpy(j->kernel, bin->kernel, sizeof j->kernel);
  memcpy(j->grid, sh->grid, sizeof j->grid);
  memcpy(j->block, sh->block, sizeof j->block);
  j->shared_bytes = sh->shared_bytes;
  for (int i = 0; i < task->nparams; i++) {
    const gasp_param *p = &task->params[i];
    gasp_job_param *jp = &j->params[j->nparams++];
    if (p->role == GASP_ROLE_SCALAR) {
      jp->is_buf = 0;
      jp->size = (uint32_t)gasp_dtype_size(p->type);
      if (p->type == GASP_DT_F32) {
        float f = (float)sh->scalar[i].f;
        uint32_t u;
        memcpy(&u, &f, 4);
        jp->bits = u;
      } else if (p->type == GASP_DT_F64) {
        memcpy(&jp->bits, &sh->scalar[i].f, 8);
      } else {
        jp->bits = (uint64_t)sh->scalar[i].i;
        if (jp->size == 4) jp->bits &= 0xffffffffu;
      }
      continue;
    }
    uint32_t bi = j->nbufs++;
    j->bufs[bi].size = tb->bytes[i];
    j->bufs[bi].guard = GASP_GUARD_BYTES;
    j->bufs[bi].data = tb->dev[i];
    j->bufs[bi].copy_back = 1;
    jp->is_buf = 1;
    jp->buf = bi;
  }
}

/* Judges one trial's copied-back buffers. Returns the class (PASS when all is well). */
static gasp_class judge(const gasp_task *task, const trial_bufs *tb, const gasp_job_result *r, gasp_verdict *v) {
  int bi = 0;
  gasp_class worst = GASP_CLASS_PASS;
  /* guards and inputs first: a kernel that writes where it must not is judged by that */
  for (int i = 0; i < task->nparams; i++) {
    const gasp_param *p = &task->params[i];
    if (p->role == GASP_ROLE_SCALAR) continue;
    const uint8_t *got = r->bufs[bi];
    uint64_t bytes = tb->bytes[i];
    if (!got || r->buflen[bi] != bytes + 2 * GASP_GUARD_BYTES) {
      snprintf(v->detail, sizeof v->detail, "buffer '%s' did not come back", p->name);
      return GASP_CLASS_ERROR;
    }
    uint8_t pattern[GASP_GUARD_BYTES];
    memset(pattern, tb->guard, sizeof pattern);
    int guards_ok = !memcmp(got, pattern, GASP_GUARD_BYTES) && !memcmp(got + GASP_GUARD_BYTES + bytes, pattern, GASP_GUARD_BYTES);
    for (uint64_t k = 0; !guards_ok && k < GASP_GUARD_BYTES; k++) {
      int before = got[k] != tb->guard, after = got[GASP_GUARD_BYTES + bytes + k] != tb->guard;
      if (before || after) {
        snprintf(v->detail, sizeof v->detail, "guard bytes %s buffer '%s' changed (byte %s%llu)",
                 before ? "before" : "after", p->name, before ? "-" : "+",
                 (unsigned long long)(before ? GASP_GUARD_BYTES - k : k));
        return GASP_CLASS_OOB_WRITE;
      }
    }
    if (p->role == GASP_ROLE_IN && memcmp(got + GASP_GUARD_BYTES, tb->dev[i] + GASP_GUARD_BYTES, bytes)) {
      uint64_t k = 0;
      while (k < bytes && got[GASP_GUARD_BYTES + k] == tb->dev[i][GASP_GUARD_BYTES + k]) k++;
      size_t es = gasp_dtype_size(p->type);
      snprintf(v->detail, sizeof v->detail, "input '%s' changed at element %llu", p->name,
               (unsigned long long)(k / es));
      return GASP_CLASS_INPUT_MUTATED;
    }
    bi++;
  }
  bi = 0;
  for (int i = 0; i < task->nparams; i++) {
    const gasp_param *p = &task->params[i];
    if (p->role == GASP_ROLE_SCALAR) continue;
    if (p->role == GASP_ROLE_OUT) {
      const uint8_t *got = r->bufs[bi] + GASP_GUARD_BYTES;
      size_t es = gasp_dtype_size(p->type);
      int64_t n = (int64_t)(tb->bytes[i] / es);
      const uint8_t *exp = tb->ref[i];
      /* bit-identical to the reference: every element written and right (unless the reference itself
       * produced the poison pattern, which the element loop below would accept too) */
      if (!memcmp(got, exp, tb->bytes[i])) {
        bi++;
        continue;
      }
      for (int64_t k = 0; k < n; k++) {
        const uint8_t *g = got + k * es, *e = exp + k * es;
        int poisoned = 1;
        for (size_t b = 0; b < es; b++) poisoned &= g[b] == tb->poison;
        int exp_is_poison = 1;
        for (size_t b = 0; b < es; b++) exp_is_poison &= e[b] == tb->poison;
        if (poisoned && !exp_is_poison) {
          v->unwritten_elements++;
          if (worst == GASP_CLASS_PASS) worst = GASP_CLASS_UNWRITTEN;
          set_mismatch(v, p, k, e, g);
        } else if (!value_ok(task, p->type, e, g)) {
          v->bad_elements++;
          if (worst == GASP_CLASS_PASS) worst = GASP_CLASS_WRONG;
          set_mismatch(v, p, k, e, g);
        }
      }
    }
    bi++;
  }
  if (worst == GASP_CLASS_UNWRITTEN)
    snprintf(v->detail, sizeof v->detail, "%lld element(s) never written, %lld wrong; first at %s[%lld]",
             (long long)v->unwritten_elements, (long long)v->bad_elements, v->param, (long long)v->index);
  else if (worst == GASP_CLASS_WRONG)
    snprintf(v->detail, sizeof v->detail, "%lld element(s) wrong; first at %s[%lld]: expected %s, got %s",
             (long long)v->bad_elements, v->param, (long long)v->index, v->expected, v->got);
  return worst;
}

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return x < y ? -1 : x > y;
}

static double median(float *t, uint32_t n) {
  if (!n) return 0;
  qsort(t, n, sizeof *t, cmp_float);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* Classifies a job that did not come back clean. Returns 1 when it decided the verdict. */
static int classify_run(const gasp_job_result *r, gasp_verdict *v) {
  if (r->timed_out) {
    v->cls = GASP_CLASS_TIMEOUT;
    v->stage = GASP_STAGE_RUN;
    snprintf(v->detail, sizeof v->detail, "%s", r->error);
    return 1;
  }
  if (r->worker_died) {
    v->cls = GASP_CLASS_ERROR;
    v->stage = GASP_STAGE_RUN;
    snprintf(v->detail, sizeof v->detail, "%s", r->error);
    return 1;
  }
  if (r->stage == GASP_RUN_OK) return 0;
  v->cuda_error = r->cuda_error;
  snprintf(v->detail, sizeof v->detail, "%s", r->error);
  switch (r->stage) {
  case GASP_RUN_LOAD:
  case GASP_RUN_FUNCTION:
    v->cls = GASP_CLASS_LOAD;
    v->stage = GASP_STAGE_LOAD;
    break;
  case GASP_RUN_LAUNCH:
    /* 701 LAUNCH_OUT_OF_RESOURCES, 1 INVALID_VALUE (too much shared memory or threads) */
    v->cls = r->cuda_error == 701 || r->cuda_error == 1 ? GASP_CLASS_RESOURCE : class_of_fault(r->cuda_error);
    v->stage = GASP_STAGE_RUN;
    break;
  case GASP_RUN_SYNC:
    v->cls = class_of_fault(r->cuda_error);
    v->stage = GASP_STAGE_RUN;
    break;
  case GASP_RUN_HEARTBEAT:
    v->cls = GASP_CLASS_ERROR;
    v->stage = GASP_STAGE_RUN;
    break;
  default:
    v->cls = GASP_CLASS_ERROR;
    v->stage = GASP_STAGE_RUN;
  }
  return 1;
}

static int job_timeout(const gasp_task *task, uint64_t bytes, uint32_t launches) {
  /* the task's limit per launch, plus transfer time at a pessimistic 200 MB/s through the pipe */
  return task->timeout_ms * (int)(launches ? launches : 1) + 2000 + (int)(bytes / (200u * 1000));
}

/* Times a binary: warm-up and timed launches in the worker. Returns 0 with the median in *ms; 1 when the
 * kernel faulted, hung or lost the heartbeat during the timed launches (then *fault holds the verdict:
 * a kernel that fails on its seventh launch is not a pass); -1 when timing could not be done. */
static int time_binary(gasp_pool *pool, const gasp_task *task, const gasp_trial_shape *sh, int trial,
                       const gasp_binary *bin, uint64_t seed, int flush, double *ms, gasp_verdict *fault, char *err,
                       size_t errcap) {
  trial_bufs scratch;
  int owned;
  trial_bufs *tb = get_fixture(task, sh, trial, seed, &scratch, &owned);
  if (!tb) {
    snprintf(err, errcap, "out of host memory");
    return -1;
  }
  gasp_job j;
  job_from_fixture(task, sh, tb, bin, &j);
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < j.nbufs; i++) {
    j.bufs[i].copy_back = 0;
    bytes += j.bufs[i].size;
  }
  j.reps = (uint32_t)task->time_reps;
  j.warmup = 3;
  j.flush_l2 = flush;
  j.nonce = seed ^ 0x7117ull;
  gasp_job_result r;
  int rc = gasp_pool_run(pool, &j, job_timeout(task, bytes, j.reps + j.warmup), &r);
  int ok = rc == 0 && !r.timed_out && !r.worker_died && r.stage == GASP_RUN_OK && r.ntimes && r.heartbeat_ok;
  int failed = 0;
  if (ok) {
    *ms = median(r.times, r.ntimes);
  } else {
    snprintf(err, errcap, "%s", r.error[0] ? r.error : "timing failed");
    if (rc == 0 && fault && classify_run(&r, fault)) failed = 1;
    else if (rc == 0 && fault && r.stage == GASP_RUN_OK && !r.heartbeat_ok) {
      fault->cls = GASP_CLASS_ERROR;
      snprintf(fault->detail, sizeof fault->detail, "the heartbeat after the timed launches is missing");
      failed = 1;
    }
  }
  gasp_job_result_free(&r);
  if (owned) free_bufs(tb);
  return ok ? 0 : failed ? 1 : -1;
}

/* The start of every trial, GPU or GL: the shape, then the fixture. NULL with v's class and detail set
 * when either cannot be had. */
static trial_bufs *begin_trial(const gasp_task *task, int t, uint64_t seed, gasp_trial_shape *sh, trial_bufs *scratch,
                               int *owned, gasp_verdict *v) {
  char err[160];
  if (gasp_task_shape(task, t, sh, err, sizeof err)) {
    v->cls = GASP_CLASS_ERROR;
    snprintf(v->detail, sizeof v->detail, "task shape: %s", err);
    return NULL;
  }
  trial_bufs *tb = get_fixture(task, sh, t, seed, scratch, owned);
  if (!tb) {
    v->cls = GASP_CLASS_ERROR;
    snprintf(v->detail, sizeof v->detail, "out of host memory");
  }
  return tb;
}

/* The end of every trial: a failure sets the verdict, naming the trial. Returns 1 when the trial failed. */
static int trial_failed(const gasp_task *task, int t, gasp_class c, gasp_verdict *v) {
  if (c == GASP_CLASS_PASS) return 0;
  v->cls = c;
  size_t l = strlen(v->detail);
  snprintf(v->detail + l, sizeof v->detail - l, " (trial %d of %d)", t + 1, task->trials);
  return 1;
}

/* Buffers as they went to the device (guards, inputs, poisoned outputs), one per array parameter in order,
 * for runs whose results are not copied back by a worker (GL, offline): the caller writes the outputs in. */
static void result_from_fixture(const gasp_task *task, const trial_bufs *tb, gasp_job_result *r) {
  memset(r, 0, sizeof *r);
  for (int i = 0; i < task->nparams; i++) {
    if (task->params[i].role == GASP_ROLE_SCALAR) continue;
    uint64_t len = tb->bytes[i] + 2 * GASP_GUARD_BYTES;
    r->bufs[r->nbufs] = malloc(len);
    memcpy(r->bufs[r->nbufs], tb->dev[i], len);
    r->buflen[r->nbufs] = len;
    r->nbufs++;
  }
}

int gasp_verify(gasp_pool *pool, const gasp_task *task, const gasp_binary *bin, const gasp_verify_opts *o,
                gasp_verdict *v) {
  memset(v, 0, sizeof *v);
  v->cls = GASP_CLASS_PASS;
  v->stage = GASP_STAGE_LOAD;
  v->regs = bin->regs;
  gasp_trial_shape sh;
  for (int t = 0; t < task->trials; t++) {
    trial_bufs scratch;
    int owned;
    double p0 = gasp_now_s();
    trial_bufs *tb = begin_trial(task, t, o->seed, &sh, &scratch, &owned, v);
    prof.prepare_ms += (gasp_now_s() - p0) * 1e3;
    if (!tb) return 0;
    gasp_job j;
    job_from_fixture(task, &sh, tb, bin, &j);
    j.nonce = (o->seed + 1) * 0x2545F4914F6CDD1DULL ^ (uint64_t)(t + 1);
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < j.nbufs; i++) bytes += j.bufs[i].size;
    gasp_job_result r;
    p0 = gasp_now_s();
    int rc = gasp_pool_run(pool, &j, job_timeout(task, 2 * bytes, 1), &r);
    prof.job_ms += (gasp_now_s() - p0) * 1e3;
    prof.worker_copy_ms += r.copy_ms;
    prof.kernel_ms += r.kernel_ms;
    prof.jobs++;
    v->trials_run = t + 1;
    if (rc) {
      if (owned) free_bufs(tb);
      gasp_job_result_free(&r);
      v->cls = GASP_CLASS_ERROR;
      snprintf(v->detail, sizeof v->detail, "no GPU worker can be started");
      return -1;
    }
    if (r.regs > 0) v->regs = r.regs;
    if (classify_run(&r, v)) {
      if (t > 0) {
        size_t l = strlen(v->detail);
        snprintf(v->detail + l, sizeof v->detail - l, " (trial %d)", t + 1);
      }
      gasp_job_result_free(&r);
      if (owned) free_bufs(tb);
      return 0;
    }
    v->stage = GASP_STAGE_VERIFY;
    p0 = gasp_now_s();
    gasp_class c = judge(task, tb, &r, v);
    prof.judge_ms += (gasp_now_s() - p0) * 1e3;
    gasp_job_result_free(&r);
    if (owned) free_bufs(tb);
    if (trial_failed(task, t, c, v)) return 0;
  }
  if (!o->time) return 0;
  v->stage = GASP_STAGE_TIME;
  char err[256];
  /* time on the last trial's shape (the largest size set comes last in our task files) */
  int last = task->trials - 1;
  gasp_verdict fault;
  memset(&fault, 0, sizeof fault);
  int tr = time_binary(pool, task, &sh, last, bin, o->seed, o->flush_l2, &v->kernel_ms, &fault, err, sizeof err);
  if (tr == 1) {
    v->cls = fault.cls;
    v->cuda_error = fault.cuda_error;
    v->stage = GASP_STAGE_TIME;
    snprintf(v->detail, sizeof v->detail, "passed every checked trial, then failed during timed launches: %.400s",
             fault.detail);
    return 0;
  }
  if (tr) {
    snprintf(v->detail, sizeof v->detail, "passed; timing failed: %s", err);
    return 0;
  }
  if (o->baseline) {
    double base = o->baseline_cache_ms ? *o->baseline_cache_ms : 0;
    if (base <= 0 && time_binary(pool, task, &sh, last, o->baseline, o->seed, o->flush_l2, &base, NULL, err, sizeof err) == 0 &&
        o->baseline_cache_ms)
      *o->baseline_cache_ms = base;
    if (base > 0 && v->kernel_ms > 0) {
      v->baseline_ms = base;
      v->speedup = base / v->kernel_ms;
      v->slow = v->speedup < 1.0 - GASP_FAST_TOLERANCE;
      v->suspicious = v->speedup > 10.0;
    }
  }
  return 0;
}

int gasp_verify_offline(const gasp_task *task, int trial, uint64_t seed, gasp_verify_mutator mutate, void *ctx,
                        gasp_verdict *v) {
  memset(v, 0, sizeof *v);
  gasp_trial_shape sh;
  trial_bufs scratch;
  int owned;
  trial_bufs *tb = begin_trial(task, trial, seed, &sh, &scratch, &owned, v);
  if (!tb) return -1;
  /* what a perfect kernel returns: the reference's outputs in place of the poison */
  gasp_job_result r;
  result_from_fixture(task, tb, &r);
  for (int i = 0, k = 0; i < task->nparams; i++) {
    if (task->params[i].role == GASP_ROLE_SCALAR) continue;
    if (task->params[i].role == GASP_ROLE_OUT) memcpy(r.bufs[k] + GASP_GUARD_BYTES, tb->ref[i], tb->bytes[i]);
    if (mutate) mutate(task, i, r.bufs[k], tb->bytes[i], GASP_GUARD_BYTES, ctx);
    k++;
  }
  gasp_class c = judge(task, tb, &r, v);
  v->cls = c;
  v->stage = GASP_STAGE_VERIFY;
  gasp_job_result_free(&r);
  if (owned) free_bufs(tb);
  return 0;
}

int gasp_verify_gl(const gasp_task *task, const gasp_binary *bin, const gasp_verify_opts *o, gasp_verdict *v) {
  memset(v, 0, sizeof *v);
  v->cls = GASP_CLASS_PASS;
  v->stage = GASP_STAGE_RUN;
  char why[256];
  gasp_gl *g = gasp_gl_shared(why, sizeof why);
  if (!g) {
    v->cls = GASP_CLASS_SKIPPED;
    snprintf(v->detail, sizeof v->detail, "no GL context: %s", why);
    return -1;
  }
  for (int t = 0; t < task->trials; t++) {
    gasp_trial_shape sh;
    char err[256];
    trial_bufs scratch;
    int owned;
    trial_bufs *tb = begin_trial(task, t, o->seed, &sh, &scratch, &owned, v);
    if (!tb) return 0;
    gasp_gl_job job;
    memset(&job, 0, sizeof job);
    int w = (int)sh.grid[0], h = (int)sh.grid[1];
    job.width = w;
    job.height = h;
    if (bin->kernel[0] == 'v') job.vertex = bin->data;
    else job.fragment = bin->data;
    float locals[4 * GASP_MAX_PARAMS];
    int out_param = -1, ok = 1;
    for (int i = 0; i < task->nparams; i++) {
      const gasp_param *p = &task->params[i];
      if (p->role == GASP_ROLE_SCALAR) {
        for (int c = 0; c < 4; c++) locals[4 * job.nlocal + c] = (float)sh.scalar[i].f;
        job.nlocal++;
      } else if (p->role == GASP_ROLE_IN) {
        const float *data = (const float *)(tb->dev[i] + GASP_GUARD_BYTES);
        if (task->vertex_program && job.nattribs < 4) job.attribs[job.nattribs++] = data;
        else if (job.ntextures < 4) job.textures[job.ntextures++] = data;
        else ok = 0;
        if (sh.count[i] != 4LL * w * h) ok = 0;
      } else {
        out_param = i;
        if (sh.count[i] != 4LL * w * h) ok = 0;
      }
    }
    job.local_params = job.nlocal ? locals : NULL;
    if (!ok || out_param < 0 || p_type_not_f32(task)) {
      if (owned) free_bufs(tb);
      v->cls = GASP_CLASS_ERROR;
      snprintf(v->detail, sizeof v->detail, "task does not fit the GL layout (f32 arrays of 4*w*h, at most 4 inputs, one output)");
      return 0;
    }
    memcpy(&job.poison, (uint8_t[4]){tb->poison, tb->poison, tb->poison, tb->poison}, 4);
    /* the inputs went to GL as textures or attributes, which a program cannot write: they come back as sent;
     * the framebuffer is read back into the output's buffer, between its guards */
    gasp_job_result r;
    result_from_fixture(task, tb, &r);
    int out_buf = 0;
    for (int i = 0; i < out_param; i++) out_buf += task->params[i].role != GASP_ROLE_SCALAR;
    double t0 = gasp_now_s();
    int rc = gasp_gl_run(g, &job, (float *)(r.bufs[out_buf] + GASP_GUARD_BYTES), err, sizeof err);
    v->kernel_ms += (gasp_now_s() - t0) * 1e3;
    v->trials_run = t + 1;
    if (rc) {
      gasp_job_result_free(&r);
      if (owned) free_bufs(tb);
      v->cls = strstr(err, "line ") ? GASP_CLASS_LOAD : GASP_CLASS_ERROR;
      snprintf(v->detail, sizeof v->detail, "%s", err);
      return 0;
    }
    v->stage = GASP_STAGE_VERIFY;
    gasp_class c = judge(task, tb, &r, v);
    gasp_job_result_free(&r);
    if (owned) free_bufs(tb);
    if (trial_failed(task, t, c, v)) return 0;
  }
  v->kernel_ms /= task->trials;
  return 0;
}

int gasp_verify_emu(const gasp_task *task, const gasp_binary *bin, const gasp_verify_opts *o, gasp_verdict *v) {
  memset(v, 0, sizeof *v);
  v->cls = GASP_CLASS_PASS;
  v->stage = GASP_STAGE_RUN;
  v->regs = bin->regs;
  for (int t = 0; t < task->trials; t++) {
    gasp_trial_shape sh;
    trial_bufs scratch;
    int owned;
    trial_bufs *tb = begin_trial(task, t, o->seed, &sh, &scratch, &owned, v);
    if (!tb) return 0;
    /* the kernel works on a copy of the fixture's device buffers (guards, inputs, poisoned outputs), which the
     * emulator reads and writes in place; the fixture stays pristine for the next candidate */
    gasp_job_result r;
    result_from_fixture(task, tb, &r);
    uint8_t *bufs[GASP_MAX_PARAMS] = {0};
    for (int i = 0, k = 0; i < task->nparams; i++)
      if (task->params[i].role != GASP_ROLE_SCALAR) bufs[i] = r.bufs[k++];
    gasp_class c;
    uint64_t wi;
    double t0 = gasp_now_s();
    int rc = gasp_amd_emulate(bin, task, &sh, bufs, tb->bytes, GASP_GUARD_BYTES, &c, v->detail, sizeof v->detail, &wi);
    v->kernel_ms += (gasp_now_s() - t0) * 1e3;
    v->trials_run = t + 1;
    if (rc || c != GASP_CLASS_PASS) {
      gasp_job_result_free(&r);
      if (owned) free_bufs(tb);
      v->cls = rc ? GASP_CLASS_SKIPPED : c;
      if (!rc && t > 0) {
        size_t l = strlen(v->detail);
        snprintf(v->detail + l, sizeof v->detail - l, " (trial %d)", t + 1);
      }
      return rc ? -1 : 0;
    }
    v->stage = GASP_STAGE_VERIFY;
    c = judge(task, tb, &r, v);
    gasp_job_result_free(&r);
    if (owned) free_bufs(tb);
    if (trial_failed(task, t, c, v)) return 0;
  }
  v->kernel_ms /= task->trials;
  return 0;
}
