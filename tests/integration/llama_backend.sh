# The embedded llama backend with real llama.cpp and random-weight models made by `gasp mkmodel` (real
# tokenizers from llama.cpp's vocab files): load -> generate (parallel sequences) -> log-probabilities ->
# grammar -> extract/parse/check, the qwen2 chat-template path, determinism, resume, and every error the
# issue names (missing, not GGUF, corrupt, too large for memory, context overflow, no chat template).
. "$(dirname "$0")/lib.sh"
if ! "$GASP" mkmodel -o "$TMP/tiny.gguf" >"$TMP/mk" 2>&1; then
  if grep -q "without llama.cpp" "$TMP/mk"; then echo "skipped: gasp was built without llama.cpp (tools/llama-build.sh)"; exit 77; fi
  cat "$TMP/mk"; bad "mkmodel tiny llama"; finish; exit
fi
ok
grep -q "llama, 4.17M parameters" "$TMP/mk" && ok || bad "tiny llama size: $(cat "$TMP/mk")"
# same seed, same bytes: the model is reproducible on every machine
"$GASP" mkmodel -o "$TMP/tiny2.gguf" >/dev/null && cmp -s "$TMP/tiny.gguf" "$TMP/tiny2.gguf" && ok || bad "mkmodel is deterministic"
"$GASP" mkmodel --seed 2 -o "$TMP/tiny3.gguf" >/dev/null && ! cmp -s "$TMP/tiny.gguf" "$TMP/tiny3.gguf" && ok || bad "another seed, other weights"
expect_rc 2 "mkmodel bad shape" "$GASP" mkmodel --embd 60 --heads 7 -o "$TMP/x.gguf"
expect_rc 2 "mkmodel unknown arch" "$GASP" mkmodel --arch gpt9 -o "$TMP/x.gguf"
expect_rc 0 "mkmodel qwen2" "$GASP" mkmodel --arch qwen2 --f16 -o "$TMP/q.gguf"

PY=$(command -v python3)
# four samples of one prompt decoded as four parallel sequences, with log-probabilities
expect_rc 0 "bench with the llama backend" "$GASP" bench --target ptx-sm90 --model "$TMP/tiny.gguf" --tasks add_f32 \
  --samples 4 --max-tokens 48 --logprobs -q -o "$TMP/a.jsonl"
"$PY" - "$TMP/a.jsonl" <<'PY' && ok || bad "llama records"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 4, len(rows)
assert sorted(r["sample"] for r in rows) == [0, 1, 2, 3]
for r in rows:
    assert r["backend"] == "llama" and r["model"] == "tiny.gguf" and r["grammar"] is False, r
    assert 0 < r["tokens"] <= 48, r["tokens"]
    lp = r["logprobs"]
    assert len(lp) == r["tokens"], (len(lp), r["tokens"])
    for e in lp:
        assert e["logprob"] <= 0 and len(e["top"]) == 5
        tops = [x[1] for x in e["top"]]
        assert tops == sorted(tops, reverse=True) and tops[0] <= 0
        assert e["logprob"] <= tops[0] + 1e-6
    assert r["class"] in ("extract", "syntax", "semantic", "range", "resource", "skipped", "pass"), r["class"]
assert len({r["answer"] for r in rows}) > 1, "parallel sequences with different seeds must differ"
PY
# the same seed gives the same answers
"$GASP" bench --target ptx-sm90 --model "$TMP/tiny.gguf" --tasks add_f32 --samples 4 --max-tokens 48 -q -o "$TMP/b.jsonl"
"$PY" - "$TMP/a.jsonl" "$TMP/b.jsonl" <<'PY' && ok || bad "same seed, same answers"
import json, sys
a = {json.loads(l)["sample"]: json.loads(l)["answer"] for l in open(sys.argv[1])}
b = {json.loads(l)["sample"]: json.loads(l)["answer"] for l in open(sys.argv[2])}
assert a == b
PY
# resume: nothing left to do
"$GASP" bench --target ptx-sm90 --model "$TMP/tiny.gguf" --tasks add_f32 --samples 4 --max-tokens 48 -q --resume -o "$TMP/b.jsonl"
[ "$(wc -l <"$TMP/b.jsonl")" = 4 ] && ok || bad "resume added records"
# GASP_MODEL makes llama the default backend
GASP_MODEL="$TMP/tiny.gguf" "$GASP" bench --target ptx-sm90 --tasks add_f32 --max-tokens 8 -q -o "$TMP/c.jsonl"
grep -q '"backend":"llama"' "$TMP/c.jsonl" && ok || bad "GASP_MODEL selects the llama backend"

# the article's model family through its chat template (Qwen2's ChatML), minus its weights
expect_rc 0 "qwen2 chat template" "$GASP" bench --target ptx-sm90 --model "$TMP/q.gguf" --chat --tasks add_f32 \
  --max-tokens 16 -q -o "$TMP/q.jsonl"
grep -q '"model":"q.gguf"' "$TMP/q.jsonl" && grep -q '"tokens":' "$TMP/q.jsonl" && ! grep -q infra_error "$TMP/q.jsonl" && ok || bad "qwen2 answered"
"$GASP" bench --target ptx-sm90 --model "$TMP/tiny.gguf" --chat --tasks add_f32 --max-tokens 8 -q -o "$TMP/nc.jsonl"
grep -q "no chat template" "$TMP/nc.jsonl" && ok || bad "a model without a chat template says so"

