/* The PTX tokenizer shared by our parser (private to src/target/ptx). */
#ifndef GASP_PTX_LEX_H
#define GASP_PTX_LEX_H

#include <stddef.h>

typedef enum { T_END = 0, T_WORD, T_NUM, T_STR, T_PUNCT, T_BAD } gasp_ptx_tok_kind;

/* A token: words (opcodes with their modifiers, directives, %registers, names, labels), numbers,
 * strings, one punctuation character, or a character PTX does not use (T_BAD). */
typedef struct {
  gasp_ptx_tok_kind kind;
  const char *s;   /* into the code */
  size_t len;
  int line, col;   /* 1-based, of the code */
} gasp_ptx_tok;

/* Splits code into tokens, skipping // and block comments. The array ends with one T_END token (not
 * counted in *nout). Returns 0, or -1 when out of memory. The caller frees *out. */
int gasp_ptx_lex(const char *code, gasp_ptx_tok **out, size_t *nout);

/* Is a T_NUM token a PTX literal (ISA 9.0, 4.5.1)? */
int gasp_ptx_valid_number(const gasp_ptx_tok *t);

#endif
