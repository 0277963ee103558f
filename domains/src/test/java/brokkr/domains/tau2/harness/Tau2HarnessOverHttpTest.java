package brokkr.domains.tau2.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.agent.GoldLoopAgent;
import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.user.ScriptedUser;
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
import brokkr.provider.ProviderOptions;
import brokkr.provider.Providers;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.repl.Harness;
import brokkr.repl.JavaRepl;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loop and REPL candidates driven end to end over the wire by loopback model servers (OpenAI Chat
 * Completions and Anthropic Messages), the simulated customer a model on the same server: the REPL
 * model first sends Java that does not compile, reads the compile error as its tool result, then
 * writes the gold calls; the loop model batches the gold calls over Anthropic's wire. Both score 1.0.
 */
public class Tau2HarnessOverHttpTest {
    @TempDir
    Path tmp;

    static final String BROKEN_JAVA = "tau2.get_order_details(\"#W0000000\"";

    /** A retail task of the test split graded without a judge, with several gold calls. */
    static TaskSpec task(Tau2Benchmark retail) {
        for (String id : retail.tasks("test")) {
            TaskSpec t = retail.domain().task(id);
            if (t.criteria() != null
                    && !t.criteria().basisIncludes(RewardType.NL_ASSERTION)
                    && t.criteria().actionsOrEmpty().size() >= 3) return t;
        }
        throw new AssertionError("no such task");
    }

    /** The REPL model: broken Java first, then (having read the compile error) the gold calls as Java. */
    static Turn replModel(GoldLoopAgent gold, List<Message> history, List<ToolSpec> tools) {
        boolean triedBroken = history.stream()
                .anyMatch(m -> m instanceof Message.Assistant a
                        && a.toolCalls().stream()
                                .anyMatch(c -> c.arguments().get("code") != null
                                        && c.arguments().get("code").asStr().equals(BROKEN_JAVA)));
        if (!triedBroken) {
            return Turn.of(new Message.Assistant(
                    null,
                    List.of(new brokkr.conversation.ToolCall("bad-1", JavaRepl.TOOL, PyDict.of("code", BROKEN_JAVA)))));
        }
        // The gold script positions itself by the call turns: leave out the broken exchange.
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
        return gold.next(rest, tools);
    }

    @Test
    void replOverOpenAiAndLoopOverAnthropicScoreOneAndTheCompileErrorReachesTheModel() throws Exception {
        Registry base = Registry.load();
        Tau2Benchmark retail = (Tau2Benchmark) base.benchmarks().get("tau2-retail");
        TaskSpec task = task(retail);
        GoldLoopAgent gold =
                new GoldLoopAgent(task, retail.domain().environment().agentTools());
        ScriptedUser customer = new ScriptedUser(task);
        try (ScriptedModelServer server = ScriptedModelServer.start(r -> {
            boolean anthropic = r.path().endsWith("/messages");
            DecodedRequest req = anthropic ? r.anthropic() : r.chat();
            Turn t = switch (req.model()) {
                case "customer" -> customer.next(req.history(), req.tools());
                case "repl-model" -> replModel(gold, req.history(), req.tools());
                default -> gold.next(req.history(), req.tools());
            };
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
            List<ModelFactory> wire = List.of(factory("openai", env), factory("anthropic", env));
            Registry registry = base.with(List.of(), wire);
            var repl = new ExperimentSpec.CandidateSpec(
                    "repl",
                    new ModelRef("openai", "repl-model"),
                    "repl",
                    null,
                    Harness.of("loop", "repl", "inspect", PyDict.empty()));
            var loop = new ExperimentSpec.CandidateSpec(
                    "loop",
                    new ModelRef("anthropic", "loop-model"),
                    "tools",
                    null,
                    Harness.of("loop", "tools", null, PyDict.empty()));
            var spec = new ExperimentSpec(
                    "over-http",
                    List.of(new ExperimentSpec.DomainSpec("tau2-retail", null, List.of(task.id()))),
                    List.of(repl, loop),
                    1,
                    1,
                    Map.of(),
                    Map.of("user", new ModelRef("openai", "customer")),
                    0,
                    Duration.ofSeconds(120),
                    false);
            var result = Experiments.run(spec, tmp.resolve("x"), registry);
            assertEquals(2, result.completed(), result.summary());
            for (var row : result.scorecard().rows())
                assertEquals(1.0, row.avgReward(), row.candidate() + " " + result.summary());
            boolean compileErrorSeen = server.requests().stream()
                    .filter(q -> q.path().endsWith("/chat/completions"))
                    .anyMatch(q -> q.chat().history().stream()
                            .anyMatch(m ->
                                    m instanceof Message.Tool t && t.content().startsWith("Compile error: ")));
            assertTrue(compileErrorSeen, "the compile error went back to the model as its tool result");
            assertTrue(
                    server.requests().stream().anyMatch(q -> q.path().endsWith("/messages")),
                    "the loop candidate spoke Anthropic's wire");
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("x"))) {
                for (Attempt a : store.attempts(true)) {
                    String transcript = brokkr.python.PyJson.dumps(a.evidence().transcript());
                    for (var action : task.criteria().actionsOrEmpty())
                        assertTrue(transcript.contains("\"" + action.name() + "\""), action.name());
                    assertTrue(
                            !transcript.contains(JavaRepl.TOOL),
                            "the tau2 trajectory holds the domain's calls, not java_eval");
                }
            }
        }
    }

    /** A model factory for {@code provider} reading its base URL and key from {@code env} (a loopback server's). */
    public static ModelFactory factory(String provider, Map<String, String> env) {
        return new ModelFactory() {
            @Override
            public String provider() {
                return provider;
            }

            @Override
            public brokkr.conversation.Candidate create(ModelRef model) {
                return Providers.fromEnvironment(env, provider, model.model(), ProviderOptions.defaults(model.model()));
            }
        };
    }
}
