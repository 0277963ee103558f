package brokkr.bench;

import brokkr.python.PyJson;
import brokkr.value.Value;
import brokkr.world.WorldHash;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * {@code ./brokkr bench world}: runs {@link WorldBenchmarks} with JMH on the dbs of the tau2 domains
 * that have a {@code db.json} (retail, airline), read as the domains read them ({@link BenchWorlds}: the
 * data-directory rule, pinned digests), and prints a table, then the memo footprint per key order and
 * a memo-threshold sweep.
 *
 * <p>Arguments: {@code --quick} (smoke run), {@code --long} (4x1 s warm-up, 6x1 s measured instead of
 * 2x0.5 s, 4x0.5 s), {@code --db DOMAIN} (one db only), {@code --only REGEX} (JMH benchmark
 * filter, e.g. {@code hash}), {@code --no-jmh} (only the in-process tables).
 *
 * <p>Without the launcher: {@code mvn -q -B -pl bench -am package -DskipTests && java -cp
 * bench/target/classes:$(cat bench/target/classpath.txt) brokkr.bench.WorldBench}, from the project
 * root. JMH forks a JVM with this JVM's class path and data directory.
 */
public final class WorldBench {
    /** Thread CPU time: on a machine shared with builds, wall time of a millisecond-scale call is mostly waiting. */
    private static final java.lang.management.ThreadMXBean CPU =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private WorldBench() {}

