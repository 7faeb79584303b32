/* The sass-sm90 and sass-sm89 targets: SASS text in nvdisasm syntax, assembled by our learned tables into a
 * cubin we write ourselves. sm_89 is checked and assembled only (the H200 rejects sm_89 cubins, facts file). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../target.h"
#include "sass.h"
#include "sass_cubin.h"

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
                  "8 bytes); blockDim.x is c[0x0][0x0]; the global memory descriptor is c[0x0][0x%x] (load it with "
                  "`ULDC.64 UR4, c[0x0][0x%x] ;` and address memory as `desc[UR4][R2.64]`).\n"
                  "- Optional control prefix per instruction: `[B------:R-:W-:Y:S04]` = wait mask on scoreboards "
                  "SB0-SB5, read scoreboard, write scoreboard, yield, stall cycles 0-15. Variable-latency results "
                  "(S2R, LDG, LDS, LDC, MUFU, SHFL, conversions) must set a write scoreboard that consumers wait on. "
                  "Without a prefix the assembler uses stall 15 and no scoreboards.\n"
                  "- Labels are `name:` lines; branches name them as BRA `(name) ;. End every path with EXIT ;.\n"
                  "- The assembler knows %zu instruction forms learned from nvcc output; others are refused with the "
                  "nearest known form.\n",
                  t->arch, sass_param_base(sm), sm == 90 ? 0x208 : 0x118, sm == 90 ? 0x208 : 0x118,
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
  gasp_str_printf(o, "```sass\n"
                     "S2R R0, SR_TID.X ;\n"
                     "LDC.64 R2, c[0x0][0x%x] ;\n"
                     "ULDC.64 UR4, c[0x0][0x%x] ;\n"
                     "IMAD.WIDE R2, R0, 0x4, R2 ;\n"
                     "STG.E desc[UR4][R2.64], R0 ;\n"
                     "EXIT ;\n"
                     "```\n",
                  sass_param_base(sm_of(t)), sm_of(t) == 90 ? 0x208 : 0x118);
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

static int sass_prepare(const gasp_target *t, const gasp_task *task, const char *code, int first, gasp_source *out,
                        gasp_diags *d)
{
  (void)t, (void)task, (void)d;
  out->text = gasp_strdup(code);
  out->map_first = 1;
  out->map_count = 1 << 30;
  out->map_orig_first = first;
  return 0;
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
  int errors = 0;
  if (!lines || !ls.names || !ls.addr || !code || !line_of) {
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
  for (size_t i = 0; i < n; i++) {
    const char *l = lines[i];
    if (!*l || *l == '.')
      continue;
    uint64_t w[2];
    int col = 0;
    sass_asm_opts o = {find_label, &ls, 0};
    int line = gasp_source_map_line(src, (int)i + 1);
    if (sass_asm_line(isa, l, 16 * ninst, &o, w, err, sizeof err, &col)) {
      gasp_diags_add(d, GASP_SEV_ERROR, class_of(err), line, col ? col + (int)(l - lines[i]) : 0, "%s", err);
      errors++;
      continue;
    }
    if (!strncmp(l, "BAR", 3) || strstr(l, " BAR."))
      nbar = 1;
    memcpy(code + 16 * ninst, w, 16);
    line_of[ninst++] = line;
  }
  if (!errors && !ninst) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_EXTRACT, 0, 0, "no SASS instructions");
    errors++;
  }
  int regs = errors ? -1 : sass_regcount(isa, code, 16 * ninst);
  if (!errors && task && task->max_regs > 0 && regs > task->max_regs) {
    gasp_diags_add(d, GASP_SEV_ERROR, GASP_CLASS_RESOURCE, 0, 0, "%d registers per thread; the task allows %d", regs,
                   task->max_regs);
    errors++;
  }
  if (!errors && bin) {
    uint32_t psize[GASP_MAX_PARAMS];
    int np = task ? task->nparams : 0;
    for (int i = 0; i < np; i++)
      psize[i] = task->params[i].role == GASP_ROLE_SCALAR ? (uint32_t)gasp_dtype_size(task->params[i].type) : 8;
    const char *kname = task && task->kernel[0] ? task->kernel : task && task->id[0] ? task->id : "kernel";
    sass_cubin_spec spec = {sm, kname, code, 16 * ninst, psize, np, regs < 1 ? 1 : regs, 0, nbar};
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
      bin->shared_static = 0;
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
  free(text);
  return errors ? -1 : 0;
}

const gasp_target gasp_target_sass_sm90 = {
    .name = "sass-sm90", .isa = "SASS", .arch = "sm_90", .gpu = "NVIDIA H200 (Hopper, sm_90)", .exec = GASP_EXEC_CUDA,
    .cc = 90, .fence_tags = "sass asm", .facts = sass_facts, .constraints = sass_constraints, .example = sass_example,
    .looks_like_code = sass_looks_like_code, .prepare = sass_prepare, .check = sass_check,
};

/* sm_89 binaries do not load on our H200 (CUDA error 209): checked and assembled only. */
const gasp_target gasp_target_sass_sm89 = {
    .name = "sass-sm89", .isa = "SASS", .arch = "sm_89", .gpu = "NVIDIA RTX 4090 (Ada, sm_89)", .exec = GASP_EXEC_NONE,
    .cc = 89, .fence_tags = "sass asm", .facts = sass_facts, .constraints = sass_constraints, .example = sass_example,
    .looks_like_code = sass_looks_like_code, .prepare = sass_prepare, .check = sass_check,
};
