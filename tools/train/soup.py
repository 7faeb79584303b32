#!/usr/bin/env python3
"""Average the weights of two models of one shape (a "model soup"): out = w * A + (1 - w) * B.

Usage: soup.py A_DIR B_DIR W OUT_DIR
A_DIR and B_DIR hold `gasp train dump` output (config.json, weights.bin in f32); OUT_DIR gets the average, for
`gasp train export OUT_DIR -o M.gguf`. Both models must descend from one initialisation (a fine-tune of the other,
or two continuations of one model): averaging unrelated weights gives noise.

Why: rounds of training continued from the shipped model trade one benchmark cell for another (tools/train/README.md,
"The twelfth run"); points between two such rounds are a cheap way to look for one that keeps both, on the CPU
here, without device time. Only the standard library: the trainer's format is simple and this machine has no numpy.
"""
import json
import os
import struct
import sys
from array import array


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"GASPW001":
        raise SystemExit(f"{path}: not a gasp weights file")
    (count,) = struct.unpack_from("<I", data, 8)
    off, tensors = 12, []
    for _ in range(count):
        (nl,) = struct.unpack_from("<I", data, off)
        name = data[off + 4: off + 4 + nl].decode()
        off += 4 + nl
        (nd,) = struct.unpack_from("<I", data, off)
        dims = struct.unpack_from(f"<{nd}Q", data, off + 4)
        off += 4 + 8 * nd
        (dtype,) = struct.unpack_from("<I", data, off)
        off += 4
        if dtype != 0:
            raise SystemExit(f"{path}: {name} is not f32")
        n = 1
        for d in dims:
            n *= d
        header_end = off
        off += 4 * n
        tensors.append((name, dims, header_end, off))
    if off != len(data):
        raise SystemExit(f"{path}: {len(data) - off} trailing bytes")
    return data, tensors


def main():
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    a_dir, b_dir, w, out_dir = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    if not 0.0 <= w <= 1.0:
        raise SystemExit("W must be in [0, 1]")
    with open(os.path.join(a_dir, "config.json")) as f:
        ca = json.load(f)
    with open(os.path.join(b_dir, "config.json")) as f:
        cb = json.load(f)
    if ca != cb:
        raise SystemExit("the two configs differ: not one shape")
    da, ta = read(os.path.join(a_dir, "weights.bin"))
    db, tb = read(os.path.join(b_dir, "weights.bin"))
    if [(t[0], t[1]) for t in ta] != [(t[0], t[1]) for t in tb]:
        raise SystemExit("the two tensor lists differ")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "config.json"), "w") as f:
        json.dump(ca, f, indent=1)
    v = 1.0 - w
    with open(os.path.join(out_dir, "weights.bin"), "wb") as f:
        prev = 0
        for (name, dims, hdr_end, end), (_, _, hb, eb) in zip(ta, tb):
            f.write(da[prev:hdr_end])  # the tensor's header (identical in both, checked above)
            x = array("f")
            x.frombytes(da[hdr_end:end])
            y = array("f")
            y.frombytes(db[hb:eb])
            f.write(array("f", [w * p + v * q for p, q in zip(x, y)]).tobytes())
            prev = end
    print(f"soup: {len(ta)} tensors, w = {w} of {a_dir}, {v} of {b_dir} -> {out_dir}")


if __name__ == "__main__":
    main()
