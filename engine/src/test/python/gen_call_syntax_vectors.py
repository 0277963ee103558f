#!/usr/bin/env python3
"""Writes engine/src/test/resources/python-vectors/call_syntax.jsonl: what CPython 3.11's eval(s) says (its compile
step) about function-call strings with token-level damage (a dropped or doubled comma, '=' for ':' or '==',
a missing or extra bracket or quote, a stray name or literal...), for brokkr.python.source.PyParser's invalid_*
rules. Run under CPython 3.11, stdlib only:

    python3 engine/src/test/python/gen_call_syntax_vectors.py

Lines: {"src": "<call>", "error": "<str(SyntaxError)>"} or {"src": ..., "error": null} when it compiles.
"""
import json
import os
import random
import sys

assert sys.version_info[:2] == (3, 11), sys.version
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'resources', 'python-vectors', 'call_syntax.jsonl')
RNG = random.Random(20261203)

CALLS = [
    "cd(folder='document')", "mv(source='final_report.pdf', destination='temp')",
    "send_message(receiver_id='USR002', message='Hi, how are you?')", "mean(numbers=[1, 2.5, 3])",
    "display_log(messages={'a', 'b', 'c'})", "book_flight(access_token='abc', card_id='c1', travel_date='2024-11-12',"
    " travel_from='SFO', travel_to='LAX', travel_class='economy')", "place_order(order_type='Buy', symbol='AAPL',"
    " price=150.0, amount=100)", "get_stock_info(symbol='NVDA')", "post_tweet(content='Hello', tags=['#a', '#b'],"
    " mentions=[])", "set_navigation(destination='2107 Channing Way, Berkeley, CA')", "lockDoors(unlock=False,"
    " door=['driver', 'passenger'])", "f(x={'k': 1, 'v': (2, 3)})", "grep(file_name='log.txt', pattern='error')",
    "sort(file_name='a.txt')", "ls(a=True)", "pwd()", "echo(content='It\\'s done', file_name='x.txt')",
    "add_contact(user_name='John Doe')", "multiply(a=3, b=-4)", "logistic_regression(x=[1,2], y=[0,1], c=0.5)",
]
FRAGMENTS = ["", ",", "=", "==", ":", ":=", "(", ")", "[", "]", "{", "}", "'", '"', "x", "1", "'s'", "a=1", "**",
             "*", ".", "lambda", "for", "in", "if", "else", "True", "None", " ", "\\", "#", "->", "...", "f()"]


def tokens(s):
    import io
    import tokenize
    out = []
    try:
        for t in tokenize.generate_tokens(io.StringIO(s).readline):
            if t.type in (tokenize.ENDMARKER, tokenize.NEWLINE, tokenize.NL):
                continue
            out.append(t.string)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return out


def mutate(call):
    toks = tokens(call)
    if not toks:
        return call
    for _ in range(RNG.choice([1, 1, 1, 2])):
        i = RNG.randrange(len(toks))
        op = RNG.random()
        if op < 0.3:
            del toks[i]
        elif op < 0.6:
            toks.insert(i, RNG.choice(FRAGMENTS))
        elif op < 0.85:
            toks[i] = RNG.choice(FRAGMENTS)
        else:
            toks.insert(i, toks[RNG.randrange(len(toks))])
        if not toks:
            break
    sep = RNG.choice(['', ' '])
    return sep.join(toks) if RNG.random() < 0.5 else ' '.join(toks)


def error_of(src):
    try:
        # bltinmodule.c builtin_eval_impl strips leading spaces and tabs before compiling
        compile(src.lstrip(' \t'), '<string>', 'eval')
        return None
    except SyntaxError as e:
        return str(e)


def main():
    seen = set()
    rows = []
    while len(rows) < 4000:
        src = mutate(RNG.choice(CALLS))
        if src in seen or '\0' in src:
            continue
        seen.add(src)
        try:
            err = error_of(src)
        except (ValueError, MemoryError, RecursionError):
            continue
        rows.append({"src": src, "error": err})
    with open(OUT, 'w', encoding='ascii') as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=True) + '\n')


if __name__ == '__main__':
    main()
