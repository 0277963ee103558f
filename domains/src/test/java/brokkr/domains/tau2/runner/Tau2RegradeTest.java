package brokkr.domains.tau2.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.evaluator.ModelNlJudge;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Transcript;
import brokkr.eval.Attempt;
import brokkr.eval.ModelFactory;
import brokkr.eval.ModelRef;
import brokkr.eval.TrustTier;
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
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Judge re-grading from records ({@link Regrade} over {@link Tau2Rejudging}): a stored tau2 retail
 * experiment (gold replay and stop-at-once, whose NL assertions the scripted judge recorded as all
 * met and none met) judged again by scripted judges that agree everywhere or flip a known set of
 * assertions, and by a judge model behind a loopback OpenAI server (the real request path).
 */
class Tau2RegradeTest {
    @TempDir
    static Path tmp;

    static Path dir;
    /** Tasks with NL assertions in their basis (19 and 36 have two each, 62 one) and one without (5). */
    static final List<String> TASKS = List.of("5", "19", "36", "62");

    static final int REPETITIONS = 2;
    /** Loaded once: loading verifies every data file's digest. */
    static final Tau2Domain RETAIL = Tau2Domains.load("retail");

    static final TaskSpec TASK_19 = RETAIL.task("19");
    static final String FLIPPED = TASK_19.criteria().nlAssertions().get(1);

    @BeforeAll
    static void runTheExperiment() {
        dir = tmp.resolve("recorded");
        var spec = Tau2ExperimentTest.spec(
                "regrade",
                List.of(new ExperimentSpec.DomainSpec("tau2-retail", null, TASKS)),
                List.of(Tau2ExperimentTest.GOLD, Tau2ExperimentTest.STOP),
                REPETITIONS,
                Map.of(),
                0);
        var r = Experiments.run(spec, dir, Registry.load());
        assertEquals(TASKS.size() * 2 * REPETITIONS, r.completed(), r.summary());
    }

    /**
     * A judge that decides from the conversation the way the scripted judge's verdicts fell: the gold
     * replay (which calls tools) meets every assertion, stopping at once none; {@code flip} names the
     * assertions it answers the other way.
     */
    static Candidate judge(BiPredicate<String, String> flip) {
        return (history, tools) -> {
            String prompt = history.get(1).content();
            boolean gold = prompt.contains("\ntool: ");
            List<Value> results = new ArrayList<>();
            for (String a : assertions(prompt)) {
                boolean met = gold != flip.test(prompt, a);
                results.add(PyDict.of(
                        "expectedOutcome",
                        a,
                        "reasoning",
                        met ? "the agent said so" : "the agent did not say so",
                        "metExpectation",
                        PyBool.of(met)));
            }
            return Turn.of(new Message.Assistant(PyJson.dumps(PyDict.of("results", PyList.of(results)))));
        };
    }

    /** The assertions a judge request asks about: every retail task's assertion that appears in the request. */
    static List<String> assertions(String prompt) {
        String asked = prompt.substring(prompt.lastIndexOf("expectedOutcomes:"));
        List<String> out = new ArrayList<>();
        for (String id : TASKS) {
            var ec = RETAIL.task(id).criteria();
            if (ec.nlAssertions() == null) continue;
            for (String a : ec.nlAssertions()) if (asked.contains(a) && !out.contains(a)) out.add(a);
        }
        return out;
    }

    static int assertionCount(String taskId) {
        var nl = RETAIL.task(taskId).criteria().nlAssertions();
        return nl == null ? 0 : nl.size();
    }

    static Registry registry(Candidate judge) {
        ModelFactory f = new ModelFactory() {
            @Override
            public String provider() {
                return "test-judge";
            }

            @Override
            public Candidate create(ModelRef m) {
                assertEquals(PyDict.of("temperature", 0.0), m.options(), "upstream's judge settings");
                return judge;
            }
        };
        return Registry.load().with(List.of(), List.of(f));
    }

    static List<String> attemptRows(Path d) {
        try (ExperimentQuery q = ExperimentQuery.open(d)) {
            return q.attempts(false).stream()
                    .map(a -> a.id() + " " + a.reward() + " " + a.checks() + " " + a.evidence())
                    .toList();
        }
    }

