/* Running external tools without a shell, with a time limit and bounded output. */
#define _GNU_SOURCE
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

void gasp_proc_result_free(gasp_proc_result *r) {
  free(r->out);
  free(r->err);
  memset(r, 0, sizeof *r);
}

int gasp_proc_run(char *const argv[], int timeout_ms, size_t max_output, gasp_proc_result *r) {
  memset(r, 0, sizeof *r);
  int po[2], pe[2], px[2];
  if (pipe2(po, O_CLOEXEC)) return -1;
  if (pipe2(pe, O_CLOEXEC)) { close(po[0]); close(po[1]); return -1; }
  /* px reports an exec failure's errno back to the parent */
  if (pipe2(px, O_CLOEXEC)) { close(po[0]); close(po[1]); close(pe[0]); close(pe[1]); return -1; }
  double t0 = gasp_now_s();
  pid_t pid = fork();
  if (pid < 0) {
    r->spawn_failed = 1;
    r->spawn_errno = errno;
    close(po[0]); close(po[1]); close(pe[0]); close(pe[1]); close(px[0]); close(px[1]);
    return -1;
  }
  if (pid == 0) {
    setpgid(0, 0);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    dup2(po[1], 1);
    dup2(pe[1], 2);
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_CORE, &core);
    execvp(argv[0], argv);
    int e = errno;
    ssize_t w = write(px[1], &e, sizeof e);
    (void)w;
    _exit(127);
  }
  close(po[1]); close(pe[1]); close(px[1]);
  gasp_str out, err;
  gasp_str_init(&out);
  gasp_str_init(&err);
  gasp_str_append(&out, "", 0);
  gasp_str_append(&err, "", 0);
  struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
  int open_fds = 2;
  char buf[8192];
  while (open_fds > 0) {
    int left = timeout_ms - (int)((gasp_now_s() - t0) * 1000);
    if (left <= 0) {
      r->timed_out = 1;
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      break;
    }
    int n = poll(fds, 2, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t k = read(fds[i].fd, buf, sizeof buf);
      if (k <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        open_fds--;
        continue;
      }
      gasp_str *s = i == 0 ? &out : &err;
      if (s->len < max_output) gasp_str_append(s, buf, (size_t)k > max_output - s->len ? max_output - s->len : (size_t)k);
    }
  }
  for (int i = 0; i < 2; i++)
    if (fds[i].fd >= 0) close(fds[i].fd);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  int e = 0;
  if (read(px[0], &e, sizeof e) == (ssize_t)sizeof e) {
    r->spawn_failed = 1;
    r->spawn_errno = e;
  }
  close(px[0]);
  r->wall_s = gasp_now_s() - t0;
  r->out = gasp_str_take(&out);
  r->err = gasp_str_take(&err);
  if (WIFEXITED(st)) {
    r->exited = 1;
    r->exit_code = WEXITSTATUS(st);
  } else if (WIFSIGNALED(st)) {
    r->signaled = WTERMSIG(st);
  }
  return r->spawn_failed ? -1 : 0;
}

static int is_exec(const char *p) { return access(p, X_OK) == 0; }

int gasp_find_cuda_tool(const char *name, const char *env_var, char *buf, size_t cap) {
  const char *e = env_var ? getenv(env_var) : NULL;
  if (e && *e) {
    gasp_strlcpy(buf, e, cap);
    return is_exec(buf) ? 0 : -1;
  }
  const char *home = getenv("CUDA_HOME");
  const char *homes[] = {home, "/usr/local/cuda", NULL};
  for (int i = 0; i < 2; i++) {
    if (!homes[i] || !*homes[i]) continue;
    snprintf(buf, cap, "%s/bin/%s", homes[i], name);
    if (is_exec(buf)) return 0;
  }
  const char *path = getenv("PATH");
  if (path) {
    char *dup = gasp_strdup(path), *save = NULL;
    for (char *d = strtok_r(dup, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
      snprintf(buf, cap, "%s/%s", d, name);
      if (is_exec(buf)) {
        free(dup);
        return 0;
      }
    }
    free(dup);
  }
  buf[0] = 0;
  return -1;
}
