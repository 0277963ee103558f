package brokkr.command;

import brokkr.conversation.Candidate;
import brokkr.eval.Attempt;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.experiment.ProviderModels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * How the benchmark commands run their cells: each one {@link Evaluation#evaluate} (the path
 * experiments take), up to {@code parallelism} at once, each attempt handed on in cell order as soon as
 * it and those before it are done. Nothing is stored: the commands print their own reports.
 * (Moved here as it was from the CLI so families' commands can use it; the runner replaces it.)
 */
public final class Cells {
    private Cells() {}

    /** Evaluates {@code cells}, {@code parallelism} at a time, and gives {@code inOrder} each attempt in cell order. */
    public static void run(List<Evaluation.Cell> cells, Function<ModelRef, Candidate> models, int parallelism, Consumer<Attempt> inOrder)
            throws InterruptedException {
        if (parallelism <= 1) {
            for (Evaluation.Cell c : cells) inOrder.accept(Evaluation.evaluate(c, models, new Evaluation.Recorder()));
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(parallelism);
        try {
            List<Future<Attempt>> futures = new ArrayList<>(cells.size());
            for (Evaluation.Cell c : cells) futures.add(pool.submit(() -> Evaluation.evaluate(c, models, new Evaluation.Recorder())));
            for (Future<Attempt> f : futures) {
                try {
                    inOrder.accept(f.get());
                } catch (ExecutionException e) {
                    // evaluate turns every failure into an attempt; what escapes it is an Error.
                    if (e.getCause() instanceof Error err) throw err;
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** All attempts of {@link #run}, in cell order. */
    public static List<Attempt> all(List<Evaluation.Cell> cells, Function<ModelRef, Candidate> models, int parallelism) throws InterruptedException {
        List<Attempt> out = new ArrayList<>(cells.size());
        run(cells, models, parallelism, out::add);
        return out;
    }

    /**
     * Model references as candidates of the HTTP providers configured from {@code env} (keys and base
     * URLs; the process environment, or a map in tests), options mapped as experiments map them
     * ({@link ProviderModels}), each reference opened once.
     */
    public static Function<ModelRef, Candidate> providers(Map<String, String> env) {
        return cached(ref -> new ProviderModels(ref.provider(), env) {}.create(ref));
    }

    /** {@code open} once per model reference (a candidate may be used from several threads at once). */
    public static Function<ModelRef, Candidate> cached(Function<ModelRef, Candidate> open) {
        Map<ModelRef, Candidate> cache = new ConcurrentHashMap<>();
        return ref -> cache.computeIfAbsent(ref, open);
    }
}
