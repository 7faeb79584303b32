#!/usr/bin/env bash
# Here (no GPU): does a model read the computation or the wording? Benchmark tasks with only their description
# changed (same computation, registers, reference and inputs), 10 samples each (temperature 0.7, top-p 0.95).
# PROBE=add (the default): add_f32 three times,
#   bench   the benchmark's own words: "One instruction: %d = %a + %b in single precision, round to nearest even."
#   corpus  the generated corpus's words: "One instruction: %d = %a + %b, in single precision (f32)." with the
#           corpus's notes and register sentence
#   mixed   the benchmark's sentence and the corpus's register sentence
# Found with it (2026-12-03): the fourth run passes 3, 10 and 4 of 10; the sixth run's round 2 0, 10 and 0; the
# seventh run (trained on `gasp corpus reword`'s wordings) 10, 10 and 10 (tools/train/README.md).
# PROBE=unary: popc_b32, cvt_f32_s32 and sqrt_f32 in the benchmark's words ("the number of 1 bits in the 32-bit
# value %a") and in the corpus's ("%d = popc(%a)"). The seventh run wrote popc, cvt and sqrt for the corpus's and
# and/xor/max for the benchmark's, hence the PROSE style of reword. On a target without a GPU here (ptx-sm90) the
# answers are shown but not run.
# Usage: tools/train/probe-wording.sh MODEL.gguf [TARGET]
set -eu
M=${1:?model} T=${2:-gfx1030}
R=$(cd "$(dirname "$0")/../.." && pwd)
G=$R/build/gasp
D=$(mktemp -d /tmp/gasp-probe-XXXXXX)
trap 'rm -rf "$D"' EXIT
mkdir -p "$D/amdgcn"
cp "$R/tasks/amdgcn/gasp_amd.h" "$D/amdgcn/"
python3 - "$R/tasks" "$D" "${PROBE:-add}" <<'PY'
import re, sys
tasks, out, probe = sys.argv[1], sys.argv[2], sys.argv[3]
def variant(src, vid, desc):
    """the benchmark task src under the id vid, its description replaced by desc (None: kept)"""
    y, cl = open(f"{tasks}/{src}.yaml").read(), open(f"{tasks}/amdgcn/{src}.cl").read()
    if desc is not None:
        y, n = re.subn(r"description: \|\n(  .*\n)+", lambda _: "description: |\n" + desc, y, count=1)
        assert n == 1, f"{src}.yaml: no description block"
    # the same reference (ref: src) and kernel body under the variant's id
    y = re.sub(rf"^id: {src}$", f"id: {vid}\nref: {src}", y, flags=re.M).replace(f"void {src}(", f"void {vid}(")
    open(f"{out}/{vid}.yaml", "w").write(y)
    open(f"{out}/amdgcn/{vid}.cl", "w").write(cl.replace(f"void {src}(", f"void {vid}("))
fl = ("  Every float operation rounds to nearest even on its own; no other operations may be fused or reordered."
      " Denormals are preserved (no flush to zero).")
if probe == "add":
    regs = "  The inputs are in registers %a and %b (.f32); write the result to %d (.f32).\n"
    variant("add_f32", "probe_bench", None)
    variant("add_f32", "probe_corpus", "  One instruction: %d = %a + %b, in single precision (f32).\n" + fl + "\n" + regs)
    variant("add_f32", "probe_mixed", "  One instruction: %d = %a + %b in single precision, round to nearest even.\n" + regs)
elif probe == "unary":
    variant("popc_b32", "probe_popc_bench", None)
    variant("popc_b32", "probe_popc_corpus", "  One instruction: %d = popc(%a), 32-bit unsigned integers (u32).\n"
            "  popc(x) is the number of 1 bits in the 32 bits of x (0 to 32).\n"
            "  The input is in register %a (.u32); write the result to %d (.u32).\n")
    variant("cvt_f32_s32", "probe_cvt_bench", None)
    variant("cvt_f32_s32", "probe_cvt_corpus", "  One instruction: %d = f32(%a), in single precision (f32).\n"
            "  f32(x) and f64(x) convert to that float type, rounding to nearest even.\n"
            "  The input is in register %a (.s32); write the result to %d (.f32).\n")
    variant("sqrt_f32", "probe_sqrt_bench", None)
    variant("sqrt_f32", "probe_sqrt_corpus", "  One instruction: %d = sqrt(%a), in single precision (f32).\n" + fl +
            " Division and sqrt are the IEEE 754 correctly rounded operations, not approximations.\n"
            "  The input is in register %a (.f32); write the result to %d (.f32).\n")
else:
    sys.exit(f"PROBE={probe}: add or unary")
PY
GASP_TASKS_DIR=$D "$G" bench --target "$T" --model "$M" --samples 10 --temperature 0.7 --top-p 0.95 \
  --max-tokens 256 --no-time -q -o "$D/r.jsonl" >/dev/null 2>&1 || true
python3 - "$D/r.jsonl" <<'PY'
import collections, json, sys
by = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    by[r["task"]].append(r)
def body(a):
    """the answer's instructions on one line, without the fence and PTX's .reg block"""
    return " | ".join(l.strip() for l in a.splitlines() if l.strip() and not l.startswith("```") and not l.strip().startswith(".reg"))
for t in sorted(by):
    rs = by[t]
    top = collections.Counter(body(r["answer"]) for r in rs).most_common(1)
    ran = any(r.get("gpu_ran") for r in rs)
    verdict = f"{sum(bool(r['pass']) for r in rs)}/{len(rs)} pass" if ran else f"{len(rs)} not run"
    print(f"{t:18s} {verdict}; most common answer: {top[0][0] if top else '-'}")
PY
