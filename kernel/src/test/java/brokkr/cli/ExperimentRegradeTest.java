package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.experiment.Regrade;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.python.PyJson;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./brokkr experiment regrade}: a stored tau2 retail gold experiment judged again by a judge
 * model behind a loopback OpenAI server that agrees, that denies one assertion, or that answers what
 * upstream cannot parse; and its usage errors.
 */
class ExperimentRegradeTest {
    @TempDir
    static Path tmp;

    static Path dir;

    @BeforeAll
    static void runTheExperiment() {
        dir = tmp.resolve("exp");
        ExperimentSpec spec = ExperimentSpec.parse("""
                name: regrade-cli
                domain: tau2-retail
                tasks: ["19", "62", "5"]
                candidates: [{id: gold, provider: scripted, model: gold}]
                progress: false
                """, true, "test", "x", tmp);
        assertEquals(3, Experiments.run(spec, dir).completed());
    }

    record Out(int code, String out, String err) {}

    static Out regrade(ScriptedModelServer server, String... args) {
        Registry registry =
                Registry.load().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int code = new ExperimentRegrade(() -> registry)
                .run(
                        List.of(args),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Out(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static final Pattern ASKED = Pattern.compile("expectedOutcomes:\\n\\s*\\[(.*)\\]", Pattern.DOTALL);

    /** A judge model answering each asked assertion met, except those containing {@code denied}. */
    static ScriptedModelServer judge(String denied) {
        return ScriptedModelServer.start(req -> {
            DecodedRequest d = req.chat();
            Matcher m = ASKED.matcher(d.history().get(1).content());
            assertTrue(m.find());
            List<Value> results = new ArrayList<>();
            for (String a : m.group(1).split("', '")) {
                String text = a.replaceAll("^'|'$", "");
                results.add(PyDict.of(
                        "expectedOutcome",
                        text,
                        "reasoning",
                        "r",
                        "metExpectation",
                        PyBool.of(denied == null || !text.contains(denied))));
            }
            return Reply.json(OpenAiChat.encodeResponse(
                    new Message.Assistant(PyJson.dumps(PyDict.of("results", PyList.of(results)))),
                    d.model(),
                    "chatcmpl-" + req.index()));
        });
    }

    @Test
    void anAgreeingJudgeAgreesEverywhereAndTheVerdictsAreStored() {
        try (ScriptedModelServer server = judge(null)) {
            Out o = regrade(server, dir.toString(), "--judge", "openai:judge-1", "--parallelism", "2");
            assertEquals(0, o.code(), o.err());
            assertTrue(
                    o.out()
                            .contains(
                                    "with judge openai:judge-1: 3 completed attempts, 2 re-judged, 1 without judged checks, 0 without a new verdict"),
                    o.out());
            assertTrue(o.out().contains("episode verdicts agreeing: 2/2 (100.0%)"), o.out());
            assertEquals(2, server.requestCount());
        }
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            assertTrue(Regrade.stored(q).stream()
                    .anyMatch(s ->
                            s.judge().equals("openai:judge-1") && s.status().equals(Regrade.JUDGED)));
        }
    }

    @Test
    void aDisagreeingJudgeIsReportedByTaskAndAssertion() {
        try (ScriptedModelServer server = judge("water bottle")) {
            Out o = regrade(server, dir.toString(), "--judge", "openai:judge-2");
            assertEquals(0, o.code(), o.err());
            assertTrue(
                    o.out().contains("disagreements (recorded -> new):\n  tau2-retail gold task 19 trial 1 (attempt "),
                    o.out());
            assertTrue(
                    o.out()
                            .contains(
                                    ": met -> not met  Agent should tell the user that returning the water bottle gives a refund of $54.04."),
                    o.out());
            assertTrue(
                    o.out()
                            .contains(
                                    "episode verdicts changed (reward recorded -> new):\n  tau2-retail gold task 19 trial 1"),
                    o.out());
            assertTrue(o.out().contains("episode verdicts agreeing: 1/2 (50.0%)"), o.out());
        }
    }

    @Test
    void withTheCacheTheSameJudgementsAreServedAgainAndRecordedAsHits() {
        try (ScriptedModelServer server = judge("water bottle")) {
            Out first = regrade(server, dir.toString(), "--judge", "openai:judge-cached", "--cache");
            assertEquals(2, server.requestCount(), first.out());
            Out again = regrade(server, dir.toString(), "--judge", "openai:judge-cached", "--cache");
            assertEquals(2, server.requestCount(), "nothing is sent the second time");
            assertEquals(
                    first.out().lines().skip(1).toList(),
                    again.out().lines().skip(1).toList(),
                    "the same report, run number apart");
        }
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            var rows = Regrade.stored(q).stream()
                    .filter(s -> s.judge().equals("openai:judge-cached"))
                    .toList();
            int last = rows.getLast().run();
            assertEquals(4, rows.size());
            for (var s : rows) {
                var call = s.evidence().modelCalls().getFirst().call();
                assertEquals(s.run() == last, call.cacheHit(), "hits are recorded as such");
            }
        }
    }

    @Test
    void aJudgeGivingNoVerdictExitsThree() {
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> Reply.json(OpenAiChat.encodeResponse(
                new Message.Assistant("yes"), req.chat().model(), "chatcmpl-" + req.index())))) {
            Out o = regrade(server, dir.toString(), "--judge", "openai:judge-3");
            assertEquals(3, o.code(), o.out());
            assertTrue(o.err().contains("2 attempts got no new verdict"), o.err());
            assertTrue(o.out().contains("without a new verdict:\n  tau2-retail gold task "), o.out());
        }
    }

    @Test
    void badArgumentsAreUsageErrors() {
        for (String[] args : List.of(
                new String[] {"experiment", "regrade", dir.toString()},
                new String[] {"experiment", "regrade", dir.toString(), "--judge", "gpt-4.1"},
                new String[] {"experiment", "regrade", dir.toString(), "--judge", "openai:m", "--parallelism", "0"},
                new String[] {"experiment", "regrade", tmp.resolve("none").toString(), "--judge", "openai:m"},
                new String[] {"experiment", "regrade", dir.toString(), "--judge", "nope:m"})) {
            var o = ExperimentCommandTest.cli(args);
            assertEquals(2, o.code(), String.join(" ", args) + ": " + o.err());
        }
        assertTrue(ExperimentCommandTest.cli("experiment", "regrade", dir.toString(), "--judge", "nope:m")
                .err()
                .contains("unknown model provider 'nope'"));
    }
}
