/* The structured PTX instruction description: per instruction its opcode, its ordered modifier groups and
 * its operand shapes. One table feeds our parser (ptx_parse.c), the GBNF grammar (src/grammar) and the
 * check of the prompt's instruction list (tests/unit/test_ptx_parse.c), so they cannot drift. */
#ifndef GASP_PTX_DESC_H
#define GASP_PTX_DESC_H

#include <stddef.h>

/* One row: an opcode with one shape. An opcode with several shapes (integer and float `mul`, `setp` with
 * and without a boolean combine) has several rows; an instruction is valid when any row accepts it.
 *
 * `mods` lists the modifier groups in the order they must appear, separated by spaces. A group is its
 * alternatives separated by '|', each with its leading dot; a leading '?' makes the group optional:
 *   "?.rn|.rz|.rm|.rp ?.ftz .f32|.f64"  -> add.f32, add.rn.ftz.f32, ...
 *
 * `operands` is one letter per operand (a '?' after the letter makes it and all later ones optional):
 *   r  register                      (destination or source, %name)
 *   p  predicate register
 *   c  predicate register, optionally `|%q` (setp's second destination)
 *   d  register, optionally `|%p` (shfl.sync's lane predicate)
 *   q  predicate source, optionally negated (!%p)
 *   a  register or immediate
 *   s  register, immediate or symbol (mov, cvta: the address of a variable)
 *   x  like s, or a vector {a, b, ...} (mov packs and unpacks)
 *   m  address: [reg], [reg+imm], [reg+-imm], [name], [name+imm], [imm]
 *   v  register or vector of registers {a, b(, c, d)} (ld destinations)
 *   w  register, immediate or vector of them (st sources)
 *   l  label
 *
 * `classes` says, per operand, which registers and literals fit (PTX ISA 9.0, 5.4 "Operand type
 * checking": a register's type must match the instruction type, .bN registers and instructions accept any
 * type of N bits). The parser ignores it (syntax only); the grammar draws operands from it:
 *   T  the row's type (its first group whose alternatives are all types)
 *   S  the row's second type (cvt's source, set's and slct's operand type)
 *   W  twice the width of T (mul.wide, mad.wide)
 *   u  a 32-bit integer (shift amounts, lane masks, clamps)
 *   k  a 32-bit integer, immediates 0..31 (bit positions and lengths, shuffle lanes)
 *   b  a 32-bit integer, immediates 0..15 (barrier numbers)
 *   n  a 32-bit integer, immediates whole warps up to 1024 (barrier thread counts)
 *   i  an 8-bit immediate (lop3's truth table)
 *   D  a 64-bit integer (an address in a register)
 *   P  a predicate
 *   A  an address in a 64-bit register ([%rd1], [%rd1+8]): global, local, const or generic
 *   Z  a shared-memory address: a 64- or 32-bit register or a shared variable
 *   Q  a kernel parameter's name ([x]: ld.param)
 *   Y  a 64-bit register or a shared variable (cvta.shared)
 *   -  no class (labels)
 * A row whose classes are NULL is accepted by the parser but not offered by the grammar. */
typedef struct {
  const char *op;
  const char *mods;
  const char *operands;
  const char *classes;
} gasp_ptx_insn;

/* The rows, ending with a row whose op is NULL. Sources: PTX ISA 9.0 manual (CUDA 13.0), chapter 9
 * "Instruction Set", and what nvcc 13.0.88 (-O3, sm_89/sm_90) emits for the task suite's references. */
extern const gasp_ptx_insn gasp_ptx_insns[];

/* A group of modifiers as parsed from a row. */
#define GASP_PTX_MAX_GROUPS 12
#define GASP_PTX_MAX_ALTS 24
typedef struct {
  int optional;
  int nalts;
  char alts[GASP_PTX_MAX_ALTS][24]; /* without the leading dot: "rn" */
} gasp_ptx_group;

/* Splits a row's mods into groups. Returns the number of groups (0..GASP_PTX_MAX_GROUPS). */
int gasp_ptx_groups(const gasp_ptx_insn *row, gasp_ptx_group *groups);

/* Is `op` (the part before the first dot) an opcode of the table? */
int gasp_ptx_is_opcode(const char *op, size_t len);
/* The known opcode nearest to `op` by edit distance (for "did you mean"). */
const char *gasp_ptx_nearest_opcode(const char *op, size_t len);

/* Directives of a module and of a function body the parser and grammar know (".version", ".reg", ...). */
extern const char *const gasp_ptx_directives[];
/* The components a special register of gasp_ptx_special_regs (ptx_isa.h) takes: "xyz" for %tid, %ntid,
 * %ctaid, %nctaid and the cluster ones (PTX ISA 9.0, 10.x "Special Registers"), "" for scalars. */
const char *gasp_ptx_sreg_components(const char *name);

#endif
