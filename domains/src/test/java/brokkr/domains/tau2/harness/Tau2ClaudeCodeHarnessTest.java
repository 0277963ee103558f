package brokkr.domains.tau2.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.agent.claudecode.ClaudeCodeLoop;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.agent.GoldLoopAgent;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.orchestrator.Orchestrator;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2ResultsExport;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Planner;
import brokkr.experiment.Registry;
import brokkr.provider.DecodedRequest;
import brokkr.provider.Effects;
import brokkr.provider.OpenAiChat;
import brokkr.provider.claudecode.ClaudeCodeModels;
import brokkr.provider.testing.ClaudeCodeFixture;
import brokkr.provider.testing.FakeAnthropicServer;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.python.PyJson;
import brokkr.repl.Harness;
import brokkr.run.UsageWindows;
import brokkr.value.PyDict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code harness: claude-code} end to end, as a user runs it: a {@code claude-code:MODEL} candidate of the registered
 * provider ({@link ClaudeCodeModels}, the pinned binary it finds) through the runner. The real Claude Code CLI is the
 * agent, its model a loopback fake Messages server whose replies are the gold calls as {@code tool_use} blocks for
 * the MCP tools ({@code mcp__brokkr__TOOL}); the CLI's every MCP call reaches the episode's world through the tau2
 * orchestrator, so five retail test tasks score 1.0 by the DB, ACTION and communicate checks, with the domain's
 * calls in the trajectory and the CLI's steps counted ({@code -Dbrokkr.claudecode.all=true}: every test task with gold
 * calls and an opening of its own). The subscription's window refuses the first call: that cell
 * is recorded as a refused infrastructure failure, paused for and run again after the reset, and scores nothing;
 * the provider's concurrency limit of 1 holds across the two slots' sessions (a turn holds the permit); the CLI's
 * config directories are made under the experiment's directory.
 */
public class Tau2ClaudeCodeHarnessTest {
    @TempDir
    Path tmp;

    @AfterEach
    void forget() {
        UsageWindows.process().clear();
    }

    static final Harness CLAUDE_CODE = Harness.of(Harness.CLAUDE_CODE, "tools", null, PyDict.empty());

    /** Retail test tasks with gold calls whose customers open with distinct requests (NL assertions: the all-met judge). */
    static List<TaskSpec> tasks(Tau2Benchmark retail, int n) {
        List<TaskSpec> out = new ArrayList<>();
        Set<String> openings = new HashSet<>();
        for (String id : retail.tasks("test")) {
            TaskSpec t = retail.domain().task(id);
            if (t.criteria() != null && !t.criteria().actionsOrEmpty().isEmpty() && openings.add(key(t))) out.add(t);
            if (out.size() == n) return out;
        }
        if (n == Integer.MAX_VALUE) return out;
        throw new AssertionError("fewer than " + n + " such tasks");
    }

    /** {@code -Dbrokkr.claudecode.all=true}: every such task of the test split, not the first {@value #SAMPLE}. */
    static final boolean ALL = Boolean.getBoolean("brokkr.claudecode.all");

    static final int SAMPLE = 5;

    /** The task a request belongs to: the one whose customer's opening request its text holds. */
    /**
     * What identifies a task's requests: the first line of its customer's reason for calling (the user simulator's
     * prompt indents a reason's later lines, so only the first is verbatim in every request).
     */
    static String key(TaskSpec t) {
        return t.requestText().strip().lines().findFirst().orElse("").strip();
    }

