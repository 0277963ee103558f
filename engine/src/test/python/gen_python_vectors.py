#!/usr/bin/env python3
"""Writes the CPython oracle vectors for brokkr.python (engine/src/test/resources/python-vectors/).

Run from anywhere with a stdlib-only CPython (recorded with 3.11; the corpora elsewhere use 3.13):

    python3 engine/src/test/python/gen_python_vectors.py

Output is deterministic (seeded RNG, no dict/set iteration over unordered data), JSON lines, ASCII only.

Value encoding inside the vector files (so that Java decodes them unambiguously, int vs float vs bool,
exact doubles, dict order and lone surrogates included):
    None/True/False -> null/true/false;  str -> JSON string (ensure_ascii, lone surrogates as \\udXXX)
    int   -> {"i": "<decimal>"}  (beyond 4000 digits {"ix": "[-]<hex>"});  float -> {"f": float.hex(x)}  ('inf', '-inf', 'nan' for the non-finite)
    list  -> [enc, ...];          dict  -> {"d": [[key, enc], ...]}  (insertion order)

Files: float_repr, round, format, repr (str repr/str of values), printable (str.isprintable ranges over all
code points), dumps, loads (values or JSONDecodeError text and position), ops (bool(), ==, <, <=, >, >=), arith
(+, -, *, +=, -=, *=, unary -, max)
and worlds (SHA-256 of json.dumps over the upstream tau2 worlds in ../shared, when present).

Known CPython 3.11 vs 3.13 differences, kept out of the vectors (the Java code follows 3.13):
  * json.loads of a trailing comma: 3.13 says "Illegal trailing comma before end of array/object" at the
    comma, 3.11 "Expecting value" / "Expecting property name ..." after it.
  * str repr printability: unicodedata 14.0 (3.11) vs 15.1 (3.13); code points unassigned in 14.0 are
    left out of the repr vectors, and the printable table is compared modulo the 15.0/15.1 additions.
  * json.dumps(allow_nan=False) error text (3.13 appends ": nan").
  * recursion limits for deeply nested documents (3.12 changed the C recursion accounting).
"""
import json
import math
import os
import random
import struct
import sys
import unicodedata

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'resources', 'python-vectors')
RNG = random.Random(20261129)


def enc(v):
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, int):
        if abs(v) >= 10 ** 4000:  # str() refuses > 4300 digits since 3.11; hex has no limit
            return {"ix": ('-' if v < 0 else '') + format(abs(v), 'x')}
        return {"i": str(v)}
    if isinstance(v, float):
        return {"f": float.hex(v)}
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return [enc(x) for x in v]
    if isinstance(v, dict):
        return {"d": [[k, enc(x)] for k, x in v.items()]}
    raise TypeError(type(v))


def write(name, rows):
    path = os.path.join(OUT, name)
    with open(path, 'w', encoding='ascii', newline='\n') as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=True, sort_keys=True, allow_nan=False) + '\n')
    return len(rows)


def bits_to_float(b):
    return struct.unpack('<d', struct.pack('<Q', b))[0]


