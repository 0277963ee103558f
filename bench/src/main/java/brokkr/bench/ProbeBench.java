package brokkr.bench;

import brokkr.conversation.Candidate;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.Branches;
import brokkr.eval.Checkpoint;
import brokkr.eval.DecisionPoint;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.experiment.Planner;
import brokkr.experiment.ProbeResult;
import brokkr.experiment.Probes;
import brokkr.experiment.StoredBranches;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import brokkr.value.Value;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code ./brokkr bench probe}: the engine's own cost of probes and branches with scripted candidates
 * (no model, no wire), on a tau2 domain's task: per probe sample, the world rebuilt at the cut by
 * replaying the record, the fork and the dispatch of the candidate's answer (its tool call executed on
 * the rebuilt world); per branch, the O(1) fork and a whole branch run (deliver the held message, play
 * to the end, grade); and the heap that 1,000 branches of one checkpoint hold before they run, against
 * the heap of one world (the domain's db, freshly parsed). Best of a few rounds after a warm-up.
 *
 * <p>Arguments: {@code --domain D} (default retail), {@code --task ID} (default the first test task
 * with gold actions), {@code --rounds N} (default 5).
 */
public final class ProbeBench {
    private ProbeBench() {}

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    static final ModelRef GOLD = new ModelRef("scripted", "gold"), STOP = new ModelRef("scripted", "stop");
    static final Function<ModelRef, Candidate> NO_MODELS = ref -> {
        throw new IllegalArgumentException("no model in this bench: " + ref);
    };

    public static void main(String[] args) throws Exception {
        System.exit(run(Arrays.asList(args), System.out));
    }

    public static int run(List<String> args, PrintStream out) throws Exception {
        String domain = "retail", task = null;
        int rounds = 5;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i), v = i + 1 < args.size() ? args.get(i + 1) : null;
            if (v == null) throw new IllegalArgumentException(a + " needs a value");
            switch (a) {
                case "--domain" -> domain = v;
                case "--task" -> task = v;
                case "--rounds" -> rounds = Integer.parseInt(v);
                default ->
                    throw new IllegalArgumentException(
                            "unknown argument " + a + " (expected --domain D, --task ID or --rounds N)");
            }
            i++;
        }
        if (rounds < 1) throw new IllegalArgumentException("--rounds must be at least 1");
        Tau2Benchmark b = Tau2Domains.benchmark(domain);
        if (task == null) task = firstTaskWithGold(b);
        EnvironmentDef env = b.environment(task, Map.of());
        Evaluation.Cell gold = new Evaluation.Cell(b, env, AgentDef.of(GOLD, "tools", null), null, 0);
        Plan goldPlan = Planner.of(List.of(new Plan.Unit(gold, "gold")), NO_MODELS);
        Attempt record = Runner.attempts(goldPlan, Policy.of(1)).getFirst();
        Value transcript = record.evidence().transcript();
        int last = lastCut(b, env, transcript);
        out.printf(
                Locale.ROOT,
                "tau2-%s task %s, gold record of %d messages, cuts 1..%d; scripted candidates; best of %d rounds%n%n",
                domain,
                task,
                transcript.asList().size(),
                last,
                rounds);

        out.println("per probe sample (µs)");
        out.printf(
                Locale.ROOT,
                "%6s %14s %16s %14s %18s%n",
                "cut",
                "world rebuild",
                "fork + dispatch",
                "sample total",
                "probe(n=200)/n");
        for (int cut : last == 1 ? List.of(1) : List.of(1, last)) {
            int at = cut;
            Candidate answerer = b.scripted("agent", GOLD, env);
            double rebuild = best(rounds, 200, () -> Probes.decisionPoint(b, env, transcript, at));
            DecisionPoint dp = Probes.decisionPoint(b, env, transcript, at);
            double answer = best(rounds, 2000, () -> dp.answer(answerer));
            double perSample = best(rounds, 1, () -> probe(b, dp, 200)) / 200;
            out.printf(
                    Locale.ROOT,
                    "%6d %14.1f %16.1f %14.1f %18.1f%n",
                    cut,
                    rebuild,
                    answer,
                    rebuild + answer,
                    perSample);
        }

        Checkpoint cp = Branches.checkpoint(gold, 1, NO_MODELS);
        out.println();
        out.println("per branch (µs), from a checkpoint at customer message 1");
        double fork = best(rounds, 100_000, () -> Branches.branch(cp, Branches.Variant.SAME, 0));
        double idle = best(
                rounds,
                50,
                () -> StoredBranches.runUnstored(
                                List.of(Branches.branch(cp, Branches.Variant.SAME.withAgent(STOP), 0)), NO_MODELS, 1)
                        .getFirst());
        double full = best(
                rounds,
                50,
                () -> StoredBranches.runUnstored(List.of(Branches.branch(cp, Branches.Variant.SAME, 0)), NO_MODELS, 1)
                        .getFirst());
        double whole =
                best(rounds, 50, () -> Runner.attempts(goldPlan, Policy.of(1)).getFirst());
        out.printf(Locale.ROOT, "  fork (Branches.branch)                   %10.3f%n", fork);
        out.printf(Locale.ROOT, "  branch run, idle candidate (stop)        %10.1f%n", idle);
        out.printf(Locale.ROOT, "  branch run, gold continuation            %10.1f%n", full);
        out.printf(Locale.ROOT, "  whole gold episode (through the runner)  %10.1f%n", whole);

        out.println();
        // One world: the domain's db.json freshly parsed where it has one; else (telecom's TOML worlds) a deep copy
        // of the checkpoint's world, whose leaves stay shared: a lower bound of a world, so the ratio is an upper
        // bound.
        boolean parsed = BenchWorlds.domains().contains(domain);
        long world = parsed ? retained(BenchWorlds.db(domain)::load) : retained(() -> BenchWorlds.deepCopy(cp.world()));
        long branches = retained(() -> Branches.branches(cp, Branches.Variant.SAME, 1000));
        out.printf(
                Locale.ROOT,
                "memory: one world (" + (parsed ? "db.json parsed" : "deep copy of the checkpoint's world")
                        + ") %.2f MB; 1,000 unrun branches of one checkpoint %.3f MB (%.4f worlds)%n",
                world / 1e6,
                branches / 1e6,
                (double) branches / world);
        return 0;
    }

    private static ProbeResult probe(Tau2Benchmark b, DecisionPoint dp, int n) {
        try {
            return Probes.probe(b, dp, 0, GOLD, "gold", n, 0, NO_MODELS, 1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private interface Work {
        Object run() throws Exception;
    }

    /** The best of {@code rounds} mean times of {@code reps} runs, in µs (a warm-up round first). */
    static double best(int rounds, int reps, Work w) throws Exception {
        double best = Double.MAX_VALUE;
        for (int r = 0; r <= rounds; r++) {
            long t0 = System.nanoTime();
            Object sink = null;
            for (int i = 0; i < reps; i++) sink = w.run();
            Reference.reachabilityFence(sink);
            double us = (System.nanoTime() - t0) / 1e3 / reps;
            if (r > 0) best = Math.min(best, us);
        }
        return best;
    }

    /** The heap retained by what {@code make} returns, after full collections. */
    static long retained(Work make) throws Exception {
        long before = usedAfterGc();
        Object kept = make.run();
        long after = usedAfterGc();
        Reference.reachabilityFence(kept);
        return Math.max(0, after - before);
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) System.gc();
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    static String firstTaskWithGold(Tau2Benchmark b) {
        for (String id : b.tasks("test")) {
            var t = b.domain().task(id);
            if (t.criteria() != null && !t.criteria().actionsOrEmpty().isEmpty()) return id;
        }
        throw new IllegalArgumentException(b.name() + " has no test task with gold actions");
    }

    /** The last cut of a record: its last customer message the agent answered. */
    static int lastCut(Tau2Benchmark b, EnvironmentDef env, Value transcript) {
        int at = 1;
        while (true) {
            try {
                Probes.decisionPoint(b, env, transcript, at + 1);
                at++;
            } catch (IllegalArgumentException e) {
                return at;
            }
        }
    }
}
