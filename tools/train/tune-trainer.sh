#!/usr/bin/env bash
# gasp tune's external trainer for the GPU machine (issue 9): fine-tunes a llama GGUF with tools/train/train.py
# (PyTorch; the loss on answer tokens only, each sample whole as its context) where `gasp train finetune`
# (llama.cpp's trainer, on the CPU) would take tens of minutes. gasp tune runs it as
#   tune-trainer.sh --model CUR.gguf --data PREPARED_DIR -o NEXT.gguf
# Settings from the environment: TUNE_EPOCHS (default 20), TUNE_LR (3e-4, cosine to TUNE_MIN_LR 3e-5),
# TUNE_WARMUP (5 steps), TUNE_BATCH (32768 tokens a step), TUNE_SEED (1); GASP the gasp binary (default gasp).
set -eu
while [ $# -gt 0 ]; do
  case "$1" in --model) M=$2; shift ;; --data) D=$2; shift ;; -o) O=$2; shift ;; esac
  shift
done
: "${M:?--model}" "${D:?--data}" "${O:?-o}"
G=${GASP:-gasp}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$G" train dump "$M" -o "$T/init" >/dev/null
python3 "$(dirname "$0")/train.py" --data "$D" --init "$T/init" --out "$T/run" --epochs "${TUNE_EPOCHS:-20}" \
  --lr "${TUNE_LR:-3e-4}" --min-lr "${TUNE_MIN_LR:-3e-5}" --warmup "${TUNE_WARMUP:-5}" --weight-decay 0 \
  --batch-tokens "${TUNE_BATCH:-32768}" --seed "${TUNE_SEED:-1}" | grep -v '^step' >&2
"$G" train export "$T/run" -o "$O" --type q8_0 --name "gasp-small tuned (gasp tune)" >/dev/null
