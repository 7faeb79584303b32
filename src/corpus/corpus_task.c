/* Writing one generated instance as a task: the YAML file (description, params, sizes, launch, tolerance, map,
 * CUDA reference or ARB program) and the OpenCL C reference for the AMD targets, all from the same tree. */
#include <stdio.h>
#include <string.h>

#include "corpus_int.h"

/* ---- rendering an instance into files ---- */

static const char *gens_for(gasp_map_type t, int arb) {
  if (arb) return "[\"uniform(-1,1)\", \"uniform(-4,4)\", \"uniform(0,1)\"]";
  switch (t) {
  case GASP_MT_F32: case GASP_MT_F64: return "[\"uniform(-1,1)\", heavy, special]";
  case GASP_MT_S32: return "[\"int(-1000,1000)\", \"int(-2147483648,2147483647)\", \"int(-8,8)\"]";
  default: return "[\"int(0,1000)\", \"int(0,4294967295)\", \"int(0,31)\"]";
  }
}

static void block_scalar(gasp_str *y, const char *key, const char *text) {
  gasp_str_printf(y, "%s: |\n", key);
  const char *p = text;
  while (*p) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    if (n) gasp_str_printf(y, "  %.*s\n", (int)n, p);
    else gasp_str_puts(y, "\n");
    p += n + (nl ? 1 : 0);
  }
}

/* The group forms' helpers: the combination used as COMB(a, b) */
static void c_group_prelude(const inst *x, int cl, gasp_str *helpers) {
  gasp_str c;
  gasp_str_init(&c);
  gasp_corpus_combine_c(x->red, x->type, cl, "a", "b", &c, helpers);
  const char *ct = x->type == GASP_MT_F32 ? "float" : x->type == GASP_MT_S32 ? "int" : "unsigned";
  if (x->group != GASP_MOP_TR)
    gasp_str_printf(helpers, "%s %s g_comb(%s a, %s b) { return %s; }\n",
                    cl ? "static inline" : "__device__ __forceinline__ static", ct, ct, ct, c.data);
  gasp_str_free(&c);
}

/* The body of a group form's kernel: e (the inner expression over element i) combined per warp or block, or
 * transposed. Warps are groups of 32 (gasp_amd.h maps the shuffles for the AMD targets). */
