#!/usr/bin/env bash
# GPU machine, call 3 (issue 9): the trained model's answers for every benchmark task on every target, 10 samples
# each, decoded by gasp's llama backend on the machine's CPU cores; PTX is judged here on the H200, the other
# targets' answers are judged back on a machine with LLVM 19 and Mesa (tools/train/judge.sh), since the GPU
# machine has neither. Also the random-weight floor: a model of the same width and depth with random weights,
# L0-L2, 10 samples. Carry [".dev/run", ".dev/carry"] where .dev/carry holds gasp-small.gguf (or leave the model
# from call 2 in /tmp/gasp-train). Writes $OUT/eval-<target>.jsonl and $OUT/floor-<target>.jsonl.
set -u
. "$(dirname "$0")/device-env.sh"
M=${MODEL:-$W/gasp-small.gguf}
[ -f "$M" ] || M=$R/.dev/carry/gasp-small.gguf
ls -la "$M" || exit 3
S=${SAMPLES:-10}
# decoding on the H200 when device-llama.sh built the CUDA llama.cpp on this machine (LLAMA_BUILD_ONLY=1, e.g.
# beside device-train.sh): same source, same sonames, so gasp picks it up through the library path
GL=0
if [ -f /tmp/llama-cuda/build/bin/libggml-cuda.so ] && [ "${CPU_ONLY:-0}" != 1 ]; then
  export LD_LIBRARY_PATH=/tmp/llama-cuda/build/bin:$LD_LIBRARY_PATH
  GL=-1
fi
echo "decoding with --gpu-layers $GL"
for T in ${TARGETS:-ptx-sm90 gfx1030 gfx900 gfx1100 r300}; do
  g=off; [ "$T" = ptx-sm90 ] && g=on
  t0=$(date +%s)
  # LEVELS="0 1 2": only those levels, each under its own PER_TARGET_S (default: every level under one), plus what
  # the levels before it left unused: the k-th level (from 1) stops at t0 + k * PER_TARGET_S, so each still has its share at
  # least. Why: L0's 150 short answers need much less than a share and L2's 70 kernels more (s15's three levels took
  # 112 s together on an H100 machine's 16 cores); with a fixed 50 s a level, round 15's L2 stopped at 41 of 70
  # records (tools/train/README.md, "The seventeenth run").
  k=0
  for L in ${LEVELS:-all}; do
    lv=""; [ "$L" = all ] || lv="--level $L"
    k=$(( k + 1 ))
    lim=$(( t0 + k * ${PER_TARGET_S:-150} - $(date +%s) ))
    [ "$lim" -ge 1 ] || lim=1
    # SHARDS=N: N bench processes side by side, each on its slice of the level's tasks (--shard I/N) with its share
    # of THREADS (default all cores), merged into eval-T.jsonl after each level. Why: a 26M model's decode step for
    # 10 sequences is too small to keep 16 threads busy; N processes keep N steps in flight. A level cut by its
    # limit then loses some of every slice rather than the suite's last tasks. Here (2 cores, s19, gfx1030, 10
    # samples, 2026-12-07): L1 33.6 and 30.9 s with one process of 2 threads, 22.8 and 21.7 s with SHARDS=2 of one
    # thread; L2 92.1 s and 87.0 s; the same records either way (each sample's seed is its own).
    # one process (no SHARDS) writes eval-T.jsonl itself with THREADS as given
    ns=${SHARDS:-1} pids=""
    for i in $(seq 0 $(( ns - 1 ))); do
      o=$OUT/eval-$T.jsonl shard="" th=${THREADS:-}
      if [ "$ns" -gt 1 ]; then
        o=$OUT/eval-$T.s$i.jsonl shard="--shard $i/$ns" th=$(( ${THREADS:-$(nproc)} / ns ))
        [ "$th" -ge 1 ] || th=1
      fi
      timeout $lim "$G" bench --target "$T" --model "$M" --grammar $g --samples $S --temperature 0.7 \
        --top-p 0.95 --max-tokens ${MAXTOK:-1024} --gpu-layers $GL $lv ${th:+--threads $th} $shard --no-time -q --resume \
        -o "$o" >/dev/null 2>&1 &
      pids="$pids $!"
    done
    for p in $pids; do wait "$p"; done
    if [ "$ns" -gt 1 ]; then
      ins=""; [ -s "$OUT/eval-$T.jsonl" ] && ins="$OUT/eval-$T.jsonl"
      for i in $(seq 0 $(( ns - 1 ))); do [ -s "$OUT/eval-$T.s$i.jsonl" ] && ins="$ins $OUT/eval-$T.s$i.jsonl"; done
      [ -n "$ins" ] && "$G" merge -q $ins -o "$OUT/eval-$T.jsonl"
    fi
  done
  [ "${SHARDS:-1}" -le 1 ] || rm -f "$OUT/eval-$T".s[0-9]*.jsonl
  echo "$T: $(wc -l < "$OUT/eval-$T.jsonl") records in $(( $(date +%s) - t0 )) s (grammar $g)"
done
"$G" report "$OUT/eval-ptx-sm90.jsonl" | head -14
if [ "${FLOOR:-1}" = 1 ]; then
  "$G" mkmodel -o /tmp/floor.gguf --vocab "$R/.dev/carry/ggml-vocab-llama-spm.gguf" --embd 384 --layers 8 --heads 6 \
    --kv-heads 6 --ff 1024 --seed 7 >/dev/null
  for T in ${FLOOR_TARGETS:-ptx-sm90 gfx1030}; do
    g=off; [ "$T" = ptx-sm90 ] && g=on
    for L in 0 1 2; do
      timeout ${FLOOR_S:-40} "$G" bench --target "$T" --model /tmp/floor.gguf --grammar $g --samples $S --temperature 0.7 \
        --top-p 0.95 --max-tokens 256 --level $L --no-time -q --resume -o "$OUT/floor-$T.jsonl" >/dev/null 2>&1
    done
    echo "floor $T: $(wc -l < "$OUT/floor-$T.jsonl") records"
  done
fi
