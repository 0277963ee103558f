#!/usr/bin/env python3
"""Writes engine/src/main/resources/brokkr/python/interned-at-startup-3.11.txt: identifier-like names a CPython 3.11
process has interned before it runs any user code, for brokkr.python.PySetOrder.display (codeobject.c
intern_string_constants). Candidates: keywords, the builtins module's names, the method and attribute names of the
core types, the one-character names, and (interned_probe.py) the identifiers and identifier-like string literals of
every module a normal start-up (with `site`) has loaded, e.g. os, posixpath, codecs, _collections_abc; each probed
in a fresh python3.11 that imported nothing else. Run under CPython 3.11, stdlib only:

    python3.11 engine/src/test/python/gen_interned_names.py
"""
import builtins
import keyword
import os
import string
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interned_probe  # noqa: E402

assert sys.version_info[:2] == (3, 11), sys.version
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'main', 'resources', 'brokkr', 'python',
                   'interned-at-startup-3.11.txt')
names = set(keyword.kwlist) | set(keyword.softkwlist) | set(dir(builtins))
for t in (str, bytes, int, float, complex, bool, list, tuple, dict, set, frozenset, object, type, BaseException):
    names |= set(dir(t))
names |= set(string.ascii_letters + string.digits + '_')
names = {n for n in names if interned_probe.name_like(n)}

found = interned_probe.interned([], extra=names)
with open(OUT, 'w', encoding='ascii') as f:
    f.write(''.join(n + '\n' for n in found))
print(len(found), 'names')
