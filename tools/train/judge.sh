#!/usr/bin/env bash
# Here (LLVM 19 and Mesa installed): judge the answers device-eval.sh generated for the CPU targets, with the
# files backend (the same check, assembly, emulator or Mesa run and verification as any bench), then print
# pass@1 and pass@10 per level. Usage: tools/train/judge.sh DIR (holding eval-<target>.jsonl, floor-<target>.jsonl)
set -u
cd "$(dirname "$0")/../.."
D=${1:?usage: judge.sh DIR}
for f in "$D"/eval-*.jsonl "$D"/floor-*.jsonl; do
  [ -f "$f" ] || continue
  b=$(basename "$f" .jsonl); T=${b#*-}
  case "$T" in ptx-sm90) cp "$f" "$D/judged-$b.jsonl"; continue;; esac
  k=$(python3 -c 'import json,sys; print(max(json.loads(l)["sample"] for l in open(sys.argv[1])) + 1)' "$f")
  build/gasp bench --target "$T" --backend files --answers "$f" --samples "$k" --no-time -q --workers 2 \
    -o "$D/judged-$b.jsonl" >/dev/null 2>&1
done
for f in "$D"/judged-*.jsonl; do echo "== $f"; build/gasp report "$f" | head -12; done
