#!/usr/bin/env bash
# Here (no GPU): does a model read the computation or the wording? The benchmark's add_f32 three times, the same
# task (computation, registers, reference, inputs) with only its description changed:
#   bench   the benchmark's own words: "One instruction: %d = %a + %b in single precision, round to nearest even."
#   corpus  the generated corpus's words: "One instruction: %d = %a + %b, in single precision (f32)." with the
#           corpus's notes and register sentence
#   mixed   the benchmark's sentence and the corpus's register sentence
# and 10 samples of each on gfx1030 (temperature 0.7, top-p 0.95). Found with it (2026-12-03): the shipped model
# passes 3, 10 and 4 of 10; the sixth run's round 2 0, 10 and 0 (tools/train/README.md, "The sixth run").
# Usage: tools/train/probe-wording.sh MODEL.gguf [TARGET]
set -eu
M=${1:?model} T=${2:-gfx1030}
R=$(cd "$(dirname "$0")/../.." && pwd)
G=$R/build/gasp
D=$(mktemp -d /tmp/gasp-probe-XXXXXX)
trap 'rm -rf "$D"' EXIT
mkdir -p "$D/amdgcn"
cp "$R/tasks/amdgcn/gasp_amd.h" "$D/amdgcn/"
python3 - "$R/tasks/add_f32.yaml" "$R/tasks/amdgcn/add_f32.cl" "$D" <<'PY'
import re, sys
yaml, cl, out = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
regs = "  The inputs are in registers %a and %b (.f32); write the result to %d (.f32).\n"
variants = {
    "probe_bench": None,
    "probe_corpus": "  One instruction: %d = %a + %b, in single precision (f32).\n  Every float operation rounds to nearest even"
                    " on its own; no other operations may be fused or reordered. Denormals are preserved (no flush to"
                    " zero).\n" + regs,
    "probe_mixed": "  One instruction: %d = %a + %b in single precision, round to nearest even.\n" + regs,
}
for vid, desc in variants.items():
    t = yaml
    if desc is not None:
        t, n = re.subn(r"description: \|\n(  .*\n)+", lambda _: "description: |\n" + desc, t, count=1)
        assert n == 1, "add_f32.yaml: no description block"
    # the same reference (ref: add_f32) and kernel body under the variant's id
    t = re.sub(r"^id: add_f32$", f"id: {vid}\nref: add_f32", t, flags=re.M)
    t = t.replace("void add_f32(", f"void {vid}(")
    open(f"{out}/{vid}.yaml", "w").write(t)
    open(f"{out}/amdgcn/{vid}.cl", "w").write(cl.replace("void add_f32(", f"void {vid}("))
PY
GASP_TASKS_DIR=$D "$G" bench --target "$T" --model "$M" --samples 10 --temperature 0.7 --top-p 0.95 \
  --max-tokens 256 --no-time -q -o "$D/r.jsonl" >/dev/null 2>&1 || true
python3 - "$D/r.jsonl" <<'PY'
import collections, json, sys
by = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    by[r["task"]].append(r)
for t in ("probe_bench", "probe_corpus", "probe_mixed"):
    rs = by.get(t, [])
    top = collections.Counter(r["answer"].replace("```amdgcn\n", "").replace("```", "").strip().replace("\n", " | ")
                              for r in rs).most_common(1)
    print(f"{t:13s} {sum(bool(r['pass']) for r in rs)}/{len(rs)} pass; most common answer: {top[0][0] if top else '-'}")
PY
