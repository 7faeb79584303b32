#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carry ["build"]): the GPU figures of the spine in one call, about
# 10 minutes. Writes logs under $OUT when it is set. Never changes GPU settings.
set -u
cd "$(dirname "$0")/../build"
export LD_LIBRARY_PATH=$PWD/devlibs GASP_TASKS_DIR=$PWD/../tasks GASP_WORKER=$PWD/gasp-worker
OUT=${OUT:-/tmp}
nvidia-smi -L
echo "== throughput, every L2 task"
timeout 90 ./gasp throughput -n 2000 --fresh 3 --faults 0 2>&1 | tail -8
echo "== throughput, vector_add"
timeout 60 ./gasp throughput -n 2000 --fresh 3 --faults 0 --tasks vector_add 2>&1 | tail -7
echo "== reference backend over the suite"
timeout 150 ./gasp bench --target ptx-sm90 -q -o "$OUT/ref.jsonl"
./gasp report "$OUT/ref.jsonl" | head -12
echo "== GPU tests (${GASP_GPU_FAULTS:=1000} faulting candidates)"
GASP_GPU_FAULTS=$GASP_GPU_FAULTS timeout 480 ./tests/test_gpu 2>&1 | tee "$OUT/test_gpu.log" | grep -v '^fault ' | tail -20
