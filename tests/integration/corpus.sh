# gasp corpus end to end on the CPU targets: a small generated set goes through `corpus build` for gfx1030 (the AMD
# emulator) and r300 (Mesa); every pair written is verified, its prompt is exactly `gasp prompt`'s, its completion
# passes `gasp run` for that task; a deliberately wrong OpenCL reference is not admitted; a PTX build without a GPU
# refuses to write pairs unless --allow-unverified; repair pairs from mutants gasp judges wrong. Skipped (77) without
# LLVM 19.
. "$(dirname "$0")/lib.sh"
LLVM=${GASP_LLVM_BIN:-/usr/lib/llvm-19/bin}
for t in clang llvm-mc ld.lld; do
  [ -x "$LLVM/$t" ] || { echo "skip: $LLVM/$t missing (apt-get install llvm-19 lld-19 clang-19)"; exit 77; }
done
command -v python3 >/dev/null || { echo "skip: python3 missing (used to read the JSONL)"; exit 77; }
D="$TMP/tasks"
expect_rc 0 "corpus gen" "$GASP" corpus gen --seed 5 --count 20 -o "$D"
grep -q "wrote 20 tasks" "$TMP/out" && ok || bad "gen reports 20 tasks: $(cat "$TMP/out")"
expect_rc 0 "corpus gen --families arb" "$GASP" corpus gen --seed 5 --count 6 --families arb -o "$TMP/arbtasks"
expect_rc 0 "corpus gen --help" "$GASP" corpus gen --help
expect_rc 0 "corpus build --help" "$GASP" corpus build --help
expect_rc 2 "corpus build without --target" "$GASP" corpus build --tasks-dir "$D" -o "$TMP/x.jsonl"
expect_rc 2 "corpus gen with an unknown family" "$GASP" corpus gen --families ew_op,nope -o "$TMP/nope"

# pairs.py FILE TARGET: every line verified, well-formed; prints the count and writes each completion to TMP/c.<task>
cat >"$TMP/pairs.py" <<'PY'
import json, sys
n = 0
for line in open(sys.argv[1]):
    p = json.loads(line)
    assert p["verified"] is True, p["task"]
    assert p["target"] == sys.argv[2]
    assert p["checks"]["stages"]["verify"] == "pass" and p["checks"]["class"] == "pass", p["checks"]
    assert p["completion"].startswith("```") and p["completion"].endswith("```"), p["task"]
    assert p["family"] in ("ew_op", "ew_seq", "ew_kernel", "ew_gridstride", "arb", "reduce", "scan", "transpose", "loop", "ew_idiom"), p["family"]
    open(sys.argv[3] + "/c." + p["task"], "w").write(p["completion"])
    open(sys.argv[3] + "/p." + p["task"], "w").write(p["prompt"])
    n += 1
