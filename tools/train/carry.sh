#!/usr/bin/env bash
# Here, before the device calls of tools/train: .dev/run (gasp, gasp-worker and the libraries the GPU machine
# lacks, stripped) and .dev/carry (the reworded pairs, the task sets, the vocabulary) from the verified pairs kept
# in tools/train/data/ and the task sets tools/train/sets.sh makes again. Minutes instead of the 30 to 60 the
# AMD builds take (tools/train/data/README.md).
#   bash tools/train/sets.sh && bash tools/train/carry.sh
# Writes .dev/carry/NAME-T.jsonl.xz for every AMD file in data/ (gfx900.jsonl.xz ... for s83a, and r300.jsonl.xz,
# which the training reads by default), rNAME-ptx.jsonl.xz for every PTX file (device-train.sh takes both in EXTRA), NAME.txz for
# every task set (PTX_TASKS, PTX_BG) and tasks.txz (s83 and a93: the greedy check's task is looked up there).
# WORDINGS (default 3) wordings of each pair; --rename on the AMD targets, as amd-pairs.sh.
set -eu
cd "$(dirname "$0")/../.."
G=$PWD/build/gasp D=${1:-.dev/d9} DATA=tools/train/data
[ -x "$G" ] || { echo "carry: build gasp first (./setup.sh --no-bench)" >&2; exit 3; }
[ -d "$D/s83/tasks" ] || { echo "carry: $D/s83/tasks missing: run tools/train/sets.sh first" >&2; exit 2; }
# .dev/run: gasp and the libraries the GPU machine lacks, as for every device call
bash tools/device-prepare.sh --no-build --slim >/dev/null
rm -rf .dev/carry && mkdir -p .dev/carry
cp .deps/llama/src/models/ggml-vocab-llama-spm.gguf .dev/carry/
. tools/train/permuted.sh
. tools/train/sets-list.sh
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# data/amd/SET-T.jsonl.xz and data/r300/SET-r300.jsonl.xz: reworded against DIR/SET/tasks
for f in "$DATA"/amd/*.jsonl.xz "$DATA"/r300/*.jsonl.xz; do
  [ -f "$f" ] || continue
  b=$(basename "$f" .jsonl.xz) set=${b%-*} t=${b##*-}
  [ -d "$D/$set/tasks" ] || { echo "carry: $D/$set/tasks missing (sets.sh makes it)" >&2; exit 2; }
  xz -dc "$f" > "$W/in.jsonl"
  # s83a is read first, under the plain names; the others under NAME-T (NAME without the trailing a of a subset)
  name=${set%a}
  out=.dev/carry/$name-$t.jsonl
  [ "$set" = s83a ] && out=.dev/carry/$t.jsonl
  [ "$t" = r300 ] && out=.dev/carry/r300.jsonl # read by default, as the AMD plain names
  r=""
  [ "$t" != r300 ] && r=--rename
  "$G" corpus reword --tasks-dir "$D/$set/tasks" --wordings "${WORDINGS:-3}" $r $(drop_permuted "$set") -q -o "$out" "$W/in.jsonl"
  xz -T2 -6 -f "$out"
  echo "$f: $(wc -l < "$W/in.jsonl") pairs, $(xz -dc "$out.xz" | wc -l) reworded -> $out.xz"
done
for f in "$DATA"/ptx/*.jsonl.xz; do
  [ -f "$f" ] || continue
  set=$(basename "$f" -ptx-sm90.jsonl.xz)
  xz -dc "$f" > "$W/in.jsonl"
  "$G" corpus reword --tasks-dir "$D/$set/tasks" --wordings "${WORDINGS:-3}" $(drop_permuted "$set") -q -o ".dev/carry/r$set-ptx.jsonl" "$W/in.jsonl"
  xz -T2 -6 -f ".dev/carry/r$set-ptx.jsonl"
  echo "$f: $(wc -l < "$W/in.jsonl") pairs -> .dev/carry/r$set-ptx.jsonl.xz"
done
for s in $TRAIN_SETS; do
  [ -d "$D/$s/tasks" ] && tar cJf ".dev/carry/$s.txz" -C "$D/$s" tasks
done
rm -rf "$W/tk" && mkdir -p "$W/tk/tasks" && cp -r "$D/s83/tasks/." "$W/tk/tasks/" && cp "$D"/a93/tasks/*.yaml "$W/tk/tasks/"
tar cJf .dev/carry/tasks.txz -C "$W/tk" tasks
du -sh .dev/run .dev/carry
