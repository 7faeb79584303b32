#!/usr/bin/env python3
"""Deepen a model by block expansion: new transformer blocks that start as the identity.

Usage: grow.py IN_DIR K OUT_DIR
IN_DIR holds `gasp train dump` output (config.json, weights.bin in f32); OUT_DIR gets a model with K more
blocks, for train.py --init (device-train.sh GROW=K) or `gasp train export`. The blocks are spread evenly: with
8 blocks and K = 4, a new one after blocks 1, 3, 5 and 7. Each new block is a copy of the block before it with
its two output projections (attn_output and ffn_down) set to zero, so that both of its residual branches add
nothing: the grown model computes exactly what the model it grew from computes (the block expansion of LLaMA Pro,
Wu et al. 2024), and training moves it from there instead of from random blocks.

Why: every round since the eighth run continued the 26M model and traded one benchmark cell for another; held-out
composition rises with fresh data while the benchmark's L1 does not (tools/train/README.md, "The fourteenth run"). A
deeper model is the lever the data has not been. Issue 9's limits (50 MB, 50 tokens/s on 2 cores) leave room for 2
more blocks of 384; 4 come too near 50 tokens/s (measured there). Only the standard library, as soup.py: this
machine has no numpy.
"""
import json
import os
import re
import struct
import sys

from soup import read

OUTPUT_PROJECTIONS = ("attn_output.weight", "ffn_down.weight")


def usage(msg):
    print(f"grow.py: {msg}", file=sys.stderr)
    sys.exit(2)  # gasp's usage-error code


def main():
    if len(sys.argv) != 4 or not sys.argv[2].isdigit():
        usage("usage: grow.py IN_DIR K OUT_DIR (K a whole number)")
    in_dir, k, out_dir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(os.path.join(in_dir, "config.json")) as f:
        cfg = json.load(f)
    n = cfg["n_layer"]
    if k < 1 or k > n:
        usage(f"K must be in [1, {n}] (one new block after at most every block)")
    data, tensors = read(os.path.join(in_dir, "weights.bin"))
    blocks = [[] for _ in range(n)]  # each block's tensors: (name after "blk.N.", read()'s tuple)
    head, tail = [], []
    for name, dims, hdr_end, end in tensors:
        m = re.match(r"blk\.(\d+)\.(.+)$", name)
        item = (name, dims, hdr_end, end)
        if m:
            blocks[int(m.group(1))].append((m.group(2), item))
        elif not any(blocks):
            head.append(item)
        else:
            tail.append(item)
    # after which old blocks a new one goes: every n/k-th, the last one included
    after = {round((i + 1) * n / k) - 1 for i in range(k)}

    def tensor(name, dims, payload):
        b = name.encode()
        return (struct.pack("<I", len(b)) + b + struct.pack("<I", len(dims)) + struct.pack(f"<{len(dims)}Q", *dims) +
                struct.pack("<I", 0) + payload)

    out = []
    for name, dims, hdr_end, end in head:
        out.append(tensor(name, dims, data[hdr_end:end]))
    j = 0
    for i in range(n):
        for copy in (False, True) if i in after else (False,):
            for suffix, (_, dims, hdr_end, end) in blocks[i]:
                payload = data[hdr_end:end]
                if copy and suffix in OUTPUT_PROJECTIONS:
                    payload = bytes(len(payload))
                out.append(tensor(f"blk.{j}.{suffix}", dims, payload))
            j += 1
    for name, dims, hdr_end, end in tail:
        out.append(tensor(name, dims, data[hdr_end:end]))
    os.makedirs(out_dir, exist_ok=True)
    cfg["n_layer"] = n + k
    with open(os.path.join(out_dir, "config.json"), "w") as f:
        json.dump(cfg, f, indent=1)
    with open(os.path.join(out_dir, "weights.bin"), "wb") as f:
        f.write(data[:8] + struct.pack("<I", len(out)))
        for t in out:
            f.write(t)
    print(f"grow: {n} blocks -> {n + k} (new after {sorted(after)}), {len(out)} tensors -> {out_dir}")


if __name__ == "__main__":
    main()
