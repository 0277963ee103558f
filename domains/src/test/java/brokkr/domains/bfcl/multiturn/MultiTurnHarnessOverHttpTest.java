package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.harness.Tau2HarnessOverHttpTest;
import brokkr.eval.Attempt;
import brokkr.eval.ModelFactory;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.provider.AnthropicMessages;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.python.PyJson;
import brokkr.repl.Harness;
import brokkr.repl.JavaRepl;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loop and REPL candidates on bfcl-multi-turn driven end to end over the wire by a loopback model server: the
 * REPL model (OpenAI Chat Completions) first sends Java that does not compile, reads the compile error as its tool
 * result and goes on with the ground truth as Java; the loop model batches the ground truth through the JSON tools
 * (OpenAI and Anthropic). A held-out function reaches the loop model's tools, and the REPL model's user message as a
 * Java signature, only at its turn. Every candidate passes upstream's checker with the reference gold's trajectory.
 */
class MultiTurnHarnessOverHttpTest {
    @TempDir
    Path tmp;

    static final String BROKEN_JAVA = "ls(map(\"a\", true)";
    /** A base task and a miss_func task whose first user messages differ (a miss_func task repeats its base task's). */
    static final List<String> TASKS = List.of("multi_turn_base_5", "multi_turn_miss_func_0");

    /** The task whose first user message opens {@code history}. */
    static MultiTurnData.Task taskOf(MultiTurnData data, List<Message> history) {
        String first = history.stream()
                .filter(m -> m instanceof Message.User)
                .map(m -> ((Message.User) m).content())
                .findFirst()
                .orElseThrow();
        for (String id : TASKS) {
            MultiTurnData.Task t = data.task(id);
            if (t.question()
                    .get(0)
                    .asList()
                    .get(0)
                    .asDict()
                    .get("content")
                    .asStr()
                    .equals(first)) return t;
        }
        throw new AssertionError("no task opens with " + first);
    }

    /** The REPL model: broken Java once per conversation, then (having read the compile error) the ground truth as Java. */
    static Turn replModel(MultiTurnData.Task task, List<Message> history, List<ToolSpec> tools) {
        boolean triedBroken = history.stream()
                .anyMatch(m -> m instanceof Message.Assistant a
                        && a.toolCalls().stream().anyMatch(c -> c.id().equals("bad-1")));
        if (!triedBroken)
            return Turn.of(new Message.Assistant(
                    null, List.of(new ToolCall("bad-1", JavaRepl.TOOL, PyDict.of("code", BROKEN_JAVA)))));
        // The ground truth positions itself by the user messages and answers a tool result with text: leave out the
        // broken exchange.
        List<Message> rest = new ArrayList<>();
        for (int i = 0; i < history.size(); i++) {
            if (history.get(i) instanceof Message.Assistant a
                    && a.hasToolCalls()
                    && a.toolCalls().getFirst().id().equals("bad-1")) {
                i++;
                continue;
            }
            rest.add(history.get(i));
        }
        return new MultiTurnInference.GoldCandidate(task).next(rest, tools);
    }

