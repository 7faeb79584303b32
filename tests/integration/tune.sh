# gasp tune end to end on the tiny random model with a CPU target (r300 on Mesa): one round of generate ->
# verify -> keep -> prepare -> fine-tune -> measure, its records, the pairs file, an external trainer run by
# argv (no shell), and a round with nothing to learn. Random weights pass nothing: the mechanics are tested.
. "$(dirname "$0")/lib.sh"
if ! "$GASP" mkmodel -o "$TMP/tiny.gguf" >"$TMP/mk" 2>&1; then
  if grep -q "without llama.cpp" "$TMP/mk"; then echo "skipped: gasp was built without llama.cpp"; exit 77; fi
  cat "$TMP/mk"; bad "mkmodel"; finish; exit
fi
PY=$(command -v python3)
expect_rc 0 "tune --help" "$GASP" tune --help
grep -q -- "--trainer CMD" "$TMP/out" && ok || bad "tune --help names --trainer"
expect_rc 2 "tune without a target" "$GASP" tune --model "$TMP/tiny.gguf" -o "$TMP/x.gguf"
expect_rc 2 "tune with an unknown target" "$GASP" tune --model "$TMP/tiny.gguf" -o "$TMP/x.gguf" --target nope
expect_rc 3 "tune with a missing model" "$GASP" tune --model "$TMP/no.gguf" -o "$TMP/x.gguf" --target r300

# verified pairs to learn from: the reference answers of two r300 tasks, with the prompts bench builds
expect_rc 0 "reference answers" "$GASP" bench --backend reference --target r300 --tasks 'arb_c*' -q -o "$TMP/ref.jsonl"
"$PY" - "$GASP" "$TMP/ref.jsonl" "$TMP/seed.jsonl" <<'PY' && ok || bad "seed pairs"
import json, subprocess, sys
gasp, ref, out = sys.argv[1:]
rows = [json.loads(l) for l in open(ref)]
assert rows and all(r["pass"] for r in rows), rows
with open(out, "w") as f:
    for r in rows:
        p = subprocess.run([gasp, "prompt", "--task", r["task"], "--target", "r300"], capture_output=True, text=True, check=True).stdout
        f.write(json.dumps({"task": r["task"], "family": "ref", "level": r["level"], "target": "r300", "prompt": p, "completion": r["answer"]}) + "\n")
PY

expect_rc 0 "tune one round" "$GASP" tune --model "$TMP/tiny.gguf" -o "$TMP/t2.gguf" --target r300 --tasks 'arb_c*' \
  --rounds 1 --samples 2 --max-tokens 24 --pairs "$TMP/seed.jsonl" --epochs 1 --lr 1e-3 --threads 2
cp "$TMP/out" "$TMP/table"
grep -q "^round" "$TMP/table" && grep -q "^1 *r300" "$TMP/table" && ok || bad "round table: $(cat "$TMP/table")"
"$PY" - "$TMP" <<'PY' && ok || bad "tune records"
import json, os, sys
d = sys.argv[1]
rows = [json.loads(l) for l in open(d + "/t2.tune.jsonl")]
assert len(rows) == 1, rows
r = rows[0]
ntasks = len({json.loads(l)["task"] for l in open(d + "/ref.jsonl")})
for side in ("before", "after"):
    assert r[side]["candidates"] == 2 * ntasks, r
    assert 0 <= r[side]["passed"] <= r[side]["candidates"]
    assert abs(r[side]["pass_rate"] - r[side]["passed"] / r[side]["candidates"]) < 1e-9
assert abs(r["lift"] - (r["after"]["pass_rate"] - r["before"]["pass_rate"])) < 1e-9
assert r["trained"] is True and r["samples_trained"] >= ntasks, r
assert r["loss"]["after"] < r["loss"]["before"], r["loss"]
assert r["model_after"].endswith("model-1.gguf") and os.path.exists(r["model_after"]), r
assert os.path.getsize(d + "/t2.gguf") == os.path.getsize(r["model_after"])
# the pairs file holds exactly the passing answers of the first bench run, as corpus-shaped pairs
bench0 = [json.loads(l) for l in open(d + "/t2.tune/bench-0.jsonl")]
pairs = [json.loads(l) for l in open(d + "/t2.pairs.jsonl")]
assert len(bench0) == 2 * ntasks
assert sum(1 for p in pairs if p["round"] == 0) == len({(b["task"], b["answer"]) for b in bench0 if b["pass"]})
assert all(set(p) >= {"task", "target", "prompt", "completion", "level"} for p in pairs)
PY

# an external trainer: argv words, no shell; it gets --model, --data and -o appended
cat >"$TMP/fake-trainer.sh" <<'SH'
#!/bin/bash
printf '%s\n' "$@" >"$(dirname "$0")/trainer-args"
while [ $# -gt 0 ]; do case "$1" in --model) m="$2"; shift;; -o) o="$2"; shift;; esac; shift; done
cp "$m" "$o"
SH
chmod +x "$TMP/fake-trainer.sh"
expect_rc 0 "tune with --trainer" "$GASP" tune --model "$TMP/tiny.gguf" -o "$TMP/t3.gguf" --target r300 --tasks arb_clamp \
  --samples 1 --max-tokens 8 --pairs "$TMP/seed.jsonl" --trainer "$TMP/fake-trainer.sh --flag a;b"
"$PY" - "$TMP" <<'PY' && ok || bad "trainer argv"
import sys
d = sys.argv[1]
a = open(d + "/trainer-args").read().split("\n")[:-1]
assert a[:2] == ["--flag", "a;b"], a
assert a[2] == "--model" and a[3].endswith("tiny.gguf") and a[4] == "--data" and a[5].endswith("t3.tune/prep-1") and a[6] == "-o", a
PY
# --pairs-only: the trainer's data is the given pairs alone (two seed pairs, two samples)
expect_rc 2 "--level out of range" "$GASP" tune --model "$TMP/tiny.gguf" -o "$TMP/t5.gguf" --target r300 --level 9
expect_rc 2 "--pairs-only without --pairs" "$GASP" tune --model "$TMP/tiny.gguf" -o "$TMP/t5.gguf" --target r300 --pairs-only
expect_rc 0 "tune --pairs-only" "$GASP" tune --model "$TMP/tiny.gguf" -o "$TMP/t6.gguf" --target r300 --tasks arb_clamp \
  --samples 1 --max-tokens 8 --pairs "$TMP/seed.jsonl" --pairs-only --trainer "$TMP/fake-trainer.sh"
"$PY" - "$TMP" <<'PY' && ok || bad "--pairs-only trains on the given pairs"
import json, sys
d = sys.argv[1]
ix = json.load(open(d + "/t6.tune/prep-1/index.json"))
assert len(ix["samples"]) == 2, ix["samples"]
PY
# nothing passes and no --pairs: nothing to learn, the model is kept and the record says so
expect_rc 0 "tune with nothing to learn" "$GASP" tune --model "$TMP/tiny.gguf" -o "$TMP/t4.gguf" --target r300 \
  --tasks arb_clamp --samples 1 --max-tokens 8
grep -q '"trained":false' "$TMP/t4.tune.jsonl" && grep -q "no pair to learn" "$TMP/t4.tune.jsonl" && cmp -s "$TMP/tiny.gguf" "$TMP/t4.gguf" &&
  ok || bad "no-pair round: $(cat "$TMP/t4.tune.jsonl")"
finish
