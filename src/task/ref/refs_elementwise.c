/* CPU references for L0/L1 tasks: one result per element from the same element of each input. */
#include <math.h>

#include "ref.h"

static void add_f32(const gasp_ref_args *a) {
  for (int64_t i = 0; i < N(2); i++) F32(2)[i] = F32(0)[i] + F32(1)[i];
}

const gasp_ref gasp_refs_elementwise[] = {
    {"add_f32", add_f32},
    {0, 0},
};
