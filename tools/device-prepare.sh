#!/usr/bin/env bash
# Run here before a device call: builds, and copies into build/devlibs the shared libraries gasp needs that
# the GPU machine lacks (libyaml was missing there on 2026-12-02; libjansson is carried to be safe).
# Then call the device tool with carry ["build"]: `bash tools/device-check.sh quick`, then `... faults`.
set -euo pipefail
cd "$(dirname "$0")/.."
./setup.sh --no-bench
mkdir -p build/devlibs
cp -L /usr/lib/x86_64-linux-gnu/libyaml-0.so.2 /usr/lib/x86_64-linux-gnu/libjansson.so.4 build/devlibs/
du -sh build