static void c_group_body(const inst *x, int cl, const char *o, const char *e, gasp_str *s) {
  const char *ct = x->type == GASP_MT_F32 ? "float" : x->type == GASP_MT_S32 ? "int" : "unsigned";
  const char *id = gasp_corpus_identity_c(x->red, x->type, cl), *sh = cl ? "__local" : "__shared__";
  /* float min/max: every value is seeded with the identity, so a NaN value counts as the identity whatever the
   * order of combination (the reference does the same) */
  gasp_str seeded;
  gasp_str_init(&seeded);
  if (x->type == GASP_MT_F32 && x->red != GASP_MOP_ADD && x->group != GASP_MOP_TR) {
    gasp_str_printf(&seeded, "g_comb(%s, %s)", id, e);
    e = seeded.data;
  }
  switch (x->group) {
  case GASP_MOP_WRED:
    gasp_str_printf(s, "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n  %s v = %s;\n  if (i < n) v = %s;\n"
                       "  for (int o = 16; o > 0; o >>= 1) v = g_comb(v, __shfl_xor_sync(0xffffffffu, v, o));\n"
                       "  if ((threadIdx.x & 31u) == 0 && i < n) %s[i / 32u] = v;\n}\n", ct, id, e, o);
    break;
  case GASP_MOP_WSCAN:
    gasp_str_printf(s, "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31u;\n  %s v = %s;\n"
                       "  if (i < n) v = %s;\n  for (int o = 1; o < 32; o <<= 1) {\n"
                       "    %s u = __shfl_up_sync(0xffffffffu, v, o);\n    if (lane >= (unsigned)o) v = g_comb(u, v);\n  }\n"
                       "  if (i < n) %s[i] = v;\n}\n", ct, id, e, ct, o);
    break;
  case GASP_MOP_BRED:
    gasp_str_printf(s, "  %s %s s[256];\n  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n  %s v = %s;\n"
                       "  if (i < n) v = %s;\n  s[t] = v;\n  __syncthreads();\n"
                       "  for (unsigned o = blockDim.x / 2; o > 0; o >>= 1) {\n    if (t < o) s[t] = g_comb(s[t], s[t + o]);\n"
                       "    __syncthreads();\n  }\n  if (t == 0) %s[blockIdx.x] = s[0];\n}\n", sh, ct, ct, id, e, o);
    break;
  case GASP_MOP_BSCAN: case GASP_MOP_BXSCAN:
    gasp_str_printf(s, "  %s %s s[256];\n  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n  %s v = %s;\n"
                       "  if (i < n) v = %s;\n  s[t] = v;\n  __syncthreads();\n"
                       "  for (unsigned o = 1; o < blockDim.x; o <<= 1) {\n    %s u = t >= o ? s[t - o] : %s;\n"
                       "    __syncthreads();\n    s[t] = g_comb(u, s[t]);\n    __syncthreads();\n  }\n", sh, ct, ct, id, e, ct, id);
    if (x->group == GASP_MOP_BSCAN) gasp_str_printf(s, "  if (i < n) %s[i] = s[t];\n}\n", o);
    else gasp_str_printf(s, "  if (i < n) %s[i] = t ? s[t - 1] : %s;\n}\n", o, id);
    break;
  case GASP_MOP_TR:
    if (!x->smem) {
      gasp_str_printf(s, "  unsigned c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;\n"
                         "  if (r < rows && c < cols) {\n    unsigned i = r * cols + c;\n    %s[c * rows + r] = %s;\n  }\n}\n", o, e);
    } else {
      gasp_str_printf(s, "  %s %s tile[32][33];\n  unsigned bx = blockIdx.x * 32u, by = blockIdx.y * 32u;\n"
                         "  for (unsigned k = 0; k < 32u; k += 8u) {\n    unsigned r = by + threadIdx.y + k, c = bx + threadIdx.x;\n"
                         "    if (r < rows && c < cols) {\n      unsigned i = r * cols + c;\n      tile[threadIdx.y + k][threadIdx.x] = %s;\n"
                         "    }\n  }\n  __syncthreads();\n  for (unsigned k = 0; k < 32u; k += 8u) {\n"
                         "    unsigned c = bx + threadIdx.y + k, r = by + threadIdx.x;\n"
                         "    if (r < rows && c < cols) %s[c * rows + r] = tile[threadIdx.x][threadIdx.y + k];\n  }\n}\n",
                      sh, ct, e, o);
    }
    break;
  default: break;
  }
  gasp_str_free(&seeded);
}

/* A loop per element: v = start, then cnt times v = step. */
static void c_loop_body(const gasp_task *t, const gasp_map *m, int cl, const char *o, gasp_str *helpers, gasp_str *s) {
  const gasp_map_node *root = &m->n[m->root];
  gasp_str part[3];
  for (int k = 0; k < 3; k++) {
    gasp_str_init(&part[k]);
    gasp_corpus_expr_c_node(m, t, cl, root->kid[k], &part[k], helpers);
  }
  const char *ct = root->type == GASP_MT_F32 ? "float" : root->type == GASP_MT_S32 ? "int" : "unsigned";
  gasp_str_printf(s, "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) {\n    %s v = %s;\n"
                     "    unsigned cnt = %s;\n    for (unsigned c = 0; c < cnt; c++) v = %s;\n    %s[i] = v;\n  }\n}\n",
                  ct, part[1].data, part[0].data, part[2].data, o);
  for (int k = 0; k < 3; k++) gasp_str_free(&part[k]);
}

