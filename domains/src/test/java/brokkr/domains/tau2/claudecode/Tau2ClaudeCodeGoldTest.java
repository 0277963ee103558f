package brokkr.domains.tau2.claudecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.domains.tau2.agent.GoldLoopAgent;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.provider.Effects;
import brokkr.provider.claudecode.ClaudeCodeModels;
import brokkr.provider.claudecode.ClaudeCodePrompt;
import brokkr.provider.claudecode.ClaudeCodeReplies;
import brokkr.provider.testing.ClaudeCodeFixture;
import brokkr.provider.testing.FakeAnthropicServer;
import brokkr.provider.testing.FakeAnthropicServer.Reply;
import brokkr.python.PyJson;
import brokkr.run.UsageWindows;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tau2 retail's gold calls through {@code provider: claude-code}, the real pinned CLI against a loopback fake
 * Messages server, score 1.0: the server reads Brokkr's rendered conversation back out of the CLI's request and
 * answers as the gold agent would, its calls alternating between the three forms Claude Code replies carry
 * them in (tags, a native {@code tool_use} block, bare JSON without tags), so each form is decoded end to end.
 * The customer is {@code claude-code:customer} too, answered as tau2's scripted user; the judge is the
 * default known-verdict one.
 *
 * <p>{@code ./test} runs the first {@value #SAMPLE} test-split tasks with at least two gold calls; with
 * {@code -Dbrokkr.claudecode.all=true} every task of the test split.
 */
class Tau2ClaudeCodeGoldTest {
    static final int SAMPLE = 5;

    @TempDir
    Path tmp;

    @Test
    void goldThroughClaudeCodeScoresOne() throws Exception {
        ClaudeCodeFixture.cli();
        Registry base = Registry.load();
        Tau2Benchmark retail = (Tau2Benchmark) base.benchmarks().get("tau2-retail");
        boolean all = Boolean.getBoolean("brokkr.claudecode.all");
        List<TaskSpec> tasks = new ArrayList<>();
        Map<String, TaskSpec> byOpening = new HashMap<>();
        for (String id : retail.tasks("test")) {
            TaskSpec t = retail.domain().task(id);
            if (!all && (t.criteria() == null || t.criteria().actionsOrEmpty().size() < 2)) continue;
            // The server tells tasks apart by the customer's opening message.
            if (byOpening.putIfAbsent(t.requestText(), t) != null) continue;
            tasks.add(t);
            if (!all && tasks.size() == SAMPLE) break;
        }
        assertTrue(all || tasks.size() == SAMPLE, "enough test tasks: " + tasks.size());
        List<ToolSpec> agentTools = retail.domain().environment().agentTools();
        Set<Integer> forms = ConcurrentHashMap.newKeySet();
        try (var server = FakeAnthropicServer.start(r -> {
            List<Message> history = ClaudeCodePrompt.decodeConversation(r.lastUserText());
            List<ToolSpec> tools = ClaudeCodePrompt.decodeTools(r.systemText());
            Message.Assistant gold;
            if (r.model().equals("customer")) {
                // The customer's system prompt holds its instructions, the opening request among them.
                TaskSpec task = byOpening.values().stream()
                        .filter(t -> r.systemText().contains(t.requestText()))
                        .findFirst()
                        .orElseThrow();
                gold = new ScriptedUser(task).next(history, tools).message();
            } else {
                String opening = history.stream()
                        .filter(m -> m instanceof Message.User)
                        .findFirst()
                        .map(Message::content)
                        .orElseThrow();
                TaskSpec task = byOpening.get(opening);
                gold = new GoldLoopAgent(task, agentTools).next(history, tools).message();
                // The form of the calls by task and turn, so that every form reaches a task's grade.
                int turn = (int) history.stream()
                        .filter(m -> m instanceof Message.Assistant)
                        .count();
                int form = (tasks.indexOf(task) + turn) % 3;
                if (gold.hasToolCalls()) forms.add(form);
                return reply(gold, form);
            }
            return reply(gold, 0);
        })) {
            Map<String, String> env = new HashMap<>(server.apiKeyEnv());
            env.put("BROKKR_CLAUDE_CONFIG_ROOT", tmp.resolve("claude").toString());
            Registry registry = base.with(
                    List.of(),
                    List.of(new ClaudeCodeModels(
                            env, new UsageWindows(java.time.Clock.systemUTC()), Effects.system())));
            var candidate = new ExperimentSpec.CandidateSpec(
                    "gold-via-claude-code", new ModelRef("claude-code", "claude-gold"), "tools", null);
            var spec = new ExperimentSpec(
                    "claude-code-gold",
                    List.of(new ExperimentSpec.DomainSpec(
                            "tau2-retail",
                            null,
                            tasks.stream().map(TaskSpec::id).toList())),
                    List.of(candidate),
                    1,
                    2,
                    Map.of(),
                    Map.of("user", new ModelRef("claude-code", "customer")),
                    0,
                    Duration.ofSeconds(600),
                    false);
            long t0 = System.nanoTime();
            var result = Experiments.run(spec, tmp.resolve("x"), registry);
            double seconds = (System.nanoTime() - t0) / 1e9;
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("x"))) {
                List<Attempt> attempts = store.attempts(true);
                String errors = attempts.stream()
                        .filter(a -> !a.success())
                        .map(a -> a.taskId() + ": " + a.error())
                        .toList()
                        .toString();
                assertEquals(tasks.size(), result.completed(), result.summary() + " " + errors);
                for (var row : result.scorecard().rows()) assertEquals(1.0, row.avgReward(), result.summary() + errors);
                assertEquals(tasks.size(), attempts.size());
                for (Attempt a : attempts) {
                    assertTrue(a.success(), a.taskId() + ": " + a.error());
                    String transcript = PyJson.dumps(a.evidence().transcript());
                    assertTrue(!transcript.contains("fake-key-for-tests"), "no key in the record");
                }
            }
            assertEquals(Set.of(0, 1, 2), forms, "calls in tags, as tool_use blocks and as bare JSON all scored");
            System.out.printf(
                    "tau2-retail gold via claude-code: %d tasks, %d CLI calls, %.1f s (%.2f s a task)%n",
                    tasks.size(), server.messageRequests().size(), seconds, seconds / tasks.size());
        }
    }

    /** The gold message as Claude Code would carry it, in {@code form} 0 (tags), 1 (tool_use blocks) or 2 (bare JSON). */
    static Reply reply(Message.Assistant gold, int form) {
        if (!gold.hasToolCalls()) return Reply.text(gold.content() == null ? "" : gold.content());
        int turn = form;
        switch (form) {
            case 1 -> {
                List<FakeAnthropicServer.Block> blocks = new ArrayList<>();
                if (gold.content() != null) blocks.add(new FakeAnthropicServer.Text(gold.content()));
                int i = 0;
                for (ToolCall c : gold.toolCalls())
                    blocks.add(
                            new FakeAnthropicServer.ToolUse("toolu_gold_" + turn + "_" + i++, c.name(), c.arguments()));
                return Reply.message(blocks.toArray(FakeAnthropicServer.Block[]::new));
            }
            case 2 -> {
                List<Value> calls = new ArrayList<>();
                for (ToolCall c : gold.toolCalls()) calls.add(PyDict.of("name", c.name(), "arguments", c.arguments()));
                return Reply.text(PyJson.dumps(PyList.of(calls)));
            }
            default -> {
                StringBuilder sb = new StringBuilder(gold.content() == null ? "" : gold.content() + "\n");
                for (ToolCall c : gold.toolCalls())
                    sb.append(ClaudeCodeReplies.encode(c)).append('\n');
                return Reply.text(sb.toString());
            }
        }
    }
}
