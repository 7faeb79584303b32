#!/usr/bin/env python3
"""Learns per-architecture SASS encoding tables from nvdisasm dumps (tools/sass-corpus/dumps).

Usage: sass-learn.py DUMPDIR OUTDIR [--check]
Writes OUTDIR/sass_sm90.tab and sass_sm89.tab (the tables, text, one form per line) and prints the round-trip
share of the corpus under the learned tables. --check: regenerate into memory and compare with OUTDIR
(the ctest), exit 1 on any difference.

Method (CuAssembler's idea, made stricter): instructions are grouped by (opcode bits 0-11, placeholder kinds).
For each placeholder the learner searches every bit offset and value interpretation (integer, f32, high half
of f64, f16) for a field that holds the placeholder's value in every sample of the group; when several
offsets fit (the value never varied), the offset most often determined uniquely for that kind elsewhere wins.
What remains after removing fields, guard (12-15), control (105-125) and reuse bits is the form's fixed bits,
keyed by the exact form text. Forms whose fixed bits differ between samples are reported (hidden bits)."""
import collections
import importlib.util
import math
import os
import re
import struct
import sys

_spec = importlib.util.spec_from_file_location('sx', os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                  'sass-syntax.py'))
sx = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sx)

LINE = re.compile(r'^\s*/\*([0-9a-f]{4,})\*/\s*(.*?)\s*/\* 0x([0-9a-f]{16}) \*/\s*$')
HI = re.compile(r'^\s*/\* 0x([0-9a-f]{16}) \*/\s*$')
LABEL = re.compile(r'^(\S+):\s*$')
SECTION = re.compile(r'^\s*\.section\s+(\S+?),')
GUARD_MASK = 0xf << 12
CTL_MASK = ((1 << 128) - 1) ^ ((1 << 105) - 1)  # 105-127: stall, yield, barriers, wait, reuse, 2 zero bits
REG_WIDTH = {'R': 8, 'UR': 6, 'P': 3, 'UP': 3, 'B': 4, 'SB': 3}
N_CAP = 32


class Inst:
    __slots__ = ('arch', 'file', 'sec', 'addr', 'text', 'word', 'guard', 'mnem', 'skel', 'vals', 'reuse',
                 'key', 'kinds', 'labels')


def load(dumpdir):
    insts = []
    for fn in sorted(os.listdir(dumpdir)):
        if not fn.endswith('.sass'):
            continue
        arch = 'sm90' if '.sm90.' in fn else 'sm89'
        sec = None
        labels = {}
        pending = []
        cur = None
        for ln in open(os.path.join(dumpdir, fn)):
            m = SECTION.match(ln)
            if m:
                sec = m.group(1)
                labels = {}
                continue
            m = LABEL.match(ln)
            if m and not ln.startswith(' '):
                pending.append(m.group(1))
                continue
            m = LINE.match(ln)
            if m:
                cur = (int(m.group(1), 16), m.group(2), int(m.group(3), 16))
                for p in pending:
                    labels[p] = cur[0]
                pending = []
                continue
            m = HI.match(ln)
            if m and cur:
                i = Inst()
                i.arch, i.file, i.sec, i.addr, i.text = arch, fn, sec, cur[0], cur[1]
                i.word = (int(m.group(1), 16) << 64) | cur[2]
                i.labels = labels
                insts.append(i)
                cur = None
        # labels defined after the last instruction (the end label) still count
        for p in pending:
            labels[p] = None
    for i in insts:
        ctl, i.guard, i.mnem, ops = sx.split_line(i.text)
        i.skel, i.vals, i.reuse = sx.tokenize(ops)
        i.key = sx.form_key(i.guard, i.mnem, i.skel)
        i.kinds = tuple(k for k, _ in i.vals)
    return insts


def bits(word, p, w):
    return (word >> p) & ((1 << w) - 1)


# Value interpretations of a placeholder. Each returns an integer to be stored in the field, or None when the
# sample says nothing (NaN text, relocated label).
def roles(skel):
    """Role of each placeholder from the literal text before it: constant bank, constant offset, memory
    address part, or plain operand. Field widths are capped per role."""
    out = []
    pos = 0
    while True:
        k = skel.find('\x00', pos)
        if k < 0:
            return out
        before = skel[:k]
        if before.endswith('c[') or before.endswith('cx['):
            out.append('bank')
        elif re.search(r'cx?\[[^\]]*\]\[[^\]]*$', before):
            out.append('cboff')
        elif before.count('[') > before.count(']'):
            out.append('mem')
        else:
            out.append('op')
        pos = k + 1


