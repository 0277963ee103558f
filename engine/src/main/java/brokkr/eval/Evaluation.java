package brokkr.eval;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.SpendLimit;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.telemetry.GenAiTrace;
import brokkr.tool.WorldCell;
import brokkr.value.PyDict;
import brokkr.value.PyNone;
import brokkr.world.WorldHash;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The one evaluation path: a cell is set up in a fresh fork, its protocol runs, its evaluator grades,
 * and the result is an {@link Attempt}; the fork is dropped afterwards. Every benchmark runs through
 * {@link #evaluate}, so a scorecard means the same thing whatever the domain.
 *
 * <p>Failures that are not the candidate's fault become infrastructure-failure attempts: an
 * {@link InfrastructureFailure} (retries exhausted) and any exception escaping the provider's code (a
 * harness error must not be scored as a model failure either). Both keep the evidence gathered so far,
 * including the interaction up to the fault when the protocol reports it ({@link InterruptedInteraction}).
 */
public final class Evaluation {
    private Evaluation() {}

    /** How the error of an attempt that failed on an {@link InfrastructureFailure} begins (its message follows). */
    public static final String INFRASTRUCTURE_FAILURE = "infrastructure failure: ";

    /** One cell: a task of a benchmark, a candidate (with its system prompt text, or null) and a repetition. */
    public record Cell(
            BenchmarkProvider provider, EnvironmentDef env, AgentDef agent, String systemPrompt, int repetition) {}

    /**
     * Runs one cell. {@code models} turns a model reference into a candidate (the runner's, carrying
     * provider limits), except that models of provider {@link BenchmarkProvider#SCRIPTED} come from the
     * benchmark for the cell's task; every call is recorded in {@code recorder} under its role.
     */
    public static Attempt evaluate(Cell cell, Function<ModelRef, Candidate> models, Recorder recorder) {
        return evaluate(cell, cell.provider().worldSetup(), cell.provider().protocol(), models, recorder);
    }

    /**
     * Runs one cell with a world setup and protocol other than the provider's own (a branch of a
     * checkpoint: {@link Branches}), graded by the provider's evaluator like every other attempt.
     */
    public static Attempt evaluate(
            Cell cell,
            WorldSetup worldSetup,
            Protocol protocol,
            Function<ModelRef, Candidate> models,
            Recorder recorder) {
        long started = System.currentTimeMillis();
        long t0 = System.nanoTime();
        PyDict setup = null;
        Interaction interaction = null;
        String finalWorld = null;
        PyDict.Builder timings = PyDict.builder();
        EnvironmentDef env = cell.env();
        Models roles = roles(cell, models, recorder);
        try {
            WorldCell fork = new WorldCell(PyNone.NONE);
            long t = System.nanoTime();
            setup = worldSetup.install(env, fork);
            timings.put("setup_ms", ms(t));
            Candidate agent = recorder.wrap(
                    Evidence.AGENT,
                    cell.agent().modelRef(),
                    resolve(cell, Evidence.AGENT, cell.agent().modelRef(), models));
            t = System.nanoTime();
            interaction = protocol.run(new RunContext(
                    env,
                    cell.agent(),
                    cell.systemPrompt(),
                    cell.repetition(),
                    fork,
                    agent,
                    roles,
                    recorder.cellLimit()));
            timings.put("protocol_ms", ms(t));
            t = System.nanoTime();
            finalWorld = WorldHash.sha256(fork.get(), true);
            timings.put("world_hash_ms", ms(t));
            t = System.nanoTime();
            Verdict v = cell.provider()
                    .evaluator()
                    .evaluate(
                            new FinishedRun(env, cell.agent(), cell.repetition(), setup, fork.get(), interaction),
                            roles);
            timings.put("evaluate_ms", ms(t));
            Evidence ev = evidence(setup, interaction, finalWorld, recorder, timings.build(), v.details());
            return new Attempt(
                    0,
                    env.id(),
                    cell.agent().id(),
                    cell.repetition(),
                    env.taskId(),
                    Attempt.Status.COMPLETED,
                    v.checks(),
                    v.reward(),
                    v.trust(),
                    ev,
                    null,
                    started,
                    ms(t0));
        } catch (InfrastructureFailure e) {
            if (e instanceof InterruptedInteraction cut && interaction == null) interaction = cut.partial();
            recorder.addFailedCalls(e);
            return failure(
                    cell,
                    evidence(setup, interaction, finalWorld, recorder, timings.build(), null),
                    INFRASTRUCTURE_FAILURE + e.getMessage(),
                    started,
                    ms(t0));
        } catch (RuntimeException | StackOverflowError e) {
            return failure(
                    cell,
                    evidence(setup, interaction, finalWorld, recorder, timings.build(), null),
                    "harness error: " + e,
                    started,
                    ms(t0));
        }
    }

