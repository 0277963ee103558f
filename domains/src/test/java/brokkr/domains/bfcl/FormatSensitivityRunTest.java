package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.BenchmarkReports;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.provider.ModelProvider;
import brokkr.provider.ProviderOptions;
import brokkr.provider.Providers;
import brokkr.provider.testing.ScriptedModelServer;
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
 * format_sensitivity as a runnable category: the prompting action space under the reference and loop harnesses,
 * over the wire (a loopback model server) and through the experiment path with its per-configuration report.
 */
class FormatSensitivityRunTest {
    @TempDir
    Path tmp;

    /** The 26 configurations of one base entry (simple_python_19). */
    static List<FormatSensitivity.Entry> firstEntry() {
        return FormatSensitivity.entries(Shared.data()).subList(0, 26);
    }

    @Test
    void overTheWireTheLoopHarnessPassesInTheAskedFormatAndLosesInAWrongOne() {
        List<FormatSensitivity.Entry> entries = firstEntry();
        // Wrong format: always the gold calls as Python text, whatever the system prompt asks.
        Candidate wrong = (history, tools) -> Turn.of(new Message.Assistant(
                PromptingAnswers.accepted(entries.getFirst().task(), PromptingDecoder.ReturnFormat.PYTHON, false)
                        .orElseThrow()));
        Candidate gold = new BfclAgent.GoldCandidate(entries.getFirst().task());
        for (Candidate c : List.of(gold, wrong)) {
            List<String> passed = new ArrayList<>();
            try (ScriptedModelServer server = ScriptedModelServer.ofCandidate(c)) {
                ModelProvider model = Providers.fromEnvironment(
                        server.openAiEnv(), "openai", "scripted", ProviderOptions.defaults("scripted"));
                for (FormatSensitivity.Entry e : entries) {
                    BfclAgent agent = new BfclAgent.Prompting(
                            model, e.config(), e.config().returnFormat(), e.systemPrompt(), null, true);
                    BfclAgent.Attempt a = agent.attempt(e.task());
                    assertEquals(null, a.failure());
                    // No tools on the wire, upstream's system prompt first.
                    PyDict body = server.requests().getLast().json();
                    assertEquals(null, body.get("tools"));
                    String system = body.get("messages")
                            .asList()
                            .get(0)
                            .asDict()
                            .get("content")
                            .asStr();
                    assertEquals(e.systemPrompt(), system);
                    if (BfclHarness.grade(e.task(), a.answer(), false).valid())
                        passed.add(e.config().id());
                }
                assertEquals(26, server.requestCount());
            }
            if (c == gold) assertEquals(26, passed.size(), passed.toString());
            else
                // Python text passes only the configurations that ask for Python without a tag.
                assertEquals(
                        List.of(
                                "ret_fmt=python&tool_call_tag=False&func_doc_fmt=python&prompt_fmt=plaintext&style=classic",
                                "ret_fmt=python&tool_call_tag=False&func_doc_fmt=xml&prompt_fmt=plaintext&style=classic",
                                "ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic",
                                "ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=markdown&style=classic",
                                "ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=experimental"),
                        passed);
        }
    }

    @Test
    void goldThroughTheExperimentPathIsReportedPerConfiguration() {
        BfclBenchmark b = new BfclBenchmark(Shared.data());
        List<String> tasks = b.tasks("format_sensitivity:sample=1:seed=3");
        assertEquals(26, tasks.size());
        var ref =
                new ExperimentSpec.CandidateSpec("gold-prompting", new ModelRef("scripted", "gold"), "prompting", null);
        var loop = new ExperimentSpec.CandidateSpec(
                "gold-prompting-loop",
                new ModelRef("scripted", "gold"),
                "prompting",
                null,
                Harness.of("loop", "prompting", null, PyDict.empty()));
        var spec = new ExperimentSpec(
                "bfcl-fs",
                List.of(new ExperimentSpec.DomainSpec("bfcl", null, tasks)),
                List.of(ref, loop),
                1,
                4,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(60),
                false);
        var r = Experiments.run(spec, tmp.resolve("fs"), Registry.load());
        assertEquals(52, r.completed(), r.summary());
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("fs"))) {
            for (Attempt a : store.attempts(true)) assertEquals(1.0, a.reward(), a.taskId());
            var reports = BenchmarkReports.of(store, Registry.load());
            assertEquals(2, reports.size());
            for (var cr : reports) {
                assertEquals("format sensitivity per config", cr.report().title());
                assertEquals(27, cr.report().rows().size());
                for (List<Object> row : cr.report().rows()) assertEquals(1.0, row.get(3), row.toString());
            }
        }
    }
}