CAP = {'bank': 5, 'cboff': 16, 'mem': 24, 'op': 32}


def cap_of(kind, role):
    if kind in REG_WIDTH:
        return REG_WIDTH[kind]
    if kind == 'L':
        return 64
    return CAP[role]


def nan_text(raw):
    return raw.lstrip('+-') in ('QNAN', 'NAN')


def to_number(raw, how):
    """Text of a numeric placeholder -> integer stored under interpretation `how`, or None (NaN: no value,
    its bits come from the NaN table)."""
    v, isf = sx.parse_number(raw)
    if isinstance(v, str):
        if 'NAN' in v:
            return None
        v = -math.inf if v.startswith('-') else math.inf
    try:
        # nvdisasm prints integers in hex and floats in decimal (`0x1` vs `1`): the text fixes the kind
        is_hex = raw.lstrip('+-').startswith('0x')
        if how == 'int':
            if not is_hex:
                raise ValueError
            return v
        if is_hex:
            raise ValueError
        if how == 'f32':
            return sx.f32_bits(float(v))
        if how == 'f64h':
            return sx.f64_bits(float(v)) >> 32
        if how == 'f16':
            return struct.unpack('<H', struct.pack('<e', float(v)))[0]
        if how == 'bf16':
            b = sx.f32_bits(float(v))
            if b & 0xffff:
                raise ValueError
            return b >> 16
    except (OverflowError, ValueError):
        raise ValueError
    raise ValueError


def interp_values(group, idx, how):
    out = []
    for i in group:
        kind, raw = i.vals[idx]
        if kind in REG_WIDTH:
            out.append(sx.reg_value(kind, raw))
        elif kind == 'L':
            t = i.labels.get(raw)
            out.append(None if t is None else t - (i.addr + 16))
        else:
            try:
                out.append(to_number(raw, how))
            except ValueError:
                return None
    return out


class Field:
    __slots__ = ('idx', 'kind', 'role', 'how', 'shift', 'segs', 'signed', 'neg', 'unique', 'need')

    def __repr__(self):
        return '%d:%s/%s:%s>>%d:%s:%s' % (self.idx, self.kind, self.role, self.how, self.shift,
                                          ','.join('%d@%d+%d' % sg for sg in self.segs), 's' if self.signed else 'u')


def seg_fits(group, vals, vlo, p, w, last):
    """Bits [p, p+w) equal value bits [vlo, vlo+w) in every sample; the last segment must also hold the
    value's sign/zero extension (so the value fits)."""
    m = (1 << w) - 1
    for i, v in zip(group, vals):
        if v is None:
            continue
        part = v >> vlo
        if last and not (-(1 << (w - 1)) <= part < (1 << w)):
            return False
        if (i.word >> p) & m != part & m:
            return False
    return True


def free(taken, p, w):
    return p >= 12 and p + w <= 105 and not any(b in taken for b in range(p, p + w))


def search(group, vals, kind, role, taken):
    """-> list of (shift, segs) at minimal widths, each consistent with all samples."""
    known = [v for v in vals if v is not None]
    if not known:
        return []
    res = []
    if kind in REG_WIDTH:
        w = REG_WIDTH[kind]
        return [(0, [(0, p, w)]) for p in range(12, 105 - w + 1) if free(taken, p, w)
                and seg_fits(group, vals, 0, p, w, True)]
    shifts = [0, 2] if kind == 'L' else [0]
    for s in shifts:
        if any(v & ((1 << s) - 1) for v in known):
            continue
        sv = [None if v is None else v >> s for v in vals]
        kn = [v for v in sv if v is not None]
        need = max(max(v.bit_length() if v >= 0 else (~v).bit_length() + 1 for v in kn), 1)
        for p in range(12, 105):
            if free(taken, p, need) and seg_fits(group, sv, 0, p, need, True):
                res.append((s, [(0, p, need)]))
        if res:
            return res
        # two segments: low k bits at p1, the rest at p2 (sm_90 branch offsets, PLOP3 LUTs)
        for k in range(min(need - 1, 16), 0, -1):
            lows = [p for p in range(12, 105) if free(taken, p, k) and seg_fits(group, sv, 0, p, k, False)]
            hn = max(need - k, 1)
            for p1 in lows:
                t2 = taken | set(range(p1, p1 + k))
                highs = [p for p in range(12, 105) if free(t2, p, hn) and seg_fits(group, sv, k, p, hn, True)]
                for p2 in highs:
                    res.append((s, [(0, p1, k), (k, p2, hn)]))
            if res:
                return res
    return res


