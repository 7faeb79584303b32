#!/usr/bin/env bash
# Runs on the GPU machine: the CUDA build of the pinned llama.cpp and the llama backend's figures (issue 3).
# libggml-cuda.so is 68 MB, over the device tool's 64 MiB carry limit, so it is built there (about 3.5 min on
# 16 cores) from the same git bundle tools/llama-build.sh verified here. Here, first:
#   bash tools/llama-build.sh && bash tools/device-prepare.sh && bash tools/train/pack.sh
# then, through the device tool, carry [".dev/run", ".dev/carry"] (the slim gasp and the pinned source, 3.6 MB):
#   GASP_BIN=.dev/run bash tools/device-llama.sh
# (or carry the whole bundle, .deps/llama/pkg/package/llama/gitRelease.bundle, when the tree is small enough).
# Binaries: $GASP_BIN when set (the slim carry: gasp, gasp-worker, devlibs/), else build/ beside this script.
# Our gasp binary is built against the CPU libllama; its RUNPATH (not RPATH) lets LD_LIBRARY_PATH swap in the
# CUDA build of the same source, same sonames. Writes logs under $OUT when it is set. Never changes GPU settings.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-/tmp}
L=/tmp/llama-cuda
B=$(cd "${GASP_BIN:-$ROOT/build}" && pwd) || exit 3
# the models are made on the CPU while llama.cpp builds (mkmodel is one thread)
export LD_LIBRARY_PATH=$B/devlibs GASP_LLAMA_VOCAB_DIR=$ROOT/.dev/carry
[ -f /tmp/m100.gguf ] || "$B/gasp" mkmodel --size 100m -o /tmp/m100.gguf >/dev/null &
# BIG=1: a model where a step is not bound by kernel launches: 953M parameters, f16 (about 44 s to make)
[ "${BIG:-0}" = 1 ] && ! [ -f /tmp/m1b.gguf ] &&
  "$B/gasp" mkmodel --embd 2048 --layers 16 --heads 16 --kv-heads 16 --ff 5632 --f16 -o /tmp/m1b.gguf >/dev/null &
# a build brought back from an earlier call (PACK=1 below) and carried in .dev/carry: unpacked, not rebuilt
if ! [ -f "$L/build/bin/libggml-cuda.so" ] && ls "$ROOT"/.dev/carry/llama-cuda.tar.xz.part-* >/dev/null 2>&1; then
  mkdir -p "$L/build/bin" && cat "$ROOT"/.dev/carry/llama-cuda.tar.xz.part-* | tar xJf - -C "$L/build/bin" &&
    echo "llama.cpp CUDA build: unpacked from .dev/carry"
fi
if ! [ -f "$L/build/bin/libggml-cuda.so" ]; then
  rm -rf "$L" && mkdir -p "$L/src"
  if [ -f "$ROOT/.dev/carry/llama-src.tar.xz" ]; then tar xJf "$ROOT/.dev/carry/llama-src.tar.xz" -C "$L/src" || exit 3
  else git clone -q "$ROOT/.deps/llama/pkg/package/llama/gitRelease.bundle" "$L/src" || exit 3; fi
  t0=$(date +%s)
  cmake -S "$L/src" -B "$L/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DGGML_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF \
    -DGGML_NATIVE=OFF ${LLAMA_CUDA_FLAGS:-} >"$OUT/llama-cmake.log" 2>&1 || { tail -20 "$OUT/llama-cmake.log"; exit 3; }
  cmake --build "$L/build" --target llama -j"$(nproc)" >"$OUT/llama-build.log" 2>&1 || { tail -30 "$OUT/llama-build.log"; exit 3; }
  echo "llama.cpp CUDA build: $(( $(date +%s) - t0 )) s"
  # PACK=1: the libraries back through $OUT in parts under the device tool's 16 MiB, for .dev/carry next time
  if [ "${PACK:-0}" = 1 ]; then
    (cd "$L/build/bin" && tar cf - $(ls *.so* | grep -v '^lib.*test') | xz -T0 -6 | split -b 15m - "$OUT/llama-cuda.tar.xz.part-")
    ls -la "$OUT"/llama-cuda.tar.xz.part-*
  fi
fi
# LLAMA_CUDA_FLAGS: more CMake options, e.g. -DGGML_CUDA_FA=OFF (no flash-attention kernels: gasp's decoding does
# not use them on these models, and they are most of the build's time)
# LLAMA_BUILD_ONLY=1: the build alone (in the background of another job, whose GPU use would skew the figures)
[ "${LLAMA_BUILD_ONLY:-0}" = 1 ] && exit 0
wait
export LD_LIBRARY_PATH=$L/build/bin:$B/devlibs GASP_LLAMA_VOCAB_DIR=$L/src/models \
  GASP_TASKS_DIR=$ROOT/tasks GASP_WORKER=$B/gasp-worker
