/* gasp bench --mpi: ranks, node-local ranks (for the GPU choice) and the final gather. Each rank has written
 * its records to its own part file as it went (nothing is lost if a rank dies); at the end the parts travel
 * to rank 0 over MPI (ranks may be on machines that share no disk) and rank 0 merges them into the results
 * file. Built only when CMake found MPI (GASP_HAVE_MPI); otherwise --mpi says so. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../bench/merge.h"
#include "../core/util.h"
#include "cli.h"
#include "common.h"

size_t cli_merge_report(const char *cmd, const gasp_merge_report *r, const gasp_diags *d, const char *out, int quiet);
int cli_merge_to(const char *cmd, gasp_merge *m, const char *path, gasp_merge_report *rep, gasp_diags *d);

#ifdef GASP_HAVE_MPI
#include <mpi.h>

int cli_mpi_begin(int *argc, char ***argv, int *rank, int *size, int *local_rank, char *err, size_t cap) {
  int inited = 0;
  MPI_Initialized(&inited);
  if (!inited && MPI_Init(argc, argv) != MPI_SUCCESS) {
    snprintf(err, cap, "MPI_Init failed");
    return -1;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  /* the rank among those on this node picks the GPU: rank mod GPUs would put two ranks of a 4-GPU node
   * on one GPU whenever a node holds a number of ranks that is not a multiple of 4 */
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, local_rank);
  MPI_Comm_free(&node);
  return 0;
}

void cli_mpi_end(void) { MPI_Finalize(); }

static char *slurp(const char *path, size_t *len) {
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  gasp_str s;
  gasp_str_init(&s);
  char buf[1 << 16];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) gasp_str_append(&s, buf, k);
  fclose(f);
  *len = s.len;
  return gasp_str_take(&s);
}

/* Waits for every rank without burning a core: MPI_Barrier spins, and a rank that finished early would
 * take CPU from the ones still judging candidates on the same node. */
static void quiet_barrier(void) {
  MPI_Request rq;
  MPI_Ibarrier(MPI_COMM_WORLD, &rq);
  int done = 0;
  while (!done) {
    MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
    if (!done) nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
  }
}

#define CHUNK (64ll << 20)

/* --resume: only rank 0 is sure to see the results file (ranks on other machines may share no disk), so it
 * sends the file to every rank, which keeps a private copy in local; "" when there is none. */
int cli_mpi_fetch(const char *out, int rank, char *local, size_t cap) {
  size_t len = 0;
  char *data = rank == 0 ? slurp(out, &len) : NULL;
  long long n = data ? (long long)len : -1;
  MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  local[0] = 0;
  if (n < 0) return 0;
  if (rank != 0) data = malloc((size_t)n + 1);
  int bad = !data;
  for (long long off = 0; off < n; off += CHUNK) {
    long long k = n - off < CHUNK ? n - off : CHUNK;
    /* every rank takes part in each broadcast, even one that could not allocate */
    static char sink[1];
    MPI_Bcast(data ? data + off : sink, data ? (int)k : 0, MPI_CHAR, 0, MPI_COMM_WORLD);
  }
  if (rank == 0) {
    snprintf(local, cap, "%s", out);
  } else if (!bad) {
    snprintf(local, cap, "/tmp/gasp-resume-%d-XXXXXX", (int)getpid());
    int fd = mkstemp(local);
    bad = fd < 0 || write(fd, data, (size_t)n) != (ssize_t)n;
    if (fd >= 0) close(fd);
  }
  free(data);
  if (bad && rank != 0) {
    if (local[0]) unlink(local);
    local[0] = 0;
    return -1;
  }
  return 0;
}

int cli_mpi_gather(const char *out, const char *part, int rank, int size, int resume, const gasp_taskset *ts, int quiet) {
  quiet_barrier();
  size_t len = 0;
  char *data = slurp(part, &len);
  long long mine = (long long)len, *lens = rank == 0 ? calloc((size_t)size, sizeof *lens) : NULL;
  MPI_Gather(&mine, 1, MPI_LONG_LONG, lens, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  int status = 0;
  if (rank != 0) {
    for (long long off = 0; off < mine; off += CHUNK) {
      long long n = mine - off < CHUNK ? mine - off : CHUNK;
      MPI_Send(data + off, (int)n, MPI_CHAR, 0, 7, MPI_COMM_WORLD);
    }
  } else {
    gasp_merge *m = gasp_merge_new();
    gasp_merge_set_suite(m, ts);
    char **names = calloc((size_t)size, sizeof *names);
    char err[512];
    /* what an earlier, resumed run merged already comes first, so its records win over redone ones */
    if (resume && access(out, F_OK) == 0 && gasp_merge_add_file(m, out, err, sizeof err)) {
      gasp_cli_error("bench", "%s", err);
      status = GASP_EXIT_ENV;
    }
    for (int r = 0; r < size; r++) {
      char *buf = r == 0 ? data : malloc((size_t)lens[r] + 1);
      if (r != 0)
        for (long long off = 0; buf && off < lens[r]; off += CHUNK) {
          long long n = lens[r] - off < CHUNK ? lens[r] - off : CHUNK;
          MPI_Recv(buf + off, (int)n, MPI_CHAR, r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
      if (!buf) {
        status = GASP_EXIT_ENV;
        continue;
      }
      names[r] = malloc(64);
      snprintf(names[r], 64, "rank %d", r);
      if (gasp_merge_add(m, names[r], buf, (size_t)lens[r])) status = GASP_EXIT_ENV;
      if (r != 0) free(buf);
    }
    if (!status) {
      gasp_merge_report rep;
      gasp_diags d;
      gasp_diags_init(&d);
      status = cli_merge_to("bench", m, out, &rep, &d);
      if (!status) {
        if (!quiet || rep.conflicts) cli_merge_report("bench", &rep, &d, out, quiet);
        if (rep.conflicts) status = GASP_EXIT_FAIL;
      }
      gasp_diags_free(&d);
    }
    gasp_merge_free(m);
    for (int r = 0; r < size; r++) free(names[r]);
    free(names);
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  /* the parts go only once their records are safe in `out` (conflicts included: the first was kept) */
  if (status == 0 || status == GASP_EXIT_FAIL) unlink(part);
  else if (rank == 0) fprintf(stderr, "gasp bench: error: the parts were not merged; they stay as %s.part-*\n", out);
  free(data);
  free(lens);
  return status;
}

#else

int cli_mpi_begin(int *argc, char ***argv, int *rank, int *size, int *local_rank, char *err, size_t cap) {
  (void)argc, (void)argv, (void)rank, (void)size, (void)local_rank;
  snprintf(err, cap, "this gasp was built without MPI (CMake found none; install libopenmpi-dev and reconfigure)");
  return -1;
}
int cli_mpi_gather(const char *out, const char *part, int rank, int size, int resume, const gasp_taskset *ts, int quiet) {
  (void)out, (void)part, (void)rank, (void)size, (void)resume, (void)ts, (void)quiet;
  return GASP_EXIT_ENV;
}
void cli_mpi_end(void) {}
int cli_mpi_fetch(const char *out, int rank, char *local, size_t cap) {
  (void)out, (void)rank, (void)cap;
  local[0] = 0;
  return -1;
}

#endif
