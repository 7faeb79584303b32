/* The kernel-argument layout of an AMD code object: read from the `.amdgpu_metadata` YAML of the assembler
 * source with libyaml, or made for a task's ABI when the harness writes the metadata itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "amd.h"

static const struct {
  const char *name;
  gasp_amd_arg_kind kind;
} kinds[] = {
    {"global_buffer", GASP_AMD_ARG_BUFFER},          {"by_value", GASP_AMD_ARG_VALUE},
    {"hidden_block_count_x", GASP_AMD_ARG_BLOCK_COUNT_X}, {"hidden_block_count_y", GASP_AMD_ARG_BLOCK_COUNT_Y},
    {"hidden_block_count_z", GASP_AMD_ARG_BLOCK_COUNT_Z}, {"hidden_group_size_x", GASP_AMD_ARG_GROUP_SIZE_X},
    {"hidden_group_size_y", GASP_AMD_ARG_GROUP_SIZE_Y},   {"hidden_group_size_z", GASP_AMD_ARG_GROUP_SIZE_Z},
    {"hidden_remainder_x", GASP_AMD_ARG_REMAINDER_X},     {"hidden_remainder_y", GASP_AMD_ARG_REMAINDER_Y},
    {"hidden_remainder_z", GASP_AMD_ARG_REMAINDER_Z},     {"hidden_grid_dims", GASP_AMD_ARG_GRID_DIMS},
    {"hidden_dynamic_lds_size", GASP_AMD_ARG_DYNAMIC_LDS},
};

static yaml_node_t *map_get(yaml_document_t *doc, yaml_node_t *map, const char *key) {
  if (!map || map->type != YAML_MAPPING_NODE) return NULL;
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(doc, p->key);
    if (k && k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key))
      return yaml_document_get_node(doc, p->value);
  }
  return NULL;
}

static const char *scalar_of(yaml_node_t *n) {
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static long num_of(yaml_node_t *n, long dflt) {
  const char *s = scalar_of(n);
  return s ? strtol(s, NULL, 0) : dflt;
}

int gasp_amd_meta_parse(const char *src, const char *kernel, gasp_amd_layout *out, int *meta_line, int *wave_size,
                        char *err, size_t errcap) {
  memset(out, 0, sizeof *out);
  *meta_line = 0;
  *wave_size = 0;
  const char *b = strstr(src, ".amdgpu_metadata");
  while (b && b > src && b[-1] != '\n' && b[-1] != ' ' && b[-1] != '\t') b = strstr(b + 1, ".amdgpu_metadata");
  const char *e = b ? strstr(b, ".end_amdgpu_metadata") : NULL;
  if (!b || !e) {
    snprintf(err, errcap, "no .amdgpu_metadata block (the code object needs the kernel's argument metadata)");
    return -1;
  }
  int line = 1;
  for (const char *p = src; p < b; p++) line += *p == '\n';
  *meta_line = line;
  const char *y = strchr(b, '\n');
  if (!y || y > e) {
    snprintf(err, errcap, "empty .amdgpu_metadata block");
    return -1;
  }
  y++;
  yaml_parser_t parser;
  yaml_document_t doc;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, (const unsigned char *)y, (size_t)(e - y));
  if (!yaml_parser_load(&parser, &doc)) {
    snprintf(err, errcap, "metadata line %d: %s", line + 1 + (int)parser.problem_mark.line,
             parser.problem ? parser.problem : "YAML error");
    yaml_parser_delete(&parser);
    return -1;
  }
  yaml_parser_delete(&parser);
  int rc = -1;
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  yaml_node_t *ks = map_get(&doc, root, "amdhsa.kernels");
  yaml_node_t *k = NULL;
  if (ks && ks->type == YAML_SEQUENCE_NODE)
    for (yaml_node_item_t *it = ks->data.sequence.items.start; it < ks->data.sequence.items.top; it++) {
      yaml_node_t *c = yaml_document_get_node(&doc, *it);
      const char *name = scalar_of(map_get(&doc, c, ".name"));
      if (!kernel || (name && !strcmp(name, kernel))) {
        k = c;
        break;
      }
    }
  if (!k) {
    snprintf(err, errcap, "metadata: no kernel%s%s in amdhsa.kernels", kernel ? " named " : "", kernel ? kernel : "");
    goto done;
  }
  const char *name = scalar_of(map_get(&doc, k, ".name"));
  snprintf(out->kernel, sizeof out->kernel, "%s", name ? name : "");
  out->kernarg_size = (uint32_t)num_of(map_get(&doc, k, ".kernarg_segment_size"), 0);
  out->group_segment = (uint32_t)num_of(map_get(&doc, k, ".group_segment_fixed_size"), 0);
  *wave_size = (int)num_of(map_get(&doc, k, ".wavefront_size"), 0);
  out->wave64 = *wave_size == 64;
  yaml_node_t *args = map_get(&doc, k, ".args");
  if (args && args->type == YAML_SEQUENCE_NODE)
    for (yaml_node_item_t *it = args->data.sequence.items.start; it < args->data.sequence.items.top; it++) {
      yaml_node_t *a = yaml_document_get_node(&doc, *it);
      const char *vk = scalar_of(map_get(&doc, a, ".value_kind"));
      if (!vk) {
        snprintf(err, errcap, "metadata: an argument of %s has no .value_kind", out->kernel);
        goto done;
      }
      if (out->nargs == GASP_AMD_MAX_ARGS) {
        snprintf(err, errcap, "metadata: more than %d arguments", GASP_AMD_MAX_ARGS);
        goto done;
      }
      gasp_amd_arg_kind kind = GASP_AMD_ARG_ZERO;
      int known = 0;
      for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (!strcmp(vk, kinds[i].name)) kind = kinds[i].kind, known = 1;
      if (!known && strncmp(vk, "hidden_", 7)) {
        snprintf(err, errcap, "metadata: argument kind '%s' is not supported (global_buffer, by_value, hidden_*)", vk);
        goto done;
      }
      out->args[out->nargs].offset = (uint32_t)num_of(map_get(&doc, a, ".offset"), 0);
      out->args[out->nargs].size = (uint32_t)num_of(map_get(&doc, a, ".size"), 0);
      out->args[out->nargs].kind = kind;
      if (kind == GASP_AMD_ARG_BUFFER || kind == GASP_AMD_ARG_VALUE) out->nexplicit++;
      out->nargs++;
    }
  rc = 0;
done:
  yaml_document_delete(&doc);
  return rc;
}

static const struct {
  uint32_t off, size;
  gasp_amd_arg_kind kind;
  const char *name;
} hidden[] = {
    {0, 4, GASP_AMD_ARG_BLOCK_COUNT_X, "hidden_block_count_x"}, {4, 4, GASP_AMD_ARG_BLOCK_COUNT_Y, "hidden_block_count_y"},
    {8, 4, GASP_AMD_ARG_BLOCK_COUNT_Z, "hidden_block_count_z"}, {12, 2, GASP_AMD_ARG_GROUP_SIZE_X, "hidden_group_size_x"},
    {14, 2, GASP_AMD_ARG_GROUP_SIZE_Y, "hidden_group_size_y"},  {16, 2, GASP_AMD_ARG_GROUP_SIZE_Z, "hidden_group_size_z"},
    {18, 2, GASP_AMD_ARG_REMAINDER_X, "hidden_remainder_x"},    {20, 2, GASP_AMD_ARG_REMAINDER_Y, "hidden_remainder_y"},
    {22, 2, GASP_AMD_ARG_REMAINDER_Z, "hidden_remainder_z"},    {40, 8, GASP_AMD_ARG_ZERO, "hidden_global_offset_x"},
    {48, 8, GASP_AMD_ARG_ZERO, "hidden_global_offset_y"},       {56, 8, GASP_AMD_ARG_ZERO, "hidden_global_offset_z"},
    {64, 2, GASP_AMD_ARG_GRID_DIMS, "hidden_grid_dims"},
};

static uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

void gasp_amd_layout_for_task(const gasp_task *task, const gasp_amd_arch *a, gasp_amd_layout *out) {
  memset(out, 0, sizeof *out);
  snprintf(out->mcpu, sizeof out->mcpu, "%s", a->mcpu);
  snprintf(out->kernel, sizeof out->kernel, "%s", task->kernel);
  out->wave64 = a->wave64;
  uint32_t off = 0;
  for (int i = 0; i < task->nparams; i++) {
    const gasp_param *p = &task->params[i];
    uint32_t size = p->role == GASP_ROLE_SCALAR ? (uint32_t)gasp_dtype_size(p->type) : 8;
    off = align_up(off, size);
    out->args[out->nargs].offset = off;
    out->args[out->nargs].size = size;
    out->args[out->nargs].kind = p->role == GASP_ROLE_SCALAR ? GASP_AMD_ARG_VALUE : GASP_AMD_ARG_BUFFER;
    out->nargs++;
    off += size;
  }
  out->nexplicit = out->nargs;
  /* the hidden block, as clang-19 lays it out for code object v5 (the .s clang-19 makes from tasks/amdgcn/<id>.cl) */
  uint32_t h = align_up(off, 8);
  for (size_t i = 0; i < sizeof hidden / sizeof *hidden; i++) {
    out->args[out->nargs].offset = h + hidden[i].off;
    out->args[out->nargs].size = hidden[i].size;
    out->args[out->nargs].kind = hidden[i].kind;
    out->nargs++;
  }
  out->kernarg_size = h + 256;
}

