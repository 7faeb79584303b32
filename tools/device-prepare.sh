#!/usr/bin/env bash
# Run here before a device call: builds, and copies into build/devlibs the shared libraries gasp needs that
# the GPU machine lacks (libyaml was missing there on 2026-12-02; libjansson is carried to be safe).
# Then call the device tool with carry ["build"]: `bash tools/device-check.sh quick`, then `... faults`.
# --no-build: only the copies (tools/train/carry.sh, after a build of its own checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${1:-}" = --no-build ] || ./setup.sh --no-bench
mkdir -p build/devlibs
cp -L /usr/lib/x86_64-linux-gnu/libyaml-0.so.2 /usr/lib/x86_64-linux-gnu/libjansson.so.4 build/devlibs/
# gasp links Open MPI when CMake found it (bench --mpi) and the GPU machine has none: carry its libraries.
# MPI_Init runs only with --mpi, so Open MPI's plugins are not needed there.
ldd build/gasp | awk '/libmpi|libopen-(rte|pal)|libhwloc|libevent/ {print $3}' | xargs -r cp -L -t build/devlibs/
# the CPU build of llama.cpp gasp links (tools/device-llama.sh swaps in a CUDA build of the same source)
ldd build/gasp | awk '/libllama|libggml/ {print $3}' | xargs -r cp -L -t build/devlibs/
# (ldd names libggml-cpu.so.0 already when it is linked; one copy, not one per symlink)
[ -f build/devlibs/libggml-cpu.so.0 ] || cp -L .deps/llama/build/bin/libggml-cpu.so.0 build/devlibs/ 2>/dev/null || true
du -sh build
