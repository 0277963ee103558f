"""Differential oracle for Brokkr's tau2 episode protocol (brokkr.tau2.episode.Orchestrator).

Runs upstream tau2-bench's own half-duplex Orchestrator and evaluators (imported at run time from a
work tree of sierra-research/tau2-bench at the pinned commit; nothing of upstream is copied here) on
scripted scenarios over a tiny in-memory domain that mirrors the Java test domain FakeEnvironment:
agent tools set(key, value) / get(key) / fail(), user tool press(button).

Each scenario's agent and user say their scripted messages in order, one per turn, repeating the last
one when the script runs out. The output records, per scenario, what upstream did: termination reason,
step and error counts, every message, and the evaluators' verdicts, or the exception upstream raised.

usage: PYTHONPATH=stubs:<tau2-bench work tree>/src python3 tau2_orchestrator_oracle.py \
           ../resources/brokkr/domains/tau2/orchestrator/orchestrator-scenarios.json ../resources/brokkr/domains/tau2/orchestrator/orchestrator-oracle.json
(stubs/ provides a no-op loguru and empty modules for the optional packages upstream's imports pull in;
needs pydantic; no LLM is called. Recorded 2026-11-29 with CPython 3.11.7, pydantic 2.13.4, upstream
a2c024725189473d2d7cea3a5cfdbcc67478e41f.)
"""
import json
import sys

import autostub  # noqa: F401  (import stubs for optional third-party packages)

from tau2.agent.base_agent import HalfDuplexAgent
from tau2.data_model.message import AssistantMessage, ToolCall, ToolMessage, UserMessage
from tau2.data_model.simulation import TerminationReason
from tau2.data_model.tasks import Task
from tau2.environment.db import DB
from tau2.environment.environment import Environment
from tau2.environment.toolkit import ToolKitBase, ToolType, is_tool
from tau2.evaluator.evaluator_action import ActionEvaluator
from tau2.evaluator.evaluator_communicate import CommunicateEvaluator
from tau2.evaluator.evaluator_env import EnvironmentEvaluator
import tau2.evaluator.evaluator_nl_assertions as nl_module
from tau2.evaluator.evaluator_nl_assertions import NLAssertionsEvaluator
from tau2.orchestrator.orchestrator import Orchestrator
from tau2.user.user_simulator_base import HalfDuplexUser


class FakeDB(DB):
    data: dict


class FakeTools(ToolKitBase):
    @is_tool(ToolType.WRITE)
    def set(self, key: str, value) -> str:
        """Set a key."""
        self.db.data[key] = value
        return "ok"

    @is_tool(ToolType.READ)
    def get(self, key: str) -> str:
        """Get a key."""
        return json.dumps(self.db.data[key])

    @is_tool(ToolType.READ)
    def fail(self) -> str:
        """Fails."""
        raise ValueError("always fails")


class FakeUserTools(ToolKitBase):
    @is_tool(ToolType.WRITE)
    def press(self, button: str) -> str:
        """Press a button."""
        self.db.data[button] = "pressed"
        return "ok"


def make_env(solo_mode=False, **kwargs):
    return Environment("fake", "policy", tools=FakeTools(FakeDB(data={"a": 1})),
                       user_tools=FakeUserTools(FakeDB(data={})))


def participant_message(cls, turn, requestor):
    calls = None
    if turn.get("tool_calls"):
        calls = [ToolCall(id=c["id"], name=c["name"], arguments=c["arguments"], requestor=requestor)
                 for c in turn["tool_calls"]]
    return cls(role="assistant" if cls is AssistantMessage else "user", content=turn.get("content"),
               tool_calls=calls, cost=0.0)


class ScriptAgent(HalfDuplexAgent):
    def __init__(self, turns):
        super().__init__(tools=[], domain_policy="policy")
        self.turns = turns
        self.n = 0

    def get_init_state(self, message_history=None):
        return []

    def generate_next_message(self, message, state):
        turn = self.turns[min(self.n, len(self.turns) - 1)]
        self.n += 1
        return participant_message(AssistantMessage, turn, "assistant"), state


