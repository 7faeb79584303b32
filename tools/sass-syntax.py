#!/usr/bin/env python3
"""nvdisasm text <-> (form key, placeholder values): the one tokenizer shared by the learner and the Python
reference encoder. src/target/sass/sass_syntax.c implements the same rules in C; a test compares them.

A line is `[ctl] [@[!]P|UPn] MNEMONIC operands ;`. Every register index, number and branch label in the
operands becomes a placeholder; everything else (modifiers, '-', '|', '~', '!', '.H1', '.64', brackets, SR_
names) stays literal and, with the mnemonic, forms the key of the instruction form. `.reuse` is removed and
recorded per placeholder because it lives in the control bits 122-125, not in the form."""
import re
import struct

# Placeholder kinds: R, UR, P, UP, B (convergence barrier), SB (scoreboard), N (number), L (label).
TOKEN = re.compile(
    r'(?P<lbl>`\((?P<lname>[^)]*)\))'
    r'|(?P<reg>\b(?P<rk>UR|UP|SB|R|P|B)(?P<rv>\d+|Z|T)\b)'
    r'|(?P<num>(?:(?<=[\s,\[(+])|^)(?P<sign>[-+]?)(?P<nv>0x[0-9a-f]+|\d+\.\d+(?:e[-+]\d+)?|\d+e[-+]\d+|\d+'
    r'|INF|QNAN|NAN)(?![\w.]))')
REUSE = re.compile(r'\.reuse\b')
GUARD = re.compile(r'^@(!?)(U?P)(\d|T)\s+')
CTL = re.compile(r'^\[B([0-5-]{6}):R([0-5-]):W([0-5-]):([Y-]):S(\d\d)\]\s*')
ZERO = {'R': 255, 'UR': 63, 'P': 7, 'UP': 7, 'B': None, 'SB': None}


class SyntaxErr(Exception):
    pass


def split_line(text):
    """-> (ctl or None, guard (neg, kind, idx) or None, mnemonic, operand text). The operand text keeps its
    leading and trailing blanks: nvdisasm writes `EXIT ;` but `NOP;`, and the printer must do the same."""
    s = text.strip()
    if s.endswith(';'):
        s = s[:-1]
    ctl = None
    m = CTL.match(s)
    if m:
        ctl = m.groups()
        s = s[m.end():]
    guard = None
    m = GUARD.match(s)
    if m:
        guard = (m.group(1) == '!', m.group(2), 7 if m.group(3) == 'T' else int(m.group(3)))
        s = s[m.end():]
    m = re.match(r'\S+', s)
    if not m:
        raise SyntaxErr('empty instruction')
    return ctl, guard, m.group(0), s[m.end():]


def tokenize(ops):
    """Operand string -> (skeleton with '\\x00' per placeholder, [(kind, raw text)], reuse placeholder set).
    The skeleton keeps nvdisasm's own spacing (printing needs it); form_key() normalises it."""
    reuse = set()
    out = []
    vals = []
    pos = 0
    for m in TOKEN.finditer(ops):
        seg = ops[pos:m.start()]
        # `.reuse` belongs to the last placeholder before it (it may follow `|R0|` or precede `.H0_H0`)
        if '.reuse' in seg:
            if not vals:
                raise SyntaxErr('.reuse before any register')
            reuse.add(len(vals) - 1)
            seg = REUSE.sub('', seg)
        out.append(seg)
        if m.group('lbl') is not None:
            vals.append(('L', m.group('lname')))
            out.append('`(\x00)')
        elif m.group('reg') is not None:
            vals.append((m.group('rk'), m.group('rv')))
            out.append(m.group('rk') + '\x00')
        else:
            vals.append(('N', m.group('sign') + m.group('nv')))
            out.append('\x00')
        pos = m.end()
        if vals[-1][0] == 'N' and vals[-1][1].lstrip('+-') in ('INF', 'QNAN', 'NAN') and ops[pos:pos + 1] == ' ':
            pos += 1
    seg = ops[pos:]
    if '.reuse' in seg:
        if not vals:
            raise SyntaxErr('.reuse before any register')
        reuse.add(len(vals) - 1)
        seg = REUSE.sub('', seg)
    out.append(seg)
    skel = ''.join(out)
    return skel, vals, reuse


def norm(skel):
    s = re.sub(r'\s+', ' ', skel.strip())
    return re.sub(r'\s*,\s*', ',', s)


def form_key(guard, mnem, skel):
    """The guard is not part of the form: bits 12-15 hold it in every instruction (facts file)."""
    return mnem + ' ' + norm(skel)


def reg_value(kind, v):
    if v in ('Z', 'T'):
        if ZERO[kind] is None:
            raise SyntaxErr('%s%s does not exist' % (kind, v))
        return ZERO[kind]
    return int(v)


def parse_number(txt):
    """-> (python value, is_float_literal)."""
    sign = -1 if txt.startswith('-') else 1
    t = txt.lstrip('+-')
    if t.startswith('0x'):
        return sign * int(t, 16), False
    if t in ('INF', 'QNAN', 'NAN'):
        return txt, True
    if re.fullmatch(r'\d+', t):
        return sign * int(t), False
    return sign * float(t), True


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f64_bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]
