/* The structured PTX instruction description (see ptx_desc.h): the table and its small accessors. */
#include "ptx_desc.h"

#include <string.h>

#include "ptx_isa.h"

/* Type sets, written once (PTX ISA 9.0, 5.2 "Types"). */
#define INT ".s16|.u16|.s32|.u32|.s64|.u64"
#define SINT ".s16|.s32|.s64"
#define UINT ".u16|.u32|.u64"
#define INT8 ".u8|.u16|.u32|.u64|.s8|.s16|.s32|.s64"
#define BITS ".b16|.b32|.b64"
#define FLT ".f32|.f64"
#define HALF ".f16|.f16x2|.bf16|.bf16x2"
#define RND ".rn|.rz|.rm|.rp"
#define IRND ".rni|.rzi|.rmi|.rpi"
#define ALLT ".pred|" BITS "|" INT "|" FLT "|.b8|.u8|.s8|" HALF
#define MEMT ".b8|.u8|.s8|" BITS "|" INT "|" FLT "|.f16|.bf16"
#define CMPS ".eq|.ne|.lt|.le|.gt|.ge"
#define CMPU CMPS "|.lo|.ls|.hi|.hs"
#define CMPF CMPS "|.equ|.neu|.ltu|.leu|.gtu|.geu|.num|.nan"
#define BOOL ".and|.or|.xor"
#define SCOPE ".cta|.cluster|.gpu|.sys"
#define SPACE ".global|.shared|.shared::cta|.shared::cluster|.local|.param|.param::entry|.param::func|.const"
#define ASEM "?.relaxed|.acquire|.release|.acq_rel ?" SCOPE
#define RSEM "?.relaxed|.release ?" SCOPE /* red: no acquire (ptxas 13.0) */
#define VEC "?.v2|.v4 "

/* The rows. Where the manual restricts a modifier to some types (.ftz and .sat to .f32, .lo/.hi/.hs to
 * unsigned compares, .noftz to half atomics), the row is split by type so the grammar cannot combine what
 * ptxas refuses; those restrictions were found by running grammar samples through ptxas 13.0. Rows with
 * classes NULL are accepted by the parser only: the grammar does not offer them (half precision has no
 * register of the grammar's declarations). */
