"""A trainer's client of `./brokkr env serve`, in Python's standard library only (urllib + json).

It plays the gold actions of every task of a tau2 split over HTTP, read from upstream's own task file
(evaluation_criteria.actions, as the scripted `gold` candidate replays them), and checks each episode ends
with reward 1.0; then that the server refuses clearly: a bad token, an unknown session, a malformed action
(the session still usable after it), a reset over the session cap.

usage: gold_client.py TASKS_JSON SPLIT_JSON SPLIT MAX_SESSIONS   (BROKKR_ENV_URL, BROKKR_ENV_TOKEN in the env)
"""

import json
import os
import sys
import urllib.error
import urllib.request

URL = os.environ["BROKKR_ENV_URL"]
TOKEN = os.environ["BROKKR_ENV_TOKEN"]


def post(path, body, token=TOKEN):
    """(status, parsed JSON or text) of POST URL+path."""
    req = urllib.request.Request(
        URL + path,
        data=json.dumps(body).encode() if not isinstance(body, bytes) else body,
        headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        text = e.read().decode()
        try:
            return e.code, json.loads(text)
        except ValueError:
            return e.code, text


def check(cond, what):
    if not cond:
        print("FAIL: " + what, flush=True)
        sys.exit(1)


def step(session, action):
    status, obs = post("/step", {"session": session, "action": action})
    check(status == 200 and "error" not in obs, "step answered %s %s" % (status, obs))
    return obs


def play_gold(task):
    status, obs = post("/reset", {"task": task["id"], "seed": 0})
    check(status == 200 and obs["done"] is False, "reset %s: %s %s" % (task["id"], status, obs))
    session = obs["session"]
    messages = obs["observation"]["messages"]
    check(messages[0]["role"] == "system", "the first observation opens with the system prompt")
    check(any(m["role"] == "user" for m in messages), "the first observation holds the user's first message")
    check(len(obs["observation"]["tools"]) > 0, "the first observation offers the tools")
    criteria = task.get("evaluation_criteria") or {}
    for i, action in enumerate(criteria.get("actions") or []):
        call_id = "gold-%d" % i
        obs = step(session, {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": call_id, "type": "function",
                            "function": {"name": action["name"], "arguments": json.dumps(action["arguments"])}}],
        })
        check(not obs["done"], "task %s ended early at gold action %d" % (task["id"], i))
        results = [m for m in obs["observation"]["messages"] if m["role"] == "tool"]
        check(len(results) == 1 and results[0]["tool_call_id"] == call_id,
              "task %s: the observation after a call is its result: %s" % (task["id"], obs))
    infos = criteria.get("communicate_info") or []
    if infos:
        obs = step(session, {"content": "Here is the information for you: " + "; ".join(infos) + "."})
    for _ in range(3):
        if obs["done"]:
            break
        obs = step(session, "Thank you for contacting us. Goodbye! ###STOP###")
    check(obs["done"], "task %s did not end" % task["id"])
    return obs


def main():
    tasks_file, split_file, split, max_sessions = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    tasks = json.load(open(tasks_file))
    wanted = set(json.load(open(split_file))[split])
    chosen = [t for t in tasks if t["id"] in wanted]
    check(len(chosen) > 0, "no tasks in split " + split)

    # Refusals first, each clear and none a 500.
    status, text = post("/reset", {"task": chosen[0]["id"]}, token="wrong")
    check(status == 401, "a bad token is refused with 401, not %s" % status)
    status, obs = post("/step", {"session": "no-such-session", "action": "hi"})
    check(status == 404 and obs["error"]["kind"] == "unknown_session", "unknown session: %s %s" % (status, obs))
    status, obs = post("/reset", {"task": "no-such-task"})
    check(status == 400 and obs["error"]["kind"] == "unknown_task", "unknown task: %s %s" % (status, obs))
    status, obs = post("/step", b"{not json")
    check(status == 400 and obs["error"]["kind"] == "malformed", "a body that is not JSON: %s %s" % (status, obs))

    sessions = []
    for _ in range(max_sessions):
        status, obs = post("/reset", {"task": chosen[0]["id"]})
        check(status == 200, "reset under the cap: %s %s" % (status, obs))
        sessions.append(obs["session"])
    status, obs = post("/reset", {"task": chosen[0]["id"]})
    check(status == 429 and obs["error"]["kind"] == "too_many_sessions", "over the cap: %s %s" % (status, obs))
    for bad in [42, [1], {"tool_calls": "x"}, {"tool_calls": [{"function": {}}]}, {"role": "user", "content": "x"},
                {"content": 7}, None]:
        status, obs = post("/step", {"session": sessions[0], "action": bad})
        check(status == 400 and obs["error"]["kind"] == "malformed" and obs["error"]["message"],
              "malformed action %r: %s %s" % (bad, status, obs))
    obs = step(sessions[0], "Could you tell me more?")  # the session survived the malformed actions
    check(not obs["done"] and any(m["role"] == "user" for m in obs["observation"]["messages"]),
          "after malformed actions the session still steps: %s" % obs)
    for s in sessions:
        status, obs = post("/close", {"session": s})
        check(status == 200 and obs["closed"] is True, "close: %s %s" % (status, obs))
    status, obs = post("/step", {"session": sessions[0], "action": "hi"})
    check(status == 404, "a closed session is unknown: %s %s" % (status, obs))

    rewards = []
    for t in chosen:
        obs = play_gold(t)
        rewards.append(obs["reward"])
        check(obs["reward"] == 1.0, "task %s: reward %s, info %s" % (t["id"], obs["reward"], obs["info"]))
    status, obs = post("/step", {"session": "x" * 10, "action": "hi"})
    print("OK %d tasks, reward 1.0 each" % len(rewards), flush=True)


main()
