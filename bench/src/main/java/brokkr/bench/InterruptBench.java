package brokkr.bench;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.Turn;
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
import brokkr.experiment.Probes;
import brokkr.experiment.StoredBranches;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * {@code ./brokkr bench interrupt}: interrupt-to-idle latency of a probe ({@code %probe}) and of
 * branches ({@code %branch}, unstored and stored) on tau2 retail, with a model that takes 200 ms a
 * call (as a remote one would): many units are queued, the calling thread (the cell's, as the kernel
 * interrupts a magic) is interrupted once the first units are under way, and the table shows the time
 * from the interrupt until the call returned and until no model call was in flight any more (idle),
 * and how many of the queued units' calls were made. Median of N rounds (default 5).
 *
 * <p>Arguments: {@code --units N} (default 1000), {@code --parallelism P} (default 8), {@code --rounds N}.
 */
public final class InterruptBench {
    private InterruptBench() {}

    static final ModelRef SLOW = new ModelRef("slow", "agent"), USER = new ModelRef("slow", "user");

    public static void main(String[] args) throws Exception {
        System.exit(run(Arrays.asList(args), System.out));
    }

    /** A model of 200 ms per call that counts its calls and those in flight; the customer ends at once. */
    record Slow(AtomicInteger calls, AtomicInteger inFlight) implements Function<ModelRef, Candidate> {
        Slow() {
            this(new AtomicInteger(), new AtomicInteger());
        }

        @Override
        public Candidate apply(ModelRef ref) {
            if (ref.equals(USER)) return (history, tools) -> Turn.of(new Message.Assistant("###STOP###"));
            return (history, tools) -> {
                calls.incrementAndGet();
                inFlight.incrementAndGet();
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    inFlight.decrementAndGet();
                }
                return Turn.of(new Message.Assistant("I cannot help with that."));
            };
        }
    }

    /** One measured interrupt. */
    record Row(double returnMillis, double idleMillis, int calls) {}

    private interface Work {
        void run(Slow models) throws Exception;
    }

    public static int run(List<String> args, PrintStream out) throws Exception {
        int units = 1000, parallelism = 8, rounds = 5;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i), v = i + 1 < args.size() ? args.get(i + 1) : null;
            if (v == null) throw new IllegalArgumentException(a + " needs a value");
            int n;
            try {
                n = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                n = 0;
            }
            if (n < 1) throw new IllegalArgumentException(a + " needs a positive number, got " + v);
            switch (a) {
                case "--units" -> units = n;
                case "--parallelism" -> parallelism = n;
                case "--rounds" -> rounds = n;
                default ->
                    throw new IllegalArgumentException(
                            "unknown argument " + a + " (expected --units N, --parallelism P or --rounds N)");
            }
            i++;
        }
        Tau2Benchmark b = Tau2Domains.benchmark("retail");
        String task = ProbeBench.firstTaskWithGold(b);
        EnvironmentDef env = b.environment(task, Map.of());
        Evaluation.Cell gold = new Evaluation.Cell(b, env, AgentDef.of(ProbeBench.GOLD, "tools", null), null, 0);
        Attempt record = Runner.attempts(
                        Planner.of(List.of(new Plan.Unit(gold, "gold")), ProbeBench.NO_MODELS), Policy.of(1))
                .getFirst();
        DecisionPoint dp = Probes.decisionPoint(b, env, record.evidence().transcript(), 1);
        Checkpoint cp = Branches.checkpoint(gold, 1, ProbeBench.NO_MODELS);
        List<Branches.Branch> branches = Branches.branches(cp, new Branches.Variant(SLOW, USER, null), units);
        int n = units, p = parallelism;
        out.printf(
                Locale.ROOT,
                "tau2-retail task %s: %d units queued, %d at a time, 200 ms per model call; interrupted after %d calls began; median of %d%n",
                task,
                units,
                parallelism,
                2 * parallelism,
                rounds);
        out.printf(Locale.ROOT, "%-22s %18s %16s %14s%n", "what", "to return (ms)", "to idle (ms)", "calls made");
        Path tmp = Files.createTempDirectory("brokkr-interrupt-bench");
        try {
            AtomicInteger store = new AtomicInteger();
            List<Map.Entry<String, Work>> works = List.of(
                    Map.entry("%probe", m -> Probes.probe(b, dp, 0, SLOW, "slow", n, 0, m, p)),
                    Map.entry("%branch", m -> StoredBranches.runUnstored(branches, m, p)),
                    Map.entry(
                            "%branch --dir",
                            m -> StoredBranches.run(tmp.resolve("exp-" + store.incrementAndGet()), branches, m, p)));
            for (var w : works) {
                List<Row> rows = new ArrayList<>();
                for (int r = 0; r < rounds; r++) rows.add(interrupted(w.getValue(), 2 * parallelism));
                rows.sort(Comparator.comparingDouble(Row::idleMillis));
                Row median = rows.get(rows.size() / 2);
                out.printf(
                        Locale.ROOT,
                        "%-22s %18.1f %16.1f %14s%n",
                        w.getKey(),
                        median.returnMillis(),
                        median.idleMillis(),
                        median.calls() + " of " + units);
                out.flush();
            }
        } finally {
            deleteTree(tmp);
        }
        return 0;
    }

    private static Row interrupted(Work work, int after) throws InterruptedException {
        Slow models = new Slow();
        Thread t = Thread.ofPlatform().name("interrupted-cell").start(() -> {
            try {
                work.run(models);
            } catch (Exception e) {
                // the interrupt, as the kernel reports it; the figure is the time
            }
        });
        while (models.calls().get() < after && t.isAlive()) Thread.onSpinWait();
        long t0 = System.nanoTime();
        t.interrupt();
        t.join();
        long returned = System.nanoTime();
        while (models.inFlight().get() > 0) Thread.sleep(0, 100_000);
        long idle = System.nanoTime();
        return new Row((returned - t0) / 1e6, (idle - t0) / 1e6, models.calls().get());
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(f -> {
                try {
                    Files.delete(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
