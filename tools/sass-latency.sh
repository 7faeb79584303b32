#!/usr/bin/env bash
# Calibrates the SASS latency table on the GPU (issue 4; run by the lead on the H200, one device call, ~1 min):
# for each ALU producer (IADD3, IMAD, LOP3, MOV, FFMA, FMUL, ISETP) a vector_add kernel carries a dependent pair
# "producer with stall k; consumer" for k = 1..15, assembled by gasp's own assembler. The consumer turns the
# producer's result into 0 only when it read the new value (a poisoned old value gives non-zero), and that 0 is
# OR-ed into c[i] = a[i] + b[i]; so the task passes exactly when the consumer saw the result. The smallest k from
# which every run passes is the measured latency. All 105 kernels run in one `gasp bench --backend files
# --allow-hazards` (every launch under gasp-worker's watchdog). The table puts it beside gasp's two numbers:
# the checker's bound (ptxas's shortest distance in the corpus, src/target/sass/sass_arch.c) and the scheduler's.
#   bash tools/sass-latency.sh            (writes under $OUT, default /tmp)
# Binaries: $GASP_BIN, else the current folder when it holds gasp and gasp-worker (slim carry), else build/.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${GASP_BIN:-}" ]; then B=$GASP_BIN
elif [ -x ./gasp ] && [ -x ./gasp-worker ]; then B=$PWD
else B=$ROOT/build; fi
B=$(cd "$B" && pwd) || exit 3
first_dir() { for d in "$@"; do [ -d "$d" ] && { echo "$d"; return; }; done; echo "$1"; }
export LD_LIBRARY_PATH=$B/devlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} GASP_WORKER=$B/gasp-worker
export GASP_TASKS_DIR=${GASP_TASKS_DIR:-$(first_dir "$B/../tasks" "$ROOT/tasks" "$B/tasks")}
OUT=${OUT:-/tmp}
W=$OUT/sass-latency
rm -rf "$W" && mkdir -p "$W/answers" "$W/sched" || exit 3
python3 - "$W" <<'PY' || exit 3
import sys
w = sys.argv[1]
# vector_add's schedule (tests/data/sass/vector_add_noctl.sass through gasp --fix), padded to safe stalls; c in R9
head = """[B------:R-:W0:-:S01] S2R R0, SR_TID.X ;
[B------:R-:W1:-:S01] S2R R1, SR_CTAID.X ;
[B------:R-:W2:-:S02] LDC R9, c[0x0][0x0] ;
[B012---:R-:W-:-:S01] IMAD R9, R9, R1, R0 ;
[B------:R-:W3:Y:S05] LDC R8, c[0x0][0x228] ;
[B---3--:R-:W-:Y:S13] ISETP.GE.U32.AND P0, PT, R9, R8, PT ;
[B------:R-:W-:-:S05] @P0 EXIT ;
[B------:R-:W4:-:S01] LDC.64 R2, c[0x0][0x210] ;
[B------:R-:W-:-:S01] ULDC.64 UR4, c[0x0][0x208] ;
[B------:R-:W5:-:S01] LDC.64 R4, c[0x0][0x218] ;
[B------:R-:W0:-:S01] LDC.64 R6, c[0x0][0x220] ;
[B----4-:R-:W-:Y:S06] IMAD.WIDE.U32 R2, R9, 0x4, R2 ;
[B------:R2:W1:-:S01] LDG.E R3, desc[UR4][R2.64] ;
[B-----5:R-:W-:Y:S06] IMAD.WIDE.U32 R4, R9, 0x4, R4 ;
[B------:R4:W3:-:S01] LDG.E R4, desc[UR4][R4.64] ;
[B0-----:R-:W-:Y:S06] IMAD.WIDE.U32 R6, R9, 0x4, R6 ;
[B-1-3--:R-:W-:Y:S15] FADD R9, R4, R3 ;
"""
setup = [
    "MOV R20, 0x3f800000 ;",   # 1.0f
    "MOV R21, 0x40000000 ;",   # 2.0f
    "MOV R22, 0x3fc00000 ;",   # 1.5f
    "MOV R28, 0x40400000 ;",   # 3.0f
    "MOV R24, 0x1 ;",
    "MOV R25, 0x2 ;",
    "MOV R26, 0x3 ;",
    "MOV R27, 0x1 ;",
    "MOV R11, 0x7f800001 ;",   # poison: a NaN, and far from 3 as an integer
    "ISETP.NE.AND P1, PT, RZ, RZ, PT ;",  # poison: P1 false
    "NOP ;",
]
to_int = "IADD3 R12, R11, -R26, RZ ;"        # 3 - 3 = 0
to_f32 = "FADD R12, R11, -R28 ;"            # 3.0 - 3.0 = +0.0 (bits 0)
pairs = [
    ("IADD3", "IADD3 R11, R24, R25, RZ ;", to_int),
    ("IMAD", "IMAD R11, R24, R25, R24 ;", to_int),
    ("LOP3", "LOP3.LUT R11, R24, R25, RZ, 0xfc, !PT ;", to_int),
    ("MOV", "MOV R11, R26 ;", to_int),
    ("FFMA", "FFMA R11, R20, R21, R20 ;", to_f32),
    ("FMUL", "FMUL R11, R21, R22 ;", to_f32),
    ("ISETP", "ISETP.NE.AND P1, PT, R24, RZ, PT ;", "SEL R12, RZ, R27, P1 ;"),  # P1 ? 0 : 1
]
tail = ["LOP3.LUT R9, R9, R12, RZ, 0xfc, !PT ;"]  # c |= z
def body(prod, k, cons):
    lines = ["[B------:R-:W-:Y:S15] " + s for s in setup]
    # stalls of 12+ with the yield bit, as nvcc writes them: without it the H200 does not honour them
    # (2026-12-02: every op failed at S12-S15 without yield; the checker flags that since)
    lines.append("[B------:R-:W-:%s:S%02d] %s" % ("Y" if k >= 12 else "-", k, prod))
    lines.append("[B------:R-:W-:Y:S15] " + cons)
    lines += ["[B------:R-:W-:Y:S15] " + s for s in tail]
    lines.append("[B------:R-:W-:-:S01] STG.E desc[UR4][R6.64], R9 ;")
    lines.append("[B------:R-:W-:-:S05] EXIT ;")
    return head + "\n".join(lines) + "\n"
