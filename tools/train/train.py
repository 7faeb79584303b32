#!/usr/bin/env python3
"""Train gasp's default model from scratch (or continue from a dump) on a prepared corpus, on one GPU.

The model is llama.cpp's LLAMA architecture exactly, so that `gasp train export` writes the trained tensors
into a GGUF without any permutation: RMSNorm, rotary embeddings in llama.cpp's NORM mode (adjacent pairs
(x[2i], x[2i+1]) rotated by pos * theta^(-2i/d), see ggml's rope for LLAMA_ROPE_TYPE_NORM), causal attention
scaled by 1/sqrt(head_dim), SwiGLU feed-forward, tied or separate output matrix.

Input: the folder `gasp train prepare` writes (tokens.u32, mask.u8, index.json). Loss is taken only on tokens
whose mask byte is 1 (the answer and its EOS), predicting each from the tokens before it.
Output (--out): config.json + weights.bin (the interchange `gasp train export` reads), loss.csv (every logged
step), loss.svg (the curve), check.json (greedy decode of the first sample: token ids and log-probabilities,
for comparing the exported GGUF against this model) and train.json (the run's settings and figures).

Needs only PyTorch and NumPy (both in the GPU machine's image), nothing to install there.
"""
import argparse
import json
import math
import os
import random
import struct
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

PRESETS = {
    # ~26M parameters with the 32000-token llama vocabulary (12.3M of them the tied embedding):
    # q8_0 about 28 MB, inside the 50 MB budget of issue 9.
    "small": dict(n_embd=384, n_layer=8, n_head=6, n_head_kv=6, n_ff=1024),
    # for smoke tests of this script
    "tiny": dict(n_embd=64, n_layer=2, n_head=4, n_head_kv=4, n_ff=128),
}