    @Test
    void aJudgeThatAgreesEverywhereAgreesOnEveryAssertionAndEpisode() {
        List<String> before = attemptRows(dir);
        Regrade.Result r = Regrade.run(dir, "test-judge", "agree", registry(judge((p, a) -> false)), 3);
        // Every assertion of 19, 36 and 62, for gold and stop, each trial; task 5 has none.
        int statements =
                TASKS.stream().mapToInt(Tau2RegradeTest::assertionCount).sum() * 2 * REPETITIONS;
        assertEquals(TASKS.size() * 2 * REPETITIONS, r.attempts(), r.text());
        assertEquals(3 * 2 * REPETITIONS, r.rejudged(), r.text());
        assertEquals(2 * REPETITIONS, r.withoutJudgedChecks(), r.text());
        assertEquals(statements, r.statements(), r.text());
        assertEquals(statements, r.statementsAgreeing(), r.text());
        assertEquals(r.rejudged(), r.episodesAgreeing(), r.text());
        assertTrue(r.disagreements().isEmpty() && r.episodeChanges().isEmpty() && r.complete(), r.text());
        assertTrue(r.text().contains("assertions agreeing: " + statements + "/" + statements + " (100.0%)"), r.text());
        assertEquals(before, attemptRows(dir), "the recorded attempts are never changed");
    }

