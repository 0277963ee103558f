"""Oracle for Brokkr's gold-replay episodes on a tau2 domain (brokkr.domains.tau2.episode tests).

Runs upstream tau2-bench's own half-duplex Orchestrator with the domain's real environment
(registry.get_env_constructor(domain)), driven by the scripts Brokkr's GoldReplayAgent and ScriptedUser
follow for tasks without user actions: the agent makes each gold assistant action as a tool call with id
"gold-<index>", one per turn, then (when the task has communicate_info) states them in one message,
then closes with ###STOP###; the user opens with the task's reason_for_call and otherwise says
"Thank you.". Then upstream's own evaluators grade the trajectory (the DB check rebuilds the predicted
environment by replaying the trajectory, as upstream does). Records per task the termination reason,
step and error counts, every message and the verdicts; and the wall time of the whole loop. It also runs
an agent that answers the customer's opening with ###STOP### and records that episode's DB verdict.

usage: TAU2_DATA_DIR=<shared>/upstream/tau2-bench/data PYTHONPATH=stubs:.:<tau2-bench work tree>/src \
           python3 tau2_gold_episode_oracle.py retail ../resources/brokkr/domains/tau2/retail/retail-gold-episodes.json
(recorded 2026-11-29: CPython 3.11.7, pydantic 2.13.4, upstream a2c024725189473d2d7cea3a5cfdbcc67478e41f; the 114
retail gold episodes took 127-130 s to orchestrate and grade, one process, on the shared 2-core machine.)
"""
import json
import sys
import time

import autostub  # noqa: F401

from tau2.registry import registry
from tau2.evaluator.evaluator_action import ActionEvaluator
from tau2.evaluator.evaluator_communicate import CommunicateEvaluator
from tau2.evaluator.evaluator_env import EnvironmentEvaluator
from tau2.orchestrator.orchestrator import Orchestrator

from tau2_orchestrator_oracle import ScriptUser, StoppingScriptAgent, message_json

COMMUNICATE_PREFIX = "Here is the information for you:"
CLOSING = "Thank you for contacting us. Goodbye! ###STOP###"


def scripts(task):
    ec = task.evaluation_criteria
    actions = ec.actions or []
    if any(a.requestor == "user" for a in actions):
        raise ValueError("tasks with user actions are not scripted here")
    agent = [{"content": None, "tool_calls": [{"id": f"gold-{i}", "name": a.name, "arguments": a.arguments}]}
             for i, a in enumerate(actions)]
    if ec.communicate_info:
        agent.append({"content": COMMUNICATE_PREFIX + " " + "; ".join(ec.communicate_info) + ".", "tool_calls": []})
    agent.append({"content": CLOSING, "tool_calls": []})
    instr = task.user_scenario.instructions
    request = instr if isinstance(instr, str) else instr.reason_for_call
    return agent, [{"content": request, "tool_calls": []}, {"content": "Thank you.", "tool_calls": []}]


def main():
    domain, out_path = sys.argv[1], sys.argv[2]
    make_env = registry.get_env_constructor(domain)
    tasks = registry.get_tasks_loader(domain)("base")
    results = []
    start = time.perf_counter()
    for task in tasks:
        agent, user = scripts(task)
        orch = Orchestrator(domain=domain, agent=StoppingScriptAgent(agent), user=ScriptUser(user), environment=make_env(),
                            task=task, max_steps=200, max_errors=10)
        sim = orch.run()
        env = EnvironmentEvaluator.calculate_reward(environment_constructor=make_env, task=task, full_trajectory=sim.messages)
        act = ActionEvaluator.calculate_reward(task=task, full_trajectory=sim.messages)
        com = CommunicateEvaluator.calculate_reward(task=task, full_trajectory=sim.messages)
        results.append({"task_id": task.id, "termination_reason": sim.termination_reason.value, "steps": orch.step_count,
                        "errors": orch.num_errors, "messages": [message_json(m) for m in sim.messages],
                        "db_match": env.db_check.db_match, "env_reward": env.reward,
                        "action_checks": [c.action_match for c in (act.action_checks or [])],
                        "communicate_checks": [c.met for c in (com.communicate_checks or [])]})
    seconds = time.perf_counter() - start
    for task, rec in zip(tasks, results):
        orch = Orchestrator(domain=domain, agent=StoppingScriptAgent([{"content": "###STOP###", "tool_calls": []}]),
                            user=ScriptUser(scripts(task)[1]), environment=make_env(), task=task, max_steps=200, max_errors=10)
        sim = orch.run()
        env = EnvironmentEvaluator.calculate_reward(environment_constructor=make_env, task=task, full_trajectory=sim.messages)
        rec["stop_agent"] = {"termination_reason": sim.termination_reason.value, "db_match": env.db_check.db_match,
                             "env_reward": env.reward}
    with open(out_path, "w") as f:
        json.dump({"domain": domain, "tasks": len(results), "wall_seconds_orchestrate_and_grade": round(seconds, 3),
                   "results": results}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
