# gasp train from the command line: help texts, usage errors, prepare -> counts, dump -> export -> dump gives
# the same weights.bin, a corrupt weights file is an environment error (exit 3), finetune writes its loss log.
. "$(dirname "$0")/lib.sh"
if ! "$GASP" mkmodel -o "$TMP/tiny.gguf" >"$TMP/mk" 2>&1; then
  if grep -q "without llama.cpp" "$TMP/mk"; then echo "skipped: gasp was built without llama.cpp"; exit 77; fi
  cat "$TMP/mk"; bad "mkmodel"; finish; exit
fi
expect_rc 0 "train --help" "$GASP" train --help
grep -q "finetune" "$TMP/out" && ok || bad "train --help lists finetune"
for s in prepare export dump finetune; do
  expect_rc 0 "train $s --help" "$GASP" train $s --help
  grep -q "^usage: gasp train $s" "$TMP/out" && ok || bad "train $s usage line"
done
expect_rc 2 "train without a subcommand" "$GASP" train
expect_rc 2 "unknown subcommand" "$GASP" train bake
expect_rc 2 "prepare without --vocab" "$GASP" train prepare x.jsonl -o "$TMP/p"
expect_rc 2 "export bad type" "$GASP" train export "$TMP/d" -o "$TMP/x.gguf" --type q4
expect_rc 3 "prepare unknown vocab" "$GASP" train prepare --vocab no-such-vocab x.jsonl -o "$TMP/p"

printf '%s\n' '{"target":"r300","prompt":"Write  ","completion":" hello world"}' \
  '{"target":"gfx1030","prompt":"Say:\n","completion":"ok\n"}' 'garbage' >"$TMP/pairs.jsonl"
expect_rc 0 "prepare" "$GASP" train prepare --vocab llama-spm "$TMP/pairs.jsonl" -o "$TMP/p"
grep -q "^r300 *1 *6 *3" "$TMP/out" && grep -q "^all *2 " "$TMP/out" && grep -q "1 malformed" "$TMP/out" && ok ||
  bad "prepare table: $(cat "$TMP/out")"
grep -q "sample dropped: not a JSON object" "$TMP/err" && ok || bad "prepare names the dropped line"
[ "$(stat -c %s "$TMP/p/tokens.u32")" = $((4 * $(stat -c %s "$TMP/p/mask.u8"))) ] && ok || bad "4 bytes per token, 1 mask byte"

# tools/train/tokenize.sh: pairs tokenized in chunks give the folder one process gives, byte for byte, read in order
mkdir -p "$TMP/w"
for i in $(seq 1 11); do
  printf '{"task":"t%d","target":"gfx1030","prompt":"Task %d:\\n","completion":"v_add_f32 v%d, v1, v2\\n"}\n' "$i" "$i" "$i"
done >"$TMP/w/a.jsonl"
head -2 "$TMP/pairs.jsonl" >"$TMP/w/b.jsonl"
expect_rc 0 "prepare a in one folder" "$GASP" train prepare --vocab llama-spm "$TMP/w/a.jsonl" -o "$TMP/a1"
(G=$GASP V=llama-spm W=$TMP/w PAIRS="a none b" TOK_CHUNK=4; . "$SRC/../tools/train/tokenize.sh"
 tokenize_pairs >"$TMP/tk.out" 2>&1 && tok_dirs >"$TMP/tk.dirs") && ok || bad "tokenize_pairs: $(cat "$TMP/tk.out")"
[ "$(cat "$TMP/tk.dirs")" = " $TMP/w/tok-a.000 $TMP/w/tok-a.001 $TMP/w/tok-a.002 $TMP/w/tok-b.000" ] && ok ||
  bad "tok_dirs in order: $(cat "$TMP/tk.dirs")"
cat "$TMP"/w/tok-a.00[0-2]/tokens.u32 | cmp -s - "$TMP/a1/tokens.u32" && cat "$TMP"/w/tok-a.00[0-2]/mask.u8 |
  cmp -s - "$TMP/a1/mask.u8" && ok || bad "chunked tokens and mask are one folder's"
grep -q "^a  *11 " "$TMP/tk.out" && grep -q "no $TMP/w/none.jsonl" "$TMP/tk.out" && ok || bad "tokenize_pairs' table: $(cat "$TMP/tk.out")"

# the line cache of train prepare gives the tokens of whole-text tokenizing, byte for byte: on real pairs of every
# kind of target (the kept pairs of tools/train/data, 400 of each file) and on texts made to break it (a first
# line empty, blank lines, lines opening or ending in spaces, tabs, CR, UTF-8, a completion that goes on with the
# prompt's last line, a line repeated as a first and as a later line)
D=$SRC/../tools/train/data
python3 - "$D/amd/c101-gfx1030.jsonl.xz" "$D/amd/k104-gfx900.jsonl.xz" "$D/ptx/c101-ptx-sm90.jsonl.xz" \
  "$D/ptx/n105-ptx-sm90.jsonl.xz" "$D/r300/a93-r300.jsonl.xz" >"$TMP/real.jsonl" <<'PY'
import itertools, lzma, sys
for f in sys.argv[1:]:
    sys.stdout.writelines(itertools.islice(lzma.open(f, "rt"), 400))
PY
python3 - >"$TMP/edge.jsonl" <<'PY'
import json
texts = [("\nTask:\n  x = 1\n", "mov r0, 1\n"), ("Task:\n\n\nx\n", "\n\nend"), ("  lead\ttab \n trail  \n", "a  b\n"),
         ("CR\r\nline\r\n", "done\r\n"), ("UTF-8: \u00e9\u00e8 \u2192 \u4e2d\u6587\n\u00e9\n", "\u00e9 ok"),
         ("Write: v_add_f32", " v0, v1, v2\nv_mov_b32 v3, 0\n"), ("Task:\nTask:\n", "Task:\nTask:"),
         ("x", "\n"), ("\n\n", "y"), ("one line", ""), ("a\n", "")]