/* the kernel's C signature and body for CUDA (cl 0) or OpenCL (cl 1) */
static void c_kernel(const inst *x, const gasp_task *t, const gasp_map *m, int cl, gasp_str *s) {
  gasp_str helpers, e;
  gasp_str_init(&helpers);
  gasp_str_init(&e);
  gasp_corpus_expr_c(m, t, cl, &e, &helpers);
  if (x->group) c_group_prelude(x, cl, &helpers);
  if (helpers.len) gasp_str_puts(s, helpers.data);
  gasp_str_printf(s, "%s void %s(", cl ? "KERNEL" : "extern \"C\" __global__", t->kernel);
  for (int i = 0; i < t->nparams; i++) {
    const gasp_param *p = &t->params[i];
    const char *ct = p->type == GASP_DT_F32 ? "float" : p->type == GASP_DT_F64 ? "double" : p->type == GASP_DT_S32 ? "int" : "unsigned";
    if (i) gasp_str_puts(s, ", ");
    if (p->role == GASP_ROLE_SCALAR) gasp_str_printf(s, "%s %s", ct, p->name);
    else gasp_str_printf(s, "%s%s%s* %s", cl ? "__global " : "", p->role == GASP_ROLE_IN ? "const " : "", ct, p->name);
  }
  gasp_str_puts(s, ") {\n");
  const char *o = t->params[m->out].name;
  if (x->loop) c_loop_body(t, m, cl, o, &helpers, s);
  else if (x->group) c_group_body(x, cl, o, e.data, s);
  else if (x->gridstride)
    gasp_str_printf(s, "  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n    %s[i] = %s;\n}\n", o, e.data);
  else
    gasp_str_printf(s, "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) %s[i] = %s;\n}\n", o, e.data);
  gasp_str_free(&helpers);
  gasp_str_free(&e);
}

static void title_of(const gasp_map *m, const inst *x, char *buf, size_t cap) {
  int seen[GASP_MOP_COUNT] = {0};
  char ops[96] = "";
  for (int i = 0; i < m->count; i++) {
    gasp_map_op op = m->n[i].op;
    if (op <= GASP_MOP_LIT || gasp_map_is_group(op) || op == GASP_MOP_LOOP || op == GASP_MOP_ACC || seen[op] ||
        strlen(ops) > 60)
      continue;
    seen[op] = 1;
    if (ops[0]) strncat(ops, ", ", sizeof ops - strlen(ops) - 1);
    strncat(ops, gasp_map_op_name(op), sizeof ops - strlen(ops) - 1);
  }
  static const char *const gw[] = {"warp reduction", "block reduction", "warp inclusive scan", "block inclusive scan",
                                   "block exclusive scan", "transpose"};
  const char *what = x->group == GASP_MOP_TR && x->smem ? "shared-memory tiled transpose"
                     : x->group ? gw[x->group - GASP_MOP_WRED]
                     : x->loop ? "data-dependent loop"
                     : x->kind == GASP_RENDER_ARB ? (x->vertex ? "ARB vertex program" : "ARB fragment program")
                     : x->level == 0 ? "one instruction" : x->level == 1 ? "straight-line sequence"
                     : x->gridstride ? "grid-stride kernel" : "element-wise kernel";
  if (x->group && x->group != GASP_MOP_TR)
    snprintf(buf, cap, "%s %s, %s%s%s%s", tn(x->type), what, gasp_map_op_name(x->red), ops[0] ? " (" : "", ops, ops[0] ? ")" : "");
  else if (!ops[0]) snprintf(buf, cap, "%s %s", tn(x->type), what);
  else snprintf(buf, cap, "%s %s (%s)", tn(x->type), what, ops);
}

/* Builds the instance's task (params, map) and its YAML and .cl texts. Returns 0, or -1 when the tree does
 * not suit (an unused input, no ARB form, a parse error: the generator's own bug, reported). */
