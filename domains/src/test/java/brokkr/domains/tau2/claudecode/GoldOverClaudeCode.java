package brokkr.domains.tau2.claudecode;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.domains.tau2.agent.GoldLoopAgent;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.eval.ModelRef;
import brokkr.provider.claudecode.ClaudeCodePrompt;
import brokkr.provider.claudecode.ClaudeCodeReplies;
import brokkr.provider.testing.FakeAnthropicServer;
import brokkr.provider.testing.FakeAnthropicServer.Reply;
import brokkr.python.PyJson;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A fake Messages server's answers for tau2 tasks run through {@code provider: claude-code}: it reads Brokkr's
 * rendered conversation and tools back out of each CLI request and answers by the request's model, as the gold
 * agent ({@code claude-gold}), tau2's scripted customer ({@code customer}) or an all-met judge ({@code judge})
 * would. The agent's calls alternate between the three forms Claude Code replies carry them in (tags, native
 * {@code tool_use} blocks, bare JSON), by task and turn; {@link #forms} says which were sent.
 */
final class GoldOverClaudeCode implements FakeAnthropicServer.Handler {
    static final ModelRef AGENT = new ModelRef("claude-code", "claude-gold");
    static final Map<String, ModelRef> ROLES =
            Map.of("user", new ModelRef("claude-code", "customer"), "judge", new ModelRef("claude-code", "judge"));

    final List<TaskSpec> tasks;
    final Set<Integer> forms = ConcurrentHashMap.newKeySet();
    private final Map<String, TaskSpec> byOpening = new HashMap<>();
    private final List<ToolSpec> agentTools;

    /** Tasks with distinct openings (the agent's requests are told apart by the customer's first message). */
    GoldOverClaudeCode(Tau2Benchmark benchmark, List<TaskSpec> candidates) {
        this.agentTools = benchmark.domain().environment().agentTools();
        List<TaskSpec> kept = new ArrayList<>();
        for (TaskSpec t : candidates) if (byOpening.putIfAbsent(opening(t), t) == null) kept.add(t);
        this.tasks = List.copyOf(kept);
    }

    /** What the scripted customer opens with (its first message). */
    static String opening(TaskSpec t) {
        return new ScriptedUser(t).next(List.of(), List.of()).message().content();
    }

    @Override
    public Reply handle(FakeAnthropicServer.Request r) {
        List<Message> history = ClaudeCodePrompt.decodeConversation(r.lastUserText());
        List<ToolSpec> tools = ClaudeCodePrompt.decodeTools(r.systemText());
        String everything = r.systemText() + "\n" + r.lastUserText();
        switch (r.model()) {
            case "customer" -> {
                return reply(
                        new ScriptedUser(bestMatch(everything))
                                .next(history, tools)
                                .message(),
                        0);
            }
            case "judge" -> {
                TaskSpec task = bestMatch(everything);
                List<Value> results = new ArrayList<>();
                for (String a : task.criteria().nlAssertions())
                    results.add(
                            PyDict.of("expectedOutcome", a, "reasoning", "fake judge", "metExpectation", PyBool.TRUE));
                return Reply.text(PyJson.dumps(PyDict.of("results", PyList.of(results))));
            }
            default -> {
                String opening = history.stream()
                        .filter(m -> m instanceof Message.User)
                        .findFirst()
                        .map(Message::content)
                        .orElseThrow();
                TaskSpec task = byOpening.get(opening);
                Message.Assistant gold =
                        new GoldLoopAgent(task, agentTools).next(history, tools).message();
                int turn = (int) history.stream()
                        .filter(m -> m instanceof Message.Assistant)
                        .count();
                int form = (tasks.indexOf(task) + turn) % 3;
                if (gold.hasToolCalls()) forms.add(form);
                return reply(gold, form);
            }
        }
    }

    /**
     * The task whose scenario the request shows most of: the customer's instructions and the judge's
     * assertions are in their prompts (counted: the string values of the task's user scenario and its
     * assertions that the text contains).
     */
    private TaskSpec bestMatch(String text) {
        TaskSpec best = null;
        int bestScore = -1;
        for (TaskSpec t : tasks) {
            List<String> parts = new ArrayList<>();
            strings(t.raw().get("user_scenario"), parts);
            if (t.criteria() != null && t.criteria().nlAssertions() != null)
                parts.addAll(t.criteria().nlAssertions());
            int score = 0;
            for (String p : parts) if (p.length() > 3 && text.contains(p)) score += p.length();
            if (score > bestScore) {
                best = t;
                bestScore = score;
            }
        }
        return best;
    }

    private static void strings(Value v, List<String> out) {
        switch (v) {
            case PyStr s -> out.add(s.value());
            case PyDict d -> d.entries().forEach(e -> strings(e.getValue(), out));
            case PyList l -> l.items().forEach(x -> strings(x, out));
            case null, default -> {}
        }
    }

    /** {@code gold} as Claude Code would carry it: in {@code form} 0 (tags), 1 (tool_use blocks) or 2 (bare JSON). */
    static Reply reply(Message.Assistant gold, int form) {
        if (!gold.hasToolCalls()) return Reply.text(gold.content() == null ? "" : gold.content());
        switch (form) {
            case 1 -> {
                List<FakeAnthropicServer.Block> blocks = new ArrayList<>();
                if (gold.content() != null) blocks.add(new FakeAnthropicServer.Text(gold.content()));
                int i = 0;
                for (ToolCall c : gold.toolCalls())
                    blocks.add(new FakeAnthropicServer.ToolUse("toolu_gold_" + i++, c.name(), c.arguments()));
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