# ---------------------------------------------------------------- floats
def interesting_floats():
    xs = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.1, 0.2, 0.3, 0.1 + 0.2, 1 / 3, 2 / 3,
          1e16, 1e15, 9999999999999998.0, 1e17, 1e22, 1e23, 1e-4, 1e-5, 0.0001, 0.00012345, 1.5e-5,
          5e-324, 1e-323, 2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308,
          4.9406564584124654e-324, 123456789.0, 1234567890123456.0, 12345678901234567.0,
          0.5, 1.5, 2.5, -2.5, 2.675, 1.005, 0.125, 0.375, 100.0, 1e100, 1e-100, 3.141592653589793,
          2.718281828459045, 9007199254740992.0, 9007199254740993.0, 2.0 ** 63, 2.0 ** 64, 2.0 ** -1074,
          float.fromhex('0x1.fffffffffffffp-1023'), float.fromhex('0x0.0000000000002p-1022'),
          float.fromhex('0x1p-1022'), 0.015, 0.025, 0.035, 0.045, 1.115, 1.125, 1.135, 10.5, 11.5,
          -0.5, -1.5, 0.49999999999999994, 4503599627370495.5, 4503599627370496.5, 1e300, 1e-300,
          123.456, 99.995, 0.995, 9.995, 19.99, 1234.5678, 1e21, 1e20, 123e18]
    for e in range(-30, 31):
        xs.append(10.0 ** e)
        xs.append(float('1e%d' % e))
        xs.append(float('5e%d' % e))
        xs.append(float('9.5e%d' % e))
    for e in range(-1074, 1024, 37):
        xs.append(2.0 ** e)
    # the smallest subnormals: one significant digit often suffices there (Java prints two)
    for k in range(1, 64):
        xs.append(bits_to_float(k))
    # subnormals
    for _ in range(40):
        xs.append(bits_to_float(RNG.getrandbits(52)))
    # single-digit shortest forms (where Java's Double.toString may print two digits)
    for e in range(-324, 309, 3):
        for d in (1, 2, 3, 4, 5, 7, 9):
            x = float('%de%d' % (d, e))
            if x != 0 and not math.isinf(x):
                xs.append(x)
    # random bit patterns: the bulk check of the shortest-digits assumption
    for _ in range(900):
        x = bits_to_float(RNG.getrandbits(64))
        xs.append(x)
    # random "money-like" and short decimals
    for _ in range(300):
        xs.append(round(RNG.uniform(-1e6, 1e6), RNG.randint(0, 6)))
    for _ in range(150):
        xs.append(RNG.random())
    # neighbours of powers of ten (repr switch points)
    for x in (1e16, 1e-4, 1e-5, 1e15, 1e17, 0.001):
        xs.append(math.nextafter(x, 0))
        xs.append(math.nextafter(x, math.inf))
    return xs


def gen_float_repr():
    rows, seen = [], set()
    for x in interesting_floats():
        h = float.hex(x)
        if h in seen:
            continue
        seen.add(h)
        assert str(x) == repr(x)  # Python 3: str(float) is repr(float)
        rows.append({"x": h, "repr": repr(x), "json": json.dumps(x)})
    return write('float_repr.jsonl', rows)


# ---------------------------------------------------------------- round / format
def gen_round():
    rows = []
    floats = [x for x in interesting_floats()]
    RNG2 = random.Random(7)
    for x in RNG2.sample(floats, 300) + [x for x in floats[:40]]:
        for n in [None, 0, 1, 2, 3, -1, -2, 5, 15, 17, -308, -309, 323, 324, 400, -400, 10, -10]:
            if n is not None and n not in (None, 0, 1, 2) and RNG2.random() < 0.7:
                continue
            try:
                r = round(x) if n is None else round(x, n)
                out = enc(r)
                err = None
            except (OverflowError, ValueError) as e:
                out = None
                err = [type(e).__name__, str(e)]
            row = {"x": enc(x), "n": n}
            if err:
                row["err"] = err
            else:
                row["out"] = out
            rows.append(row)
    for _ in range(250):
        x = round(RNG.uniform(-1000, 1000), RNG.randint(1, 4))
        n = RNG.randint(0, 3)
        rows.append({"x": enc(x), "n": n, "out": enc(round(x, n))})
    ints = [0, 1, -1, 5, 15, 25, -25, 35, 45, 149, 150, 250, 251, 1234567, -1234567, 2 ** 63, -(2 ** 63) - 5,
            10 ** 30 + 5 * 10 ** 10, 12345678901234567890123, 55, 65, -55, 95, 994, 995, 996]
    for i in ints:
        for n in [None, 0, 2, -1, -2, -3, -10]:
            r = round(i) if n is None else round(i, n)
            rows.append({"x": enc(i), "n": n, "out": enc(r)})
    for b in (True, False):
        for n in (None, 0, 1, -1):
            rows.append({"x": enc(b), "n": n, "out": enc(round(b) if n is None else round(b, n))})
    return write('round.jsonl', rows)


