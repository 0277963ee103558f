package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.agent.claudecode.ClaudeCodeLoop;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.harness.Tau2ClaudeCodeHarnessTest;
import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.provider.DecodedRequest;
import brokkr.provider.claudecode.ClaudeCodeModels;
import brokkr.provider.testing.ClaudeCodeFixture;
import brokkr.provider.testing.FakeAnthropicServer;
import brokkr.repl.Harness;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BFCL single-turn under {@code harness: claude-code}: the real CLI, its model a fake Messages server answering with
 * the gold calls as {@code tool_use} blocks for the MCP recorders; the calls of the first response (two parallel
 * calls for one task) are the answer, graded as the loop harness's are, after exactly one model step.
 */
class BfclClaudeCodeTest {
    @TempDir
    Path tmp;

    @Test
    void theCallsOfTheFirstResponseAreTheAnswer() {
        ClaudeCodeFixture.cli();
        Registry base = Registry.load();
        BfclBenchmark bfcl = (BfclBenchmark) base.benchmark("bfcl");
        List<BfclTask> tasks = List.of(bfcl.task("simple_python_1"), bfcl.task("parallel_multiple_10"));
        try (FakeAnthropicServer model = FakeAnthropicServer.start(r -> {
            DecodedRequest req = r.decoded();
            BfclTask task = taskOf(tasks, req);
            Turn t = new BfclAgent.GoldCandidate(task).next(req.history(), req.tools());
            List<ToolCall> calls = new ArrayList<>();
            for (ToolCall c : t.message().toolCalls())
                calls.add(new ToolCall(c.id(), ClaudeCodeLoop.TOOL_PREFIX + c.name(), c.arguments()));
            return FakeAnthropicServer.reply(new Message.Assistant(t.message().content(), calls));
        })) {
            Registry registry = base.with(
                    List.of(),
                    List.of(new ClaudeCodeModels(
                            model.apiKeyEnv(), brokkr.run.UsageWindows.process(), brokkr.provider.Effects.system())));
            var cc = new ExperimentSpec.CandidateSpec(
                    "cc",
                    new ModelRef(Harness.CLAUDE_CODE, "claude-sonnet-4-5"),
                    "tools",
                    null,
                    Harness.of(Harness.CLAUDE_CODE, "tools", null, PyDict.empty()));
            var spec = new ExperimentSpec(
                    "bfcl-cc",
                    List.of(new ExperimentSpec.DomainSpec(
                            "bfcl", null, tasks.stream().map(BfclTask::id).toList())),
                    List.of(cc),
                    1,
                    2,
                    Map.of(),
                    Map.of(),
                    0,
                    Duration.ofSeconds(120),
                    false);
            var r = Experiments.run(spec, tmp.resolve("x"), registry);
            assertEquals(
                    2, r.completed(), () -> r.summary() + "\n" + Tau2ClaudeCodeHarnessTest.errors(tmp.resolve("x")));
            assertEquals(1.0, r.scorecard().rows().getFirst().avgReward(), r.summary());
            assertEquals(2, model.messageRequests().size(), "one model step per task (--max-turns 1)");
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("x"))) {
                for (Attempt a : store.attempts(true)) {
                    long expected = a.taskId().startsWith("parallel") ? 2 : 1;
                    assertEquals(expected, a.evidence().counts().toolCalls(), a.taskId());
                    assertTrue(a.evidence().modelCalls().size() == 1, "the turn is recorded: " + a.taskId());
                }
            }
            // Results of this harness are a custom submission and say so: in the score row and on every file.
            var export = BfclResultsExport.export(brokkr.family.StoredResults.read(tmp.resolve("x")), registry);
            assertTrue(
                    export.files().get("score/data_overall.csv").contains("cc" + BfclResultsExport.CUSTOM_MODEL_SUFFIX),
                    export.files().get("score/data_overall.csv"));
            assertEquals(
                    export.files().size(),
                    export.warnings().size(),
                    export.warnings().toString());
            // data_overall.csv also says why its Overall Acc is N/A (not every segment of upstream's overall was run).
            export.warnings()
                    .forEach((path, w) -> assertEquals(
                            List.of(BfclResultsExport.CUSTOM_SUBMISSION),
                            path.equals("score/data_overall.csv") ? w.subList(0, 1) : w,
                            path + ": " + w));
        }
    }

    static BfclTask taskOf(List<BfclTask> tasks, DecodedRequest req) {
        StringBuilder text = new StringBuilder();
        for (Message m : req.history())
            if (m instanceof Message.User u && u.content() != null) text.append(u.content());
        for (BfclTask t : tasks)
            for (Message m : BfclHarness.opening(t))
                if (m instanceof Message.User u && text.toString().contains(u.content())) return t;
        throw new AssertionError("no task's question in " + text);
    }
}
