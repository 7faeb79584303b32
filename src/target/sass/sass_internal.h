/* Private structures of the SASS table, shared by the table parser, the assembler and the disassembler. */
#ifndef GASP_SASS_INTERNAL_H
#define GASP_SASS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "sass.h"

#define SASS_MAX_OPS 16

enum { SASS_K_R, SASS_K_UR, SASS_K_P, SASS_K_UP, SASS_K_B, SASS_K_SB, SASS_K_N, SASS_K_L };
enum { SASS_H_INT, SASS_H_F32, SASS_H_F64H, SASS_H_F16, SASS_H_BF16 };

typedef struct { uint8_t vlo, pos, width; } sass_seg;

typedef struct {
  uint8_t idx, kind, how, shift, is_signed, nseg;
  uint8_t need;  /* widest value seen in the corpus, in bits (64: a negative one) */
  sass_seg seg[2];
} sass_field;

typedef struct {
  uint8_t idx;
  char text[8];
  uint64_t bits;
} sass_nan;

typedef struct {
  const char *key, *skel, *mnem;  /* point into the isa's copy of the table text */
  uint16_t opc;
  uint8_t guard_up, nfields, nnan;
  uint64_t base[2], fixmask[2];   /* fixmask: bits the form fixes (not fields, guard, control, hidden) */
  uint64_t enc[2];                /* base as encoded: hidden bits (which the text does not show) at their most common value */
  sass_field fields[SASS_MAX_OPS];
  int8_t reuse[SASS_MAX_OPS];     /* reuse bit (0-3 above 122) per placeholder, -1 none */
  uint8_t align[SASS_MAX_OPS];    /* 2 or 4: register must be a multiple of it (64/128-bit operand) */
  uint8_t width[SASS_MAX_OPS];    /* registers the operand spans (2, 4), for the register count */
  uint8_t kinds[SASS_MAX_OPS];
  uint8_t nops;
  sass_nan nan[4];
  uint16_t const_mask;            /* placeholders whose value never varied in the corpus ... */
  uint64_t const_val[SASS_MAX_OPS]; /* ... and that value (raw field bits); picks between aliases */
  int nconst;
  unsigned count;
  int fixbits;
} sass_form;

struct sass_isa {
  int sm;
  char *text;
  sass_form *forms;
  size_t nforms;
  uint32_t *slots;      /* open-addressing hash of key -> form index + 1 */
  size_t nslots;
  uint32_t *by_opc;     /* form indices sorted by opcode, most specific first */
  uint32_t opc_start[4097];
};

extern const char sass_table_sm90[];
extern const char sass_table_sm89[];

/* Tokenizer (same rules as tools/sass-syntax.py). */
typedef struct {
  uint8_t kind;
  const char *txt;  /* the register index text (digits, Z or T), number text incl. sign, or label name */
  size_t len;
  int col;          /* 0-based offset in the operand text */
} sass_tok;

typedef struct {
  int has_ctl, has_guard, guard_neg, guard_up, guard_idx;
  unsigned stall, yield, wbar, rbar, wait;
  const char *mnem;
  size_t mnem_len;
  int mnem_col;
  char key[512];
  size_t key_len;
  sass_tok toks[SASS_MAX_OPS];
  int ntok;
  uint32_t reuse;
} sass_parsed;

/* Parses one line; returns 0 or -1 with err/col. */
int sass_parse_line(const char *line, sass_parsed *p, char *err, size_t errcap, int *col);

uint64_t sass_hash(const char *s, size_t n);
const sass_form *sass_find_form(const sass_isa *isa, const char *key, size_t n);
/* The form the disassembler picks for a word (NULL when none matches). */
const sass_form *sass_match_form(const sass_isa *isa, const uint64_t w[2]);

/* One register operand of an instruction, for the hazard checker and the scheduler. Registers live in one
 * space: R0-R254 at 0-254, UR0-UR62 at 256-318, P0-P6 at 320-326, UP0-UP6 at 328-334 (RZ, URZ, PT, UPT are
 * left out: they are never waited on). */
enum { SASS_REG_R = 0, SASS_REG_UR = 256, SASS_REG_P = 320, SASS_REG_UP = 328, SASS_REG_COUNT = 336 };
typedef struct {
  int reg;      /* first register in the space above */
  int span;     /* registers it covers (64-bit: 2, 128-bit: 4) */
  int is_dest;  /* written by the instruction (else read; the guard predicate is a read) */
} sass_opnd;

/* The register operands of word w, which form f matched; at most cap. Returns the count. */
int sass_insn_operands(const sass_form *f, const uint64_t w[2], sass_opnd *out, int cap);
/* Instructions that end straight-line code (branches, EXIT, calls, convergence barriers). */
int sass_ends_block(const char *mnem);

#endif