void gasp_amd_meta_emit(const gasp_task *task, const gasp_amd_arch *a, const gasp_amd_layout *lay, uint32_t lds,
                        int vgprs, int sgprs, gasp_str *o) {
  gasp_str_printf(o, "  .amdgpu_metadata\n---\namdhsa.kernels:\n  - .args:\n");
  for (int i = 0; i < lay->nexplicit; i++) {
    const gasp_param *p = &task->params[i];
    /* no .name: LLVM 19's metadata reader takes an argument named n or y as a boolean even when quoted
     * ("invalid HSA metadata"; measured with llvm-mc 19.1.7), and clang-19 leaves names out too */
    gasp_str_printf(o, "      - .offset: %u\n        .size: %u\n        .value_kind: %s\n", lay->args[i].offset,
                    lay->args[i].size, p->role == GASP_ROLE_SCALAR ? "by_value" : "global_buffer");
    if (p->role != GASP_ROLE_SCALAR)
      gasp_str_printf(o, "        .address_space: global\n%s", p->role == GASP_ROLE_IN ? "        .is_const: true\n" : "");
  }
  for (int i = lay->nexplicit, k = 0; i < lay->nargs; i++, k++)
    gasp_str_printf(o, "      - .offset: %u\n        .size: %u\n        .value_kind: %s\n", lay->args[i].offset,
                    lay->args[i].size, hidden[k].name);
  gasp_str_printf(o,
                  "    .group_segment_fixed_size: %u\n    .kernarg_segment_align: 8\n    .kernarg_segment_size: %u\n"
                  "    .max_flat_workgroup_size: 1024\n    .name: %s\n    .private_segment_fixed_size: 0\n"
                  "    .sgpr_count: %d\n    .symbol: %s.kd\n    .vgpr_count: %d\n    .wavefront_size: %d\n"
                  "amdhsa.target: amdgcn-amd-amdhsa--%s\namdhsa.version:\n  - 1\n  - 2\n...\n  .end_amdgpu_metadata\n",
                  lds, lay->kernarg_size, task->kernel, sgprs, task->kernel, vgprs, a->wave64 ? 64 : 32, a->mcpu);
}