    static TaskSpec taskOf(List<TaskSpec> tasks, String text) {
        TaskSpec best = null;
        for (TaskSpec t : tasks)
            if (text.contains(key(t))
                    && (best == null || key(t).length() > key(best).length())) best = t;
        if (best == null) throw new AssertionError("no task's opening in: " + text);
        return best; // the longest: one task's request may hold another's
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

    @Test
    void retailGoldThroughTheRealCliOverMcpScoresOneOnFiveTasks() throws Exception {
        ClaudeCodeFixture.cli();
        UsageWindows.process().clear();
        Registry base = Registry.load();
        Tau2Benchmark retail = (Tau2Benchmark) base.benchmarks().get("tau2-retail");
        List<TaskSpec> tasks = tasks(retail, ALL ? Integer.MAX_VALUE : SAMPLE);
        List<String> customerErrors = new java.util.concurrent.CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger(), inFlight = new AtomicInteger(), mostAtOnce = new AtomicInteger();
        try (FakeAnthropicServer model = FakeAnthropicServer.start(r -> {
                    if (calls.incrementAndGet() == 1)
                        return FakeAnthropicServer.Reply.usageLimitRejected(
                                "5h", Instant.now().getEpochSecond() + 2);
                    mostAtOnce.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    try {
                        Thread.sleep(40); // two sessions' turns would overlap here without the limit
                        return FakeAnthropicServer.reply(
                                gold(retail, tasks, r.decoded()).message());
                    } finally {
                        inFlight.decrementAndGet();
                    }
                });
                ScriptedModelServer customer = ScriptedModelServer.start(r -> {
                    try {
                        DecodedRequest req = r.chat();
                        Turn t = new ScriptedUser(taskOf(tasks, text(req))).next(req.history(), req.tools());
                        return ScriptedModelServer.Reply.json(
                                OpenAiChat.encodeResponse(t.message(), req.model(), "chatcmpl-" + r.index()));
                    } catch (RuntimeException | Error e) {
                        customerErrors.add(e.toString());
                        throw e;
                    }
                })) {
            Registry registry = base.with(
                    List.of(),
                    List.of(
                            Tau2HarnessOverHttpTest.factory("openai", customer.openAiEnv()),
                            new ClaudeCodeModels(model.oauthEnv(), UsageWindows.process(), Effects.system())));
            // The experiment file a user writes.
            var spec = ExperimentSpec.parse(
                    """
                    name: claude-code
                    domain: tau2-retail
                    tasks: [%s]
                    candidates:
                      - {id: cc, provider: claude-code, model: claude-sonnet-4-5, harness: claude-code}
                    user: {provider: openai, model: customer}
                    judge: {provider: scripted, model: %s}
                    parallelism: 2
                    providers: {claude-code: {concurrency: 1}}
                    max_infra_retries: 0
                    cell_timeout_seconds: 120
                    """.formatted(
                            String.join(
                                    ", ",
                                    tasks.stream().map(t -> "'" + t.id() + "'").toList()),
                            Tau2Benchmark.ALL_MET),
                    true,
                    "test",
                    "claude-code",
                    tmp);
            long t0 = System.nanoTime();
            var result = Experiments.run(spec, tmp.resolve("x"), registry);
            System.out.printf(
                    "tau2-retail gold via harness claude-code: %d tasks, %.1f s%n",
                    tasks.size(), (System.nanoTime() - t0) / 1e9);
            assertEquals(
                    tasks.size(),
                    result.completed(),
                    () -> result.summary() + "\n" + errors(tmp.resolve("x")) + "\nthe fake customer failed: "
                            + customerErrors);
            assertEquals(1.0, result.scorecard().rows().getFirst().avgReward(), result.summary());
            assertEquals(1, mostAtOnce.get(), "the provider's concurrency limit binds the harness's sessions");
            assertTrue(
                    Files.isDirectory(tmp.resolve("x").resolve(ClaudeCodeModels.CONFIG_DIR)),
                    "the CLI's config directories are under the experiment's directory");
            try (var files = Files.walk(tmp.resolve("x").resolve(ClaudeCodeModels.CONFIG_DIR))) {
                assertEquals(
                        List.of(), files.filter(Files::isRegularFile).toList(), "each session's directory is removed");
            }

            // Every gold call reached the world as the domain's own call, and the CLI's model saw the MCP tools.
            var first = model.messageRequests().getFirst().json();
            assertTrue(PyJson.dumps(first.get("tools")).contains("\"mcp__brokkr__get_order_details\""), "MCP tools");
            // The CLI's conversation opens as upstream's agent history (and the loop harness's model's) does: the
            // orchestrator's greeting as the agent's first message, then the customer's.
            int sessions = 0;
            for (var req : model.messageRequests()) {
                PyDict j = req.json();
                if (j.get("tools") == null || !PyJson.dumps(j.get("tools")).contains(ClaudeCodeLoop.TOOL_PREFIX))
                    continue;
                sessions++;
                PyDict opening = j.get("messages").asList().get(0).asDict();
                assertEquals("assistant", opening.get("role").asStr(), PyJson.dumps(opening));
                assertEquals(
                        "[{\"type\": \"text\", \"text\": \"" + Orchestrator.GREETING + "\"}]",
                        PyJson.dumps(opening.get("content")));
                assertEquals(
                        "user",
                        j.get("messages").asList().get(1).asDict().get("role").asStr());
            }
            assertTrue(sessions > tasks.size(), "every agent request of the sessions: " + sessions);
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("x"))) {
                Map<String, Attempt> byTask = new LinkedHashMap<>();
                List<Attempt> refused = new ArrayList<>();
                for (Attempt a : store.attempts(true))
                    if (a.completed()) byTask.put(a.taskId(), a);
                    else refused.add(a);
                assertEquals(1, refused.size(), "the refused attempt is kept beside those that scored");
                assertTrue(
                        UsageWindows.refusedError(refused.getFirst().error()),
                        refused.getFirst().error());
                assertFalse(refused.getFirst().error().contains("fake-token-for-tests"));
                for (TaskSpec t : tasks) {
                    Attempt a = byTask.get(t.id());
                    String transcript = PyJson.dumps(a.evidence().transcript());
                    int greeting = transcript.indexOf(Orchestrator.GREETING);
                    assertTrue(
                            greeting >= 0
                                    && greeting
                                            < transcript.indexOf("\""
                                                    + t.criteria()
                                                            .actionsOrEmpty()
                                                            .getFirst()
                                                            .name() + "\""),
                            "the trajectory opens with the greeting, as the loop harness's does");
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
