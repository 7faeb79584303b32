#!/usr/bin/env bash
# gasp set-up: installs what the build needs (Debian/Ubuntu packages), checks the CUDA toolkit, builds,
# and runs the main job: the shipped model (models/gasp-small.gguf, trained by tools/train) answers every task of
# the suite, and gasp checks, assembles, runs and verifies each answer: on ptx-sm90 where a GPU answers, else on
# gfx1030 in gasp's AMD emulator (no GPU needed). Without the model file it runs the reference backend.
#   ./setup.sh            install, build, benchmark (results in results.jsonl, summary printed)
#   ./setup.sh --no-bench install and build only
set -euo pipefail
cd "$(dirname "$0")"
run_bench=1
[ "${1:-}" = "--no-bench" ] && run_bench=0

need_pkgs=(build-essential cmake ninja-build pkg-config libyaml-dev libjansson-dev libcurl4-openssl-dev python3
  libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri  # Mesa's software GL for R300-era ARB programs
  llvm-19 lld-19 clang-19  # AMD targets: llvm-mc, ld.lld and the OpenCL reference compiler (llvm-14 lacks gfx1100)
  git openssl g++)  # llama.cpp: its source comes as a git bundle in a pinned npm package (sha512 checked)
command -v npm >/dev/null || need_pkgs+=(npm)
need_pkgs+=(openmpi-bin libopenmpi-dev)  # gasp bench --mpi (optional at configure time; CI runs mpirun -n 2)
missing=()
for p in "${need_pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# ptxas and nvcc: the PTX target's assembler and the reference compiler (CUDA 12 or later for sm_90)
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
if ! [ -x "$CUDA_HOME/bin/ptxas" ] && ! command -v ptxas >/dev/null; then
  echo "setup: error: no CUDA toolkit found (looked for $CUDA_HOME/bin/ptxas and ptxas on PATH)." >&2
  echo "setup: install the CUDA toolkit 12.0 or later, or set CUDA_HOME." >&2
  exit 3
fi

# llama.cpp for the embedded llama backend: built once from the pinned package into .deps/llama (cached;
# about 6 minutes on 2 cores the first time)
tools/llama-build.sh

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
echo "setup: built build/gasp and build/gasp-worker"

if [ $run_bench = 1 ]; then
  target=gfx1030
  nvidia-smi -L >/dev/null 2>&1 && target=ptx-sm90
  if [ -f models/gasp-small.gguf ]; then
    echo "setup: the main job: the shipped model answers every $target task (llama backend), gasp judges each answer; results.jsonl"
    grammar=off; [ $target = ptx-sm90 ] && grammar=on
    build/gasp bench --target $target --grammar $grammar --max-tokens 1024 -o results.jsonl --resume
  else
    echo "setup: models/gasp-small.gguf is missing: the reference benchmark (the vendor compiler's answers) into results.jsonl"
    build/gasp bench --target $target --backend reference -o results.jsonl --resume
  fi
fi
