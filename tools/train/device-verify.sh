#!/usr/bin/env bash
# GPU machine: PTX answers decoded elsewhere, verified here (issue 9). The llama backend's CPU decode is the same
# bytes on this machine's CPU and on the 2-core machine (2026-12-07, eighth session: s19's 150 L0 and 80 L1 answers
# decoded there equal, byte for byte, the ones its training call decoded here), so the hours of decode can run
# there and a device call needs only the verification: seconds, where a start costs 110-180 s and starts are
# scarce. There: `gasp bench --target ptx-sm90 --model M --grammar on --samples 10 --temperature 0.7 --top-p 0.95
# --max-tokens 1024 --gpu-layers 0 --level L --no-time -q -o .dev/verify/NAME.jsonl` (records say skipped: no GPU),
# then carry [".dev/run", ".dev/verify"] and run `bash tools/train/device-verify.sh`: every .dev/verify/*.jsonl is
# judged at each level it holds (the files backend: each record's task, sample and answer) into $OUT/NAME.jsonl.
set -u
. "$(dirname "$0")/device-env.sh"
nvidia-smi --query-gpu=name --format=csv,noheader
for f in "$R"/.dev/verify/*.jsonl; do
  [ -f "$f" ] || { echo "device-verify: no .dev/verify/*.jsonl carried" >&2; exit 2; }
  n=$(basename "$f" .jsonl)
  rm -f "$OUT/$n.jsonl"
  for L in $(python3 -c 'import json,sys; print(*sorted({json.loads(l)["level"] for l in open(sys.argv[1]) if l.strip()}))' "$f"); do
    k=$(python3 -c 'import json,sys; print(max(json.loads(l)["sample"] for l in open(sys.argv[1]) if l.strip()) + 1)' "$f")
    t0=$(date +%s)
    timeout "${LEVEL_S:-150}" "$G" bench --target "${TARGET:-ptx-sm90}" --backend files --answers "$f" --samples "$k" \
      --level "$L" --no-time -q -o "$OUT/$n-L$L.jsonl" > "$OUT/$n-L$L.log" 2>&1
    echo "$n L$L: rc $?, $(( $(date +%s) - t0 )) s, $(wc -l < "$OUT/$n-L$L.jsonl") records, $(grep -c '"pass":true' "$OUT/$n-L$L.jsonl") pass"
    cat "$OUT/$n-L$L.jsonl" >> "$OUT/$n.jsonl" && rm -f "$OUT/$n-L$L.jsonl"
  done
done
