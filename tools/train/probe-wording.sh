#!/usr/bin/env bash
# Here (no GPU): does a model read the computation or the wording? Benchmark tasks with only their description
# changed (same computation, registers, reference and inputs), 10 samples each (temperature 0.7, top-p 0.95).
# PROBE=add (the default): add_f32 three times,
#   bench   the benchmark's own words: "One instruction: %d = %a + %b in single precision, round to nearest even."
#   corpus  the generated corpus's words: "One instruction: %d = %a + %b, in single precision (f32)." with the
#           corpus's notes and register sentence
#   mixed   the benchmark's sentence and the corpus's register sentence
# Found with it (2026-12-03): the fourth run passes 3, 10 and 4 of 10; the sixth run's round 2 0, 10 and 0; the
# seventh run (trained on `gasp corpus reword`'s wordings) 10, 10 and 10 (tools/train/README.md).
# PROBE=unary: popc_b32, cvt_f32_s32 and sqrt_f32 in the benchmark's words ("the number of 1 bits in the 32-bit
# value %a") and in the corpus's ("%d = popc(%a)"). The seventh run wrote popc, cvt and sqrt for the corpus's and
# and/xor/max for the benchmark's, hence the PROSE style of reword. On a target without a GPU here (ptx-sm90) the
# answers are shown but not run.
# PROBE=names: lerp, clamp and dot3 with their inputs renamed a, b, c ... (description, parameters, reference).
# PROBE=corpus: the same three in the generator's own words (numbered steps on %registers). Found with them
# (2026-12-05, the tenth run's model, gfx1030): renaming changes nothing (0/10 each, the same answers); the corpus's
# words take clamp from 0/10 to 9/10, while dot3 and lerp stay at 0/10 with the same wrong operand order.
# PROBE=clamp: clamp_f32 with parts of the corpus's wording, to find the part that matters.
# PROBE=vadd: vector_add (L2) under another name, in the corpus's kernel words, and with its type spelt f32;
# kernels need MAXTOK=1024 (the answer length, default 256).
# PROBE=vaddwords: vector_add's sentence with one part changed at a time ("f32 arrays", "single-precision float
# arrays", no "Element-wise", "add" for "sum", ", a float add"). Found with it (2026-12-07, s19, gfx1030): "f32
# arrays" 10/10, each of the others 0/10 (the integer add), hence reword's ARRAYS_LEAD style.
# PROBE=reluwords: relu_array in the benchmark's words, as the corpus's formula "max(x[i], 0)", as "ReLU of an f32
# array", and as cases with the type spelt f32.
# PROBE=leaky: relu_leaky in the benchmark's words, as the corpus's ternary, as cases with f32 spelt out, and as the
# corpus's numbered steps (on ptx-sm90 the answers are shown, not run: read selp's operand order). PROBE=leakywords:
# its sentence with one part changed at a time (% on the names, 0.01 for 0.01f, no parenthesis, "f32" added).
# KEEP=FILE keeps every answer.
# GRAMMAR=on decodes under the target's grammar, as the benchmark table does (without it a PTX answer may name
# another kernel it has learnt, entry and parameters included).
# Usage: tools/train/probe-wording.sh MODEL.gguf [TARGET]
set -eu
M=${1:?model} T=${2:-gfx1030}
R=$(cd "$(dirname "$0")/../.." && pwd)
G=$R/build/gasp
D=$(mktemp -d /tmp/gasp-probe-XXXXXX)
trap 'rm -rf "$D"' EXIT
mkdir -p "$D/amdgcn"
cp "$R/tasks/amdgcn/gasp_amd.h" "$D/amdgcn/"
python3 - "$R/tasks" "$D" "${PROBE:-add}" <<'PY'
import re, sys
tasks, out, probe = sys.argv[1], sys.argv[2], sys.argv[3]
# a kernel's launch sentence as the benchmark's L2 tasks write it, and as the corpus's kernels do (with the output)
BENCH_LAUNCH = "  One thread per element on a 1-D grid; threads with i >= n do nothing.\n"
def corpus_launch(out):
    return ("  One thread per element on a 1-D grid, for every i < n; threads with i >= n do nothing. The inputs are"
            f" read only; write to {out}.\n")