print(n)
PY
for T in gfx1030 r300; do
  mkdir -p "$TMP/$T"
  TD="$D"; [ $T = r300 ] && TD="$TMP/arbtasks"
  expect_rc 0 "corpus build $T" "$GASP" corpus build --target $T --tasks-dir "$TD" -o "$TMP/$T.jsonl" --workers 2 -q
  n=$(python3 "$TMP/pairs.py" "$TMP/$T.jsonl" $T "$TMP/$T" 2>"$TMP/err") || { bad "$T pairs well-formed: $(tail -3 "$TMP/err")"; n=0; }
  # the tasks the target takes, and how many passed in the results file: each pass is one pair
  passes=$(grep -c '"pass":true' "$TMP/$T.jsonl.results.jsonl")
  [ "$n" -ge 3 ] && [ "$n" = "$passes" ] && ok || bad "$T: $n pairs, $passes passes"
  # a pair's prompt is gasp prompt's and its completion passes gasp run
  for f in $(ls "$TMP/$T"/c.* | head -3); do
    task=${f##*/c.}
    GASP_TASKS_DIR="$TD" "$GASP" prompt --task "$task" --target $T >"$TMP/prompt" 2>/dev/null
    printf '%s' "$(cat "$TMP/prompt")" >"$TMP/prompt.trim"; printf '%s' "$(cat "$TMP/$T/p.$task")" >"$TMP/pair.trim"
    cmp -s "$TMP/prompt.trim" "$TMP/pair.trim" && ok || bad "$T $task: the pair's prompt is gasp prompt's"
    expect_rc 0 "$T $task: the completion passes gasp run" env GASP_TASKS_DIR="$TD" "$GASP" run --target $T --task "$task" "$f"
  done
done

# other wordings of the verified pairs: the completion unchanged, the prompt gasp's own for a reworded task, other
# register names on AMD (its answer reads v2, v3, ... in order) but never where the answer names them (PTX)
expect_rc 0 "corpus reword --help" "$GASP" corpus reword --help
expect_rc 2 "corpus reword --wordings 9" "$GASP" corpus reword --tasks-dir "$D" --wordings 9 -o "$TMP/rw.jsonl" "$TMP/gfx1030.jsonl"
expect_rc 0 "corpus reword" "$GASP" corpus reword --tasks-dir "$D" --wordings 3 --rename -o "$TMP/rw.jsonl" "$TMP/gfx1030.jsonl"
# a PTX-shaped pair of the same task, whose completion names its registers: reworded without renaming
python3 - "$TMP/gfx1030.jsonl" "$TMP/ptxlike.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    p = json.loads(line)
    if p["level"] == 1:
        p["target"] = "ptx-sm90"
        p["completion"] = "```ptx\n// %" + " %".join(["a", "b", "c", "d", "x", "y", "r", "u", "v", "in0", "x0", "ax", "src", "res", "dst", "out", "o", "z"]) + "\n```"
        open(sys.argv[2], "w").write(json.dumps(p) + "\n")
        break
PY
expect_rc 0 "corpus reword, a pair naming its registers" "$GASP" corpus reword --tasks-dir "$D" --wordings 3 --rename -o "$TMP/rwp.jsonl" "$TMP/ptxlike.jsonl"
python3 - "$TMP/gfx1030.jsonl" "$TMP/rw.jsonl" "$TMP/rwp.jsonl" "$D" <<'PY' && ok || bad "reworded pairs: same completions, other prompts, names only where the answer allows"
import json, re, sys
orig = {p["task"]: p for p in map(json.loads, open(sys.argv[1]))}
rw = [json.loads(l) for l in open(sys.argv[2])]
by = {}
for p in rw:
    by.setdefault(p["task"], []).append(p)
    o = orig[p["task"]]
    assert p["completion"] == o["completion"] and p["verified"] is True and p["checks"] == o["checks"], p["task"]
# element-wise snippets and kernels take other wordings; reductions, scans, transposes and loops keep their one
snip = [t for t in orig if "snippet: true" in open(sys.argv[4] + "/" + t + ".yaml").read()]
kern = [t for t in orig if orig[t]["family"] in ("ew_kernel", "ew_gridstride")]
assert snip and kern and len(snip) + len(kern) < len(orig), (len(snip), len(kern), len(orig))
for t, ps in by.items():
    assert [p["wording"] for p in ps][0] == 0 and ps[0]["prompt"] == orig[t]["prompt"]
    assert len(ps) == (3 if t in snip or t in kern else 1), (t, len(ps))
    assert len({p["prompt"] for p in ps}) == len(ps), t
# snippets renamed (AMD reads v2, v3, ... in order), kernels never (a kernel's answer names its parameters)
regs = lambda pr: re.search(r"the inputs are (%\w+ = v2 .*?);", pr).group(1)
renamed = sum(regs(p["prompt"]) != regs(orig[p["task"]]["prompt"]) for p in rw if p["wording"] and p["task"] in snip)
assert renamed == sum(1 for p in rw if p["wording"] and p["task"] in snip), renamed
for p in rw:
    if p["wording"] and p["task"] in kern:
        pre = lambda pr: pr.split("Constraints:")[1]
        assert pre(p["prompt"]) == pre(orig[p["task"]]["prompt"]), p["task"]
ptx = [json.loads(l) for l in open(sys.argv[3])]
assert len(ptx) == 3 and len({p["prompt"] for p in ptx}) == 3
# the pair's own prompt (the AMD one it was made with) is built again as gasp prompt builds it for its target, and the
# task's own names (the AMD prompt's "%a = v2 (f32)") are the ones each PTX wording's semantics line gives
amd = next(p for p in orig.values() if p["level"] == 1)
keep = set(re.findall(r"%(\w+) (?:=|in) v\d+ \(\w+\)", amd["prompt"]))
assert keep, amd["prompt"]
assert ptx[0]["wording"] == 0 and "```ptx" in ptx[0]["prompt"] and "- Semantics:" in ptx[0]["prompt"], ptx[0]["prompt"]
for p in ptx:
    sem = p["prompt"].split("- Semantics:")[1].split("\n")[0]
    assert set(re.findall(r"%(\w+) \(\.", sem)) == keep, (keep, sem)
PY

# --drop-permuted: a near set's pairs (the completion does not matter to reword) lose exactly those whose task is a
# benchmark computation with inputs of one type exchanged (fma.f32 b c a, sub.f32 b a, ...), and keep the rest
expect_rc 0 "corpus gen --families ew_near" "$GASP" corpus gen --seed 2 --count 80 --families ew_near -o "$TMP/near"
python3 - "$TMP/near" >"$TMP/near.jsonl" <<'PY'
import json, os, sys
for f in sorted(os.listdir(sys.argv[1])):
    if f.endswith(".yaml"):
        print(json.dumps({"task": f[:-5], "target": "gfx1030", "prompt": "p", "completion": "```amdgcn\n```", "verified": True}))
PY
expect_rc 0 "corpus reword --drop-permuted" "$GASP" corpus reword --tasks-dir "$TMP/near" --wordings 1 --drop-permuted -o "$TMP/nearw.jsonl" "$TMP/near.jsonl"
python3 - "$TMP/near" "$TMP/nearw.jsonl" <<'PY' && ok || bad "--drop-permuted leaves out the permuted benchmark computations, only them"
import json, re, sys
kept = {json.loads(l)["task"] for l in open(sys.argv[2])}
perm = re.compile(r'^map: "\((fma\.(f32|s32) (\w+) (\w+) (\w+)|sub\.f32 (\w+) (\w+)|shl\.u32 (\w+) (\w+))\)"$', re.M)
names = lambda y: re.findall(r"\{name: (\w+), type: \w+, role: in", y)
n_perm = 0
for t in [l for l in __import__("os").listdir(sys.argv[1]) if l.endswith(".yaml")]:
    y = open(sys.argv[1] + "/" + t).read()
    m = perm.search(y)
    # a whole-map fma/sub/shl over the inputs in an order other than the parameters'
    is_perm = bool(m) and [g for g in m.groups()[2:] if g] != names(y)[:len([g for g in m.groups()[2:] if g])]
    n_perm += is_perm
    assert (t[:-5] in kept) != is_perm, (t, is_perm)
assert n_perm >= 3 and len(kept) >= 40, (n_perm, len(kept))
PY
grep -q "pairs left out: a benchmark computation" "$TMP/out" && ok || bad "reword reports what it left out: $(cat "$TMP/out")"

# the array family's kernels: verified by the emulator like any kernel, with their own parameter names
expect_rc 0 "corpus gen --families ew_array" "$GASP" corpus gen --seed 3 --count 8 --families ew_array -o "$TMP/arr"
expect_rc 0 "corpus build gfx1030, ew_array" "$GASP" corpus build --target gfx1030 --tasks-dir "$TMP/arr" -o "$TMP/arr.jsonl" --workers 2 -q
python3 - "$TMP/arr.jsonl" <<'PY' && ok || bad "ew_array kernels pass on gfx1030 and name their parameters otherwise than x, y, z -> out"
import json, re, sys
ps = [json.loads(l) for l in open(sys.argv[1])]
assert len(ps) >= 5 and all(p["verified"] is True and p["family"] == "ew_array" for p in ps), len(ps)
outs = {re.search(r"write to (\w+)\.", p["prompt"]).group(1) for p in ps}
assert outs - {"out"}, outs
PY

# the order family: its snippets pass on gfx1030 like any other; some are benchmark L1 computations with the inputs
# exchanged, which --drop-permuted leaves out and a plain reword keeps (tools/train drops them: tools/train/permuted.sh)
expect_rc 0 "corpus gen --families ew_order" "$GASP" corpus gen --seed 6 --count 40 --families ew_order -o "$TMP/ord"
expect_rc 0 "corpus build gfx1030, ew_order" "$GASP" corpus build --target gfx1030 --tasks-dir "$TMP/ord" -o "$TMP/ord.jsonl" --workers 2 -q
expect_rc 0 "corpus reword ew_order" "$GASP" corpus reword --tasks-dir "$TMP/ord" --wordings 1 -q -o "$TMP/ord1.jsonl" "$TMP/ord.jsonl"
expect_rc 0 "corpus reword ew_order --drop-permuted" "$GASP" corpus reword --tasks-dir "$TMP/ord" --wordings 1 --drop-permuted -q -o "$TMP/ord2.jsonl" "$TMP/ord.jsonl"
python3 - "$TMP/ord.jsonl" "$TMP/ord1.jsonl" "$TMP/ord2.jsonl" <<'PY' && ok || bad "ew_order pairs pass on gfx1030; --drop-permuted leaves out some, a plain reword none"
import json, sys
ps, all1, drop = ([json.loads(l) for l in open(f)] for f in sys.argv[1:])
# no f64 on the emulator: the f64 forms (a tenth of the float ones) are the only ones that may fail
assert len(ps) >= 34 and all(p["verified"] is True and p["family"] == "ew_order" for p in ps), len(ps)
assert len(all1) == len(ps) and 0 < len(ps) - len(drop) < len(ps), (len(ps), len(all1), len(drop))
PY

# repair pairs: mutants of the verified gfx1030 pairs, judged by gasp bench; only the failed ones enter, each with the
# repair prompt quoting the mutant and its verdict, completed by the verified answer
expect_rc 0 "corpus repair --help" "$GASP" corpus repair --help
expect_rc 2 "corpus repair without pairs" "$GASP" corpus repair --target gfx1030 --tasks-dir "$D" -o "$TMP/rep.jsonl"
expect_rc 2 "corpus repair --mutants 17" "$GASP" corpus repair --target gfx1030 --tasks-dir "$D" -o "$TMP/rep.jsonl" --mutants 17 "$TMP/gfx1030.jsonl"
expect_rc 0 "corpus repair gfx1030" "$GASP" corpus repair --target gfx1030 --tasks-dir "$D" -o "$TMP/rep.jsonl" --mutants 4 --workers 2 "$TMP/gfx1030.jsonl"
grep -q "repair pairs written" "$TMP/out" && grep -q "^drop " "$TMP/out" && ok || bad "corpus repair's table: $(cat "$TMP/out")"
python3 - "$TMP/gfx1030.jsonl" "$TMP/rep.jsonl" "$TMP/rep" <<'PY' && ok || bad "repair pairs: a failed mutant quoted, its verdict, the verified completion"
import json, os, sys
orig = {p["task"]: p for p in map(json.loads, open(sys.argv[1]))}
reps = [json.loads(l) for l in open(sys.argv[2])]
muts = {(m["task"], m["sample"]): m for m in map(json.loads, open(sys.argv[2] + ".mutants.jsonl"))}
recs = {(r["task"], r["sample"]): r for r in map(json.loads, open(sys.argv[2] + ".results.jsonl"))}
assert len(reps) >= 10 and len({r["repair"]["kind"] for r in reps}) >= 4, (len(reps), {r["repair"]["kind"] for r in reps})
os.makedirs(sys.argv[3], exist_ok=True)
quoted = set()
for i, r in enumerate(reps):
    o = orig[r["task"]]
    assert r["completion"] == o["completion"] and r["verified"] is True and r["target"] == "gfx1030"
    # the task's own prompt first, then the mutant as written (its own fence, not a second one) and its verdict
    assert r["prompt"].startswith(o["prompt"]), r["task"]
    ans = r["prompt"].split("Your previous answer was:\n", 1)[1].split("\nIt failed:\n", 1)[0]
    assert ans.startswith("```amdgcn\n") and ans != r["completion"] and "```\n```" not in r["prompt"], ans
    key = next(k for k, m in muts.items() if k[0] == r["task"] and m["answer"].rstrip("\n") == ans.rstrip("\n"))
    rec = recs[key]
    assert rec["pass"] is False and rec["class"] == r["repair"]["class"] and muts[key]["kind"] == r["repair"]["kind"]
    assert r["prompt"].split("\nIt failed:\n", 1)[1].startswith("class %s at the %s stage" % (rec["class"], rec["stage"]))
    quoted.add(key)
    if i < 4:
        open("%s/m%d.%s" % (sys.argv[3], i, r["task"]), "w").write(muts[key]["answer"])
# every mutant gasp passed stays out, every one it failed is in
for k, rec in recs.items():
    if k in muts:
        assert (k in quoted) == (rec["pass"] is False and rec["class"] not in ("skipped", "unsupported", "error")), (k, rec["class"])
assert any(rec["pass"] for rec in recs.values()), "some mutants are equivalent (swapped operands of an add)"
PY
# a quoted mutant fails gasp run on its own: the verdict is the pipeline's, not the repair command's
for f in "$TMP"/rep/m*; do
  task=${f##*/m[0-9].}
  expect_rc 1 "mutant of $task fails gasp run" env GASP_TASKS_DIR="$D" "$GASP" run --target gfx1030 --task "$task" "$f"
done
cp "$TMP/rep.jsonl" "$TMP/rep.first"
expect_rc 0 "corpus repair --resume" "$GASP" corpus repair --target gfx1030 --tasks-dir "$D" -o "$TMP/rep.jsonl" --mutants 4 --resume -q "$TMP/gfx1030.jsonl"
cmp -s "$TMP/rep.jsonl" "$TMP/rep.first" && ok || bad "a resumed repair run writes the same pairs"

# a wrong reference is not admitted: one OpenCL reference made to add 1 to every result
victim=$(ls "$TMP/gfx1030"/c.* | head -1); victim=${victim##*/c.}
sed -i 's/\(if (i < n) [a-z]*\[i\] = \)/\11 + /; s/\(    [a-z]*\[i\] = \)/\11 + /' "$D/amdgcn/$victim.cl"
grep -q '= 1 + ' "$D/amdgcn/$victim.cl" && ok || bad "the mutation applied to $victim.cl"
"$GASP" corpus build --target gfx1030 --tasks-dir "$D" -o "$TMP/m.jsonl" -q --tasks "$victim" >"$TMP/out" 2>&1
grep -q "\"task\":\"$victim\"" "$TMP/m.jsonl" && bad "the wrong reference of $victim entered the corpus" || ok
grep -q '"class":"wrong"' "$TMP/m.jsonl.results.jsonl" && ok || bad "the wrong reference is classified wrong: $(cut -c1-300 "$TMP/m.jsonl.results.jsonl")"

# AMD answers that are short snippets where clang's would be whole kernels, each verified by the emulator on GFX9
# (wave64) and GFX10 (wave32), src/target/amdgcn/amd_snippet.c:
#   div  integer division and remainder by a constant: a magic-number multiply
#   fdiv f32 division and IEEE sqrt: clang's refined sequences, where v_sqrt_f32 gives the other
#        faithful rounding (the GPU's 1 ulp)
expect_rc 0 "corpus gen for division" "$GASP" corpus gen --seed 5 --count 1500 --families ew_op,ew_idiom -o "$TMP/dall"
for c in 'div;(\(div\|rem\)\.[su]32;16;8;v_mul_hi_' 'fdiv;.*(\(div\|sqrt\)\.f32;12;6;v_div_fixup_f32\|v_cmp_class_f32'; do
  IFS=';' read -r n re most least marker <<<"$c"
  mkdir -p "$TMP/$n/amdgcn" && cp "$TMP/dall/amdgcn/gasp_amd.h" "$TMP/$n/amdgcn/"
  k=0
  for f in $(grep -l "map: \"$re" "$TMP/dall"/*.yaml | head -"$most"); do
    b=${f##*/}; b=${b%.yaml}
    cp "$f" "$TMP/$n/" && cp "$TMP/dall/amdgcn/$b.cl" "$TMP/$n/amdgcn/" && k=$((k + 1))
  done
  [ "$k" -ge "$least" ] && ok || bad "$n tasks generated: $k"
  for T in gfx900 gfx1030; do
    expect_rc 0 "corpus build $T, $n" "$GASP" corpus build --target $T --tasks-dir "$TMP/$n" -o "$TMP/$n-$T.jsonl" --workers 2 -q
    python3 - "$TMP/$n-$T.jsonl" "$k" "$marker" <<'PY' && ok || bad "$T: every $n task a verified snippet pair"
import json, sys
ps = [json.loads(l) for l in open(sys.argv[1])]
assert len(ps) == int(sys.argv[2]), (len(ps), sys.argv[2])
marks = sys.argv[3].split("\\|")
assert all(p["verified"] is True and ".amdhsa_kernel" not in p["completion"] for p in ps)
assert all(any(m in p["completion"] for m in marks) for p in ps), [p["completion"][:200] for p in ps]
PY
  done
done

# PTX without a GPU: nothing is written unless --allow-unverified (then marked unverified, assembled by ptxas)
if [ -n "${GASP_NO_GPU:-}" ] || ! gpu_here; then
  if command -v "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" >/dev/null 2>&1; then
    expect_rc 4 "ptx build refuses without a GPU" "$GASP" corpus build --target ptx-sm90 --tasks-dir "$D" -o "$TMP/p.jsonl" --tasks 'g_ew_op_*' -q
    [ -s "$TMP/p.jsonl" ] && bad "pairs written without verification" || ok
    expect_rc 0 "ptx build --allow-unverified" "$GASP" corpus build --target ptx-sm90 --tasks-dir "$D" -o "$TMP/p.jsonl" --tasks 'g_ew_op_*' -q --resume --allow-unverified
    python3 - "$TMP/p.jsonl" <<'PY' && ok || bad "unverified PTX pairs are marked and assembled"
import json, sys
ps = [json.loads(l) for l in open(sys.argv[1])]
assert ps and all(p["verified"] is False and p["checks"]["stages"]["assemble"] == "pass" and p["checks"]["stages"]["run"] == "skipped" for p in ps)
assert all(p["completion"].startswith("```ptx\n") for p in ps)
PY
  else
    echo "note: nvcc missing: the PTX part is left out"
  fi
fi
finish