def gen_format():
    rows = []
    specs = ['.0f', '.1f', '.2f', '.3f', '.4f', '.6f', '.10f', '.17f', '.20f', 'f', '.2%', '.1%', '%', ',.2f',
             ',.0f', ',f', '_.2f', '+.2f', ' .2f', '10.2f', '<10.2f', '>10.2f', '^10.2f', '*^12.3f', '010.2f',
             '+012,.2f', '.2F', 'F', '=+10.1f', '.3g', 'g', '.10g', '.0g', '#.3g', '.2', '.5', 'G', '.17g', '#g',
             ',.4g', '.1', '#.0e', '#.0f', '.12', '+.3', ',d', '_d', 'd', '+d', '08d', '.3e', 'e', '.0e', 'E']
    allx = interesting_floats()
    xs = allx[:120] + RNG.sample(allx, 450)
    for x in xs:
        picks = ['.2f', '.4f'] + RNG.sample(specs, 3)
        for s in picks:
            if s in (',d', '_d', 'd', '+d', '08d'):
                continue
            try:
                out = format(x, s)
            except ValueError as e:
                continue
            rows.append({"x": enc(x), "spec": s, "out": out})
    for i in [0, 1, -1, 1234, -1234567, 10 ** 20 + 7, -(10 ** 25), 999, 1000, 123456789]:
        for s in [',d', '_d', 'd', '+d', '08d', ',', '.2f', ',.2f', '.1%', '.3g', 'e']:
            rows.append({"x": enc(i), "spec": s, "out": format(i, s)})
    # str, other ints codes, and objects: format(x, spec) texts and error texts
    others = ['', 'abc', 'caf\u00e9', '\U0001f600x', 255, -255, 0, 2 ** 40, True, False, None, [1, 'a'], {'k': 1.5}, 1.5, -0.0]
    ospecs = ['', '<10', '>10', '^11', '*^9', '\U0001f600>5', '.3', '10.2', '=10', '+', ' ', '#', ',', '_', 'd', 's', '010',
              '<010', '*<010', '#x', '#010x', '_b', '#_b', '#o', ',x', 'X', '#X', '_x', '+#x', ' #b', 'n', 'x', 'c', '.2', 'z',
              '.0', '.2f', 'e', '%', '_', '=+8', '^']
    for v in others:
        for sp in ospecs:
            if sp == 'c' and isinstance(v, int):
                continue  # 'c' is not implemented
            try:
                rows.append({"x": enc(v), "spec": sp, "out": format(v, sp)})
            except (ValueError, TypeError) as e:
                rows.append({"x": enc(v), "spec": sp, "err": type(e).__name__ + ": " + str(e)})
    for _ in range(120):
        x = round(RNG.uniform(-1e7, 1e7), RNG.randint(0, 5))
        s = RNG.choice(['.2f', ',.2f', '.4f', '.1f', '.3f'])
        rows.append({"x": enc(x), "spec": s, "out": format(x, s)})
        rows.append({"x": enc(x), "spec": "fstr:.4f", "out": f"{x:.4f}"})
    return write('format.jsonl', rows)


# ---------------------------------------------------------------- strings / repr
def random_cp(rng):
    while True:
        r = rng.random()
        if r < 0.35:
            cp = rng.randint(0, 0x7f)
        elif r < 0.55:
            cp = rng.randint(0x80, 0x7ff)
        elif r < 0.8:
            cp = rng.randint(0x800, 0xffff)
        else:
            cp = rng.randint(0x10000, 0x10ffff)
        # unassigned in Unicode 14.0 may be assigned in 15.1 (3.13): printability differs, skip
        if unicodedata.category(chr(cp)) == 'Cn':
            continue
        return cp


def random_str(rng, n=None):
    n = rng.randint(0, 12) if n is None else n
    while True:
        s = ''.join(chr(random_cp(rng)) for _ in range(n))
        if not has_fake_pair(s):
            return s


def has_fake_pair(s):
    """A lone high surrogate followed by a lone low one: two code points in Python, one in UTF-16 (Java)."""
    return any('\ud800' <= a <= '\udbff' and '\udc00' <= b <= '\udfff' for a, b in zip(s, s[1:]))