def variant(src, vid, desc):
    """the benchmark task src under the id vid, its description replaced by desc (None: kept)"""
    y, cl = open(f"{tasks}/{src}.yaml").read(), open(f"{tasks}/amdgcn/{src}.cl").read()
    if desc is not None:
        y, n = re.subn(r"description: \|\n(  .*\n)+", lambda _: "description: |\n" + desc, y, count=1)
        assert n == 1, f"{src}.yaml: no description block"
    # the same reference (ref: src) and kernel body under the variant's id
    y = re.sub(rf"^id: {src}$", f"id: {vid}\nref: {src}", y, flags=re.M).replace(f"void {src}(", f"void {vid}(")
    open(f"{out}/{vid}.yaml", "w").write(y)
    open(f"{out}/amdgcn/{vid}.cl", "w").write(cl.replace(f"void {src}(", f"void {vid}("))
fl = ("  Every float operation rounds to nearest even on its own; no other operations may be fused or reordered."
      " Denormals are preserved (no flush to zero).")
if probe == "add":
    regs = "  The inputs are in registers %a and %b (.f32); write the result to %d (.f32).\n"
    variant("add_f32", "probe_bench", None)
    variant("add_f32", "probe_corpus", "  One instruction: %d = %a + %b, in single precision (f32).\n" + fl + "\n" + regs)
    variant("add_f32", "probe_mixed", "  One instruction: %d = %a + %b in single precision, round to nearest even.\n" + regs)
elif probe == "unary":
    variant("popc_b32", "probe_popc_bench", None)
    variant("popc_b32", "probe_popc_corpus", "  One instruction: %d = popc(%a), 32-bit unsigned integers (u32).\n"
            "  popc(x) is the number of 1 bits in the 32 bits of x (0 to 32).\n"
            "  The input is in register %a (.u32); write the result to %d (.u32).\n")
    variant("cvt_f32_s32", "probe_cvt_bench", None)
    variant("cvt_f32_s32", "probe_cvt_corpus", "  One instruction: %d = f32(%a), in single precision (f32).\n"
            "  f32(x) and f64(x) convert to that float type, rounding to nearest even.\n"
            "  The input is in register %a (.s32); write the result to %d (.f32).\n")
    variant("sqrt_f32", "probe_sqrt_bench", None)
    variant("sqrt_f32", "probe_sqrt_corpus", "  One instruction: %d = sqrt(%a), in single precision (f32).\n" + fl +
            " Division and sqrt are the IEEE 754 correctly rounded operations, not approximations.\n"
            "  The input is in register %a (.f32); write the result to %d (.f32).\n")
elif probe == "names":
    # the same L1 tasks with their inputs renamed (the description, the parameters and the reference alike): the
    # corpus's name sets have no input called t, and lo and hi only after src
    import re as _re
    def renamed(src, vid, names):
        variant(src, vid, None)
        y, cl = open(f"{out}/{vid}.yaml").read(), open(f"{out}/amdgcn/{vid}.cl").read()
        head, desc_params = y.split("description: |\n", 1)
        desc, rest = desc_params.split("\nsnippet:", 1) if "\nsnippet:" in desc_params else desc_params.split("\nparams:", 1)
        sep = "\nsnippet:" if "\nsnippet:" in desc_params else "\nparams:"
        for a, b in names.items():
            desc = _re.sub(rf"%{a}\b", f"%@{b}", desc)
            desc = _re.sub(rf"\b{a}\b", f"@{b}", desc)
            rest = _re.sub(rf"name: {a},", f"name: @{b},", rest)
            rest = _re.sub(rf"%{a}\b", f"%@{b}", rest)
            cl = _re.sub(rf"\b{a}\[", f"@{b}[", cl)
            cl = _re.sub(rf"\* {a},", f"* @{b},", cl)
        y = head + "description: |\n" + desc + sep + rest
        open(f"{out}/{vid}.yaml", "w").write(y.replace("@", ""))
        open(f"{out}/amdgcn/{vid}.cl", "w").write(cl.replace("@", ""))
    variant("lerp_f32", "probe_lerp_bench", None)
    renamed("lerp_f32", "probe_lerp_w", {"t": "w"})
    renamed("lerp_f32", "probe_lerp_abc", {"t": "c"})
    variant("clamp_f32", "probe_clamp_bench", None)
    renamed("clamp_f32", "probe_clamp_abc", {"x": "a", "lo": "b", "hi": "c"})
    variant("dot3", "probe_dot3_bench", None)
    renamed("dot3", "probe_dot3_abc", {"ax": "a", "ay": "b", "az": "c", "bx": "e", "by": "f", "bz": "g"})