class Llama(torch.nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        d, hd = c["n_embd"], c["n_embd"] // c["n_head"]
        self.hd = hd
        self.tok = torch.nn.Embedding(c["n_vocab"], d)
        self.layers = torch.nn.ModuleList()
        for _ in range(c["n_layer"]):
            m = torch.nn.Module()
            m.attn_norm = torch.nn.Parameter(torch.ones(d))
            m.q = torch.nn.Linear(d, c["n_head"] * hd, bias=False)
            m.k = torch.nn.Linear(d, c["n_head_kv"] * hd, bias=False)
            m.v = torch.nn.Linear(d, c["n_head_kv"] * hd, bias=False)
            m.o = torch.nn.Linear(c["n_head"] * hd, d, bias=False)
            m.ffn_norm = torch.nn.Parameter(torch.ones(d))
            m.gate = torch.nn.Linear(d, c["n_ff"], bias=False)
            m.up = torch.nn.Linear(d, c["n_ff"], bias=False)
            m.down = torch.nn.Linear(c["n_ff"], d, bias=False)
            self.layers.append(m)
        self.out_norm = torch.nn.Parameter(torch.ones(d))
        self.out = None if c["tied_embeddings"] else torch.nn.Linear(d, c["n_vocab"], bias=False)
        # GPT-2 style init: small normal, residual projections scaled by depth
        for n, p in self.named_parameters():
            if p.dim() == 2:
                std = 0.02 / math.sqrt(2 * c["n_layer"]) if n.endswith(("o.weight", "down.weight")) else 0.02
                torch.nn.init.normal_(p, 0.0, std)
        inv = c["rope_theta"] ** (-torch.arange(0, hd, 2, dtype=torch.float64) / hd)
        self.register_buffer("inv_freq", inv.float(), persistent=False)

    def rms(self, x, w):
        x32 = x.float()
        return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.c["rms_eps"])).type_as(x) * w

    def rope(self, x, pos):  # x [B, H, T, hd]; NORM mode: pairs (2i, 2i+1)
        ang = pos.float()[:, None] * self.inv_freq[None, :]  # [T, hd/2]
        cos, sin = ang.cos().to(x.dtype), ang.sin().to(x.dtype)
        x0, x1 = x[..., 0::2], x[..., 1::2]
        return torch.stack((x0 * cos - x1 * sin, x0 * sin + x1 * cos), dim=-1).flatten(-2)

    def forward(self, ids):
        return self.logits(self.hidden(ids))

    def logits(self, h):
        return h @ self.tok.weight.t() if self.out is None else self.out(h)

    def hidden(self, ids):
        B, T = ids.shape
        c = self.c
        pos = torch.arange(T, device=ids.device)
        h = self.tok(ids)
        for m in self.layers:
            x = self.rms(h, m.attn_norm)
            q = m.q(x).view(B, T, c["n_head"], self.hd).transpose(1, 2)
            k = m.k(x).view(B, T, c["n_head_kv"], self.hd).transpose(1, 2)
            v = m.v(x).view(B, T, c["n_head_kv"], self.hd).transpose(1, 2)
            q, k = self.rope(q, pos), self.rope(k, pos)
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                               enable_gqa=c["n_head_kv"] != c["n_head"])
            h = h + m.o(a.transpose(1, 2).reshape(B, T, -1))
            x = self.rms(h, m.ffn_norm)
            h = h + m.down(F.silu(m.gate(x)) * m.up(x))
        return self.rms(h, self.out_norm)

    def gguf_tensors(self):
        """(GGUF name, tensor) in PyTorch order; `gasp train export` reverses the dims into ggml's ne."""
        yield "token_embd.weight", self.tok.weight
        for i, m in enumerate(self.layers):
            b = f"blk.{i}."
            yield b + "attn_norm.weight", m.attn_norm
            yield b + "attn_q.weight", m.q.weight
            yield b + "attn_k.weight", m.k.weight
            yield b + "attn_v.weight", m.v.weight
            yield b + "attn_output.weight", m.o.weight
            yield b + "ffn_norm.weight", m.ffn_norm
            yield b + "ffn_gate.weight", m.gate.weight
            yield b + "ffn_up.weight", m.up.weight
            yield b + "ffn_down.weight", m.down.weight
        yield "output_norm.weight", self.out_norm
        if self.out is not None:
            yield "output.weight", self.out.weight


MAGIC = b"GASPW001"


def save_weights(model, path):
    tensors = list(model.gguf_tensors())
    with open(path + ".tmp", "wb") as f:
        f.write(MAGIC)
        f.write(struct.pack("<I", len(tensors)))
        for name, t in tensors:
            nb = name.encode()
            f.write(struct.pack("<I", len(nb)))
            f.write(nb)
            f.write(struct.pack("<I", t.dim()))
            f.write(struct.pack("<%dQ" % t.dim(), *t.shape))
            f.write(struct.pack("<I", 0))
            f.write(t.detach().float().cpu().contiguous().numpy().astype("<f4").tobytes())
    os.replace(path + ".tmp", path)


def load_weights(model, path):
    by_name = dict(model.gguf_tensors())
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != MAGIC:
        sys.exit(f"train.py: {path}: not a gasp weights file")
    off = 8
    (count,) = struct.unpack_from("<I", data, off)
    off += 4
    seen = set()
    for _ in range(count):
        (nl,) = struct.unpack_from("<I", data, off)
        off += 4
        name = data[off:off + nl].decode()
        off += nl
        (nd,) = struct.unpack_from("<I", data, off)
        off += 4
        dims = struct.unpack_from("<%dQ" % nd, data, off)
        off += 8 * nd
        (dt,) = struct.unpack_from("<I", data, off)
        off += 4
        n = math.prod(dims)
        if dt != 0 or name not in by_name or tuple(by_name[name].shape) != tuple(dims):
            sys.exit(f"train.py: {path}: tensor {name} {dims} does not fit the config")
        if off + 4 * n > len(data):
            sys.exit(f"train.py: {path}: truncated at tensor {name}")
        t = torch.from_numpy(np.frombuffer(data, dtype="<f4", count=n, offset=off).copy()).view(*dims)
        off += 4 * n
        with torch.no_grad():
            by_name[name].copy_(t)
        seen.add(name)
    missing = set(by_name) - seen
    if missing:
        sys.exit(f"train.py: {path}: missing tensors {sorted(missing)[:4]}")


