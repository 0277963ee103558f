package brokkr.domains.tau2.claudecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.eval.Attempt;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.provider.Effects;
import brokkr.provider.claudecode.ClaudeCodeModels;
import brokkr.provider.testing.ClaudeCodeFixture;
import brokkr.provider.testing.FakeAnthropicServer;
import brokkr.python.PyJson;
import brokkr.run.UsageWindows;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
        List<TaskSpec> candidates = new ArrayList<>();
        for (String id : retail.tasks("test")) {
            TaskSpec t = retail.domain().task(id);
            if (all || (t.criteria() != null && t.criteria().actionsOrEmpty().size() >= 2)) candidates.add(t);
        }
        var gold = new GoldOverClaudeCode(
                retail, all ? candidates : candidates.subList(0, Math.min(candidates.size(), 3 * SAMPLE)));
        List<TaskSpec> tasks = all ? gold.tasks : gold.tasks.subList(0, SAMPLE);
        try (var server = FakeAnthropicServer.start(gold)) {
            Map<String, String> env = new HashMap<>(server.apiKeyEnv());
            env.put("BROKKR_CLAUDE_CONFIG_ROOT", tmp.resolve("claude").toString());
            Registry registry = base.with(
                    List.of(),
                    List.of(new ClaudeCodeModels(
                            env, new UsageWindows(java.time.Clock.systemUTC()), Effects.system())));
            var candidate =
                    new ExperimentSpec.CandidateSpec("gold-via-claude-code", GoldOverClaudeCode.AGENT, "tools", null);
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
                    GoldOverClaudeCode.ROLES,
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
            assertEquals(Set.of(0, 1, 2), gold.forms, "calls in tags, as tool_use blocks and as bare JSON all scored");
            System.out.printf(
                    "tau2-retail gold via claude-code: %d tasks, %d CLI calls, %.1f s (%.2f s a task)%n",
                    tasks.size(), server.messageRequests().size(), seconds, seconds / tasks.size());
        }
    }
}
