/* The sass-sm90 and sass-sm89 targets: SASS text in nvdisasm syntax, assembled by our learned tables into a
 * cubin we write ourselves. sm_89 is checked and assembled only (the H200 rejects sm_89 cubins, facts file). */
#include <ctype.h>
#include <inttypes.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/proc.h"
#include "../ptx/ptx_nvcc.h"
#include "../target.h"
#include "sass.h"
#include "sass_cubin.h"
#include "sass_arch.h"
#include "sass_flow.h"
#include "sass_hazard.h"
#include "sass_internal.h"
#include "sass_sched.h"

static int sm_of(const gasp_target *t) { return strstr(t->name, "89") ? 89 : 90; }

static void sass_facts(const gasp_target *t, const gasp_task *task, gasp_str *o)
{
  (void)task;
  int sm = sm_of(t);
  char err[128];
  const sass_isa *isa = sass_isa_get(sm, err, sizeof err);
  gasp_str_printf(o,
                  "- SASS for %s, written as nvdisasm prints it: `[@[!]Pn] OPCODE.MODIFIERS operands ;`, one instruction "
                  "per line, 128 bits each.\n"
                  "- Registers R0-R254 and RZ (reads 0), uniform registers UR0-UR62 and URZ, predicates P0-P6 and PT, "
                  "uniform predicates UP0-UP6 and UPT; 64-bit operands need an even register, 128-bit a multiple of 4.\n"
                  "- Kernel parameters are in constant bank 0 from c[0x0][0x%x], in order, naturally aligned (pointers "
                  "8 bytes); blockDim.x is c[0x0][0x0]; %s.\n"
                  "- Optional control prefix per instruction: `[B------:R-:W-:Y:S04]` = wait mask on scoreboards "
                  "SB0-SB5, read scoreboard, write scoreboard, yield, stall cycles 0-15. Variable-latency results "
                  "(S2R, LDG, LDS, LDC, MUFU, SHFL, conversions) must set a write scoreboard that consumers wait on. "
                  "Leave the prefixes out on every line and gasp assigns them; where some lines have one, a line "
                  "without gets stall 15 and no scoreboards.\n"
                  "- Labels are `name:` lines; branches name them as BRA `(name) ;. End every path with EXIT ;.\n"
                  "- The assembler knows %zu instruction forms learned from nvcc output; others are refused with the "
                  "nearest known form.\n",
                  t->arch, sass_param_base(sm),
                  sm == 90 ? "global memory is addressed as `desc[UR4][R2.64]` with the descriptor loaded by "
                             "`ULDC.64 UR4, c[0x0][0x208] ;`"
                           : "global memory is addressed as `[R2.64]` (a 64-bit address in an even register pair)",
                  isa ? sass_isa_form_count(isa) : (size_t)0);
}

static void sass_constraints(const gasp_target *t, const gasp_task *task, gasp_str *o)
{
  (void)t, (void)task;
  gasp_str_puts(o, "Answer with SASS only, inside one ```sass fence: no PTX, no directives other than labels.\n");
}

static void sass_example(const gasp_target *t, const gasp_task *task, gasp_str *o)
{
  (void)task;
  /* checked by tests/integration/sass_cli.sh: assembles and has no hazards on both architectures */
  if (sm_of(t) == 90)
    gasp_str_puts(o, "```sass\n"
                     "[B------:R-:W0:-:S01] S2R R0, SR_TID.X ;\n"
                     "[B------:R-:W1:-:S01] LDC.64 R2, c[0x0][0x210] ;\n"
                     "[B------:R-:W-:-:S02] ULDC.64 UR4, c[0x0][0x208] ;\n"
                     "[B01----:R-:W-:-:S05] IMAD.WIDE R2, R0, 0x4, R2 ;\n"
                     "[B------:R-:W-:-:S01] STG.E desc[UR4][R2.64], R0 ;\n"
                     "[B------:R-:W-:-:S05] EXIT ;\n"
                     "```\n");
  else
    gasp_str_puts(o, "```sass\n"
                     "[B------:R-:W0:-:S01] S2R R0, SR_TID.X ;\n"
                     "[B------:R-:W-:-:S04] MOV R3, 0x4 ;\n"
                     "[B0-----:R-:W-:-:S05] IMAD.WIDE R2, R0, R3, c[0x0][0x160] ;\n"
                     "[B------:R-:W-:-:S01] STG.E [R2.64], R0 ;\n"
                     "[B------:R-:W-:-:S05] EXIT ;\n"
                     "```\n");
}

