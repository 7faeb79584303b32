/* The structured PTX instruction description (see ptx_desc.h): the table and its small accessors. */
#include "ptx_desc.h"

#include <string.h>

#include "ptx_isa.h"

/* Type sets, written once (PTX ISA 9.0, 5.2 "Types"). */
#define INT ".s16|.u16|.s32|.u32|.s64|.u64"
#define BITS ".b16|.b32|.b64"
#define FLT ".f32|.f64"
#define HALF ".f16|.f16x2|.bf16|.bf16x2"
#define RND ".rn|.rz|.rm|.rp"
#define ALLT ".pred|" BITS "|" INT "|" FLT "|.b8|.u8|.s8|" HALF
#define MEMT ".b8|.u8|.s8|" BITS "|" INT "|" FLT "|.f16|.f16x2|.bf16|.bf16x2|.pred"
#define CMP ".eq|.ne|.lt|.le|.gt|.ge|.lo|.ls|.hi|.hs|.equ|.neu|.ltu|.leu|.gtu|.geu|.num|.nan"
#define SETPT BITS "|" INT "|" FLT "|.f16|.bf16"
#define SEM "?.weak|.volatile|.relaxed|.acquire|.release|.mmio"
#define SCOPE "?.cta|.cluster|.gpu|.sys"
#define SPACE ".global|.shared|.shared::cta|.shared::cluster|.local|.param|.param::entry|.param::func|.const"
#define ATOMT ".b32|.b64|.u32|.u64|.s32|.s64|.f32|.f64|.f16|.f16x2|.bf16|.bf16x2"

