#!/usr/bin/env bash
# Speed of `gasp train prepare` with its line cache against tokenizing every text whole, side by side in one run on
# the same pairs, and a check that both write the same bytes. Here or on the GPU machine:
#   bash tools/train/bench-prepare.sh [PAIRS.jsonl(.xz)...]   (default: 400 pairs of each file in tools/train/data)
# Prints a table: pairs, tokens, seconds whole, seconds cached, the ratio, lines found in the cache.
set -eu
cd "$(dirname "$0")/../.."
G=${G:-$PWD/build/gasp}
[ -x "$G" ] || { echo "bench-prepare: build gasp first (./setup.sh --no-bench)" >&2; exit 3; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ $# -eq 0 ]; then set -- tools/train/data/*/*.jsonl.xz; N=${N:-400}; else N=${N:-0}; fi
python3 - "$N" "$@" >"$T/pairs.jsonl" <<'PY'
import itertools, lzma, sys
n = int(sys.argv[1])
for f in sys.argv[2:]:
    src = lzma.open(f, "rt") if f.endswith(".xz") else open(f)
    sys.stdout.writelines(itertools.islice(src, n) if n else src)
PY
now() { date +%s.%N; }
t0=$(now); "$G" train prepare -q --vocab llama-spm "$T/pairs.jsonl" -o "$T/whole" --max-tokens 3072 --no-line-cache >"$T/w.out"
t1=$(now); "$G" train prepare -q --vocab llama-spm "$T/pairs.jsonl" -o "$T/cached" --max-tokens 3072 >"$T/c.out"
t2=$(now)
same=yes
for x in tokens.u32 mask.u8 index.json; do cmp -s "$T/whole/$x" "$T/cached/$x" || same=NO; done
awk -v t0="$t0" -v t1="$t1" -v t2="$t2" -v same="$same" \
  -v cache="$(sed -n 's/^line cache: \([0-9]*\) of \([0-9]*\).*/\1 \2/p' "$T/c.out")" '
  $1 == "all" { pairs = $2; tokens = $3 }
  END {
    w = t1 - t0; c = t2 - t1
    split(cache, h, " ")
    printf "%-8s %12s %10s %10s %7s %16s %10s\n", "pairs", "tokens", "whole s", "cached s", "ratio", "lines cached", "same bytes"
    printf "%-8d %12d %10.2f %10.2f %6.1fx %7d/%-8d %10s\n", pairs, tokens, w, c, w / c, h[1], h[2], same
  }' "$T/w.out"
[ "$same" = yes ]