SPECIAL_STRS = ['', 'a', "'", '"', '\'"', 'it\'s', 'say "hi"', '\\', '\\n', '\n', '\r\n\t', '\x00', '\x1f', '\x7f',
                '\x80', '\x9f', '\xa0', '\xad', '\xff', '\u0100', '\u2028', '\u2029', '\u200b', '\u3000', '\ufeff',
                '\ufffd', '\uffff', '\ud800', '\udfff', '\ud83d', '\ude00', '\ude00\ud800x', '\U0001f600',
                '\U0001f600\U0001f64f', '\U000e0001', '\U0010ffff', '\U000f0000', 'caf\u00e9', '\u65e5\u672c',
                'tab\there', 'a\x1bb', '\b\f\v', 'x' * 50, '\u0300', 'e\u0301', '\u00a0\u1680\u2000\u202f',
                '\u0085', '\u061c', '\u180e', '\ue000', '\U00012000', '\U0001d11e', '</script>', '\x0b\x0c']


def gen_repr():
    rows = []
    strs = list(SPECIAL_STRS)
    for _ in range(500):
        strs.append(random_str(RNG))
    for s in strs:
        rows.append({"v": enc(s), "repr": repr(s), "str": str(s)})
    vals = [None, True, False, 0, -5, 2 ** 100, -(2 ** 70), 1.0, -0.0, math.inf, -math.inf, math.nan, 1e16, 1e-5,
            [], {}, [1, 2.0, 'x', None, True], {'a': 1, 'b': [1, {'c': None}]}, {'k\'': 'v"', '\n': '\t'},
            [[[]]], {'': {}}, [1.5, 'it\'s', "\"q\""], {'z': 1, 'a': 2, 'm': 3}]
    for v in vals:
        rows.append({"v": enc(v), "repr": repr(v), "str": str(v)})
    for _ in range(150):
        v = random_value(RNG, 3)
        rows.append({"v": enc(v), "repr": repr(v), "str": str(v)})
    return write('repr.jsonl', rows)


def gen_printable():
    """Ranges [start, end) of str.isprintable() and of category Cn, over all code points (Unicode 14.0)."""
    def ranges(pred):
        out, start = [], None
        for cp in range(0x110000):
            p = pred(cp)
            if p and start is None:
                start = cp
            elif not p and start is not None:
                out.append([start, cp])
                start = None
        if start is not None:
            out.append([start, 0x110000])
        return out
    row = {"unidata_version": unicodedata.unidata_version,
           "printable": ranges(lambda cp: chr(cp).isprintable()),
           "unassigned": ranges(lambda cp: unicodedata.category(chr(cp)) == 'Cn')}
    return write('printable.jsonl', [row])


# ---------------------------------------------------------------- values / dumps
def random_float(rng):
    r = rng.random()
    if r < 0.3:
        return bits_to_float(rng.getrandbits(64))
    if r < 0.6:
        return round(rng.uniform(-1e4, 1e4), rng.randint(0, 4))
    if r < 0.7:
        return rng.choice([0.0, -0.0, math.inf, -math.inf, math.nan, 1e16, 1e-5, 5e-324, 1e22])
    return rng.random() * 10 ** rng.randint(-10, 25)


def random_scalar(rng):
    r = rng.random()
    if r < 0.25:
        return random_str(rng)
    if r < 0.45:
        return rng.choice([rng.randint(-1000, 1000), rng.getrandbits(70) - 2 ** 69, rng.randint(-2 ** 63, 2 ** 63)])
    if r < 0.7:
        return random_float(rng)
    return rng.choice([None, True, False, '', 'plain', 0, 1])


def random_value(rng, depth):
    r = rng.random()
    if depth <= 0 or r < 0.4:
        return random_scalar(rng)
    if r < 0.7:
        return [random_value(rng, depth - 1) for _ in range(rng.randint(0, 4))]
    d = {}
    for _ in range(rng.randint(0, 5)):
        d[random_str(rng, rng.randint(0, 4)) if rng.random() < 0.5 else rng.choice(['a', 'b', 'B', 'id', '_x', 'é', '\U0001f600', 'Z', 'aa'])] = random_value(rng, depth - 1)
    return d


def deep(n):
    v = 1
    for i in range(n):
        v = [v] if i % 2 else {'k': v}
    return v


