#!/usr/bin/env bash
# Here, before a device call of tools/train: moves what the GPU machine does not need out of the working tree, since
# the device tool carries the tree with .dev/run and .dev/carry in 64 MiB at most (2026-12-07: 33.4 MB of tracked
# files without these, 11.3 MB .dev/run, 21.3 MB .dev/carry). Moved: tools/sass-corpus, tools/train/data,
# models/train-*, src and tests (the GPU machine runs the gasp built here, .dev/run; 4.1 MB, the room a ten-block
# INIT of 32.6 MB copied over models/gasp-small.gguf needs, tools/train/README.md "The twentieth run") and the task
# sets of .dev/carry (*.txz) but tasks.txz and those named in KEEP (PTX_TASKS of the call). Back with `aside.sh
# back`. Never `git add -A` while they are aside: git would record them as deleted.
#   KEEP="n105.txz" bash tools/train/aside.sh && <the device call> ; bash tools/train/aside.sh back
set -eu
cd "$(dirname "$0")/../.."
A=${ASIDE_DIR:-/tmp/gasp-aside}
if [ "${1:-}" = back ]; then
  [ -d "$A" ] || { echo "aside: nothing aside ($A)"; exit 0; }
  [ -d "$A/sass-corpus" ] && mv "$A/sass-corpus" tools/sass-corpus
  [ -d "$A/data" ] && mv "$A/data" tools/train/data
  [ -d "$A/src" ] && mv "$A/src" src
  [ -d "$A/tests" ] && mv "$A/tests" tests
  for d in "$A"/models/*; do [ -e "$d" ] && mv "$d" models/; done
  for f in "$A"/carry/*; do [ -e "$f" ] && mv "$f" .dev/carry/; done
  rm -rf "$A"
  echo "aside: back in place"
  exit 0
fi
[ -e "$A" ] && { echo "aside: $A exists: run 'aside.sh back' first" >&2; exit 2; }
mkdir -p "$A/models" "$A/carry"
mv tools/sass-corpus "$A/sass-corpus"
mv tools/train/data "$A/data"
mv src "$A/src"
mv tests "$A/tests"
for d in models/train-*; do [ -e "$d" ] && mv "$d" "$A/models/"; done
for f in .dev/carry/*.txz; do
  [ -e "$f" ] || continue
  case " tasks.txz ${KEEP:-} " in *" $(basename "$f") "*) ;; *) mv "$f" "$A/carry/" ;; esac
done
# what the call carries: the files git tracks or would track, and the carry paths
tree=$(git ls-files -co --exclude-standard -z | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1)
dev=$(du -sb .dev/run .dev/carry 2>/dev/null | awk '{s += $1} END {print s + 0}')
total=$(( tree + dev ))
echo "aside: the call carries $(( total / 1048576 )) MiB (tree $(( tree / 1048576 )), .dev/run and .dev/carry $(( dev / 1048576 ))) of 64"
[ "$total" -le $(( 64 * 1048576 )) ] || { echo "aside: over the device tool's 64 MiB" >&2; exit 1; }
