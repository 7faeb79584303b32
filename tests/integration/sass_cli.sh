# gasp check / asm --target sass-sm90: diagnostics with line and column and class, the hazard checker and its
# rewriter, and a kernel taken from nvcc's own code assembling to nvcc's bytes.
. "$(dirname "$0")/lib.sh"
D="$SRC/data/sass"
expect_rc 1 "bad SASS fails" "$GASP" check --target sass-sm90 "$D/bad.sass"
grep -q "bad.sass:2:15: error: range: R300 out of range" "$TMP/err" && ok || { bad "range at 2:15"; cat "$TMP/err"; }
grep -q "bad.sass:3:1: error: semantic: no sm_90 encoding for 'IADD3.FOO .*nearest known form: 'IADD3 " "$TMP/err" && ok || { bad "nearest form"; cat "$TMP/err"; }
grep -q "bad.sass:4:5: error: semantic: unknown label 'nowhere'" "$TMP/err" && ok || { bad "unknown label"; cat "$TMP/err"; }
grep -q "bad.sass:5:.*error: range: stall 16 over 15" "$TMP/err" && ok || { bad "stall range"; cat "$TMP/err"; }
expect_rc 1 "hazard flagged" "$GASP" check --target sass-sm90 "$D/hazard.sass"
grep -q "hazard.sass:4:33: error: hazard: read-after-write hazard on R4: scoreboard SB2 of line 3" "$TMP/err" && ok || { bad "hazard line"; cat "$TMP/err"; }
expect_rc 0 "hazard fixed by --rewrite" "$GASP" check --target sass-sm90 --rewrite "$D/hazard.sass"
# control flow: a path past the last instruction, and BSSY/BSYNC pairing
printf '[B------:R-:W-:-:S05] ISETP.GE.AND P0, PT, R0, RZ, PT ;\n[B------:R-:W-:-:S05] @P0 EXIT ;\n' >"$TMP/noexit.sass"
expect_rc 1 "a path without EXIT" "$GASP" check --target sass-sm90 "$TMP/noexit.sass"
grep -q "noexit.sass:2:1: error: semantic: a path runs past the last instruction without EXIT (after this guarded EXIT)" "$TMP/err" && ok || { bad "no-EXIT path"; cat "$TMP/err"; }
printf '[B------:R-:W-:-:S01] BSSY B0, `(.L_x_1) ;\n[B------:R-:W-:-:S05] IMAD.MOV.U32 R7, RZ, RZ, RZ ;\n.L_x_1:\n[B------:R-:W-:-:S05] EXIT ;\n' >"$TMP/nosync.sass"
expect_rc 1 "BSSY without BSYNC" "$GASP" check --target sass-sm90 "$TMP/nosync.sass"
grep -q "nosync.sass:1:1: error: semantic: BSSY B0 opens a divergence region with no BSYNC B0" "$TMP/err" && ok || { bad "BSSY pairing"; cat "$TMP/err"; }
printf '[B------:R-:W-:-:S01] BSSY B0, `(.L_x_1) ;\n[B------:R-:W-:-:S05] BSYNC B1 ;\n.L_x_1:\n[B------:R-:W-:-:S05] EXIT ;\n' >"$TMP/wrongb.sass"
expect_rc 1 "BSYNC of another barrier" "$GASP" check --target sass-sm90 "$TMP/wrongb.sass"
grep -q "wrongb.sass:2:1: error: semantic: BSYNC B1 waits on a barrier no BSSY B1 set up" "$TMP/err" && ok || { bad "BSYNC without BSSY"; cat "$TMP/err"; }
printf '[B------:R-:W-:-:S01] BSSY B0, `(.L_x_1) ;\n[B------:R-:W-:-:S05] BSYNC B0 ;\n.L_x_1:\n[B------:R-:W-:-:S05] EXIT ;\n.L_x_2:\n[B------:R-:W-:Y:S00] BRA `(.L_x_2) ;\n' >"$TMP/goodflow.sass"
expect_rc 0 "paired region, EXIT, nvcc's trailing self-loop" "$GASP" check --target sass-sm90 "$TMP/goodflow.sass"
# nvcc's code for small_ints, without control codes as nvdisasm prints it: gasp schedules it
awk '/\.text\.small_ints,/{f=1} /\.text\.int64_ops,/{f=0} f' "$SRC/../tools/sass-corpus/dumps/int.sm90.O3.sass" >"$TMP/k.sass"
expect_rc 0 "no control codes: scheduled by gasp" "$GASP" check --target sass-sm90 "$TMP/k.sass"
grep -q "note: hazard: no control codes: gasp assigned stalls, scoreboards, waits and yields to all 56 instructions" "$TMP/err" && ok || { bad "schedule note"; cat "$TMP/err"; }
expect_rc 0 "rewritten: assembles" "$GASP" asm --target sass-sm90 --rewrite "$TMP/k.sass" -o "$TMP/k.cubin"
python3 - "$TMP/k.cubin" "$SRC/../tools/sass-corpus/cubins/int.sm90.O3.cubin" <<'PY' && ok || bad "rewritten kernel: same instructions as nvcc's outside the control bits"
import struct, sys
def text(path, name):
    b = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', b, 0x28)
    n, ix = struct.unpack_from('<HH', b, 0x3c)
    secs = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + 64 * i) for i in range(n)]
    st = secs[ix][4]
    for s in secs:
        if b[st + s[0]:b.index(b'\0', st + s[0])].decode() == name:
            return b[s[4]:s[4] + s[5]]
