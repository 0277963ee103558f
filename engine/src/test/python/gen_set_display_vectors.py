#!/usr/bin/env python3
"""Writes engine/src/test/resources/python-vectors/set_display.jsonl: what CPython 3.11 (PYTHONHASHSEED=0) shows for
set expressions as a call argument would evaluate them: displays of constants (folded by compile.c into a
frozenset constant and merged by SET_UPDATE), short or non-constant displays (BUILD_SET), set(list), set(a set).
Must run under CPython 3.11 (it re-executes itself with PYTHONHASHSEED=0), stdlib only:

    python3 engine/src/test/python/gen_set_display_vectors.py

Lines: {"src": "<expression>", "repr": "<repr(eval(src))>", "interned": [<str members already interned>]}; each
expression is compiled on its own (compile.c's constant cache is per compilation). "interned" lists the
str members this process had interned before the eval, found by interning a fresh copy
and dropping it again (3.11's interned strings are mortal): codeobject.c intern_string_constants rebuilds a
frozenset constant when interning replaces one of its members.
"""
import json
import os
import random
import sys

if os.environ.get('PYTHONHASHSEED') != '0':
    os.execve(sys.executable, [sys.executable] + sys.argv, dict(os.environ, PYTHONHASHSEED='0'))
assert sys.version_info[:2] == (3, 11), sys.version

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'resources', 'python-vectors', 'set_display.jsonl')
RNG = random.Random(20261202)
WORDS = ['economy', 'business', 'first', 'USR001', 'USR002', 'USR003', 'USR007', 'off', 'on', 'Emma', 'START',
         'destination', 'message_count', 'alice', 'bob', 'charlie', 'NYC', 'LAX', 'SFO', 'JFK', 'ORD', 'a', 'b',
         'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'x', 'y', 'z', '#Roadtrip', '#Adventure', 'file1.txt',
         'report.pdf', 'temp', 'documents', '']


def rstr():
    if RNG.random() < 0.5:
        return RNG.choice(WORDS)
    alphabet = RNG.choice(['abcdefghijklmnopqrstuvwxyz_0123456789', 'ABC', 'é\u00ffab', '\u4e2d\u6587a'])
    return ''.join(RNG.choice(alphabet) for _ in range(RNG.choice([1, 1, 2, 3, 5, 8, 12])))


def rint():
    return RNG.choice([0, 1, 2, 3, 7, 8, 9, 15, 16, 31, 32, 33, 64, 100, -1, -2, 2 ** 61 - 1, 10 ** 20,
                       RNG.randint(-1000, 1000)])


def rmember(kind):
    if kind == 'str':
        return rstr()
    if kind == 'int':
        return rint()
    if kind == 'tuple' and RNG.random() < 0.3:
        return (rstr(), rint())
    return rstr() if RNG.random() < 0.6 else rint()


def main():
    sources = []
    for _ in range(1500):
        n = RNG.choice([1, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 19, 20, 25, 40])
        kind = RNG.choice(['str', 'str', 'str', 'int', 'mixed', 'tuple'])
        members = [rmember(kind) for _ in range(n)]
        if RNG.random() < 0.2:
            members += RNG.sample(members, min(len(members), 2))  # duplicates
        items = ', '.join(repr(m) for m in members)
        shape = RNG.random()
        if shape < 0.6:
            sources.append('{' + items + '}')
        elif shape < 0.75:
            sources.append('set([' + items + '])')
        elif shape < 0.9:
            sources.append('set({' + items + '})')
        else:
            # one item not a constant: BUILD_SET of the items pushed in order
            sources.append('{' + items + ', str(' + repr(rstr()) + ')}')
    with open(OUT, 'w', encoding='ascii') as f:
        for src in sources:
            interned = sorted({m for m in strings_in(src) if was_interned(m)})
            f.write(json.dumps({"src": src, "repr": repr(eval(compile(src, '<string>', 'eval'))),
                                "interned": interned}, ensure_ascii=True) + '\n')


def strings_in(src):
    import ast
    return [n.value for n in ast.walk(ast.parse(src, mode='eval'))
            if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def was_interned(s):
    fresh = ''.join(list(s))
    before = sys.intern(fresh) is not fresh
    del fresh
    return before


if __name__ == '__main__':
    main()
