#!/usr/bin/env bash
# Here (no GPU): does MODEL answer the three-input f32 min/max shapes it was trained on, and clamp_f32, whose every
# operand order the exclusion keeps out of training? (tools/train/README.md, "The clamp probe, ew_kin and the set
# k103".) Up to PER (3) tasks a shape, names counted as positions, among the tasks of tools/train/sets-list.sh's sets whose
# pairs are in .dev/carry for TARGET (run sets.sh and carry.sh first); SAMPLES each (5), T 0.7, top-p 0.95.
#   bash tools/train/probe-clamp.sh MODEL.gguf [TARGET (gfx1030)]
set -eu
cd "$(dirname "$0")/../.."
M=${1:?model} T=${2:-gfx1030} D=.dev/d9 G=$PWD/build/gasp
. tools/train/sets-list.sh
P=$(mktemp -d)
trap 'rm -rf "$P"' EXIT
mkdir -p "$P/tasks/amdgcn" && cp "$D/s83/tasks/amdgcn/gasp_amd.h" "$P/tasks/amdgcn/"
python3 - "$D" "$T" "$P/tasks" "${PER:-3}" $TRAIN_SETS <<'PY'
import glob, json, lzma, os, re, sys
sys.path.insert(0, "tools/train")
from taskshape import shape, take
d, target, out, per, sets = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
# a nested min/max of f32 over three different inputs
mm = re.compile(r"^\((min|max)\.f32 \((min|max)\.f32 \$\d \$\d\) \$\d\)$")
trained = set()  # task ids with pairs for the target, whatever set they came from
for f in glob.glob(f".dev/carry/*{target}.jsonl.xz"):
    trained |= {json.loads(l)["task"] for l in lzma.open(f, "rt")}
picked = {}
for s in sets:
    for f in sorted(glob.glob(f"{d}/{s}/tasks/*.yaml")):
        tid = os.path.basename(f)[:-5]
        sh = shape(f)
        if mm.match(sh) and len(set(re.findall(r"\$\d", sh))) == 3 and tid in trained and len(picked.get(sh, [])) < per:
            picked.setdefault(sh, []).append(f)
shapes = {}
for sh, fs in sorted(picked.items()):
    for f in fs:
        take(f, out)
        shapes[os.path.basename(f)[:-5]] = sh
json.dump(shapes, open(os.path.join(out, "..", "shapes.json"), "w"))
if not picked:
    sys.exit("probe-clamp: no trained three-input f32 min/max shape (run sets.sh and carry.sh)")
PY
GASP_TASKS_DIR=$P/tasks "$G" bench --target "$T" --model "$M" --samples "${SAMPLES:-5}" --temperature 0.7 --top-p 0.95 \
  --max-tokens 1024 --no-time -q -o "$P/trained.jsonl" >/dev/null 2>&1 || true
"$G" bench --target "$T" --model "$M" --tasks clamp_f32 --samples 10 --temperature 0.7 --top-p 0.95 \
  --max-tokens 1024 --no-time -q -o "$P/clamp.jsonl" >/dev/null 2>&1 || true
python3 - "$P/shapes.json" "$P/trained.jsonl" "$P/clamp.jsonl" <<'PY'
import collections, json, sys
shapes = json.load(open(sys.argv[1]))
c = collections.defaultdict(lambda: [0, 0, []])
for f in sys.argv[2:]:
    for l in open(f):
        r = json.loads(l)
        if r.get("turn", 0) == 0:
            k = shapes.get(r["task"], r["task"] + " (the benchmark's, never trained on)")
            c[k][0] += r["pass"]
            c[k][1] += 1
            if r["task"] not in c[k][2]:
                c[k][2].append(r["task"])
for k, (p, n, ts) in c.items():
    print(f"{k:45} {p:3} of {n:3}  ({', '.join(ts)})")
PY
