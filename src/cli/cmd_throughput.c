/* gasp throughput: candidates verified per second per GPU with the persistent worker and with one process
 * per candidate, side by side in one run, and how fast the worker recovers from faulting candidates. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/util.h"
#include "../extract/extract.h"
#include "cli.h"
#include "common.h"

typedef struct {
  const gasp_task *task;
  gasp_binary bin;
} prepared;

static int prepare(const gasp_target *t, const gasp_task *task, const char *answer, gasp_binary *bin) {
  gasp_diags d;
  gasp_diags_init(&d);
  int rc = gasp_assemble_answer(t, task, answer, bin, &d);
  if (rc) cli_print_diags(&d, task->id, stderr);
  gasp_diags_free(&d);
  return rc;
}

static double run_mode(gasp_pool *pool, prepared *p, int np, int n, int *passes, int *fails) {
  double t0 = gasp_now_s();
  *passes = *fails = 0;
  for (int i = 0; i < n; i++) {
    /* one seed for the run, as in `gasp bench`: every candidate of a task sees the same trials */
    gasp_verify_opts vo = {1, 0, 0, NULL, NULL};
    gasp_verdict v;
    if (gasp_verify(pool, p[i % np].task, &p[i % np].bin, &vo, &v)) return -1;
    if (v.cls == GASP_CLASS_PASS) (*passes)++;
    else (*fails)++;
  }
  return gasp_now_s() - t0;
}

/* K worker processes at once, each with its own GPU worker (round the visible GPUs), each verifying n/K
 * candidates after a common start signal; the time is from that signal to the last one's end. */
typedef struct {
  int passes, fails, failed;
} share_result;

static double run_workers(int k, int ngpu, prepared *p, int np, int n, int *passes, int *fails) {
  int ready[2], go[2], res[2];
  if (pipe(ready) || pipe(go) || pipe(res)) return -1;
  fflush(NULL);
  pid_t *pid = calloc((size_t)k, sizeof *pid);
  for (int w = 0; w < k; w++) {
    pid[w] = fork();
    if (pid[w] == 0) {
      close(go[1]);
      gasp_pool_opts po;
      gasp_pool_default_opts(&po);
      po.spares = 0;
      po.device = ngpu > 0 ? w % ngpu : 0;
      char why[256];
      gasp_pool *pool = cli_open_pool(&po, why, sizeof why);
      share_result r = {0, 0, !pool};
      int mine = n / k + (w < n % k), pa = 0, fa = 0;
      if (pool) run_mode(pool, p, np, np, &pa, &fa); /* warm-up, as for one worker */
      char c = 1;
      if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1) _exit(1);
      if (pool && run_mode(pool, p, np, mine, &r.passes, &r.fails) < 0) r.failed = 1;
      if (write(res[1], &r, sizeof r) != sizeof r) _exit(1);
      gasp_pool_close(pool);
      _exit(0);
    }
  }
  close(ready[1]);
  close(res[1]);
  close(go[0]);
  char c;
  int ok = 1;
  for (int w = 0; w < k; w++) ok &= read(ready[0], &c, 1) == 1;
  double t0 = gasp_now_s();
  for (int w = 0; w < k && ok; w++) ok &= write(go[1], "g", 1) == 1;
  *passes = *fails = 0;
  for (int w = 0; w < k && ok; w++) {
    share_result r;
    ok &= read(res[0], &r, sizeof r) == sizeof r && !r.failed;
    *passes += r.passes;
    *fails += r.fails;
  }
  double t = gasp_now_s() - t0;
  close(go[1]);
  close(ready[0]);
  close(res[0]);
  for (int w = 0; w < k; w++)
    if (pid[w] > 0) waitpid(pid[w], NULL, 0);
  free(pid);
  return ok ? t : -1;
}

