#!/usr/bin/env python3
"""Writes domains/src/main/resources/brokkr/domains/bfcl/multiturn/interned-by-backends-3.11.txt: the identifier-like
names a CPython 3.11 process has interned once it has imported upstream BFCL's multi-turn executor
(bfcl_eval/eval_checker/multi_turn_eval/multi_turn_utils.py, with copy, importlib, inspect, json, re and what they
load) and the backend modules it imports (what upstream's executor process holds before it evals a call string).
They decide whether a set display's frozenset constant is rebuilt (brokkr.python.PySetOrder.display, codeobject.c
intern_string_constants). Candidates and probe: interned_probe.py (the sources and attribute names of every loaded
module, each probed in a fresh python3.11 that imported only these). Names already interned at start-up
(interned-at-startup-3.11.txt) are listed too. Reads a checkout of ShishirPatil/gorilla (upstream code is imported
and run here, never copied):

    python3.11 engine/src/test/python/gen_interned_bfcl_names.py /path/to/gorilla
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interned_probe  # noqa: E402

assert sys.version_info[:2] == (3, 11), sys.version
ROOT = os.path.join(sys.argv[1], 'berkeley-function-call-leaderboard')
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'domains', 'src', 'main',
                   'resources', 'brokkr', 'domains', 'bfcl', 'multiturn', 'interned-by-backends-3.11.txt')
PKG = 'bfcl_eval.eval_checker.multi_turn_eval'
MODULES = [PKG + '.multi_turn_utils'] + [PKG + '.func_source_code.' + m for m in (
    'long_context', 'gorilla_file_system', 'math_api', 'message_api', 'posting_api', 'ticket_api', 'trading_bot',
    'travel_booking', 'vehicle_control')]

# 'bfcl_eval', the package's top-level name: interned where upstream's entry points import it by name (the
# earlier probe of this list, which made the package modules by name, found it so)
found = sorted(set(interned_probe.interned(MODULES, path=ROOT)) | {'bfcl_eval'})
with open(OUT, 'w', encoding='ascii') as f:
    f.write(''.join(n + '\n' for n in found))
print(len(found), 'names')