def gen_dumps():
    rows = []
    opts_list = [dict(), dict(sort_keys=True), dict(indent=2), dict(indent=0), dict(indent=4, sort_keys=True),
                 dict(ensure_ascii=False), dict(ensure_ascii=False, indent=2), dict(indent=1, ensure_ascii=False, sort_keys=True),
                 dict(separators=(',', ':')), dict(separators=(',', ':'), sort_keys=True, ensure_ascii=False),
                 dict(indent=3, separators=(', ', ' = ')), dict(indent=-1)]
    vals = [None, True, False, 0, 1, -1, 2 ** 63, -(2 ** 64) - 1, 10 ** 40, 0.0, -0.0, math.nan, math.inf, -math.inf,
            1e16, 1e22, 1e-5, 5e-324, 0.1, 1.7976931348623157e308, '', 'a"b\\c', '\x00\x1f\x7f\x80\u2028\ud800\U0001f600',
            [], {}, [[]], [{}], {'a': []}, {'a': {}}, {'b': 1, 'a': 2, 'A': 3, '\U0001f600': 4, '\uffff': 5, '\ue000': 6},
            [1, [2, [3, [4]]]], {'x': {'y': {'z': [1.5, None, 'w']}}}, deep(50), deep(120), list(range(30)),
            {'': 1, ' ': 2, '\t': 3}]
    for v in vals:
        for o in opts_list:
            if (v is vals[-3] or v is vals[-4]) and o.get('indent') not in (None, 0, 1, -1):
                continue  # deeply nested and widely indented output is large and adds nothing
            rows.append({"v": enc(v), "opts": opts_json(o), "out": json.dumps(v, **o)})
    for _ in range(300):
        v = random_value(RNG, 4)
        o = RNG.choice(opts_list)
        rows.append({"v": enc(v), "opts": opts_json(o), "out": json.dumps(v, **o)})
    # ensure_ascii on every kind of code unit (incl. lone surrogates, written via surrogate-safe escapes)
    for _ in range(100):
        s = ''.join(chr(RNG.randint(0, 0x10ffff)) for _ in range(RNG.randint(1, 8)))
        for o in (dict(), dict(ensure_ascii=False)):
            rows.append({"v": enc(s), "opts": opts_json(o), "out": json.dumps(s, **o)})
    # CPython 3.11+ int/str conversion limit (4300 digits): a ValueError, not output
    for v in (10 ** 4299, 10 ** 4300, [-(10 ** 4300)]):
        try:
            rows.append({"v": enc(v), "opts": opts_json({}), "out": json.dumps(v)})
        except ValueError as e:
            rows.append({"v": enc(v), "opts": opts_json({}), "err": str(e)})
    # default=str is irrelevant for Value trees (every Value is JSON-serialisable); it never changes the output
    rows.append({"v": enc({'a': [1.0, 'x']}), "opts": opts_json({}), "out": json.dumps({'a': [1.0, 'x']}, default=str)})
    return write('dumps.jsonl', rows)


def opts_json(o):
    d = {"sort_keys": o.get('sort_keys', False), "ensure_ascii": o.get('ensure_ascii', True), "indent": o.get('indent')}
    if 'separators' in o:
        d["separators"] = list(o['separators'])
    return d


# ---------------------------------------------------------------- loads
def trailing_comma_case(doc, msg, pos):
    """True when 3.13's 'Illegal trailing comma' check would fire at a different place than 3.11 reports."""
    if pos >= len(doc):
        return False
    j = pos - 1
    while j >= 0 and doc[j] in ' \t\n\r':
        j -= 1
    if j < 0 or doc[j] != ',':
        return False
    return (msg.startswith('Expecting value') and doc[pos] == ']') or \
        (msg.startswith('Expecting property name') and doc[pos] == '}')


def loads_row(doc):
    if has_fake_pair(doc):
        return None
    try:
        v = json.loads(doc)
        return {"doc": doc, "ok": enc(v)}
    except json.JSONDecodeError as e:
        if trailing_comma_case(doc, e.msg, e.pos):
            return None
        return {"doc": doc, "err": str(e), "pos": e.pos}
    except RecursionError:
        return None
    except ValueError as e:
        return {"doc": doc, "valueError": str(e)}