a, r = text(sys.argv[1], '.text.file'), text(sys.argv[2], '.text.small_ints')
mask = (1 << 105) - 1
assert len(a) == len(r)
assert all(int.from_bytes(a[k:k + 16], 'little') & mask == int.from_bytes(r[k:k + 16], 'little') & mask for k in range(0, len(a), 16))
PY
# vector_add written by hand without control codes: gasp schedules it; the schedule written out (--fix --emit)
# has a prefix on every instruction, checks without a hazard and assembles to the same cubin
V="$D/vector_add_noctl.sass"
expect_rc 0 "vector_add without control codes checks (scheduled)" "$GASP" check --target sass-sm90 --task vector_add "$V"
grep -q "note: hazard: no control codes: gasp assigned stalls, scoreboards, waits and yields to all 20 instructions" "$TMP/err" && ok || { bad "vector_add schedule note"; cat "$TMP/err"; }
grep -q "note: resource: 12 registers per thread .* so 64 of 64 warps fit by registers; blocks of 256 threads: 8 per SM, 64 warps, occupancy 100%" "$TMP/err" && ok || { bad "vector_add occupancy note"; cat "$TMP/err"; }
expect_rc 0 "vector_add schedule written out" "$GASP" check --target sass-sm90 --task vector_add --fix --emit "$TMP/va_sched.sass" "$V"
[ "$(grep -c '^\[B[-0-5]\{6\}:R[-0-5]:W[-0-5]:[-Y]:S[0-9][0-9]\] ' "$TMP/va_sched.sass")" = 20 ] && ok || { bad "every instruction has a control prefix"; cat "$TMP/va_sched.sass"; }
expect_rc 0 "the written schedule checks clean" "$GASP" check --target sass-sm90 --task vector_add "$TMP/va_sched.sass"
grep -q "error" "$TMP/err" && bad "no diagnostics on the written schedule" || ok
expect_rc 0 "scheduled in memory: assembles" "$GASP" asm --target sass-sm90 --task vector_add "$V" -o "$TMP/va1.cubin"
expect_rc 0 "written schedule: assembles" "$GASP" asm --target sass-sm90 --task vector_add "$TMP/va_sched.sass" -o "$TMP/va2.cubin"
cmp -s "$TMP/va1.cubin" "$TMP/va2.cubin" && ok || bad "the written schedule is the one assembled"
# deliberately hazardous variants of the schedule: flagged at line:col, repaired by --fix, nothing left
H="$D/hazards"
while IFS='|' read -r name want; do
  expect_rc 1 "$name flagged" "$GASP" check --target sass-sm90 --task vector_add "$H/$name.sass"
  grep -q "$name.sass:$want" "$TMP/err" && ok || { bad "$name: want $want"; cat "$TMP/err"; }
  [ "$(grep -c 'error:' "$TMP/err")" = 1 ] && ok || { bad "$name: exactly one hazard"; cat "$TMP/err"; }
  expect_rc 0 "$name repaired by --fix" "$GASP" check --target sass-sm90 --task vector_add --fix --emit "$TMP/$name.fixed" "$H/$name.sass"
  expect_rc 0 "$name: the repaired text checks clean" "$GASP" check --target sass-sm90 --task vector_add "$TMP/$name.fixed"
  expect_rc 0 "$name: the repaired text assembles" "$GASP" asm --target sass-sm90 --task vector_add "$TMP/$name.fixed" -o "$TMP/$name.cubin"