def svg_plot(rows, path):
    """The loss curve as a plain SVG (no plotting package needed on the GPU machine)."""
    if len(rows) < 2:
        return
    W, H, P = 720, 360, 50
    xs = [r["step"] for r in rows]
    ys = [r["loss"] for r in rows]
    x0, x1, y0, y1 = min(xs), max(xs), 0.0, max(ys) * 1.05
    def px(x): return P + (W - 2 * P) * (x - x0) / max(1, x1 - x0)
    def py(y): return H - P - (H - 2 * P) * (y - y0) / max(1e-9, y1 - y0)
    pts = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, ys))
    ticks = "".join(f'<text x="{P-8}" y="{py(v):.1f}" text-anchor="end" font-size="11">{v:.2f}</text>'
                    f'<line x1="{P}" x2="{W-P}" y1="{py(v):.1f}" y2="{py(v):.1f}" stroke="#ddd"/>'
                    for v in [y1 * k / 5 for k in range(6)])
    with open(path, "w") as f:
        f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif">'
                f'<rect width="{W}" height="{H}" fill="white"/>{ticks}'
                f'<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="{pts}"/>'
                f'<text x="{W/2}" y="{H-12}" text-anchor="middle" font-size="12">step (of {x1})</text>'
                f'<text x="{W/2}" y="20" text-anchor="middle" font-size="13">training loss (answer tokens, nats)</text>'
                f'</svg>')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True, nargs="+", help="folders written by `gasp train prepare` (concatenated)")
    ap.add_argument("--out", required=True, help="folder for config.json, weights.bin, loss.csv, loss.svg")
    ap.add_argument("--init", help="start from this folder's config.json + weights.bin (`gasp train dump`)")
    ap.add_argument("--preset", default="small", choices=sorted(PRESETS))
    ap.add_argument("--epochs", type=float, default=8.0)
    ap.add_argument("--max-minutes", type=float, default=0, help="stop (and save) after this long; 0: no limit")
    ap.add_argument("--batch-tokens", type=int, default=65536, help="tokens per optimizer step (padded)")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--min-lr", type=float, default=1e-4)
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--weight-decay", type=float, default=0.1)
    ap.add_argument("--ctx", type=int, default=4096, help="longest sample kept (tokens)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compile", action="store_true", help="torch.compile the model (faster after warm-up)")
    ap.add_argument("--repeat", default="", help="PREFIX=K,...: samples whose task id starts with PREFIX are seen K "
                    "times an epoch (short answers, e.g. g_ew_op=4: their few decisive tokens are a sliver of the loss)")
    a = ap.parse_args()

    t_start = time.time()
    random.seed(a.seed)
    torch.manual_seed(a.seed)
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    torch.backends.cuda.matmul.allow_tf32 = True

    # several prepared folders (one per target, tokenized in parallel) are concatenated; offsets shift
    idx, toks, mask, all_samples, all_ids, base = None, [], [], [], [], 0
    for dpath in a.data:
        ix = json.load(open(os.path.join(dpath, "index.json")))
        t = np.fromfile(os.path.join(dpath, "tokens.u32"), dtype="<u4").astype(np.int64)
        m = np.fromfile(os.path.join(dpath, "mask.u8"), dtype=np.uint8)
        if t.size != m.size or t.size != ix["tokens"]:
            sys.exit(f"train.py: {dpath}: tokens.u32, mask.u8 and index.json disagree on the token count")
        if idx and (ix["n_vocab"], ix["eos"], ix["vocab"]) != (idx["n_vocab"], idx["eos"], idx["vocab"]):
            sys.exit(f"train.py: {dpath}: another vocabulary than {a.data[0]}")
        idx = idx or ix
        all_samples += [(o + base, n) for o, n in ix["samples"]]
        all_ids += ix.get("ids", ["?"] * len(ix["samples"]))
        toks.append(t)
        mask.append(m)
        base += t.size
    toks = torch.from_numpy(np.concatenate(toks))
    mask = torch.from_numpy(np.concatenate(mask))
    idx = dict(idx, samples=all_samples, ids=all_ids, tokens=base)
    reps = {}
    for item in filter(None, a.repeat.split(",")):
        pre, k = item.split("=")
        reps[pre] = int(k)
    samples = []
    for (o, n), sid in zip(idx["samples"], all_ids):
        if n <= a.ctx:
            samples += [(o, n)] * next((k for pre, k in reps.items() if sid.startswith(pre)), 1)
    if reps:
        print(f"train.py: --repeat {a.repeat}: {len(samples)} sample views an epoch from "
              f"{sum(1 for _, n in idx['samples'] if n <= a.ctx)} samples", flush=True)
    if not samples:
        sys.exit("train.py: no samples")

    if a.init:
        cfg = json.load(open(os.path.join(a.init, "config.json")))
    else:
        cfg = dict(arch="llama", vocab=idx["vocab"], n_vocab=idx["n_vocab"], n_ctx_train=a.ctx,
                   rope_theta=10000.0, rms_eps=1e-5, tied_embeddings=True, **PRESETS[a.preset])
    if cfg["n_vocab"] != idx["n_vocab"]:
        sys.exit("train.py: the model's vocabulary and the corpus's differ")
    model = Llama(cfg).to(dev)
    if a.init:
        load_weights(model, os.path.join(a.init, "weights.bin"))
    nparams = sum(p.numel() for p in model.parameters())
    hidden = torch.compile(model.hidden, dynamic=True) if a.compile else model.hidden

    decay = [p for p in model.parameters() if p.dim() == 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": a.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}], lr=a.lr, betas=(0.9, 0.95),
                            fused=dev == "cuda")

    # Batches of samples of similar length (sorted, then cut at batch_tokens of padded size), shuffled per epoch.
    def make_batches(rng):
        order = sorted(samples, key=lambda s: (s[1], rng.random()))
        batches, cur = [], []
        for s in order:
            if cur and (len(cur) + 1) * max(s[1], cur[-1][1]) > a.batch_tokens:
                batches.append(cur)
                cur = []
            cur.append(s)
        if cur:
            batches.append(cur)
        rng.shuffle(batches)
        return batches

    rng = random.Random(a.seed)
    per_epoch = len(make_batches(random.Random(0)))
    total_steps = max(1, int(per_epoch * a.epochs))
    answer_tokens = int(mask.sum())
    print(f"train.py: {len(samples)} samples, {toks.numel()} tokens ({answer_tokens} answer tokens), "
          f"{nparams/1e6:.2f}M parameters, {per_epoch} steps per epoch, {total_steps} steps, device {dev}",
          flush=True)

    os.makedirs(a.out, exist_ok=True)
    logf = open(os.path.join(a.out, "loss.csv"), "w")
    logf.write("step,epoch,loss,lr,tokens,seconds\n")
    rows, step, seen_tokens, ema = [], 0, 0, None
    stop = False
    model.train()
    t_train = time.time()
    while step < total_steps and not stop:
        for batch in make_batches(rng):
            if step >= total_steps:
                break
            # progress: the larger of steps done and time used, so that with --max-minutes the cosine decay
            # still ends at min_lr when the time runs out (a schedule cut short ends at a high rate)
            frac = step / total_steps
            if a.max_minutes:
                frac = max(frac, (time.time() - t_train) / (a.max_minutes * 60 - (t_train - t_start)))
            if frac >= 1.0:
                if step < total_steps:
                    print(f"train.py: time limit reached at step {step} of {total_steps}", flush=True)
                stop = True
                break
            L = max(n for _, n in batch)
            ids = torch.zeros(len(batch), L, dtype=torch.long)
            tgt_mask = torch.zeros(len(batch), L, dtype=torch.bool)
            for r, (o, n) in enumerate(batch):
                ids[r, :n] = toks[o:o + n]
                tgt_mask[r, :n] = mask[o:o + n].bool()
            ids, tgt_mask = ids.to(dev, non_blocking=True), tgt_mask.to(dev, non_blocking=True)
            lr = a.lr * min(1.0, (step + 1) / a.warmup)
            if step >= a.warmup:
                w = a.warmup / total_steps
                prog = max(0.0, (frac - w) / max(1e-9, 1 - w))
                lr = a.min_lr + 0.5 * (a.lr - a.min_lr) * (1 + math.cos(math.pi * prog))
            for g in opt.param_groups:
                g["lr"] = lr
            sel = tgt_mask[:, 1:]
            with torch.autocast(device_type=dev, dtype=torch.bfloat16, enabled=dev == "cuda"):
                h = hidden(ids[:, :-1])[sel]  # logits only where the loss is taken: the vocabulary is 32000 wide
                logits = model.logits(h)
            loss = F.cross_entropy(logits.float(), ids[:, 1:][sel])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            seen_tokens += int(sum(n for _, n in batch))
            if step % 10 == 0 or step == total_steps or step == 1:
                lv = loss.item()
                ema = lv if ema is None else 0.9 * ema + 0.1 * lv
                el = time.time() - t_start
                row = dict(step=step, epoch=step / per_epoch, loss=lv, lr=lr, tokens=seen_tokens, seconds=el)
                rows.append(row)
                logf.write(f"{step},{step/per_epoch:.3f},{lv:.5f},{lr:.6g},{seen_tokens},{el:.1f}\n")
                logf.flush()
                if step % 50 == 0 or step == 1:
                    print(f"step {step}/{total_steps} epoch {step/per_epoch:.2f} loss {lv:.4f} (ema {ema:.4f}) "
                          f"lr {lr:.2e} {seen_tokens/max(el,1e-9):.0f} tok/s", flush=True)
    logf.close()
    train_s = time.time() - t_start

    model.eval()
    with open(os.path.join(a.out, "config.json"), "w") as f:
        json.dump(cfg, f, indent=1)
    save_weights(model, os.path.join(a.out, "weights.bin"))
    svg_plot(rows, os.path.join(a.out, "loss.svg"))

    # Greedy decode of the first sample's prompt in f32, for comparing the exported GGUF with this model.
    o, n = idx["samples"][0]
    m = mask[o:o + n].bool()
    plen = int((~m).sum()) if m.any() else n
    prompt = toks[o:o + plen].tolist()
    ids = list(prompt)
    steps = []
    with torch.no_grad():
        for _ in range(48):
            lg = model(torch.tensor([ids], device=dev)).float()[0, -1]
            lp = torch.log_softmax(lg, -1)
            t = int(lg.argmax())
            steps.append([t, float(lp[t])])
            ids.append(t)
            if t == idx["eos"]:
                break
    json.dump(dict(sample=0, id=idx["ids"][0], prompt_tokens=len(prompt), greedy=steps),
              open(os.path.join(a.out, "check.json"), "w"))
    json.dump(dict(args=vars(a), params=nparams, steps=step, total_steps=total_steps, seconds=train_s,
                   tokens_seen=seen_tokens, final_loss=rows[-1]["loss"] if rows else None,
                   samples=len(samples), torch=torch.__version__,
                   device=torch.cuda.get_device_name() if dev == "cuda" else "cpu"),
              open(os.path.join(a.out, "train.json"), "w"), indent=1)
    print(f"train.py: {step} steps in {train_s:.0f} s, final loss {rows[-1]['loss'] if rows else float('nan'):.4f}; "
          f"wrote {a.out}", flush=True)


if __name__ == "__main__":
    main()