elif probe == "corpus":
    # the same L1 tasks (names, reference, inputs) described in the generator's words (corpus_render.c): the
    # numbered steps t1, t2 on %registers, the corpus's notes and register sentence
    fma = ("  Every float operation rounds to nearest even on its own; fma(x, y, z) is the fused multiply-add, rounded"
           " once; no other operations may be fused or reordered. Denormals are preserved (no flush to zero).\n")
    variant("lerp_f32", "probe_lerp_bench", None)
    variant("lerp_f32", "probe_lerp_corpus", "  Compute d = fma(t, b - a, a) in single precision (f32), one operation"
            " after another in exactly this order:\n    t1 = %b - %a\n    %d = fma(%t, t1, %a)\n" + fma +
            "  Inputs are in registers %a, %b and %t (.f32); write the result to %d (.f32).\n")
    variant("clamp_f32", "probe_clamp_bench", None)
    variant("clamp_f32", "probe_clamp_corpus", "  d = min(max(x, lo), hi) in single precision (f32), computed as:"
            " t1 = max(%x, %lo), then %d = min(t1, %hi).\n" + fl + "\n"
            "  Inputs are in registers %x, %lo and %hi (.f32); write the result to %d (.f32).\n")
    variant("dot3", "probe_dot3_bench", None)
    variant("dot3", "probe_dot3_corpus", "  Compute d = fma(az, bz, fma(ay, by, ax * bx)) in single precision (f32),"
            " one operation after another in exactly this order:\n    t1 = %ax * %bx\n    t2 = fma(%ay, %by, t1)\n"
            "    %d = fma(%az, %bz, t2)\n" + fma +
            "  Inputs are in registers %ax, %ay, %az, %bx, %by and %bz (.f32); write the result to %d (.f32).\n")
elif probe == "clamp":
    # which part of the corpus's wording made clamp_f32 pass (PROBE=corpus): its steps on %registers, or the
    # sentences around them
    regs = "  Inputs are in registers %x, %lo and %hi (.f32); write the result to %d (.f32).\n"
    variant("clamp_f32", "probe_clamp_bench", None)
    variant("clamp_f32", "probe_clamp_steps", "  d = min(max(x, lo), hi): x clamped to the closed range [lo, hi], with lo <="
            " hi always, computed as: t1 = max(%x, %lo), then %d = min(t1, %hi).\n" + regs)
    variant("clamp_f32", "probe_clamp_nosteps", "  d = min(max(x, lo), hi) in single precision (f32).\n" + fl + "\n" + regs)
    variant("clamp_f32", "probe_clamp_short", "  d = min(max(x, lo), hi).\n" + regs + "  No input is NaN.\n")
    variant("clamp_f32", "probe_clamp_regs", "  d = min(max(%x, %lo), %hi) in single precision (f32).\n" + fl + "\n" + regs)
elif probe == "vadd":
    # an L2 kernel: vector_add, which the eleventh run's round 4 and the twelfth run's models answer with an integer
    # add (v_add_nc_u32, add.s32) on every sample, the Data line notwithstanding. Under another kernel name with the
    # benchmark's words, in the corpus's kernel words, and with the element type spelt as the corpus spells it
    variant("vector_add", "probe_vadd_bench", None)
    variant("vector_add", "probe_vadd_corpus", "  Compute c[i] = a[i] + b[i], in single precision (f32).\n"
            "  Every float operation rounds to nearest even on its own; no other operations may be fused or reordered."
            " Denormals are preserved (no flush to zero).\n" + corpus_launch("c"))
    variant("vector_add", "probe_vadd_f32", "  Element-wise sum of two f32 (single-precision float) arrays: c[i] = a[i] +"
            " b[i] for every i < n, a float add.\n" + BENCH_LAUNCH)
elif probe == "vaddwords":
    # which words of vector_add's sentence send a model to the integer add: s19 (the eighteenth run) passes
    # probe_vadd_f32 and probe_vadd_corpus 10/10 and the benchmark's own words 0/10 (gfx1030)
    for vid, head in [("f32arrays", "Element-wise sum of two f32 arrays"),
                      ("single", "Element-wise sum of two single-precision float arrays"),
                      ("noelem", "Sum of two float arrays"),
                      ("add", "Element-wise add of two float arrays"),
                      ("floatadd", "Element-wise sum of two float arrays, a float add")]:
        variant("vector_add", "probe_vadd_" + vid, f"  {head}: c[i] = a[i] + b[i] for every i < n.\n" + BENCH_LAUNCH)
