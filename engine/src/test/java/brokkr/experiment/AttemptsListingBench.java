package brokkr.experiment;

import brokkr.conversation.ModelCall;
import brokkr.conversation.Usage;
import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.Evidence;
import brokkr.eval.TrustTier;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * {@code experiment attempts} on a big store (a main, not a test): a synthetic store of 2,500 attempts
 * with about 18 KB of evidence each (~37 MB, the size the issue measured), listed the way the listing
 * used to read it (every attempt's full evidence parsed) and the way it does now (only the columns it
 * prints). Reports wall time and bytes allocated by the listing thread for each.
 *
 * <p>Run: {@code java -cp engine/target/classes:engine/target/test-classes:DEPS brokkr.experiment.AttemptsListingBench [attempts]}
 */
public final class AttemptsListingBench {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2500;
        Path dir = Files.createTempDirectory("brokkr-listing");
        build(dir, n);
        long bytes = Files.size(ExperimentStore.file(dir));
        System.out.printf(Locale.ROOT, "store: %d attempts, %.1f MB%n", n, bytes / 1e6);
        for (int round = 0; round < 3; round++) {
            long o0 = System.nanoTime();
            try (ExperimentQuery q = ExperimentQuery.open(dir)) {
                System.out.printf(Locale.ROOT, "  open (with quick_check): %.0f ms%n", (System.nanoTime() - o0) / 1e6);
                measure("full evidence (before)", () -> q.attempts(true, true).size());
                measure(
                        "listed columns (now)  ",
                        () -> Inspect.attempts(q, true).size());
            }
        }
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }

    private static void measure(String what, Supplier<Integer> listing) {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long a0 = mx.getCurrentThreadAllocatedBytes();
        long t0 = System.nanoTime();
        int rows = listing.get();
        long t1 = System.nanoTime();
        long a1 = mx.getCurrentThreadAllocatedBytes();
        System.out.printf(
                Locale.ROOT,
                "  %s: %d rows in %.0f ms, %.0f MB allocated%n",
                what,
                rows,
                (t1 - t0) / 1e6,
                (a1 - a0) / 1e6);
    }

    /** A store whose attempts carry a 30-message transcript and 10 model calls each, all distinct text. */
    static void build(Path dir, int n) {
        var spec = ExperimentTest.spec("all", n / 10, 1, 0, List.of(ExperimentTest.candidate("gold", "gold", null)));
        var plan = Planner.plan(spec, ExperimentTest.registry(10, new QuizBench.Models()))
                .units();
        try (ExperimentStore store = ExperimentStore.openForRun(dir)) {
            store.register(
                    spec.name(),
                    spec.toJson(),
                    plan.stream().map(p -> p.cell().env()).distinct().toList(),
                    List.of(plan.getFirst().cell().agent()),
                    plan.stream().map(StoreSink::row).toList());
            List<ExperimentStore.Prepared> batch = new ArrayList<>();
            for (int i = 0; i < plan.size(); i++) {
                var row = StoreSink.row(plan.get(i));
                List<Value> transcript = new ArrayList<>();
                for (int m = 0; m < 30; m++)
                    transcript.add(PyDict.of(
                            "role",
                            m % 2 == 0 ? "user" : "assistant",
                            "content",
                            "attempt " + i + " message " + m + " " + "lorem ipsum ".repeat(25)));
                List<Evidence.RecordedCall> calls = new ArrayList<>();
                for (int c = 0; c < 10; c++) {
                    calls.add(new Evidence.RecordedCall(
                            "agent",
                            new ModelCall(
                                    "fake",
                                    "gold",
                                    1,
                                    "{\"call\": " + c + ", \"attempt\": " + i + "}",
                                    200,
                                    "{\"choices\": [{\"message\": {\"content\": \"answer " + i + "/" + c + "\"}}]}",
                                    null,
                                    0,
                                    5)));
                }
                Evidence e = new Evidence(
                        PyDict.empty(),
                        PyList.of(transcript),
                        PyDict.of("answer", "x"),
                        "done",
                        "0".repeat(64),
                        calls,
                        java.util.Map.of("agent", new Usage(100, 10)),
                        PyDict.empty(),
                        PyDict.empty());
                batch.add(ExperimentStore.prepare(new Attempt(
                        0,
                        row.key().environmentId(),
                        row.key().agentId(),
                        row.key().repetition(),
                        row.taskId(),
                        Attempt.Status.COMPLETED,
                        List.of(new Check("correct", i % 3 != 0)),
                        i % 3 != 0 ? 1.0 : 0.0,
                        TrustTier.DETERMINISTIC,
                        e,
                        null,
                        0,
                        7)));
                if (batch.size() == 100) {
                    store.recordAll(batch);
                    batch.clear();
                }
            }
            store.recordAll(batch);
        }
    }
}