# errors, each clear, each exit 3 (the environment) at open time
expect_rc 3 "missing model" "$GASP" bench --target ptx-sm90 --model "$TMP/none.gguf" -q -o "$TMP/x.jsonl"
grep -q "not found" "$TMP/err" && ok || bad "missing model message"
head -c 4096 /dev/urandom >"$TMP/noise.gguf"
expect_rc 3 "not a GGUF" "$GASP" bench --target ptx-sm90 --model "$TMP/noise.gguf" -q -o "$TMP/x.jsonl"
grep -q "not a GGUF" "$TMP/err" && ok || bad "not-GGUF message"
head -c 100000 "$TMP/tiny.gguf" >"$TMP/cut.gguf"
expect_rc 3 "corrupt GGUF" "$GASP" bench --target ptx-sm90 --model "$TMP/cut.gguf" -q -o "$TMP/x.jsonl"
grep -q "could not load" "$TMP/err" && ok || bad "corrupt message"
# a sparse file far larger than this machine's memory: refused before loading
big=$(awk '/MemTotal|SwapTotal/ {s += $2} END {printf "%.0f", s * 4 * 1024}' /proc/meminfo)
printf 'GGUF' >"$TMP/huge.gguf" && truncate -s "$big" "$TMP/huge.gguf"
expect_rc 3 "model too large" "$GASP" bench --target ptx-sm90 --model "$TMP/huge.gguf" -q -o "$TMP/x.jsonl"
grep -q "GiB of memory is available" "$TMP/err" && ok || bad "too-large message: $(cat "$TMP/err")"
# a prompt longer than the context: an error record naming both sizes, kept for --resume to retry
"$GASP" bench --target ptx-sm90 --model "$TMP/tiny.gguf" --ctx 64 --tasks add_f32 -q -o "$TMP/o.jsonl"
grep -q 'context overflow: the prompt is [0-9]* tokens but the context for prompts holds 64' "$TMP/o.jsonl" &&
  grep -q '"infra_error":true' "$TMP/o.jsonl" && ok || bad "context overflow"

# grammar on: every answer is grammar-shaped, so extraction never fails on it. PTX: our parser reads every answer
# (ptxas may still find semantic errors, types or undefined labels, which are not the grammar's to prevent). AMD:
# every body line is an instruction (llvm-mc still judges operand counts, which the grammar does not fix)
for t in ptx-sm90 gfx1030; do
  expect_rc 0 "bench $t with --grammar on" "$GASP" bench --target "$t" --model "$TMP/tiny.gguf" --grammar on \
    --tasks add_f32 --samples 3 --max-tokens 4096 -q -o "$TMP/g-$t.jsonl"
  "$PY" - "$TMP/g-$t.jsonl" "$t" <<'PY' && ok || bad "grammar-shaped answers on $t"
import json, sys
rows, target = [json.loads(l) for l in open(sys.argv[1])], sys.argv[2]
assert len(rows) == 3
for r in rows:
    assert r["grammar"] is True and r.get("truncated") is not True, r
    assert r["class"] != "extract", (r["diagnostics"][:2], r["answer"][:300])
    if target == "ptx-sm90":
        assert r["parsed"] is True and r["class"] != "syntax", (r["class"], r["diagnostics"][:2], r["answer"][:300])
    else:
        body = r["answer"].split("```amdgcn\n", 1)[1].rsplit("```", 1)[0]
        assert all(l.startswith(("v_", "s_")) for l in body.splitlines()), body[:300]
PY
done
expect_rc 2 "grammar on a target without one" "$GASP" bench --target r300 --model "$TMP/tiny.gguf" --grammar on \
  --tasks arb_add_mul3 --max-tokens 8 -q -o "$TMP/ng.jsonl"
grep -q "has no grammar" "$TMP/err" && ok || bad "no grammar message"

# the article's experiment on the tiny model: every arm including grammar on/off, the claims table, the HTML report
expect_rc 0 "experiment with the tiny model" "$GASP" experiment -o "$TMP/exp" --model "$TMP/tiny.gguf" \
  --target ptx-sm90 --target r300 --target gfx1030 --tasks '*add*' --repair 1 --max-tokens 24
for row in "all tasks, grammar on: parsed by gasp's parser" "all tasks, grammar off: assembled" \
    "old side: R300 ARB programs, all levels | 92% (old AMD) | 0.0% (0/1)" "all tasks, after up to 1 repair turns"; do
  grep -qF "$row" "$TMP/exp/table.md" && ok || { bad "table row: $row"; cat "$TMP/exp/table.md"; }
done
[ -s "$TMP/exp/grammar.jsonl" ] && ! grep -q '"target":"r300"' "$TMP/exp/grammar.jsonl" && ok || bad "grammar arm on grammar targets only"
expect_rc 0 "report --html on the experiment" "$GASP" report "$TMP/exp/repair0.jsonl" --html "$TMP/exp/report.html"
grep -q "<svg" "$TMP/exp/report.html" && ok || bad "HTML report with charts"
finish
