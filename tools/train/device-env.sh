# Sourced by the tools/train/device-*.sh scripts on the GPU machine: the repository root R, the output folder OUT,
# the shared work folder W (kept between calls while the machine is warm), and gasp from the slim carry .dev/run
# (G, its libraries, its worker, the benchmark's tasks).
R=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-/tmp/out}
W=/tmp/gasp-train
mkdir -p "$W" "$OUT"
export LD_LIBRARY_PATH=$R/.dev/run/devlibs GASP_WORKER=$R/.dev/run/gasp-worker GASP_TASKS_DIR=$R/tasks
# gasp train export and mkmodel take the tokenizer from here (the path compiled in is this machine's)
export GASP_LLAMA_VOCAB_DIR=$R/.dev/carry
G=$R/.dev/run/gasp
