#!/usr/bin/env python3
"""Writes engine/src/test/resources/python-vectors/call_comprehension.jsonl: call strings with a comprehension
clause where CPython 3.11's grammar raises one of the invalid_* hints that need for_if_clauses (invalid_arguments'
"Generator expression must be parenthesized", invalid_kwarg's NAME '=' expression for_if_clauses, invalid_comprehension's
"did you forget parentheses around the comprehension target?"), as compile(src, '<string>', 'eval') answers
(MultiTurnFuzz found them). Run under CPython 3.11:

    python3.11 engine/src/test/python/gen_comprehension_hint_vectors.py
"""
import json
import os
import sys

assert sys.version_info[:2] == (3, 11), sys.version
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'resources', 'python-vectors',
                   'call_comprehension.jsonl')
CALLS = ["ls", "gpt_4_1_eval_GorillaFileSystem_instance.cd", "send_message"]
SHAPES = [
    "{f}(x for x in y, 1)", "{f}(x for x in y, )", "{f}(x for x in y, z=1)", "{f}(a, x for x in y)",
    "{f}(a, b, x for x in y if x)", "{f}(k='v', x for x in y, 1)", "{f}(k='v', x for x in y)",
    "{f}(*a, x for x in y)", "{f}(**k, x for x in y)", "{f}(x for x in y for z in w, 1)",
    "{f}(x async for x in y, 1)", "{f}(x for x, z in y, 1)", "{f}(x for (x, z) in y, 1)",
    "{f}(x=1 for y in z)", "{f}(x=1 for y in z, destination='a')", "{f}(a='b', x=1 for y in z)",
    "{f}(x=[1] for y in z if y)", "{f}(x=1 for y in z for w in v)", "{f}(x=1 async for y in z)",
    "{f}(x=[1, 2 for y in z])", "{f}(x=[1, for y in z])", "{f}(x=[1, 2, for y in z])",
    "{f}(x={{1, 2 for y in z}})", "{f}(x={{1, for y in z}})", "{f}(x=[1, 2 for y in z if y])",
    "{f}(x=[a, b for a, b in z])", "{f}(x=[1, 2 async for y in z])", "{f}([1, 2 for y in z])",
    "{f}(x=[1, 2 for y in])", "{f}(x=1 for y in)", "{f}(x for x in, 1)", "{f}(x=[1, 2 for])",
    # not here: a comprehension clause whose target is followed by another expression ("{f}(x=1 for y z)": CPython
    # says "Perhaps you forgot a comma?" from inside the clause), the known-divergent class of call_syntax's
]
with open(OUT, 'w', encoding='utf-8') as out:
    for shape in SHAPES:
        for f in CALLS:
            src = shape.format(f=f)
            try:
                compile(src, '<string>', 'eval')
                err = None
            except SyntaxError as e:
                err = str(e)
            out.write(json.dumps({"src": src, "error": err}, sort_keys=True) + '\n')
