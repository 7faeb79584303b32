# gasp bench end to end: the reference backend over the whole suite (every task must pass where a GPU is
# here, and be recorded as skipped, never passed, where none is), resume after an interruption and after
# a torn line, the files backend, the report.
. "$(dirname "$0")/lib.sh"
D="$SRC/data"
ntasks=$("$GASP" tasks --target ptx-sm90 | wc -l)
expect_rc 0 "bench reference" "$GASP" bench --target ptx-sm90 --backend reference -q -o "$TMP/r.jsonl"
n=$(wc -l <"$TMP/r.jsonl")
[ "$n" = "$ntasks" ] && ok || bad "one record per task ($n vs $ntasks)"
if gpu_here; then
  npass=$(grep -c '"class":"pass"' "$TMP/r.jsonl")
  [ "$npass" = "$ntasks" ] && ok || { bad "every task passes with its own reference ($npass/$ntasks)"; grep -v '"class":"pass"' "$TMP/r.jsonl" | cut -c1-300; }
else
  echo "note: no GPU here; checking that the run stage is recorded as skipped"
  nskip=$(grep -c '"class":"skipped","pass":false,"gpu_ran":false' "$TMP/r.jsonl")
  [ "$nskip" = "$ntasks" ] && ok || { bad "every record skipped at the run stage ($nskip/$ntasks)"; grep -v skipped "$TMP/r.jsonl" | cut -c1-300; }
  grep -q '"class":"pass"' "$TMP/r.jsonl" && bad "a pass without a GPU" || ok
  grep -q '"stage":"assemble"' "$TMP/r.jsonl" && ok || bad "stage assemble recorded"
fi
# resume: nothing left to do
expect_rc 0 "resume of a finished run" "$GASP" bench --target ptx-sm90 --backend reference -q --resume -o "$TMP/r.jsonl"
[ "$(wc -l <"$TMP/r.jsonl")" = "$ntasks" ] && ok || bad "resume added records to a finished run"
# interrupted run, then resume: every task exactly once
"$GASP" bench --target ptx-sm90 --backend reference -q -o "$TMP/i.jsonl" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || [ $rc = 0 ] && ok || bad "interrupted bench exits 130 (got $rc)"
part=$(wc -l <"$TMP/i.jsonl")
printf '{"task":"torn' >>"$TMP/i.jsonl"
expect_rc 0 "resume after interrupt" "$GASP" bench --target ptx-sm90 --backend reference -q --resume -o "$TMP/i.jsonl"
dups=$(python3 - "$TMP/i.jsonl" <<'PY'
import json, sys, collections
keys = collections.Counter()
bad = 0
for line in open(sys.argv[1]):
    try:
        o = json.loads(line)
    except ValueError:
        bad += 1
        continue
    keys[(o["task"], o["sample"])] += 1
print(len(keys), max(keys.values()), bad)
PY
)
[ "$dups" = "$ntasks 1 1" ] && ok || bad "after resume: tasks, max copies, torn lines = $dups (had $part before)"
expect_rc 0 "report" "$GASP" report "$TMP/i.jsonl"
grep -q "^all " "$TMP/out" && grep -q "not valid records" "$TMP/out" && ok || bad "report table and torn-line note"
expect_rc 3 "report of a missing file" "$GASP" report "$TMP/nope.jsonl"
# files backend: a directory and a JSONL file
mkdir -p "$TMP/answers"
cp "$D/vector_add_good.ptx" "$TMP/answers/vector_add.0.txt"
cp "$D/answer_bad.md" "$TMP/answers/vector_add.1.txt"
expect_rc 0 "files backend (dir)" "$GASP" bench --target ptx-sm90 --backend files --answers "$TMP/answers" --tasks vector_add --samples 3 -q -o "$TMP/f.jsonl"
python3 - "$TMP/f.jsonl" <<'PY' && ok || bad "files backend classes"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {r["sample"]: r for r in rows}
assert len(rows) == 3, rows
assert by[0]["class"] in ("pass", "skipped"), by[0]["class"]
assert by[1]["class"] == "range" and by[1]["diagnostics"][0]["line"] == 23, by[1]
assert by[2]["class"] == "error" and "no answer file" in by[2]["diagnostics"][0]["message"], by[2]
assert all(r["backend"] == "files" for r in rows)
PY
python3 -c 'import json; print(json.dumps({"task": "add_f32", "sample": 0, "answer": "```ptx\nadd.f32 %d, %a, %b;\n```"}))' >"$TMP/a.jsonl"
expect_rc 0 "files backend (jsonl)" "$GASP" bench --target ptx-sm90 --backend files --answers "$TMP/a.jsonl" --tasks add_f32 -q -o "$TMP/g.jsonl"
grep -qE '"class":"(pass|skipped)"' "$TMP/g.jsonl" && ok || bad "snippet answer from JSONL"
expect_rc 2 "files backend without --answers" "$GASP" bench --target ptx-sm90 --backend files -o "$TMP/x.jsonl"
expect_rc 2 "unknown backend" "$GASP" bench --target ptx-sm90 --backend nope -o "$TMP/x.jsonl"
finish