/* Strips comments (nvdisasm's address and hex columns are block comments) and surrounding blanks in place. */
static char *clean_line(char *l)
{
  for (char *c; (c = strstr(l, "/*"));) {
    char *e = strstr(c + 2, "*/");
    if (!e) {
      *c = 0;
      break;
    }
    memmove(c, e + 2, strlen(e + 2) + 1);
  }
  char *c = strstr(l, "//");
  if (c)
    *c = 0;
  while (isspace((unsigned char)*l))
    l++;
  size_t n = strlen(l);
  while (n && isspace((unsigned char)l[n - 1]))
    l[--n] = 0;
  return l;
}

static int is_label(const char *l) { return *l && l[strlen(l) - 1] == ':' && !strchr(l, ' '); }

static int sass_looks_like_code(const char *s, size_t n)
{
  char l[512];
  size_t m = n < sizeof l - 1 ? n : sizeof l - 1;
  memcpy(l, s, m);
  l[m] = 0;
  char *c = clean_line(l);
  if (is_label(c))
    return 1;
  if (*c == '[')
    c = strchr(c, ']') ? strchr(c, ']') + 1 : c;
  while (*c == ' ')
    c++;
  if (*c == '@')
    c = strchr(c, ' ') ? strchr(c, ' ') + 1 : c;
  size_t k = 0;
  while (isupper((unsigned char)c[k]) || isdigit((unsigned char)c[k]) || c[k] == '.' || c[k] == '_')
    k++;
  return k >= 2 && isupper((unsigned char)c[0]) && strchr(c, ';') != NULL;
}

typedef struct {
  char **names;
  uint64_t *addr;
  size_t n;
} label_set;

static int find_label(void *ctx, const char *name, size_t len, uint64_t *addr)
{
  label_set *ls = ctx;
  for (size_t i = 0; i < ls->n; i++)
    if (strlen(ls->names[i]) == len && !memcmp(ls->names[i], name, len)) {
      *addr = ls->addr[i];
      return 1;
    }
  return 0;
}

static gasp_class class_of(const char *msg)
{
  if (strstr(msg, "out of range") || strstr(msg, "multiple of") || strstr(msg, "over 15") || strstr(msg, "scoreboard") ||
      strstr(msg, "does not fit"))
    return GASP_CLASS_RANGE;
  if (strstr(msg, "no sm_") || strstr(msg, "unknown label") || strstr(msg, "takes a"))
    return GASP_CLASS_SEMANTIC;
  return GASP_CLASS_SYNTAX;
}

/* 1-based column of register `reg` (sass_internal.h's space) in instruction text l: a write in the first operand,
 * a read after it or in the guard; a register inside a 64/128-bit operand is found by the operand's first
 * register. 1 when not found. */
static int reg_col(const char *l, int reg, int is_write)
{
  const char *p = l;
  if (*p == '[' && strchr(p, ']'))
    p = strchr(p, ']') + 1;
  while (*p == ' ')
    p++;
  const char *guard = *p == '@' ? p : NULL;
  if (guard) {
    while (*p && *p != ' ')
      p++;
    while (*p == ' ')
      p++;
  }
  char name[16];
  if (guard && !is_write && strstr(guard, sass_reg_name(reg, name, sizeof name)) &&
      strstr(guard, name) < p)
    return (int)(guard - l) + 1;
  while (*p && *p != ' ')
    p++; /* the mnemonic */
  const char *comma = strchr(p, ',');
  int base = reg >= SASS_REG_UP ? SASS_REG_UP : reg >= SASS_REG_P ? SASS_REG_P : reg >= SASS_REG_UR ? SASS_REG_UR : 0;
  const char *any = NULL;
  for (int back = 0; back < 4 && reg - back >= base; back++) {
    size_t nl = strlen(sass_reg_name(reg - back, name, sizeof name));
    for (const char *q = strstr(p, name); q; q = strstr(q + 1, name)) {
      if ((q > l && (isalnum((unsigned char)q[-1]) || q[-1] == '_')) || isdigit((unsigned char)q[nl]))
        continue;
      int in_first = !comma || q < comma;
      if (in_first == is_write)
        return (int)(q - l) + 1;
      if (!any)
        any = q;
    }
    if (any)
      return (int)(any - l) + 1;
  }
  return 1;
}

