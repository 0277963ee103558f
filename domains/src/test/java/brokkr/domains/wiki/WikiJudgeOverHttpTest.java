package brokkr.domains.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.Turn;
import brokkr.domains.wiki.ReferenceWiki.Kind;
import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.Evidence;
import brokkr.eval.Exploration;
import brokkr.eval.ModelRef;
import brokkr.eval.TrustTier;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.value.PyDict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The judge tier end to end, through the one registry and runner: a judge model behind the OpenAI wire format on a
 * loopback server (answering as the gold judge does, from the request alone), asked once per page with the exact
 * request recorded under the role {@code judge} with its attempt, a failed call retried, the verdicts changing the
 * score; a judge that keeps failing or cannot be read is an infrastructure failure, excluded from scores; and the
 * experiment file's {@code judge: {provider: scripted, model: gold}} turning the tier on without a model.
 */
class WikiJudgeOverHttpTest {
    @TempDir
    Path tmp;

    static final String KEY = "sk-wikijudge-test-secret-4242";

    static final WikiWorld W = WikiWorld.generate(WikiWorld.PUBLIC_SEED);

    static ExperimentSpec spec(String name, List<String> candidates, ModelRef judge) {
        return new ExperimentSpec(
                name,
                List.of(new ExperimentSpec.DomainSpec("wiki", "public", null)),
                candidates.stream()
                        .map(c -> new ExperimentSpec.CandidateSpec(c, new ModelRef("scripted", c), "tools", null))
                        .toList(),
                1,
                2,
                Map.of(),
                Map.of("judge", judge),
                0,
                Duration.ofSeconds(120),
                false);
    }

    static Registry registry(ScriptedModelServer server) {
        Map<String, String> env = new HashMap<>(server.openAiEnv());
        env.put("OPENAI_API_KEY", KEY);
        return Registry.load().with(List.of(), List.of(new ProviderModels("openai", env) {}));
    }

    static Reply answer(Message.Assistant m, ScriptedModelServer.Request r) {
        return Reply.json(OpenAiChat.encodeResponse(m, r.chat().model(), "chatcmpl-" + r.index()));
    }

    /** The request the judge is sent for each page of {@code wiki}, as WikiJudge builds it. */
    static Map<String, List<Message>> expectedRequests(Map<String, String> wiki) {
        Map<String, String> docs = WikiBenchmark.docs(W);
        Map<String, List<Message>> out = new TreeMap<>();
        wiki.forEach((path, text) -> {
            Map<String, String> cited = new LinkedHashMap<>();
            for (String d : WikiJudge.cited(path, text, docs.keySet())) cited.put(d, docs.get(d));
            out.put(path, WikiJudge.request(path, text, cited));
        });
        return out;
    }

    static Set<String> failed(Attempt a) {
        Set<String> out = new TreeSet<>();
        for (Check c : a.checks()) if (!c.passed()) out.add(c.name());
        return out;
    }

