#!/usr/bin/env bash
# GPU machine, call 1 of 2: the PTX pairs of the corpus, verified on the H200 (issue 9).
# Here first: `gasp corpus gen --seed 1 --count 5000 -o .dev/c2/tasks`, the CPU targets' pairs
# (`gasp corpus build --target gfx1030 ...`, see README.md), then `bash tools/train/pack.sh`, which makes the slim
# carry .dev/run (gasp, gasp-worker, devlibs) and .dev/carry (tasks.tgz, the CPU pairs gzipped, the vocabulary).
# Device tool: carry [".dev/run", ".dev/carry"], command `bash tools/train/device-corpus.sh`.
# Leaves the pairs in /tmp/gasp-train/ for call 2 (tools/train/device-train.sh) and a gzipped copy in $OUT.
set -u
R=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/out}
W=/tmp/gasp-train
mkdir -p "$W" "$OUT"
export LD_LIBRARY_PATH=$R/.dev/run/devlibs GASP_WORKER=$R/.dev/run/gasp-worker GASP_TASKS_DIR=$R/tasks
G=$R/.dev/run/gasp
nvidia-smi -L
[ -d "$W/tasks" ] || tar xzf "$R/.dev/carry/tasks.tgz" -C "$W"
t0=$(date +%s)
timeout ${CORPUS_S:-300} "$G" corpus build --target ptx-sm90 --tasks-dir "$W/tasks" -o "$W/ptx-sm90.jsonl" \
  --workers-per-gpu ${WORKERS:-8} 2>&1 | tail -25
echo "ptx-sm90 corpus build: $(( $(date +%s) - t0 )) s, rc ${PIPESTATUS[0]}"
[ -f "$W/ptx-sm90.jsonl" ] && gzip -c "$W/ptx-sm90.jsonl" > "$OUT/ptx-sm90.jsonl.gz"