const gasp_ptx_insn gasp_ptx_insns[] = {
    /* integer and floating-point arithmetic (9.7.1, 9.7.3) */
    {"add", INT, "raa", "TTT"},
    {"add", ".sat .s32", "raa", "TTT"},
    {"add", "?" RND " ?.ftz ?.sat .f32", "raa", "TTT"},
    {"add", "?" RND " .f64", "raa", "TTT"},
    {"add", "?.rn ?.ftz ?.sat " HALF, "raa", NULL},
    {"sub", INT, "raa", "TTT"},
    {"sub", ".sat .s32", "raa", "TTT"},
    {"sub", "?" RND " ?.ftz ?.sat .f32", "raa", "TTT"},
    {"sub", "?" RND " .f64", "raa", "TTT"},
    {"sub", "?.rn ?.ftz ?.sat " HALF, "raa", NULL},
    {"mul", ".lo|.hi " INT, "raa", "TTT"},
    {"mul", ".wide .s16|.u16|.s32|.u32", "raa", "WTT"},
    {"mul", "?" RND " ?.ftz ?.sat .f32", "raa", "TTT"},
    {"mul", "?" RND " .f64", "raa", "TTT"},
    {"mul", "?.rn ?.ftz ?.sat " HALF, "raa", NULL},
    {"mad", ".lo|.hi " INT, "raaa", "TTTT"},
    {"mad", ".hi .sat .s32", "raaa", "TTTT"},
    {"mad", ".wide .s16|.u16|.s32|.u32", "raaa", "WTTW"},
    {"mad", RND " ?.ftz ?.sat .f32", "raaa", "TTTT"},
    {"mad", RND " .f64", "raaa", "TTTT"},
    {"fma", RND " ?.ftz ?.sat .f32", "raaa", "TTTT"},
    {"fma", RND " .f64", "raaa", "TTTT"},
    {"fma", "?.rn ?.ftz ?.sat|.relu " HALF, "raaa", NULL},
    {"mul24", ".lo|.hi .s32|.u32", "raa", "TTT"},
    {"mad24", ".lo|.hi .s32|.u32", "raaa", "TTTT"},
    {"mad24", ".hi .sat .s32", "raaa", "TTTT"},
    {"div", INT, "raa", "TTT"},
    {"div", ".approx|.full ?.ftz .f32", "raa", "TTT"},
    {"div", RND " ?.ftz .f32", "raa", "TTT"},
    {"div", RND " .f64", "raa", "TTT"},
    {"rem", INT, "raa", "TTT"},
    {"abs", SINT, "ra", "TT"},
    {"abs", "?.ftz .f32", "ra", "TT"},
    {"abs", ".f64", "ra", "TT"},
    {"abs", "?.ftz " HALF, "ra", NULL},
    {"neg", SINT, "ra", "TT"},
    {"neg", "?.ftz .f32", "ra", "TT"},
    {"neg", ".f64", "ra", "TT"},
    {"neg", "?.ftz " HALF, "ra", NULL},
    {"min", INT, "raa", "TTT"},
    {"min", "?.ftz ?.NaN .f32", "raa", "TTT"},
    {"min", ".f64", "raa", "TTT"},
    {"min", "?.ftz ?.NaN " HALF, "raa", NULL},
    {"max", INT, "raa", "TTT"},
    {"max", "?.ftz ?.NaN .f32", "raa", "TTT"},
    {"max", ".f64", "raa", "TTT"},
    {"max", "?.ftz ?.NaN " HALF, "raa", NULL},
    {"copysign", FLT, "raa", "TTT"},
    {"sad", INT, "raaa", "TTTT"},
    {"testp", ".finite|.infinite|.number|.notanumber|.normal|.subnormal " FLT, "pa", "PT"},
    {"rcp", ".approx|" RND " ?.ftz .f32", "ra", "TT"},
    {"rcp", RND " .f64", "ra", "TT"},
    {"rcp", ".approx .ftz .f64", "ra", "TT"},
    {"sqrt", ".approx|" RND " ?.ftz .f32", "ra", "TT"},
    {"sqrt", RND " .f64", "ra", "TT"},
    {"rsqrt", ".approx ?.ftz " FLT, "ra", "TT"},
    {"ex2", ".approx ?.ftz .f32", "ra", "TT"},
    {"ex2", ".approx ?.ftz " HALF, "ra", NULL},
    {"lg2", ".approx ?.ftz .f32", "ra", "TT"},
    {"sin", ".approx ?.ftz .f32", "ra", "TT"},
    {"cos", ".approx ?.ftz .f32", "ra", "TT"},
    {"tanh", ".approx .f32", "ra", "TT"},
    {"tanh", ".approx " HALF, "ra", NULL},
    /* bit manipulation (9.7.1, 9.7.8): counts, positions and lengths are .u32 whatever the type */
    {"popc", ".b32|.b64", "ra", "uT"},
    {"clz", ".b32|.b64", "ra", "uT"},
    {"brev", ".b32|.b64", "ra", "TT"},
    {"bfind", "?.shiftamt .u32|.u64|.s32|.s64", "ra", "uT"},
    {"bfe", ".u32|.u64|.s32|.s64", "raaa", "TTkk"},
    {"bfi", ".b32|.b64", "raaaa", "TTTkk"},
    {"prmt", ".b32 ?.f4e|.b4e|.rc8|.ecl|.ecr|.rc16", "raaa", "TTTT"},
    {"lop3", ".b32", "raaaa", "TTTTi"},
    {"and", ".pred|" BITS, "raa", "TTT"},
    {"or", ".pred|" BITS, "raa", "TTT"},
    {"xor", ".pred|" BITS, "raa", "TTT"},
    {"not", ".pred|" BITS, "ra", "TT"},
    {"cnot", BITS, "ra", "TT"},
    {"shl", BITS, "raa", "TTu"},
    {"shr", BITS "|" INT, "raa", "TTu"},
    {"shf", ".l|.r .wrap|.clamp .b32", "raaa", "TTTu"},
    /* comparison and selection (9.7.6): .lo/.ls/.hi/.hs compare unsigned integers, the unordered forms
     * floats, and bit types only test equality */
    {"setp", CMPS " " SINT, "caa", "PTT"},
    {"setp", CMPU " " UINT, "caa", "PTT"},
    {"setp", ".eq|.ne " BITS, "caa", "PTT"},
    {"setp", CMPF " ?.ftz .f32", "caa", "PTT"},
    {"setp", CMPF " .f64", "caa", "PTT"},
    {"setp", CMPF " ?.ftz .f16|.bf16", "caa", NULL},
    {"setp", CMPS " " BOOL " " SINT, "caaq", "PTTP"},
    {"setp", CMPU " " BOOL " " UINT, "caaq", "PTTP"},
    {"setp", ".eq|.ne " BOOL " " BITS, "caaq", "PTTP"},
    {"setp", CMPF " " BOOL " ?.ftz .f32", "caaq", "PTTP"},
    {"setp", CMPF " " BOOL " .f64", "caaq", "PTTP"},
    {"set", CMPS " .u32|.s32|.f32 " SINT, "raa", "TSS"},
    {"set", CMPU " .u32|.s32|.f32 " UINT, "raa", "TSS"},
    {"set", CMPF " ?.ftz .u32|.s32|.f32 .f32", "raa", "TSS"},
    {"set", CMPF " .u32|.s32|.f32 .f64", "raa", "TSS"},
    {"selp", BITS "|" INT "|" FLT, "raaq", "TTTP"},
    {"slct", BITS "|" INT "|" FLT " .s32", "raaa", "TTTS"},
    {"slct", "?.ftz " BITS "|" INT "|" FLT " .f32", "raaa", "TTTS"},
    /* data movement and conversion (9.7.9) */
    {"mov", ALLT, "vx", "TT"},
    /* loads and stores: the grammar's rows tie the address to the state space (64-bit registers for
     * global and generic, also 32-bit ones and variables for shared, the parameter's name for .param);
     * the rows without classes accept every combination the manual's syntax allows */
    {"ld", "?.weak ?.global|.local|.const ?.ca|.cg|.cs|.lu|.cv " VEC MEMT, "vm", "TA"},
    {"ld", ".volatile ?.global " VEC MEMT, "vm", "TA"}, /* volatile: no cache operator, no local/const */
    {"ld", "?.weak|.volatile .shared|.shared::cta " VEC MEMT, "vm", "TZ"},
    {"ld", ".param " MEMT, "vm", "TQ"},
    {"ld", ".global ?.ca|.cg|.cs .nc " VEC MEMT, "vm", "TA"}, /* .nc: no .weak, .lu, .cv (ptxas 13.0) */
    {"ld", ".relaxed|.acquire " SCOPE " ?.global " VEC MEMT, "vm", "TA"},
    {"ld", "?.weak|.volatile ?" SPACE " ?.ca|.cg|.cs|.lu|.cv ?.nc " VEC MEMT, "vm", NULL},
    {"ld", ".relaxed|.acquire|.mmio " SCOPE " ?" SPACE " " VEC MEMT, "vm", NULL},
    {"ldu", "?.global " VEC MEMT, "vm", "TA"},
    {"st", "?.weak ?.global|.local ?.wb|.cg|.cs|.wt " VEC MEMT, "mw", "AT"},
    {"st", ".volatile ?.global " VEC MEMT, "mw", "AT"},
    {"st", "?.weak|.volatile .shared|.shared::cta " VEC MEMT, "mw", "ZT"},
    {"st", ".relaxed|.release " SCOPE " ?.global " VEC MEMT, "mw", "AT"},
    {"st", "?.weak|.volatile ?" SPACE " ?.wb|.cg|.cs|.wt " VEC MEMT, "mw", NULL},
    {"st", ".relaxed|.release|.mmio " SCOPE " ?" SPACE " " VEC MEMT, "mw", NULL},
    /* cvta: the 64-bit ABI only (ptxas 13.0 refuses 32-bit addressing on sm_90); a variable's address
     * converts from its own space */
    {"cvta", "?.to .global|.local|.const|.param .u64", "rr", "TT"},
    {"cvta", ".shared .u64", "rs", "TY"},
    {"cvta", "?.to .global|.shared|.shared::cta|.shared::cluster|.local|.const|.param .u32|.u64", "rs", NULL},
    /* cvt (9.7.9.21): float to integer needs an integer rounding, integer to float and narrowing float a
     * float rounding; widening and integer to integer take none */
    {"cvt", INT8 " " INT8, "ra", "TS"},
    {"cvt", "?.sat " INT8 " " INT8, "ra", NULL}, /* .sat only where the range narrows: ptxas decides */
    {"cvt", IRND " ?.ftz ?.sat " INT8 " .f32", "ra", "TS"},
    {"cvt", IRND " ?.sat " INT8 " .f64", "ra", "TS"},
    {"cvt", RND " " FLT " " INT8, "ra", "TS"},
    {"cvt", RND " ?.ftz ?.sat .f32 .f64", "ra", "TS"},
    {"cvt", "?.ftz ?.sat .f64 .f32", "ra", "TS"},
    {"cvt", "?" IRND " ?.ftz ?.sat .f32 .f32", "ra", "TS"},
    {"cvt", "?" IRND " ?.sat .f64 .f64", "ra", "TS"},
    {"cvt", "?" RND "|" IRND " ?.ftz ?.sat|.relu|.satfinite .f16|.bf16|.f16x2|.bf16x2|" INT8 "|" FLT
            " .f16|.bf16|" INT8 "|" FLT, "ra", NULL},
    {"prefetch", "?.global|.local .L1|.L2", "m", "A"},
    {"isspacep", ".global|.shared|.local|.const|.param", "pa", "PD"},
    /* control flow (9.7.12) */
    {"bra", "?.uni", "l", "-"},
    {"ret", "?.uni", "", ""},
    {"exit", "", "", ""},
    {"trap", "", "", ""},
    {"brkpt", "", "", ""},
    /* parallel synchronization and communication (9.7.13): 16 named barriers, thread counts in whole
     * warps (ptxas 13.0 messages) */
    {"bar", "?.cta .sync", "aa?", "bn"},
    {"bar", "?.cta .arrive", "aa", "bn"},
    {"bar", ".warp .sync", "a", "u"},
    {"barrier", "?.cta .sync ?.aligned", "aa?", "bn"},
    {"barrier", "?.cta .arrive", "aa", "bn"},
    {"membar", ".cta|.gl|.sys", "", ""},
    {"fence", ".sc|.acq_rel " SCOPE, "", ""},
    /* atomics: the operation fixes the types (.inc/.dec .u32 only, bitwise ones .bN); global or generic
     * addresses in 64-bit registers, shared ones also in 32-bit registers */
#define ATOMS(space, addr)                                                                   \
    {"atom", ASEM " " space " .and|.or|.xor|.exch .b32|.b64", "rma", "T" addr "T"},            \
    {"atom", ASEM " " space " .add .u32|.s32|.u64|.f32|.f64", "rma", "T" addr "T"},            \
    {"atom", ASEM " " space " .inc|.dec .u32", "rma", "T" addr "T"},                           \
    {"atom", ASEM " " space " .min|.max .u32|.s32|.u64|.s64", "rma", "T" addr "T"},            \
    {"atom", ASEM " " space " .cas .b32|.b64", "rmaa", "T" addr "TT"},                         \
    {"red", RSEM " " space " .and|.or|.xor .b32|.b64", "ma", addr "T"},                        \
    {"red", RSEM " " space " .add .u32|.s32|.u64|.f32|.f64", "ma", addr "T"},                  \
    {"red", RSEM " " space " .inc|.dec .u32", "ma", addr "T"},                                 \
    {"red", RSEM " " space " .min|.max .u32|.s32|.u64|.s64", "ma", addr "T"},
    ATOMS("?.global", "A")
    ATOMS(".shared|.shared::cta", "Z")
#undef ATOMS
    {"atom", ASEM " ?.global|.shared|.shared::cta|.shared::cluster .add|.min|.max|.exch|.cas ?.noftz " HALF "|.b16",
     "rmaa?", NULL},
    {"red", ASEM " ?.global|.shared|.shared::cta|.shared::cluster .add|.min|.max ?.noftz " HALF, "ma", NULL},
    {"shfl", ".sync .up|.down|.bfly|.idx .b32", "daaaa", "TTkuu"},
    {"vote", ".sync .all|.any|.uni .pred", "pqa", "PPu"},
    {"vote", ".sync .ballot .b32", "rqa", "TPu"},
    {"activemask", ".b32", "r", "T"},
    {"match", ".sync .any .b32|.b64", "raa", "uTu"},
    {"redux", ".sync .add|.min|.max .u32|.s32", "rra", "TTu"},
    {"redux", ".sync .and|.or|.xor .b32", "rra", "uuu"}, /* integer registers only (ptxas 13.0) */
    {"nanosleep", ".u32", "a", "u"},
    {NULL, NULL, NULL, NULL},
};

