# The command line: help for every subcommand, exit codes for misuse, the task listing.
. "$(dirname "$0")/lib.sh"
expect_rc 0 "gasp --help" "$GASP" --help
grep -q "bench" "$TMP/out" && ok || bad "--help lists bench"
expect_rc 2 "no command" "$GASP"
expect_rc 2 "unknown command" "$GASP" frobnicate
grep -q "not a gasp command" "$TMP/err" && ok || bad "unknown command message"
for c in tasks targets prompt check asm run bench report throughput experiment; do
  expect_rc 0 "$c --help" "$GASP" $c --help
  grep -q "^usage: gasp $c" "$TMP/out" && ok || bad "$c --help prints usage"
  grep -q "exit codes" "$TMP/out" && ok || bad "$c --help documents exit codes"
done
expect_rc 2 "unknown option" "$GASP" tasks --frob
expect_rc 2 "missing option value" "$GASP" bench --target
expect_rc 2 "unknown target" "$GASP" check --target sm_99 /dev/null
grep -q "ptx-sm90" "$TMP/err" && ok || bad "unknown target lists targets"
expect_rc 0 "tasks" "$GASP" tasks
n=$(wc -l <"$TMP/out")
[ "$n" -ge 40 ] && ok || bad "at least 40 tasks listed ($n)"
grep -qE '^vector_add +L2 ' "$TMP/out" && ok || bad "vector_add listed with its level"
expect_rc 0 "tasks --json" "$GASP" tasks --json
python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' <"$TMP/out" && ok || bad "tasks --json is JSONL"
expect_rc 0 "tasks glob" "$GASP" tasks --tasks 'warp_*'
[ "$(wc -l <"$TMP/out")" -ge 3 ] && ! grep -qv '^warp_' "$TMP/out" && ok || bad "glob filters"
expect_rc 0 "prompt" "$GASP" prompt --task vector_add --target ptx-sm90
grep -q "Constraints" "$TMP/out" && grep -q "ISA facts" "$TMP/out" && ok || bad "default prompt has constraints and facts"
expect_rc 0 "prompt bare" "$GASP" prompt --task vector_add --target ptx-sm90 --variant bare
grep -q "Constraints" "$TMP/out" && bad "bare prompt has no constraints" || ok
expect_rc 2 "prompt bad variant" "$GASP" prompt --task vector_add --target ptx-sm90 --variant fancy
expect_rc 2 "prompt unknown task" "$GASP" prompt --task nope --target ptx-sm90
# a broken task file is reported with its file, line and column
mkdir -p "$TMP/tasks"
cp "$SRC/../tasks/vector_add.yaml" "$TMP/tasks/"
printf 'id: broken\nlevel: 9\ndescription: x\nparams: []\nlaunch: {block: [1]}\ncuda: x\n' >"$TMP/tasks/broken.yaml"
GASP_TASKS_DIR="$TMP/tasks" "$GASP" tasks >"$TMP/out" 2>"$TMP/err"
grep -q "broken.yaml:2:8: error: 'level' must be 0..7" "$TMP/err" && ok || { bad "bad task file located"; cat "$TMP/err"; }
grep -q "^vector_add" "$TMP/out" && ok || bad "good tasks still listed"
finish
