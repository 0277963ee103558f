#!/usr/bin/env python3
"""Writes the pydantic oracle vectors for brokkr.python.PydanticSchema (engine/src/test/resources/python-vectors/pydantic.jsonl).

Needs pydantic 2 (recorded with pydantic 2.13.4 / pydantic-core 2.46.4 on CPython 3.11):

    python3 engine/src/test/python/gen_pydantic_vectors.py

The tau2 corpora were recorded with pydantic 2.10.6 (pydantic-core 2.27.2). For the schemas used here
(str, int, float, bool, Literal of strs, str-mixin Enum, list, dict, Optional, nested and extra="forbid" models) pydantic-core's
coercions (src/input/shared.rs str_as_int / str_as_float / float_as_int, input_python.rs validate_*) and
error messages are the same in both versions; only the documentation URL's version differs, so every
"https://errors.pydantic.dev/<major.minor>/" is written as 2.10's.

First row {"values": [enc(value), ...]}, {"model_inputs": [...]}; then one row per (schema, input index i):
{"schema": name, "i": i, "out": enc(model_dump())} or {"schema": name, "i": i, "err": str(ValidationError)}. The model is One(v: <schema>) called as
One(v=input), except the "model:*" schemas, which validate the input dict itself (Model(**input)).
"""
import json
import os
import re
import sys
from enum import Enum
from typing import Dict, List, Literal, Optional

import pydantic
from pydantic import BaseModel, ConfigDict, ValidationError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_python_vectors import OUT, enc, write  # noqa: E402


class Item(BaseModel):
    name: str
    qty: int


class Forbid(BaseModel):
    model_config = ConfigDict(extra='forbid')
    a: str
    b: float = 1.5
    c: Optional[str] = None


class Names(str, Enum):
    INTERNET = 'internet'
    BROKEN = 'broken'


class Settings(BaseModel):
    model_config = ConfigDict(extra='forbid')
    name: Names = Names.INTERNET
    reset: bool = False
    port: Optional[int] = None


FIELD_TYPES = {
    'str': str,
    'int': int,
    'float': float,
    'literal1': Literal['a.b'],
    'literal2': Literal['yes', 'no'],
    'literal3': Literal['business', 'economy', 'basic_economy'],
    'optional_str': Optional[str],
    'list_int': List[int],
    'list_item': List[Item],
    'dict_cabin_int': Dict[Literal['x', 'y'], int],
    'dict_str_item': Dict[str, Item],
    'item': Item,
    'bool': bool,
    'enum': Names,
    'optional_int': Optional[int],
}

STRINGS = ['5', ' 5 ', '\t5\n', '\u00a05\u3000', '\u200b5', '5.0', '5.00', '5.', '.5', '5.5', '-5.0', '+5', '+-5', '-+5', '--5',
           '-', '+', '', ' ', '0', '00', '-0', '-00', '0005', '-0005', '0.0', '00.0', '000.000', '0_0', '1_000', '1__000', '_1',
           '1_', '1_000.0', '1_0.5', ' 1_0', '0x10', '1e3', '1E3', '1e', 'e3', '1e+3', '1e-3', '1.5e3', '٥', '١٢', 'abc', '5a',
           'inf', '-inf', '+inf', 'Infinity', '-INFINITY', 'iNf', 'nan', 'NaN', '-nan', 'infinit', '1.5f', '1d', '0x1p3',
           '9223372036854775807', '9223372036854775808', '-9223372036854775809', '99999999999999999999999',
           '1' * 4300, '1' * 4301, '-' + '1' * 4299, '-' + '1' * 4300, '1' * 4301 + '.', '0' * 10 + '1' * 4295, '1' * 4301 + '.0',
           'yes', 'no', 'Yes', ' yes', 'a.b', 'x', 'business', 'economy', 'ECONOMY', 'basic_economy', 'first',
           'true', 'True', 'TRUE', 'false', 'f', 'F', 't', 'y', 'n', 'N', 'on', 'OFF', 'oN', '1', ' true', 'true ', 'internet',
           'INTERNET', 'broken', ' broken',
           'a' * 60, 'ü' * 30, '\U0001f600' * 14, 'é' * 26, 'x' * 49, 'x' * 50, 'x' * 51]
NUMBERS = [0, 1, -1, 5, 2 ** 63 - 1, 2 ** 63, -(2 ** 63), 2 ** 70, 10 ** 400, True, False,
           0.0, -0.0, 5.0, 5.5, -5.0, 1e18, 9.2e18, 9.3e18, -9.3e18, 1e20, float('inf'), float('-inf'), float('nan'), 0.1]
OTHERS = [None, [], [1], [1, '2', 3.0], ['a', 'b'], [1.5, 'x', None], {}, {'a': 1}, {'name': 'n', 'qty': '2'},
          {'name': 'n', 'qty': 2, 'extra': [1]}, {'name': 1}, {'qty': 1.5}, [{'name': 'n', 'qty': 1}, 'x', {'qty': 'q'}],
          {'x': 1, 'z': 2, 'y': 'a'}, {'k': {'name': 'n', 'qty': 1}, 'j': 'bad'}, {'v': [{'dob': '1965-06-09', 'first_name': 'A', 'last_name': 'B'}]}]
VALUES = STRINGS + NUMBERS + OTHERS

MODEL_INPUTS = [{}, {'a': 'x'}, {'a': 'x', 'b': '2'}, {'a': 1, 'b': 'q', 'c': 3, 'd': 4, 'e': None},
                {'b': 2, 'zz': 'extra'}, {'a': 'x', 'c': None}, {'a': 'x', 'b': None, 'c': ['l']},
                {'name': 'broken', 'reset': 'yes', 'port': '80'}, {'name': 'x', 'reset': 2, 'port': 1.5, 'v': 1}, {'name': None}]

URL = re.compile(r'https://errors\.pydantic\.dev/[0-9]+\.[0-9]+/')


def outcome(f):
    try:
        return {"out": enc(f().model_dump())}
    except ValidationError as e:
        return {"err": URL.sub('https://errors.pydantic.dev/2.10/', str(e))}


def main():
    rows = [{"values": [enc(v) for v in VALUES], "model_inputs": [enc(v) for v in MODEL_INPUTS]}]
    for name, tp in FIELD_TYPES.items():
        model = pydantic.create_model('One', v=(tp, ...))
        for i, v in enumerate(VALUES):
            if name not in ('int', 'float') and isinstance(v, str) and len(v) > 100:
                continue  # the 4300-digit strings test the int digit limit only
            rows.append(dict({"schema": name, "i": i}, **outcome(lambda: model(v=v))))
    for i, v in enumerate(MODEL_INPUTS):
        rows.append(dict({"schema": "model:forbid", "i": i}, **outcome(lambda: Forbid(**v))))
        rows.append(dict({"schema": "model:item", "i": i}, **outcome(lambda: Item(**v))))
        rows.append(dict({"schema": "model:settings", "i": i}, **outcome(lambda: Settings(**v))))
    n = write('pydantic.jsonl', rows)
    print(json.dumps({"pydantic": n}), 'pydantic', pydantic.VERSION, 'into', OUT, file=sys.stderr)


if __name__ == '__main__':
    main()
