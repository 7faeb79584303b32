# gasp grammar and gasp check --parse-only: the grammar of a kernel and of a snippet task, errors for a
# task of another ISA, and our parser's diagnostics with line and column on a raw answer.
. "$(dirname "$0")/lib.sh"
expect_rc 0 "kernel grammar" "$GASP" grammar --target ptx-sm90 --task saxpy
grep -q '^root ::= "```ptx\\n" code "```"$' "$TMP/out" && ok || bad "root rule"
grep -q '.visible .entry saxpy(\\n    .param .u64 x,' "$TMP/out" && ok || bad "entry and first parameter"
expect_rc 0 "sm_89 kernel grammar" "$GASP" grammar --target ptx-sm89 --task saxpy
grep -q '.target sm_89' "$TMP/out" && ok || bad "sm_89 target line"
expect_rc 0 "snippet grammar" "$GASP" grammar --target ptx-sm90 --task add_f32
grep -q '"%a"' "$TMP/out" && grep -q '"%d"' "$TMP/out" && ok || bad "snippet registers %a and %d"
grep -qF '.entry' "$TMP/out" && bad "snippet grammar has no entry" || ok
expect_rc 2 "ARB task refused" "$GASP" grammar --target ptx-sm90 --task arb_clamp
expect_rc 2 "no such task" "$GASP" grammar --target ptx-sm90 --task no_such_task
expect_rc 2 "task required" "$GASP" grammar --target ptx-sm90
expect_rc 2 "r300 has no grammar" "$GASP" grammar --target r300 --task arb_clamp
printf 'Here:\n```ptx\n.reg .f32 %%t<2>;\nmul.f32 %%t0, %%a, %%a;\nsubb.f32 %%d, %%t0, %%b;\nadd.rx.f32 %%d, %%d, 1.0;\n```\n' >"$TMP/a.md"
expect_rc 1 "parse-only finds the errors" "$GASP" check --parse-only --target ptx-sm90 --task add_f32 "$TMP/a.md"
grep -q "a.md:5:1: error: syntax: unknown instruction 'subb' (did you mean 'sub'?)" "$TMP/err" && ok || { bad "unknown opcode at 5:1"; cat "$TMP/err"; }
grep -q "a.md:6:4: error: syntax: '.rx' is not a modifier of 'add' here" "$TMP/err" && ok || { bad "bad modifier at 6:4"; cat "$TMP/err"; }
printf '```ptx\nadd.f32 %%d, %%a, %%b;\n```\n' >"$TMP/good.md"
expect_rc 0 "parse-only passes a good snippet" "$GASP" check --parse-only --target ptx-sm90 --task add_f32 "$TMP/good.md"
finish