def extend(group, vals, f, taken):
    """Widen the last segment up to the role's cap while every sample stays consistent."""
    capw = cap_of(f.kind, f.role)
    vlo, p, w = f.segs[-1]
    sv = [None if v is None else v >> f.shift for v in vals]
    used = sum(sg[2] for sg in f.segs[:-1])
    while used + w < capw and free(taken, p + w, 1) and seg_fits(group, sv, vlo, p, w + 1, True):
        w += 1
    f.segs[-1] = (vlo, p, w)


def ctx_of(inst, idx):
    n = len(inst.kinds)
    where = 'first' if idx == 0 else 'last' if idx == n - 1 else 'mid'
    k = -1
    for _ in range(idx + 1):
        k = inst.skel.find('\x00', k + 1)
    before = inst.skel[:k].rstrip('RUPSB')
    return (where, before.endswith('!'))


def learn_group(group, prior, record, forbid=frozenset(), widen=True):
    kinds = group[0].kinds
    rl = roles(group[0].skel)
    taken = set(forbid)
    fields = []
    order = []
    for idx, kind in enumerate(kinds):
        hows = ['int'] if kind != 'N' else ['int', 'f32', 'f64h', 'f16', 'bf16']
        opts = []
        for how in hows:
            vals = interp_values(group, idx, how)
            if vals is None:
                continue
            distinct = len(set(v for v in vals if v is not None))
            opts.append((how, vals, distinct))
        order.append((idx, kind, rl[idx], opts))
    def ncand(o):
        for how, vals, d in o[3]:
            c = search(group, vals, o[1], o[2], set(forbid))
            if c:
                return len(c)
        return 999
    def known_elsewhere(o):
        # placeholders whose position another operand variant of the opcode pinned down go first, so that an
        # ambiguous neighbour cannot take their bits
        fam = (group[0].word & 0x1ff, len(kinds), o[0])
        return 0 if any(k[0] == 'fam' and k[1] == fam for k in prior) else 1
    order.sort(key=lambda o: (-max([d for _, _, d in o[3]] or [0]), known_elsewhere(o), ncand(o)))
    for idx, kind, role, opts in order:
        chosen = None
        for how, vals, distinct in opts:
            c = search(group, vals, kind, role, taken)
            if not c:
                continue
            if len(c) == 1:
                chosen = (how, vals, c[0], True)
            else:
                # the value never varied: take the offset most often found for this kind of operand in the
                # same place (first/middle/last operand, negated or not), else for the kind at all
                # first choice: where the same operand sits in another operand variant of this opcode
                # (ISETP with UR keeps ISETP-with-R's predicate positions), then the context's, then the kind's
                ctx = ctx_of(group[0], idx)
                fam = (group[0].word & 0x1ff, len(kinds), idx)
                best = max(c, key=lambda x: (prior.get(('fam', fam, x[1][0][1]), 0),
                                             prior.get((kind, role, ctx, x[1][0][1]), 0),
                                             prior.get((kind, role, x[1][0][1]), 0), -x[1][0][1]))
                chosen = (how, vals, best, False)
            break
        if chosen is None:
            if opts and all(v is None for v in opts[0][1]) and kind == 'N':
                # only NaN texts: no value to place; take the usual operand position, bits from the NaN table
                p = max([(c, k[2]) for k, c in prior.items() if k[:2] == (kind, role)] or [(0, 32)])[1]
                chosen = ('f32', opts[0][1], (0, [(0, p, 32)]), False)
            else:
                return None, 'no field for placeholder %d (%s)' % (idx, kind)
        f = Field()
        f.idx, f.kind, f.role, f.how = idx, kind, role, chosen[0]
        f.shift, f.segs = chosen[2][0], list(chosen[2][1])
        f.unique = chosen[3]
        known = [v for v in chosen[1] if v is not None]
        f.neg = any(v < 0 for v in known)
        # widest value seen (bits of the stored field value): the disassembler prefers the form in which a
        # word's values look like the corpus's, e.g. LEA.HI's shift over LEA's shift swallowing the .HI bit
        f.need = max([(v >> f.shift).bit_length() if v >= 0 else 64 for v in known] or [0])
        f.signed = f.neg
        if record and f.unique:
            fam = (group[0].word & 0x1ff, len(kinds), idx)
            for k in ((kind, role, f.segs[0][1]), (kind, role, ctx_of(group[0], idx), f.segs[0][1]),
                      ('fam', fam, f.segs[0][1])):
                prior[k] = prior.get(k, 0) + 1
        for _, p, w in f.segs:
            taken.update(range(p, p + w))
        fields.append((f, chosen[1]))
    for f, vals in sorted(fields, key=lambda fv: -len(set(fv[1]))) if widen else []:
        _, p, w = f.segs[-1]
        taken.difference_update(range(p, p + w))
        extend(group, vals, f, taken)
        _, p, w = f.segs[-1]
        taken.update(range(p, p + w))
    out = [f for f, _ in fields]
    out.sort(key=lambda f: f.idx)
    return out, None


