package brokkr.experiment;

import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.TrustTier;
import brokkr.experiment.testing.PostgresServer;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The store's cost per cell record, SQLite against PostgreSQL, side by side in one process (a main, not a test):
 * each store records the same attempts (a 3,000-character answer, its evidence as a run keeps it), one committed
 * transaction per attempt (the worst case of the runner's group commit), in interleaved rounds so that the
 * machine's load falls on both alike. SQLite: WAL, synchronous=NORMAL (a commit survives a killed process);
 * PostgreSQL 15 on loopback with its durable defaults (fsync on, synchronous_commit on: a commit survives a
 * power cut), and with fsync off (the tests' server) for the cost without the disk flush. Reports the wall time
 * and the calling thread's CPU per record.
 *
 * <p>Run: {@code java -cp engine/target/classes:engine/target/test-classes:DEPS brokkr.experiment.StoreCostBench [attempts] [rounds]}
 */
public final class StoreCostBench {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path tmp = Files.createTempDirectory("brokkr-store-cost");
        try (PostgresServer durable = PostgresServer.start(true);
                PostgresServer fast = PostgresServer.start(false)) {
            durable.sql("CREATE DATABASE bench");
            fast.sql("CREATE DATABASE bench");
            Map<String, StoreLocation> stores = new LinkedHashMap<>();
            stores.put("sqlite (WAL, synchronous=NORMAL)", StoreLocation.of(tmp.resolve("lite")));
            stores.put("postgresql (fsync on)", StoreLocation.parse(durable.url("bench", null)));
            stores.put("postgresql (fsync off)", StoreLocation.parse(fast.url("bench", null)));
            Map<String, double[]> wall = new LinkedHashMap<>(), cpu = new LinkedHashMap<>();
            for (String k : stores.keySet()) {
                wall.put(k, new double[rounds]);
                cpu.put(k, new double[rounds]);
            }
            var threads = ManagementFactory.getThreadMXBean();
            for (int round = 0; round < rounds; round++) {
                for (var e : stores.entrySet()) {
                    StoreLocation where = round == 0 ? e.getValue() : next(e.getValue(), round);
                    try (ExperimentStore store = ExperimentStore.openForRun(where)) {
                        List<Attempt> attempts = register(store, n);
                        List<ExperimentStore.Prepared> prepared =
                                attempts.stream().map(ExperimentStore::prepare).toList();
                        long c0 = threads.getCurrentThreadCpuTime(), t0 = System.nanoTime();
                        for (ExperimentStore.Prepared p : prepared) store.recordAll(List.of(p));
                        wall.get(e.getKey())[round] = (System.nanoTime() - t0) / 1e6 / n;
                        cpu.get(e.getKey())[round] = (threads.getCurrentThreadCpuTime() - c0) / 1e6 / n;
                    }
                }
            }
            double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            System.out.printf(
                    Locale.ROOT,
                    "store cost per cell record: %d attempts x %d rounds, one transaction each (load average %.2f)%n",
                    n,
                    rounds,
                    load);
            double base = median(wall.values().iterator().next());
            for (String k : stores.keySet()) {
                System.out.printf(
                        Locale.ROOT,
                        "  %-34s wall %.3f ms (x%.2f of SQLite's), caller's CPU %.3f ms (median of rounds)%n",
                        k,
                        median(wall.get(k)),
                        median(wall.get(k)) / base,
                        median(cpu.get(k)));
            }
        }
    }

    /** A fresh store per round (a new directory, a new schema): each round measures inserts into an empty store. */
    private static StoreLocation next(StoreLocation l, int round) {
        return switch (l) {
            case StoreLocation.Directory d ->
                StoreLocation.of(d.dir().resolveSibling(d.dir().getFileName() + "" + round));
            case PostgresLocation pg -> pg.withSchema("round" + round);
        };
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        java.util.Arrays.sort(s);
        return s[s.length / 2];
    }

    /** {@code n} cells of one task (repetitions 0..n-1) and a completed attempt for each. */
    static List<Attempt> register(ExperimentStore store, int n) {
        var spec = ExperimentTest.spec("all", 1, 1, 0, List.of(ExperimentTest.candidate("gold", "gold", null)));
        var unit = Planner.plan(spec, ExperimentTest.registry(1, new QuizBench.Models()))
                .units()
                .getFirst();
        var row = StoreSink.row(unit);
        List<ExperimentStore.Cell> cells = new ArrayList<>();
        List<Attempt> attempts = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            var key = new ExperimentStore.CellKey(
                    row.key().environmentId(), row.key().agentId(), r);
            cells.add(new ExperimentStore.Cell(key, row.candidate(), row.benchmark(), row.taskId(), true));
            attempts.add(new Attempt(
                    0,
                    key.environmentId(),
                    key.agentId(),
                    r,
                    row.taskId(),
                    Attempt.Status.COMPLETED,
                    List.of(new Check("correct", true)),
                    1.0,
                    TrustTier.DETERMINISTIC,
                    EvidenceCodecTest.evidence(EvidenceCodecTest.answer(3000, r)),
                    null,
                    System.currentTimeMillis(),
                    5));
        }
        store.register(
                spec.name(),
                spec.toJson(),
                List.of(unit.cell().env()),
                List.of(unit.cell().agent()),
                cells);
        return attempts;
    }
}