    /** The cell's models by role, each wrapped to record its calls in {@code recorder}. */
    static Models roles(Cell cell, Function<ModelRef, Candidate> models, Recorder recorder) {
        EnvironmentDef env = cell.env();
        return (role, extra) -> {
            ModelRef ref = role.equals(Evidence.AGENT)
                    ? cell.agent().modelRef()
                    : env.models().get(role);
            if (ref == null)
                throw new IllegalArgumentException(
                        "environment " + env.benchmark() + "/" + env.taskId() + " names no '" + role + "' model");
            ModelRef asked = withOptions(ref, extra);
            return recorder.wrap(role, asked, resolve(cell, role, asked, models));
        };
    }

    private static ModelRef withOptions(ModelRef ref, PyDict extra) {
        if (extra.isEmpty()) return ref;
        PyDict merged = ref.options();
        for (var e : extra.entries()) merged = merged.with(e.getKey(), e.getValue());
        return new ModelRef(ref.provider(), ref.model(), merged);
    }

    /** A benchmark's own scripted model for this cell's task, or the runner's model for {@code ref}. */
    static Candidate resolve(Cell cell, String role, ModelRef ref, Function<ModelRef, Candidate> models) {
        return ref.provider().equals(BenchmarkProvider.SCRIPTED)
                ? cell.provider().scripted(role, ref, cell.env())
                : models.apply(ref);
    }

    /** An infrastructure-failure attempt, e.g. for a cell the runner timed out. */
    public static Attempt failure(
            Cell cell, Evidence evidence, String error, long startedAtMillis, long durationMillis) {
        return new Attempt(
                0,
                cell.env().id(),
                cell.agent().id(),
                cell.repetition(),
                cell.env().taskId(),
                Attempt.Status.INFRASTRUCTURE_FAILURE,
                List.of(),
                0.0,
                null,
                evidence,
                error,
                startedAtMillis,
                durationMillis);
    }

    public static Evidence evidence(
            PyDict setup, Interaction in, String finalWorldSha256, Recorder rec, PyDict timings, PyDict details) {
        return new Evidence(
                setup,
                in == null ? null : in.transcript(),
                in == null ? null : in.output(),
                in == null ? null : in.termination(),
                finalWorldSha256,
                rec.calls(),
                rec.usage(),
                timings,
                details,
                in == null ? null : in.counts(),
                rec.endpoints());
    }