def spaced(rng, doc):
    """Re-emit a valid document with random JSON whitespace between tokens."""
    out, in_str, esc = [], False, False
    for ch in doc:
        out.append(ch)
        if in_str:
            if esc:
                esc = False
            elif ch == '\\':
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in ',:[{' and rng.random() < 0.4:
            out.append(rng.choice([' ', '\n', '\t', '\r', '  ', '\n  ']))
    return ''.join(out)


MALFORMED = ['', ' ', '\n', 'x', '[', ']', '{', '}', '[1', '[1,', '[1 2]', '{"a"}', '{"a" 1}', '{"a":}', '{"a":1 "b":2}',
             '{a:1}', "{'a':1}", '{"a":1,"b"}', '"abc', '"ab\\', '"\\x"', '"\\u12"', '"\\u12', '"\\uZZZZ"',
             '"\\ud800\\uZZZZ"', '"\\ud800\\u12"', '"\\ud800"', '"\\ud800\\udc00"', '"\\udc00\\ud800"', '"a\x01b"',
             '"\x7f"', '"\t"', '"\n"', 'nul', 'null ', 'nulL', 'tru', 'true1', 'fals', 'NaN', 'Nan', '-NaN',
             'Infinity', '-Infinity', '+Infinity', 'infinity', '-', '--1', '+1', '01', '-01', '1.', '.5', '1.e5',
             '1e', '1e+', '1e-', '1E5', '1e-5', '-0', '-0.0', '0.0e0', '1e400', '-1e400', '1e-400', '123abc',
             '[1]]', '{}}', '[] []', '1 2', '\ufeff1', '\ufeff', ' \ufeff1', '[\ufeff]', '\u00a01', '\u20281',
             '[1,\n2,\n3,\nx]', '{\n  "a": 1,\n  "b": x\n}', '\r\n\r\n[', '"\U0001f600" x', '["\U0001f600", x]',
             '{"\U0001f600\U0001f600": [1, "\U0001f600"], x}', '"\U0001f600\x01"', '[\U0001f600]',
             '"\\U0001f600"', '"\\/"', '"\\b\\f\\n\\r\\t\\"\\\\"', '{"a":1,"a":2}', '{"a":1,"b":2,"a":3}',
             '[' * 50 + ']' * 50, '[' * 50 + ']' * 49, '{"a":' * 30 + '1' + '}' * 30, '[1,2,3,4,5,6,7,8,9,]',
             '{"a" : 1 , "b" : [ true , false , null ] }', ' \t\n\r1 \t\n\r', '1\x0b', '\x0c1', '[1\x00]',
             '12345678901234567890123456789012345678901234567890', '-12345678901234567890.5e-3', '0.1e1',
             '1.7976931348623157e308', '1.7976931348623159e308', '2.4703282292062327e-324', '4.9e-324',
             '"\\u0000"', '"\\u00e9\\u00E9"', '"\\uD83D\\uDE00"', '"\\ud83d\\ude00\\ud83d"', '[]', '{}', '""',
             '[-]', '[-1-]', '{"a":1}x', '{"a"::1}', '{,}', '[,]', '[,1]', '{"a":1,,"b":2}', '[1,,2]', 'true false',
             '[true,false,null,NaN,Infinity,-Infinity]', '"\\ud800x"', '"\\ud800\\n"', '"\\ud800\\', '"\\u"',
             '"\\u1"', '"\\u123"', '"\\u1234', '"\\u1234"', '"\\ud800\\u"', '"\\ud800\\udc0"', '"\\ud800\\udc00']
# astral characters before the error: Python offsets count code points, UTF-16 would count two units each
MALFORMED += ['["\U0001f600",\n "\U0001f600\U0001f600", x]', '{"\U0001f600": "\U0001f600"\n\U0001f600}', '"\U0001f600\\q"',
              '\U0001f600', '[1]\U0001f600', '"\U0001f600\U0001f600', '\n\U0001f600\n  \U0001f600', '["\U0001f600" "x"]',
              '{"\U0001f600" 1}', '"\U0001f600\\u12"', '"\U0001f600\x1f"', '[\n"\U00010000\U0010ffff",\n\t-]']
