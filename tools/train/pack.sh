#!/usr/bin/env bash
# Here, before the device calls of tools/train: the slim carry .dev/run (gasp, gasp-worker, the libraries the
# GPU machine lacks: tools/device-prepare.sh --slim) and .dev/carry (the generated tasks, the CPU targets' pairs
# gzipped, the llama vocabulary), both under the device tool's 64 MiB. Build first (./setup.sh --no-bench).
set -eu
cd "$(dirname "$0")/../.."
C=${1:-.dev/c2}
bash tools/device-prepare.sh --no-build --slim >/dev/null
rm -rf .dev/carry && mkdir -p .dev/carry
tar czf .dev/carry/tasks.tgz -C "$C" tasks
for f in "$C"/gfx900.jsonl "$C"/gfx1030.jsonl "$C"/gfx1100.jsonl "$C"/r300.jsonl; do
  [ -f "$f" ] && gzip -c "$f" > ".dev/carry/$(basename "$f").gz"
done
[ -f "$C/ptx-sm90-unverified.jsonl" ] && gzip -c "$C/ptx-sm90-unverified.jsonl" > .dev/carry/ptx-sm90-unverified.pairs.gz &&
  gzip -c "$C/ptx-sm90-unverified.jsonl.results.jsonl" > .dev/carry/ptx-sm90-unverified.results.jsonl.gz
cp .deps/llama/src/models/ggml-vocab-llama-spm.gguf .dev/carry/
# the pinned llama.cpp source for the CUDA build there (tools/device-llama.sh): only what the library build
# reads, 3.6 MB instead of the 35 MB bundle, which with the repository would pass the device tool's 64 MiB
git -C .deps/llama/src archive HEAD CMakeLists.txt cmake ggml src include common vendor licenses app |
  xz -T2 -6 > .dev/carry/llama-src.tar.xz
du -sh .dev/run .dev/carry
