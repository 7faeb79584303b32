/* SASS for sm_90 and sm_89: assembler and disassembler driven by one learned table per architecture
 * (tools/sass-learn.py over nvdisasm output of tools/sass-corpus; layout facts in docs/sass-facts.md).
 * Text syntax is nvdisasm's (`@!P0 IADD3 R1, R2.reuse, -0x8, RZ ;`), optionally preceded by a control
 * prefix `[B0-2---:R1:W2:Y:S04]` (wait mask, read and write scoreboard, yield, stall). */
#ifndef GASP_SASS_H
#define GASP_SASS_H

#include <stddef.h>
#include <stdint.h>

typedef struct sass_isa sass_isa;

/* The table for sm 90 or 89, parsed on first use and kept for the process; NULL for other values or when
 * the built-in table is malformed (then *err says why). Not thread-safe on the first call. */
const sass_isa *sass_isa_get(int sm, char *err, size_t errcap);
size_t sass_isa_form_count(const sass_isa *isa);

/* Resolves a branch label to an absolute code address; returns 0 when the name is unknown. */
typedef int (*sass_label_fn)(void *ctx, const char *name, size_t len, uint64_t *addr);

typedef struct {
  sass_label_fn label;     /* may be NULL: then any label is an error */
  void *label_ctx;
  int unknown_label_zero;  /* 1: an unknown label encodes offset 0 (a call the linker relocates) */
} sass_asm_opts;

/* Assembles one instruction at code address `addr` into word[0] (bits 0-63) and word[1] (64-127).
 * Without a control prefix the control bits are stall 15, yield off, no scoreboards: safe but slow.
 * Returns 0, or -1 with a message naming the problem (and, for an unknown form, the nearest known one) in
 * err; *col gets the 1-based column of the offending text when known (else 0). */
int sass_asm_line(const sass_isa *isa, const char *line, uint64_t addr, const sass_asm_opts *opts,
                  uint64_t word[2], char *err, size_t errcap, int *col);

/* Names a branch target for printing; returns NULL to print `(.L_<hex address>)`. */
typedef const char *(*sass_name_fn)(void *ctx, uint64_t addr);

/* Disassembles one word at `addr` into buf as nvdisasm prints it (without the address column), with the
 * control prefix first when with_ctl. Returns 0, or -1 when no form matches (buf then names the opcode). */
int sass_disasm_word(const sass_isa *isa, const uint64_t word[2], uint64_t addr, int with_ctl,
                     sass_name_fn name, void *name_ctx, char *buf, size_t cap);

#endif
