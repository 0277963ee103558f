#!/usr/bin/env python3
"""Brokkr's oracle driver for its own multi-turn fuzz sequences (see README.md beside this file).

Reads the call sequences written by `brokkr.domains.bfcl.multiturn.MultiTurnFuzz` and runs every step through
upstream's own `execute_multi_turn_func_call` (bfcl_eval/eval_checker/multi_turn_eval/multi_turn_utils.py of a
gorilla checkout, imported from it, never copied), one fresh forked process per record, and writes the records in
the format of the shared `conformance/bfcl/multi_turn/fuzz-seed11.jsonl.gz` (results, per-class state hashes per
turn, state changes), which `MultiTurnConformance` replays.

Run under CPython 3.11 with PYTHONHASHSEED=0 and TZ=UTC (the driver refuses otherwise):

    PYTHONHASHSEED=0 TZ=UTC python3.11 mtfuzz_oracle.py GORILLA_CHECKOUT IN.jsonl[.gz] OUT.jsonl.gz

This file is Brokkr's own code: the state rendering follows the rule written in the shared corpus README
("Canonical state dump").
"""
import datetime as _dt
import gzip
import hashlib
import importlib
import json
import math
import os
import sys

MAX_RESULT = 2048
MAX_CHANGE = 512
TODAY = _dt.datetime(2026, 3, 23, 12, 0, 0)  # the shared corpora's pinned "today" (README: Pinned "today")
CATEGORIES = ["multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context"]


def check_runtime():
    if sys.version_info[:2] != (3, 11):
        sys.exit("mtfuzz_oracle: needs CPython 3.11, this is " + sys.version)
    if os.environ.get("PYTHONHASHSEED") != "0":
        sys.exit("mtfuzz_oracle: run with PYTHONHASHSEED=0")
    if os.environ.get("TZ") != "UTC":
        sys.exit("mtfuzz_oracle: run with TZ=UTC")


class _PinnedDatetime(_dt.datetime):
    @classmethod
    def today(cls):
        return cls(TODAY.year, TODAY.month, TODAY.day, TODAY.hour, TODAY.minute, TODAY.second)

    @classmethod
    def now(cls, tz=None):
        return cls.today()


