package brokkr.domains.tau2.retail;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.agent.GoldReplayAgent;
import brokkr.domains.tau2.evaluator.ModelNlJudge;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.domains.tau2.orchestrator.Orchestrator;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Cell;
import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.Evaluation;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.provider.ModelProvider;
import brokkr.provider.ProviderOptions;
import brokkr.provider.Providers;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The model path end to end over HTTP on loopback: agent, user simulator and judge are OpenAI-compatible
 * providers whose "models" are the scripted gold agent, the scripted user and a judge that says "met".
 * Checks what each model was sent: upstream's prompts, the user's flipped roles, the judge's request.
 */
class RetailModelEpisodeTest {

    static ModelProvider provider(ScriptedModelServer s, String model) {
        return Providers.fromEnvironment(
                s.openAiEnv(),
                "openai",
                model,
                ProviderOptions.defaults(model).withTemperature(0.0).withMaxAttempts(1));
    }

    static List<ModelCall> calls(Attempt a, String role) {
        return a.evidence().modelCalls().stream()
                .filter(c -> c.role().equals(role))
                .map(Evidence.RecordedCall::call)
                .toList();
    }

    @Test
    void goldThroughModelProvidersScoresOneAndRecordsTheExactRequests() {
        Tau2Domain domain = Tau2Domains.load("retail");
        TaskSpec task = domain.split("base").stream()
                .filter(t -> t.criteria().nlAssertions() != null
                        && !t.criteria().nlAssertions().isEmpty()
                        && t.criteria().actionsOrEmpty().size() >= 2)
                .findFirst()
                .orElseThrow();
        List<String> assertions = task.criteria().nlAssertions();
        try (ScriptedModelServer agentServer = ScriptedModelServer.ofCandidate(new GoldReplayAgent(task));
                ScriptedModelServer userServer = ScriptedModelServer.ofCandidate(new ScriptedUser(task));
                ScriptedModelServer judgeServer = ScriptedModelServer.ofCandidate((history, tools) -> {
                    List<Value> results = new ArrayList<>();
                    for (String a : assertions)
                        results.add(PyDict.of("expectedOutcome", a, "reasoning", "stated", "metExpectation", true));
                    return Turn.of(new Message.Assistant(PyJson.dumps(PyDict.of("results", PyList.of(results)))));
                })) {
            // A cell of the registered benchmark the production way; the runner's models are the three providers.
            Map<String, ModelProvider> byModel = Map.of(
                    "agent-model",
                    provider(agentServer, "agent-model"),
                    "user-model",
                    provider(userServer, "user-model"),
                    "judge-model",
                    provider(judgeServer, "judge-model"));
            Tau2Benchmark retail = Tau2Domains.benchmark("retail");
            Evaluation.Cell cell = new Evaluation.Cell(
                    retail,
                    retail.environment(
                            task.id(),
                            Map.of(
                                    "user",
                                    new ModelRef("openai", "user-model"),
                                    "judge",
                                    new ModelRef("openai", "judge-model"))),
                    AgentDef.of(new ModelRef("openai", "agent-model"), "tools", null),
                    null,
                    0);
            Attempt attempt = Evaluation.evaluate(cell, ref -> byModel.get(ref.model()), new Evaluation.Recorder());
            Tau2Cell r = new Tau2Cell(attempt);
            List<ModelCall> agentCalls = calls(attempt, "agent"),
                    userCalls = calls(attempt, "user"),
                    judgeCalls = calls(attempt, "judge");

            // Upstream's LLMAgent never stops by itself: its closing ###STOP### reached the user, who stopped.
            assertEquals(TerminationReason.USER_STOP, r.termination());
            assertEquals(1.0, r.reward(), () -> r.checks().toString());
            assertEquals("openai/judge-model", r.judge(), "the judge model as a ModelRef names it");
            assertEquals(agentServer.requestCount(), agentCalls.size());
            assertEquals(userServer.requestCount(), userCalls.size());
            assertEquals(1, judgeCalls.size());

            // Agent: upstream's system prompt, the greeting as its own first message, the 16 tools, temperature 0.
            PyDict first = Json.parse(agentCalls.get(0).requestBody()).asDict();
            PyList msgs = first.get("messages").asList();
            assertEquals(
                    domain.agentSystemPrompt(),
                    msgs.get(0).asDict().get("content").asStr());
            assertEquals("assistant", msgs.get(1).asDict().get("role").asStr());
            assertEquals(
                    Orchestrator.GREETING, msgs.get(1).asDict().get("content").asStr());
            assertEquals("user", msgs.get(2).asDict().get("role").asStr());
            assertEquals(16, first.get("tools").asList().size());
            assertEquals(agentServer.requests().get(0).body(), agentCalls.get(0).requestBody());

            // User simulator: roles flipped, no tools.
            PyDict u = Json.parse(userCalls.get(0).requestBody()).asDict();
            PyList um = u.get("messages").asList();
            assertEquals(
                    domain.userSystemPrompt().apply(task),
                    um.get(0).asDict().get("content").asStr());
            assertEquals("user", um.get(1).asDict().get("role").asStr());
            assertEquals(
                    Orchestrator.GREETING, um.get(1).asDict().get("content").asStr());
            assertNull(u.get("tools"));

            // Judge: upstream's two prompts, no tools.
            PyList jm = Json.parse(judgeCalls.get(0).requestBody())
                    .asDict()
                    .get("messages")
                    .asList();
            assertEquals(
                    ModelNlJudge.SYSTEM_PROMPT,
                    jm.get(0).asDict().get("content").asStr());
            assertEquals(
                    ModelNlJudge.userPrompt(r.transcript(), assertions),
                    jm.get(1).asDict().get("content").asStr());
        }
    }

