#!/usr/bin/env bash
# gasp set-up: installs what the build needs (Debian/Ubuntu packages), checks the CUDA toolkit, builds,
# and runs the main job: the reference benchmark over the whole task suite on ptx-sm90.
#   ./setup.sh            install, build, benchmark (results in results.jsonl, summary printed)
#   ./setup.sh --no-bench install and build only
set -euo pipefail
cd "$(dirname "$0")"
run_bench=1
[ "${1:-}" = "--no-bench" ] && run_bench=0

need_pkgs=(build-essential cmake ninja-build pkg-config libyaml-dev libjansson-dev libcurl4-openssl-dev python3
  libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri  # these four: Mesa's software GL for R300-era ARB programs
  llvm-19 lld-19 clang-19)  # AMD targets: llvm-mc, ld.lld and the OpenCL reference compiler (llvm-14 lacks gfx1100)
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

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
echo "setup: built build/gasp and build/gasp-worker"

if [ $run_bench = 1 ]; then
  echo "setup: running the reference benchmark (every task answered by nvcc's own PTX) into results.jsonl"
  build/gasp bench --target ptx-sm90 --backend reference -o results.jsonl --resume
fi