/* Registers per thread against the task's budget and the SM's register file (sass_arch.h), with the occupancy
 * that follows as a note. Returns the number of errors added. */
static int report_occupancy(int sm, int regs, const gasp_task *task, gasp_diags *d)
{
  gasp_trial_shape sh;
  char e[128];
  int threads = 0;
  /* a task file's launch block (the CLI's stand-in task for a bare file has none worth reporting) */
  if (task && task->path[0] && task->block[0][0] && !gasp_task_shape(task, 0, &sh, e, sizeof e))
    threads = (int)(sh.block[0] * sh.block[1] * sh.block[2]);
  sass_occupancy oc;
  if (sass_occupancy_compute(sm, regs, threads, &oc))
    return 0;
  const sass_arch_limits *lim = sass_arch_limits_get(sm);
  char occ[200] = "";
  if (threads)
    snprintf(occ, sizeof occ, "; blocks of %d threads: %d per SM, %d warps, occupancy %d%%", threads, oc.blocks_per_sm,
             oc.warps_per_sm, 100 * oc.warps_per_sm / oc.max_warps);
  gasp_diags_add(d, GASP_SEV_NOTE, GASP_CLASS_RESOURCE, 0, 0,
                 "%d registers per thread (highest register used + 3, as nvcc counts); a warp takes %d of the SM's %d "
                 "(allocated in units of %d), so %d of %d warps fit by registers%s", regs, oc.regs_per_warp,
                 lim->regs_per_sm, lim->reg_alloc_unit, oc.warps_by_regs, oc.max_warps, occ);
  int errors = 0;
  if (task && task->max_regs > 0 && regs > task->max_regs) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RESOURCE, 0, 0, "%d registers per thread; the task allows %d", regs,
                   task->max_regs);
    errors++;
  }
  if (threads && oc.blocks_per_sm == 0) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RESOURCE, 0, 0,
                   "%d registers per thread: a block of %d threads needs %d registers, more than an SM's %d; the "
                   "launch would fail", regs, threads, oc.regs_per_warp * ((threads + 31) / 32), lim->regs_per_sm);
    errors++;
  }
  return errors;
}

