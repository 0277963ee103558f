#!/usr/bin/env python3
"""Writes domains/src/main/resources/brokkr/domains/bfcl/multiturn/interned-by-backends-3.11.txt: the identifier-like
names a CPython 3.11 process has interned once it has imported upstream BFCL's multi-turn backend modules (what
upstream's executor does before it evals a call string; this script's own imports — ast, tokenize, importlib — are
ones upstream's process has loaded too, through inspect and importlib). They decide whether
a set display's frozenset constant is rebuilt (brokkr.python.PySetOrder.display, codeobject.c
intern_string_constants). Candidates are the NAME tokens and identifier-like string literals of the module sources;
each is probed by interning a fresh copy (3.11's interned strings are mortal, so the probe leaves no trace). Reads
a checkout of ShishirPatil/gorilla (upstream code is imported and run here, never copied):

    python3 engine/src/test/python/gen_interned_bfcl_names.py /path/to/gorilla
"""
import ast
import importlib.util
import io
import os
import sys
import tokenize
import types

assert sys.version_info[:2] == (3, 11), sys.version
ROOT = os.path.join(sys.argv[1], 'berkeley-function-call-leaderboard')
SRC = os.path.join(ROOT, 'bfcl_eval', 'eval_checker', 'multi_turn_eval', 'func_source_code')
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'domains', 'src', 'main',
                   'resources', 'brokkr', 'domains', 'bfcl', 'multiturn', 'interned-by-backends-3.11.txt')
MODULES = ['long_context', 'gorilla_file_system', 'math_api', 'message_api', 'posting_api', 'ticket_api',
           'trading_bot', 'travel_booking', 'vehicle_control']


def name_like(s):
    return s.isascii() and all(c.isalnum() or c == '_' for c in s)


def was_interned(s):
    fresh = ''.join(list(s))
    before = sys.intern(fresh) is not fresh
    del fresh
    return before


def candidates():
    out = set()
    for m in MODULES:
        with open(os.path.join(SRC, m + '.py'), encoding='utf-8') as f:
            for t in tokenize.generate_tokens(io.StringIO(f.read()).readline):
                if t.type == tokenize.NAME:
                    out.add(t.string)
                elif t.type == tokenize.STRING:
                    try:
                        v = ast.literal_eval(t.string)  # not compiled: its value is not interned by this
                    except (ValueError, SyntaxError):
                        continue
                    if isinstance(v, str) and name_like(v):
                        out.add(''.join(list(v)))
    return sorted(out)


def main():
    names = candidates()
    # the package path the modules import each other by, without bfcl_eval's own __init__ (heavy imports)
    pkg = 'bfcl_eval.eval_checker.multi_turn_eval.func_source_code'
    parts = pkg.split('.')
    for i in range(1, len(parts) + 1):
        mod = types.ModuleType('.'.join(parts[:i]))
        mod.__path__ = []
        sys.modules.setdefault(mod.__name__, mod)
    loaded = []
    for m in MODULES:
        spec = importlib.util.spec_from_file_location(pkg + '.' + m, os.path.join(SRC, m + '.py'))
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        loaded.append(module)
    after = {n for n in names if was_interned(n)}
    with open(OUT, 'w', encoding='ascii') as f:
        f.write(''.join(n + '\n' for n in sorted(after)))


if __name__ == '__main__':
    main()
