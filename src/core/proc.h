/* Running external tools (ptxas, nvcc) without a shell: an argument vector, a time limit, bounded output.
 * Model output never reaches a command line: it is written to a file whose name we choose. */
#ifndef GASP_PROC_H
#define GASP_PROC_H

#include <stddef.h>

typedef struct {
  int exit_code;       /* valid when exited */
  int exited;          /* 1 when the child exited normally */
  int signaled;        /* signal number when killed, else 0 */
  int timed_out;       /* 1 when we killed it at the time limit */
  int spawn_failed;    /* 1 when the program could not be started (errno in spawn_errno) */
  int spawn_errno;
  char *out;           /* stdout, NUL-terminated, truncated at max_output */
  char *err;           /* stderr, likewise */
  double wall_s;
} gasp_proc_result;

/* Runs argv[0] (looked up in PATH when it has no slash) with the given time limit in milliseconds and
 * at most max_output bytes kept from each of stdout and stderr. Returns 0 when the child could be run
 * (look at the result for how it ended), -1 when not (spawn_failed set). Caller frees with
 * gasp_proc_result_free. */
int gasp_proc_run(char *const argv[], int timeout_ms, size_t max_output, gasp_proc_result *r);
void gasp_proc_result_free(gasp_proc_result *r);

/* Finds a tool: $<env_var> when set, else <cuda_home>/bin/<name> under $CUDA_HOME or /usr/local/cuda,
 * else PATH. Writes the path into buf; returns 0 when an executable was found. */
int gasp_find_cuda_tool(const char *name, const char *env_var, char *buf, size_t cap);

#endif
