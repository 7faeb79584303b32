# Scale-out without a GPU, on the r300 target (Mesa's software renderer) and the reference backend: K worker
# processes write the records a single worker writes, in the same order; shards cover the work exactly once
# and merge back into the one-process file; merge reports overlaps, conflicts and missing work; mpirun -n 2
# gives the same file as one process and leaves no part behind.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
# records without what varies between runs (timings, machine), as a list: order matters
cat >"$TMP/same.py" <<'PY'
import json, sys
def load(p):
    out = []
    for l in open(p):
        r = json.loads(l)
        for k in ("timings", "speedup", "slow", "device", "tokens_per_s"): r.pop(k, None)
        out.append(r)
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
if a != b:
    print("differ: %d vs %d records" % (len(a), len(b)))
    for x, y in zip(a, b):
        if x != y: print(" first difference:", x["task"], x["sample"], "/", y["task"], y["sample"]); break
    sys.exit(1)
assert len(a) > 0
PY
same() { python3 "$TMP/same.py" "$1" "$2"; }
B=("$GASP" bench --backend reference --target r300 --samples 3 -q)
expect_rc 0 "one worker" "${B[@]}" -o one.jsonl
n=$(wc -l <one.jsonl)
[ "$n" -ge 27 ] && ok || bad "one-worker run has every (task, sample) ($n)"
grep -q '"gpu_ran":true' one.jsonl && ok || { bad "the r300 run stage ran here (Mesa)"; exit 77; }
expect_rc 0 "three workers" "${B[@]}" --workers 3 -o three.jsonl
same one.jsonl three.jsonl && ok || bad "3 workers write what 1 writes, in the same order"
expect_rc 0 "workers-per-gpu without a GPU" "${B[@]}" --workers-per-gpu 2 -o two.jsonl
same one.jsonl two.jsonl && ok || bad "--workers-per-gpu 2 writes what 1 writes"
# shards: each item in exactly one shard, and the merge is the one-process file
for i in 0 1 2; do expect_rc 0 "shard $i/3" "${B[@]}" --shard $i/3 -o s$i.jsonl; done
c0=$(wc -l <s0.jsonl); c1=$(wc -l <s1.jsonl); c2=$(wc -l <s2.jsonl)
[ $((c0 + c1 + c2)) = "$n" ] && [ "$c0" -gt 0 ] && [ "$c1" -gt 0 ] && [ "$c2" -gt 0 ] && ok || bad "shards cover the work once ($c0+$c1+$c2 vs $n)"
python3 - s0.jsonl s1.jsonl s2.jsonl <<'PY' && ok || bad "no (task, sample) in two shards"
import json, sys
seen = {}
for p in sys.argv[1:]:
    for l in open(p):
        r = json.loads(l); k = (r["task"], r["sample"], r["turn"])
        assert k not in seen, (k, seen.get(k), p)
        seen[k] = p
PY
expect_rc 0 "merge shards" "$GASP" merge s2.jsonl s0.jsonl s1.jsonl -o merged.jsonl
same one.jsonl merged.jsonl && ok || bad "merged shards equal the one-process file (order included)"
grep -q "0 duplicate(s) dropped, 0 conflict(s)" "$TMP/err" && grep -q "0 (task, sample) cell(s) missing" "$TMP/err" && ok || { bad "clean merge report"; cat "$TMP/err"; }
# overlaps: the same shard twice, and a torn line
cp s0.jsonl torn.jsonl; head -c 50 s1.jsonl >>torn.jsonl
expect_rc 0 "merge with overlap" "$GASP" merge s0.jsonl s1.jsonl s2.jsonl torn.jsonl -o m2.jsonl
same one.jsonl m2.jsonl && ok || bad "an overlapping shard is kept once"
grep -q "$c0 duplicate(s) dropped" "$TMP/err" && grep -q "1 unreadable line" "$TMP/err" && ok || { bad "overlap and torn line counted"; cat "$TMP/err"; }
# a conflict: the same key with another class
sed '1s/"class":"pass"/"class":"wrong"/' s0.jsonl >conflict.jsonl
expect_rc 1 "merge with a conflict" "$GASP" merge s0.jsonl conflict.jsonl s1.jsonl s2.jsonl -o m3.jsonl
grep -q "conflict: .* differs between 's0.jsonl' and 'conflict.jsonl'" "$TMP/err" && ok || { bad "conflict named"; cat "$TMP/err"; }
same one.jsonl m3.jsonl && ok || bad "the first input's record kept on conflict"
# missing work: a record lost from a shard shows against the grid the inputs imply; a whole shard (whole
# tasks) only against the run's own grid (--target, --samples)
head -n $((c1 - 1)) s1.jsonl >s1cut.jsonl
expect_rc 0 "merge with a record missing" "$GASP" merge s0.jsonl s1cut.jsonl s2.jsonl -o m4.jsonl
grep -q "missing: .* sample 2 " "$TMP/err" && grep -q " 1 (task, sample) cell(s) missing" "$TMP/err" && ok || { bad "a missing record reported"; cat "$TMP/err"; }
expect_rc 1 "merge --strict with missing work" "$GASP" merge --strict s0.jsonl s1cut.jsonl s2.jsonl -o m4.jsonl
expect_rc 0 "merge with a shard left out, run's grid given" "$GASP" merge --target r300 --samples 3 s0.jsonl s2.jsonl -o m4.jsonl
grep -q " $c1 (task, sample) cell(s) missing" "$TMP/err" && ok || { bad "a whole missing shard reported"; cat "$TMP/err"; }
expect_rc 0 "merge complete against the run's grid" "$GASP" merge --target r300 --samples 3 s0.jsonl s1.jsonl s2.jsonl -o m4.jsonl
grep -q " 0 (task, sample) cell(s) missing" "$TMP/err" && ok || { bad "complete against the grid"; cat "$TMP/err"; }
# an infra-error record gives way to a real one
sed '1s/"gpu_ran":true/"gpu_ran":false,"infra_error":true/;1s/"class":"pass"/"class":"error"/' s0.jsonl >infra.jsonl
expect_rc 0 "merge an infra error" "$GASP" merge infra.jsonl s0.jsonl s1.jsonl s2.jsonl -o m5.jsonl
same one.jsonl m5.jsonl && grep -q "1 infra-error record(s) superseded" "$TMP/err" && ok || { bad "infra error superseded"; cat "$TMP/err"; }
# --resume per shard: a shard that lost its last record redoes only that one
head -n $((c1 - 1)) s1.jsonl >r1.jsonl
expect_rc 0 "resume a shard" "${B[@]}" --shard 1/3 --resume -o r1.jsonl
[ "$(wc -l <r1.jsonl)" = "$c1" ] && same s1.jsonl r1.jsonl && ok || bad "resumed shard complete, nothing twice"
# an interrupt (SIGINT to the dispatcher): workers finish their item, what finished is kept, --resume completes
"$GASP" bench --backend reference --target r300 --samples 60 -q --workers 2 -o int.jsonl 2>"$TMP/int.err" &
bp=$!
sleep 0.7
kill -INT $bp
wait $bp
rc=$?
kept=$(wc -l <int.jsonl)
if [ $rc = 130 ]; then ok; else echo "scale: note: bench ended (exit $rc) before the interrupt"; fi
python3 - int.jsonl <<'PY' && ok || bad "interrupted file: valid records, none twice"
import json, sys
keys = [(r["task"], r["sample"]) for r in map(json.loads, open(sys.argv[1]))]
assert len(keys) == len(set(keys))
PY
expect_rc 0 "resume after interrupt" "$GASP" bench --backend reference --target r300 --samples 60 -q --workers 2 --resume -o int.jsonl
"$GASP" bench --backend reference --target r300 --samples 60 -q -o full.jsonl
python3 - int.jsonl full.jsonl <<'PY' && ok || bad "interrupted + resumed = one full run (as a set)"
import json, sys
def load(p):
    s = set()
    for l in open(p):
        r = json.loads(l)
        s.add((r["task"], r["sample"], r["class"], r["answer"]))
    return s
