/* The generic CPU reference of element-wise tasks: out[i] is the task's `map` expression (map.h) evaluated
 * at i for every element of the one `out` array, with each operation's exact IEEE semantics (map.c; built
 * with -ffp-contract=off). Generated tasks (gasp corpus gen) use it; a hand-written task may too. */
#include <string.h>

#include "../map.h"
#include "../task.h"
#include "ref.h"

static void map_ref(const gasp_ref_args *a) {
  const gasp_task *t = a->task;
  gasp_map m;
  char e[160];
  /* the loader parsed the same text: a failure here cannot happen for a loaded task */
  if (!t || !t->map || gasp_map_parse(t->map, t, &m, NULL, e, sizeof e)) return;
  int o = m.out;
  for (int64_t i = 0; i < a->count[o]; i++) {
    gasp_map_value v = gasp_map_eval(&m, t, a, i);
    switch (t->params[o].type) {
    case GASP_DT_F32: F32(o)[i] = v.f32; break;
    case GASP_DT_F64: F64(o)[i] = v.f64; break;
    default: U32(o)[i] = v.u32; break;
    }
  }
}

const gasp_ref gasp_refs_map[] = {{"map", map_ref}, {NULL, NULL}};
