#!/usr/bin/env bash
# Run here before a device call: builds, and copies into build/devlibs the shared libraries gasp needs that
# the GPU machine lacks (libyaml was missing there on 2026-12-02; libjansson is carried to be safe).
# Then call the device tool with carry ["build"]: `bash tools/device-check.sh quick`, then `... faults`.
# --no-build: only the copies (after a build of this checkout).
# --slim: then .dev/run as well, the slim carry of tools/train (gasp, gasp-worker and build/devlibs, stripped:
#   the debug sections stay here, the copies travel at a third of their size); tools/train/pack.sh and carry.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
build=1 slim=0
for a in "$@"; do
  case $a in
  --no-build) build=0 ;;
  --slim) slim=1 ;;
  *) echo "usage: $0 [--no-build] [--slim]" >&2; exit 2 ;;
  esac
done
[ $build = 0 ] || ./setup.sh --no-bench
mkdir -p build/devlibs
cp -L /usr/lib/x86_64-linux-gnu/libyaml-0.so.2 /usr/lib/x86_64-linux-gnu/libjansson.so.4 build/devlibs/
# gasp links Open MPI when CMake found it (bench --mpi) and the GPU machine has none: carry its libraries.
# MPI_Init runs only with --mpi, so Open MPI's plugins are not needed there.
ldd build/gasp | awk '/libmpi|libopen-(rte|pal)|libhwloc|libevent/ {print $3}' | xargs -r cp -L -t build/devlibs/
# the CPU build of llama.cpp gasp links (tools/device-llama.sh swaps in a CUDA build of the same source)
ldd build/gasp | awk '/libllama|libggml/ {print $3}' | xargs -r cp -L -t build/devlibs/
# (ldd names libggml-cpu.so.0 already when it is linked; one copy, not one per symlink)
[ -f build/devlibs/libggml-cpu.so.0 ] || cp -L .deps/llama/build/bin/libggml-cpu.so.0 build/devlibs/ 2>/dev/null || true
if [ $slim = 1 ]; then
  rm -rf .dev/run && mkdir -p .dev/run
  cp -r build/gasp build/gasp-worker build/devlibs .dev/run/
  strip --strip-unneeded .dev/run/gasp .dev/run/gasp-worker .dev/run/devlibs/*.so* 2>/dev/null || true
  du -sh .dev/run
else
  du -sh build
fi
