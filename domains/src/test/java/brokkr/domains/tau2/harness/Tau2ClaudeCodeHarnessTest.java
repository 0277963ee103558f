package brokkr.domains.tau2.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.agent.claudecode.ClaudeCodeLoop;
import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.agent.GoldLoopAgent;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2ResultsExport;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.eval.Attempt;
import brokkr.eval.ModelFactory;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Planner;
import brokkr.experiment.Registry;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.claudecode.ClaudeCli;
import brokkr.provider.claudecode.ClaudeCodeCli;
import brokkr.provider.claudecode.ClaudeLaunch;
import brokkr.provider.testing.ClaudeCodeFixture;
import brokkr.provider.testing.FakeAnthropicServer;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.python.PyJson;
import brokkr.repl.Harness;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code harness: claude-code} end to end: the real Claude Code CLI (the pinned binary) is the agent, its model a
 * loopback fake Messages server whose replies are the gold calls as {@code tool_use} blocks for the MCP tools
 * ({@code mcp__brokkr__TOOL}); the CLI's every MCP call reaches the episode's world through the tau2
 * orchestrator, so five retail test tasks score 1.0 by the DB, ACTION and communicate checks, with the domain's
 * calls in the trajectory and the CLI's steps counted.
 */
public class Tau2ClaudeCodeHarnessTest {
    @TempDir
    Path tmp;

    static final Harness CLAUDE_CODE = Harness.of(Harness.CLAUDE_CODE, "tools", null, PyDict.empty());

    /** Retail test tasks with gold calls whose customers open with distinct requests (NL assertions: the all-met judge). */
    static List<TaskSpec> tasks(Tau2Benchmark retail, int n) {
        List<TaskSpec> out = new ArrayList<>();
        Set<String> openings = new HashSet<>();
        for (String id : retail.tasks("test")) {
            TaskSpec t = retail.domain().task(id);
            if (t.criteria() != null && !t.criteria().actionsOrEmpty().isEmpty() && openings.add(t.requestText()))
                out.add(t);
            if (out.size() == n) return out;
        }
        throw new AssertionError("fewer than " + n + " such tasks");
    }

    /** The task a request belongs to: the one whose customer's opening request its text holds. */
    static TaskSpec taskOf(List<TaskSpec> tasks, String text) {
        for (TaskSpec t : tasks) if (text.contains(t.requestText())) return t;
        throw new AssertionError("no task's opening in: " + text);
    }

    static String text(DecodedRequest req) {
        StringBuilder sb = new StringBuilder();
        for (Message m : req.history())
            if (m instanceof Message.User u && u.content() != null)
                sb.append(u.content()).append('\n');
            else if (m instanceof Message.System s) sb.append(s.content()).append('\n');
        return sb.toString();
    }

    /** The gold agent as the CLI's model: its calls named as the CLI offers the MCP tools. */
    static Turn gold(Tau2Benchmark retail, List<TaskSpec> tasks, DecodedRequest req) {
        TaskSpec task = taskOf(tasks, text(req));
        List<ToolSpec> domainTools = retail.domain().environment().agentTools();
        Turn t = new GoldLoopAgent(task, domainTools).next(req.history(), req.tools());
        List<ToolCall> calls = new ArrayList<>();
        for (ToolCall c : t.message().toolCalls())
            calls.add(new ToolCall(c.id(), ClaudeCodeLoop.TOOL_PREFIX + c.name(), c.arguments()));
        return Turn.of(new Message.Assistant(t.message().content(), calls));
    }

    /** A {@code claude-code} provider for tests: the pinned CLI against {@code env}'s fake server, a config directory of its own. */
    public static ModelFactory claudeCode(ClaudeCli cli, Map<String, String> env, Path configDir) {
        return new ModelFactory() {
            @Override
            public String provider() {
                return Harness.CLAUDE_CODE;
            }

            @Override
            public Candidate create(ModelRef model) {
                return new TestCli(cli, env, configDir, model.model());
            }
        };
    }

    record TestCli(ClaudeCli cli, Map<String, String> env, Path configDir, String model)
            implements Candidate, ClaudeCodeCli {
        @Override
        public String provider() {
            return Harness.CLAUDE_CODE;
        }

        @Override
        public ClaudeLaunch.Builder launch() {
            return ClaudeLaunch.builder(cli, configDir).env(env).model(model);
        }

        @Override
        public Turn next(List<Message> history, List<ToolSpec> tools) {
            throw new UnsupportedOperationException("only the harness drives this test CLI");
        }
    }

