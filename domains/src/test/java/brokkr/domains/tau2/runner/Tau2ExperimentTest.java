package brokkr.domains.tau2.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Turn;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.retail.RetailBenchmark;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.eval.Attempt;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.eval.TrustTier;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.ExperimentStore;
import brokkr.experiment.Experiments;
import brokkr.experiment.Inspect;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.experiment.Scorecard;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** tau2 retail on the experiment path: the scripted gold and stop-at-once candidates, world replay, infrastructure failures. */
class Tau2ExperimentTest {
    @TempDir
    Path tmp;

    static final ExperimentSpec.CandidateSpec GOLD =
            new ExperimentSpec.CandidateSpec("gold", new ModelRef("scripted", "gold"), "tools", null);
    static final ExperimentSpec.CandidateSpec STOP =
            new ExperimentSpec.CandidateSpec("stop-at-once", new ModelRef("scripted", "stop"), "tools", null);

    /**
     * Test-split tasks on which stopping at once scores 1 in upstream's grader too: the gold actions
     * leave the DB unchanged and the task has no NL assertions (of retail's 10, 12, 25, 50, 57, 65,
     * these two are in the test split; 62 and 68 leave the DB unchanged but have assertions).
     */
    static final Set<String> STOP_PASSES = Set.of("12", "65");

    static ExperimentSpec spec(
            String name,
            List<ExperimentSpec.DomainSpec> domains,
            List<ExperimentSpec.CandidateSpec> cands,
            int reps,
            Map<String, ModelRef> models,
            int retries) {
        return new ExperimentSpec(
                name, domains, cands, reps, 4, Map.of(), models, retries, Duration.ofSeconds(120), false);
    }

    static Scorecard.CandidateScore row(Scorecard s, String cand) {
        return s.rows().stream()
                .filter(r -> r.candidate().equals(cand))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void oneProviderPerTau2Domain() {
        Registry r = Registry.load();
        for (String d : Tau2Domains.names()) assertTrue(r.benchmarks().get("tau2-" + d) instanceof Tau2Benchmark, d);
        assertEquals(List.of("airline", "banking_knowledge", "retail", "telecom"), Tau2Domains.names());
    }

    @Test
    void theEnvironmentDefNamesTheTaskNotItsGold() {
        Tau2Benchmark b = new RetailBenchmark();
        EnvironmentDef env = b.environment("5", Map.of());
        String json = PyJson.dumps(env.toValue());
        assertEquals("a2c024725189473d2d7cea3a5cfdbcc67478e41f", env.upstreamRevision());
        assertEquals(
                "413a65160adbdb5fde0ffc0015c49b6d70250b10c18128de169b597af7766765",
                env.dataDigests().get("data/tau2/domains/retail/db.json"));
        assertEquals(6, env.dataDigests().size());
        assertEquals(Tau2Benchmark.DEFAULT_USER, env.models().get("user"));
        assertEquals(Tau2Benchmark.DEFAULT_JUDGE, env.models().get("judge"));
        TaskSpec task = Tau2Domains.load("retail").task("5");
        for (var a : task.criteria().actionsOrEmpty()) assertFalse(json.contains(a.name()), a.name());
        ModelRef judge = new ModelRef("openai", "gpt-4.1");
        assertFalse(
                env.id().equals(b.environment("5", Map.of("judge", judge)).id()),
                "another judge is another environment");
        assertEquals(40, b.tasks("test").size());
    }

    /** The orchestrator's settings are EnvironmentDef options over upstream's defaults; the defaults keep earlier definitions' ids. */
    @Test
    void environmentOptionsOverUpstreamsDefaults() {
        Tau2Benchmark b = new RetailBenchmark();
        EnvironmentDef plain = b.environment("5", Map.of());
        assertEquals(
                PyDict.of("max_steps", 200, "max_errors", 10, "enforce_communication_protocol", false, "run_seed", 300),
                plain.options());
        assertEquals(plain.id(), b.environment("5", Map.of(), PyDict.empty()).id());
        assertEquals(
                plain.id(),
                b.environment("5", Map.of(), PyDict.of("max_steps", 200, "run_seed", 300, "agent_stop_token", false))
                        .id(),
                "upstream's defaults given explicitly are the same definition");
        EnvironmentDef set = b.environment(
                "5",
                Map.of(),
                PyDict.of(
                        "max_steps",
                        50,
                        "enforce_communication_protocol",
                        true,
                        "run_seed",
                        7,
                        "agent_stop_token",
                        true));
        assertEquals(
                PyDict.of(
                        "max_steps",
                        50,
                        "max_errors",
                        10,
                        "enforce_communication_protocol",
                        true,
                        "run_seed",
                        7,
                        "agent_stop_token",
                        true),
                set.options());
        assertFalse(set.id().equals(plain.id()));
        for (PyDict bad : List.of(
                PyDict.of("max_step", 5),
                PyDict.of("max_steps", 0),
                PyDict.of("max_errors", 2.5),
                PyDict.of("run_seed", "300"),
                PyDict.of("agent_stop_token", "yes"))) {
            var e = org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalArgumentException.class, () -> b.environment("5", Map.of(), bad));
            assertTrue(
                    e.getMessage().startsWith("unknown option 'max_step'")
                            || e.getMessage().startsWith("option "),
                    e.getMessage());
        }
    }