def field_mask(fields):
    m = 0
    for f in fields:
        for _, p, w in f.segs:
            m |= ((1 << w) - 1) << p
    return m


def put_field(f, v):
    w = 0
    u = v >> f.shift
    for vlo, p, n in f.segs:
        w |= ((u >> vlo) & ((1 << n) - 1)) << p
    return w


def learn_reuse(g):
    """Which reuse bit (122-125) each placeholder's .reuse sets: from samples with one .reuse, then by
    elimination in samples with several."""
    rmap = {}
    for _ in range(3):
        for i in g:
            rb = (i.word >> 122) & 0xf
            unknown = [x for x in i.reuse if x not in rmap]
            left = rb
            for x in i.reuse:
                if x in rmap:
                    left &= ~(1 << rmap[x])
            if len(unknown) == 1 and bin(left).count('1') == 1:
                rmap[unknown[0]] = left.bit_length() - 1
    return rmap


def consts(fields, li):
    """Placeholders whose field value never varied in the form's samples. nvdisasm picks between aliases with
    identical fixed bits by operand values (IMAD.MOV when both factors are RZ, IMAD.IADD when the factor is 1),
    so the disassembler prefers the alias whose constant operands match."""
    out = {}
    for f in fields:
        vs = set()
        for i in li:
            v = 0
            for vlo, p, n in f.segs:
                v |= ((i.word >> p) & ((1 << n) - 1)) << vlo
            vs.add(v)
        if len(vs) == 1:
            out[f.idx] = vs.pop()
    return out


def synthesize(forms):
    """Forms the corpus lacks, composed from ones it has. An opcode's operand variants (register, uniform
    register, immediate, constant: opcode bits 9-11) share their modifier bits, so a modifier seen with one
    variant (ISETP.GE.U32.AND with R) carries to another (with UR) as the same bit difference. A candidate is
    kept only when every bridge (a mnemonic seen in both variants) gives the same bits. Hold-out check: for
    mnemonics seen in both variants, synthesize from the other bridges and compare with the real form."""
    slots = collections.defaultdict(dict)
    for key, f in forms.items():
        if f['count'] == 0:
            continue
        slots[(f['opc'], key[len(f['mnem']) + 1:])][f['mnem']] = f
    fam = collections.defaultdict(list)
    for sk in slots:
        fam[sk[0] & 0x1ff].append(sk)
    MODS = ((1 << 128) - 1) ^ ((1 << 72) - 1) ^ CTL_MASK  # modifier bits live in 72-104

    def make(A, B, m, bridges):
        outs = set()
        for b in bridges:
            fa, fb, fm = slots[A][b], slots[A][m], slots[B][b]
            delta = (fa['base'] ^ fb['base'])
            if delta & ~MODS or delta & (field_mask(fm['fields']) | fm['hidden']):
                return None
            if field_mask(fa['fields']) != field_mask(fb['fields']):
                return None
            outs.add(fm['base'] ^ delta)
        return outs.pop() if len(outs) == 1 else None

    synth, checked, agreed = {}, 0, 0
    for fkey, sks in sorted(fam.items()):
        sks = sorted(sks)
        for A in sks:
            for B in sks:
                if A == B:
                    continue
                common = set(slots[A]) & set(slots[B])
                if not common:
                    continue
                for m in sorted(common):
                    others = common - {m}
                    if others:
                        got = make(A, B, m, others)
                        if got is not None:
                            checked += 1
                            hid = slots[B][m]['hidden']
                            agreed += (got & ~hid) == (slots[B][m]['base'] & ~hid)
                for m in sorted(set(slots[A]) - set(slots[B])):
                    key = m + ' ' + B[1]
                    if key in forms or key in synth:
                        continue
                    got = make(A, B, m, common)
                    if got is None:
                        continue
                    tmpl = slots[B][sorted(common, key=lambda x: (-slots[B][x]['count'], x))[0]]
                    f = dict(tmpl)
                    f.update({'key': key, 'mnem': m, 'base': got, 'count': 0, 'const': {},
                              'skel': tmpl['skel']})
                    synth[key] = f
    return synth, checked, agreed


