#!/usr/bin/env python3
"""Shortest producer -> reader distances ptxas used in the corpus (tools/sass-corpus/dumps), in cycles (the sum
of stall counts from the producer up to the reader). Fixed-latency producers only (no write scoreboard);
straight-line code only (a label or a branch ends the search). The hazard checker's table in
src/target/sass/sass_arch.c (the `checked` columns) holds these minima, so nvcc's own code never trips it.

    python3 tools/sass-latency-corpus.py [sm90|sm89]
"""
import collections
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NODEST = {'ST', 'STG', 'STS', 'STL', 'RED', 'REDG', 'BAR', 'BRA', 'EXIT', 'BSSY', 'BSYNC', 'NOP', 'WARPSYNC', 'CALL',
          'RET', 'MEMBAR', 'DEPBAR'}
REG = re.compile(r'(?<![\w.])-?\|?~?R(\d+)\b')
GUARD = re.compile(r'^@!?U?P\S+\s+')


def instructions(path):
    """(text, high word) per instruction, None at labels."""
    lines = open(path).read().split('\n')
    out = []
    for i, l in enumerate(lines):
        m = re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?);\s*/\* (0x[0-9a-f]+) \*/', l)
        if m:
            hi = int(re.search(r'0x[0-9a-f]{16}', lines[i + 1]).group(0), 16)
            out.append((m.group(2).strip(), hi))
        elif re.match(r'\s*\.L_\w+:', l) or re.match(r'^\w+:$', l.strip()):
            out.append(None)
    return out


def operands(text):
    body = GUARD.sub('', text)
    op = body.split()[0]
    return op, [o.strip() for o in body[len(op):].split(',')]


def main():
    sm = sys.argv[1] if len(sys.argv) > 1 else 'sm90'
    dist = collections.defaultdict(collections.Counter)
    for path in sorted(glob.glob(os.path.join(HERE, 'sass-corpus', 'dumps', '*.%s.*.sass' % sm))):
        ins = instructions(path)
        for p, x in enumerate(ins):
            if not x or (x[1] >> 46) & 7 != 7:
                continue
            op, ops = operands(x[0])
            base = op.split('.')[0]
            if base in NODEST or not ops or not ops[0]:
                continue
            m = re.match(r'R(\d+)$', ops[0].split('.')[0])
            if not m or 'SETP' in base:
                continue
            r, s = int(m.group(1)), (x[1] >> 41) & 15
            key = 'IMAD.WIDE' if op.startswith('IMAD.WIDE') else base
            for j in range(p + 1, min(p + 30, len(ins))):
                y = ins[j]
                if not y:
                    break
                yop, yops = operands(y[0])
                srcs = yops if yop.split('.')[0] in NODEST else yops[1:]
                if any(int(g) == r for o in srcs for g in REG.findall(o)):
                    dist[key][s] += 1
                    break
                if yop.split('.')[0] not in NODEST and yops and re.match(r'R%d\b' % r, yops[0]):
                    break
                s += (y[1] >> 41) & 15
                if yop.split('.')[0] in ('BRA', 'EXIT', 'CALL', 'RET'):
                    break
    print('%-10s %5s %6s  %s' % ('producer', 'min', 'pairs', 'most common distances'))
    for k in sorted(dist):
        c = dist[k]
        print('%-10s %5d %6d  %s' % (k, min(c), sum(c.values()),
                                      ' '.join('%d:%d' % kv for kv in sorted(c.items())[:6])))


if __name__ == '__main__':
    main()