elif probe == "reluwords":
    # relu_array (L2), which every model so far answers with a load and a store of the input or of 0, no max: the
    # benchmark's cases sentence, the corpus's formula, and the type spelt f32
    variant("relu_array", "probe_relu_bench", None)
    variant("relu_array", "probe_relu_max", "  out[i] = max(x[i], 0), in single precision (f32).\n"
            "  Every float operation rounds to nearest even on its own. Denormals are preserved (no flush to zero)."
            " min and max return the other operand when one is NaN, and -0 is below +0.\n" + corpus_launch("out"))
    variant("relu_array", "probe_relu_f32", "  ReLU of an f32 array: out[i] = max(x[i], 0) for every i < n.\n" + BENCH_LAUNCH)
    variant("relu_array", "probe_relu_cases", "  out[i] = x[i] if x[i] > 0, otherwise 0, in single precision (f32), for"
            " every i < n.\n" + BENCH_LAUNCH)
elif probe == "leaky":
    # relu_leaky (L1): the PTX answers select with selp's operands in v_cndmask_b32's order (tools/train/README.md,
    # "The twentieth run"); does the corpus's ternary or step wording give the right order?
    regs = "  The input is in register %x (.f32); write the result to %d (.f32).\n"
    variant("relu_leaky", "probe_leaky_bench", None)
    variant("relu_leaky", "probe_leaky_ternary", "  %d = (%x > 0) ? %x : 0.01 * %x, in single precision (f32).\n" + fl +
            "\n" + regs)
    variant("relu_leaky", "probe_leaky_cases", "  %d = %x if %x > 0, otherwise 0.01 * %x, in single precision (f32).\n" +
            fl + "\n" + regs)
    variant("relu_leaky", "probe_leaky_steps", "  Compute %d in single precision (f32), one operation after another in"
            " exactly this order: t1 = 0.01 * %x; %d = (%x > 0) ? %x : t1.\n" + fl + "\n" + regs)
elif probe == "leakywords":
    # relu_leaky's sentence with one part changed at a time (the benchmark's: "d = x if x > 0, otherwise 0.01f * x
    # (one rounded single-precision multiply by the float nearest to 0.01, 0f3C23D70A). Zero and negative zero give
    # a zero. Denormals are preserved (no flush to zero).")
    regs = "  The input is in register %x (.f32); write the result to %d (.f32).\n"
    par = " (one rounded single-precision multiply by the float nearest to 0.01, 0f3C23D70A)"
    tail = " Zero and negative zero give a zero. Denormals are preserved (no flush to zero).\n" + regs
    variant("relu_leaky", "probe_lw_bench", "  d = x if x > 0, otherwise 0.01f * x" + par + "." + tail)
    variant("relu_leaky", "probe_lw_percent", "  %d = %x if %x > 0, otherwise 0.01f * %x" + par + "." + tail)
    variant("relu_leaky", "probe_lw_nof", "  d = x if x > 0, otherwise 0.01 * x" + par + "." + tail)
    variant("relu_leaky", "probe_lw_nopar", "  d = x if x > 0, otherwise 0.01f * x." + tail)
    variant("relu_leaky", "probe_lw_f32", "  d = x if x > 0, otherwise 0.01f * x, in single precision (f32)" + par + "." + tail)
    variant("relu_leaky", "probe_lw_corpus", "  %d = %x if %x > 0, otherwise 0.01 * %x, in single precision (f32).\n" +
            fl + "\n" + regs)
else:
    sys.exit(f"PROBE={probe}: add, unary, names, corpus, clamp, vadd, vaddwords, reluwords, leaky or leakywords")
PY
GASP_TASKS_DIR=$D "$G" bench --target "$T" --model "$M" --samples 10 --temperature 0.7 --top-p 0.95 ${GRAMMAR:+--grammar $GRAMMAR} \
  --max-tokens "${MAXTOK:-256}" --no-time -q -o "$D/r.jsonl" >/dev/null 2>&1 || true
python3 - "$D/r.jsonl" <<'PY'
import collections, json, sys
by = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    by[r["task"]].append(r)
def body(a):
    """the answer's instructions on one line, without the fence and PTX's .reg block"""
    return " | ".join(l.strip() for l in a.splitlines() if l.strip() and not l.startswith("```") and not l.strip().startswith(".reg"))
for t in sorted(by):
    rs = by[t]
    top = collections.Counter(body(r["answer"]) for r in rs).most_common(1)
    ran = any(r.get("gpu_ran") for r in rs)
    verdict = f"{sum(bool(r['pass']) for r in rs)}/{len(rs)} pass" if ran else f"{len(rs)} not run"
    print(f"{t:18s} {verdict}; most common answer: {top[0][0] if top else '-'}")
PY
# KEEP=FILE: the records (every answer) kept there, e.g. to read PTX answers that could not be run here
[ -z "${KEEP:-}" ] || cp "$D/r.jsonl" "$KEEP"
