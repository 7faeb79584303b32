#!/usr/bin/env bash
# GPU machine, call 2 of 2 (right after call 1, while the machine is warm): tokens, training, GGUF (issue 9).
# Device tool: carry [".dev/run", ".dev/carry"], command `MINUTES=6 bash tools/train/device-train.sh`.
# Writes to $OUT: the q8_0 model in parts under 16 MiB (gasp-small.gguf.part-aa ...; `cat` them back
# together), meta.tgz (loss.csv, loss.svg, train.json, check.json, index.json, the greedy check) and train.log.
set -u
. "$(dirname "$0")/device-env.sh"
export PYTHONUNBUFFERED=1
V=$R/.dev/carry/ggml-vocab-llama-spm.gguf
[ -d "$W/tasks" ] || tar xzf "$R/.dev/carry/tasks.tgz" -C "$W"
# the pairs files; ptx-sm90.jsonl comes from device-corpus.sh (or .dev/carry); EXTRA names more in .dev/carry
PAIRS="gfx900 gfx1030 gfx1100 r300 ptx-sm90 ${EXTRA:-}"
for n in $PAIRS; do [ -f "$R/.dev/carry/$n.jsonl.gz" ] && gunzip -c "$R/.dev/carry/$n.jsonl.gz" > "$W/$n.jsonl"; done
# L0_TASKS=FILE.tgz (in .dev/carry, a tasks/ folder of one-instruction tasks): their PTX pairs verified here first
if [ -n "${L0_TASKS:-}" ]; then
  rm -rf "$W/l0" && mkdir -p "$W/l0" && tar xzf "$R/.dev/carry/$L0_TASKS" -C "$W/l0" || exit 3
  t1=$(date +%s)
  "$G" corpus build --target ptx-sm90 --tasks-dir "$W/l0/tasks" -o "$W/l0-ptx-sm90.jsonl" --workers 8 -q
  echo "L0 PTX pairs: $(wc -l < "$W/l0-ptx-sm90.jsonl") verified on the H200 in $(( $(date +%s) - t1 )) s"
  PAIRS="$PAIRS l0-ptx-sm90"
fi
rm -rf "$W"/tok-* "$W/run"
t0=$(date +%s)
for n in $PAIRS; do # one tokenizer process per target, in parallel
  f=$W/$n.jsonl
  [ -f "$f" ] || { echo "no $f"; continue; }
  "$G" train prepare --vocab "$V" "$f" -o "$W/tok-$n" --max-tokens ${MAXTOK:-3072} > "$W/prepare-$n.log" 2>&1 &
done
wait
grep -h -A1 "^target" "$W"/prepare-*.log | grep -v "^target\|^--"
echo "prepare: $(( $(date +%s) - t0 )) s"
ls -d "$W"/tok-* >/dev/null || exit 3
# INIT=M.gguf: continue from that model's weights (its shape; PRESET is then ignored) with LR/MIN_LR/WARMUP
INITARGS=""
if [ -n "${INIT:-}" ]; then
  "$G" train dump "$INIT" -o "$W/init" >/dev/null || exit 3
  INITARGS="--init $W/init --lr ${LR:-5e-4} --min-lr ${MIN_LR:-5e-5} --warmup ${WARMUP:-20}"
fi
python3 "$R/tools/train/train.py" --data "$W"/tok-* --out "$W/run" --preset ${PRESET:-small} --epochs ${EPOCHS:-20} \
  --max-minutes ${MINUTES:-6} --seed ${SEED:-1} --repeat "${REPEAT:-}" $INITARGS 2>&1 | tee "$OUT/train.log" | grep -v '^step' | tail -5
grep '^step' "$OUT/train.log" | awk 'NR % 4 == 1' | tail -12
"$G" train export "$W/run" -o "$W/gasp-small.gguf" --type q8_0 --name "gasp-small (trained by tools/train)" 2>&1 | tail -3
ls -la "$W/gasp-small.gguf"
# the exported GGUF against the PyTorch model: greedy tokens and log-probabilities on the first sample's task
python3 -c 'import json,sys; print(*json.load(open(sys.argv[1]))["id"].split("@"))' "$W/run/check.json" > "$W/check-task.txt"
read -r TASK TARGET < "$W/check-task.txt"
rm -rf "$W/chk" && mkdir -p "$W/chk"
GASP_TASKS_DIR=$W/tasks "$G" bench --target "$TARGET" --model "$W/gasp-small.gguf" --tasks "$TASK" --temperature 0 \
  --logprobs --max-tokens 48 --samples 1 --no-time -q -o "$W/chk/check-gguf.jsonl" >/dev/null 2>&1
python3 - "$W" <<'PY' | tee "$W/check-compare.txt"
import json, sys
w = sys.argv[1]
want = json.load(open(w + "/run/check.json"))["greedy"]
got = [json.loads(l) for l in open(w + "/chk/check-gguf.jsonl")][0].get("logprobs") or []
n = min(len(want), len(got))
d = [abs(want[i][1] - got[i]["logprob"]) for i in range(n)]
print(f"greedy check: {n} tokens compared, PyTorch f32 vs GGUF q8_0 log-prob max |diff| {max(d) if d else float('nan'):.4f}, "
      f"mean {sum(d)/max(1,n):.4f}")
PY
cd "$W" && split -b 15m gasp-small.gguf "$OUT/gasp-small.gguf.part-" && \
  tar czf "$OUT/meta.tgz" run/loss.csv run/loss.svg run/train.json run/check.json run/config.json prepare-*.log \
    chk/check-gguf.jsonl check-compare.txt
ls -la "$OUT"
