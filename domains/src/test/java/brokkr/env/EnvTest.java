package brokkr.env;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.eval.AgentDef;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.ModelRef;
import brokkr.experiment.Registry;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link Env} in process: a client that plays a domain's own scripted candidate through reset/step gets the grade
 * that candidate gets on the evaluation path (tau2 retail's gold: 1.0, for 200 sessions at once; the synthetic loop's
 * ideal follower), and every refusal is an error observation that changes nothing.
 */
class EnvTest {
    private static final Registry REGISTRY = Registry.process();
    private static final Map<String, ModelRef> ALL_MET_JUDGE = Map.of("judge", new ModelRef("scripted", "all-met"));

    /**
     * Plays {@code candidate} as the client: its history is every observation's messages and its own actions, as
     * the protocol's history is; returns the final observation.
     */
    static Observation play(Env env, Observation first, Candidate candidate) throws Exception {
        List<Message> history = new ArrayList<>(first.messages());
        var tools = first.tools();
        Observation o = first;
        for (int steps = 0; !o.done(); steps++) {
            assertNull(o.error(), () -> "" + first.error());
            assertTrue(steps < 500, "the episode ends");
            Message.Assistant action =
                    candidate.next(List.copyOf(history), tools).message();
            history.add(action);
            o = env.step(o.session(), action);
            if (!o.tools().isEmpty()) tools = o.tools();
            history.addAll(o.messages());
        }
        return o;
    }

    static Candidate scripted(BenchmarkProvider p, String name, String task) {
        return p.scripted("agent", new ModelRef("scripted", name), p.environment(task, ALL_MET_JUDGE));
    }