index = open(w + "/index.txt", "w")
sample = 0
for op, prod, cons in pairs:
    for k in range(1, 16):
        open("%s/answers/vector_add.%d.txt" % (w, sample), "w").write("```sass\n" + body(prod, k, cons) + "```\n")
        index.write("%d %s %d\n" % (sample, op, k))
        sample += 1
    # the same pair without any control codes: what gasp's scheduler gives the producer
    plain = [l.split("] ", 1)[1] for l in head.splitlines()] + setup + [prod, cons] + tail + \
            ["STG.E desc[UR4][R6.64], R9 ;", "EXIT ;"]
    open("%s/sched/%s.sass" % (w, op), "w").write("\n".join(plain) + "\n")
PY
for f in "$W"/sched/*.sass; do
  "$B/gasp" check --target sass-sm90 --task vector_add --fix --emit "${f%.sass}.out" "$f" 2>"${f%.sass}.err" ||
    { echo "gasp refused the unscheduled pair $f:"; cat "${f%.sass}.err"; exit 3; }
done
n=$(wc -l <"$W/index.txt")
echo "== $n dependent pairs through gasp bench (sass-sm90, vector_add)"
nvidia-smi -L 2>/dev/null
timeout 110 "$B/gasp" bench --target sass-sm90 --backend files --answers "$W/answers" --tasks vector_add --samples "$n" \
  --no-time --allow-hazards -q -o "$W/results.jsonl"
echo "bench exit $? (1: some candidates failed, as expected below the latency)"
python3 - "$W" <<'PY'
import json, re, sys, collections
w = sys.argv[1]
where = {int(a): (op, int(k)) for a, op, k in (l.split() for l in open(w + "/index.txt"))}
res = collections.defaultdict(dict)
checked = {}
for line in open(w + "/results.jsonl"):
    r = json.loads(line)
    op, k = where[r["sample"]]
    res[op][k] = r["class"]
    for d in r.get("diagnostics", []):
        m = re.search(r"fixed latency of (\d+) cycles", d["message"])
        if m and d["severity"] == "error":
            checked[op] = int(m.group(1))
sched = {}
for op in res:
    prod = {"IADD3": "IADD3 R11", "IMAD": "IMAD R11", "LOP3": "LOP3.LUT R11", "MOV": "MOV R11,", "FFMA": "FFMA R11",
            "FMUL": "FMUL R11", "ISETP": "ISETP.NE.AND P1, PT, R24"}[op]
    for l in open("%s/sched/%s.out" % (w, op)):
        if prod in l:
            sched[op] = int(re.search(r":S(\d\d)\]", l).group(1))
print("%-6s %-9s %-14s %-14s  %s" % ("op", "measured", "gasp checker", "gasp scheduler", "k = 1..15 (P pass, F fail, S skipped, E other)"))
for op in res:
    row = "".join({"pass": "P", "wrong": "F", "skipped": "S"}.get(res[op].get(k, "?"), "E") for k in range(1, 16))
    meas = next((k for k in range(1, 16) if all(res[op].get(j) == "pass" for j in range(k, 16))), None)
    odd = " (not monotonic)" if meas and any(res[op].get(j) == "pass" for j in range(1, meas - 1)) else ""
    print("%-6s %-9s %-14s %-14s  %s%s" % (op, meas if meas else "-", checked.get(op, "none below 15"), sched.get(op, "?"), row, odd))
print("measured: the smallest k from which every run passed (consumers: IADD3 for integer producers, FADD for float,")
print("SEL for ISETP). A measured value above the checker's means ptxas's own distances are not safe there; above the")
print("scheduler's, gasp's schedules are not safe. Records in %s/results.jsonl." % w)
PY
