/* A minimal cubin (ELF) for one kernel, written from scratch: the section set, EIATTRs and constant-bank
 * layout of docs/sass-facts.md (the legacy header that loaded with the fewest sections on the H200). */
#ifndef GASP_SASS_CUBIN_H
#define GASP_SASS_CUBIN_H

#include <stddef.h>
#include <stdint.h>

#include "sass.h"

typedef struct {
  int sm;                       /* 90 or 89 */
  const char *kernel;
  const uint8_t *text;          /* instruction words, 16 bytes each */
  size_t text_len;
  const uint32_t *param_sizes;  /* bytes per parameter, in order; offsets are naturally aligned */
  int nparams;
  int regs;                     /* EIATTR_REGCOUNT: the count the driver uses (facts file) */
  uint32_t shared_bytes;        /* static shared memory; 0: no .nv.shared section */
  int nbarriers;
} sass_cubin_spec;

/* Highest register any instruction touches (64/128-bit operands count their whole range) + 3: the rule nvcc
 * 13 followed in all 114 corpus kernels (tests/unit/test_sass_cubin.c checks it). -1 on a malformed word. */
int sass_regcount(const sass_isa *isa, const uint8_t *text, size_t len);

/* Byte offsets of EXIT instructions (opcode 0x94d, facts file), for EIATTR_EXIT_INSTR_OFFSETS. Returns the count
 * written (at most cap). */
size_t sass_exit_offsets(const uint8_t *text, size_t len, uint32_t *out, size_t cap);

/* Parameter base in constant bank 0: 0x210 on sm_90, 0x160 on sm_89 (facts file). */
uint32_t sass_param_base(int sm);

/* Writes the cubin into a malloc'd buffer (*out, *len; the caller frees). Returns 0, or -1 with err. */
int sass_cubin_write(const sass_cubin_spec *s, uint8_t **out, size_t *len, char *err, size_t errcap);

/* Finds .text.<kernel> (and the static shared size, .nv.shared.<kernel>, 0 when absent) in a cubin, with every
 * offset bounds-checked (the input may be anything). Returns 0, or -1 with err. */
int sass_cubin_text(const uint8_t *b, size_t n, const char *kernel, const uint8_t **text, size_t *text_len,
                    uint32_t *shared_bytes, char *err, size_t errcap);

#endif