    @Test
    void aJudgeModelOverTheWireIsAskedPerPageRetriedAndItsVerdictsChangeTheScore() throws Exception {
        GoldJudge gold = new GoldJudge(Gold.of(W));
        AtomicBoolean failedOnce = new AtomicBoolean();
        try (ScriptedModelServer server = ScriptedModelServer.start(r -> {
            List<Message> history = r.chat().history();
            assertTrue(r.chat().tools().isEmpty(), "the judge is offered no tools");
            WikiJudge.read(history); // only judge requests come here: the candidates are scripted
            if (failedOnce.compareAndSet(false, true))
                return Reply.json(503, "{\"error\": {\"message\": \"overloaded\"}}");
            Turn t = gold.next(history, List.of());
            return answer(t.message(), r);
        })) {
            Registry registry = registry(server);
            ModelRef judge = new ModelRef("openai", "faithfulness-judge", PyDict.of("temperature", 0.0));
            var r = Experiments.run(
                    spec("judged", List.of("reference", "invented"), judge), tmp.resolve("j"), registry);
            assertEquals(2, r.completed(), r.summary());
            assertEquals(0, r.infrastructureFailures(), r.summary());

            Map<String, String> reference = ReferenceWiki.of(W, Kind.REFERENCE),
                    invented = ReferenceWiki.of(W, Kind.INVENTED);
            Map<String, String> docs = WikiBenchmark.docs(W);
            WikiChecker.Grade inventedOff = WikiChecker.grade(Gold.of(W), docs, invented);
            WikiChecker.Grade inventedOn = WikiJudgeTest.judged(W, invented);
            assertTrue(inventedOn.score() < inventedOff.score(), inventedOn.score() + " vs " + inventedOff.score());
            // One request per page of each wiki, and the one failed request once more.
            assertEquals(reference.size() + invented.size() + 1, server.requestCount());
            assertTrue(server.requests().stream().allMatch(q -> ("Bearer " + KEY).equals(q.credential())));

            int failures = 0;
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("j"))) {
                Map<String, String> labels = new HashMap<>();
                store.cells().forEach(cell -> labels.put(cell.key().agentId(), cell.candidate()));
                for (Attempt a : store.attempts(true)) {
                    String who = labels.get(a.agentId());
                    Map<String, String> wiki = who.equals("reference") ? reference : invented;
                    assertEquals(TrustTier.MODEL_JUDGED, a.trust(), who);
                    assertEquals(WikiChecker.FAITHFUL, a.checks().getLast().name(), who);
                    assertEquals(
                            "openai/faithfulness-judge",
                            a.evidence().details().get("judge").asStr());
                    if (who.equals("reference")) {
                        assertEquals(1.0, a.reward(), who);
                        assertEquals(Set.of(), failed(a), who);
                    } else {
                        assertEquals(Set.of("numbers_grounded", "faithful"), failed(a), who);
                        assertEquals(inventedOn.score(), a.reward(), who);
                        assertEquals(
                                inventedOn.details().get("unfaithful_claims"),
                                a.evidence().details().get("unfaithful_claims"));
                    }
                    // Every judge call recorded under its role with the exact request sent, page by page in path order.
                    Map<String, List<Message>> expected = expectedRequests(wiki);
                    List<String> asked = new ArrayList<>();
                    for (Evidence.RecordedCall rc : a.evidence().modelCalls()) {
                        assertEquals("judge", rc.role());
                        ModelCall c = rc.call();
                        List<Message> sent =
                                OpenAiChat.decodeRequest(c.requestBody()).history();
                        String page = WikiJudge.read(sent).path();
                        assertEquals(expected.get(page), sent, page);
                        assertFalse(c.requestBody().contains(KEY));
                        if (c.status() != 200) {
                            failures++;
                            assertEquals(1, c.attempt());
                            assertTrue(c.error().startsWith("HTTP 503"), c.error());
                        } else if (c.attempt() == 2) {
                            assertEquals(page, asked.getLast(), "the retry asks the same page again");
                            continue;
                        } else assertEquals(1, c.attempt());
                        asked.add(page);
                    }
                    assertEquals(List.copyOf(expected.keySet()), asked, who);
                }
            }
            assertEquals(1, failures, "one failed call, retried");
            // The key is sent to the server and nowhere written.
            try (Stream<Path> files = Files.walk(tmp.resolve("j"))) {
                for (Path f : files.filter(Files::isRegularFile).toList())
                    assertFalse(
                            Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1)
                                    .contains(KEY),
                            f.toString());
            }
        }
    }

    @Test
    void aJudgeThatKeepsFailingIsAnInfrastructureFailureNotAScore() throws Exception {
        try (ScriptedModelServer server =
                ScriptedModelServer.start(r -> Reply.json(500, "{\"error\": {\"message\": \"down\"}}"))) {
            ModelRef judge = new ModelRef("openai", "judge", PyDict.of("max_attempts", 2));
            var r = Experiments.run(spec("down", List.of("reference"), judge), tmp.resolve("d"), registry(server));
            assertEquals(0, r.completed(), r.summary());
            assertEquals(1, r.infrastructureFailures(), r.summary());
            assertEquals(2, server.requestCount());
            String first = new TreeMap<>(ReferenceWiki.of(W, Kind.REFERENCE)).firstKey();
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("d"))) {
                Attempt a = store.attempts(true).getFirst();
                assertEquals(Attempt.Status.INFRASTRUCTURE_FAILURE, a.status());
                assertTrue(a.error().startsWith("infrastructure failure: judge: page " + first + ": "), a.error());
                assertTrue(a.error().contains("2 attempts failed"), a.error());
                assertEquals(
                        List.of("judge 1 500", "judge 2 500"),
                        a.evidence().modelCalls().stream()
                                .map(c -> c.role() + " " + c.call().attempt() + " "
                                        + c.call().status())
                                .toList());
                // The candidate wrote its pages: the interaction is kept, only the grade is missing.
                assertNotNull(a.evidence().transcript());
            }
        }
    }

    @Test
    void anUnreadableJudgeAnswerIsARecordedJudgeFailure() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(
                r -> answer(new Message.Assistant("Every claim looks supported to me."), r))) {
            var r = Experiments.run(
                    spec("prose", List.of("reference"), new ModelRef("openai", "judge")),
                    tmp.resolve("p"),
                    registry(server));
            assertEquals(1, r.infrastructureFailures(), r.summary());
            String first = new TreeMap<>(ReferenceWiki.of(W, Kind.REFERENCE)).firstKey();
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("p"))) {
                Attempt a = store.attempts(true).getFirst();
                assertEquals(
                        "infrastructure failure: judge: page " + first
                                + ": the judge's answer is not the JSON object of the format",
                        a.error().substring(0, a.error().indexOf(" (")),
                        a.error());
                assertTrue(a.error().endsWith("it begins: \"Every claim looks supported to me.\""), a.error());
                List<Evidence.RecordedCall> calls = a.evidence().modelCalls();
                assertEquals(1, calls.size());
                assertEquals("judge", calls.getFirst().role());
                assertTrue(calls.getFirst().call().responseBody().contains("Every claim looks supported"));
            }
        }
    }

    /** {@code judge: {..., cache: true}}: a second run of the same judge requests is served from the cache file. */
    @Test
    void theJudgesCallsAreServedFromTheExperimentsCache() throws Exception {
        GoldJudge gold = new GoldJudge(Gold.of(W));
        try (ScriptedModelServer server = ScriptedModelServer.start(
                r -> answer(gold.next(r.chat().history(), List.of()).message(), r))) {
            ModelRef judge = new ModelRef("openai", "judge");
            ExperimentSpec plain = spec("cached", List.of("invented"), judge);
            var cache = new ExperimentSpec.CacheSpec(Set.of(), Set.of("judge"), tmp.resolve("calls.cache"));
            List<Double> rewards = new ArrayList<>();
            List<Boolean> hits = new ArrayList<>();
            for (String dir : List.of("c1", "c2")) {
                ExperimentSpec spec = new ExperimentSpec(
                        plain.name(),
                        plain.domains(),
                        plain.candidates(),
                        1,
                        1,
                        Map.of(),
                        plain.models(),
                        0,
                        Duration.ofSeconds(120),
                        false,
                        cache);
                var r = Experiments.run(spec, tmp.resolve(dir), registry(server));
                assertEquals(1, r.completed(), r.summary());
                try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve(dir))) {
                    Attempt a = store.attempts(true).getFirst();
                    rewards.add(a.reward());
                    hits.add(a.evidence().modelCalls().stream()
                            .allMatch(c -> c.call().cacheHit()));
                    assertEquals(
                            ReferenceWiki.of(W, Kind.INVENTED).size(),
                            a.evidence().modelCalls().size());
                }
            }
            assertEquals(ReferenceWiki.of(W, Kind.INVENTED).size(), server.requestCount(), "asked once, then cached");
            assertEquals(List.of(false, true), hits);
            assertEquals(rewards.get(0), rewards.get(1));
        }
    }

    static Path example() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path f = d.resolve("examples/wiki-judged.yaml");
            if (Files.isRegularFile(f)) return f;
        }
        throw new IllegalStateException("examples/wiki-judged.yaml not found above the working directory");
    }

    /** The experiment file's {@code judge:} turns the tier on; the scripted gold judge needs no model. */
    @Test
    void theExampleFileJudgesWithTheScriptedGoldJudge() {
        ExperimentSpec spec = ExperimentSpec.read(example());
        assertEquals(new ModelRef("scripted", GoldJudge.NAME), spec.models().get("judge"));
        var r = Experiments.run(spec, tmp.resolve("g"), Registry.load());
        assertEquals(2, r.completed(), r.summary());
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("g"))) {
            Map<String, String> labels = new HashMap<>();
            store.cells().forEach(cell -> labels.put(cell.key().agentId(), cell.candidate()));
            for (Attempt a : store.attempts(true)) {
                String who = labels.get(a.agentId());
                assertEquals(TrustTier.DETERMINISTIC, a.trust(), who);
                assertEquals(WikiChecker.FAITHFUL, a.checks().getLast().name(), who);
                assertEquals(List.of(), a.evidence().modelCalls(), "the gold judge calls no model");
                assertTrue(!a.environmentId().equals(WikiJudgeTest.PUBLIC_ID), "the judge is part of the content id");
                // What the report (HTML and %run) shows of the attempt: the claims, and which failed where.
                Exploration.RunReport shown =
                        new WikiBenchmark().exploration().orElseThrow().report(a);
                assertTrue(
                        shown.resultLine().contains(" claims unsupported (judge scripted/gold)"), shown.resultLine());
                Exploration.CheckLine faithful = shown.checks().getLast();
                assertEquals(WikiChecker.FAITHFUL, faithful.name());
                if (who.equals("reference")) {
                    assertEquals(1.0, a.reward());
                    assertEquals(Set.of(), failed(a));
                    assertTrue(shown.resultLine().contains(", 0/"), shown.resultLine());
                    assertEquals("passed", faithful.detail());
                } else {
                    assertEquals(Set.of("numbers_grounded", "faithful"), failed(a));
                    assertTrue(faithful.detail().startsWith("/wiki/"), faithful.detail());
                    assertTrue(faithful.detail().contains(": \"It also counts "), faithful.detail());
                    assertTrue(faithful.detail().contains("(no cited document supports it)"), faithful.detail());
                }
            }
        }
    }
}
