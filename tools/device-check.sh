#!/usr/bin/env bash
# Runs on the GPU machine (device tool): the GPU figures of the spine. Each call within the device tool's
# 10-minute limit (call the next while the machine is still warm):
#   bash tools/device-check.sh quick    throughput, the reference backend over the suite, GPU tests with 100 faults (~4 min)
#   bash tools/device-check.sh faults   the GPU tests with 1000 consecutive faulting candidates (~7.5 min at 2.2/s)
#   bash tools/device-check.sh sass     SASS (issue 4): hand-written vector_add scheduled by gasp, and each hazardous
#                                       variant as it is and after --fix, through `gasp run`; a table (~1 min)
# Binaries: $GASP_BIN when set; else the current folder when it holds gasp and gasp-worker (the slim carry:
# gasp, gasp-worker, devlibs/, tests/); else build/ beside this script. Task files and test data are looked up
# beside the binaries and in the repository this script belongs to. Writes logs under $OUT when it is set.
# Never changes GPU settings.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${GASP_BIN:-}" ]; then B=$GASP_BIN
elif [ -x ./gasp ] && [ -x ./gasp-worker ]; then B=$PWD
else B=$ROOT/build; fi
cd "$B" || exit 3
B=$PWD
first_dir() { for d in "$@"; do [ -d "$d" ] && { echo "$d"; return; }; done; echo "$1"; }
TASKS=${GASP_TASKS_DIR:-$(first_dir "$B/../tasks" "$ROOT/tasks" "$B/tasks")}
export LD_LIBRARY_PATH=$B/devlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} GASP_TASKS_DIR=$TASKS GASP_WORKER=$B/gasp-worker
OUT=${OUT:-/tmp}
nvidia-smi -L
mode=${1:-quick}
if [ "$mode" = sass ]; then
  # every launch goes through gasp-worker's watchdog (the task's timeout_ms); timeout(1) only bounds a stuck tool
  DATA=$(first_dir "$ROOT/tests/data/sass" "$B/tests/data/sass" "$B/../tests/data/sass")
  run() { # run LOG ARGS...: prints the result class of `gasp run --json`
    timeout 120 ./gasp run --target sass-sm90 --task vector_add --no-time --json "${@:2}" >"$OUT/$1.json" 2>"$OUT/$1.err"
    # the record's own class (a diagnostic's class comes first in the text)
    local c; c=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["class"])' "$OUT/$1.json" 2>/dev/null)
    echo "${c:-error(rc $?)}"
  }
  fails=0
  base=$(run va_noctl "$DATA/vector_add_noctl.sass")
  ./gasp check --target sass-sm90 --task vector_add --fix --emit "$OUT/va_sched.sass" "$DATA/vector_add_noctl.sass" 2>/dev/null
  emitted=$(run va_sched "$OUT/va_sched.sass")
  [ "$base" = pass ] && [ "$emitted" = pass ] || fails=$((fails + 1))
  printf '%-34s %-22s %-12s %s\n' "SASS vector_add (sm_90)" "hazard flagged" "as is" "after --fix"
  printf '%-34s %-22s %-12s %s\n' "no control codes, gasp's schedule" "-" "$base" "written out: $emitted"
  for f in "$DATA"/hazards/*.sass; do
    n=$(basename "$f" .sass)
    flagged=$(./gasp check --target sass-sm90 --task vector_add "$f" 2>&1 | grep -o 'error: hazard: [a-z-]* hazard on [A-Z0-9]*' | head -1 | sed 's/error: hazard: //; s/ hazard on /:/')
    asis=$(run "$n.asis" --allow-hazards "$f")
    fixed=$(run "$n.fixed" --fix "$f")
    [ "$fixed" = pass ] && [ -n "$flagged" ] || fails=$((fails + 1))
    printf '%-34s %-22s %-12s %s\n' "$n" "${flagged:-NOT FLAGGED}" "$asis" "$fixed"
  done
  echo "must pass: the schedule and every variant after --fix; as-is results are what the hardware did ($fails failed)"
  exit $((fails ? 1 : 0))
fi
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
