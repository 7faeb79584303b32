# gasp check / asm with real ptxas: good and bad PTX, raw model answers, diagnostics with line and column,
# snippets, garbage, NUL bytes, enormous answers, a missing ptxas.
. "$(dirname "$0")/lib.sh"
D="$SRC/data"
expect_rc 0 "good PTX passes" "$GASP" check --target ptx-sm90 "$D/vector_add_good.ptx"
sed s/sm_90/sm_89/ "$D/vector_add_good.ptx" >"$TMP/va89.ptx"
expect_rc 0 "sm_89 PTX on ptx-sm89" "$GASP" check --target ptx-sm89 "$TMP/va89.ptx"
expect_rc 1 "sm_90 PTX refused by ptx-sm89" "$GASP" check --target ptx-sm89 "$D/vector_add_good.ptx"
# a model answer in markdown with two defects: %f9 outside %f<4>, and a misspelled opcode
expect_rc 1 "bad answer fails" "$GASP" check --target ptx-sm90 "$D/answer_bad.md"
grep -q "answer_bad.md:23:21: error: range: register '%f9' is outside '%f<4>'" "$TMP/err" && ok || { bad "range diagnostic at 23:21"; cat "$TMP/err"; }
grep -qE "answer_bad.md:25:[0-9]+: error: (syntax|semantic): " "$TMP/err" && ok || { bad "ptxas diagnostic mapped to line 25"; cat "$TMP/err"; }
# every line is FILE:LINE:COL: severity: class: message
grep -vqE '^[^:]+:[0-9]+:[0-9]+: (error|warning|note): [a-z-]+: ' "$TMP/err" && bad "diagnostic format" || ok
expect_rc 1 "prose only" "$GASP" check --target ptx-sm90 "$D/answer_prose.txt"
grep -q "error: extract: no PTX code found" "$TMP/err" && ok || bad "extract class"
printf 'add.f32 %%d, %%a, %%b;\n\0\0garbage\n' >"$TMP/nul.txt"
expect_rc 1 "NUL bytes" "$GASP" check --target ptx-sm90 "$TMP/nul.txt"
grep -q "nul.txt:2:1: error: extract: answer contains a NUL byte" "$TMP/err" && ok || { bad "NUL located"; cat "$TMP/err"; }
head -c 3000000 /dev/zero | tr '\0' 'x' >"$TMP/huge.txt"
expect_rc 1 "enormous answer" "$GASP" check --target ptx-sm90 "$TMP/huge.txt"
grep -q "extract: answer is" "$TMP/err" && ok || bad "oversize message"
head -c 20000 /dev/urandom >"$TMP/random.bin"
"$GASP" check --target ptx-sm90 "$TMP/random.bin" >/dev/null 2>&1
rc=$?; [ $rc = 1 ] && ok || bad "random bytes give exit 1, got $rc"
# snippets: the known-good snippet of every snippet task passes through the scaffold
for id in $("$GASP" tasks --json | python3 -c 'import json,sys
for l in sys.stdin:
  o=json.loads(l)
  if o["snippet"]: print(o["id"])'); do
  python3 - "$SRC/../tasks/$id.yaml" "$TMP/$id.ptx" <<'PY'
import sys, re
text = open(sys.argv[1]).read()
m = re.search(r'^ptx_snippet: \|\n((?:  .*\n|\n)+)', text, re.M)
open(sys.argv[2], 'w').write('' if not m else '\n'.join(l[2:] for l in m.group(1).split('\n')))
PY
  expect_rc 0 "snippet $id" "$GASP" check --target ptx-sm90 --task "$id" "$TMP/$id.ptx"
done
# a snippet with an undeclared register: the column is in the answer, not in the scaffold
printf 'Here you go:\n```ptx\nadd.f32 %%d, %%a, %%bogus;\n```\n' >"$TMP/snip.md"
expect_rc 1 "bad snippet" "$GASP" check --target ptx-sm90 --task add_f32 "$TMP/snip.md"
grep -q "snip.md:3:17: error: semantic: register '%bogus' is not declared" "$TMP/err" && ok || { bad "snippet column"; cat "$TMP/err"; }
# the entry's parameters must be the task's: count and sizes
sed 's/, .param .u32 pn)/)/; s/  ld.param.u32 %r5, \[pn\];/  mov.u32 %r5, 100;/' "$D/vector_add_good.ptx" >"$TMP/three.ptx"
expect_rc 1 "a missing parameter" "$GASP" check --target ptx-sm90 --task vector_add "$TMP/three.ptx"
grep -q "three.ptx:6:1: error: semantic: entry 'vector_add' declares 3 parameter(s); the task passes 4, in this order: a, b, c, n" "$TMP/err" && ok || { bad "parameter count diagnostic"; cat "$TMP/err"; }
sed 's/.param .u64 pc/.param .u32 pc/' "$D/vector_add_good.ptx" >"$TMP/narrow.ptx"
expect_rc 1 "a pointer declared 32-bit" "$GASP" check --target ptx-sm90 --task vector_add "$TMP/narrow.ptx"
grep -q "parameter 3 ('c') is 4 bytes here; the task passes a pointer of 8 bytes" "$TMP/err" && ok || { bad "parameter size diagnostic"; cat "$TMP/err"; }
expect_rc 0 "without a task, any parameters" "$GASP" check --target ptx-sm90 "$TMP/three.ptx"
# the alignment rewriter: refused as written, accepted once the vector accesses are split
expect_rc 1 "misaligned vector accesses" "$GASP" check --target ptx-sm90 "$D/misaligned_vector.ptx"
grep -q "misaligned_vector.ptx:12:42: error: semantic: misaligned: 16-byte access at offset 8" "$TMP/err" && ok || { bad "misalignment located"; cat "$TMP/err"; }
expect_rc 0 "--rewrite splits them" "$GASP" check --target ptx-sm90 --rewrite "$D/misaligned_vector.ptx"
[ "$(grep -c 'rewritten: split a provably misaligned vector access' "$TMP/err")" = 2 ] && ok || { bad "two rewrites noted"; cat "$TMP/err"; }
# asm writes a cubin (an ELF for the CUDA machine)
expect_rc 0 "asm" "$GASP" asm --target ptx-sm90 "$D/vector_add_good.ptx" -o "$TMP/k.cubin"
[ "$(head -c 4 "$TMP/k.cubin" | od -An -c | tr -d ' ')" = '177ELF' ] && ok || bad "cubin is ELF"
expect_rc 1 "asm of a bad answer writes nothing" "$GASP" asm --target ptx-sm90 "$D/answer_bad.md" -o "$TMP/bad.cubin"
[ ! -e "$TMP/bad.cubin" ] && ok || bad "no cubin for a bad answer"
expect_rc 2 "asm without -o" "$GASP" asm --target ptx-sm90 "$D/vector_add_good.ptx"
# register budget: a task allowing 16 registers per thread refuses a kernel that needs more
mkdir -p "$TMP/tasks"
sed -e 's/^id: vector_add/id: va_tight\nkernel: vector_add\nref: vector_add\nmax_regs: 16/' "$SRC/../tasks/vector_add.yaml" >"$TMP/tasks/va_tight.yaml"
GASP_TASKS_DIR="$TMP/tasks" "$GASP" check --target ptx-sm90 --task va_tight "$D/many_registers.ptx" >"$TMP/out" 2>"$TMP/err"
rc=$?; [ $rc = 1 ] && grep -q "error: resource: uses [0-9]* registers per thread, over the budget of 16" "$TMP/err" && ok || { bad "resource class: exit $rc"; cat "$TMP/err"; }
# no ptxas: a clear error and exit 3, not a verdict on the answer
GASP_PTXAS=/nonexistent/ptxas "$GASP" check --target ptx-sm90 "$D/vector_add_good.ptx" >"$TMP/out" 2>"$TMP/err"
rc=$?; [ $rc = 3 ] && grep -q "'ptxas' not found" "$TMP/err" && ok || { bad "missing ptxas: exit $rc"; cat "$TMP/err"; }
expect_rc 3 "missing file" "$GASP" check --target ptx-sm90 "$TMP/does-not-exist.ptx"
finish