    @Test
    void retailGoldThroughTheRealCliOverMcpScoresOneOnFiveTasks() throws Exception {
        ClaudeCli cli = ClaudeCodeFixture.cli();
        Registry base = Registry.load();
        Tau2Benchmark retail = (Tau2Benchmark) base.benchmarks().get("tau2-retail");
        List<TaskSpec> tasks = tasks(retail, 5);
        try (FakeAnthropicServer model = FakeAnthropicServer.start(r -> FakeAnthropicServer.reply(
                        gold(retail, tasks, r.decoded()).message()));
                ScriptedModelServer customer = ScriptedModelServer.start(r -> {
                    DecodedRequest req = r.chat();
                    Turn t = new ScriptedUser(taskOf(tasks, text(req))).next(req.history(), req.tools());
                    return ScriptedModelServer.Reply.json(
                            OpenAiChat.encodeResponse(t.message(), req.model(), "chatcmpl-" + r.index()));
                })) {
            Registry registry = base.with(
                    List.of(),
                    List.of(
                            Tau2HarnessOverHttpTest.factory("openai", customer.openAiEnv()),
                            claudeCode(cli, model.apiKeyEnv(), tmp.resolve("claude"))));
            var cc = new ExperimentSpec.CandidateSpec(
                    "cc", new ModelRef(Harness.CLAUDE_CODE, "claude-sonnet-4-5"), "tools", null, CLAUDE_CODE);
            var spec = new ExperimentSpec(
                    "claude-code",
                    List.of(new ExperimentSpec.DomainSpec(
                            "tau2-retail",
                            null,
                            tasks.stream().map(TaskSpec::id).toList())),
                    List.of(cc),
                    1,
                    2,
                    Map.of(),
                    Map.of(
                            "user",
                            new ModelRef("openai", "customer"),
                            "judge",
                            new ModelRef("scripted", Tau2Benchmark.ALL_MET)),
                    0,
                    Duration.ofSeconds(120),
                    false);
            var result = Experiments.run(spec, tmp.resolve("x"), registry);
            assertEquals(5, result.completed(), () -> result.summary() + "\n" + errors(tmp.resolve("x")));
            assertEquals(1.0, result.scorecard().rows().getFirst().avgReward(), result.summary());

            // Every gold call reached the world as the domain's own call, and the CLI's model saw the MCP tools.
            var first = model.messageRequests().getFirst().json();
            assertTrue(PyJson.dumps(first.get("tools")).contains("\"mcp__brokkr__get_order_details\""), "MCP tools");
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("x"))) {
                Map<String, Attempt> byTask = new LinkedHashMap<>();
                for (Attempt a : store.attempts(true)) byTask.put(a.taskId(), a);
                for (TaskSpec t : tasks) {
                    Attempt a = byTask.get(t.id());
                    String transcript = PyJson.dumps(a.evidence().transcript());
                    for (var action : t.criteria().actionsOrEmpty())
                        assertTrue(transcript.contains("\"" + action.name() + "\""), t.id() + " " + action.name());
                    assertFalse(transcript.contains(ClaudeCodeLoop.TOOL_PREFIX), "the domain's names, not the CLI's");
                    assertTrue(
                            a.evidence().counts().modelSteps() >= 2, "the CLI's responses are the agent's model steps");
                    assertEquals(
                            (long) t.criteria().actionsOrEmpty().size(),
                            a.evidence().counts().toolCalls());
                }
            }
            // Results of this harness are upstream "custom" submissions and say so.
            var export = Tau2ResultsExport.export(brokkr.family.StoredResults.read(tmp.resolve("x")), registry)
                    .getFirst();
            assertEquals(
                    Tau2ResultsExport.CLAUDE_CODE_AGENT,
                    export.results()
                            .get("info")
                            .asDict()
                            .get("agent_info")
                            .asDict()
                            .get("implementation")
                            .asStr());
            assertTrue(
                    export.warnings().contains(Tau2ResultsExport.CUSTOM_SUBMISSION),
                    export.warnings().toString());
        }
    }

    /** The stored attempts' errors, for a failure's message. */
    public static String errors(Path dir) {
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            StringBuilder sb = new StringBuilder();
            for (Attempt a : store.attempts(false))
                if (a.error() != null) sb.append(a.error()).append('\n');
            return sb.toString();
        } catch (Exception e) {
            return e.toString();
        }
    }

    @Test
    void theHarnessNeedsTheClisOwnModelAndHasNoCheckpoints() {
        Tau2Benchmark retail = (Tau2Benchmark) Registry.load().benchmarks().get("tau2-retail");
        var api = new ExperimentSpec.CandidateSpec(
                "api", new ModelRef("anthropic", "claude-sonnet-4-5"), "tools", null, CLAUDE_CODE);
        var e = assertThrows(ExperimentSpec.SpecException.class, () -> Planner.checkHarness(retail, api));
        assertEquals(
                "domain tau2-retail: candidate api asks for harness claude-code, which runs the Claude Code CLI: its"
                        + " model must be claude-code:MODEL, not anthropic:claude-sonnet-4-5",
                e.getMessage());
        Planner.checkHarness(
                retail,
                new ExperimentSpec.CandidateSpec(
                        "cc", new ModelRef(Harness.CLAUDE_CODE, "sonnet"), "tools", null, CLAUDE_CODE));
    }
}