    @Test
    void aJudgeFlippingKnownAssertionsDisagreesOnExactlyThoseAndTheirEpisodes() {
        Regrade.Result r = Regrade.run(dir, "test-judge", "flip", registry(judge((p, a) -> a.equals(FLIPPED))), 2);
        // The second assertion of task 19, for gold (met -> not met) and stop (not met -> met), each trial.
        assertEquals(2 * REPETITIONS, r.disagreements().size(), r.text());
        for (Regrade.Disagreement d : r.disagreements()) {
            assertEquals("19", d.place().taskId());
            assertEquals(FLIPPED, d.statement());
            assertEquals(d.place().candidate().equals("gold"), d.recorded(), r.text());
            assertEquals(!d.recorded(), d.now());
        }
        assertEquals(r.statements() - 2 * REPETITIONS, r.statementsAgreeing());
        // Gold's episodes of task 19 now fail; stop-at-once still fails on the DB whatever the judge says.
        assertEquals(REPETITIONS, r.episodeChanges().size(), r.text());
        for (Regrade.EpisodeChange c : r.episodeChanges()) {
            assertEquals("gold", c.place().candidate());
            assertEquals(1.0, c.recordedReward());
            assertEquals(0.0, c.newReward());
        }
        assertEquals(r.rejudged() - REPETITIONS, r.episodesAgreeing());
        assertTrue(r.text().contains("tau2-retail gold task 19 trial 1"), r.text());
        assertTrue(r.text().contains("met -> not met  " + FLIPPED), r.text());
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            List<Regrade.Stored> rows =
                    Regrade.stored(q).stream().filter(s -> s.run() == r.run()).toList();
            assertEquals(r.rejudged(), rows.size());
            for (Regrade.Stored s : rows) {
                Attempt recorded = q.attempt(s.attemptId()).orElseThrow();
                boolean flippedGold = recorded.taskId().equals("19") && recorded.success();
                assertEquals(Regrade.JUDGED, s.status());
                assertEquals(flippedGold ? 0.0 : recorded.reward(), s.reward(), recorded.taskId());
                assertEquals(
                        !flippedGold
                                && recorded.check("nl_assertion").orElseThrow().passed(),
                        s.checks().stream()
                                .filter(c -> c.name().equals("nl_assertion"))
                                .findFirst()
                                .orElseThrow()
                                .passed());
                assertEquals("test-judge:flip", s.judge());
                PyList judgements = s.evidence().details().get("judgements").asList();
                assertEquals(
                        RETAIL.task(recorded.taskId()).criteria().nlAssertions().size(), judgements.size());
            }
        }
    }

    @Test
    void everyRegradeIsKeptBesideTheOthersNeverOverwriting() {
        Regrade.Result first = Regrade.run(dir, "test-judge", "agree", registry(judge((p, a) -> false)), 1);
        Regrade.Result second = Regrade.run(dir, "test-judge", "flip", registry(judge((p, a) -> a.equals(FLIPPED))), 1);
        assertEquals(first.run() + 1, second.run());
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            List<Regrade.Stored> rows = Regrade.stored(q);
            Map<Integer, Long> perRun =
                    rows.stream().collect(Collectors.groupingBy(Regrade.Stored::run, Collectors.counting()));
            assertEquals((long) first.rejudged(), perRun.get(first.run()));
            assertEquals((long) second.rejudged(), perRun.get(second.run()));
            assertTrue(rows.stream()
                    .filter(s -> s.run() == first.run())
                    .allMatch(s -> s.judge().equals("test-judge:agree")));
        }
    }

    /** The judge behind a loopback OpenAI server: upstream's exact judge request per episode, recorded with the new verdict. */
    @Test
    void aJudgeModelOverHttpGetsUpstreamsRequestAndTheRequestIsRecorded() throws Exception {
        Candidate agreeing = judge((p, a) -> false);
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> {
            DecodedRequest d = req.chat();
            return Reply.json(OpenAiChat.encodeResponse(
                    agreeing.next(d.history(), d.tools()).message(), d.model(), "chatcmpl-" + req.index()));
        })) {
            Registry registry =
                    Registry.load().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
            Regrade.Result r = Regrade.run(dir, "openai", "judge-model", registry, 2);
            assertEquals(3 * 2 * REPETITIONS, r.rejudged(), r.text());
            assertEquals(r.statements(), r.statementsAgreeing(), r.text());
            assertEquals(r.rejudged(), server.requestCount(), "one judge call per re-judged episode, nothing else");
            try (ExperimentQuery q = ExperimentQuery.open(dir)) {
                List<Regrade.Stored> rows = Regrade.stored(q).stream()
                        .filter(s -> s.run() == r.run())
                        .toList();
                Set<String> recorded = rows.stream()
                        .map(s -> s.evidence().modelCalls().getFirst().call().requestBody())
                        .collect(Collectors.toSet());
                Set<String> received = server.requests().stream()
                        .map(ScriptedModelServer.Request::body)
                        .collect(Collectors.toSet());
                assertEquals(received, recorded, "each exact request is recorded with its new verdict");
                for (Regrade.Stored s : rows) {
                    Attempt a = q.attempt(s.attemptId()).orElseThrow();
                    var call = s.evidence().modelCalls().getFirst().call();
                    assertEquals(200, call.status());
                    PyDict body = Json.parse(call.requestBody()).asDict();
                    assertEquals("judge-model", body.get("model").asStr());
                    assertEquals(new PyFloat(0.0), body.get("temperature"));
                    assertNull(body.get("seed"), "upstream's judge gets no seed");
                    DecodedRequest d = OpenAiChat.decodeRequest(call.requestBody());
                    List<Message> expected = ModelNlJudge.request(
                            Tau2Transcript.fromValue(a.evidence().transcript()),
                            RETAIL.task(a.taskId()).criteria().nlAssertions());
                    assertEquals(expected, d.history(), "upstream's judge prompts over the recorded trajectory");
                    assertTrue(d.tools().isEmpty());
                }
            }
        }
    }

    /** An answer upstream cannot parse is no verdict: the attempt is listed, its call recorded, nothing is scored. */
    @Test
    void anUnreadableJudgeAnswerIsNoVerdictWithItsCallRecorded() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> Reply.json(OpenAiChat.encodeResponse(
                new Message.Assistant("All met, I think."), req.chat().model(), "chatcmpl-" + req.index())))) {
            Registry registry =
                    Registry.load().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
            Regrade.Result r = Regrade.run(dir, "openai", "chatty", registry, 2);
            assertFalse(r.complete());
            assertEquals(0, r.rejudged());
            assertEquals(3 * 2 * REPETITIONS, r.failures().size(), r.text());
            assertTrue(r.failures().getFirst().error().contains("judge: judge answer is not JSON"), r.text());
            try (ExperimentQuery q = ExperimentQuery.open(dir)) {
                for (Regrade.Stored s : Regrade.stored(q).stream()
                        .filter(s -> s.run() == r.run())
                        .toList()) {
                    assertEquals(Regrade.NO_VERDICT, s.status());
                    assertNull(s.reward());
                    assertEquals(1, s.evidence().modelCalls().size(), "the judge's call is kept");
                }
            }
        }
    }

    /**
     * The benchmark's scripted all-met judge: no model; stop-at-once's assertions flip to met. Its episodes
     * still fail on the DB, except on task 62, whose gold actions write nothing: there the NL assertions
     * were its only loss, and its episodes now succeed.
     */
    @Test
    void theScriptedAllMetJudgeFlipsStopAtOncesAssertionsOnly() {
        Regrade.Result r = Regrade.run(dir, "scripted", Tau2Benchmark.ALL_MET, Registry.load(), 2);
        int stopStatements =
                TASKS.stream().mapToInt(Tau2RegradeTest::assertionCount).sum() * REPETITIONS;
        assertEquals(stopStatements, r.disagreements().size(), r.text());
        assertTrue(
                r.disagreements().stream()
                        .allMatch(d -> d.place().candidate().equals("stop-at-once") && !d.recorded() && d.now()),
                r.text());
        assertEquals(r.rejudged() - REPETITIONS, r.episodesAgreeing(), r.text());
        assertEquals(REPETITIONS, r.episodeChanges().size(), r.text());
        for (Regrade.EpisodeChange c : r.episodeChanges()) {
            assertEquals(
                    List.of("stop-at-once", "62", 0.0, 1.0),
                    List.of(c.place().candidate(), c.place().taskId(), c.recordedReward(), c.newReward()),
                    r.text());
        }
        var e = assertThrows(
                IllegalArgumentException.class, () -> Regrade.run(dir, "scripted", "nope", Registry.load(), 1));
        assertTrue(
                e.getMessage()
                        .contains(
                                "unknown tau2-retail scripted judge 'nope' (scripted judges: known-verdict, all-met)"),
                e.getMessage());
    }

    /** The all-met judge as an experiment's judge: asked through upstream's judge request path, its verdict self-reported. */
    @Test
    void theAllMetJudgeJudgesAnExperimentSelfReported() {
        Path d = tmp.resolve("all-met");
        var r = Experiments.run(
                Tau2ExperimentTest.spec(
                        "all-met",
                        List.of(new ExperimentSpec.DomainSpec("tau2-retail", null, List.of("62", "19"))),
                        List.of(Tau2ExperimentTest.STOP),
                        1,
                        Map.of("judge", new ModelRef("scripted", Tau2Benchmark.ALL_MET)),
                        0),
                d,
                Registry.load());
        assertEquals(2, r.completed(), r.summary());
        try (ExperimentQuery q = ExperimentQuery.open(d)) {
            for (Attempt a : q.attempts(true)) {
                assertEquals(TrustTier.SELF_REPORTED, a.trust());
                assertTrue(a.check("nl_assertion").orElseThrow().passed(), a.taskId());
                assertEquals(
                        "scripted/all-met",
                        a.evidence()
                                .details()
                                .get("grade")
                                .asDict()
                                .get("judge")
                                .asStr());
                // 62's gold writes nothing, so stopping at once now passes; 19 still fails on the DB.
                assertEquals(a.taskId().equals("62") ? 1.0 : 0.0, a.reward(), a.taskId());
            }
        }
    }

    @Test
    void anUnknownJudgeProviderIsRefusedBeforeAnythingIsWritten() {
        Path other = tmp.resolve("untouched");
        Experiments.run(
                Tau2ExperimentTest.spec(
                        "untouched",
                        List.of(new ExperimentSpec.DomainSpec("tau2-retail", null, List.of("62"))),
                        List.of(Tau2ExperimentTest.GOLD),
                        1,
                        Map.of(),
                        0),
                other,
                Registry.load());
        var e = assertThrows(IllegalArgumentException.class, () -> Regrade.run(other, "nope", "m", Registry.load(), 1));
        assertTrue(e.getMessage().contains("unknown model provider 'nope'"), e.getMessage());
        try (ExperimentQuery q = ExperimentQuery.open(other)) {
            assertTrue(Regrade.stored(q).isEmpty());
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> Regrade.run(tmp.resolve("nothing-here"), "test-judge", "m", Registry.load(), 1));
    }
}