done <<'LIST'
missing_wait|19:36: error: hazard: read-after-write hazard on R3: scoreboard SB1 of line 15 is not waited on
no_scoreboard|19:32: error: hazard: read-after-write hazard on R4: its producer at line 17 has variable latency and sets no write scoreboard
short_stall_alu|21:47: error: hazard: read-after-write hazard on R9: its producer at line 20 has a fixed latency of 4 cycles but the stall counts since give 1
short_stall_pred|9:23: error: hazard: read-after-write hazard on P0: its producer at line 8 has a fixed latency of 13 cycles but the stall counts since give 1
war_store|21:36: error: hazard: write-after-read hazard on R9: scoreboard SB5 of line 20 is not waited on
LIST
# occupancy and the register budget, with crafted kernels and task files
printf 'S2R R200, SR_TID.X ;\nEXIT ;\n' >"$TMP/r200.sass"
expect_rc 0 "203 registers: checks" "$GASP" check --target sass-sm90 --task vector_add "$TMP/r200.sass"
grep -q "203 registers per thread .* a warp takes 6656 of the SM's 65536 (allocated in units of 256), so 9 of 64 warps fit by registers; blocks of 256 threads: 1 per SM, 8 warps, occupancy 12%" "$TMP/err" && ok || { bad "occupancy of 203 registers"; cat "$TMP/err"; }
expect_rc 0 "203 registers on sm_89" "$GASP" check --target sass-sm89 --task vector_add "$TMP/r200.sass"
grep -q "so 9 of 48 warps fit by registers; blocks of 256 threads: 1 per SM, 8 warps, occupancy 16%" "$TMP/err" && ok || { bad "sm_89 occupancy"; cat "$TMP/err"; }
mkdir -p "$TMP/tasks"
sed 's/^id: vector_add$/id: tight/; s/^title: .*/title: tight/' "$SRC/../tasks/vector_add.yaml" >"$TMP/tasks/tight.yaml"
printf 'max_regs: 32\nref: vector_add\n' >>"$TMP/tasks/tight.yaml"
sed 's/^id: vector_add$/id: wide/; s/^title: .*/title: wide/; s/block: \[256\]/block: [1024]/; s/cdiv(n,256)/cdiv(n,1024)/' "$SRC/../tasks/vector_add.yaml" >"$TMP/tasks/wide.yaml"
printf 'ref: vector_add\n' >>"$TMP/tasks/wide.yaml"
printf 'S2R R40, SR_TID.X ;\nEXIT ;\n' >"$TMP/r40.sass"
printf 'S2R R29, SR_TID.X ;\nEXIT ;\n' >"$TMP/r29.sass"
printf 'S2R R77, SR_TID.X ;\nEXIT ;\n' >"$TMP/r77.sass"
GASP_TASKS_DIR="$TMP/tasks" expect_rc 1 "over the task's max_regs" "$GASP" check --target sass-sm90 --task tight "$TMP/r40.sass"
grep -q "error: resource: 43 registers per thread; the task allows 32" "$TMP/err" && ok || { bad "max_regs message"; cat "$TMP/err"; }
GASP_TASKS_DIR="$TMP/tasks" expect_rc 0 "within max_regs (R29: 32 registers)" "$GASP" check --target sass-sm90 --task tight "$TMP/r29.sass"
GASP_TASKS_DIR="$TMP/tasks" expect_rc 1 "a 1024-thread block of 80-register threads cannot launch" "$GASP" check --target sass-sm90 --task wide "$TMP/r77.sass"
grep -q "error: resource: 80 registers per thread: a block of 1024 threads needs 81920 registers, more than an SM's 65536" "$TMP/err" && ok || { bad "block register message"; cat "$TMP/err"; }
# the prompt's example assembles without hazards on both architectures
for t in sass-sm90 sass-sm89; do
  "$GASP" prompt --target $t --task vector_add 2>/dev/null | awk '/^```sass/{f=1} f{print} /^```$/{if(f)exit}' >"$TMP/ex.md"
  expect_rc 0 "$t prompt example checks clean" "$GASP" check --target $t "$TMP/ex.md"
done
# the reference backend (needs nvcc): nvcc's SASS for each task, printed by us, must assemble hazard-free;
# on this machine 17 of 30 tasks (sm_90) have only forms our tables know (README.md)
if [ -x "${GASP_NVCC:-/usr/local/cuda/bin/nvcc}" ] || command -v nvcc >/dev/null; then
  GASP_NO_GPU=1 "$GASP" bench --target sass-sm90 --backend reference --no-time -q -o "$TMP/ref.jsonl" >/dev/null 2>&1
  python3 - "$TMP/ref.jsonl" <<'PY' && ok || bad "reference answers: assembled and hazard-free"
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
assembled = [r for r in rs if r['class'] in ('skipped', 'pass')]
bad = [r for r in rs if r['class'] not in ('skipped', 'pass', 'error')]
print('%d tasks, %d assembled, %d unknown forms, %d other failures' % (len(rs), len(assembled),
      sum(r['class'] == 'error' for r in rs), len(bad)))
sys.exit(0 if len(assembled) >= 17 and not bad else 1)
PY
fi
finish
