#!/usr/bin/env bash
# GPU machine (issue 9): the PTX pairs of the corpus, verified on the H200. The slow part (nvcc on every kernel
# task) runs here first, on any machine with nvcc:
#   gasp corpus build --target ptx-sm90 --tasks-dir .dev/c2/tasks -o .dev/c2/ptx-sm90-unverified.jsonl --allow-unverified
# and tools/train/pack.sh carries its pairs and results gzipped; on the GPU machine every answer is then run and
# verified through the files backend (the same check, assembly, run and verification as any bench), and only the
# pairs whose task passed there are kept, marked verified. Without the unverified files it runs the whole
# `gasp corpus build` here instead. Device tool: carry [".dev/run", ".dev/carry"].
# Leaves /tmp/gasp-train/ptx-sm90.jsonl for tools/train/device-train.sh and a gzipped copy in $OUT.
set -u
. "$(dirname "$0")/device-env.sh"
nvidia-smi -L
[ -d "$W/tasks" ] || tar xzf "$R/.dev/carry/tasks.tgz" -C "$W"
export GASP_TASKS_DIR=$W/tasks
t0=$(date +%s)
U=$R/.dev/carry/ptx-sm90-unverified
if [ -f "$U.results.jsonl.gz" ] && [ -f "$U.pairs.gz" ]; then
  gunzip -c "$U.results.jsonl.gz" > "$W/ptx-answers.jsonl"
  gunzip -c "$U.pairs.gz" > "$W/ptx-unverified.jsonl"
  rm -f "$W/ptx-judged.jsonl"
  timeout ${CORPUS_S:-300} "$G" bench --target ptx-sm90 --backend files --answers "$W/ptx-answers.jsonl" --no-time -q \
    --workers ${WORKERS:-8} -o "$W/ptx-judged.jsonl" 2>&1 | tail -5
  "$G" report "$W/ptx-judged.jsonl" | head -12
  python3 - "$W" <<'PY'
import json, sys
w = sys.argv[1]
ok = {json.loads(l)["task"] for l in open(w + "/ptx-judged.jsonl") if json.loads(l).get("pass")}
n = kept = 0
with open(w + "/ptx-sm90.jsonl", "w") as out:
    for l in open(w + "/ptx-unverified.jsonl"):
        r = json.loads(l)
        n += 1
        if r["task"] in ok:
            r["verified"] = True
            out.write(json.dumps(r) + "\n")
            kept += 1
print(f"ptx-sm90: {kept} of {n} assembled pairs passed on the GPU and were kept")
PY
else
  # one bounded build per family, all at once (nvcc on the kernel tasks is the slow part): an interrupted build
  # still writes its pairs, so a time limit leaves every family represented
  FAMS="ew_op ew_seq ew_kernel ew_gridstride loop reduce scan transpose"
  for f in $FAMS; do
    timeout -s INT ${CORPUS_S:-300} "$G" corpus build --target ptx-sm90 --tasks-dir "$W/tasks" --tasks "g_${f}_*" \
      -o "$W/ptx-$f.jsonl" --workers ${WORKERS:-2} -q > "$W/ptx-$f.log" 2>&1 &
  done
  wait
  : > "$W/ptx-sm90.jsonl"
  for f in $FAMS; do
    [ -f "$W/ptx-$f.jsonl" ] && cat "$W/ptx-$f.jsonl" >> "$W/ptx-sm90.jsonl"
    echo "$f: $(cat "$W/ptx-$f.jsonl" 2>/dev/null | wc -l) pairs of $(wc -l < "$W/ptx-$f.jsonl.results.jsonl") judged"
  done
fi
echo "ptx-sm90 corpus: $(( $(date +%s) - t0 )) s"
[ -f "$W/ptx-sm90.jsonl" ] && gzip -c "$W/ptx-sm90.jsonl" > "$OUT/ptx-sm90.jsonl.gz"