def load_upstream(checkout):
    root = os.path.join(checkout, "berkeley-function-call-leaderboard")
    if not os.path.isdir(os.path.join(root, "bfcl_eval")):
        root = checkout
    sys.path.insert(0, root)
    mtu = importlib.import_module("bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils")
    cfg = importlib.import_module("bfcl_eval.constants.executable_backend_config")
    classes = ["GorillaFileSystem", "MathAPI", "MessageAPI", "TwitterAPI", "TicketAPI", "TradingBot", "TravelAPI",
               "VehicleControlAPI"]
    # every backend module of the multi-turn classes imported before any record (their identifiers interned, as
    # Brokkr's Executor assumes); the process then forks once per record
    for c in classes:
        importlib.import_module(cfg.CLASS_FILE_PATH_MAPPING[c])
    travel = importlib.import_module(cfg.CLASS_FILE_PATH_MAPPING["TravelAPI"])
    travel.datetime = _PinnedDatetime
    fs = importlib.import_module(cfg.CLASS_FILE_PATH_MAPPING["GorillaFileSystem"])
    tasks = {}
    data = os.path.join(root, "bfcl_eval", "data")
    for c in CATEGORIES:
        with open(os.path.join(data, "BFCL_v4_" + c + ".json"), encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    t = json.loads(line)
                    tasks[t["id"]] = t
    return mtu, fs, tasks


# ---- the canonical state dump (shared README, "Canonical state dump") ----

def canonical(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def sha16(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def render(v, fs):
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return {"$float": "nan"}
        if math.isinf(v):
            return {"$float": "inf" if v > 0 else "-inf"}
        return v
    if isinstance(v, list):
        return [render(x, fs) for x in v]
    if isinstance(v, tuple):
        return {"$tuple": [render(x, fs) for x in v]}
    if isinstance(v, dict):
        if all(type(k) is str for k in v):
            return {k: render(x, fs) for k, x in v.items()}
        pairs = [[render(k, fs), render(x, fs)] for k, x in v.items()]
        pairs.sort(key=lambda p: canonical(p[0]))
        return {"$map": pairs}
    if isinstance(v, (set, frozenset)):
        items = sorted((render(x, fs) for x in v), key=canonical)
        return {"$frozenset" if isinstance(v, frozenset) else "$set": items}
    if isinstance(v, fs.File):
        return {"$file": {"content": render(v.content, fs), "name": render(v.name, fs)}}
    if isinstance(v, fs.Directory):
        return {"$dir": {"contents": render(v.contents, fs), "name": render(v.name, fs)}}
    return {"$repr": repr(v), "$type": type(v).__name__}


def state(instance, fs):
    return {k: render(x, fs) for k, x in vars(instance).items() if not k.startswith("_")}


def shortened(v):
    text = canonical(v)
    if len(text) > MAX_CHANGE:
        return {"$sha": sha16(text), "$len": len(text)}
    return v


def result_field(text):
    if len(text) > MAX_RESULT:
        return {"$sha": sha16(text), "$len": len(text), "head": text[:200]}
    return text


# ---- one record, in a fresh fork ----

def run_record(rec, mtu, fs, tasks):
    task = tasks[rec["task_id"]]
    classes = task["involved_classes"]
    config = task["initial_config"]
    category = task["id"].rsplit("_", 1)[0]
    long_context = "long_context" in category or "composite" in category
    model = rec["exec_model_name"]

    def execute(calls):
        return mtu.execute_multi_turn_func_call(calls, config, classes, model, task["id"], long_context, True)

    _, instances = execute([])
    before = {c: state(instances[c], fs) for c in classes}
    out = dict(rec)
    out["initial_state_sha"] = {c: sha16(canonical(before[c])) for c in classes}
    turns = []
    for turn in rec["turns"]:
        steps = []
        for step in turn["steps"]:
            results, instances = execute([c["call"] for c in step])
            done = []
            for c, r in zip(step, results):
                d = dict(c)
                d["result"] = result_field(r)
                done.append(d)
            steps.append(done)
        if not turn["steps"]:
            _, instances = execute([])
        after = {c: state(instances[c], fs) for c in classes}
        changes = {}
        for c in classes:
            ch = {}
            for k in set(before[c]) | set(after[c]):
                if k in after[c] and (k not in before[c] or canonical(before[c][k]) != canonical(after[c][k])):
                    ch[k] = shortened(after[c][k])
            if ch:
                changes[c] = ch
        t = dict(turn)
        t["steps"] = steps
        t["state_sha"] = {c: sha16(canonical(after[c])) for c in classes}
        t["state_changes"] = changes
        turns.append(t)
        before = after
    out["turns"] = turns
    return out


def main(argv):
    if len(argv) != 4:
        sys.exit("usage: PYTHONHASHSEED=0 TZ=UTC python3.11 mtfuzz_oracle.py GORILLA_CHECKOUT IN.jsonl[.gz] OUT.jsonl.gz")
    check_runtime()
    mtu, fs, tasks = load_upstream(argv[1])
    opener = gzip.open if argv[2].endswith(".gz") else open
    with opener(argv[2], "rt", encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    lines = []
    for i, rec in enumerate(records):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                text = json.dumps(run_record(rec, mtu, fs, tasks), sort_keys=True, ensure_ascii=False)
                code = 0
            except BaseException as e:  # a driver fault, not a call's exception (those are results)
                text = "DRIVER ERROR " + repr(e)
                code = 3
            with os.fdopen(w, "w", encoding="utf-8") as p:
                p.write(text)
            os._exit(code)
        os.close(w)
        with os.fdopen(r, "r", encoding="utf-8") as p:
            text = p.read()
        _, status = os.waitpid(pid, 0)
        if status != 0:
            sys.exit("record %d (%s seq %s): %s" % (i, rec.get("task_id"), rec.get("seq"), text))
        lines.append(text)
    raw = ("\n".join(lines) + "\n").encode("utf-8")
    with open(argv[3], "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=f, mtime=0) as g:
            g.write(raw)
    print("%d records, %d calls" % (len(lines), sum(len(s) for rec in records for t in rec["turns"] for s in t["steps"])))


if __name__ == "__main__":
    main(sys.argv)