def fsig(fields):
    return tuple((f.idx, f.kind, f.how, f.shift, tuple(f.segs)) for f in fields)


def transplant(forms):
    """Operand variants the corpus lacks for a whole opcode (FFMA with a uniform register), composed from another
    opcode that has both variants (IADD3 with R and with UR): the variant change is the same opcode-bit change
    (bits 9-11) and the same fixed-bit difference in every opcode where both variants were seen with the same
    operand layout. Kept only when at least two opcodes agree and none disagrees; hold-out: each opcode that has
    both variants is predicted from the others."""
    slots = collections.defaultdict(dict)
    for key, f in forms.items():
        if f['count'] == 0:
            continue
        slots[(f['opc'], key[len(f['mnem']) + 1:])][f['mnem']] = f
    fam = collections.defaultdict(list)
    for sk in sorted(slots):
        fam[sk[0] & 0x1ff].append(sk)
    deltas = collections.defaultdict(dict)  # transform key -> {family: delta}
    for fkey, sks in sorted(fam.items()):
        for A in sks:
            for B in sks:
                if A == B:
                    continue
                common = sorted(set(slots[A]) & set(slots[B]))
                if not common:
                    continue
                fa, fb = slots[A][common[0]], slots[B][common[0]]
                ds = set((slots[A][m]['base'] ^ slots[B][m]['base']) & ~0xfff for m in common)
                if len(ds) != 1:
                    continue
                tkey = (A[0] >> 9, A[1], fsig(fa['fields']), B[0] >> 9, B[1], fsig(fb['fields']))
                deltas[tkey][fkey] = ds.pop()
    good = {}
    checked = agreed = 0
    for tkey, byfam in deltas.items():
        vals = set(byfam.values())
        if len(byfam) >= 2 and len(vals) == 1:
            good[tkey] = vals.pop()
        if len(byfam) >= 3:
            for fk, d in byfam.items():
                others = set(v for k, v in byfam.items() if k != fk)
                if len(others) == 1:
                    checked += 1
                    agreed += others.pop() == d
    out = {}
    for fkey, sks in sorted(fam.items()):
        have = set(sks)
        for A in sks:
            any_f = next(iter(slots[A].values()))
            for tkey, d in sorted(good.items(), key=lambda kv: repr(kv[0])):
                if tkey[0] != A[0] >> 9 or tkey[1] != A[1] or tkey[2] != fsig(any_f['fields']):
                    continue
                B = ((tkey[3] << 9) | fkey, tkey[4])
                if B in have:
                    continue
                # the layout of B comes from any opcode that has it
                tmpl = None
                for sk2 in sorted(slots):
                    if sk2[1] == tkey[4] and sk2[0] >> 9 == tkey[3]:
                        t2 = next(iter(slots[sk2].values()))
                        if fsig(t2['fields']) == tkey[5]:
                            tmpl = t2
                            break
                if tmpl is None:
                    continue
                for m, fa in sorted(slots[A].items()):
                    key = m + ' ' + tkey[4]
                    if key in forms or key in out:
                        continue
                    f = dict(tmpl)
                    base = ((fa['base'] & ~0xfff) ^ d) | B[0]
                    f.update({'key': key, 'mnem': m, 'opc': B[0], 'base': base, 'count': 0, 'const': {},
                              'hidden': 0, 'reuse': dict(tmpl['reuse']), 'align': {}, 'wide': {}})
                    out[key] = f
    return out, checked, agreed


