#!/usr/bin/env python3
"""Lists, per generation, the opcodes the AMD emulator executes: the rows of emu_optab.c (LLVM 19's own
mnemonics) whose canonical op has a case in emu_exec.c (or belongs to a family handled by index: v_cmp*,
s_cmp*, s_cmpk*, s_lshlN_add). Usage: tools/amdemu-coverage.py [--names]"""
import os, re, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "target", "amdgcn", "emu")
exe = open(os.path.join(root, "emu_exec.c")).read()
tab = open(os.path.join(root, "emu_optab.c")).read()
family = re.compile(r"^(V_CMPX?_|S_CMPK?_|S_LSHL[1-4]_ADD|S_LOAD_)")
for gen in ("gfx900", "gfx1030", "gfx1100"):
    body = tab.split("emu_optab_%s[] = {" % gen)[1].split("};")[0]
    done, known = [], 0
    for fmt, op, name in re.findall(r'\{EMU_FMT_(\w+), 0x[0-9a-f]+, EMU_OP_(\w+), "([^"]+)"\}', body):
        known += 1
        if op in ("NONE", "S_CODE_END"):  # s_code_end is padding: executing it is reported as an error
            continue
        if ("EMU_OP_" + op) in exe or family.match(op):
            done.append((fmt, name))
    names = sorted(set(n for _, n in done))
    print("%s: %d of the %d opcodes LLVM knows in the decoded formats (%d distinct mnemonics)" % (gen, len(done), known, len(names)))
    cmps = [n for n in names if re.match(r"v_cmpx?_", n)]
    print("  of which v_cmp/v_cmpx: %d; the others: %d" % (len(cmps), len(names) - len(cmps)))
    if "--names" in sys.argv:
        print("  " + " ".join(n for n in names if n not in cmps))
