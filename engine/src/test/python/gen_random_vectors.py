#!/usr/bin/env python3
"""Writes engine/src/test/resources/python-vectors/random.jsonl: CPython's random.Random outputs for brokkr.python.PyRandom.

Run with a stdlib-only CPython 3.11 (the BFCL multi-turn corpora were recorded with 3.11.7):

    python3 engine/src/test/python/gen_random_vectors.py

One line per program: {"seed": <seed>, "ops": [[name, args..., result], ...]} where <seed> is {"i": "<decimal>"}
or {"s": "<str>"}; float arguments and results are float.hex strings, ints decimal strings, an error
{"err": "<Type>: <str(e)>"}. Ops run in order on one Random(seed): random, getrandbits k, randbelow n,
randrange start stop step, randint a b, uniform a b, choice n (index drawn from range(n)), shuffle n
(list(range(n)) shuffled), skip n (n random() calls, result the last one: crosses twist boundaries).
"""
import json
import os
import random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'resources', 'python-vectors', 'random.jsonl')
RNG = random.Random(20261201)


def run(r, op):
    name, args = op[0], op[1:]
    try:
        if name == 'random':
            return float.hex(r.random())
        if name == 'getrandbits':
            return str(r.getrandbits(int(args[0])))
        if name == 'randbelow':
            return str(r._randbelow(int(args[0])))
        if name == 'randrange':
            return str(r.randrange(int(args[0]), int(args[1]), int(args[2])))
        if name == 'randint':
            return str(r.randint(int(args[0]), int(args[1])))
        if name == 'uniform':
            return float.hex(r.uniform(float.fromhex(args[0]), float.fromhex(args[1])))
        if name == 'choice':
            return str(r.choice(range(int(args[0]))))
        if name == 'shuffle':
            x = list(range(int(args[0])))
            r.shuffle(x)
            return [str(v) for v in x]
        if name == 'skip':
            v = None
            for _ in range(int(args[0])):
                v = r.random()
            return float.hex(v)
    except (ValueError, IndexError) as e:
        return {"err": type(e).__name__ + ": " + str(e)}
    raise AssertionError(name)


def i(v):
    return str(v)


def h(x):
    return float.hex(float(x))


def program(n):
    ops = []
    for _ in range(n):
        kind = RNG.choice(['random', 'getrandbits', 'randbelow', 'randrange', 'randint', 'uniform', 'choice',
                           'shuffle', 'skip'])
        if kind == 'random':
            ops.append(['random'])
        elif kind == 'getrandbits':
            ops.append(['getrandbits', i(RNG.choice([0, 1, 2, 7, 31, 32, 33, 63, 64, 65, 100, 257]))])
        elif kind == 'randbelow':
            ops.append(['randbelow', i(RNG.choice([1, 2, 3, 10, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1,
                                                   10 ** 12, 2 ** 70 + 3]))])
        elif kind == 'randrange':
            a = RNG.randint(-10 ** 6, 10 ** 6)
            ops.append(['randrange', i(a), i(a + RNG.randint(-5, 10 ** 6)), i(RNG.choice([1, 1, 2, 3, 7, -1, -3]))])
        elif kind == 'randint':
            a = RNG.choice([0, 1, -5, 10000, 100000, 10 ** 7, 10 ** 8, 10 ** 11, 1725186600, -2 ** 40])
            ops.append(['randint', i(a), i(a + RNG.choice([0, 1, 9, 89999, 899999, 86400, 10 ** 12, -1, 2 ** 64]))])
        elif kind == 'uniform':
            ops.append(['uniform', h(RNG.choice([-10.0, 0.0, 1.5, -1e300])), h(RNG.choice([40.0, 120.0, 0.0, 1e300]))])
        elif kind == 'choice':
            ops.append(['choice', i(RNG.choice([0, 1, 2, 5, 100, 1000]))])
        elif kind == 'shuffle':
            ops.append(['shuffle', i(RNG.choice([0, 1, 2, 5, 20]))])
        else:
            ops.append(['skip', i(RNG.choice([1, 311, 312, 313, 623, 624, 625, 1000]))])
    return ops


def main():
    seeds = [{"i": i(s)} for s in [0, 1, 2, 42, -42, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 64 + 5, 10 ** 40,
                                   200191, 141053, 1053520, 337, 1053]]
    seeds += [{"s": s} for s in ['', 'a', 'hello', '\u00e9t\u00e9']]
    lines = []
    # The exact draw sequences the BFCL multi-turn backends make (message ids, travel tokens/cards/bookings,
    # trading timestamps, vehicle temperature and speed).
    backend = [
        (200191, [['randint', '10000', '99999']] * 5),
        (141053, [['randint', '100000', '999999'], ['randint', '100000000000', '999999999999'],
                  ['randint', '10000', '99999'], ['randint', '1000000', '9999999'], ['randint', '10000000', '99999999'],
                  ['randint', '100000000', '999999999']]),
        (1053520, [['randint', '1725186600', '1725273000']] * 5),
        (141053, [['uniform', h(-10.0), h(40.0)], ['uniform', h(0.0), h(120.0)]] * 3),
    ]
    for s, ops in backend:
        r = random.Random(s)
        lines.append({"seed": {"i": i(s)}, "ops": [op + [run(r, op)] for op in ops]})
    for seed in seeds:
        for _ in range(3):
            r = random.Random(int(seed["i"]) if "i" in seed else seed["s"])
            ops = program(12)
            lines.append({"seed": seed, "ops": [op + [run(r, op)] for op in ops]})
    with open(OUT, 'w', encoding='ascii') as f:
        for line in lines:
            f.write(json.dumps(line, sort_keys=True) + '\n')


if __name__ == '__main__':
    main()