def learn(insts):
    """-> {arch: {'forms': {key: form}, 'failed': [...], 'insts': [...], 'nan': {(how, text): bits}}}"""
    out = {}
    for arch in ('sm90', 'sm89'):
        mine = [i for i in insts if i.arch == arch]
        groups = collections.defaultdict(list)
        for i in mine:
            groups[(i.word & 0xfff, i.kinds)].append(i)
        prior = {}
        for g in groups.values():
            learn_group(g, prior, True)
        # Modifier bits: where the fixed bits of one opcode's forms differ (first pass). No field may take
        # them in the second pass, which keeps a number field from swallowing e.g. LEA's .HI bit.
        bases = collections.defaultdict(dict)
        for gk, g in groups.items():
            fields, err = learn_group(g, prior, False)
            if fields is None:
                continue
            fm = field_mask(fields)
            fixed = ((1 << 128) - 1) & ~fm & ~GUARD_MASK & ~CTL_MASK
            for i in g:
                bases[gk[0]].setdefault(i.key, (i.word & fixed, fixed))
        modbits = {}
        for opc, bk in bases.items():
            vals_ = list(bk.values())
            m = 0
            # a bit is a modifier bit where two forms both fix it and disagree
            for a in range(len(vals_)):
                for b in range(a + 1, len(vals_)):
                    m |= (vals_[a][0] ^ vals_[b][0]) & vals_[a][1] & vals_[b][1]
            modbits[opc] = frozenset(b for b in range(128) if m >> b & 1)
        forms = {}
        failed = []
        nan = {}
        for gk, g in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1])):
            bykey = collections.defaultdict(list)
            for i in g:
                bykey[i.key].append(i)
            forbid = modbits.get(gk[0], frozenset())
            fields, err = learn_group(g, prior, False, forbid)
            if fields is None:
                fields, err = learn_group(g, prior, False)
            units = [(fields, g)] if fields is not None else []
            if fields is None:
                # one layout for the whole opcode did not fit: learn each form on its own
                for key, li in bykey.items():
                    f2, err2 = learn_group(li, prior, False, forbid)
                    if f2 is None:
                        f2, err2 = learn_group(li, prior, False)
                    if f2 is None:
                        failed.append((gk, key, err2, li[0].text, len(li)))
                    else:
                        units.append((f2, li))
            for fields, li_all in units:
                rmap = learn_reuse(li_all)
                fm = field_mask(fields)
                sub = collections.defaultdict(list)
                for i in li_all:
                    sub[i.key].append(i)
                for key, li in sub.items():
                    fixed_mask = ((1 << 128) - 1) ^ fm ^ GUARD_MASK ^ CTL_MASK
                    bases = collections.Counter(i.word & fixed_mask for i in li)
                    base, n = bases.most_common(1)[0]
                    hidden = 0
                    for bb in bases:
                        hidden |= bb ^ base
                    for i in li:
                        for f in fields:
                            kind, raw = i.vals[f.idx]
                            if kind == 'N' and nan_text(raw):
                                fv = 0
                                for vlo, p, n2 in f.segs:
                                    fv |= ((i.word >> p) & ((1 << n2) - 1)) << vlo
                                nan.setdefault((key, f.idx, raw), fv << f.shift)
                    # the blank before ';' is not part of the form: nvdisasm omits it exactly when the control
                    # bits 105-121 are 0x7e0 (stall 0, yield bit 0, no scoreboards, no waits): 1473 of 1473
                    skels = collections.Counter(i.skel.rstrip(' ') for i in li)
                    gk_ = collections.Counter(i.guard[1] for i in li if i.guard)
                    align = {}
                    # 64-bit operands need even registers, 128-bit multiples of 4 (facts file). Required only
                    # where it is certain: a register printed as `R2.64`, or one that was even in at least 12
                    # samples (multiple of 4 in at least 8) of the form, so that chance (1/4096) does not make
                    # the assembler refuse valid code (nvcc's own IMAD.WIDE sources are 32-bit and often odd)
                    for f in fields:
                        if f.kind != 'R':
                            continue
                        k = -1
                        for _ in range(f.idx + 1):
                            k = li[0].skel.find('\x00', k + 1)
                        vs = [sx.reg_value('R', i.vals[f.idx][1]) for i in li]
                        vs = [v for v in vs if v != 255]
                        if len(vs) >= 8 and all(v % 4 == 0 for v in vs):
                            align[f.idx] = 4
                        elif li[0].skel.startswith('.64', k + 1) or (len(vs) >= 12 and all(v % 2 == 0 for v in vs)):
                            align[f.idx] = 2
                    # registers an operand spans, for the register count (facts file: nvcc's REGCOUNT is the
                    # highest register touched + 3): from the mnemonic's width, where every sample is aligned
                    wide = {}
                    m = li[0].mnem
                    want = 4 if '.128' in m else 2 if ('.64' in m or '.WIDE' in m or m[0] == 'D') else 1
                    if want > 1:
                        for f in fields:
                            if f.kind == 'R':
                                vs = [sx.reg_value('R', i.vals[f.idx][1]) for i in li]
                                vs = [v for v in vs if v != 255]
                                if vs and all(v % want == 0 for v in vs):
                                    wide[f.idx] = want
                    forms[key] = {'key': key, 'opc': gk[0], 'kinds': gk[1], 'fields': fields, 'base': base,
                                  'hidden': hidden, 'reuse': dict(rmap), 'skel': skels.most_common(1)[0][0],
                                  'mnem': li[0].mnem, 'align': align, 'wide': wide, 'const': consts(fields, li),
                                  'guard': gk_.most_common(1)[0][0] if gk_ else
                                  ('UP' if li[0].mnem.startswith('U') else 'P'),
                                  'count': len(li)}
        # a .reuse never seen alone in a form: the slot follows the operand's field position (Ra 24 -> 122,
        # Rb 32 -> 123, Rc 64 -> 124 in every form where it was seen), so take the position's majority slot
        bypos = collections.defaultdict(collections.Counter)
        for fm_ in forms.values():
            for f in fm_['fields']:
                if f.idx in fm_['reuse']:
                    bypos[f.segs[0][1]][fm_['reuse'][f.idx]] += 1
        for fm_ in forms.values():
            for f in fm_['fields']:
                if f.kind in ('R', 'UR') and f.idx not in fm_['reuse'] and bypos[f.segs[0][1]]:
                    fm_['reuse'][f.idx] = bypos[f.segs[0][1]].most_common(1)[0][0]
        synth, checked, agreed = synthesize(forms)
        print('%s: %d forms synthesized across operand variants; hold-out check %d/%d identical'
              % (arch, len(synth), agreed, checked))
        forms.update(synth)
        moved, checked, agreed = transplant(forms)
        print('%s: %d forms transplanted from other opcodes\' operand variants; hold-out check %d/%d identical'
              % (arch, len(moved), agreed, checked))
        forms.update(moved)
        out[arch] = {'forms': forms, 'failed': failed, 'insts': mine, 'nan': nan}
    return out


