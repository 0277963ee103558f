#!/usr/bin/env python3
"""Writes engine/src/test/resources/python-vectors/hash.jsonl: CPython's hash() and set iteration order under
PYTHONHASHSEED=0, for brokkr.python.PyHash and PySetOrder. Must run with PYTHONHASHSEED=0 (it re-executes
itself with it otherwise), stdlib-only CPython 3.11:

    python3 engine/src/test/python/gen_hash_vectors.py

Lines: {"hash": <enc value>, "h": "<decimal>"} and {"set": [<enc>...], "order": [<enc>...]} where <enc> is
a str as JSON, {"i": "<decimal>"}, {"f": float.hex}, true/false, or {"t": [<enc>...]} for a tuple.
"""
import json
import os
import random
import sys

if os.environ.get('PYTHONHASHSEED') != '0':
    os.execve(sys.executable, [sys.executable] + sys.argv, dict(os.environ, PYTHONHASHSEED='0'))

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'resources', 'python-vectors', 'hash.jsonl')
RNG = random.Random(20261201)


def enc(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return {"i": str(v)}
    if isinstance(v, float):
        return {"f": float.hex(v)}
    if isinstance(v, tuple):
        return {"t": [enc(x) for x in v]}
    return v


def rstr():
    alphabet = RNG.choice(['abcdefghijklmnopqrstuvwxyz_0123456789 ', 'é\u00ff\u00e0abc', '\u4e2d\u6587\u0101a',
                           '\U0001f600\U00010000xy', 'ABCDEFGHIJKLMNOP#'])
    return ''.join(RNG.choice(alphabet) for _ in range(RNG.choice([0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 40])))


def rint():
    return RNG.choice([0, 1, -1, -2, 2 ** 61 - 2, 2 ** 61 - 1, 2 ** 61, -(2 ** 61), 2 ** 64 + 7, 10 ** 30, -10 ** 30,
                       RNG.randint(-10 ** 6, 10 ** 6), RNG.randint(-2 ** 70, 2 ** 70)])


def rfloat():
    return RNG.choice([0.0, -0.0, 1.5, -0.5, 1e300, -1e300, 5e-324, 2.2250738585072014e-308, 1e-310, float('inf'),
                       float('-inf'), 12345.0, 2.0 ** 62, RNG.uniform(-1e6, 1e6), RNG.random(), RNG.uniform(-1, 1) * 1e-200])


def main():
    lines = []
    values = [rstr() for _ in range(300)] + [rint() for _ in range(100)] + [rfloat() for _ in range(100)]
    values += [True, False] + [(rstr(), rint()) for _ in range(20)] + [(), (1.5, ('a', 2))]
    for v in values:
        lines.append({"hash": enc(v), "h": str(hash(v))})
    for _ in range(200):
        n = RNG.choice([0, 1, 2, 3, 4, 5, 6, 8, 10, 20, 30, 60])
        kind = RNG.choice(['str', 'int', 'mixed'])
        members = [rstr() if kind == 'str' or (kind == 'mixed' and RNG.random() < 0.5) else rint() for _ in range(n)]
        members += members[:RNG.choice([0, 2])]  # duplicates
        lines.append({"set": [enc(m) for m in members], "order": [enc(m) for m in set(members)]})
    for literal in [['destination', 'Emma', 'START', 'message_count'], ['USR007', 'off'], ['#Roadtrip', '#Adventure'],
                    ['first', 'business', 'economy'], ['economy', 'business', 'first']]:
        s = set()
        for m in literal:
            s.add(m)
        lines.append({"set": literal, "order": list(s)})
    with open(OUT, 'w', encoding='ascii') as f:
        for line in lines:
            f.write(json.dumps(line, sort_keys=True) + '\n')


if __name__ == '__main__':
    main()