a, b = load(sys.argv[1]), load(sys.argv[2])
assert a == b, (len(a), len(b))
PY
expect_rc 2 "bad shard" "${B[@]}" --shard 3/3 -o x.jsonl
expect_rc 2 "shard with mpi" "${B[@]}" --shard 0/2 --mpi -o x.jsonl
# MPI: two ranks on this machine (root in CI needs --allow-run-as-root; 2 cores need --oversubscribe)
if command -v mpirun >/dev/null && "$GASP" bench --help | grep -q -- "--mpi"; then
  # shared memory between the ranks and the loopback for the launcher: no traffic leaves the machine
  MPI=(mpirun -n 2 --oversubscribe --allow-run-as-root --mca btl self,vader --mca oob_tcp_if_include lo)
  export OMPI_MCA_plm_rsh_agent= OMPI_MCA_btl_vader_single_copy_mechanism=none
  "${MPI[@]}" "${B[@]}" --mpi -o mpi.jsonl >"$TMP/out" 2>"$TMP/err"
  rc=$?
  if [ $rc = 0 ]; then
    ok
    same one.jsonl mpi.jsonl && ok || bad "mpirun -n 2 gives the one-process file"
    ls mpi.jsonl.part-* >/dev/null 2>&1 && bad "part files left after a clean MPI run" || ok
    # an interrupted MPI run: rank 1's part is there, rank 0's lost; --resume finishes the job
    "${B[@]}" --shard 1/2 -o mpi2.jsonl.part-1-of-2
    c=$(wc -l <mpi2.jsonl.part-1-of-2)
    "${MPI[@]}" "$GASP" bench --backend reference --target r300 --samples 3 --mpi --resume -o mpi2.jsonl >"$TMP/out" 2>"$TMP/err" && ok || { bad "mpi --resume"; cat "$TMP/err"; }
    same one.jsonl mpi2.jsonl && ok || bad "MPI resume completes the file"
    grep -q "0 duplicate(s) dropped, 0 conflict(s)" "$TMP/err" && ok || { bad "MPI resume redid nothing"; cat "$TMP/err"; }
    # --resume over a complete file: no rank redoes anything (rank 0 sends the file to the others)
    cp one.jsonl mpi3.jsonl
    "${MPI[@]}" "$GASP" bench --backend reference --target r300 --samples 3 --mpi --resume -o mpi3.jsonl >"$TMP/out" 2>"$TMP/err" && ok || bad "mpi --resume, complete"
    [ "$(grep -c '^0 record(s) written to mpi3.jsonl.part-' "$TMP/err")" = 2 ] && same one.jsonl mpi3.jsonl && ok || { bad "complete file: nothing redone"; cat "$TMP/err"; }
  else
    bad "mpirun -n 2 gasp bench --mpi: exit $rc"
    cat "$TMP/err" | head -30
  fi
else
  echo "scale: mpirun or MPI support missing; MPI part not run"
fi
finish