static int sass_check(const gasp_target *t, const gasp_task *task, const gasp_source *src, gasp_binary *bin,
                      gasp_diags *d)
{
  int sm = sm_of(t);
  char err[512];
  const sass_isa *isa = sass_isa_get(sm, err, sizeof err);
  if (!isa) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "%s", err);
    return -1;
  }
  /* pass 1: labels get the address of the next instruction */
  char *text = gasp_strdup(src->text);
  size_t nlines = 1;
  for (char *p = text; *p; p++)
    nlines += *p == '\n';
  char **lines = calloc(nlines, sizeof *lines);
  label_set ls = {calloc(nlines, sizeof(char *)), calloc(nlines, sizeof(uint64_t)), 0};
  uint8_t *code = malloc(16 * nlines);
  int *line_of = calloc(nlines, sizeof *line_of);
  int *indent = calloc(nlines, sizeof *indent);     /* characters clean_line took off the front of each line */
  const char **insn_text = calloc(nlines, sizeof *insn_text);
  int *insn_indent = calloc(nlines, sizeof *insn_indent);
  sass_flow_insn *flow = calloc(nlines, sizeof *flow);
  int errors = 0, any_ctl = 0, hazards = 0;
  if (!lines || !ls.names || !ls.addr || !code || !line_of || !flow || !indent || !insn_text || !insn_indent) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "out of memory");
    errors = 1;
    goto done;
  }
  size_t n = 0, ninst = 0;
  for (char *p = text, *e; p; p = e) {
    e = strchr(p, '\n');
    if (e)
      *e++ = 0;
    lines[n++] = p;
  }
  for (size_t i = 0; i < n; i++) {
    char *l = clean_line(lines[i]);
    indent[i] = (int)(l - lines[i]);
    lines[i] = l;
    if (!*l || (*l == '.' && !is_label(l)))
      continue; /* blank, or an nvdisasm directive (.section, .global, .size, ...) */
    if (is_label(l)) {
      l[strlen(l) - 1] = 0;
      ls.names[ls.n] = l;
      ls.addr[ls.n++] = 16 * ninst;
      lines[i] = "";
      continue;
    }
    ninst++;
  }
  /* pass 2: assemble */
  ninst = 0;
  int nbar = 0;
  uint32_t shared = 0;
  for (size_t i = 0; i < n; i++) {
    const char *l = lines[i];
    unsigned long sh;
    if (sscanf(l, ".shared %lu", &sh) == 1) {
      shared = sh > (227u << 10) ? (227u << 10) + 1 : (uint32_t)sh; /* sm_90: 227 KB per block (facts file) */
      if (sh > (227u << 10))
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RESOURCE, gasp_source_map_line(src, (int)i + 1), 1,
                       "%lu bytes of static shared memory; a block has at most 227 KB", sh), errors++;
      continue;
    }
    if (!*l || *l == '.')
      continue;
    uint64_t w[2];
    int col = 0;
    sass_asm_opts o = {find_label, &ls, 0};
    int line = gasp_source_map_line(src, (int)i + 1);
    if (sass_asm_line(isa, l, 16 * ninst, &o, w, err, sizeof err, &col)) {
      gasp_diags_add(d, GASP_SEV_ERROR, class_of(err), line, col ? col + indent[i] : 0, "%s", err);
      errors++;
      continue;
    }
    /* named barriers in use: the highest BAR id + 1 (nvcc writes 5 for a kernel using barriers 0-4) */
    const char *bar = strstr(l, "BAR.");
    if (bar && (bar == l || bar[-1] == ' ' || bar[-1] == ']')) {
      const char *num = strstr(bar, " 0x");
      unsigned long id = num ? strtoul(num + 1, NULL, 16) : 0;
      if (id < 16 && (int)id + 1 > nbar)
        nbar = (int)id + 1;
    }
    memcpy(code + 16 * ninst, w, 16);
    any_ctl |= *l == '[';
    flow[ninst] = (sass_flow_insn){l, line};
    insn_text[ninst] = l, insn_indent[ninst] = indent[i];
    line_of[ninst++] = line;
  }
  /* control codes: an answer with none at all gets gasp's (sass_sched.c), and the checker then holds the
   * scheduler to its own rules; an answer that wrote any keeps them, and lines without a prefix have the
   * assembler's stall 15 and no scoreboards */
  if (!errors && ninst) {
    uint8_t *tg = calloc(ninst, 1);
    for (size_t k = 0; k < ls.n && tg; k++)
      if (ls.addr[k] / 16 < ninst)
        tg[ls.addr[k] / 16] = 1;
    if (!any_ctl && tg) {
      sass_schedule(isa, (uint64_t(*)[2])code, ninst, tg);
      gasp_diags_add(d, GASP_SEV_NOTE, GASP_CLASS_HAZARD, line_of[0], 1,
                     "no control codes: gasp assigned stalls, scoreboards, waits and yields to all %zu instructions "
                     "('gasp check --fix --emit FILE' writes them out)", ninst);
    }
    sass_hazard hz[64];
    size_t nh = tg ? sass_check_hazards(isa, (const uint64_t(*)[2])code, ninst, tg, hz, 64) : 0;
    static const char *const kind[] = {"read-after-write", "write-after-write", "write-after-read", "read-after-write",
                                       "read-after-write", "scoreboard", "stall"};
    for (size_t k = 0; k < nh; k++) {
      const sass_hazard *h = &hz[k];
      char rn[16];
      sass_reg_name(h->reg, rn, sizeof rn);
      int col = h->reg < 0 ? insn_indent[h->at] + 1
                           : insn_indent[h->at] + reg_col(insn_text[h->at], h->reg, h->kind == SASS_HAZ_WAW || h->kind == SASS_HAZ_WAR);
      if (h->kind == SASS_HAZ_YIELD)
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_HAZARD, line_of[h->at], col,
                       "%s hazard: stall %d without the yield bit is not honoured (on the H200 a dependent pair at "
                       "S12-S15 without yield read the old value; nvcc always yields there): write Y, e.g. "
                       "[B------:R-:W-:Y:S%02d]", kind[h->kind], h->got, h->got);
      else if (h->kind == SASS_HAZ_SBSET)
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_HAZARD, line_of[h->at], col,
                       "%s hazard: this instruction waits on SB%d, which line %d sets only %d cycle before; a "
                       "scoreboard is set one cycle late, so give line %d a stall of at least 2", kind[h->kind], h->sb,
                       line_of[h->producer], h->got, line_of[h->producer]);
      else if (h->kind == SASS_HAZ_STALL)
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_HAZARD, line_of[h->at], col,
                       "%s hazard on %s: its producer at line %d has a fixed latency of %d cycles but the stall counts "
                       "since give %d (raise them by %d)", kind[h->kind], rn, line_of[h->producer], h->need, h->got,
                       h->need - h->got);
      else if (h->kind == SASS_HAZ_NOSB)
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_HAZARD, line_of[h->at], col,
                       "%s hazard on %s: its producer at line %d has variable latency and sets no write scoreboard "
                       "(give it W<n> and wait with B<n> here)", kind[h->kind], rn, line_of[h->producer]);
      else
        gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_HAZARD, line_of[h->at], col,
                       "%s hazard on %s: scoreboard SB%d of line %d is not waited on before this instruction "
                       "(add %d to its B mask)", kind[h->kind], rn, h->sb, line_of[h->producer], h->sb);
    }
    hazards = (int)nh; /* the binary is still made: `gasp run --allow-hazards` runs it to see what they do */
    free(tg);
  }
  /* EXIT on every path, BSSY/BSYNC pairing */
  if (!errors && ninst) {
    size_t *at = calloc(ls.n + 1, sizeof *at);
    for (size_t k = 0; at && k < ls.n; k++) at[k] = (size_t)(ls.addr[k] / 16);
    if (at) errors += sass_check_flow(flow, ninst, (const char *const *)ls.names, at, ls.n, d);
    free(at);
  }
  if (!errors && !ninst) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_EXTRACT, 0, 0, "no SASS instructions");
    errors++;
  }
  int regs = errors ? -1 : sass_regcount(isa, code, 16 * ninst);
  if (regs > 255)
    regs = 255; /* R253/R254 in use: the +3 is nvcc's habit, the hardware's limit is 255 */
  if (!errors && regs > 0)
    errors += report_occupancy(sm, regs, task, d);
  if (!errors && bin) {
    uint32_t psize[GASP_MAX_PARAMS];
    int np = task ? task->nparams : 0;
    for (int i = 0; i < np; i++)
      psize[i] = task->params[i].role == GASP_ROLE_SCALAR ? (uint32_t)gasp_dtype_size(task->params[i].type) : 8;
    const char *kname = task && task->kernel[0] ? task->kernel : task && task->id[0] ? task->id : "kernel";
    sass_cubin_spec spec = {sm, kname, code, 16 * ninst, psize, np, regs < 1 ? 1 : regs, shared, nbar};
    uint8_t *out;
    size_t len;
    if (sass_cubin_write(&spec, &out, &len, err, sizeof err)) {
      gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "%s", err);
      errors++;
    } else {
      bin->data = out;
      bin->len = len;
      snprintf(bin->kernel, sizeof bin->kernel, "%s", kname);
      bin->regs = spec.regs;
      bin->shared_static = (int)shared;
    }
  } else if (bin) {
    bin->regs = regs;
  }
