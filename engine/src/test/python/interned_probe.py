"""Which identifier-like strings a CPython 3.11 process holds interned once it has imported some modules.

Used by gen_interned_names.py and gen_interned_bfcl_names.py. Both the candidates and the probe run in child
processes of python3.11 that import nothing but the modules asked for (plus what a normal start-up with `site`
imports): the generator's own imports (tokenize, ast, subprocess ...) would otherwise intern their identifiers and
count as interned. Candidates: every NAME token and identifier-like string literal of the source of every module the
child has loaded, and the attribute names (dir) of every loaded module and of the classes it holds (extension
modules have no source). Each candidate is probed by interning a fresh copy: 3.11 returns another object when an
equal string is interned already (its interned strings are mortal, so a probe leaves no trace).
"""
import ast
import io
import json
import subprocess
import sys
import tokenize

PYTHON = sys.executable

# run in the child: import the modules, then list the loaded modules' files and attribute names
_LIST = r"""
import sys
for _m in sys.argv[1:]:
    __import__(_m)
_out = []
for _n, _mod in list(sys.modules.items()):
    _f = getattr(_mod, '__file__', None)
    _names = []
    try:
        for _a in dir(_mod):
            _names.append(_a)
            _v = getattr(_mod, _a, None)
            if isinstance(_v, type):
                _names.extend(dir(_v))
    except Exception:
        pass
    _out.append([_n, _f, _names])
import json
print(json.dumps(_out))
"""

# run in the child: import the modules, then probe the candidates read from stdin (one a line)
_PROBE = r"""
import sys
for _m in sys.argv[1:]:
    __import__(_m)
_c = sys.stdin.read().split('\n')
for _s in _c:
    _f = ''.join(list(_s))
    if sys.intern(_f) is not _f:
        sys.stdout.write(_s + '\n')
"""


def name_like(s):
    return s.isascii() and all(c.isalnum() or c == '_' for c in s)


def interned(modules, env=None, path=None, extra=()):
    """The identifier-like strings interned in a python3.11 child that imported `modules` (sorted); `extra`: more
    candidates to probe."""
    assert sys.version_info[:2] == (3, 11), sys.version
    penv = dict(env or {})
    if path:
        penv['PYTHONPATH'] = path
    import os
    full = dict(os.environ)
    full.update(penv)
    listed = json.loads(subprocess.run([PYTHON, '-c', _LIST] + modules, env=full, check=True,
                                       capture_output=True, text=True).stdout)
    cands = set()
    for _name, f, names in listed:
        cands.update(n for n in names if name_like(n))
        if f and f.endswith('.py'):
            try:
                with open(f, encoding='utf-8') as src:
                    text = src.read()
            except OSError:
                continue
            try:
                for t in tokenize.generate_tokens(io.StringIO(text).readline):
                    if t.type == tokenize.NAME:
                        cands.add(t.string)
                    elif t.type == tokenize.STRING:
                        try:
                            v = ast.literal_eval(t.string)
                        except (ValueError, SyntaxError):
                            continue
                        if isinstance(v, str) and name_like(v):
                            cands.add(v)
            except (tokenize.TokenError, SyntaxError):
                continue
    cands.update(extra)
    cands = sorted(c for c in cands if name_like(c) and '\n' not in c)
    out = subprocess.run([PYTHON, '-c', _PROBE] + modules, env=full, check=True, capture_output=True, text=True,
                         input='\n'.join(cands)).stdout
    return sorted(set(s for s in out.split('\n') if s))
