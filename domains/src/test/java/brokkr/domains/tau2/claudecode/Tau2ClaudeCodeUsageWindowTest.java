package brokkr.domains.tau2.claudecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.eval.Attempt;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.ProgressListener;
import brokkr.experiment.Registry;
import brokkr.provider.Effects;
import brokkr.provider.claudecode.ClaudeCodeModels;
import brokkr.provider.testing.ClaudeCodeFixture;
import brokkr.provider.testing.FakeAnthropicServer;
import brokkr.provider.testing.FakeAnthropicServer.Reply;
import brokkr.run.UsageWindows;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A subscription's usage window through the real CLI (subscription credentials: the fake server's
 * {@code anthropic-ratelimit-unified-*} headers reach the CLI as {@code rate_limit_event}s): the first call is
 * refused with a reset 2 s ahead, so the run pauses, records the refused cell as an infrastructure failure and
 * runs it again after the reset; the later replies report the window at 98% (above the 0.97 threshold), so the
 * run pauses again before its next cell. Both tasks score 1.0; nothing is scored from the refused attempt.
 */
class Tau2ClaudeCodeUsageWindowTest {
    @TempDir
    Path tmp;

    @AfterEach
    void forget() {
        UsageWindows.process().clear();
    }

    @Test
    void aRefusedCellWaitsForTheResetAndRunsAgainAndAFullWindowPausesTheNext() throws Exception {
        ClaudeCodeFixture.cli();
        UsageWindows.process().clear();
        Registry base = Registry.load();
        Tau2Benchmark retail = (Tau2Benchmark) base.benchmarks().get("tau2-retail");
        List<TaskSpec> candidates = new ArrayList<>();
        for (String id : retail.tasks("test")) {
            TaskSpec t = retail.domain().task(id);
            if (t.criteria() != null && t.criteria().actionsOrEmpty().size() >= 2) candidates.add(t);
            if (candidates.size() == 4) break;
        }
        var gold = new GoldOverClaudeCode(retail, candidates);
        List<TaskSpec> tasks = gold.tasks.subList(0, 2);
        AtomicInteger calls = new AtomicInteger();
        try (var server = FakeAnthropicServer.start(r -> {
            int n = calls.incrementAndGet();
            long now = Instant.now().getEpochSecond();
            if (n == 1) return Reply.usageLimitRejected("5h", now + 2);
            Reply reply = gold.handle(r);
            // The re-run's first call says the window is half full; every later call that it is at 98% until 5 s
            // after that call, so the reading the next cell meets is the first cell's last call's, whose reset is
            // still ahead however slowly the cell ran (a reset fixed at the first such call had passed on a loaded
            // CI machine before the next cell began, and no pause was seen).
            return n == 2 ? reply.window("5h", 0.5, now + 3600) : reply.window("5h", 0.98, now + 5);
        })) {
            Map<String, String> env = new HashMap<>(server.oauthEnv());
            env.put("BROKKR_CLAUDE_CONFIG_ROOT", tmp.resolve("claude").toString());
            Registry registry =
                    base.with(List.of(), List.of(new ClaudeCodeModels(env, UsageWindows.process(), Effects.system())));
            var spec = new ExperimentSpec(
                    "claude-code-windows",
                    List.of(new ExperimentSpec.DomainSpec(
                            "tau2-retail",
                            null,
                            tasks.stream().map(TaskSpec::id).toList())),
                    List.of(new ExperimentSpec.CandidateSpec("gold", GoldOverClaudeCode.AGENT, "tools", null)),
                    1,
                    1,
                    Map.of(),
                    GoldOverClaudeCode.ROLES,
                    0,
                    Duration.ofSeconds(600),
                    false);
            List<String> pauses = new CopyOnWriteArrayList<>();
            AtomicInteger resumed = new AtomicInteger();
            ProgressListener progress = new ProgressListener() {
                @Override
                public void paused(String reason, Instant until) {
                    pauses.add(reason);
                }

                @Override
                public void resumed() {
                    resumed.incrementAndGet();
                }
            };
            long t0 = System.nanoTime();
            var result = Experiments.run(spec, tmp.resolve("x"), registry, progress);
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertEquals(2, result.completed(), result.summary());
            for (var row : result.scorecard().rows()) assertEquals(1.0, row.avgReward(), result.summary());
            assertTrue(pauses.size() >= 2, "paused for the refusal and for the full window: " + pauses);
            assertTrue(pauses.getFirst().contains("refused"), pauses.toString());
            assertTrue(pauses.stream().anyMatch(p -> p.contains("98%")), pauses.toString());
            assertEquals(pauses.size(), resumed.get());
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("x"))) {
                List<Attempt> attempts = store.attempts(true);
                assertEquals(3, attempts.size(), "the refused attempt is kept beside the two that scored");
                List<Attempt> failed =
                        attempts.stream().filter(a -> !a.completed()).toList();
                assertEquals(1, failed.size());
                assertTrue(
                        UsageWindows.refusedError(failed.getFirst().error()),
                        failed.getFirst().error());
                assertFalse(failed.getFirst().error().contains("fake-token-for-tests"));
                assertEquals(tasks.getFirst().id(), failed.getFirst().taskId(), "the refused cell was re-run");
            }
            System.out.printf("usage windows: %d pauses, %.1f s%n", pauses.size(), seconds);
        }
    }
}
