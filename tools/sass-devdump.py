#!/usr/bin/env python3
"""Runs on the GPU machine (the only one with nvdisasm/cuobjdump): disassembles the corpus cubins and the
bit-flip files, and writes compressed results to OUT. Usage: sass-devdump.py DIR OUT, where DIR holds cubins/
and flips/<arch>/*.bin. Every tool call has a time limit; an nvdisasm failure on a file is bisected down to
the single word that it rejects, which is recorded as an error line."""
import concurrent.futures as cf
import lzma
import os
import re
import subprocess
import sys
import tarfile
import time

DIR, OUT = sys.argv[1], sys.argv[2]
DEADLINE = time.time() + float(os.environ.get('DUMP_SECONDS', '200'))
LINE = re.compile(r'/\*([0-9a-f]{4,})\*/\s*(.*?)\s*/\* (0x[0-9a-f]{16}) \*/')
HI = re.compile(r'^\s*/\* (0x[0-9a-f]{16}) \*/\s*$')


def run(argv, tmo=60):
    p = subprocess.run(argv, capture_output=True, timeout=tmo)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def parse_raw(text):
    """(text, lo, hi) per instruction of `nvdisasm -hex` raw output."""
    res, cur = [], None
    for ln in text.splitlines():
        m = LINE.search(ln)
        if m:
            cur = [m.group(2), m.group(3)]
            continue
        m = HI.match(ln)
        if m and cur:
            res.append((cur[0], cur[1], m.group(1)))
            cur = None
    return res


def disasm_once(arch, words, tmp):
    path = tmp + '.bin'
    with open(path, 'wb') as f:
        f.write(b''.join(words))
    try:
        rc, so, se = run(['nvdisasm', '-b', arch, '-hex', path], 30)
    except subprocess.TimeoutExpired:
        rc, so, se = -1, '', 'timeout'
    os.unlink(path)
    got = {}
    for t, lo, hi in parse_raw(so):
        got[(int(lo, 16), int(hi, 16))] = t
    return rc, got, se


def key(w):
    return (int.from_bytes(w[:8], 'little'), int.from_bytes(w[8:], 'little'))


def disasm_words(arch, words, tmp):
    """One line per word. nvdisasm's behaviour on an invalid word is not documented: words missing from its
    output are taken one at a time (the first alone, to name it as an error or recover it), the rest rerun;
    after MAX_CALLS calls the remainder is marked skipped."""
    res = {}
    pending = list(words)
    calls = 0
    while pending and calls < 40:
        rc, got, se = disasm_once(arch, pending, tmp)
        calls += 1
        missing = []
        for w in pending:
            if key(w) in got:
                res[w] = got[key(w)]
            else:
                missing.append(w)
        if not missing:
            break
        first = missing[0]
        rc1, got1, se1 = disasm_once(arch, [first], tmp)
        calls += 1
        if key(first) in got1:
            res[first] = got1[key(first)]
        else:
            res[first] = '!ERR ' + ((se1.strip().splitlines() or ['rc=%d' % rc1])[-1])
        pending = missing[1:]
    out = []
    for w in words:
        lo, hi = key(w)
        out.append('0x%016x 0x%016x\t%s' % (lo, hi, res.get(w, '!SKIP')))
    return out


def flip_job(arch, path, idx):
    if time.time() > DEADLINE:
        return path, None
    b = open(path, 'rb').read()
    words = [b[i:i + 16] for i in range(0, len(b), 16)]
    return path, disasm_words(arch, words, '/tmp/fl_%s_%d' % (arch, idx))


def main():
    os.makedirs(OUT, exist_ok=True)
    log = open(os.path.join(OUT, 'log.txt'), 'w')
    for tool in ('nvdisasm', 'cuobjdump'):
        rc, so, se = run([tool, '--version'])
        log.write(so + se)
    t0 = time.time()
    staged = '/tmp/dumps'
    os.makedirs(staged, exist_ok=True)
    cubins = sorted(os.listdir(os.path.join(DIR, 'cubins')))
    def dump(c):
        p = os.path.join(DIR, 'cubins', c)
        rc, so, se = run(['nvdisasm', '-hex', '-c', p])
        rc2, so2, se2 = run(['cuobjdump', '-elf', p])
        base = c[:-6]
        open(os.path.join(staged, base + '.sass'), 'w').write(so)
        open(os.path.join(staged, base + '.elf.txt'), 'w').write(so2)
        return c, rc, se, rc2, se2
    with cf.ThreadPoolExecutor(16) as ex:
        for c, rc, se, rc2, se2 in ex.map(dump, cubins):
            log.write('%s nvdisasm rc=%d %s cuobjdump rc=%d %s\n' % (c, rc, se.strip(), rc2, se2.strip()))
    log.write('cubins done in %.1fs\n' % (time.time() - t0))
    log.flush()
    with tarfile.open(os.path.join(OUT, 'dumps.tar.xz'), 'w:xz') as tf:
        tf.add(staged, arcname='dumps')
    t1 = time.time()
    jobs = []
    for arch in ('sm90', 'sm89'):
        d = os.path.join(DIR, 'flips', arch)
        jobs.append([(arch, os.path.join(d, f)) for f in sorted(os.listdir(d))])
    order = [j for pair in zip(*jobs) for j in pair] + jobs[0][len(jobs[1]):] + jobs[1][len(jobs[0]):]
    outs = {a: lzma.open(os.path.join(OUT, 'flips-%s.txt.xz' % a), 'wt') for a in ('sm90', 'sm89')}
    stats = {a: [0, 0, 0, 0] for a in outs}
    with cf.ThreadPoolExecutor(16) as ex:
        futs = [(a, ex.submit(flip_job, 'SM90' if a == 'sm90' else 'SM89', p, i)) for i, (a, p) in enumerate(order)]
        for a, fu in futs:
            path, lines = fu.result()
            st = stats[a]
            if lines is None:
                st[1] += 1
                continue
            st[0] += 1
            st[2] += sum(1 for l in lines if '!ERR' in l)
            st[3] += sum(1 for l in lines if '!SKIP' in l)
            outs[a].write('# %s\n' % os.path.basename(path))
            outs[a].write('\n'.join(lines) + '\n')
    for a in outs:
        outs[a].close()
        log.write('%s flips: %d files done, %d skipped (deadline), %d error words, %d skipped words\n' % ((a,) + tuple(stats[a])))
    log.write('flips took %.1fs\n' % (time.time() - t1))
    log.close()


main()
