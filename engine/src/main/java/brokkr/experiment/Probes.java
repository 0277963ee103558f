package brokkr.experiment;

import brokkr.conversation.Candidate;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Branching;
import brokkr.eval.DecisionPoint;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.ModelRef;
import brokkr.eval.NextAction;
import brokkr.run.Policy;
import brokkr.run.RunModels;
import brokkr.run.Runner;
import brokkr.run.Sink;
import brokkr.stats.Estimate;
import brokkr.stats.Wilson;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Decision-point probes: from a recorded episode (an attempt of an experiment store, or any transcript
 * value), rebuild the decision at its k-th cut (tau2's customer message, the wiki's tool call; {@link Branching#decisionPoint}: the
 * world by replaying the record's effects, not its models) and sample only the candidate's answer to
 * that one message, {@code n} times in parallel: a candidate turn per sample, not an episode. The
 * samples are grouped into outcome classes labelled against the record's own next action
 * ({@link ProbeResult}). {@link #compare} interleaves two candidates' samples in the same rounds and
 * tests the difference of their gold rates with Fisher's exact test.
 *
 * <p>Sample {@code i} asks the candidate with the request option {@code seed = seed + i}: a model
 * provider that takes a seed gets one per sample, and a scripted candidate whose sampling is seeded
 * (tau2's {@code gold-N}) draws reproducibly whatever thread runs it.
 */
public final class Probes {
    private Probes() {}

    /** How many samples run at once when the caller does not say. */
    public static final int DEFAULT_PARALLELISM = 8;

    /**
     * Who answers at a decision point: a model (a scripted one of the benchmark or {@code PROVIDER/MODEL}) under
     * a harness ({@code AgentDef.harness}'s value: empty for the benchmark's reference agent, e.g. the Java REPL
     * with {@code repl_guidance: typed}), with its label.
     */
    public record Agent(ModelRef model, PyDict harness, String label) {
        public Agent {
            java.util.Objects.requireNonNull(model, "model");
            harness = harness == null ? PyDict.empty() : harness;
            label = label == null ? model.toString() : label;
        }

        /** The benchmark's reference agent driven by {@code model}. */
        public static Agent reference(ModelRef model, String label) {
            return new Agent(model, PyDict.empty(), label);
        }
    }

    /** Two candidates probed at one decision point in the same rounds, and the test of their gold rates. */
    public record Comparison(ProbeResult first, ProbeResult second, FisherExact.Result test) {
        /** The difference of the gold rates, first minus second. */
        public double difference() {
            return first.goldRate() - second.goldRate();
        }

        /** The 95% interval of {@link #difference()} (Newcombe's hybrid score interval, {@link Wilson#difference}). */
        public Estimate.Interval differenceInterval() {
            return Wilson.difference(first.matchesGold(), first.n(), second.matchesGold(), second.n());
        }

        /** {@code [[first matches, first differs], [second matches, second differs]]}. */
        public static FisherExact.Result test(ProbeResult a, ProbeResult b) {
            return FisherExact.test(a.matchesGold(), a.n() - a.matchesGold(), b.matchesGold(), b.n() - b.matchesGold());
        }

        public String table() {
            return first.table() + "\n\n" + second.table() + "\n\n"
                    + String.format(
                            Locale.ROOT,
                            "gold rate %s %.2f vs %s %.2f; difference %+.2f, 95%% CI [%+.2f, %+.2f] (Newcombe);"
                                    + " Fisher's exact test (two-sided) p = %.4g",
                            first.candidate(),
                            first.goldRate(),
                            second.candidate(),
                            second.goldRate(),
                            difference(),
                            differenceInterval().low(),
                            differenceInterval().high(),
                            test.pValue());
        }
    }

    /** The decision point at cut {@code at} (the benchmark's {@link Branching#cutUnit()}) of a recorded transcript of {@code env}'s task. */
    public static DecisionPoint decisionPoint(
            BenchmarkProvider provider, EnvironmentDef env, Value transcript, int at) {
        return provider.branching()
                .orElseThrow(() -> new IllegalArgumentException("benchmark " + provider.name()
                        + " has no decision points (its interaction cannot be held at a customer message)"))
                .decisionPoint(env, transcript, at);
    }

    /** A recorded attempt of a store and its environment, ready to probe. */
    public record Recorded(BenchmarkProvider provider, EnvironmentDef env, Attempt attempt) {
        public DecisionPoint at(int cut) {
            return decisionPoint(provider, env, attempt.evidence().transcript(), cut);
        }
    }

    /** Attempt {@code attemptId} of a store with its environment and benchmark; IllegalArgumentException naming what is missing. */
    public static Recorded recorded(ExperimentQuery store, Registry registry, long attemptId) {
        Attempt a = store.attempt(attemptId)
                .orElseThrow(() -> new IllegalArgumentException("the store has no attempt " + attemptId));
        EnvironmentDef env = store.environment(a.environmentId())
                .orElseThrow(() -> new IllegalArgumentException(
                        "the store has no environment " + a.environmentId() + " for attempt " + attemptId));
        if (a.evidence().transcript().isNone())
            throw new IllegalArgumentException("attempt " + attemptId + " has no transcript to probe");
        return new Recorded(registry.benchmark(env.benchmark()), env, a);
    }

    /**
     * {@code probe(domain, task, recordedTrajectory, cut, candidate, n)}: the task's environment as an
     * experiment naming no models defines it, the registry's models, seed 0.
     */
    public static ProbeResult probe(
            String domain, String task, Value recordedTrajectory, int cut, ModelRef candidate, int n)
            throws InterruptedException {
        Registry registry = Registry.process();
        BenchmarkProvider p = registry.benchmark(domain);
        EnvironmentDef env = p.environment(task, Map.of());
        return probe(
                p,
                decisionPoint(p, env, recordedTrajectory, cut),
                0,
                candidate,
                candidate.toString(),
                n,
                0,
                registryModels(registry),
                DEFAULT_PARALLELISM);
    }

    /**
     * A candidate as the command line and the magics name it: {@code PROVIDER:MODEL} (split at the first
     * colon), or a bare name for one of the benchmark's scripted candidates ({@code gold}, {@code gold-50}).
     */
    public static ModelRef candidate(String spec) {
        return Planner.modelRef(spec);
    }

    /** Models of a registry's factories (by provider name or alias), keys and base URLs from the process environment. */
    public static Function<ModelRef, Candidate> registryModels(Registry registry) {
        return registry.resolver();
    }

    /** {@code n} samples of {@code candidate}'s answer at {@code dp}, {@code parallelism} at a time. */
    public static ProbeResult probe(
            BenchmarkProvider provider,
            DecisionPoint dp,
            long sourceAttempt,
            ModelRef candidate,
            String label,
            int n,
            long seed,
            Function<ModelRef, Candidate> models,
            int parallelism)
            throws InterruptedException {
        return probe(
                provider, dp, sourceAttempt, Agent.reference(candidate, label), null, n, seed, models, parallelism);
    }

    /**
     * {@code n} samples of {@code agent}'s answer at {@code dp} under its harness, {@code parallelism} at a time;
     * {@code expect} (null: the record's next action) is what a matching reply says ({@link ProbeResult#expect}).
     */
    public static ProbeResult probe(
            BenchmarkProvider provider,
            DecisionPoint dp,
            long sourceAttempt,
            Agent agent,
            String expect,
            int n,
            long seed,
            Function<ModelRef, Candidate> models,
            int parallelism)
            throws InterruptedException {
        checkCounts(n, parallelism);
        checkExpect(expect);
        check(provider, dp, agent, seed, models); // an unknown candidate or harness fails here, before anything runs
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) jobs.add(new Job(0, i));
        List<NextAction> actions = runJobs(provider, dp, List.of(agent), seed, models, parallelism, jobs);
        List<ProbeResult.Sample> samples = new ArrayList<>();
        for (int i = 0; i < n; i++) samples.add(new ProbeResult.Sample(i, i, actions.get(i)));
        return result(provider, dp, sourceAttempt, agent, expect, seed, samples);
    }

    /**
     * Two candidates at one decision point, {@code n} samples each, interleaved: round {@code r} holds
     * sample {@code r} of both (in alternating order) and the rounds are queued in order, so whatever
     * runs side by side (and shares a provider's load, a batch's correlation) holds both candidates alike.
     */
    public static Comparison compare(
            BenchmarkProvider provider,
            DecisionPoint dp,
            long sourceAttempt,
            ModelRef first,
            String firstLabel,
            ModelRef second,
            String secondLabel,
            int n,
            long seed,
            Function<ModelRef, Candidate> models,
            int parallelism)
            throws InterruptedException {
        return compare(
                provider,
                dp,
                sourceAttempt,
                Agent.reference(first, firstLabel),
                Agent.reference(second, secondLabel),
                null,
                n,
                seed,
                models,
                parallelism);
    }

    /**
     * {@link #compare} of two agents, each under its own harness (the REPL with {@code repl_guidance: shape}
     * against {@code typed}), their samples interleaved in the same rounds; {@code expect} as in {@link #probe}.
     */
    public static Comparison compare(
            BenchmarkProvider provider,
            DecisionPoint dp,
            long sourceAttempt,
            Agent first,
            Agent second,
            String expect,
            int n,
            long seed,
            Function<ModelRef, Candidate> models,
            int parallelism)
            throws InterruptedException {
        checkCounts(n, parallelism);
        checkExpect(expect);
        check(provider, dp, first, seed, models);
        check(provider, dp, second, seed, models);
        List<Job> jobs = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            if (r % 2 == 0) {
                jobs.add(new Job(0, r));
                jobs.add(new Job(1, r));
            } else {
                jobs.add(new Job(1, r));
                jobs.add(new Job(0, r));
            }
        }
        List<NextAction> actions = runJobs(provider, dp, List.of(first, second), seed, models, parallelism, jobs);
        List<List<ProbeResult.Sample>> by = List.of(new ArrayList<>(), new ArrayList<>());
        for (int j = 0; j < jobs.size(); j++)
            by.get(jobs.get(j).candidate())
                    .add(new ProbeResult.Sample(jobs.get(j).round(), jobs.get(j).round(), actions.get(j)));
        for (List<ProbeResult.Sample> l : by) l.sort((x, y) -> Integer.compare(x.index(), y.index()));
        ProbeResult a = result(provider, dp, sourceAttempt, first, expect, seed, by.get(0));
        ProbeResult b = result(provider, dp, sourceAttempt, second, expect, seed, by.get(1));
        return new Comparison(a, b, Comparison.test(a, b));
    }

    private record Job(int candidate, int round) {}

    /** Every sample of {@code jobs} through the one runner, {@code parallelism} at a time; actions in the jobs' order. */
    private static List<NextAction> runJobs(
            BenchmarkProvider provider,
            DecisionPoint dp,
            List<Agent> candidates,
            long seed,
            Function<ModelRef, Candidate> models,
            int parallelism,
            List<Job> jobs)
            throws InterruptedException {
        List<brokkr.run.Job<NextAction>> samples = new ArrayList<>();
        for (Job j : jobs) {
            Agent agent = candidates.get(j.candidate());
            samples.add(new brokkr.run.Job<>() {
                @Override
                public String name() {
                    return "probe-" + dp.env().taskId() + "-" + j.candidate() + "-" + j.round();
                }

                @Override
                public NextAction run(RunModels runModels) {
                    Candidate c;
                    try {
                        c = resolve(provider, dp, agent.model(), seed + j.round(), runModels.models());
                    } catch (RuntimeException e) {
                        return NextAction.failed(e.getMessage());
                    }
                    try {
                        return dp.answer(c, agent.harness());
                    } catch (RuntimeException e) {
                        return NextAction.failed(String.valueOf(e));
                    }
                }

                @Override
                public NextAction failed(String error, RunModels runModels, long startedAtMillis, long durationMillis) {
                    return NextAction.failed(error);
                }
            });
        }
        Sink.Ordered<NextAction> out = Sink.memory();
        Runner.run(samples, models, Policy.of(parallelism), out);
        if (Thread.interrupted()) throw new InterruptedException("interrupted while sampling");
        return out.results();
    }

    /** The candidate for one sample: the model with {@code seed} among its request options; scripted ones from the benchmark. */
    private static Candidate resolve(
            BenchmarkProvider provider,
            DecisionPoint dp,
            ModelRef ref,
            long seed,
            Function<ModelRef, Candidate> models) {
        ModelRef seeded =
                new ModelRef(ref.provider(), ref.model(), ref.options().with("seed", PyInt.of(seed)));
        return ref.provider().equals(BenchmarkProvider.SCRIPTED)
                ? provider.scripted("agent", seeded, dp.env())
                : models.apply(seeded);
    }

    /** What must hold before a sample runs: the model resolves and the decision point takes the harness. */
    private static void check(
            BenchmarkProvider provider,
            DecisionPoint dp,
            Agent agent,
            long seed,
            Function<ModelRef, Candidate> models) {
        resolve(provider, dp, agent.model(), seed, models);
        dp.checkHarness(agent.harness());
    }

    private static ProbeResult result(
            BenchmarkProvider provider,
            DecisionPoint dp,
            long sourceAttempt,
            Agent agent,
            String expect,
            long seed,
            List<ProbeResult.Sample> samples) {
        return new ProbeResult(
                provider.name(),
                dp.env().taskId(),
                dp.env().id(),
                sourceAttempt,
                dp.at(),
                dp.cutMessage(),
                agent.label(),
                agent.model(),
                seed,
                dp.recorded().orElse(null),
                samples,
                agent.harness(),
                expect,
                dp.cutUnit());
    }

    private static void checkExpect(String expect) {
        if (expect != null && expect.isBlank())
            throw new IllegalArgumentException("what a matching reply says must not be blank");
    }

    private static void checkCounts(int n, int parallelism) {
        if (n < 1) throw new IllegalArgumentException("a probe takes at least 1 sample, not " + n);
        if (parallelism < 1) throw new IllegalArgumentException("parallelism must be at least 1, not " + parallelism);
    }
}
