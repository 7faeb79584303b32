# Sourced by tools/train/device-train.sh (and tests/integration/train_cli.sh): the pairs files W/NAME.jsonl of
# PAIRS tokenized by `G train prepare --vocab V` into W/tok-NAME.000, .001 ... (tokenize_pairs), and those folders
# in PAIRS order (tok_dirs), for train.py --data.
#
# Why chunks: one process a pairs file left the largest (rc101-ptx, 35,942 samples, 61M tokens) alone for most of the
# 180 s prepare of 2026-12-07's first call, which then trained 173 s of its 585. Each file is cut into chunks of
# TOK_CHUNK lines (default 4,000), tokenized by as many processes as the machine has cores. The chunks are read back
# in order, so train.py sees the same samples in the same order, with the same offsets, as from one folder a file
# (tests/integration/train_cli.sh compares them byte for byte). TOK_KEEP=1: a file whose tokens are already there
# (a later call on the warm machine, the same PAIRS and MAXTOK) is not tokenized again. MAXTOK: longest sample (3072).

tokenize_pairs() {
  local n f c chunks=""
  for n in $PAIRS; do
    f=$W/$n.jsonl
    [ -s "$f" ] || { echo "no $f, or empty"; continue; }
    [ "${TOK_KEEP:-0}" = 1 ] && [ -d "$W/tok-$n.000" ] && continue
    rm -rf "$W/tok-$n".[0-9]* "$W/chunk-$n".[0-9]* "$W/prepare-$n".[0-9]*.log
    split -l "${TOK_CHUNK:-4000}" -d -a 3 "$f" "$W/chunk-$n." || return 3
    chunks="$chunks $(cd "$W" && echo chunk-"$n".[0-9]*)"
  done
  # chunk-NAME.K -> tok-NAME.K with its log prepare-NAME.K.log; a chunk that fails leaves no tok- folder
  printf '%s\n' $chunks | G=$G V=$V W=$W MAXTOK=${MAXTOK:-3072} xargs -r -P "$(nproc)" -I{} sh -c \
    'c=$1; "$G" train prepare --vocab "$V" "$W/$c" -o "$W/tok-${c#chunk-}" --max-tokens "$MAXTOK" \
       > "$W/prepare-${c#chunk-}.log" 2>&1 || rm -rf "$W/tok-${c#chunk-}"' _ {}
  for c in $chunks; do
    [ -f "$W/tok-${c#chunk-}/index.json" ] || { echo "prepare: $c failed:"; tail -3 "$W/prepare-${c#chunk-}.log"; return 3; }
  done
  rm -f "$W"/chunk-*
  # per pairs file: samples, tokens and answer tokens over its chunks (each log's target line)
  for n in $PAIRS; do
    ls "$W/prepare-$n".[0-9]*.log >/dev/null 2>&1 || continue
    awk -v n="$n" '$1 != "target" && $1 != "all" && NF == 4 && $2 ~ /^[0-9]+$/ { s += $2; t += $3; c += $4 }
      END { printf "%-24s %8d %11d %10d\n", n, s, t, c }' "$W/prepare-$n".[0-9]*.log
  done
}

tok_dirs() { # the tok- folders, PAIRS order, chunks in order
  local n d
  for n in $PAIRS; do
    for d in "$W/tok-$n".[0-9]*; do [ -d "$d" ] && printf ' %s' "$d"; done
  done
}
