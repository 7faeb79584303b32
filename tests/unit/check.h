/* A minimal assertion harness for unit tests: CHECK records a failure and goes on; DONE prints the
 * closing line "N passed, N failed" and sets the exit code. */
#ifndef GASP_TEST_CHECK_H
#define GASP_TEST_CHECK_H

#include <stdio.h>

static int check_passed, check_failed;
#define CHECK(cond, ...)                                      \
  do {                                                        \
    if (cond) {                                               \
      check_passed++;                                         \
    } else {                                                  \
      check_failed++;                                         \
      printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);  \
      printf(__VA_ARGS__);                                    \
      printf("\n");                                           \
    }                                                         \
  } while (0)
#define DONE() (printf("%d passed, %d failed\n", check_passed, check_failed), check_failed ? 1 : 0)

#endif