    /** The tau2 domains whose world is a db.json: those {@code --db} accepts, and the default. */
    public static List<String> domains() {
        return BenchWorlds.domains();
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(Arrays.asList(args), System.out));
    }

    /** Bad arguments are IllegalArgumentExceptions; a data directory that is missing or differs from the pins, Tau2DataExceptions. */
    public static int run(List<String> args, PrintStream out) throws Exception {
        boolean quick = false, longer = false, jmh = true;
        List<String> dbs = null;
        String only = ".*";
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--quick" -> quick = true;
                case "--long" -> longer = true;
                case "--no-jmh" -> jmh = false;
                case "--db", "--only" -> {
                    if (i + 1 >= args.size()) throw new IllegalArgumentException(a + " needs a value");
                    String v = args.get(++i);
                    if (a.equals("--only")) only = v;
                    else
                        dbs = List.of(
                                BenchWorlds.db(v).domain()); // an unknown domain is refused here, before JMH starts
                }
                default ->
                    throw new IllegalArgumentException("unknown argument '" + a + "' (expected --quick, --long, --db "
                            + String.join("|", BenchWorlds.domains()) + ", --only REGEX, --no-jmh)");
            }
        }
        if (dbs == null) dbs = BenchWorlds.domains();
        // Every db is read and checked once here: a changed file fails before any measurement.
        for (String db : dbs) BenchWorlds.db(db).load();
        if (jmh) jmhTable(out, dbs, only, quick ? 0 : longer ? 2 : 1);
        cpuTable(out, dbs, quick ? 10 : 30);
        footprint(out, dbs);
        return 0;
    }

    /**
     * JMH's Runner takes its lock file, {@code jmh.lock}, in the directory {@code java.io.tmpdir} names when the
     * class initializes, and never removes it: a file left in the system's temporary directory by every bench run
     * (issue 31, item 10). Here the lock lives in a directory of this process's, removed when the process ends;
     * the class initializes once, so that directory is made once.
     */
    static Collection<RunResult> runLeavingNoLock(Options options) throws RunnerException {
        String tmp = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", LockDir.PATH.toString());
        try {
            return new Runner(options).run();
        } finally {
            System.setProperty("java.io.tmpdir", tmp);
        }
    }

    private static final class LockDir {
        static final Path PATH = make();

        private static Path make() {
            try {
                Path dir = Files.createTempDirectory("brokkr-jmh-");
                // deleteOnExit runs in reverse order: the lock first, then its directory
                dir.toFile().deleteOnExit();
                dir.resolve("jmh.lock").toFile().deleteOnExit();
                return dir;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** {@code effort} 0: smoke run; 1: default (2x0.5 s warm-up, 4x0.5 s measured); 2: 4x1 s, 6x1 s. */
    private static void jmhTable(PrintStream out, List<String> dbs, String only, int effort) throws Exception {
        int[] warmups = {1, 2, 4}, measurements = {2, 4, 6}, millis = {300, 500, 1000};
        ChainedOptionsBuilder opts = new OptionsBuilder()
                .include(WorldBenchmarks.class.getName() + "\\..*(" + only + ").*")
                .param("db", dbs.toArray(String[]::new))
                .forks(1)
                // JMH 1.37 uses Unsafe; the fork reads the data directory this JVM located.
                .jvmArgsAppend(
                        "-Xss8m",
                        "-Xmx4g",
                        "--sun-misc-unsafe-memory-access=allow",
                        "-Dbrokkr.tau2.data="
                                + BenchWorlds.db(dbs.getFirst()).data().root().toAbsolutePath())
                .warmupIterations(warmups[effort])
                .warmupTime(TimeValue.milliseconds(millis[effort]))
                .measurementIterations(measurements[effort])
                .measurementTime(TimeValue.milliseconds(millis[effort]))
                .shouldFailOnError(true);
        Map<String, Map<String, RunResult>> byBench = new LinkedHashMap<>();
        for (RunResult r : runLeavingNoLock(opts.build())) {
            String label = r.getParams().getBenchmark();
            label = label.substring(label.lastIndexOf('.') + 1);
            byBench.computeIfAbsent(label, k -> new LinkedHashMap<>())
                    .put(r.getParams().getParam("db"), r);
        }
        out.println();
        out.printf(
                "World benchmarks (JMH average wall time per operation, ± 99.9%% CI; %dx%d ms warm-up, %dx%d ms measured, 1 fork)%n",
                warmups[effort], millis[effort], measurements[effort], millis[effort]);
        out.printf("%-20s", "benchmark");
        for (String db : dbs) out.printf(" %26s", db);
        out.println();
        for (var e : byBench.entrySet()) {
            out.printf("%-20s", e.getKey());
            for (String db : dbs) {
                RunResult r = e.getValue().get(db);
                out.printf(" %26s", r == null ? "-" : format(r));
            }
            out.println();
        }
        for (String order : List.of("Sorted", "Insertion")) {
            Map<String, RunResult> warm = byBench.get("hashWarm" + order), cold = byBench.get("hashCold" + order);
            if (warm == null || cold == null) continue;
            out.printf("%-20s", "warm/cold " + order.toLowerCase());
            for (String db : dbs) {
                out.printf(
                        " %26s",
                        String.format(
                                "%.3f",
                                warm.get(db).getPrimaryResult().getScore()
                                        / cold.get(db).getPrimaryResult().getScore()));
            }
            out.println();
        }
    }

    private static String format(RunResult r) {
        var res = r.getPrimaryResult();
        double err = res.getScoreError();
        return String.format("%.3f ± %.3f %s", res.getScore(), Double.isNaN(err) ? 0 : err, res.getScoreUnit());
    }

    /**
     * The same operations timed in this JVM by thread CPU time (median of {@code samples} after as many
     * warm-up runs): on a shared machine JMH's wall-clock figures include waiting for a core.
     */
    private static void cpuTable(PrintStream out, List<String> dbs, int samples) {
        Map<String, Map<String, Double>> rows = new LinkedHashMap<>();
        for (String db : dbs) {
            BenchWorlds.Db file = BenchWorlds.db(db);
            Value world = file.load();
            Random rnd = new Random(42);
            BenchWorlds.Update[] updates = new BenchWorlds.Update[WorldBenchmarks.UPDATES];
            for (int i = 0; i < updates.length; i++) updates[i] = BenchWorlds.randomUpdate(world, rnd);
            Value warmBase = BenchWorlds.deepCopy(world);
            WorldHash.sha256(warmBase, true);
            WorldHash.sha256(warmBase, false);
            Random pick = new Random(7);
            put(rows, "load", db, cpuMedianMs(samples, () -> null, x -> file.load()));
            put(rows, "deepCopy", db, cpuMedianMs(samples, () -> null, x -> BenchWorlds.deepCopy(world)));
            put(rows, "forkAndUpdate", db, cpuMedianMs(samples * 100, () -> null, x -> updates[0].applyTo(world)));
            put(rows, "updates1000", db, cpuMedianMs(samples, () -> null, x -> {
                Value w = world;
                for (BenchWorlds.Update u : updates) w = u.applyTo(w);
            }));
            put(
                    rows,
                    "hashNaiveSorted",
                    db,
                    cpuMedianMs(
                            samples,
                            () -> BenchWorlds.deepCopy(world),
                            w -> WorldHash.newSha256()
                                    .digest(PyJson.dumps(w, PyJson.DumpOptions.SORTED)
                                            .getBytes(StandardCharsets.UTF_8))));
            for (boolean sort : new boolean[] {true, false}) {
                String order = sort ? "Sorted" : "Insertion";
                double cold = cpuMedianMs(samples, () -> BenchWorlds.deepCopy(world), w -> WorldHash.sha256(w, sort));
                double warm = cpuMedianMs(
                        samples * 5,
                        () -> updates[pick.nextInt(updates.length)].applyTo(warmBase),
                        w -> WorldHash.sha256(w, sort));
                double same = cpuMedianMs(samples * 5, () -> null, x -> WorldHash.sha256(warmBase, sort));
                put(rows, "hashCold" + order, db, cold);
                put(rows, "hashWarm" + order, db, warm);
                put(rows, "hashUnchanged" + order, db, same);
                put(rows, "warm/cold " + order.toLowerCase(), db, warm / cold);
            }
        }
        out.println();
        out.println(
                "The same in-process, median thread CPU time in ms (warm/cold rows are ratios; hashUnchanged = re-hash with no update)");
        out.printf("%-22s", "operation");
        for (String db : dbs) out.printf(" %12s", db);
        out.println();
        for (var e : rows.entrySet()) {
            out.printf("%-22s", e.getKey());
            for (String db : dbs) out.printf(" %12.4f", e.getValue().getOrDefault(db, Double.NaN));
            out.println();
        }
    }

    private static void put(Map<String, Map<String, Double>> rows, String op, String db, double v) {
        rows.computeIfAbsent(op, k -> new LinkedHashMap<>()).put(db, v);
    }

    private static <T> double cpuMedianMs(
            int samples, java.util.function.Supplier<T> setup, java.util.function.Consumer<T> op) {
        for (int i = 0; i < samples; i++) op.accept(setup.get());
        long[] ns = new long[samples];
        for (int i = 0; i < samples; i++) {
            T input = setup.get();
            long t0 = CPU.getCurrentThreadCpuTime();
            op.accept(input);
            ns[i] = CPU.getCurrentThreadCpuTime() - t0;
        }
        Arrays.sort(ns);
        return ns[samples / 2] / 1e6;
    }

    /** Memo bytes retained after a full hash, per key order and threshold, with a quick in-process warm timing. */
    private static void footprint(PrintStream out, List<String> dbs) {
        out.println();
        out.println(
                "Hash memo footprint (bytes retained by memos after one full hash; warm = median thread CPU time of");
        out.println(
                "a hash after 1 random update, 200 samples, in-process, not JMH; checkpoint bytes = this thread's SHA-256");
        out.println("checkpoint traces after those hashes: the first and the last world's)");
        out.printf(
                "%-8s %-9s %10s %12s %12s %10s %12s %12s%n",
                "db", "order", "threshold", "json bytes", "memo bytes", "memo/json", "warm cpu ms", "checkpoints");
        for (String db : dbs) {
            Value loaded = BenchWorlds.db(db).load();
            Random rnd = new Random(42);
            List<BenchWorlds.Update> updates = new ArrayList<>();
            for (int i = 0; i < 200; i++) updates.add(BenchWorlds.randomUpdate(loaded, rnd));
            for (boolean sort : new boolean[] {true, false}) {
                long json = PyJson.dumps(loaded, sort ? PyJson.DumpOptions.SORTED : PyJson.DumpOptions.DEFAULT)
                        .length();
                for (int threshold : new int[] {256, 1024, 4096, 16384, 65536}) {
                    Value world = BenchWorlds.deepCopy(loaded);
                    WorldHash.forgetCheckpoints();
                    WorldHash.sha256(world, sort, threshold);
                    long memo = WorldHash.retainedMemoBytes(world, sort);
                    double warmMs = warmMedianMs(world, updates, sort, threshold);
                    out.printf(
                            "%-8s %-9s %10d %12d %12d %10.3f %12.3f %12d%n",
                            db,
                            sort ? "sorted" : "insertion",
                            threshold,
                            json,
                            memo,
                            (double) memo / json,
                            warmMs,
                            WorldHash.retainedCheckpointBytes());
                }
            }
        }
    }

    private static double warmMedianMs(Value base, List<BenchWorlds.Update> updates, boolean sort, int threshold) {
        for (int i = 0; i < 100; i++)
            WorldHash.sha256(updates.get(i % updates.size()).applyTo(base), sort, threshold);
        long[] ns = new long[updates.size()];
        for (int i = 0; i < ns.length; i++) {
            Value next = updates.get(i).applyTo(base);
            long t0 = CPU.getCurrentThreadCpuTime();
            WorldHash.sha256(next, sort, threshold);
            ns[i] = CPU.getCurrentThreadCpuTime() - t0;
        }
        Arrays.sort(ns);
        return ns[ns.length / 2] / (double) TimeUnit.MILLISECONDS.toNanos(1);
    }
}
