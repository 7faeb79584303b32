#!/usr/bin/env bash
# Here, before a device call (issue 9): repair pairs for training, made by `gasp corpus repair` from the verified AMD
# pairs kept in tools/train/data/amd against the task sets tools/train/sets.sh makes again (run it first). Each
# verified answer gets K mutants (one edit each); the AMD emulator judges them, and every mutant it fails becomes a
# pair (the repair prompt quoting it and its verdict -> the verified answer). Measured before: the shipped model
# passed 0 of 244 repair turns (tools/train/README.md, 2026-12-06), and the corpus held no repair prompt.
#   bash tools/train/repair-pairs.sh            # SETS="s83a i96 k92a arr" TARGETS="gfx900 gfx1030 gfx1100" K=2
# Writes .dev/carry/rep-SET-T.jsonl.xz, which device-train.sh takes as EXTRA="rep-s83a-gfx1030 ...", and prints
# each run's table (edits made, judged wrong, equivalent). DATA overrides tools/train/data, D the sets' folder.
set -eu
cd "$(dirname "$0")/../.."
G=$PWD/build/gasp D=${D:-.dev/d9} DATA=${DATA:-tools/train/data}
[ -x "$G" ] || { echo "repair-pairs: build gasp first (./setup.sh --no-bench)" >&2; exit 3; }
mkdir -p .dev/carry .dev/repair
for set in ${SETS:-s83a i96 k92a arr}; do
  name=${set%a}
  [ "$set" = arr ] && name=arr
  [ -d "$D/$name/tasks" ] || { echo "repair-pairs: $D/$name/tasks missing: run tools/train/sets.sh first" >&2; exit 2; }
  for t in ${TARGETS:-gfx900 gfx1030 gfx1100}; do
    f=$DATA/amd/$set-$t.jsonl.xz
    [ -f "$f" ] || { echo "repair-pairs: $f missing" >&2; exit 2; }
    w=.dev/repair/$set-$t
    xz -dc "$f" > "$w.in.jsonl"
    t0=$(date +%s)
    "$G" corpus repair --target "$t" --tasks-dir "$D/$name/tasks" --mutants "${K:-2}" --seed "${SEED:-1}" \
      --workers "${J:-2}" -o "$w.jsonl" "$w.in.jsonl" > "$w.log" 2>&1 || { tail -5 "$w.log" >&2; exit 1; }
    xz -T2 -6 -c "$w.jsonl" > ".dev/carry/rep-$set-$t.jsonl.xz"
    echo "$set $t: $(wc -l < "$w.in.jsonl") verified pairs -> $(wc -l < "$w.jsonl") repair pairs in $(( $(date +%s) - t0 )) s"
  done
done
