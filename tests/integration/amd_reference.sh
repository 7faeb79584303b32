# The AMD targets end to end with the reference backend (clang-19 from tasks/amdgcn/<id>.cl), no GPU: every AMD
# task checks and assembles on gfx900, gfx1030 and gfx1100; with the emulator built in, every task passes; without
# it, the run stage says so and nothing counts as a pass. Skipped (77) without LLVM 19.
. "$(dirname "$0")/lib.sh"
LLVM=${GASP_LLVM_BIN:-/usr/lib/llvm-19/bin}
for t in clang llvm-mc ld.lld; do
  [ -x "$LLVM/$t" ] || { echo "skip: $LLVM/$t missing (apt-get install llvm-19 lld-19 clang-19)"; exit 77; }
done
expect_rc 0 "targets" "$GASP" targets
for m in gfx900 gfx1030 gfx1100; do grep -q "^$m " "$TMP/out" && ok || bad "$m listed"; done
expect_rc 0 "tasks --target gfx1030" "$GASP" tasks --target gfx1030
n=$(wc -l <"$TMP/out")
[ "$n" -ge 20 ] && ok || bad "at least 20 AMD tasks ($n)"
"$GASP" tasks --target gfx1030 | grep -q '\[arb\]' && bad "ARB tasks offered to gfx1030" || ok
for m in gfx900 gfx1030 gfx1100; do
  "$GASP" bench --target $m --backend reference -q -o "$TMP/$m.jsonl" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  nr=$(wc -l <"$TMP/$m.jsonl")
  [ "$nr" = "$n" ] && ok || bad "$m: one record per task ($nr/$n)"
  # every reference passes check and assembly: it reaches the run stage
  grep -q '"stage":"\(extract\|check\)"' "$TMP/$m.jsonl" && { bad "$m: a reference failed check"; grep '"stage":"check"' "$TMP/$m.jsonl" | cut -c1-500; } || ok
  if grep -q 'emulator is not built' "$TMP/$m.jsonl"; then
    echo "note: $m: the AMD emulator is not built into this tree; the run stage is recorded as skipped"
    ns=$(grep -c '"class":"skipped"' "$TMP/$m.jsonl")
    [ "$ns" = "$n" ] && ok || bad "$m: without the emulator every record is skipped ($ns/$n)"
    grep -q '"pass":true' "$TMP/$m.jsonl" && bad "$m: a pass without a run" || ok
  else
    np=$(grep -c '"class":"pass"' "$TMP/$m.jsonl")
    [ "$np" = "$n" ] && ok || { bad "$m: every AMD task passes with its reference ($np/$n)"; grep -v '"class":"pass"' "$TMP/$m.jsonl" | cut -c1-600; }
    grep -q '"gpu_ran":true' "$TMP/$m.jsonl" && ok || bad "$m: the run stage ran (on the emulator)"
    [ "$rc" = 0 ] && ok || bad "$m: bench exit $rc"
  fi
done
# a model-style body and a snippet through gasp asm: real code objects
expect_rc 0 "asm body gfx1030" "$GASP" asm --target gfx1030 --task vector_add "$SRC/data/amdgcn/vector_add.gfx1030.s" -o "$TMP/k.hsaco"
head -c 4 "$TMP/k.hsaco" | grep -q ELF && ok || bad "an ELF code object"
"$LLVM/llvm-readelf" --notes "$TMP/k.hsaco" | grep -q "amdhsa.kernels" && ok || bad "code object metadata note"
expect_rc 0 "asm snippet gfx900" "$GASP" asm --target gfx900 --task add_f32 "$SRC/data/amdgcn/add_f32.snippet.s" -o "$TMP/s.hsaco"
expect_rc 1 "a missing s_waitcnt" "$GASP" check --target gfx1030 --task vector_add "$SRC/data/amdgcn/bad_waitcnt.gfx1030.s"
grep -q "bad_waitcnt.gfx1030.s:16:21: error: hazard: " "$TMP/err" && ok || { bad "hazard located"; cat "$TMP/err"; }
finish