    @Test
    void loopAndReplCandidatesOverTheWirePassWithTheReferenceTrajectory() throws Exception {
        MultiTurnData data = MultiTurnData.load();
        assertEquals(
                2,
                TASKS.stream()
                        .map(id -> data.task(id)
                                .question()
                                .get(0)
                                .asList()
                                .get(0)
                                .asDict()
                                .get("content")
                                .asStr())
                        .distinct()
                        .count());
        try (ScriptedModelServer server = ScriptedModelServer.start(r -> {
            boolean anthropic = r.path().endsWith("/messages");
            DecodedRequest req = anthropic ? r.anthropic() : r.chat();
            MultiTurnData.Task task = taskOf(data, req.history());
            Turn t = req.model().equals("repl-model")
                    ? replModel(task, req.history(), req.tools())
                    : new MultiTurnInference.GoldCandidate(task).next(req.history(), req.tools());
            return Reply.json(
                    anthropic
                            ? AnthropicMessages.encodeResponse(t.message(), req.model(), "msg_" + r.index())
                            : OpenAiChat.encodeResponse(t.message(), req.model(), "chatcmpl-" + r.index()));
        })) {
            Map<String, String> env = Map.of(
                    "OPENAI_BASE_URL",
                    server.baseUrl(),
                    "ANTHROPIC_BASE_URL",
                    server.url(),
                    "ANTHROPIC_API_KEY",
                    "test-key");
            List<ModelFactory> wire = List.of(
                    Tau2HarnessOverHttpTest.factory("openai", env), Tau2HarnessOverHttpTest.factory("anthropic", env));
            Registry registry = Registry.load().with(List.of(), wire);
            var candidates = List.of(
                    new ExperimentSpec.CandidateSpec("gold", new ModelRef("scripted", "gold"), "reference", null),
                    new ExperimentSpec.CandidateSpec(
                            "repl",
                            new ModelRef("openai", "repl-model"),
                            "repl",
                            null,
                            Harness.of("loop", "repl", "inspect", PyDict.empty())),
                    new ExperimentSpec.CandidateSpec(
                            "loop",
                            new ModelRef("openai", "loop-model"),
                            "tools",
                            null,
                            Harness.of("loop", "tools", null, PyDict.empty())),
                    new ExperimentSpec.CandidateSpec(
                            "loop-anthropic",
                            new ModelRef("anthropic", "loop-model"),
                            "tools",
                            null,
                            Harness.of("loop", "tools", null, PyDict.empty())));
            var spec = new ExperimentSpec(
                    "mt-over-http",
                    List.of(new ExperimentSpec.DomainSpec("bfcl-multi-turn", null, TASKS)),
                    candidates,
                    1,
                    2,
                    Map.of(),
                    Map.of(),
                    0,
                    Duration.ofSeconds(120),
                    false);
            var result = Experiments.run(spec, tmp.resolve("x"), registry);
            if (result.completed() != 8) {
                try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("x"))) {
                    List<String> errors = store.attempts(true).stream()
                            .filter(a -> !a.completed())
                            .map(a -> a.taskId() + ": " + a.error())
                            .toList();
                    throw new AssertionError(result.summary() + " " + errors);
                }
            }
            for (var row : result.scorecard().rows())
                assertEquals(1.0, row.avgReward(), row.candidate() + " " + result.summary());

            List<ScriptedModelServer.Request> chat = server.requests().stream()
                    .filter(q -> q.path().endsWith("/chat/completions"))
                    .toList();
            assertTrue(
                    chat.stream()
                            .filter(q -> q.chat().model().equals("repl-model"))
                            .anyMatch(q -> q.chat().history().stream()
                                    .anyMatch(m -> m instanceof Message.Tool t
                                            && t.content().startsWith("Compile error: "))),
                    "the compile error went back to the model");
            assertTrue(
                    server.requests().stream().anyMatch(q -> q.path().endsWith("/messages")),
                    "a loop candidate spoke Anthropic's wire");
            // The held-out function (miss_func_0 holds out sort) is offered only from its turn on, as a JSON tool or as
            // Java.
            for (ScriptedModelServer.Request q : chat) {
                DecodedRequest req = q.chat();
                if (!taskOf(data, req.history()).id().equals("multi_turn_miss_func_0")) continue;
                boolean revealed = req.history().stream()
                        .anyMatch(m -> m instanceof Message.User u
                                && u.content().endsWith(MultiTurnInference.ADDITIONAL_FUNCTION_PROMPT));
                if (req.model().equals("repl-model")) {
                    assertEquals(
                            List.of(JavaRepl.TOOL),
                            req.tools().stream().map(ToolSpec::name).toList());
                    boolean inJava = req.history().stream()
                            .anyMatch(m -> m instanceof Message.User u
                                    && u.content().contains("String sort(String file_name)"));
                    assertEquals(revealed, inJava);
                    String system = ((Message.System) req.history().getFirst()).content();
                    assertFalse(system.contains("String sort("), "the held-out function is not in the opening prompt");
                    assertTrue(system.contains("String mv(String source, String destination)"), system);
                } else {
                    assertEquals(
                            revealed,
                            req.tools().stream().anyMatch(t -> t.name().equals("sort")),
                            "loop tools, revealed=" + revealed);
                }
            }

            Map<String, String> referenceTurns = new HashMap<>();
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("x"))) {
                List<Attempt> attempts = store.attempts(true);
                for (Attempt a : attempts) {
                    if (store.agent(a.agentId()).orElseThrow().actionSpace().equals("reference")) {
                        referenceTurns.put(
                                a.taskId(), PyJson.dumps(a.evidence().output().get("turns")));
                    }
                }
                for (Attempt a : attempts) {
                    assertEquals(
                            referenceTurns.get(a.taskId()),
                            PyJson.dumps(a.evidence().output().get("turns")),
                            a.taskId());
                    String transcript = PyJson.dumps(a.evidence().transcript());
                    boolean repl =
                            store.agent(a.agentId()).orElseThrow().actionSpace().equals("repl");
                    assertEquals(
                            repl,
                            transcript.contains(JavaRepl.TOOL),
                            "the REPL's working conversation holds its snippets");
                }
            }
        }
    }
}