done:
  free(lines);
  free(ls.names);
  free(ls.addr);
  free(code);
  free(line_of);
  free(indent), free(insn_text), free(insn_indent);
  free(flow);
  free(text);
  return errors || hazards ? -1 : 0;
}

/* --rewrite / --fix (the article's hazard rewriter): control codes are made safe. Each flagged read or write
 * waits on the scoreboard it needs (its B mask gains the bit); a variable-latency result without a scoreboard
 * gets one (W<n>, round robin over SB0-SB5) and its readers wait on it; a fixed-latency result read too early
 * gets the missing cycles added to the stall counts before the reader (the reader's predecessor first, then
 * further back). An answer without any control codes gets gasp's schedule (sass_sched.c) written out, each
 * instruction keeping its text behind the new prefix. Lines keep their numbers; comments on rewritten lines are
 * dropped. Returns the number of instructions changed. */
static int sass_rewrite(const gasp_target *t, const gasp_task *task, gasp_source *src, gasp_diags *d)
{
  (void)task;
  char err[512];
  const sass_isa *isa = sass_isa_get(sm_of(t), err, sizeof err);
  if (!isa)
    return 0;
  char *text = gasp_strdup(src->text);
  size_t nlines = 1;
  for (char *p = text; *p; p++)
    nlines += *p == '\n';
  char **lines = calloc(nlines, sizeof *lines);
  char **clean = calloc(nlines, sizeof *clean), **owned = calloc(nlines, sizeof *owned);
  label_set ls = {calloc(nlines, sizeof(char *)), calloc(nlines, sizeof(uint64_t)), 0};
  uint64_t(*w)[2] = calloc(nlines, sizeof *w);
  size_t *line_at = calloc(nlines, sizeof *line_at);
  int *changed = calloc(nlines, sizeof *changed);
  int nchanged = 0;
  size_t n = 0, ninst = 0;
  if (!lines || !clean || !owned || !ls.names || !ls.addr || !w || !line_at || !changed)
    goto done;
  for (char *p = text, *e; p; p = e) {
    e = strchr(p, '\n');
    if (e)
      *e++ = 0;
    lines[n++] = p;
  }
  for (size_t i = 0; i < n; i++) {
    owned[i] = gasp_strdup(lines[i]);
    clean[i] = clean_line(owned[i]); /* points into owned[i], maybe past its start */
  }
  for (size_t i = 0; i < n; i++) {
    char *l = clean[i];
    if (!*l || (*l == '.' && !is_label(l)))
      continue;
    if (is_label(l)) {
      ls.names[ls.n] = gasp_strdup(l);
      ls.names[ls.n][strlen(l) - 1] = 0;
      ls.addr[ls.n++] = 16 * ninst;
      continue;
    }
    ninst++;
  }
  ninst = 0;
  for (size_t i = 0; i < n; i++) {
    const char *l = clean[i];
    if (!*l || *l == '.' || is_label(l))
      continue;
    int col;
    sass_asm_opts o = {find_label, &ls, 0};
    if (sass_asm_line(isa, l, 16 * ninst, &o, w[ninst], err, sizeof err, &col))
      goto done; /* the check reports it; nothing to rewrite safely */
    line_at[ninst++] = i;
  }
  uint8_t *tg = calloc(ninst + 1, 1);
  for (size_t k = 0; k < ls.n && tg; k++)
    if (ls.addr[k] / 16 < ninst)
      tg[ls.addr[k] / 16] = 1;
  int any_ctl = 0, scheduled = 0;
  for (size_t k = 0; k < ninst; k++)
    any_ctl |= clean[line_at[k]][0] == '[';
  if (!any_ctl && tg && ninst) {
    sass_schedule(isa, w, ninst, tg);
    for (size_t k = 0; k < ninst; k++)
      changed[k] = 1;
    scheduled = 1;
  }
  int next_sb = 0;
  for (int round = 0; round < 64 && tg; round++) {
    sass_hazard hz[256];
    size_t nh = sass_check_hazards(isa, (const uint64_t(*)[2])w, ninst, tg, hz, 256);
    if (!nh)
      break;
    for (size_t k = 0; k < nh; k++) {
      size_t at = hz[k].at, pr = hz[k].producer;
      int sb = hz[k].sb;
      if (hz[k].kind == SASS_HAZ_YIELD) {
        w[at][1] &= ~(1ull << 45); /* the yield bit is 0 when tools print Y */
        changed[at] = 1;
        continue;
      }
      if (hz[k].kind == SASS_HAZ_SBSET) {
        w[pr][1] = (w[pr][1] & ~(15ull << 41)) | 2ull << 41;
        changed[pr] = 1;
        continue;
      }
      if (hz[k].kind == SASS_HAZ_STALL) {
        int deficit = hz[k].need - hz[k].got;
        for (size_t q = at; deficit > 0 && q-- > pr;) {
          unsigned st = (unsigned)(w[q][1] >> 41 & 15), add = 15 - st < (unsigned)deficit ? 15 - st : (unsigned)deficit;
          w[q][1] = (w[q][1] & ~(15ull << 41)) | (uint64_t)(st + add) << 41;
          deficit -= (int)add;
          changed[q] |= add > 0;
        }
        continue;
      }
      if (hz[k].kind == SASS_HAZ_NOSB) {
        sb = next_sb++ % 6;
        w[pr][1] = (w[pr][1] & ~(7ull << 46)) | (uint64_t)sb << 46;
        changed[pr] = 1;
      }
      w[at][1] |= 1ull << (52 + sb);
      changed[at] = 1;
    }
  }
  free(tg);
  gasp_str out;
  gasp_str_init(&out);
  for (size_t i = 0, k = 0; i < n; i++) {
    if (k < ninst && line_at[k] == i) {
      if (changed[k]) {
        /* the instruction's own text behind the new control prefix (any old prefix dropped) */
        const char *l = clean[i];
        if (*l == '[' && strchr(l, ']'))
          l = strchr(l, ']') + 1;
        while (*l == ' ')
          l++;
        char pre[40];
        sass_ctl_prefix(w[k], pre, sizeof pre);
        gasp_str_printf(&out, "%s%s", pre, l);
        if (!scheduled)
          gasp_diags_add(d, GASP_SEV_NOTE, GASP_CLASS_HAZARD, gasp_source_map_line(src, (int)i + 1), 1,
                         "control codes rewritten to remove a hazard");
        nchanged++;
      } else {
        gasp_str_puts(&out, lines[i]);
      }
      k++;
    } else {
      gasp_str_puts(&out, lines[i]);
    }
    if (i + 1 < n)
      gasp_str_puts(&out, "\n");
  }
  if (nchanged) {
    free(src->text);
    src->text = gasp_str_take(&out);
  } else {
    gasp_str_free(&out);
  }
done:
  for (size_t i = 0; owned && i < n; i++)
    free(owned[i]);
  for (size_t i = 0; i < ls.n; i++)
    free(ls.names[i]);
  free(lines), free(clean), free(owned), free(ls.names), free(ls.addr), free(w), free(line_at), free(changed), free(text);
  return nchanged;
}

