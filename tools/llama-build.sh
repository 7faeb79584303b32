#!/usr/bin/env bash
# Fetches the pinned llama.cpp source and builds the shared `llama` library (CPU), for the embedded llama
# backend (issue 3). The source comes from the npm package node-llama-cpp@3.21.1, which carries it as
# llama/gitRelease.bundle (release tag in llama/binariesGithubRelease.json); the package's sha512 is checked
# against the pin below before anything is unpacked. No llama.cpp source is committed to gasp.
# Cached: a second run with the same pin does nothing. Output: $DEST/build/bin/libllama.so and
# $DEST/src/include/llama.h.   Usage: tools/llama-build.sh [DEST] (default .deps/llama)
set -euo pipefail
PIN=3.21.1
SHA512=E3N0Ev2Va0wzydvXYFwM9Hvyo07PoWjt8T/9GMc43Cvt8YkV/NU/tYUgEMC1grTPv2o9PRjQi0G3Wb5P/awiMg==
cd "$(dirname "$0")/.."
DEST=${1:-${GASP_LLAMA_DIR:-$PWD/.deps/llama}}
STAMP="$DEST/built-$PIN"
if [ -f "$STAMP" ] && [ -f "$DEST/build/bin/libllama.so" ]; then
  echo "llama: cached build in $DEST"
  exit 0
fi
command -v npm >/dev/null || { echo "llama: error: npm is needed (apt-get install npm)" >&2; exit 3; }
mkdir -p "$DEST"
tgz="$DEST/node-llama-cpp-$PIN.tgz"
[ -f "$tgz" ] || npm pack "node-llama-cpp@$PIN" --silent --pack-destination "$DEST" >/dev/null
got=$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)
if [ "$got" != "$SHA512" ]; then
  echo "llama: error: $tgz does not match the pinned sha512 (got $got)" >&2
  rm -f "$tgz"
  exit 3
fi
rm -rf "$DEST/pkg" "$DEST/src"
mkdir -p "$DEST/pkg"
tar xzf "$tgz" -C "$DEST/pkg" package/llama/gitRelease.bundle package/llama/binariesGithubRelease.json
git clone -q "$DEST/pkg/package/llama/gitRelease.bundle" "$DEST/src" 2>/dev/null
echo "llama: source $(cat "$DEST/pkg/package/llama/binariesGithubRelease.json" | tr -d ' \n'), commit $(git -C "$DEST/src" rev-parse --short HEAD)"
cmake -S "$DEST/src" -B "$DEST/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
  -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF \
  -DLLAMA_BUILD_SERVER=OFF -DGGML_NATIVE=OFF >/dev/null
cmake --build "$DEST/build" --target llama -j"$(nproc)"
touch "$STAMP"
echo "llama: built $DEST/build/bin/libllama.so"
