#!/usr/bin/env bash
# Here (no GPU): a model's pass@1 / pass@10 on the targets gasp verifies on the CPU (the AMD emulator, Mesa),
# for comparing two models side by side on the same tasks and seeds (issue 9). PTX needs the H200
# (tools/train/device-eval.sh). Usage: tools/train/eval-cpu.sh MODEL.gguf OUTDIR
# Settings as the README's benchmark table: 10 samples, temperature 0.7, top-p 0.95; SETS overrides the
# target:level list, MAXTOK the answer length (1024), THREADS the CPU threads (all), TEMP the temperature (0.7),
# GRAMMAR=on decoding under the target's grammar (PTX and the AMD targets; r300 has none).
set -u
M=${1:?model} O=${2:?outdir}
G=$(cd "$(dirname "$0")/../.." && pwd)/build/gasp
mkdir -p "$O"
for s in ${SETS:-gfx1030:0 gfx1030:1 gfx1030:2 gfx900:0 gfx1100:0 r300:1 r300:2}; do
  t=${s%%:*} l=${s##*:}
  "$G" bench --target "$t" --level "$l" --model "$M" --samples 10 --temperature "${TEMP:-0.7}" --top-p 0.95 \
    --max-tokens "${MAXTOK:-1024}" ${THREADS:+--threads $THREADS} ${GRAMMAR:+--grammar $GRAMMAR} --no-time -q -o "$O/$t-L$l.jsonl" >"$O/$t-L$l.log" 2>&1
  echo "$t L$l: exit $?"
done
cat "$O"/*.jsonl > "$O/all.jsonl"
"$G" report "$O/all.jsonl"
