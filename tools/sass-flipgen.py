#!/usr/bin/env python3
"""Writes raw instruction files for `nvdisasm -b SM90|SM89`: for representative corpus words, the word itself
followed by one copy per flipped bit 0-104 (bits 105-127 are control bits whose layout the facts file gives).
Representatives: per key (opcode bits 0-11 and bits 64-104 minus Rc 64-71), up to REPS distinct words, so each
opcode/modifier combination of the corpus is probed once or twice. Usage: sass-flipgen.py OUTDIR cubin..."""
import os
import struct
import sys
import importlib.util

spec = importlib.util.spec_from_file_location('ct', os.path.join(os.path.dirname(__file__), 'sass-cubin-text.py'))
ct = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ct)

REPS = 2
FLIP_BITS = 105
FIRST_BIT = 9  # bits 0-8 select the opcode itself: flipping them mostly yields other or invalid opcodes


def main():
    out = sys.argv[1]
    reps = {}
    for path in sys.argv[2:]:
        arch = 'sm90' if '.sm90.' in path else 'sm89'
        for _, t in ct.texts(path):
            for k in range(0, len(t), 16):
                lo, hi = struct.unpack_from('<QQ', t, k)
                key = (lo & 0xfff, hi & ((1 << 41) - 1) & ~0xff)
                lst = reps.setdefault(arch, {}).setdefault(key, [])
                if len(lst) < REPS and (lo, hi) not in lst:
                    lst.append((lo, hi))
    for arch, keys in reps.items():
        d = os.path.join(out, arch)
        os.makedirs(d, exist_ok=True)
        n = 0
        for key in sorted(keys):
            for lo, hi in keys[key]:
                w = (hi << 64) | lo
                buf = bytearray()
                for b in [-1] + list(range(FIRST_BIT, FLIP_BITS)):
                    v = w if b < 0 else w ^ (1 << b)
                    buf += struct.pack('<QQ', v & (2**64 - 1), v >> 64)
                with open(os.path.join(d, '%05d.bin' % n), 'wb') as f:
                    f.write(buf)
                n += 1
        print(arch, n, 'base words')


main()