int gasp_ptx_groups(const gasp_ptx_insn *row, gasp_ptx_group *g) {
  int n = 0;
  const char *p = row->mods;
  while (*p && n < GASP_PTX_MAX_GROUPS) {
    while (*p == ' ') p++;
    if (!*p) break;
    gasp_ptx_group *cur = &g[n++];
    cur->optional = *p == '?';
    if (cur->optional) p++;
    cur->nalts = 0;
    while (*p && *p != ' ') {
      if (*p == '.') p++; /* alternatives are stored without their dot */
      size_t k = strcspn(p, "| ");
      if (cur->nalts < GASP_PTX_MAX_ALTS) {
        size_t c = k < sizeof cur->alts[0] - 1 ? k : sizeof cur->alts[0] - 1;
        memcpy(cur->alts[cur->nalts], p, c);
        cur->alts[cur->nalts][c] = 0;
        cur->nalts++;
      }
      p += k;
      if (*p == '|') p++;
    }
  }
  return n;
}

int gasp_ptx_is_opcode(const char *op, size_t len) {
  for (int i = 0; gasp_ptx_insns[i].op; i++)
    if (strlen(gasp_ptx_insns[i].op) == len && !strncmp(gasp_ptx_insns[i].op, op, len)) return 1;
  return 0;
}