/* nvcc's cubin of the task's CUDA reference for this target's arch, through the PTX target's cached nvcc. */
static int nvcc_cubin(const gasp_target *t, const gasp_task *task, char **data, size_t *len, gasp_diags *d)
{
  return gasp_nvcc_compile(task, t->arch, "cubin", data, len, d);
}

typedef struct {
  uint64_t t[8192];
  int n;
} target_set;

static const char *label_name(void *ctx, uint64_t addr)
{
  target_set *ts = ctx;
  static char name[32];
  int seen = 0;
  for (int i = 0; i < ts->n && !seen; i++)
    seen = ts->t[i] == addr;
  if (!seen && ts->n < 8192)
    ts->t[ts->n++] = addr;
  snprintf(name, sizeof name, ".L_%" PRIx64, addr);
  return name;
}

/* The reference answer: nvcc's SASS for the task, printed by our disassembler with control prefixes and labels,
 * so that assembling it back with our tables gives nvcc's code (issue 4). */
static int sass_reference_answer(const gasp_target *t, const gasp_task *task, char **answer, gasp_diags *d)
{
  char *cub, err[256];
  size_t n;
  if (nvcc_cubin(t, task, &cub, &n, d))
    return -1;
  const uint8_t *text;
  size_t len;
  uint32_t shared;
  const char *kname = task->kernel[0] ? task->kernel : task->id;
  const sass_isa *isa = sass_isa_get(sm_of(t), err, sizeof err);
  if (!isa || sass_cubin_text((const uint8_t *)cub, n, kname, &text, &len, &shared, err, sizeof err)) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "reference of '%s': %s", task->id, err);
    free(cub);
    return -1;
  }
  target_set *ts = calloc(1, sizeof *ts);
  gasp_str o;
  gasp_str_init(&o);
  char line[600];
  int bad = 0;
  char first_bad[600] = "";
  for (size_t off = 0; off < len && ts; off += 16) {
    uint64_t w[2];
    memcpy(w, text + off, 16);
    if (sass_disasm_word(isa, w, off, 1, label_name, ts, line, sizeof line) && !bad++)
      snprintf(first_bad, sizeof first_bad, "at 0x%zx: %.500s", off, line);
  }
  gasp_str_puts(&o, "```sass\n");
  if (shared)
    gasp_str_printf(&o, ".shared %u\n", shared);
  for (size_t off = 0; off < len && ts && !bad; off += 16) {
    for (int i = 0; i < ts->n; i++)
      if (ts->t[i] == off)
        gasp_str_printf(&o, ".L_%zx:\n", off);
    uint64_t w[2];
    memcpy(w, text + off, 16);
    sass_disasm_word(isa, w, off, 1, label_name, ts, line, sizeof line);
    gasp_str_printf(&o, "%s\n", line);
  }
  gasp_str_puts(&o, "```\n");
  free(ts);
  free(cub);
  if (bad) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_ERROR, 0, 0, "reference of '%s': nvcc used %d instruction(s) our "
                   "sm_%d tables do not know, first %s", task->id, bad, sm_of(t), first_bad);
    gasp_str_free(&o);
    return -1;
  }
  *answer = gasp_str_take(&o);
  return 0;
}

