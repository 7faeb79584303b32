/* CPU references for L2/L3/L6/L7 tasks: whole kernels over arrays. */
#include <math.h>

#include "ref.h"

static void vector_add(const gasp_ref_args *a) {
  for (int64_t i = 0; i < SI(3); i++) F32(2)[i] = F32(0)[i] + F32(1)[i];
}

const gasp_ref gasp_refs_kernels[] = {
    {"vector_add", vector_add},
    {0, 0},
};
