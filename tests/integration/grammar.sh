# gasp grammar and gasp check --parse-only: the grammar of a kernel and of a snippet task (PTX and AMD), errors
# for a task of another ISA, and our parser's diagnostics with line and column on a raw answer.
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
# --form: nvcc's PTX into the grammar's spelling; --match: llama.cpp's engine on a whole answer
D="$SRC/data/ptx-nvcc"
expect_rc 0 "form of nvcc's vector_add" "$GASP" grammar --target ptx-sm90 --task vector_add --form "$D/vector_add.ptx"
grep -q '^    .reg .b32 %r<100>;$' "$TMP/out" && grep -q '^L1:$' "$TMP/out" && grep -q '^    @%p1 bra L1;$' "$TMP/out" &&
  ! grep -q 'L__BB' "$TMP/out" && ok || { bad "vector_add in the grammar's form"; cat "$TMP/out"; }
{ printf '```ptx\n'; cat "$TMP/out"; printf '```'; } >"$TMP/va.md"
if "$GASP" grammar --target ptx-sm90 --task vector_add --match "$TMP/va.md" >"$TMP/m" 2>&1; then ok
elif grep -q "without llama.cpp" "$TMP/m"; then ok  # a build without llama.cpp has no engine to ask
else bad "the grammar accepts the form"; cat "$TMP/m"; fi
expect_rc 1 "over the grammar's bounds" "$GASP" grammar --target ptx-sm90 --task translate_mandel_iter --form "$D/translate_mandel_iter.ptx"
grep -q "unsupported: more labels than the grammar's bound" "$TMP/err" && ok || bad "the reason for refusing mandel"
printf '```ptx\nadd.s32 %%d, %%a, %%b;\n```' >"$TMP/nodecl.md"
"$GASP" grammar --target ptx-sm90 --task add_s32 --match "$TMP/nodecl.md" >"$TMP/m" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "nodecl.md:2:1: the grammar refuses" "$TMP/m" && ok || { [ $rc = 3 ] && ok || bad "a snippet without the declarations refused at 2:1 (rc $rc)"; }
# the AMD grammars: a snippet's lines without memory or labels, a body with them; committed answers accepted,
# a misspelt mnemonic and wave64's vcc on wave32 refused at their line and column
expect_rc 0 "AMD snippet grammar" "$GASP" grammar --target gfx1030 --task add_f32
grep -q '^root ::= "```amdgcn\\n" code "```"$' "$TMP/out" && ! grep -q '^mem ::=' "$TMP/out" && ! grep -q '^label ::=' "$TMP/out" && ok || bad "AMD snippet: fence, no memory, no labels"
expect_rc 0 "AMD kernel grammar" "$GASP" grammar --target gfx1100 --task vector_add
grep -q '^mem ::=' "$TMP/out" && grep -q '^vopd ::= "v_dual_"' "$TMP/out" && grep -q '"s_endpgm"' "$TMP/out" && ok || bad "gfx1100 body: memory, dual issue, s_endpgm"
expect_rc 2 "ARB task refused on gfx900" "$GASP" grammar --target gfx900 --task arb_clamp
A="$SRC/data/amdgcn"
amd_match() { # amd_match WANT TARGET TASK FILE [LINE:COL]: the fenced FILE against the task's grammar
  { printf '```amdgcn\n'; cat "$4"; printf '```'; } >"$TMP/amd.md"
  "$GASP" grammar --target "$2" --task "$3" --match "$TMP/amd.md" >"$TMP/m" 2>&1
  rc=$?
  if [ $rc = 3 ] && grep -q "without llama.cpp" "$TMP/m"; then ok; return; fi
  [ $rc = "$1" ] && { [ -z "${5:-}" ] || grep -q "amd.md:$5: the grammar refuses" "$TMP/m"; } && ok || { bad "$4 on $2: rc $rc, want $1 ${5:-}"; cat "$TMP/m"; }
}
amd_match 0 gfx1030 add_f32 "$A/add_f32.snippet.s"
amd_match 0 gfx1030 vector_add "$A/vector_add.gfx1030.s"
amd_match 1 gfx1030 vector_add "$A/bad_syntax.gfx1030.s" 18:11
amd_match 1 gfx1030 vector_add "$A/bad_vcc.gfx1030.s" 8:23
amd_match 1 gfx1030 add_f32 "$A/vector_add.gfx1030.s" 2:1
finish
