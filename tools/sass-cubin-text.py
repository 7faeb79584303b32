#!/usr/bin/env python3
"""Shared helper: the .text.<kernel> sections of a cubin as (kernel, bytes), read straight from the ELF
section table (the cubin is a plain ELF64 little-endian file, facts file: EM_CUDA 190)."""
import struct


def texts(path):
    b = open(path, 'rb').read()
    if b[:4] != b'\x7fELF' or b[4] != 2:
        raise ValueError('%s: not an ELF64 file' % path)
    shoff, = struct.unpack_from('<Q', b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
    secs = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx]

    def name(off):
        s = names[4] + off
        return b[s:b.index(b'\0', s)].decode()
    for s in secs:
        n = name(s[0])
        if n.startswith('.text.'):
            yield n[6:], b[s[4]:s[4] + s[5]]
