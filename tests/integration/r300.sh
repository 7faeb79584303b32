# The r300 target end to end on Mesa's software renderer (no GPU): every ARB task passes with its reference
# program; wrong, unwritten, malformed and over-limit programs are each classified.
. "$(dirname "$0")/lib.sh"
expect_rc 0 "targets" "$GASP" targets
grep -q "^r300 " "$TMP/out" && ok || bad "r300 listed"
expect_rc 0 "tasks --target r300" "$GASP" tasks --target r300
n=$(wc -l <"$TMP/out")
[ "$n" -ge 9 ] && ! grep -qv '\[arb\]' "$TMP/out" && ok || bad "ARB tasks only, at least 9 ($n)"
"$GASP" tasks --target ptx-sm90 | grep -q '\[arb\]' && bad "ARB tasks offered to ptx-sm90" || ok
expect_rc 0 "bench r300 reference" "$GASP" bench --target r300 --backend reference -q -o "$TMP/r.jsonl"
np=$(grep -c '"class":"pass"' "$TMP/r.jsonl")
[ "$np" = "$n" ] && ok || { bad "every ARB task passes with its reference ($np/$n)"; grep -v '"class":"pass"' "$TMP/r.jsonl" | cut -c1-400; }
grep -q '"gpu_ran":true' "$TMP/r.jsonl" && ok || bad "the run stage ran (on Mesa)"
cat >"$TMP/wrong.md" <<'P'
Sure:
```arb
!!ARBfp1.0
TEMP a, b;
TEX a, fragment.texcoord[0], texture[0], 2D;
TEX b, fragment.texcoord[0], texture[1], 2D;
ADD a, a, b;
MUL result.color, a, 2.0;
END
```
P
expect_rc 1 "a wrong program" "$GASP" run --target r300 --task arb_add_mul3 "$TMP/wrong.md"
grep -q "^wrong: " "$TMP/out" && ok || { bad "classified wrong"; cat "$TMP/out"; }
printf '!!ARBfp1.0\nKIL -fragment.texcoord[0];\nMOV result.color, {1,2,3,4};\nEND\n' >"$TMP/kil.fp"
expect_rc 1 "a program that writes nothing" "$GASP" run --target r300 --task arb_add_mul3 "$TMP/kil.fp"
grep -q "^unwritten: " "$TMP/out" && ok || { bad "classified unwritten"; cat "$TMP/out"; }
printf '!!ARBfp1.0\nTEMP a;\nTEX a, fragment.texcoord[0], texture[0], 2D;\nMUL result.color, a, zz;\nEND\n' >"$TMP/syntax.fp"
expect_rc 1 "a syntax error" "$GASP" check --target r300 "$TMP/syntax.fp"
grep -q "syntax.fp:4:22: error: semantic: .*undeclared\|syntax.fp:4:22: error: semantic: .*declaration" "$TMP/err" && ok || { bad "undeclared name located"; cat "$TMP/err"; }
printf '!!ARBfp1.0\nTEMP a;\nTEX a, fragment.texcoord[0], texture[0], 2D;\nMUL result.color a, a;\nEND\n' >"$TMP/comma.fp"
expect_rc 1 "a missing comma" "$GASP" check --target r300 "$TMP/comma.fp"
grep -q "comma.fp:4:[0-9]*: error: syntax: " "$TMP/err" && ok || { bad "syntax error located"; cat "$TMP/err"; }
printf '!!ARBfp1.0\nTEMP a;\nTEX a, fragment.texcoord[0], texture[99], 2D;\nMOV result.color, a;\nEND\n' >"$TMP/unit.fp"
expect_rc 1 "a texture unit out of range" "$GASP" check --target r300 "$TMP/unit.fp"
grep -q "unit.fp:3:38: error: range: invalid texture image unit" "$TMP/err" && ok || { bad "texture unit range"; cat "$TMP/err"; }
python3 -c '
print("!!ARBfp1.0\nTEMP a, b;\nTEX a, fragment.texcoord[0], texture[0], 2D;\nTEX b, fragment.texcoord[0], texture[1], 2D;")
for i in range(70): print("ADD a, a, b;")
print("MUL result.color, a, 3.0;\nEND")' >"$TMP/big.fp"
expect_rc 1 "over the R300 ALU limit (Mesa would run it)" "$GASP" check --target r300 "$TMP/big.fp"
grep -q "big.fp:69:1: error: resource: 71 ALU instructions; the R300 runs at most 64" "$TMP/err" && ok || { bad "resource at the 65th ALU instruction"; cat "$TMP/err"; }
python3 -c '
print("!!ARBfp1.0\nTEMP t0, t1, t2, t3, t4, t5;\nTEX t0, fragment.texcoord[0], texture[0], 2D;")
for i in range(5): print("ADD t%d, t%d, 0.1;\nTEX t%d, t%d, texture[0], 2D;" % (i + 1, i, i + 1, i + 1))
print("MOV result.color, t5;\nEND")' >"$TMP/indirect.fp"
expect_rc 1 "too many dependent texture reads" "$GASP" check --target r300 "$TMP/indirect.fp"
grep -q "error: resource: 6 texture indirections" "$TMP/err" && ok || { bad "indirections counted"; cat "$TMP/err"; }
printf '!!ARBvp1.0\nMOV result.position, vertex.position;\nMOV result.color, vertex.attrib[1];\nEND\n' >"$TMP/vp.vp"
expect_rc 1 "a vertex program for a fragment task" "$GASP" check --target r300 --task arb_add_mul3 "$TMP/vp.vp"
grep -q "error: semantic: the task asks for a fragment" "$TMP/err" && ok || { bad "program kind"; cat "$TMP/err"; }
# repair turns: a wrong first answer, then a corrected one after the failure is quoted back
mkdir -p "$TMP/ans"
sed -n '/^!!ARBfp/,/^END/p' "$TMP/wrong.md" >"$TMP/ans/arb_add_mul3.0.txt"
sed 's/MUL result.color, a, 2.0;/MUL result.color, a, 3.0;/' "$TMP/ans/arb_add_mul3.0.txt" >"$TMP/ans/arb_add_mul3.0.t1.txt"
expect_rc 0 "bench with --repair" "$GASP" bench --target r300 --backend files --answers "$TMP/ans" --tasks arb_add_mul3 --repair 2 -o "$TMP/rep.jsonl"
python3 - "$TMP/rep.jsonl" <<'PY' && ok || bad "turn 0 wrong, turn 1 pass, no turn 2"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [(r["turn"], r["class"]) for r in rows] == [(0, "wrong"), (1, "pass")], [(r["turn"], r["class"]) for r in rows]
PY
grep -q "repair turns (1 candidates): share correct after turn 0: 0.0%, after turn 1: 100.0%" "$TMP/out" && ok || { bad "repair lift in the summary"; cat "$TMP/out"; }
# a repair chain cut short (the turn-1 answer is not there yet: an infra error) is continued by --resume from
# the last recorded turn, quoting that turn's failure; a finished chain is left alone
mkdir -p "$TMP/ans2"
cp "$TMP/ans/arb_add_mul3.0.txt" "$TMP/ans2/"
"$GASP" bench --target r300 --backend files --answers "$TMP/ans2" --tasks arb_add_mul3 --repair 2 -q -o "$TMP/cut.jsonl"
cp "$TMP/ans/arb_add_mul3.0.t1.txt" "$TMP/ans2/"
"$GASP" bench --target r300 --backend files --answers "$TMP/ans2" --tasks arb_add_mul3 --repair 2 -q --resume -o "$TMP/cut.jsonl"
"$GASP" bench --target r300 --backend files --answers "$TMP/ans2" --tasks arb_add_mul3 --repair 2 -q --resume -o "$TMP/cut.jsonl"
python3 - "$TMP/cut.jsonl" <<'PY' && ok || bad "resume continues a cut repair chain"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
got = [(r["turn"], r["class"], bool(r.get("infra_error"))) for r in rows]
assert got == [(0, "wrong", False), (1, "error", True), (1, "pass", False)], got
PY
expect_rc 0 "prompt for an ARB task" "$GASP" prompt --target r300 --task arb_add_mul3
grep -q "64 ALU" "$TMP/out" && grep -q '```arb' "$TMP/out" && ok || bad "R300 facts and fence in the prompt"
expect_rc 2 "an ARB task on a PTX target" "$GASP" prompt --target ptx-sm90 --task arb_add_mul3
expect_rc 2 "a PTX task on r300" "$GASP" run --target r300 --task vector_add "$TMP/wrong.md"
finish