G=$B/gasp
# the slim source has no models/ folder: the vocabulary pack.sh carries
[ -d "$L/src/models" ] || export GASP_LLAMA_VOCAB_DIR=$ROOT/.dev/carry
nvidia-smi -L
[ -f /tmp/m100.gguf ] || $G mkmodel --size 100m -o /tmp/m100.gguf
if [ "${BIG:-0}" = 1 ] && [ "${MATRIX:-0}" != 1 ]; then
  echo "== 953M model: a short run with launches serialised (names the kernel if ggml's CUDA backend aborts)"
  CUDA_LAUNCH_BLOCKING=1 GASP_LLAMA_VERBOSE=1 timeout 180 $G genspeed --model /tmp/m1b.gguf --gpu-layers -1 --parallel 4 \
    --tokens 16 --grammar off --rounds 1 > "$OUT/big-diag.log" 2>&1
  echo "exit $?"; grep -i -m12 "error\|illegal\|in function\|no device code\|flash_attn\|CUDA0 compute\|tokens/s" "$OUT/big-diag.log"
  echo "== generation speed, 953M-parameter random llama (f16), all layers on the H200"
  timeout 300 $G genspeed --model /tmp/m1b.gguf --gpu-layers -1 --parallel 32 --tokens 256 --grammar both 2>&1 | tee "$OUT/genspeed-big.log"
fi
# MATRIX=1: what a decode step's time depends on, side by side (issue 3): the grammar's phases beside the GPU or
# after the wait (--grammar all: off, on without the mask cache, on serial, on), and a KV stream per sequence
# (--kv-split), and the 32 sequences in two lanes (contexts on their own threads) beside one. 6 rounds, the
# configurations taking turns (an earlier run of 2 rounds each, one after the other, moved by 10% between
# configurations that do the same work)
if [ "${MATRIX:-0}" = 1 ]; then
  for m in ${MATRIX_MODELS:-m100 m1b}; do
    [ -f /tmp/$m.gguf ] || continue
    for cfg in "all --rounds 6 --lanes 2" "both --kv-split --rounds 6 --lanes 2"; do
      set -- $cfg
      g=$1; shift
      f="$OUT/gs-$m-$g$(echo "$*" | tr -d ' -').log"
      echo "== $m --grammar $g $*"
      timeout 200 $G genspeed --model /tmp/$m.gguf --gpu-layers -1 --parallel 32 --tokens 256 --grammar $g "$@" >"$f" 2>&1
      echo "exit $?"; grep -E "^(off|on)|grammar cost" "$f"
    done
  done
  exit 0
fi
[ "${SMALL:-1}" = 1 ] || exit 0
echo "== generation speed, 100M-parameter random llama, all layers on the H200"
# off, on without the grammar mask cache, on with it; then with the cache emptied before each round (a bench's
# next task); each with the per-step breakdown (decode, sample, grammar check, mask, accept)
timeout 300 $G genspeed --model /tmp/m100.gguf --gpu-layers -1 --parallel 32 --tokens 256 --grammar all 2>&1 | tee "$OUT/genspeed.log"
timeout 120 $G genspeed --model /tmp/m100.gguf --gpu-layers -1 --parallel 32 --tokens 256 --grammar on --cold 2>&1 | tee "$OUT/genspeed-cold.log"
[ "${TINY:-1}" = 1 ] || exit 0
echo "== the tiny model end to end: grammar on, check, assemble, run on the H200"
$G mkmodel -o /tmp/tiny.gguf >/dev/null
# decoded on the CPU: the tiny model (64 wide, 16-wide heads) stopped the CUDA build of llama.cpp with "an illegal
# instruction was encountered" on 2026-12-02, where the 134M model ran; one more try with launches serialised
# names the kernel
CUDA_LAUNCH_BLOCKING=1 timeout 60 $G bench --target ptx-sm90 --model /tmp/tiny.gguf --gpu-layers -1 --grammar on \
  --samples 2 --max-tokens 64 --tasks 'vector_add' --level 2 -o "$OUT/tiny-cuda.jsonl" > "$OUT/tiny-cuda.log" 2>&1
echo "tiny model on CUDA: exit $?"; grep -i -m3 "error\|illegal\|in function" "$OUT/tiny-cuda.log"
timeout 200 $G bench --target ptx-sm90 --model /tmp/tiny.gguf --gpu-layers 0 --grammar on --samples 8 --max-tokens 512 \
  --tasks 'vector_add' --level 2 -o "$OUT/tiny-grammar.jsonl" 2>&1 | tail -14