def ctl_bits(word):
    return (word >> 105) & ((1 << 21) - 1)  # stall 4, yield 1, wbar 3, rbar 3, wait 6, (reuse separate)


def ctl_text(word):
    stall = (word >> 105) & 0xf
    yld = (word >> 109) & 1
    wb = (word >> 110) & 7
    rb = (word >> 113) & 7
    wait = (word >> 116) & 0x3f
    b = ''.join(str(k) if wait >> k & 1 else '-' for k in range(6))
    return '[B%s:R%s:W%s:%s:S%02d]' % (b, '-' if rb == 7 else rb, '-' if wb == 7 else wb,
                                        'Y' if yld == 0 else '-', stall)


def encode_py(form, inst, nan):
    """Reference encoder over one parsed instruction (same rules the C assembler implements)."""
    w = form['base']
    g = inst.guard
    gi, gn = (7, 0) if g is None else (g[2], 1 if g[0] else 0)
    w |= (gi | gn << 3) << 12
    for f in form['fields']:
        kind, raw = inst.vals[f.idx]
        if kind == 'N' and nan_text(raw):
            v = nan.get((form['key'], f.idx, raw))
            if v is None:
                return None
        else:
            vals = interp_values([inst], f.idx, f.how)
            if vals is None:
                return None
            v = vals[0]
            if v is None:  # label outside this section: the linker's relocation fills it
                v = 0
        w |= put_field(f, v)
    for idx in inst.reuse:
        if idx not in form['reuse']:
            return None
        w |= 1 << (122 + form['reuse'][idx])
    w |= (inst.word & CTL_MASK) & ~(0xf << 122)  # control bits come from the [..] prefix, taken as given
    return w