/* The speed baseline: nvcc's own cubin of the reference. */
static int sass_baseline(const gasp_target *t, const gasp_task *task, gasp_binary *bin, gasp_diags *d)
{
  memset(bin, 0, sizeof *bin);
  char *data;
  if (nvcc_cubin(t, task, &data, &bin->len, d))
    return -1;
  bin->data = data;
  bin->regs = bin->shared_static = -1;
  snprintf(bin->kernel, sizeof bin->kernel, "%s", task->kernel[0] ? task->kernel : task->id);
  return 0;
}

const gasp_target gasp_target_sass_sm90 = {
    .name = "sass-sm90", .isa = "SASS", .arch = "sm_90", .gpu = "NVIDIA H200 (Hopper, sm_90)", .exec = GASP_EXEC_CUDA,
    .cc = 90, .fence_tags = "sass asm", .facts = sass_facts, .constraints = sass_constraints, .example = sass_example,
    .looks_like_code = sass_looks_like_code, .prepare = gasp_prepare_verbatim, .check = sass_check,
    .reference_answer = sass_reference_answer, .baseline = sass_baseline, .rewrite = sass_rewrite,
};

/* sm_89 binaries do not load on our H200 (CUDA error 209): checked and assembled only. */
const gasp_target gasp_target_sass_sm89 = {
    .name = "sass-sm89", .isa = "SASS", .arch = "sm_89", .gpu = "NVIDIA RTX 4090 (Ada, sm_89)", .exec = GASP_EXEC_NONE,
    .cc = 89, .fence_tags = "sass asm", .facts = sass_facts, .constraints = sass_constraints, .example = sass_example,
    .looks_like_code = sass_looks_like_code, .prepare = gasp_prepare_verbatim, .check = sass_check,
    .reference_answer = sass_reference_answer, .rewrite = sass_rewrite,
};
