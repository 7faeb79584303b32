/* The registry of CPU references: the tables of every refs_*.c file. */
#include <string.h>

#include "ref.h"

static const gasp_ref *const tables[] = {gasp_refs_elementwise, gasp_refs_kernels, gasp_refs_warp_block, gasp_refs_arb, gasp_refs_map};

gasp_ref_fn gasp_ref_find(const char *name) {
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
    for (const gasp_ref *r = tables[t]; r->name; r++)
      if (!strcmp(r->name, name)) return r->fn;
  return NULL;
}
