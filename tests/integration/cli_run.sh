# gasp run from the command line: verdicts, JSON, exit codes; without a GPU the run is skipped (exit 4).
. "$(dirname "$0")/lib.sh"
D="$SRC/data"
expect_rc 2 "run without a task" "$GASP" run --target ptx-sm90 "$D/vector_add_good.ptx"
expect_rc 2 "run with an unknown task" "$GASP" run --target ptx-sm90 --task nope "$D/vector_add_good.ptx"
expect_rc 1 "a bad answer fails before the GPU" "$GASP" run --target ptx-sm90 --task vector_add "$D/answer_bad.md"
grep -q "^range: line 23 col 21" "$TMP/out" && ok || { bad "verdict names the class and position"; cat "$TMP/out"; }
GASP_NO_GPU=1 "$GASP" run --target ptx-sm90 --task vector_add "$D/vector_add_good.ptx" >"$TMP/out" 2>"$TMP/err"
rc=$?; [ $rc = 4 ] && grep -q "^skipped: GASP_NO_GPU is set" "$TMP/out" && ok || { bad "skipped without a GPU: exit $rc"; cat "$TMP/out"; }
GASP_NO_GPU=1 "$GASP" run --target ptx-sm90 --task vector_add --json "$D/vector_add_good.ptx" >"$TMP/out" 2>"$TMP/err"
python3 -c 'import json,sys; o=json.load(sys.stdin); assert o["class"]=="skipped" and not o["pass"] and o["stage"]=="assemble"' <"$TMP/out" && ok || bad "--json record"
if gpu_here; then
  expect_rc 0 "good answer passes on the GPU" "$GASP" run --target ptx-sm90 --task vector_add "$D/vector_add_good.ptx"
  grep -q "^pass" "$TMP/out" && ok || bad "pass verdict"
  sed s/sm_90/sm_89/ "$D/vector_add_good.ptx" >"$TMP/va89.ptx"
  expect_rc 4 "sm_89 cannot run on this GPU" "$GASP" run --target ptx-sm89 --task vector_add "$TMP/va89.ptx"
else
  echo "note: no GPU here; the GPU verdicts are covered by tests/gpu on the GPU machine"
fi
finish