    @Test
    void twoHundredConcurrentRetailSessionsPlayGoldToRewardOne() throws Exception {
        int n = 200;
        try (Env env = new Env(
                REGISTRY.benchmark("tau2-retail"),
                Env.Settings.defaults().withRoles(ALL_MET_JUDGE).withMaxSessions(n),
                REGISTRY.resolver())) {
            List<String> tasks = env.tasks("test");
            CountDownLatch allOpen = new CountDownLatch(n), over = new CountDownLatch(1);
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Double> rewards = new ConcurrentLinkedQueue<>();
            List<Thread> clients = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String task = tasks.get(i % tasks.size());
                int seed = i / tasks.size();
                clients.add(Thread.ofVirtual().start(() -> {
                    try {
                        Observation first = env.reset(task, seed);
                        allOpen.countDown();
                        if (first.isError())
                            throw new AssertionError(first.error().toString());
                        over.await(); // every session open at once before any steps
                        Observation end = play(env, first, scripted(env.provider(), "gold", task));
                        rewards.add(end.reward());
                        if (end.reward() != 1.0) failures.add(task + ": " + end.info());
                    } catch (Throwable t) {
                        failures.add(task + ": " + t);
                    }
                }));
            }
            assertTrue(allOpen.await(120, TimeUnit.SECONDS));
            assertEquals(n, env.liveSessions());
            Observation refused = env.reset(tasks.getFirst(), 0);
            assertEquals(Observation.Kind.FULL, refused.error().kind());
            over.countDown();
            for (Thread t : clients) t.join(Duration.ofMinutes(5));
            assertEquals(List.of(), List.copyOf(failures));
            assertEquals(n, rewards.size());
            assertEquals(0, env.liveSessions());
        }
    }

    @Test
    void theSyntheticLoopIsSteppedToItsEndByItsIdealFollower() throws Exception {
        try (Env env = new Env(REGISTRY.benchmark("loop"), Env.Settings.defaults(), REGISTRY.resolver())) {
            Observation first = env.reset("10", 0);
            assertNull(first.error());
            assertEquals(
                    List.of("follow_pointer"),
                    first.tools().stream().map(t -> t.name()).toList());
            Observation end = play(env, first, scripted(env.provider(), "ideal", "10"));
            assertTrue(end.done());
            assertEquals(1.0, end.reward());
            assertEquals("completed", end.info().get("status").asStr());
            assertTrue(end.info().get("checks").asDict().get("secret_correct").equals(brokkr.value.PyBool.TRUE));
            // A step after the end is refused, the grade kept.
            assertEquals(
                    Observation.Kind.ENDED,
                    env.step(first.session(), Value.str("more?")).error().kind());
            // The same follower stopping early loses: the reward is the grade, not a constant.
            Observation early = play(env, env.reset("10", 0), scripted(env.provider(), "early-stop", "10"));
            assertEquals(0.0, early.reward());
            assertFalse(
                    early.info().get("checks").asDict().get("exact_tool_calls").equals(brokkr.value.PyBool.TRUE));
        }
    }

    /**
     * BFCL multi-turn (fixed user turns, each answered by as many steps as the agent takes): the gold candidate played
     * through the environment gets, task by task, the reward and checks the runner's own attempt of it gets.
     */
    @Test
    void bfclMultiTurnThroughTheEnvGradesAsTheEvaluationPathDoes() throws Exception {
        BenchmarkProvider p = REGISTRY.benchmark("bfcl-multi-turn");
        List<String> tasks = p.tasks("smoke");
        List<brokkr.eval.Attempt> direct = brokkr.run.Runner.attempts(
                brokkr.experiment.Planner.cells(
                        p,
                        tasks,
                        Map.of(),
                        PyDict.empty(),
                        List.of(new brokkr.experiment.ExperimentSpec.CandidateSpec(
                                "gold", new ModelRef("scripted", "gold"), "tools", null, null)),
                        1,
                        REGISTRY.resolver()),
                brokkr.run.Policy.of(2));
        try (Env env = new Env(p, Env.Settings.defaults(), REGISTRY.resolver())) {
            for (int i = 0; i < tasks.size(); i++) {
                String task = tasks.get(i);
                Observation end = play(env, env.reset(task, 0), scripted(p, "gold", task));
                brokkr.eval.Attempt a = direct.get(i);
                assertEquals(a.reward(), end.reward(), task);
                PyDict.Builder checks = PyDict.builder();
                for (var c : a.checks()) checks.put(c.name(), brokkr.value.PyBool.of(c.passed()));
                assertEquals(checks.build(), end.info().get("checks"), task);
            }
            assertTrue(direct.stream().anyMatch(a -> a.reward() == 1.0));
        }
    }

    @Test
    void refusalsAreErrorObservationsThatChangeNothing() throws Exception {
        try (Env env =
                new Env(REGISTRY.benchmark("loop"), Env.Settings.defaults().withMaxSessions(1), REGISTRY.resolver())) {
            assertEquals(
                    Observation.Kind.UNKNOWN_TASK,
                    env.reset("no-such-task", 0).error().kind());
            assertEquals(Observation.Kind.MALFORMED, env.reset("10", -1).error().kind());
            Observation first = env.reset("10", 0);
            assertEquals(Observation.Kind.FULL, env.reset("10", 0).error().kind());
            for (String bad : List.of(
                    "{not json",
                    "42",
                    "[]",
                    "null",
                    "{\"tool_calls\": {}}",
                    "{\"tool_calls\": [{\"function\": 1}]}",
                    "{\"role\": \"tool\", \"content\": \"x\"}",
                    "{\"content\": {\"a\": 1}}")) {
                Observation o = env.step(first.session(), bad);
                assertEquals(Observation.Kind.MALFORMED, o.error().kind(), bad);
                assertTrue(
                        o.toValue().get("error").asDict().get("message").asStr().length() > 10, bad);
            }
            assertEquals(
                    Observation.Kind.UNKNOWN_SESSION,
                    env.step("nope", Value.str("hi")).error().kind());
            // Still the first turn: the ideal follower, from the first observation, wins.
            Observation end = play(env, first, scripted(env.provider(), "ideal", "10"));
            assertEquals(1.0, end.reward());
        }
    }

    @Test
    void anIdleSessionIsClosedAndItsSlotFreed() throws Exception {
        try (Env env = new Env(
                REGISTRY.benchmark("loop"),
                Env.Settings.defaults().withMaxSessions(1).withIdle(Duration.ofMillis(200)),
                REGISTRY.resolver())) {
            Observation idle = env.reset("10", 0);
            assertNull(idle.error());
            Thread.sleep(1_000);
            assertEquals(
                    Observation.Kind.UNKNOWN_SESSION,
                    env.step(idle.session(), Value.str("hi")).error().kind());
            assertEquals(0, env.liveSessions());
            assertNull(env.reset("10", 0).error());
        }
    }

    /** An episode over its time ends, done, as the runner's timeout failure: reward 0, the reason in info. */
    @Test
    void anEpisodeOverItsTimeEndsAsATimeout() throws Exception {
        try (Env env = new Env(
                REGISTRY.benchmark("loop"),
                Env.Settings.defaults().withEpisode(Duration.ofMillis(800)),
                REGISTRY.resolver())) {
            Observation first = env.reset("10", 0);
            assertNull(first.error());
            Thread.sleep(1_500);
            Observation o = env.step(first.session(), Value.str("the secret is 42"));
            assertTrue(o.done(), o.toString());
            assertEquals(0.0, o.reward());
            assertEquals("infrastructure_failure", o.info().get("status").asStr());
            assertTrue(
                    o.info().get("error").asStr().contains("timeout"), o.info().toString());
            assertEquals(0, env.liveSessions());
        }
    }

    /** The rule the tau2 guard applies: only scripted candidates and external clients may face a scripted user. */
    @Test
    void anExternalClientMayFaceScriptedCounterpartsAModelMayNot() {
        assertTrue(Env.AGENT.external());
        assertTrue(Env.AGENT.mayFaceScriptedCounterparts());
        assertTrue(new AgentDef("scripted", "gold", "tools", PyDict.empty(), null).mayFaceScriptedCounterparts());
        assertFalse(new AgentDef("openai", "gpt-4.1", "tools", PyDict.empty(), null).mayFaceScriptedCounterparts());
    }
}
