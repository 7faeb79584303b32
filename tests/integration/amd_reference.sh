# The AMD targets end to end with the reference backend (clang-19 from tasks/amdgcn/<id>.cl), no GPU: every AMD
# task checks and assembles on gfx900, gfx1030 and gfx1100; with the emulator built in, every task passes except
# the emulator gaps listed in amd_known_gaps.txt (this is the differential test: each reference kernel through the
# emulator against the CPU reference, 3 trials of fresh inputs); without the emulator, the run stage says so and
# nothing counts as a pass. Every reference answer is in the language of its task's AMD grammar. Then broken model-style answers, each reaching its failure class through the
# emulator. Skipped (77) without LLVM 19.
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
    # every task must pass, except the emulator gaps listed below (each names the target, the task, the class and
    # a phrase of the detail). A listed row that passes, or fails differently, fails this test: the list shrinks
    # as the emulator grows and cannot hide a new failure.
    python3 "$SRC/integration/amd_gaps.py" "$m" "$TMP/$m.jsonl" "$SRC/integration/amd_known_gaps.txt" >"$TMP/gaps" 2>&1 && ok || { bad "$m: reference results"; cat "$TMP/gaps"; }
    grep -q '"gpu_ran":true' "$TMP/$m.jsonl" && ok || bad "$m: the run stage ran (on the emulator)"
  fi
  # every reference answer is one the AMD grammar lets a model decode
  python3 "$SRC/integration/amd_grammar_refs.py" "$GASP" "$m" "$TMP/$m.jsonl" "$TMP" >"$TMP/gref" 2>&1
  case $? in 0) ok ;; 3) echo "note: $m: no grammar engine in this build (without llama.cpp)"; ok ;;
    *) bad "$m: reference answers in the grammar's language"; cat "$TMP/gref" ;; esac
done
# a model-style body and a snippet through gasp asm: real code objects
expect_rc 0 "asm body gfx1030" "$GASP" asm --target gfx1030 --task vector_add "$SRC/data/amdgcn/vector_add.gfx1030.s" -o "$TMP/k.hsaco"
head -c 4 "$TMP/k.hsaco" | grep -q ELF && ok || bad "an ELF code object"
"$LLVM/llvm-readelf" --notes "$TMP/k.hsaco" | grep -q "amdhsa.kernels" && ok || bad "code object metadata note"
expect_rc 0 "asm snippet gfx900" "$GASP" asm --target gfx900 --task add_f32 "$SRC/data/amdgcn/add_f32.snippet.s" -o "$TMP/s.hsaco"
expect_rc 1 "a body without a task" "$GASP" check --target gfx1030 "$SRC/data/amdgcn/vector_add.gfx1030.s"
grep -q "vector_add.gfx1030.s:1:1: error: semantic: a kernel body needs a task" "$TMP/err" && ok || { bad "body without task"; cat "$TMP/err"; }
expect_rc 0 "a complete source without a task" "$GASP" check --target gfx1030 "$SRC/data/amdgcn/vector_add.full.gfx1030.s"
expect_rc 1 "a missing s_waitcnt" "$GASP" check --target gfx1030 --task vector_add "$SRC/data/amdgcn/bad_waitcnt.gfx1030.s"
grep -q "bad_waitcnt.gfx1030.s:16:21: error: hazard: " "$TMP/err" && ok || { bad "hazard located"; cat "$TMP/err"; }
if "$GASP" targets | grep -q "gfx1030.*AMD emulator"; then
  D="$SRC/data/amdgcn"
  sed 's/v_add_f32_e32 v2, v2, v3/v_sub_f32_e32 v2, v2, v3/' "$D/vector_add.gfx1030.s" >"$TMP/wrong.s"
  sed '/global_store_dword/d' "$D/vector_add.gfx1030.s" >"$TMP/unwritten.s"
  sed 's/s_and_saveexec_b32 s12, vcc_lo/s_mov_b32 s12, exec_lo/' "$D/vector_add.gfx1030.s" >"$TMP/nomask.s"   # EXEC not masked
  printf '.Lspin:\n  s_branch .Lspin\n  s_endpgm\n' >"$TMP/spin.s"
  sed 's/  global_store_dword v1, v2, s\[14:15\]/  v_mov_b32_e32 v5, 0x10000\n  ds_write_b32 v5, v2\n  s_waitcnt lgkmcnt(0)\n&/' \
    "$D/vector_add.gfx1030.s" >"$TMP/lds.s"   # LDS past the 64 KiB the descriptor asks for
  for c in "wrong:wrong" "unwritten:unwritten" "nomask:out-of-bounds-write" "spin:timeout" "lds:illegal-address"; do
    f=${c%%:*} cls=${c#*:}
    expect_rc 1 "$f" "$GASP" run --target gfx1030 --task vector_add "$TMP/$f.s"
    grep -q "^$cls: " "$TMP/out" && ok || { bad "$f classified $cls"; cat "$TMP/out" "$TMP/err"; }
  done
  expect_rc 0 "a good body on gfx1100" "$GASP" run --target gfx1100 --task vector_add "$D/vector_add.gfx1100.s"
  expect_rc 0 "a good body on gfx900" "$GASP" run --target gfx900 --task vector_add "$D/vector_add.gfx900.s"
  expect_rc 0 "a snippet on gfx1030" "$GASP" run --target gfx1030 --task add_f32 "$D/add_f32.snippet.s"
  # v_sqrt_f32 is 1 ulp on the GPU and ignores denormals: alone it is no IEEE square root. A correctly rounded
  # emulator passed it (a false pass); clang's refined sqrt must still pass.
  for g in gfx900 gfx1030 gfx1100; do
    printf '```amdgcn\nv_sqrt_f32_e32 v3, v2\n```\n' >"$TMP/sqrt1.s"
    expect_rc 1 "a bare v_sqrt_f32 for sqrt_f32 on $g" "$GASP" run --target $g --task sqrt_f32 "$TMP/sqrt1.s"
    grep -q "^wrong: " "$TMP/out" && ok || { bad "a bare v_sqrt_f32 is wrong on $g"; cat "$TMP/out" "$TMP/err"; }
  done
  "$GASP" bench --target gfx1030 --backend reference --tasks sqrt_f32 -q -o "$TMP/sqref.jsonl" >/dev/null 2>&1
  grep -q '"class":"pass"' "$TMP/sqref.jsonl" && ok || { bad "clang's sqrt_f32 passes"; cut -c1-600 "$TMP/sqref.jsonl"; }
  mkdir -p "$TMP/ans" && cp "$D/bad_waitcnt.gfx1030.s" "$TMP/ans/vector_add.0.txt"
  "$GASP" bench --target gfx1030 --backend files --answers "$TMP/ans" --tasks vector_add -q -o "$TMP/norw.jsonl" >/dev/null 2>&1
  grep -q '"class":"hazard"' "$TMP/norw.jsonl" && ok || bad "a missing s_waitcnt is a hazard"
  "$GASP" bench --target gfx1030 --backend files --answers "$TMP/ans" --tasks vector_add --rewrite -q -o "$TMP/rw.jsonl" >/dev/null 2>&1
  grep -q '"class":"pass"' "$TMP/rw.jsonl" && ok || { bad "the rewriter repairs a missing s_waitcnt"; cut -c1-600 "$TMP/rw.jsonl"; }
fi
finish
