#!/usr/bin/env python3
"""Here (no GPU): which PTX answers to relu_leaky are right in structure, read from records of
tools/train/probe-wording.sh (PROBE=leaky or leakywords, KEEP=FILE) or of gasp bench (other tasks are skipped).
Right: three instructions, a setp.gt (or .le) of %x against 0, one multiply of %x by 0f3C23D70A, and a selp into %d
that picks %x where x > 0. A reading aid for answers that cannot run here, not a verdict: only gasp bench's run
on the GPU judges an answer.
Usage: leaky-check.py RECORDS.jsonl"""
import collections
import json
import re
import sys


def right(answer):
    ins = [l.strip().rstrip(";") for l in answer.splitlines()
           if l.strip() and not l.startswith("```") and not l.strip().startswith(".reg")]
    if len(ins) != 3:
        return False
    setp = [i for i in ins if i.startswith("setp.")]
    mul = [i for i in ins if i.startswith("mul")]
    if len(setp) != 1 or len(mul) != 1:
        return False
    m = re.match(r"setp\.(gt|le)\.f32 (%p\d+), %x, 0f00000000$", setp[0])
    mm = re.match(r"mul(?:\.rn)?\.f32 (%f\d+), (?:%x, 0f3C23D70A|0f3C23D70A, %x)$", mul[0])
    if not m or not mm:
        return False
    p, f = m.group(2), mm.group(1)
    want = f"selp.f32 %d, %x, {f}, {p}" if m.group(1) == "gt" else f"selp.f32 %d, {f}, %x, {p}"
    return ins[-1] == want


by = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "leaky" in r["task"] or r["task"].startswith("probe_lw"):
        by[r["task"]].append(right(r["answer"]))
for t in sorted(by):
    print(f"{t:20s} {sum(by[t])}/{len(by[t])} right in structure")