int corpus_render_task(inst *x, const char *id, gasp_task *t, gasp_map *m, gasp_str *yaml, gasp_str *cl, gasp_str *why) {
  memset(t, 0, sizeof *t);
  gasp_strlcpy(t->id, id, sizeof t->id);
  gasp_strlcpy(t->kernel, id, sizeof t->kernel);
  t->level = x->level;
  int arb = x->kind == GASP_RENDER_ARB;
  for (int k = 0; k < x->nin; k++) {
    if (!x->used[k]) return -1;
    gasp_param *p = &t->params[t->nparams++];
    gasp_strlcpy(p->name, x->in_name[k], sizeof p->name);
    p->type = (gasp_dtype)(x->in_type[k] == GASP_MT_F32 ? GASP_DT_F32 : x->in_type[k] == GASP_MT_F64 ? GASP_DT_F64
                           : x->in_type[k] == GASP_MT_S32 ? GASP_DT_S32 : GASP_DT_U32);
    p->role = GASP_ROLE_IN;
  }
  gasp_param *op = &t->params[t->nparams++];
  gasp_strlcpy(op->name, x->out_name[0] ? x->out_name : x->kind == GASP_RENDER_SNIPPET ? "d" : "out", sizeof op->name);
  op->type = (gasp_dtype)(x->type == GASP_MT_F32 ? GASP_DT_F32 : x->type == GASP_MT_F64 ? GASP_DT_F64
                          : x->type == GASP_MT_S32 ? GASP_DT_S32 : GASP_DT_U32);
  op->role = GASP_ROLE_OUT;
  if (x->has_scalar) {
    if (!x->used[CORPUS_SCALAR]) return -1;
    gasp_param *p = &t->params[t->nparams++];
    gasp_strlcpy(p->name, x->scalar_name, sizeof p->name);
    p->type = op->type;
    p->role = GASP_ROLE_SCALAR;
    gasp_strlcpy(p->value, x->scalar_value, sizeof p->value);
  }
  for (int k = 0; !arb && k < (x->group == GASP_MOP_TR ? 2 : 1); k++) {
    const char *nm = x->group == GASP_MOP_TR ? (k ? "cols" : "rows") : "n";
    gasp_param *p = &t->params[t->nparams++];
    gasp_strlcpy(p->name, nm, sizeof p->name);
    p->type = GASP_DT_U32;
    p->role = GASP_ROLE_SCALAR;
    gasp_strlcpy(p->value, nm, sizeof p->value);
  }
  char e[160];
  int col;
  if (gasp_map_parse(x->e.data, t, m, &col, e, sizeof e)) {
    gasp_str_printf(why, "generator bug: '%s' column %d: %s", x->e.data, col + 1, e);
    return -2;
  }
  gasp_str arbp;
  gasp_str_init(&arbp);
  if (arb && gasp_corpus_arb_program(m, t, x->vertex, &arbp)) {
    gasp_str_free(&arbp);
    return -1;
  }
  char title[128];
  title_of(m, x, title, sizeof title);
  gasp_str d;
  gasp_str_init(&d);
  gasp_corpus_describe(m, t, x->kind, &d);
  if (x->kind == GASP_RENDER_SNIPPET) {
    /* the wording chosen by a hash of the map's text: one type each, or (inputs of one type) the benchmark's
     * "The inputs are in registers %a, %b and %c (.f32)" / "The input is in register %x (.f32)" */
    uint32_t h = 2166136261u;
    for (const char *p = x->e.data; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
    gasp_corpus_registers_text(t, (h >> 8) % 2 ? 1 + (int)((h >> 9) % 2 == 0) : 0, &d);
  } else if (x->group == GASP_MOP_TR && !x->smem) {
    gasp_str_puts(&d, "2-D launch: thread (x, y) of the grid, with c = blockIdx.x*blockDim.x + threadIdx.x and r = "
                      "blockIdx.y*blockDim.y + threadIdx.y, handles element (r, c); threads with r >= rows or c >= cols do "
                      "nothing. The inputs are read only; write to out.\n");
  } else if (x->group == GASP_MOP_TR) {
    gasp_str_puts(&d, "Use 32x32 tiles staged in shared memory. Block (32, 8): block (bx, by) handles the tile of input rows "
                      "32*by .. 32*by+31 and input columns 32*bx .. 32*bx+31; each thread computes e for 4 elements on the way "
                      "in (rows threadIdx.y + 0, 8, 16, 24 of the tile), then bar.sync, then moves 4 out. Both the global "
                      "loads and the global stores must be coalesced (consecutive threadIdx.x touch consecutive addresses). "
                      "Elements outside the matrix (r >= rows or c >= cols) are neither read nor written.\n");
  } else if (x->group) {
    /* the group text (in the description) says it all */
  } else if (!arb) {
    for (int k = 0; k < x->nin; k++)
      if (x->stride[k] != 1 || x->offset[k])
        gasp_str_printf(&d, "%s has %d*n + %d elements: element i reads %s[%d*i + %d].\n", x->in_name[k], x->stride[k],
                        x->offset[k], x->in_name[k], x->stride[k], x->offset[k]);
    if (x->has_scalar)
      gasp_str_printf(&d, "%s is a .%s scalar parameter (%s in the tests, but read it from the parameter).\n",
                      x->scalar_name, tn(x->type), x->scalar_value);
    if (x->gridstride)
      gasp_str_puts(&d, "The launch is fixed at 8 blocks of 128 threads (1024 threads) whatever n is, and n is larger, so each "
                        "thread must loop: thread t = blockIdx.x*blockDim.x + threadIdx.x handles i = t, t + T, t + 2T, ... "
                        "while i < n, with stride T = gridDim.x * blockDim.x. The inputs are read only; write to out.\n");
    else
      gasp_str_printf(&d, "One thread per element on a 1-D grid, for every i < n; threads with i >= n do nothing. The inputs "
                          "are read only; write to %s.\n", op->name);
  } else {
    if (x->vertex) {
      gasp_str_puts(&d, "Write an ARB_vertex_program (`!!ARBvp1.0` ... `END`). One vertex (a point) is drawn per element on a\n"
                        "w x h RGBA32F framebuffer: element i is pixel (i % w, i / w), and every element is 4 floats (x, y, z, w).\n"
                        "`vertex.position` holds the element's pixel position in clip space, and the program must contain\n"
                        "`MOV result.position, vertex.position;` so the point lands on its pixel. Each input array is a generic\n"
                        "vertex attribute, one float4 per element:");
      for (int k = 0; k < x->nin; k++) gasp_str_printf(&d, "%s `%s` is `vertex.attrib[%d]`", k ? "," : "", x->in_name[k], k + 1);
      gasp_str_puts(&d, ".\nWrite the element of `out` to `result.color`: it reaches the pixel unchanged (no clamping) and all\n"
                        "four components are compared (tolerance rel 1e-6 plus abs 1e-6).\n");
    } else {
      gasp_str_puts(&d, "Write an ARB_fragment_program (`!!ARBfp1.0` ... `END`). The output is a w x h RGBA32F framebuffer,\n"
                        "one pixel per element: element i is pixel (i % w, i / w), and every element is 4 floats (x, y, z, w).\n"
                        "Each input array is an RGBA32F 2D texture of w x h texels, one float4 per element (texel (x, y) holds\n"
                        "element y*w + x, nearest filtering):");
      for (int k = 0; k < x->nin; k++) gasp_str_printf(&d, "%s `%s` on unit %d (`texture[%d], 2D`)", k ? "," : "", x->in_name[k], k, k);
      gasp_str_puts(&d, ".\n`TEX r, fragment.texcoord[0], texture[k], 2D;` reads the fragment's own element of the array on unit k.\n"
                        "Write the element of `out` to `result.color`: all four components are compared (tolerance rel 1e-6\n"
                        "plus abs 1e-6), and colour clamping is off, so any float passes through unchanged.\n"
                        "R300 limits: at most 64 ALU instructions, 32 TEX instructions, 4 texture indirections and 32\n"
                        "temporaries; there are no branches or loops.\n");
    }
  }
  gasp_str_printf(yaml, "# generated by gasp corpus gen (family %s): do not edit, regenerate\n", x->family);
  gasp_str_printf(yaml, "id: %s\nlevel: %d\ntitle: \"%s\"\n", id, x->level, title);
  if (arb) gasp_str_printf(yaml, "isa: arb\nprogram: %s\n", x->vertex ? "vertex" : "fragment");
  block_scalar(yaml, "description", d.data);
  gasp_str_free(&d);
  if (x->kind == GASP_RENDER_SNIPPET) gasp_str_puts(yaml, "snippet: true\n");
  gasp_str_puts(yaml, "params:\n");
  const char *cnt = arb ? "4*w*h" : x->group == GASP_MOP_TR ? "rows*cols" : "n";
  const char *ocnt = x->group == GASP_MOP_WRED ? "\"cdiv(n,32)\"" : x->group == GASP_MOP_BRED ? "\"cdiv(n,256)\"" : cnt;
  for (int i = 0; i < t->nparams; i++) {
    const gasp_param *p = &t->params[i];
    if (p->role == GASP_ROLE_IN) {
      int k = i;
      char c[48];
      if (!arb && (x->stride[k] != 1 || x->offset[k])) snprintf(c, sizeof c, "%d*n+%d", x->stride[k], x->offset[k]);
      else snprintf(c, sizeof c, "%s", cnt);
      gasp_str_printf(yaml, "  - {name: %s, type: %s, role: in, count: %s, gen: %s}\n", p->name, gasp_dtype_name(p->type), c,
                      x->positive ? "[\"uniform(0,1)\", \"lognormal(1)\", \"uniform(0,1000)\"]" : gens_for(x->in_type[k], arb));
    } else if (p->role == GASP_ROLE_OUT) {
      gasp_str_printf(yaml, "  - {name: %s, type: %s, role: out, count: %s}\n", p->name, gasp_dtype_name(p->type), ocnt);
    } else {
      gasp_str_printf(yaml, "  - {name: %s, type: %s, role: scalar, value: %s}\n", p->name, gasp_dtype_name(p->type), p->value);
    }
  }
  if (arb) gasp_str_puts(yaml, "sizes:\n  - {w: 16, h: 8}\n  - {w: 37, h: 5}\n  - {w: 64, h: 4}\nlaunch: {grid: [w, h]}\n");
  else if (x->group == GASP_MOP_TR)
    gasp_str_printf(yaml, "sizes:\n  - {rows: 67, cols: 45}\n  - {rows: 100, cols: 129}\n  - {rows: 256, cols: 200}\n"
                          "launch: {block: [32, 8], grid: [\"cdiv(cols,32)\", \"cdiv(rows,%d)\"]}\n", x->smem ? 32 : 8);
  else if (x->group)
    gasp_str_puts(yaml, "sizes:\n  - {n: 4099}\n  - {n: 1000}\n  - {n: 16384}\nlaunch: {block: [256], grid: [\"cdiv(n,256)\"]}\n");
  else if (x->kind == GASP_RENDER_SNIPPET)
    gasp_str_puts(yaml, "sizes:\n  - {n: 1000}\n  - {n: 3001}\nlaunch: {block: [128], grid: [\"cdiv(n,128)\"]}\n");
  else if (x->gridstride)
    gasp_str_puts(yaml, "sizes:\n  - {n: 5000}\n  - {n: 1031}\n  - {n: 20011}\nlaunch: {block: [128], grid: [8]}\n");
  else gasp_str_puts(yaml, "sizes:\n  - {n: 4099}\n  - {n: 1000}\n  - {n: 16384}\nlaunch: {block: [256], grid: [\"cdiv(n,256)\"]}\n");
  if (arb) gasp_str_puts(yaml, "tolerance: {rel: 1e-6, abs: 1e-6}\n");
  else if (x->positive) gasp_str_puts(yaml, "tolerance: {rel: 1e-5, abs: 0}\n");
  else if (x->level == 0) gasp_str_puts(yaml, "tolerance: {rel: 0, abs: 0}\n");
  else gasp_str_puts(yaml, "tolerance: {rel: 1e-6, abs: 0}\n");
  gasp_str_printf(yaml, "map: \"%s\"\n", x->e.data);
  if (!arb && x->kind == GASP_RENDER_SNIPPET) { /* the snippet answer: the reference backend's, and the corpus's */
    gasp_str ps;
    gasp_str_init(&ps);
    if (gasp_corpus_ptx_snippet(m, t, &ps) == 0) block_scalar(yaml, "ptx_snippet", ps.data);
    gasp_str_free(&ps);
  }
  if (arb) {
    block_scalar(yaml, "arb_reference", arbp.data);
  } else {
    gasp_str ck;
    gasp_str_init(&ck);
    c_kernel(x, t, m, 0, &ck);
    block_scalar(yaml, "cuda", ck.data);
    gasp_str_free(&ck);
    gasp_str_printf(cl, "/* %s (L%d, family %s): generated by gasp corpus gen from the same tree as its CUDA reference. */\n"
                        "#include \"gasp_amd.h\"\n\n", id, x->level, x->family);
    c_kernel(x, t, m, 1, cl);
  }
  gasp_str_printf(yaml, "tags: [generated, %s]\n", x->family);
  gasp_str_free(&arbp);
  return 0;
}

char *gasp_corpus_completion(const char *fence_tags, const char *code) {
  size_t tag = strcspn(fence_tags, " ");
  gasp_str s;
  gasp_str_init(&s);
  size_t n = strlen(code);
  gasp_str_printf(&s, "```%.*s\n%s%s```", (int)tag, fence_tags, code, n && code[n - 1] == '\n' ? "" : "\n");
  return gasp_str_take(&s);
}