class StoppingScriptAgent(ScriptAgent):
    """An agent whose class defines is_stop as LLMSoloAgent does: ###STOP### in the content."""

    @classmethod
    def is_stop(cls, message):
        return message.content is not None and "###STOP###" in message.content


class ScriptUser(HalfDuplexUser):
    def __init__(self, turns):
        super().__init__(instructions="scenario", tools=None)
        self.turns = turns
        self.n = 0

    def get_init_state(self, message_history=None):
        return []

    def generate_next_message(self, message, state):
        turn = self.turns[min(self.n, len(self.turns) - 1)]
        self.n += 1
        return participant_message(UserMessage, turn, "user"), state


def message_json(m):
    if isinstance(m, ToolMessage):
        return {"role": "tool", "id": m.id, "content": m.content, "requestor": m.requestor, "error": m.error}
    return {"role": m.role, "content": m.content,
            "tool_calls": None if m.tool_calls is None else
            [{"id": c.id, "name": c.name, "arguments": c.arguments, "requestor": c.requestor} for c in m.tool_calls]}


# The NL judge's request, captured by replacing the model call: the judge prompts upstream would send.
NL_ASSERTIONS = ["Agent sets b to 2", "Agent says it's \"done\""]
captured = []


def fake_generate(model, messages, **kwargs):
    captured.append({"model": model, "kwargs": kwargs, "messages": [{"role": m.role, "content": m.content} for m in messages]})
    return AssistantMessage(role="assistant", content='{"results": []}', cost=0.0)


nl_module.generate = fake_generate


def run(sc):
    task = Task.model_validate(sc["task"])
    agent_cls = StoppingScriptAgent if sc["agent_stops_on_token"] else ScriptAgent
    orch = Orchestrator(domain="fake", agent=agent_cls(sc["agent"]), user=ScriptUser(sc["user"]), environment=make_env(),
                        task=task, max_steps=sc["max_steps"], max_errors=sc["max_errors"],
                        validate_communication=sc["enforce_communication_protocol"])
    out = {"name": sc["name"]}
    try:
        sim = orch.run()
    except Exception as e:  # upstream raises; its runner would retry and finally record infrastructure_error
        out["exception"] = type(e).__name__
        out["termination_reason"] = None if orch.termination_reason is None else orch.termination_reason.value
        out["messages"] = [message_json(m) for m in orch.trajectory]
        return out
    out["termination_reason"] = sim.termination_reason.value if isinstance(sim.termination_reason, TerminationReason) else sim.termination_reason
    out["steps"] = orch.step_count
    out["errors"] = orch.num_errors
    out["messages"] = [message_json(m) for m in sim.messages]
    if sim.termination_reason in (TerminationReason.AGENT_STOP, TerminationReason.USER_STOP):
        env = EnvironmentEvaluator.calculate_reward(environment_constructor=make_env, task=task, full_trajectory=sim.messages)
        act = ActionEvaluator.calculate_reward(task=task, full_trajectory=sim.messages)
        com = CommunicateEvaluator.calculate_reward(task=task, full_trajectory=sim.messages)
        out["db_match"] = env.db_check.db_match if env.db_check is not None else None
        out["action_checks"] = [c.action_match for c in (act.action_checks or [])]
        out["communicate_checks"] = [c.met for c in (com.communicate_checks or [])]
        captured.clear()
        NLAssertionsEvaluator.evaluate_nl_assertions(sim.messages, NL_ASSERTIONS)
        out["judge_request"] = captured[0]
    return out


def main():
    scenarios = json.load(open(sys.argv[1]))
    results = [run(sc) for sc in scenarios]
    with open(sys.argv[2], "w") as f:
        json.dump(results, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