MALFORMED += ['1' * 4300, '-' + '1' * 4300, '1' * 4301, '[-' + '9' * 5000 + ']', '1' * 4301 + '.5', '1' * 4400 + 'e-100']
MALFORMED += ['\n' * k + 'x' for k in range(1, 4)] + ['ab\ncd\nef', '[1,\n 2,\n  3\n  4]', '{"a":\n\n  }']


def gen_loads():
    rows = []
    docs = list(MALFORMED)
    base = []
    for _ in range(160):
        v = random_value(RNG, 4)
        d = json.dumps(v, ensure_ascii=RNG.random() < 0.5, indent=RNG.choice([None, None, 1, 2]))
        if RNG.random() < 0.5:
            d = spaced(RNG, d)
        base.append(d)
        docs.append(d)
    # mutations: truncations, deletions, insertions, substitutions of valid documents
    noise = list('[]{}",:\\ \n\t-+.eE0123456789aZnN\x00\x1f') + ['\U0001f600', '\u00e9', 'true', 'null', '\\u', '\\ud800']
    for d in base:
        if not d:
            continue
        for _ in range(5):
            k = RNG.randrange(len(d) + 1)
            op = RNG.randrange(4)
            if op == 0:
                m = d[:k]
            elif op == 1:
                m = d[:k] + d[k + 1:]
            elif op == 2:
                m = d[:k] + RNG.choice(noise) + d[k:]
            else:
                m = d[:k] + RNG.choice(noise) + d[k + 1:]
            docs.append(m)
    for d in docs:
        r = loads_row(d)
        if r is not None:
            rows.append(r)
    return write('loads.jsonl', rows)


# ---------------------------------------------------------------- truthiness / equality
def gen_ops():
    """First line: the values; then bool(v) per value and ==, <, <=, >, >= per ordered pair (by index).
    An ordering that raises is recorded as "E", with str(e) of the '<' TypeError in "msg" the first time
    a pair of types raises (the text depends on the types only, and the other operators differ only in
    the symbol: "'%s' not supported between instances of '%.100s' and '%.100s'")."""
    vals = [None, True, False, 0, 1, -1, 2, 0.0, -0.0, 1.0, 2.0, 0.5, math.nan, math.inf, -math.inf, '', ' ', '0',
            'False', 'a', 'A', [], [0], [None], [[]], {}, {'a': None}, 2 ** 53, 2 ** 53 + 1, float(2 ** 53),
            2 ** 64, float(2 ** 64), 10 ** 30, 1e30, [1, 2], [1.0, 2.0], [True, 2], [2, 1], {'a': 1, 'b': 2},
            {'b': 2, 'a': 1}, {'a': 1.0, 'b': True * 2}, {'a': 1}, {'a': [1, {'b': 0.0}]}, {'a': [True, {'b': False}]},
            [math.nan], {'a': math.nan}, '\U0001f600', '\ud83d', '\ude00\ud83d', '\uffff', [1, 'a'], [1, 2, 3],
            ['a', None], -(2 ** 70), 0.1]
    # (a lone high surrogate followed by a lone low one would be one astral character in UTF-16: not used)
    rows = [{"values": [enc(v) for v in vals]}]
    for i, v in enumerate(vals):
        rows.append({"op": "truthy", "i": i, "out": bool(v)})
    import operator
    ops = [('lt', operator.lt), ('le', operator.le), ('gt', operator.gt), ('ge', operator.ge)]
    seen_types = set()
    for i, a in enumerate(vals):
        for j, b in enumerate(vals):
            # fresh objects so that identity never short-circuits a NaN comparison
            row = {"i": i, "j": j, "eq": fresh(a) == fresh(b)}
            for name, f in ops:
                try:
                    row[name] = f(fresh(a), fresh(b))
                except TypeError as e:
                    row[name] = 'E'
                    if name == 'lt' and (type(a), type(b)) not in seen_types:
                        seen_types.add((type(a), type(b)))
                        row["msg"] = str(e)
            rows.append(row)
    return write('ops.jsonl', rows)


