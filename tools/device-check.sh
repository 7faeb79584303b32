#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carry ["build"]): the GPU figures of the spine. Two calls, each
# within the device tool's 10-minute limit (call the second while the machine is still warm):
#   bash tools/device-check.sh quick    throughput, the reference backend over the suite, GPU tests with 100 faults (~4 min)
#   bash tools/device-check.sh faults   the GPU tests with 1000 consecutive faulting candidates (~7.5 min at 2.2/s)
# Writes logs under $OUT when it is set. Never changes GPU settings.
set -u
cd "$(dirname "$0")/../build"
export LD_LIBRARY_PATH=$PWD/devlibs GASP_TASKS_DIR=$PWD/../tasks GASP_WORKER=$PWD/gasp-worker
OUT=${OUT:-/tmp}
nvidia-smi -L
mode=${1:-quick}
if [ "$mode" = faults ]; then
  GASP_GPU_FAULTS=1000 timeout 560 ./tests/test_gpu 2>&1 | tee "$OUT/test_gpu.log" | grep -v '^fault ' | tail -20
  exit
fi
echo "== throughput, every L2 task"
timeout 90 ./gasp throughput -n 2000 --fresh 3 --faults 0 2>&1 | tail -8
echo "== throughput, vector_add"
timeout 60 ./gasp throughput -n 2000 --fresh 3 --faults 0 --tasks vector_add 2>&1 | tail -7
echo "== reference backend over the suite"
timeout 150 ./gasp bench --backend reference --target ptx-sm90 -q -o "$OUT/ref.jsonl"
./gasp report "$OUT/ref.jsonl" | head -12
echo "== GPU tests (100 faulting candidates)"
GASP_GPU_FAULTS=100 timeout 150 ./tests/test_gpu 2>&1 | tee "$OUT/test_gpu.log" | grep -v '^fault ' | tail -20