    /** An experiment file's domain options reach every task's definition: three steps end the gold replay early. */
    @Test
    void domainOptionsInAnExperimentFile() throws Exception {
        Path file = tmp.resolve("options.yaml");
        java.nio.file.Files.writeString(file, """
                name: options
                domains:
                  - {name: tau2-retail, tasks: ["5"], options: {max_steps: 3}}
                  - {name: tau2-retail, tasks: ["5"]}
                candidates:
                  - {id: gold, provider: scripted, model: gold}
                progress: false
                """);
        ExperimentSpec spec = ExperimentSpec.read(file);
        assertEquals(PyDict.of("max_steps", 3), spec.domains().getFirst().options());
        assertTrue(spec.toJson().contains("\"options\": {\"max_steps\": 3}"), spec.toJson());
        var r = Experiments.run(spec, tmp.resolve("options"), Registry.load());
        assertEquals(2, r.completed(), r.summary());
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("options"))) {
            List<String> terminations = store.attempts(true).stream()
                    .map(a -> a.evidence().termination())
                    .sorted()
                    .toList();
            assertEquals(List.of("agent_stop", "max_steps"), terminations);
        }
        var dup = tmp.resolve("top.yaml");
        java.nio.file.Files.writeString(
                dup,
                "name: x\ndomains: [{name: tau2-retail, tasks: [\"5\"]}]\noptions: {max_steps: 3}\ncandidates: [{id: g, provider: scripted, model: gold}]\n");
        var e = org.junit.jupiter.api.Assertions.assertThrows(
                ExperimentSpec.SpecException.class, () -> ExperimentSpec.read(dup));
        assertTrue(e.getMessage().contains("go with 'domain'"), e.getMessage());
    }

    /** The acceptance experiment: retail test x {gold, stop-at-once} x 4 repetitions. */
    @Test
    void retailTestGoldVersusStopAtOnce() throws Exception {
        var spec = spec(
                "retail",
                List.of(new ExperimentSpec.DomainSpec("tau2-retail", "test", null)),
                List.of(GOLD, STOP),
                4,
                Map.of(),
                0);
        Path dir = tmp.resolve("retail");
        long t0 = System.nanoTime();
        var r = Experiments.run(spec, dir, Registry.load());
        System.out.printf("retail test x {gold, stop} x 4: %s (%.1f s)%n", r.summary(), (System.nanoTime() - t0) / 1e9);
        assertEquals(320, r.completed(), r.summary());
        assertEquals(0, r.infrastructureFailures());

        Scorecard.CandidateScore gold = row(r.scorecard(), "gold");
        assertEquals(40, gold.tasks());
        assertEquals(160, gold.attempts());
        assertEquals(1.0, gold.avgReward());
        assertEquals(List.of(1.0, 1.0, 1.0, 1.0), gold.passHatK());
        for (var c : gold.perCheck()) assertEquals(0, c.failed(), c.toString());
        assertEquals(
                List.of("setup_verified", "terminated_normally", "db", "nl_assertion"),
                gold.perCheck().stream().map(Scorecard.CheckScore::check).toList());
        // The 11 test tasks with NL assertions were judged by the known verdict: self-reported, not observed.
        assertEquals(Map.of(TrustTier.DETERMINISTIC, 116, TrustTier.SELF_REPORTED, 44), gold.trust());

        Scorecard.CandidateScore stop = row(r.scorecard(), "stop-at-once");
        assertEquals(160, stop.attempts());
        assertEquals(0.05, stop.avgReward(), 1e-12);
        assertEquals(4, stop.passHatK().size());
        for (double p : stop.passHatK()) assertEquals(0.05, p, 1e-12);
        for (Scorecard.TaskScore t : stop.perTask()) {
            double expected = STOP_PASSES.contains(t.taskId()) ? 1.0 : 0.0;
            assertEquals(expected, t.avgReward(), t.taskId());
            assertEquals(4, t.trials());
        }
        assertEquals(40, stop.perTask().size());
        // DB: fails on the 36 test tasks whose gold actions write; NL: 39 tasks have it in the basis (33 is DB only),
        // 11 assertions unmet.
        assertEquals(
                List.of(
                        new Scorecard.CheckScore("setup_verified", 160, 0),
                        new Scorecard.CheckScore("terminated_normally", 160, 0),
                        new Scorecard.CheckScore("db", 160, 144),
                        new Scorecard.CheckScore("nl_assertion", 156, 44)),
                stop.perCheck());

        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            List<Attempt> attempts = store.attempts(true);
            Registry registry = Registry.load();
            long writing = 0;
            for (Attempt a : attempts) {
                assertTrue(Inspect.verifyWorld(store, registry, a.id()).matches(), "attempt " + a.id());
                if (!a.evidence().finalWorldSha256().equals(initialWorld(a))) writing++;
            }
            assertEquals(
                    36 * 4,
                    writing,
                    "the gold candidate's writes changed the world on the 36 writing tasks; stop's never");
            // The record keeps every tool call with its result.
            Attempt goldFive = attempts.stream()
                    .filter(a -> a.taskId().equals("5")
                            && a.evidence().transcript().asList().size() > 3)
                    .findFirst()
                    .orElseThrow();
            String t = Inspect.transcript(store, goldFive.id());
            assertTrue(t.contains("\n    -> find_user_id_by_name_zip({"), t);
            assertTrue(t.contains("[tool find_user_id_by_name_zip]"), t);
            assertEquals("agent_stop", goldFive.evidence().termination());
            // Graded from the record: upstream's diagnostics outside retail's basis (ACTION, COMMUNICATE) hold for gold
            // too,
            // so tool-call names, arguments and texts survive the transcript's round trip.
            for (Attempt a : attempts) {
                if (!a.agentId().equals(GOLD.agentDef().id())) continue;
                PyDict checks = a.evidence()
                        .details()
                        .get("grade")
                        .asDict()
                        .get("checks")
                        .asDict();
                for (var e : checks.entries())
                    assertEquals(brokkr.value.PyBool.TRUE, e.getValue(), a.taskId() + " " + e.getKey());
            }
        }

        // A tampered record (its write calls removed from the transcript) no longer reproduces its world.
        long tampered;
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            Attempt a = store.attempts(true).stream()
                    .filter(x -> !x.evidence().finalWorldSha256().equals(initialWorld(x)))
                    .findFirst()
                    .orElseThrow();
            tampered = a.id();
            Evidence e = a.evidence();
            List<Value> kept = new ArrayList<>();
            for (Value m : e.transcript().asList()) {
                PyDict d = m.asDict();
                if (d.get("role").asStr().equals("assistant")
                        && !d.get("tool_calls").isNone()) continue; // upstream's shape: null without calls
                if (d.get("role").asStr().equals("tool")) continue;
                kept.add(m);
            }
            Evidence forged = new Evidence(
                    e.setup(),
                    PyList.of(kept),
                    e.output(),
                    e.termination(),
                    e.finalWorldSha256(),
                    e.modelCalls(),
                    e.usage(),
                    e.timings(),
                    e.details());
            try (var c = DriverManager.getConnection("jdbc:sqlite:" + ExperimentStore.file(dir));
                    var ps = c.prepareStatement("UPDATE attempt SET evidence_json = ? WHERE id = ?")) {
                ps.setString(1, PyJson.dumps(forged.toValue()));
                ps.setLong(2, tampered);
                assertEquals(1, ps.executeUpdate());
            }
        }
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            Inspect.WorldCheck w = Inspect.verifyWorld(store, Registry.load(), tampered);
            assertFalse(w.matches());
            assertEquals(initialWorldOf(store.attempt(tampered).orElseThrow()), w.replayed());
        }
    }

    /**
     * A transcript stored in the shape attempts had before it followed upstream's field names
     * ({@code tool_call_id}, {@code tool_calls: []}, calls without requestor) still replays to its world.
     */
    @Test
    void aTranscriptInTheEarlierShapeStillReplays() throws Exception {
        var spec = spec(
                "earlier",
                List.of(new ExperimentSpec.DomainSpec("tau2-retail", null, List.of("5"))),
                List.of(GOLD),
                1,
                Map.of(),
                0);
        Path dir = tmp.resolve("earlier");
        assertEquals(1, Experiments.run(spec, dir, Registry.load()).completed());
        long id;
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            Attempt a = store.attempts(true).getFirst();
            id = a.id();
            assertFalse(a.evidence().finalWorldSha256().equals(initialWorld(a)), "task 5's gold actions write");
            List<Value> earlier = new ArrayList<>();
            for (Value m : a.evidence().transcript().asList()) {
                PyDict d = m.asDict();
                if (d.get("role").asStr().equals("tool")) {
                    earlier.add(d.without("id").with("tool_call_id", d.get("id")));
                } else {
                    List<Value> calls = new ArrayList<>();
                    if (!d.get("tool_calls").isNone())
                        for (Value c : d.get("tool_calls").asList())
                            calls.add(c.asDict().without("requestor"));
                    earlier.add(d.with("tool_calls", PyList.of(calls)));
                }
            }
            Evidence e = a.evidence();
            Evidence stored = new Evidence(
                    e.setup(),
                    PyList.of(earlier),
                    e.output(),
                    e.termination(),
                    e.finalWorldSha256(),
                    e.modelCalls(),
                    e.usage(),
                    e.timings(),
                    e.details());
            try (var c = DriverManager.getConnection("jdbc:sqlite:" + ExperimentStore.file(dir));
                    var ps = c.prepareStatement("UPDATE attempt SET evidence_json = ? WHERE id = ?")) {
                ps.setString(1, PyJson.dumps(stored.toValue()));
                ps.setLong(2, id);
                assertEquals(1, ps.executeUpdate());
            }
        }
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            assertTrue(
                    store.attempt(id).orElseThrow().evidence().transcript().asList().stream()
                            .anyMatch(m -> m.asDict().containsKey("tool_call_id")),
                    "the record is in the earlier shape");
            assertTrue(Inspect.verifyWorld(store, Registry.load(), id).matches());
        }
    }

    private static String initialWorld(Attempt a) {
        return a.evidence().setup().get("initial_db_hash").asStr();
    }

    private static String initialWorldOf(Attempt a) {
        return initialWorld(a);
    }

    /**
     * The user simulator behind an OpenAI-compatible server (the scripted customer, found by the task's
     * user prompt) answering 500 for one task: those cells are infrastructure failures, with the request
     * recorded, excluded from the scorecard, and completed on the next run.
     */
    @Test
    void aUserSimulatorFailingWith500sGivesInfrastructureFailuresCompletedOnResume() throws Exception {
        Tau2Domain retail = Tau2Domains.load("retail");
        List<String> ids = List.of("5", "12", "62");
        Map<String, TaskSpec> byPrompt = new HashMap<>();
        for (String id : ids) byPrompt.put(retail.userSystemPrompt().apply(retail.task(id)), retail.task(id));
        AtomicBoolean broken = new AtomicBoolean(true);
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> {
            DecodedRequest d = req.chat();
            TaskSpec task = byPrompt.get(d.history().getFirst().content());
            if (task == null) return Reply.json(400, "{\"error\": {\"message\": \"unknown user prompt\"}}");
            if (broken.get() && task.id().equals("5"))
                return Reply.json(500, "{\"error\": {\"message\": \"overloaded\", \"type\": \"server_error\"}}");
            Turn t = new ScriptedUser(task).next(d.history(), d.tools());
            return Reply.json(OpenAiChat.encodeResponse(t.message(), d.model(), "chatcmpl-" + req.index()));
        })) {
            Registry registry =
                    Registry.load().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
            ModelRef user =
                    new ModelRef("openai", "scripted-customer", PyDict.of("max_attempts", 1, "temperature", 0.0));
            var spec = spec(
                    "http",
                    List.of(new ExperimentSpec.DomainSpec("tau2-retail", null, ids)),
                    List.of(GOLD, STOP),
                    2,
                    Map.of("user", user),
                    3);
            Path dir = tmp.resolve("http");

            var first = Experiments.run(spec, dir, registry);
            assertEquals(4, first.infrastructureFailures(), first.summary());
            assertEquals(8, first.completed());
            assertEquals(
                    8,
                    first.scorecard().rows().stream()
                            .mapToInt(Scorecard.CandidateScore::attempts)
                            .sum());
            assertEquals(2, row(first.scorecard(), "gold").tasks(), "task 5 has no completed attempt yet");
            try (ExperimentQuery store = ExperimentQuery.open(dir)) {
                for (Attempt a : store.attempts(true)) {
                    if (a.completed()) continue;
                    assertEquals("5", a.taskId());
                    assertTrue(
                            a.error()
                                    .startsWith("infrastructure failure: tau2 episode ended with infrastructure_error"),
                            a.error());
                    // The conversation up to the failed call is kept: the greeting, nothing from the user.
                    assertEquals("infrastructure_error", a.evidence().termination());
                    assertEquals(1, a.evidence().transcript().asList().size());
                    var calls = a.evidence().modelCalls();
                    assertEquals(1, calls.size());
                    assertEquals("user", calls.getFirst().role());
                    assertEquals(500, calls.getFirst().call().status());
                    long seed = ((PyInt) brokkr.value.Json.parse(
                                            calls.getFirst().call().requestBody())
                                    .asDict()
                                    .get("seed"))
                            .longValue();
                    assertEquals(
                            TrialSeeds.of(300, 2)[a.repetition()],
                            seed,
                            "upstream's per-trial seed goes to the user simulator");
                }
            }

            broken.set(false);
            var second = Experiments.run(spec, dir, registry);
            assertEquals(4, second.ran());
            assertEquals(4, second.completed());
            Scorecard s = second.scorecard();
            assertEquals(List.of(1.0, 1.0), row(s, "gold").passHatK());
            assertEquals(
                    4,
                    row(s, "gold").infrastructureFailures()
                            + row(s, "stop-at-once").infrastructureFailures());
            List<Double> stop = row(s, "stop-at-once").passHatK();
            assertEquals(2, stop.size());
            for (double p : stop) assertEquals(1.0 / 3, p, 1e-12); // only task 12 needs nothing done
            var third = Experiments.run(spec, dir, registry);
            assertEquals(0, third.ran());
        }
    }

    /**
     * Every role a model behind an OpenAI-compatible server: the agent (the gold replay, found by the
     * customer's opening request), the customer (found by its prompt) and the NL judge (upstream's
     * prompt; it finds the promised facts in the conversation). The agent is upstream's LLMAgent, which
     * does not stop on ###STOP###: the customer ends the episode.
     */
    @Test
    void aModelAgentUserAndJudgeOverHttp() throws Exception {
        Tau2Domain retail = Tau2Domains.load("retail");
        List<String> ids = List.of("5", "62");
        Map<String, TaskSpec> byPrompt = new HashMap<>(), byRequest = new HashMap<>();
        for (String id : ids) {
            byPrompt.put(retail.userSystemPrompt().apply(retail.task(id)), retail.task(id));
            byRequest.put(retail.task(id).requestText(), retail.task(id));
        }
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> {
            DecodedRequest d = req.chat();
            String system = d.history().getFirst().content();
            Turn t;
            if (system.equals(brokkr.domains.tau2.evaluator.ModelNlJudge.SYSTEM_PROMPT)) {
                String prompt = d.history().get(1).content();
                TaskSpec task = byRequest.entrySet().stream()
                        .filter(e -> prompt.contains(e.getKey()))
                        .findFirst()
                        .orElseThrow()
                        .getValue();
                List<Value> results = new ArrayList<>();
                for (String a : task.criteria().nlAssertions()) {
                    results.add(PyDict.of(
                            "expectedOutcome",
                            a,
                            "reasoning",
                            "checked",
                            "metExpectation",
                            brokkr.value.PyBool.of(prompt.contains("302.67"))));
                }
                t = Turn.of(new brokkr.conversation.Message.Assistant(
                        PyJson.dumps(PyDict.of("results", PyList.of(results)))));
            } else if (!d.tools().isEmpty()) {
                TaskSpec task = byRequest.get(d.history().get(2).content());
                t = new brokkr.domains.tau2.agent.GoldReplayAgent(task).next(d.history(), d.tools());
            } else {
                t = new ScriptedUser(byPrompt.get(system)).next(d.history(), d.tools());
            }
            return Reply.json(OpenAiChat.encodeResponse(t.message(), d.model(), "chatcmpl-" + req.index()));
        })) {
            Registry registry =
                    Registry.load().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
            var agent = new ExperimentSpec.CandidateSpec(
                    "gold-over-http",
                    new ModelRef("openai", "gold-agent", PyDict.of("temperature", 0.0)),
                    "tools",
                    null);
            var spec = spec(
                    "models",
                    List.of(new ExperimentSpec.DomainSpec("tau2-retail", null, ids)),
                    List.of(agent),
                    1,
                    Map.of("user", new ModelRef("openai", "customer"), "judge", new ModelRef("openai", "judge")),
                    0);
            var r = Experiments.run(spec, tmp.resolve("models"), registry);
            assertEquals(2, r.completed(), r.summary());
            assertEquals(List.of(1.0), r.scorecard().rows().getFirst().passHatK());
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("models"))) {
                for (Attempt a : store.attempts(true)) {
                    assertEquals("user_stop", a.evidence().termination(), a.taskId());
                    assertTrue(Inspect.verifyWorld(store, registry, a.id()).matches());
                    var roles = a.evidence().modelCalls().stream()
                            .map(Evidence.RecordedCall::role)
                            .distinct()
                            .sorted()
                            .toList();
                    if (a.taskId().equals("62")) {
                        assertEquals(TrustTier.MODEL_JUDGED, a.trust());
                        assertEquals(List.of("agent", "judge", "user"), roles);
                    } else {
                        assertEquals(TrustTier.DETERMINISTIC, a.trust());
                        assertEquals(List.of("agent", "user"), roles);
                    }
                    var first = a.evidence().modelCalls().getFirst().call();
                    PyDict body = brokkr.value.Json.parse(first.requestBody()).asDict();
                    assertEquals(TrialSeeds.of(300, 1)[0], ((PyInt) body.get("seed")).longValue());
                }
            }
        }
    }

    /** A judge answer upstream cannot parse ends grading: an infrastructure failure with the judge's call recorded, not a loss. */
    @Test
    void anUnparsableJudgeAnswerIsAnInfrastructureFailure() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> Reply.json(OpenAiChat.encodeResponse(
                new brokkr.conversation.Message.Assistant("All met, I think."),
                req.chat().model(),
                "chatcmpl-" + req.index())))) {
            Registry registry =
                    Registry.load().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
            var spec = spec(
                    "judge",
                    List.of(new ExperimentSpec.DomainSpec("tau2-retail", null, List.of("62"))),
                    List.of(GOLD),
                    1,
                    Map.of("judge", new ModelRef("openai", "judge")),
                    0);
            var r = Experiments.run(spec, tmp.resolve("judge"), registry);
            assertEquals(1, r.infrastructureFailures(), r.summary());
            try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("judge"))) {
                Attempt a = store.attempts(true).getFirst();
                assertTrue(a.error().startsWith("infrastructure failure: judge: judge answer is not JSON"), a.error());
                assertEquals(
                        List.of("judge"),
                        a.evidence().modelCalls().stream()
                                .map(Evidence.RecordedCall::role)
                                .toList());
            }
        }
    }

    @Test
    void aModelCandidateOppositeTheScriptedUserIsRefusedNotScored() {
        brokkr.eval.ModelFactory silent = new brokkr.eval.ModelFactory() {
            @Override
            public String provider() {
                return "silent";
            }

            @Override
            public brokkr.conversation.Candidate create(ModelRef m) {
                return (h, t) -> Turn.of(new brokkr.conversation.Message.Assistant("hello"));
            }
        };
        var cand = new ExperimentSpec.CandidateSpec("m", new ModelRef("silent", "m"), "tools", null);
        var spec = spec(
                "refuse",
                List.of(new ExperimentSpec.DomainSpec("tau2-retail", null, List.of("12"))),
                List.of(cand),
                1,
                Map.of(),
                0);
        var r = Experiments.run(spec, tmp.resolve("refuse"), Registry.load().with(List.of(), List.of(silent)));
        assertEquals(1, r.infrastructureFailures());
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("refuse"))) {
            assertTrue(
                    store.attempts(true).getFirst().error().contains("needs a user simulator model"),
                    store.attempts(true).getFirst().error());
        }
    }
}