const gasp_ptx_insn gasp_ptx_insns[] = {
    /* integer and floating-point arithmetic (9.7.1, 9.7.3) */
    {"add", "?.sat " INT, "raa", "TTT"},
    {"add", "?" RND " ?.ftz ?.sat " FLT "|" HALF, "raa", "TTT"},
    {"sub", "?.sat " INT, "raa", "TTT"},
    {"sub", "?" RND " ?.ftz ?.sat " FLT "|" HALF, "raa", "TTT"},
    {"mul", ".lo|.hi " INT, "raa", "TTT"},
    {"mul", ".wide .s16|.u16|.s32|.u32", "raa", "WTT"},
    {"mul", "?" RND " ?.ftz ?.sat " FLT "|" HALF, "raa", "TTT"},
    {"mad", ".lo|.hi ?.sat " INT, "raaa", "TTTT"},
    {"mad", ".wide .s16|.u16|.s32|.u32", "raaa", "WTTW"},
    {"mad", "?" RND " ?.ftz ?.sat " FLT, "raaa", "TTTT"},
    {"fma", RND " ?.ftz ?.sat " FLT "|" HALF, "raaa", "TTTT"},
    {"mul24", ".lo|.hi .s32|.u32", "raa", "TTT"},
    {"mad24", ".lo|.hi ?.sat .s32|.u32", "raaa", "TTTT"},
    {"div", INT, "raa", "TTT"},
    {"div", ".approx|.full|" RND " ?.ftz " FLT, "raa", "TTT"},
    {"rem", INT, "raa", "TTT"},
    {"abs", "?.ftz .s16|.s32|.s64|" FLT "|" HALF, "ra", "TT"},
    {"neg", "?.ftz .s16|.s32|.s64|" FLT "|" HALF, "ra", "TT"},
    {"min", "?.ftz ?.NaN " INT "|" FLT "|" HALF, "raa", "TTT"},
    {"max", "?.ftz ?.NaN " INT "|" FLT "|" HALF, "raa", "TTT"},
    {"copysign", FLT, "raa", "TTT"},
    {"sad", INT, "raaa", "TTTT"},
    {"testp", ".finite|.infinite|.number|.notanumber|.normal|.subnormal " FLT, "pa", "PT"},
    {"rcp", ".approx|" RND " ?.ftz " FLT, "ra", "TT"},
    {"sqrt", ".approx|" RND " ?.ftz " FLT, "ra", "TT"},
    {"rsqrt", ".approx ?.ftz " FLT, "ra", "TT"},
    {"ex2", ".approx ?.ftz .f32|.f16|.f16x2|.bf16|.bf16x2", "ra", "TT"},
    {"lg2", ".approx ?.ftz .f32", "ra", "TT"},
    {"sin", ".approx ?.ftz .f32", "ra", "TT"},
    {"cos", ".approx ?.ftz .f32", "ra", "TT"},
    {"tanh", ".approx .f32|" HALF, "ra", "TT"},
    /* bit manipulation (9.7.1, 9.7.8): counts, positions and lengths are .u32 whatever the type */
    {"popc", ".b32|.b64", "ra", "uT"},
    {"clz", ".b32|.b64", "ra", "uT"},
    {"brev", ".b32|.b64", "ra", "TT"},
    {"bfind", "?.shiftamt .u32|.u64|.s32|.s64", "ra", "uT"},
    {"bfe", ".u32|.u64|.s32|.s64", "raaa", "TTuu"},
    {"bfi", ".b32|.b64", "raaaa", "TTTuu"},
    {"prmt", ".b32 ?.f4e|.b4e|.rc8|.ecl|.ecr|.rc16", "raaa", "TTTT"},
    {"lop3", ".b32", "raaaa", "TTTTu"},
    {"and", ".pred|" BITS, "raa", "TTT"},
    {"or", ".pred|" BITS, "raa", "TTT"},
    {"xor", ".pred|" BITS, "raa", "TTT"},
    {"not", ".pred|" BITS, "ra", "TT"},
    {"cnot", BITS, "ra", "TT"},
    {"shl", BITS, "raa", "TTu"},
    {"shr", BITS "|" INT, "raa", "TTu"},
    {"shf", ".l|.r .wrap|.clamp .b32", "raaa", "TTTu"},
    /* comparison and selection (9.7.6) */
    {"setp", CMP " ?.ftz " SETPT, "paa", "PTT"},
    {"setp", CMP " .and|.or|.xor ?.ftz " SETPT, "paaq", "PTTP"},
    {"set", CMP " ?.ftz .u32|.s32|.f32 " SETPT, "raa", "TSS"},
    {"selp", BITS "|" INT "|" FLT, "raaq", "TTTP"},
    {"slct", "?.ftz " BITS "|" INT "|" FLT " .s32|.f32", "raaa", "TTTS"},
    /* data movement and conversion (9.7.9) */
    {"mov", ALLT, "vx", "TT"},
    {"ld", SEM " " SCOPE " ?" SPACE " ?.ca|.cg|.cs|.lu|.cv ?.nc ?.v2|.v4 " MEMT, "vm", "TA"},
    {"ldu", "?.global ?.v2|.v4 " MEMT, "vm", "TA"},
    {"st", SEM " " SCOPE " ?" SPACE " ?.wb|.cg|.cs|.wt ?.v2|.v4 " MEMT, "mw", "AT"},
    {"cvta", "?.to .global|.shared|.shared::cta|.shared::cluster|.local|.const|.param .u32|.u64", "rs", "TT"},
    {"cvt", "?" RND "|.rni|.rzi|.rmi|.rpi ?.ftz ?.sat .u8|.u16|.u32|.u64|.s8|.s16|.s32|.s64|.f16|.bf16|" FLT
            " .u8|.u16|.u32|.u64|.s8|.s16|.s32|.s64|.f16|.bf16|" FLT,
     "ra", "TS"},
    {"prefetch", "?.global|.local ?.L1|.L2", "m", "A"},
    {"isspacep", ".global|.shared|.local|.const|.param", "pa", "PD"},
    /* control flow (9.7.12) */
    {"bra", "?.uni", "l", "-"},
    {"ret", "?.uni", "", ""},
    {"exit", "", "", ""},
    {"trap", "", "", ""},
    {"brkpt", "", "", ""},
    /* parallel synchronization and communication (9.7.13) */
    {"bar", "?.cta .sync|.arrive ?.aligned", "aa?", "uu"},
    {"bar", ".warp .sync", "a", "u"},
    {"barrier", "?.cta .sync|.arrive ?.aligned", "aa?", "uu"},
    {"membar", ".cta|.gl|.sys", "", ""},
    {"fence", ".sc|.acq_rel .cta|.cluster|.gpu|.sys", "", ""},
    {"atom", SEM " " SCOPE " ?.global|.shared|.shared::cta|.shared::cluster .and|.or|.xor|.exch|.add|.inc|.dec|.min|.max "
             ATOMT, "rma", "TAT"},
    {"atom", SEM " " SCOPE " ?.global|.shared|.shared::cta|.shared::cluster .cas .b32|.b64|.b16", "rmaa", "TATT"},
    {"red", SEM " " SCOPE " ?.global|.shared|.shared::cta|.shared::cluster .and|.or|.xor|.add|.inc|.dec|.min|.max "
            ATOMT, "ma", "AT"},
    {"shfl", ".sync .up|.down|.bfly|.idx .b32", "daaaa", "TTuuu"},
    {"vote", ".sync .all|.any|.uni .pred", "pqa", "PPu"},
    {"vote", ".sync .ballot .b32", "rqa", "TPu"},
    {"activemask", ".b32", "r", "T"},
    {"match", ".sync .any .b32|.b64", "raa", "uTu"},
    {"redux", ".sync .add|.min|.max|.and|.or|.xor .u32|.s32|.b32", "raa", "TTu"},
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
