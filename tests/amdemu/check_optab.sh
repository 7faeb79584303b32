#!/usr/bin/env bash
# Regenerates the emulator's opcode table (tools/amdemu-gen-optab.py, from llvm-mc 19's disassembler) and
# compares it with the committed src/target/amdgcn/emu/emu_optab.c. Skips (77) without llvm-mc 19.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mc=/usr/lib/llvm-19/bin/llvm-mc
[ -x "$mc" ] || { echo "skip: $mc not found"; exit 77; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
python3 "$root/tools/amdemu-gen-optab.py" "$mc" > "$tmp"
if ! diff -q "$root/src/target/amdgcn/emu/emu_optab.c" "$tmp" >/dev/null; then
  echo "emu_optab.c differs from what the generator makes now:"
  diff "$root/src/target/amdgcn/emu/emu_optab.c" "$tmp" | head -20
  echo "regenerate: tools/amdemu-gen-optab.py > src/target/amdgcn/emu/emu_optab.c"
  exit 1
fi
echo "emu_optab.c matches llvm-mc $("$mc" --version | grep -o 'version [0-9.]*')"