int cmd_throughput(int argc, char **argv) {
  const char *glob = NULL, *target = "ptx-sm90";
  int n = 2000, nfresh = 20, faults = 100, spares = 2, level = 2, workers = 1;
  gasp_opt opts[] = {
      {"target", 't', OPT_STR, "T", "target (default ptx-sm90)", &target},
      {"tasks", 0, OPT_STR, "GLOB", "tasks to cycle through (default: every level-2 task)", &glob},
      {"candidates", 'n', OPT_INT, "N", "candidates with the persistent worker (default 2000)", &n},
      {"fresh", 0, OPT_INT, "N", "candidates with one process each (default 20)", &nfresh},
      {"faults", 0, OPT_INT, "N", "faulting candidates for the recovery measurement (default 100)", &faults},
      {"spares", 0, OPT_INT, "N", "warm spare workers during the fault run (default 2)", &spares},
      {"workers", 'j', OPT_INT, "K", "also K worker processes at once (round the visible GPUs), beside one (default 1)", &workers},
      {0}};
  gasp_cmd_spec spec = {"throughput", "[--tasks GLOB] [-n N] [--fresh N] [--faults N]",
                        "Measure candidates verified per second on this GPU: persistent worker vs one process per "
                        "candidate, side by side, and fault recovery.",
                        "Candidates are the reference answers of the chosen tasks, assembled once; each is verified in\n"
                        "full (every trial, poison, guards, comparison). Needs a GPU.",
                        opts};
  const char *pos[1];
  int npos;
  int rc = gasp_cli_parse(&spec, argc, argv, pos, &npos, 0);
  if (rc) return rc < 0 ? 0 : rc;
  const gasp_target *t = cli_target("throughput", target);
  if (!t) return GASP_EXIT_USAGE;
  if (t->exec != GASP_EXEC_CUDA) {
    gasp_cli_error("throughput", "target '%s' does not run on a GPU worker", t->name);
    return GASP_EXIT_USAGE;
  }
  gasp_taskset ts;
  cli_load_tasks("throughput", &ts, 0);
  prepared p[64];
  int np = 0;
  double t_asm = 0;
  for (size_t i = 0; i < ts.count && np < 64; i++) {
    const gasp_task *task = &ts.items[i];
    if ((glob ? !gasp_glob_match(glob, task->id) : task->level != level) || !gasp_task_fits(task, t->isa)) continue;
    char *ans = NULL;
    gasp_diags d;
    gasp_diags_init(&d);
    if (t->reference_answer(t, task, &ans, &d)) {
      cli_print_diags(&d, task->path, stderr);
      gasp_diags_free(&d);
      continue;
    }
    gasp_diags_free(&d);
    double a0 = gasp_now_s();
    memset(&p[np].bin, 0, sizeof p[np].bin);
    if (prepare(t, task, ans, &p[np].bin) == 0) {
      p[np].task = task;
      np++;
    }
    t_asm += gasp_now_s() - a0;
    free(ans);
  }
  if (!np) {
    gasp_cli_error("throughput", "no task to run");
    return GASP_EXIT_USAGE;
  }
  char why[256];
  gasp_pool_opts po;
  gasp_pool_default_opts(&po);
  po.spares = 0;
  gasp_pool *pool = cli_open_pool(&po, why, sizeof why);
  if (!pool) {
    fprintf(stderr, "gasp throughput: skipped: %s\n", why);
    gasp_taskset_free(&ts);
    return GASP_EXIT_SKIPPED;
  }
  int pa, fa, pf, ff;
  /* warm-up: module loads and the first allocation */
  run_mode(pool, p, np, np, &pa, &fa);
  gasp_verify_profile_reset();
  double tp = run_mode(pool, p, np, n, &pa, &fa);
  gasp_verify_profile vp;
  gasp_verify_profile_get(&vp);
  int ngpu = gasp_pool_device_count(pool);
  gasp_pool_close(pool);
  int pk = 0, fk = 0;
  double tk = workers > 1 ? run_workers(workers, ngpu, p, np, n, &pk, &fk) : 0;
  po.fresh_per_job = 1;
  pool = cli_open_pool(&po, why, sizeof why);
  double tf = pool && nfresh > 0 ? run_mode(pool, p, np, nfresh, &pf, &ff) : -1;
  gasp_pool_close(pool);
  printf("device: GPU 0, %d task(s): ", np);
  for (int i = 0; i < np; i++) printf("%s%s", i ? ", " : "", p[i].task->id);
  printf("\nptxas: %.1f ms per candidate (not part of the figures below)\n\n", 1e3 * t_asm / np);
  printf("%-28s %10s %10s %12s %12s %7s\n", "mode", "candidates", "seconds", "per second", "ms each", "passed");
  printf("%-28s %10d %10.3f %12.1f %12.3f %7d\n", "persistent worker", n, tp, n / tp, 1e3 * tp / n, pa);
  if (nfresh > 0 && tf > 0) printf("%-28s %10d %10.3f %12.1f %12.3f %7d\n", "one process per candidate", nfresh, tf, nfresh / tf,
                     1e3 * tf / nfresh, pf);
  if (workers > 1 && tk > 0) {
    char label[64];
    int used = ngpu > 0 ? (ngpu < workers ? ngpu : workers) : 1;
    snprintf(label, sizeof label, "%d workers on %d GPU%s", workers, used, used > 1 ? "s" : "");
    printf("%-28s %10d %10.3f %12.1f %12.3f %7d\n", label, n, tk, n / tk, 1e3 * tk / n, pk);
  }
  if (nfresh > 0 && tf > 0) printf("ratio persistent/per-process: %.1fx\n", (n / tp) / (nfresh / tf));
  if (workers > 1 && tk > 0) printf("ratio %d workers/1 worker: %.2fx\n", workers, (n / tk) / (n / tp));
  if (workers > 1 && tk <= 0) printf("%d workers: could not run (a worker did not start)\n", workers);
  printf("persistent, per candidate (%.1f jobs): inputs and CPU reference (cached per task and trial) %.3f ms, worker round trip %.3f ms (of which "
         "host<->device copies %.3f ms, kernel %.3f ms), comparison %.3f ms\n",
         (double)vp.jobs / n, vp.prepare_ms / n, vp.job_ms / n, vp.worker_copy_ms / n, vp.kernel_ms / n,
         vp.judge_ms / n);
  /* fault recovery: a kernel that traps, over and over */
  if (faults > 0) {
    const char *trap_ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                           ".visible .entry vector_add(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)\n"
                           "{\n  trap;\n  ret;\n}\n";
    const gasp_task *vt = gasp_taskset_find(&ts, "vector_add");
    gasp_binary tb;
    memset(&tb, 0, sizeof tb);
    if (vt && prepare(t, vt, trap_ptx, &tb) == 0) {
      po.fresh_per_job = 0;
      po.spares = spares;
      pool = cli_open_pool(&po, why, sizeof why);
      if (pool) {
        prepared fp = {vt, tb};
        int okc = 0, bad = 0;
        double t0 = gasp_now_s();
        for (int i = 0; i < faults; i++) {
          gasp_verify_opts vo = {(uint64_t)i + 1, 0, 0, NULL, NULL};
          gasp_verdict v;
          if (gasp_verify(pool, fp.task, &fp.bin, &vo, &v)) break;
          if (v.cls == GASP_CLASS_TRAP) okc++;
          else bad++;
        }
        double tt = gasp_now_s() - t0;
        gasp_pool_stats st;
        gasp_pool_get_stats(pool, &st);
        printf("\nfault recovery (%d spares): %d trapping candidates in %.2f s = %.1f per second; %d classified trap, "
               "%d otherwise; %ld worker restarts, mean wait %.1f ms, longest %.1f ms, worker start %.0f ms "
               "(cuInit %.0f, context %.0f, harness module %.0f)\n",
               spares, faults, tt, faults / tt, okc, bad, st.restarts, st.restarts ? st.restart_wait_ms / st.restarts : 0,
               st.max_restart_wait_ms, st.init_ms_last, st.cuinit_ms_last, st.ctx_ms_last, st.module_ms_last);
        gasp_pool_close(pool);
      }
      gasp_binary_free(&tb);
    }
  }
  for (int i = 0; i < np; i++) gasp_binary_free(&p[i].bin);
  gasp_taskset_free(&ts);
  return 0;
}
