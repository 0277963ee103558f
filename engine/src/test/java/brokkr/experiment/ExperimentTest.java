package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.value.PyDict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentTest {
    private static final double EPS = 1e-12;

    @TempDir
    Path tmp;

    static ExperimentSpec.CandidateSpec candidate(String label, String model, String prompt) {
        return new ExperimentSpec.CandidateSpec(label, new ModelRef("fake", model), "tools", prompt);
    }

    static ExperimentSpec spec(
            String split, int reps, int parallelism, int retries, List<ExperimentSpec.CandidateSpec> cs) {
        return new ExperimentSpec(
                "quiz-test",
                List.of(new ExperimentSpec.DomainSpec("quiz", split, null)),
                cs,
                reps,
                parallelism,
                Map.of(),
                Map.of(),
                retries,
                Duration.ofSeconds(30),
                false);
    }

    static Registry registry(int tasks, QuizBench.Models models) {
        return Registry.of(List.of(new QuizBench(tasks)), List.of(models));
    }

    static Scorecard.CandidateScore row(Scorecard s, String candidate) {
        return s.rows().stream()
                .filter(r -> r.candidate().equals(candidate))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void scorecardMatchesHandComputedValues() {
        var spec = spec(
                "all",
                4,
                8,
                3,
                List.of(
                        candidate("gold", "gold", null),
                        candidate("stop", "stop", null),
                        candidate("flaky", "flaky", null)));
        var r = Experiments.run(spec, tmp.resolve("x"), registry(3, new QuizBench.Models()));
        assertEquals(36, r.cells());
        assertEquals(36, r.completed());
        Scorecard s = r.scorecard();
        assertEquals(0, s.pendingCells());

        var gold = row(s, "gold");
        assertEquals(List.of(1.0, 1.0, 1.0, 1.0), gold.passHatK());
        assertEquals(1.0, gold.avgReward());
        assertEquals(3, gold.tasks());
        assertEquals(12, gold.attempts());

        var stop = row(s, "stop");
        assertEquals(List.of(0.0, 0.0, 0.0, 0.0), stop.passHatK());
        assertEquals(
                new Scorecard.CheckScore("answered", 12, 12), stop.perCheck().get(1));
        assertEquals(
                new Scorecard.CheckScore("setup_verified", 12, 0),
                stop.perCheck().get(0));

        // flaky is wrong when (task + repetition) % 3 == 0: q0 fails r0,r3 (2/4), q1 fails r2 (3/4), q2 fails r1 (3/4).
        var flaky = row(s, "flaky");
        assertEquals(8.0 / 12, flaky.avgReward(), EPS);
        assertEquals(2.0 / 3, flaky.passHatK().get(0), EPS);
        assertEquals((1.0 / 6 + 0.5 + 0.5) / 3, flaky.passHatK().get(1), EPS);
        assertEquals((0 + 0.25 + 0.25) / 3, flaky.passHatK().get(2), EPS);
        assertEquals(0.0, flaky.passHatK().get(3), EPS);
        assertEquals(
                new Scorecard.TaskScore("q0", 4, 2, 0.5, List.of(0.5, 1.0 / 6, 0.0, 0.0)),
                flaky.perTask().get(0));
        assertEquals(
                new Scorecard.CheckScore("correct", 12, 4), flaky.perCheck().get(2));

        // tokens: the candidate's own usage; the fake counts prompt characters in, answer characters out.
        assertEquals(12 * "task q0 repetition 0".length(), gold.cost().inputTokens());

        // What the tables are drawn from (brokkr.magics.ExperimentTables draws them): a row per candidate, pass^1..4, 9
        // task rows.
        assertEquals(3, s.rows().size());
        assertEquals(4, s.maxK());
        assertEquals(1.0, s.rows().get(0).passHatK().get(3));
        assertEquals(9, s.rows().stream().mapToInt(c -> c.perTask().size()).sum());
    }

    /** What a listener hears, in order, as text. */
    static final class Heard implements ProgressListener {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void started(String experiment, int cells, int alreadyDone, int toRun) {
            events.add("started " + experiment + " cells=" + cells + " done=" + alreadyDone + " toRun=" + toRun);
        }

        @Override
        public void attemptFinished(Attempt a) {
            assertTrue(a.id() > 0, "reported once committed, with its id");
            events.add(a.completed() ? "completed" : "failed");
        }

        @Override
        public void finished() {
            events.add("finished");
        }
    }

    @Test
    void progressIsReportedAsAttemptsAreCommitted() {
        var models = new QuizBench.Models(prompt -> prompt.startsWith("task q1 "));
        var spec = spec("all", 2, 2, 1, List.of(candidate("gold", "gold", null)));
        Path dir = tmp.resolve("x");
        Heard first = new Heard();
        var r = Experiments.run(spec, dir, registry(2, models), first);
        assertEquals("started quiz-test cells=4 done=0 toRun=4", first.events.getFirst());
        assertEquals("finished", first.events.getLast());
        assertEquals(
                r.completed(), first.events.stream().filter("completed"::equals).count());
        assertEquals(2, first.events.stream().filter("failed"::equals).count());
        Heard second = new Heard();
        Experiments.run(spec, dir, registry(2, models), second); // resumes: q1's two cells retried once
        assertEquals(
                List.of("started quiz-test cells=4 done=2 toRun=2", "failed", "failed", "finished"), second.events);
        Heard third = new Heard();
        Experiments.run(spec, dir, registry(2, models), third); // out of retries: nothing to run
        assertEquals(List.of("started quiz-test cells=4 done=2 toRun=0", "finished"), third.events);
    }

    @Test
    void rerunningACompleteExperimentRunsNothing() {
        var spec = spec("all", 2, 4, 3, List.of(candidate("gold", "gold", null)));
        var models = new QuizBench.Models();
        Experiments.run(spec, tmp.resolve("x"), registry(3, models));
        int calls = models.calls.get();
        var again = Experiments.run(spec, tmp.resolve("x"), registry(3, models));
        assertEquals(6, again.skipped());
        assertEquals(0, again.ran());
        assertEquals(calls, models.calls.get());
    }

    @Test
    void infrastructureFailuresAreRecordedExcludedAndCompletedOnResume() {
        AtomicBoolean down = new AtomicBoolean(true);
        var models = new QuizBench.Models(prompt -> down.get() && prompt.startsWith("task q1 "));
        var spec = spec("all", 4, 8, 3, List.of(candidate("gold", "gold", null), candidate("flaky", "flaky", null)));
        Path dir = tmp.resolve("x");
        var first = Experiments.run(spec, dir, registry(3, models));
        assertEquals(24, first.ran());
        assertEquals(8, first.infrastructureFailures());
        assertEquals(16, first.completed());
        var gold = row(first.scorecard(), "gold");
        assertEquals(2, gold.tasks()); // q1 has no evaluated attempt
        assertEquals(8, gold.attempts());
        assertEquals(4, gold.infrastructureFailures());
        assertEquals(List.of(1.0, 1.0, 1.0, 1.0), gold.passHatK()); // failures are not model failures
        assertEquals(8, first.scorecard().pendingCells());
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            List<Attempt> failed =
                    store.attempts(true).stream().filter(a -> !a.completed()).toList();
            assertEquals(8, failed.size());
            assertTrue(
                    failed.getFirst().error().contains("HTTP 500"),
                    failed.getFirst().error());
            assertEquals(
                    500,
                    failed.getFirst().evidence().modelCalls().getFirst().call().status());
        }

        down.set(false);
        var second = Experiments.run(spec, dir, registry(3, models));
        assertEquals(16, second.skipped());
        assertEquals(8, second.ran());
        assertEquals(8, second.completed());
        var clean = Experiments.run(spec, tmp.resolve("clean"), registry(3, new QuizBench.Models()));
        assertEquals(
                clean.scorecard().withoutCost(),
                withoutInfra(second.scorecard()).withoutCost());
        assertEquals(4, row(second.scorecard(), "gold").infrastructureFailures()); // still on record
    }

    /** The same scorecard with infrastructure-failure counts zeroed (they are history, not grades). */
    static Scorecard withoutInfra(Scorecard s) {
        return new Scorecard(
                s.rows().stream()
                        .map(r -> new Scorecard.CandidateScore(
                                r.benchmark(),
                                r.candidate(),
                                r.agentId(),
                                r.tasks(),
                                r.attempts(),
                                0,
                                r.avgReward(),
                                r.passHatK(),
                                r.perTask(),
                                r.perCheck(),
                                r.trust(),
                                r.cost()))
                        .toList(),
                s.cells(),
                s.pendingCells());
    }

    @Test
    void infrastructureRetriesStopAfterTheConfiguredNumber() {
        var models = new QuizBench.Models(prompt -> prompt.startsWith("task q0 "));
        var spec = spec("all", 1, 2, 1, List.of(candidate("gold", "gold", null)));
        Path dir = tmp.resolve("x");
        assertEquals(1, Experiments.run(spec, dir, registry(2, models)).infrastructureFailures());
        var second = Experiments.run(spec, dir, registry(2, models));
        assertEquals(1, second.ran()); // the one retry
        assertEquals(1, second.exhausted());
        var third = Experiments.run(spec, dir, registry(2, models));
        assertEquals(0, third.ran()); // out of retries
        assertEquals(1, third.exhausted());
        assertEquals(1, third.scorecard().pendingCells());
    }

    @Test
    void changingASystemPromptMakesNewCellsAndLeavesOtherCandidatesAlone() {
        var models = new QuizBench.Models();
        Path dir = tmp.resolve("x");
        var v1 = spec("all", 2, 4, 3, List.of(candidate("a", "gold", "Be brief."), candidate("b", "flaky", null)));
        var first = Experiments.run(v1, dir, registry(3, models));
        assertEquals(12, first.ran());
        int callsBefore = models.calls.get();

        var v2 = spec("all", 2, 4, 3, List.of(candidate("a", "gold", "Be thorough."), candidate("b", "flaky", null)));
        assertNotEquals(
                v1.candidates().get(0).agentDef().id(),
                v2.candidates().get(0).agentDef().id());
        var second = Experiments.run(v2, dir, registry(3, models));
        assertEquals(6, second.skipped()); // b unchanged
        assertEquals(6, second.ran()); // a's new definition
        assertEquals(callsBefore + 6, models.calls.get());
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            assertEquals(18, store.cells().size());
            assertEquals(
                    12,
                    store.cells().stream().filter(ExperimentStore.Cell::active).count());
            assertEquals(18, store.attempts(false).size());
            assertEquals(12, store.attempts(true).size());
        }
        assertEquals(2, second.scorecard().rows().size());
        assertEquals(second.scorecard(), Experiments.scorecard(dir));
        assertEquals(6, row(second.scorecard(), "a").attempts());

        // A label change alone is not a new definition.
        var renamed =
                spec("all", 2, 4, 3, List.of(candidate("a2", "gold", "Be thorough."), candidate("b", "flaky", null)));
        assertEquals(0, Experiments.run(renamed, dir, registry(3, models)).ran());
    }

    @Test
    void aCellOverItsTimeLimitIsAnInfrastructureFailure() {
        var slow = new ExperimentSpec.CandidateSpec(
                "slow", new ModelRef("fake", "gold", PyDict.of("latency_ms", 5_000)), "tools", null);
        var spec = new ExperimentSpec(
                "t",
                List.of(new ExperimentSpec.DomainSpec("quiz", null, List.of("q0"))),
                List.of(slow),
                1,
                1,
                Map.of(),
                Map.of(),
                0,
                Duration.ofMillis(200),
                false);
        long t0 = System.nanoTime();
        var r = Experiments.run(spec, tmp.resolve("x"), registry(1, new QuizBench.Models()));
        assertTrue(System.nanoTime() - t0 < 4_000_000_000L, "the runner must not wait for the abandoned cell");
        assertEquals(1, r.infrastructureFailures());
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("x"))) {
            assertTrue(store.attempts(true).getFirst().error().startsWith("timeout"));
        }
    }

    @Test
    void providerConcurrencyLimitHoldsAcrossCells() {
        var models = new QuizBench.Models();
        var c = new ExperimentSpec.CandidateSpec(
                "gold", new ModelRef("fake", "gold", PyDict.of("latency_ms", 20)), "tools", null);
        var spec = new ExperimentSpec(
                "t",
                List.of(new ExperimentSpec.DomainSpec("quiz", "all", null)),
                List.of(c),
                4,
                16,
                Map.of("fake", new ExperimentSpec.ProviderLimit(2, 0)),
                Map.of(),
                0,
                Duration.ofSeconds(30),
                false);
        var r = Experiments.run(spec, tmp.resolve("x"), registry(8, models));
        assertEquals(32, r.completed());
        assertTrue(models.maxInFlight.get() <= 2, "max in flight " + models.maxInFlight.get());
    }

    @Test
    void parallelismLimitHolds() {
        var models = new QuizBench.Models();
        var c = new ExperimentSpec.CandidateSpec(
                "gold", new ModelRef("fake", "gold", PyDict.of("latency_ms", 20)), "tools", null);
        var r = Experiments.run(spec("all", 4, 3, 0, List.of(c)), tmp.resolve("x"), registry(8, models));
        assertEquals(32, r.completed());
        assertEquals(3, models.maxInFlight.get());
    }

    @Test
    void aDirectoryIsRunByOneRunnerAtATime() throws Exception {
        Path dir = tmp.resolve("x");
        var slow = new ExperimentSpec.CandidateSpec(
                "slow", new ModelRef("fake", "gold", PyDict.of("latency_ms", 300)), "tools", null);
        var spec = new ExperimentSpec(
                "t",
                List.of(new ExperimentSpec.DomainSpec("quiz", "all", null)),
                List.of(slow),
                1,
                4,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(30),
                false);
        var first = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> Experiments.run(spec, dir, registry(2, new QuizBench.Models())));
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!Files.exists(ExperimentStore.file(dir)) && System.nanoTime() < deadline) Thread.sleep(5);
        Thread.sleep(50);
        var e = assertThrows(
                IllegalStateException.class, () -> Experiments.run(spec, dir, registry(2, new QuizBench.Models())));
        assertTrue(e.getMessage().contains("another process"), e.getMessage());
        assertEquals(2, first.get().completed());
        assertEquals(
                0,
                Experiments.run(spec, dir, registry(2, new QuizBench.Models())).ran()); // released on close
    }

    @Test
    void providerRateLimitSpacesCallStarts() {
        var models = new QuizBench.Models();
        var c = new ExperimentSpec.CandidateSpec("gold", new ModelRef("fake", "gold"), "tools", null);
        var spec = new ExperimentSpec(
                "t",
                List.of(new ExperimentSpec.DomainSpec("quiz", "all", null)),
                List.of(c),
                1,
                10,
                Map.of("fake", new ExperimentSpec.ProviderLimit(0, 20)),
                Map.of(),
                0,
                Duration.ofSeconds(30),
                false);
        long t0 = System.nanoTime();
        var r = Experiments.run(spec, tmp.resolve("x"), registry(6, models));
        assertEquals(6, r.completed());
        // 6 starts at 20 per second: the last may start no earlier than 5 intervals (250 ms) after the first.
        assertTrue(System.nanoTime() - t0 >= 250_000_000L, "rate limit not applied");
    }

    @Test
    void tasksNamedTwiceOrUnknownAreSpecErrors() {
        var dup = new ExperimentSpec(
                "t",
                List.of(new ExperimentSpec.DomainSpec("quiz", null, List.of("q0", "q0"))),
                List.of(candidate("gold", "gold", null)),
                1,
                1,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(30),
                false);
        assertTrue(assertThrows(
                        ExperimentSpec.SpecException.class,
                        () -> Experiments.run(dup, tmp.resolve("x"), registry(2, new QuizBench.Models())))
                .getMessage()
                .contains("named twice"));
        var unknown = new ExperimentSpec(
                "t",
                List.of(new ExperimentSpec.DomainSpec("quiz", null, List.of("q7"))),
                List.of(candidate("gold", "gold", null)),
                1,
                1,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(30),
                false);
        assertTrue(assertThrows(
                        ExperimentSpec.SpecException.class,
                        () -> Experiments.run(unknown, tmp.resolve("x"), registry(2, new QuizBench.Models())))
                .getMessage()
                .contains("unknown task q7"));
        assertThrows(
                ExperimentSpec.SpecException.class,
                () -> Experiments.run(
                        spec("nosuchsplit", 1, 1, 0, List.of(candidate("gold", "gold", null))),
                        tmp.resolve("x"),
                        registry(2, new QuizBench.Models())));
    }

    @Test
    void scriptedCandidatesComeFromTheBenchmarkPerTask() {
        var oracle = new ExperimentSpec.CandidateSpec("oracle", new ModelRef("scripted", "oracle"), "tools", null);
        var r = Experiments.run(
                spec("all", 2, 2, 0, List.of(oracle)), tmp.resolve("x"), registry(3, new QuizBench.Models()));
        assertEquals(List.of(1.0, 1.0), row(r.scorecard(), "oracle").passHatK());
        var unknown = new ExperimentSpec.CandidateSpec("who", new ModelRef("scripted", "who"), "tools", null);
        var e = assertThrows(
                ExperimentSpec.SpecException.class,
                () -> Experiments.run(
                        spec("all", 1, 1, 0, List.of(unknown)), tmp.resolve("y"), registry(3, new QuizBench.Models())));
        assertTrue(e.getMessage().contains("no scripted agent 'who'"), e.getMessage());
        var named = new brokkr.eval.ModelFactory() {
            @Override
            public String provider() {
                return "scripted";
            }

            @Override
            public brokkr.conversation.Candidate create(ModelRef m) {
                return null;
            }
        };
        assertThrows(IllegalArgumentException.class, () -> Registry.of(List.of(), List.of(named)));
    }

    @Test
    void aProtocolCanAskForPerRunRequestOptions() {
        var models = new QuizBench.Models();
        var seeded = new ExperimentSpec.CandidateSpec(
                "seeded", new ModelRef("fake", "gold", PyDict.of("seeded", true)), "tools", null);
        var r = Experiments.run(spec("all", 3, 2, 0, List.of(seeded)), tmp.resolve("x"), registry(2, models));
        assertEquals(6, r.completed());
        assertEquals(1.0, row(r.scorecard(), "seeded").avgReward());
        for (int rep = 0; rep < 3; rep++) {
            assertTrue(
                    models.created.contains(new ModelRef("fake", "gold", PyDict.of("seeded", true, "seed", rep))),
                    "seed " + rep);
        }
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("x"))) {
            for (Attempt a : store.attempts(true))
                assertEquals(1, a.evidence().modelCalls().size(), "recorded under the agent role");
        }
    }

    @Test
    void definitionsAreContentAddressed() {
        var bench = new QuizBench(3);
        EnvironmentDef plain = bench.environment("q1", Map.of());
        assertEquals(plain.id(), bench.environment("q1", Map.of()).id());
        assertNotEquals(plain.id(), bench.environment("q2", Map.of()).id());
        EnvironmentDef judged = bench.environment("q1", Map.of("judge", new ModelRef("openai", "gpt-4.1")));
        assertNotEquals(plain.id(), judged.id());
        assertNotEquals(
                judged.id(),
                bench.environment("q1", Map.of("judge", new ModelRef("openai", "gpt-4o")))
                        .id());
        assertEquals(judged, EnvironmentDef.fromValue(judged.toValue()));
        assertFalse(
                brokkr.eval.ContentHash.canonicalJson(plain.toValue()).contains("ans-q1"),
                "private data stays in the provider");

        AgentDef a = AgentDef.of(new ModelRef("openai", "gpt-4.1"), "tools", "You are helpful.");
        assertEquals(
                a.id(),
                AgentDef.of(new ModelRef("openai", "gpt-4.1"), "tools", "You are helpful.")
                        .id());
        assertNotEquals(
                a.id(),
                AgentDef.of(new ModelRef("openai", "gpt-4.1"), "repl", "You are helpful.")
                        .id());
        assertNotEquals(
                a.id(),
                AgentDef.of(
                                new ModelRef("openai", "gpt-4.1", PyDict.of("temperature", 0.0)),
                                "tools",
                                "You are helpful.")
                        .id());
        assertNotEquals(
                a.id(),
                AgentDef.of(new ModelRef("openai", "gpt-4.1"), "tools", "You are helpful!")
                        .id());
        assertEquals(a, AgentDef.fromValue(a.toValue()));
        assertEquals(64, a.id().length());
    }

    @Test
    void inspectListsAttemptsAndPrintsTranscripts() {
        Path dir = tmp.resolve("x");
        Experiments.run(
                spec("all", 1, 2, 0, List.of(candidate("stop", "stop", null), candidate("gold", "gold", null))),
                dir,
                registry(2, new QuizBench.Models()));
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            assertEquals(4, Inspect.attempts(store, false).size());
            assertEquals(
                    2,
                    row(Scorecard.of(store), "stop").perCheck().stream()
                            .filter(c -> c.failed() == 2)
                            .count());
            long goldId = store.attempts(true).stream()
                    .filter(Attempt::success)
                    .findFirst()
                    .orElseThrow()
                    .id();
            String t = Inspect.transcript(store, goldId);
            assertTrue(t.contains("[user] task q"), t);
            assertTrue(t.contains("\n    -> answer({\"value\": \"ans-q"), t);
            assertTrue(t.contains("\n  pass correct\n"), t);
            assertThrows(IllegalArgumentException.class, () -> Inspect.transcript(store, 9999));

            // verify-world: every attempt's replay reproduces its recorded final world ...
            Registry reg = registry(2, new QuizBench.Models());
            for (Attempt a : store.attempts(true)) {
                Inspect.WorldCheck w = Inspect.verifyWorld(store, reg, a.id());
                assertTrue(w.matches(), w.toString());
            }
            // ... and a record whose transcript was altered does not.
            Attempt gold = store.attempt(goldId).orElseThrow();
            Evidence e = gold.evidence();
            String tampered = brokkr.python.PyJson.dumps(e.transcript()).replace("ans-q", "forged-q");
            Evidence forged = new Evidence(
                    e.setup(),
                    brokkr.value.Json.parse(tampered),
                    e.output(),
                    e.termination(),
                    e.finalWorldSha256(),
                    e.modelCalls(),
                    e.usage(),
                    e.timings(),
                    e.details());
            var env = store.environment(gold.environmentId()).orElseThrow();
            assertNotEquals(
                    e.finalWorldSha256(),
                    brokkr.world.WorldHash.sha256(
                            new QuizBench(2).worldReplay().orElseThrow().replay(env, forged), true));
        }
    }

    @Test
    void experimentFilesInYamlAndJsonGiveTheSameSpec() throws Exception {
        Files.writeString(tmp.resolve("prompt.txt"), "Be brief.");
        Path yaml = tmp.resolve("exp.yaml");
        Files.writeString(yaml, """
                name: quiz-cmp
                domain: quiz
                tasks: [q0, q1]
                candidates:
                  - id: gold
                    provider: fake
                    model: gold
                    system_prompt_file: prompt.txt
                    options: {temperature: 0.0}
                  - {id: stop, provider: fake, model: stop, action_space: tools}
                repetitions: 3
                parallelism: 5
                providers:
                  fake: {concurrency: 2, rate_per_second: 10}
                judge: {provider: fake, model: gold}
                max_infra_retries: 2
                cell_timeout_seconds: 60
                progress: false
                """);
        Path json = tmp.resolve("exp.json");
        Files.writeString(json, """
                {"name": "quiz-cmp", "domains": [{"name": "quiz", "tasks": ["q0", "q1"]}],
                 "candidates": [{"id": "gold", "provider": "fake", "model": "gold", "system_prompt": "Be brief.", "options": {"temperature": 0.0}},
                                {"id": "stop", "provider": "fake", "model": "stop", "action_space": "tools"}],
                 "repetitions": 3, "parallelism": 5, "providers": {"fake": {"concurrency": 2, "rate_per_second": 10}},
                 "models": {"judge": {"provider": "fake", "model": "gold"}}, "max_infra_retries": 2, "cell_timeout_seconds": 60,
                 "progress": false}
                """);
        ExperimentSpec a = ExperimentSpec.read(yaml), b = ExperimentSpec.read(json);
        assertEquals(a, b);
        assertEquals(3, a.repetitions());
        assertEquals(new ExperimentSpec.ProviderLimit(2, 10), a.providerLimits().get("fake"));
        assertEquals("Be brief.", a.candidates().get(0).systemPrompt());
        assertEquals(
                "tools",
                a.candidates().get(1).actionSpace()); // quiz hosts no REPL: a repl candidate is refused (PlannerTest)
        assertEquals(new ModelRef("fake", "gold"), a.models().get("judge"));

        var r = Experiments.run(a, tmp.resolve("run"), registry(2, new QuizBench.Models()));
        assertEquals(12, r.completed());
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("run"))) {
            EnvironmentDef env = store.environment(
                            store.attempts(true).getFirst().environmentId())
                    .orElseThrow();
            assertEquals(new ModelRef("fake", "gold"), env.models().get("judge"));
            assertTrue(store.experiment().orElseThrow().getValue().contains("quiz-cmp"));
        }
    }

    @Test
    void badExperimentFilesAreRejectedWithTheReason() throws Exception {
        Path f = tmp.resolve("bad.yaml");
        Files.writeString(
                f, "domain: quiz\nsplit: all\nrepetition: 3\ncandidates: [{id: g, provider: fake, model: gold}]\n");
        var e = assertThrows(ExperimentSpec.SpecException.class, () -> ExperimentSpec.read(f));
        assertTrue(e.getMessage().contains("repetition"), e.getMessage());
        Files.writeString(
                f, "domain: quiz\nsplit: all\ntasks: [q1]\ncandidates: [{id: g, provider: fake, model: gold}]\n");
        assertThrows(ExperimentSpec.SpecException.class, () -> ExperimentSpec.read(f));
        Files.writeString(
                f,
                "domain: quiz\nsplit: all\ncandidates: [{id: g, provider: fake, model: gold}, {id: h, provider: fake, model: gold}]\n");
        assertTrue(assertThrows(ExperimentSpec.SpecException.class, () -> ExperimentSpec.read(f))
                .getMessage()
                .contains("same definition"));
        Files.writeString(f, "domain: nope\nsplit: all\ncandidates: [{id: g, provider: fake, model: gold}]\n");
        var spec = ExperimentSpec.read(f);
        assertThrows(
                ExperimentSpec.SpecException.class,
                () -> Experiments.run(spec, tmp.resolve("y"), registry(1, new QuizBench.Models())));
        assertFalse(Files.exists(tmp.resolve("y")), "nothing is created for a spec that cannot run");
    }
}