def roundtrip(learned):
    for arch, L in learned.items():
        ok = 0
        bad = collections.Counter()
        ex = {}
        for i in L['insts']:
            f = L['forms'].get(i.key)
            w = encode_py(f, i, L['nan']) if f else None
            if w == i.word:
                ok += 1
            else:
                k = i.key if f else 'NOFORM ' + i.key
                bad[k] += 1
                ex.setdefault(k, (i.text, i.word, w, f and f['fields']))
        n = len(L['insts'])
        print('%s: %d/%d instructions re-encode identically (%.2f%%), %d forms, %d groups failed'
              % (arch, ok, n, 100.0 * ok / n, len(L['forms']), len(L['failed'])))
        for k, c in bad.most_common(25):
            t, w0, w1, fl = ex[k]
            print('   %5d %s | %s | %032x %s diff=%s %s' % (c, k, t, w0, '%032x' % w1 if w1 else None,
                  hex(w0 ^ w1) if w1 else '-', fl))
        for gk, key, err, t, n in L['failed'][:20]:
            print('   FAILED', hex(gk[0]), n, key, err, t)


def table_text(arch, L):
    """The committed table: one form per line, tab-separated (format read by src/target/sass/sass_table.c):
    F key skeleton mnemonic guard-class base hidden fields reuse nans align const width count
    '%' marks a placeholder in key and skeleton; a field is idx:kind:how:shift:signed:vlo@pos+width[/...]:widest-value-bits."""
    out = ['# gasp SASS encoding table for %s: generated by tools/sass-learn.py from tools/sass-corpus/dumps '
           '(nvdisasm 13.0.85 over nvcc 13.0.88 output). Do not edit; regenerate.' % arch]
    nan = L['nan']
    for key in sorted(L['forms']):
        f = L['forms'][key]
        fl = ' '.join('%d:%s:%s:%d:%d:%s:%d' % (x.idx, x.kind, x.how, x.shift, 1 if x.signed else 0,
                                                '/'.join('%d@%d+%d' % sg for sg in x.segs), x.need)
                      for x in f['fields'])
        ru = ','.join('%d=%d' % kv for kv in sorted(f['reuse'].items())) or '-'
        na = ','.join('%d=%s=%x' % (k[1], k[2], v) for k, v in sorted(nan.items()) if k[0] == key) or '-'
        al = ','.join('%d=%d' % kv for kv in sorted(f['align'].items())) or '-'
        co = ','.join('%d=%x' % kv for kv in sorted(f['const'].items())) or '-'
        wd = ','.join('%d=%d' % kv for kv in sorted(f['wide'].items())) or '-'
        out.append('\t'.join(['F', key.replace('\x00', '%'), f['skel'].replace('\x00', '%'), f['mnem'], f['guard'],
                              '%032x' % f['base'], '%032x' % f['hidden'], fl or '-', ru, na, al, co, wd, str(f['count'])]))
    return '\n'.join(out) + '\n'


def c_text(arch, tab):
    """The table as a C string constant, so the library needs no data file at run time."""
    lines = ['/* Generated by tools/sass-learn.py from tools/sass-corpus/dumps: do not edit. */',
             '#include "sass_internal.h"', '', 'const char sass_table_%s[] =' % arch]
    for ln in tab.splitlines():
        lines.append('    "%s\\n"' % ln.replace('\\', '\\\\').replace('"', '\\"').replace('\t', '\\t'))
    lines[-1] += ';'
    return '\n'.join(lines) + '\n'


if __name__ == '__main__':
    ins = load(sys.argv[1])
    L = learn(ins)
    roundtrip(L)
    outdir = sys.argv[2]
    check = '--check' in sys.argv
    differ = 0
    for arch in ('sm90', 'sm89'):
        tab = table_text(arch, L[arch])
        for name, text in (('sass_%s.tab' % arch, tab), ('sass_table_%s.c' % arch, c_text(arch, tab))):
            path = os.path.join(outdir, name)
            if check:
                old = open(path).read() if os.path.exists(path) else ''
                if old != text:
                    print('%s differs from the regenerated table' % path)
                    differ += 1
            else:
                open(path, 'w').write(text)
    sys.exit(1 if differ else 0)