def fresh(v):
    if isinstance(v, float):
        return float.fromhex(float.hex(v))
    if isinstance(v, list):
        return [fresh(x) for x in v]
    if isinstance(v, dict):
        return {k: fresh(x) for k, x in v.items()}
    return v


def gen_arith():
    """First line: the values; then per ordered pair (by index) a + b, a - b, a * b, the augmented forms on a
    fresh left operand (a += b, a -= b, a *= b) and max(a, b), and per value -a: each the result or
    "<ExceptionType>: <str(e)>"."""
    vals = [None, True, False, 0, 1, -1, 3, 50, 2 ** 70, -(2 ** 70), 0.0, -0.0, 1.5, -2.5, 1e308, math.inf, math.nan,
            2 ** 1030, '', 'ab', '5', [], [1], ['a', 2], {}, {'v': 1}]
    rows = [{"values": [enc(v) for v in vals]}]

    def outcome(f):
        try:
            r = f()
        except Exception as e:  # noqa: BLE001 - the exception's text is the vector
            return {"err": type(e).__name__ + ": " + str(e)}
        return {"out": enc(r)}

    def iadd(a, b):
        a += b
        return a

    def isub(a, b):
        a -= b
        return a

    def imul(a, b):
        a *= b
        return a

    for i, a in enumerate(vals):
        rows.append(dict({"op": "neg", "i": i}, **outcome(lambda: -fresh(a))))
    for i, a in enumerate(vals):
        for j, b in enumerate(vals):
            for name, f in [('add', lambda x, y: x + y), ('sub', lambda x, y: x - y), ('mul', lambda x, y: x * y),
                            ('iadd', iadd), ('isub', isub), ('imul', imul), ('max', max)]:
                if name in ('mul', 'imul') and isinstance(a, int) and isinstance(b, int) and max(abs(a), abs(b)) >= 2 ** 70 \
                        and (abs(a) == 2 ** 1030 or abs(b) == 2 ** 1030):
                    continue  # exact but huge: the digit limit of str() is not what is tested here
                rows.append(dict({"op": name, "i": i, "j": j}, **outcome(lambda: f(fresh(a), fresh(b)))))
    return write('arith.jsonl', rows)


# ---------------------------------------------------------------- real worlds
SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', '..', 'shared')
WORLDS = ['upstream/tau2-bench/data/tau2/domains/airline/db.json', 'upstream/tau2-bench/data/tau2/domains/retail/db.json',
          'upstream/tau2-bench/data/tau2/domains/banking_knowledge/db.json']


def gen_worlds():
    """SHA-256 of json.dumps over the upstream worlds in shared/ (the 7 MB airline db among them), so the
    Java side can check dumps(loads(text)) on real data without storing megabytes of output."""
    import hashlib
    rows = []
    opts_list = [dict(), dict(sort_keys=True), dict(indent=2, ensure_ascii=False), dict(separators=(',', ':'), sort_keys=True)]
    for rel in WORLDS:
        path = os.path.join(SHARED, rel)
        if not os.path.exists(path):
            print('missing', path, '- keeping the old worlds.jsonl', file=sys.stderr)
            return None
        raw = open(path, 'rb').read()
        v = json.loads(raw.decode('utf-8'))
        for o in opts_list:
            out = json.dumps(v, **o)
            rows.append({"path": rel, "input_sha256": hashlib.sha256(raw).hexdigest(), "opts": opts_json(o),
                         "out_chars": len(out), "out_sha256": hashlib.sha256(out.encode('utf-8', 'surrogatepass')).hexdigest()})
    return write('worlds.jsonl', rows)


def main():
    os.makedirs(OUT, exist_ok=True)
    counts = {}
    for name, fn in [('float_repr', gen_float_repr), ('round', gen_round), ('format', gen_format),
                     ('repr', gen_repr), ('printable', gen_printable), ('dumps', gen_dumps),
                     ('loads', gen_loads), ('ops', gen_ops), ('arith', gen_arith), ('worlds', gen_worlds)]:
        counts[name] = fn()
    total = sum(c for c in counts.values() if c)
    print(json.dumps(counts), 'total', total, 'python', sys.version.split()[0], file=sys.stderr)


if __name__ == '__main__':
    main()