    private static long ms(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    /**
     * Records every model call of a run (the exact requests, the responses or errors) and sums usage by
     * role. Thread-safe: a protocol may call models from several threads.
     */
    public static final class Recorder {
        private final List<Evidence.RecordedCall> calls = new ArrayList<>();
        private final Map<String, Usage> usage = new TreeMap<>();
        private final Map<String, String> endpoints = new TreeMap<>();
        private final BiFunction<String, Candidate, Candidate> around;
        private final SpendLimit cellLimit;
        private final GenAiTrace trace;

        public Recorder() {
            this((role, c) -> c);
        }

        /**
         * A recorder that puts {@code around(role, model)} between each model and its record (an
         * experiment's model-call cache): what it answers is recorded as the model's calls.
         */
        public Recorder(BiFunction<String, Candidate, Candidate> around) {
            this(around, SpendLimit.NONE);
        }

        /** A recorder that also adds each of the candidate's ({@code agent}'s) calls to the cell's {@code cellLimit}. */
        public Recorder(BiFunction<String, Candidate, Candidate> around, SpendLimit cellLimit) {
            this(around, cellLimit, GenAiTrace.OFF);
        }

        /** As above, with a {@code chat} span around each model call of every role when {@code trace} is on. */
        public Recorder(BiFunction<String, Candidate, Candidate> around, SpendLimit cellLimit, GenAiTrace trace) {
            this.around = around;
            this.cellLimit = cellLimit == null ? SpendLimit.NONE : cellLimit;
            this.trace = trace == null ? GenAiTrace.OFF : trace;
        }

        /** The cell's budget, as the candidate's recorded calls have spent it. */
        public SpendLimit cellLimit() {
            return cellLimit;
        }

        public Candidate wrap(String role, Candidate model) {
            return wrap(role, null, model);
        }

        /** {@link #wrap(String, Candidate)} of the model {@code ref} names (what a trace's {@code chat} span says it asked). */
        public Candidate wrap(String role, ModelRef ref, Candidate model) {
            String url = model.baseUrl();
            if (url != null) endpoint(role, url);
            Candidate c = trace.chat(
                    role,
                    ref == null ? null : ref.provider(),
                    ref == null ? null : ref.model(),
                    around.apply(role, model));
            return new Candidate() {
                @Override
                public Turn next(List<Message> history, List<ToolSpec> tools) throws InfrastructureFailure {
                    Turn turn;
                    try {
                        turn = c.next(history, tools);
                    } catch (InfrastructureFailure e) {
                        add(role, e.attempts(), Usage.ZERO);
                        throw e;
                    }
                    add(role, turn.calls(), turn.message().usage());
                    return turn;
                }

                @Override
                public Candidate unwrapped() {
                    return c.unwrapped();
                }

                @Override
                public void noteCalls(List<ModelCall> calls, Usage usage) {
                    add(role, calls, usage == null ? Usage.ZERO : usage);
                    c.noteCalls(calls, usage);
                }

                @Override
                public Candidate.Permit acquire() {
                    return c.acquire();
                }
            };
        }

        private synchronized void endpoint(String role, String url) {
            endpoints.put(role, url);
        }

        /** The base URL each role's model is reached at (role to URL), as far as the run got. */
        public synchronized Map<String, String> endpoints() {
            return Map.copyOf(endpoints);
        }

        private void add(String role, List<ModelCall> cs, Usage u) {
            synchronized (this) {
                for (ModelCall mc : cs) calls.add(new Evidence.RecordedCall(role, mc));
                usage.merge(role, u == null ? Usage.ZERO : u, Usage::plus);
            }
            if (role.equals(Evidence.AGENT)) cellLimit.add(cs, u);
        }

        /**
         * The calls of the failure that ended the run. Those that came through {@link #wrap} are
         * recorded already (protocols often rethrow a model's failure with its calls); any others were
         * made by provider code outside the wrapped models and are kept as {@code unattributed}.
         */
        synchronized void addFailedCalls(InfrastructureFailure e) {
            Set<ModelCall> known = new HashSet<>();
            for (Evidence.RecordedCall rc : calls) known.add(rc.call());
            List<ModelCall> fresh =
                    e.attempts().stream().filter(c -> !known.contains(c)).toList();
            if (!fresh.isEmpty()) add("unattributed", fresh, Usage.ZERO);
        }

        public synchronized List<Evidence.RecordedCall> calls() {
            return List.copyOf(calls);
        }

        public synchronized Map<String, Usage> usage() {
            return Map.copyOf(usage);
        }
    }
}