for i, (p, c) in enumerate(texts):
    print(json.dumps({"task": "e%d" % i, "target": "gfx1030", "prompt": p, "completion": c}))
PY
for f in real edge; do
  expect_rc 0 "prepare $f pairs through the line cache" "$GASP" train prepare --vocab llama-spm "$TMP/$f.jsonl" -o "$TMP/lc-$f"
  cp "$TMP/out" "$TMP/lc-$f.out"
  expect_rc 0 "prepare $f pairs whole" "$GASP" train prepare --vocab llama-spm "$TMP/$f.jsonl" -o "$TMP/wh-$f" --no-line-cache
  for x in tokens.u32 mask.u8 index.json; do
    cmp -s "$TMP/lc-$f/$x" "$TMP/wh-$f/$x" && ok || bad "$f pairs: $x through the line cache is the whole texts' $x"
  done
done
[ "$(wc -l <"$TMP/real.jsonl")" = 2000 ] && grep -q "^all  *2000 " "$TMP/lc-real.out" && ok || bad "2000 real pairs kept: $(cat "$TMP/lc-real.out")"
awk '/^line cache:/ { exit !($3 > $5 / 2) }' "$TMP/lc-real.out" && ok || bad "the line cache finds most lines: $(grep cache "$TMP/lc-real.out")"
grep -q "^line cache:" "$TMP/out" && bad "--no-line-cache reports no cache" || ok
# qwen2 is byte-level BPE, not SentencePiece: whole texts
expect_rc 0 "prepare with qwen2" "$GASP" train prepare --vocab qwen2 "$TMP/edge.jsonl" -o "$TMP/q2"
grep -q "^line cache: off" "$TMP/out" && ok || bad "qwen2: line cache off: $(cat "$TMP/out")"

expect_rc 0 "dump" "$GASP" train dump "$TMP/tiny.gguf" -o "$TMP/d"
expect_rc 0 "export f32" "$GASP" train export "$TMP/d" -o "$TMP/e.gguf" --type f32
expect_rc 0 "dump again" "$GASP" train dump "$TMP/e.gguf" -o "$TMP/d2"
cmp -s "$TMP/d/weights.bin" "$TMP/d2/weights.bin" && ok || bad "dump -> export -> dump keeps every weight"
expect_rc 0 "export q8_0 (default)" "$GASP" train export "$TMP/d" -o "$TMP/q.gguf"
expect_rc 0 "bench on the exported q8_0 model" "$GASP" bench --target r300 --model "$TMP/q.gguf" --tasks arb_clamp \
  --samples 1 --max-tokens 16 -q -o "$TMP/b.jsonl"
# tools/train/grow.py: the grown model has more blocks and gives the same greedy tokens and log-probabilities
GROW=$2/../tools/train/grow.py
expect_rc 0 "grow.py" python3 "$GROW" "$TMP/d" 1 "$TMP/g"
n0=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["n_layer"])' "$TMP/d/config.json")
n1=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["n_layer"])' "$TMP/g/config.json")
[ "$n1" = $((n0 + 1)) ] && ok || bad "grow.py adds one block ($n0 -> $n1)"
expect_rc 0 "export the grown model" "$GASP" train export "$TMP/g" -o "$TMP/g.gguf" --type f32
for m in e g; do
  expect_rc 0 "greedy decode ($m)" "$GASP" bench --target r300 --model "$TMP/$m.gguf" --tasks arb_clamp --samples 1 \
    --temperature 0 --logprobs --max-tokens 24 --no-time -q -o "$TMP/lp-$m.jsonl"
done
python3 - "$TMP/lp-e.jsonl" "$TMP/lp-g.jsonl" <<'PY' && ok || bad "the grown model computes what the model before did"
import json, sys
a, b = (json.loads(open(p).readline())["logprobs"] for p in sys.argv[1:])
assert len(a) == len(b) > 0, (len(a), len(b))
assert [x["token"] for x in a] == [x["token"] for x in b]
assert max(abs(x["logprob"] - y["logprob"]) for x, y in zip(a, b)) < 1e-5
PY
expect_rc 2 "grow.py K out of range" python3 "$GROW" "$TMP/d" 0 "$TMP/g0"
head -c 100 "$TMP/d/weights.bin" >"$TMP/d/w.tmp" && mv "$TMP/d/w.tmp" "$TMP/d/weights.bin"
expect_rc 3 "export of a truncated weights.bin" "$GASP" train export "$TMP/d" -o "$TMP/x.gguf"
grep -Eq "truncated|more than the file holds" "$TMP/err" && ok || bad "says what is wrong: $(cat "$TMP/err")"

for i in $(seq 1 30); do echo '{"target":"r300","prompt":"Task:\n","completion":"!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n"}'; done >"$TMP/ft.jsonl"
expect_rc 0 "prepare for finetune" "$GASP" train prepare --vocab llama-spm "$TMP/ft.jsonl" -o "$TMP/ftp"
expect_rc 0 "finetune" "$GASP" train finetune --model "$TMP/tiny.gguf" --data "$TMP/ftp" -o "$TMP/ft.gguf" --epochs 2 --lr 1e-3 --threads 2
[ -s "$TMP/ft.gguf" ] && [ "$(wc -l <"$TMP/ft.loss.csv")" = 5 ] && ok || bad "finetune outputs"
grep -q "epoch 2/2: training loss" "$TMP/err" && ok || bad "loss per epoch on stderr"
finish
