#!/usr/bin/env bash
# Here, before the device calls of tools/train: the AMD pairs of one generated task set, verified (llvm-mc and
# gasp's emulator, on this machine's cores) and reworded, packed for the carry.
#   bash tools/train/amd-pairs.sh DIR NAME
# DIR holds tasks/ (gasp corpus gen's output). Writes DIR/T.jsonl (the verified pairs; an interrupted build
# resumes) for T in $TARGETS (default gfx1030 gfx900 gfx1100), then .dev/carry/NAME-T.jsonl.xz: each pair under
# $WORDINGS wordings (default 3, its own included) with other register names (`gasp corpus reword --rename`).
# device-train.sh takes them by NAME-T in EXTRA, or as the first sets when NAME is empty (gfx900.jsonl.xz ...).
# Speed here (2 cores, 2026-12-03): about 5.7 snippet tasks a second a target, 3.5 kernels a second.
set -eu
cd "$(dirname "$0")/../.."
[ $# -eq 2 ] || { echo "usage: $0 DIR NAME" >&2; exit 2; }
D=$1 NAME=$2
G=build/gasp
[ -d "$D/tasks" ] || { echo "amd-pairs: $D/tasks: no such directory" >&2; exit 2; }
mkdir -p .dev/carry
. tools/train/permuted.sh
for t in ${TARGETS:-gfx1030 gfx900 gfx1100}; do
  t0=$(date +%s)
  "$G" corpus build --target "$t" --tasks-dir "$D/tasks" -o "$D/$t.jsonl" --workers "${WORKERS:-2}" -q --resume
  out=.dev/carry/${NAME:+$NAME-}$t.jsonl
  "$G" corpus reword --tasks-dir "$D/tasks" --wordings "${WORDINGS:-3}" --rename $(drop_permuted "$NAME") -q -o "$out" "$D/$t.jsonl"
  xz -T2 -6 -f "$out"
  echo "$D $t: $(wc -l < "$D/$t.jsonl") verified pairs, $(xz -dc "$out.xz" | wc -l) reworded, $(( $(date +%s) - t0 )) s"
done