static size_t edit_distance(const char *a, size_t n, const char *b) {
  size_t m = strlen(b), row[64];
  if (m >= 63 || n >= 63) return 99;
  for (size_t j = 0; j <= m; j++) row[j] = j;
  for (size_t i = 1; i <= n; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= m; j++) {
      size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[m];
}

const char *gasp_ptx_nearest_opcode(const char *op, size_t len) {
  const char *best = NULL;
  size_t bd = (size_t)-1;
  for (int i = 0; gasp_ptx_insns[i].op; i++) {
    size_t dd = edit_distance(op, len, gasp_ptx_insns[i].op);
    if (dd < bd) {
      bd = dd;
      best = gasp_ptx_insns[i].op;
    }
  }
  return best;
}

const char *const gasp_ptx_directives[] = {".version", ".target", ".address_size", ".visible", ".extern", ".weak",
                                           ".entry", ".func", ".param", ".reg", ".shared", ".local", ".global",
                                           ".const", ".align", ".maxntid", ".reqntid", ".minnctapersm",
                                           ".maxnctapersm", ".maxnreg", ".pragma", ".file", ".loc", ".section", NULL};

const char *gasp_ptx_sreg_components(const char *name) {
  static const char *const vec[] = {"%tid", "%ntid", "%ctaid", "%nctaid", "%clusterid", "%nclusterid",
                                    "%cluster_ctaid", "%cluster_nctaid", NULL};
  for (int i = 0; vec[i]; i++)
    if (!strcmp(vec[i], name)) return "xyz";
  return "";
}
