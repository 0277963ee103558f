#!/usr/bin/env python3
"""Writes engine/src/main/resources/brokkr/python/interned-at-startup-3.11.txt: identifier-like names a CPython 3.11
process has interned before it runs any user code (of keywords, the builtins module's names, the method and attribute
names of the core types, the one-character names: those a probe finds interned), for brokkr.python.PySetOrder.display (codeobject.c intern_string_constants).
Run under CPython 3.11, stdlib only:

    python3 engine/src/test/python/gen_interned_names.py
"""
import builtins
import keyword
import os
import string
import sys

assert sys.version_info[:2] == (3, 11), sys.version
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'main', 'resources', 'brokkr', 'python',
                   'interned-at-startup-3.11.txt')
names = set(keyword.kwlist) | set(keyword.softkwlist) | set(dir(builtins))
for t in (str, bytes, int, float, complex, bool, list, tuple, dict, set, frozenset, object, type, BaseException):
    names |= set(dir(t))
names |= set(string.ascii_letters + string.digits + '_') | {''}
names = {n for n in names if n.isascii() and all(c.isalnum() or c == '_' for c in n)}


def was_interned(s):
    # interning a fresh copy returns another object when an equal one is interned already (a one-character
    # str is the interpreter's singleton, which need not be the interned one)
    fresh = ''.join(list(s))
    before = sys.intern(fresh) is not fresh
    del fresh
    return before


names = {n for n in names if was_interned(n)}
with open(OUT, 'w', encoding='ascii') as f:
    f.write(''.join(n + '\n' for n in sorted(names)))