    /**
     * The agent on the OpenAI Responses wire, its model returning a reasoning item with every turn: the
     * orchestrator hands each one back in the agent's later requests (the server refuses a request missing one),
     * and the gold episode still scores 1.
     */
    @Test
    void anAgentOnTheResponsesWireGetsItsReasoningBackEveryStep() {
        TaskSpec task = Tau2Domains.load("retail").split("base").stream()
                .filter(t -> t.criteria().actionsOrEmpty().size() >= 2)
                .findFirst()
                .orElseThrow();
        GoldReplayAgent gold = new GoldReplayAgent(task);
        java.util.function.IntFunction<PyDict> reasoning = i -> PyDict.of(
                "type", "reasoning", "id", "rs_" + i, "summary", PyList.empty(), "encrypted_content", "enc-" + i);
        try (ScriptedModelServer agentServer = ScriptedModelServer.start(req -> {
                    var d = req.responses();
                    List<Message.Assistant> own = d.history().stream()
                            .filter(Message.Assistant.class::isInstance)
                            .map(Message.Assistant.class::cast)
                            .skip(1) // the greeting is the orchestrator's, not the model's
                            .toList();
                    for (int i = 0; i < own.size(); i++)
                        if (!own.get(i).reasoning().equals(List.of(reasoning.apply(i))))
                            return ScriptedModelServer.Reply.json(
                                    400, "{\"error\": {\"message\": \"reasoning " + i + " missing\"}}");
                    Message.Assistant m = gold.next(d.history(), d.tools()).message();
                    return ScriptedModelServer.responseReply(
                            new Message.Assistant(
                                    m.content(), m.toolCalls(), m.usage(), List.of(reasoning.apply(own.size()))),
                            d.model(),
                            "resp_" + req.index(),
                            req);
                });
                ScriptedModelServer userServer = ScriptedModelServer.ofCandidate(new ScriptedUser(task))) {
            Map<String, ModelProvider> byModel = Map.of(
                    "agent-model",
                    Providers.fromEnvironment(
                            agentServer.openAiEnv(),
                            "openai-responses",
                            "agent-model",
                            ProviderOptions.defaults("agent-model").withMaxAttempts(1)),
                    "user-model",
                    provider(userServer, "user-model"));
            Tau2Benchmark retail = Tau2Domains.benchmark("retail");
            Evaluation.Cell cell = new Evaluation.Cell(
                    retail,
                    retail.environment(
                            task.id(),
                            Map.of(
                                    "user",
                                    new ModelRef("openai", "user-model"),
                                    "judge",
                                    new ModelRef("scripted", "all-met"))),
                    AgentDef.of(new ModelRef("openai-responses", "agent-model"), "tools", null),
                    null,
                    0);
            // The scripted judge comes from the benchmark itself (Evaluation resolves provider scripted).
            Attempt attempt = Evaluation.evaluate(cell, ref -> byModel.get(ref.model()), new Evaluation.Recorder());
            Tau2Cell r = new Tau2Cell(attempt);
            assertEquals(
                    1.0, r.reward(), () -> r.checks() + " " + attempt.evidence().modelCalls());
            assertTrue(agentServer.requestCount() >= 3, agentServer.requestCount() + " agent calls");
            String last = agentServer.requests().getLast().body();
            for (int i = 0; i < agentServer.requestCount() - 1; i++)
                assertTrue(last.contains("\"encrypted_content\": \"enc-" + i + "\""), "enc-" + i + " in " + last);
        }
    }
}
