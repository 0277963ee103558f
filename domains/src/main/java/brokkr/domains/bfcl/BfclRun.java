package brokkr.domains.bfcl;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs an agent over tasks and scores the verdicts per category, with upstream's aggregates. */
public final class BfclRun {
    private BfclRun() {}

    /** One task's result. {@code verdict} is null for an infrastructure failure. */
    public record TaskResult(BfclTask task, boolean unsatisfiable, BfclAgent.Attempt attempt, Grader.Verdict verdict) {
        public boolean passed() { return verdict != null && verdict.valid(); }
    }

    /**
     * A stable, seeded slice of {@code n} tasks per category (all when {@code n} is null or exceeds the
     * category): tasks ranked by SHA-256 of {@code seed + "/" + id}, so a task's membership does not
     * depend on the other tasks; returned in upstream file order.
     */
    public static List<BfclTask> sample(BfclData data, Iterable<BfclCategory> categories, Integer n, long seed) {
        List<BfclTask> out = new ArrayList<>();
        for (BfclCategory c : categories) {
            List<BfclTask> tasks = data.tasks(c);
            if (n == null || n >= tasks.size()) {
                out.addAll(tasks);
                continue;
            }
            Map<BfclTask, Integer> position = new LinkedHashMap<>();
            for (int i = 0; i < tasks.size(); i++) position.put(tasks.get(i), i);
            List<BfclTask> ranked = new ArrayList<>(tasks);
            ranked.sort(Comparator.comparing((BfclTask t) -> BfclData.sha256((seed + "/" + t.id()).getBytes(StandardCharsets.UTF_8))));
            List<BfclTask> chosen = new ArrayList<>(ranked.subList(0, n));
            chosen.sort(Comparator.comparing(position::get));
            out.addAll(chosen);
        }
        return out;
    }

    /** Runs {@code agent} on every task with {@code jobs} tasks at a time; results in task order. */
    public static List<TaskResult> run(List<BfclTask> tasks, BfclAgent agent, Set<String> unsatisfiable, int jobs) {
        try (ExecutorService pool = jobs <= 1 ? Executors.newSingleThreadExecutor() : Executors.newFixedThreadPool(jobs)) {
            List<Future<TaskResult>> futures = new ArrayList<>();
            for (BfclTask t : tasks) futures.add(pool.submit(() -> one(t, agent, unsatisfiable.contains(t.id()))));
            List<TaskResult> out = new ArrayList<>(tasks.size());
            for (Future<TaskResult> f : futures) out.add(f.get());
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        }
    }

    static TaskResult one(BfclTask task, BfclAgent agent, boolean unsat) {
        BfclAgent.Attempt a = agent.attempt(task);
        // Brokkr's candidates are function-calling models: they see `_` names (underscore_to_dot).
        Grader.Verdict v = a.failure() != null ? null : BfclHarness.grade(task, a.answer(), true);
        return new TaskResult(task, unsat, a, v);
    }

    /** One category's score: upstream's accuracy is passed / tasks graded. */
    public record CategoryScore(BfclCategory category, int tasks, int passed, int unsatisfiable, int failures) {
        public int graded() { return tasks - failures; }
        public double accuracy() { return graded() == 0 ? 0 : (double) passed / graded(); }
    }

    /**
     * Per-category scores and upstream's two aggregates over these categories
     * (eval_runner_helper.py generate_leaderboard_csv): the live overall accuracy, weighted by task
     * count over live_simple, live_multiple, live_parallel and live_parallel_multiple
     * ({@code calculate_weighted_accuracy}), and irrelevance detection, the unweighted mean of
     * irrelevance and live_irrelevance ({@code calculate_unweighted_accuracy}). Upstream's non-live
     * summary also averages in the Java and JavaScript categories, which are out of scope, so it is
     * not given. An aggregate is null when one of its categories was not run.
     */
    public record Summary(Map<BfclCategory, CategoryScore> categories, Double liveOverall, Double irrelevanceDetection) {
        public int passed() { return categories.values().stream().mapToInt(CategoryScore::passed).sum(); }
        public int tasks() { return categories.values().stream().mapToInt(CategoryScore::tasks).sum(); }
    }

    public static Summary summarize(List<TaskResult> results) {
        Map<BfclCategory, int[]> counts = new EnumMap<>(BfclCategory.class);
        for (TaskResult r : results) {
            int[] c = counts.computeIfAbsent(r.task().category(), k -> new int[4]);
            c[0]++;
            if (r.passed()) c[1]++;
            if (r.unsatisfiable()) c[2]++;
            if (r.verdict() == null) c[3]++;
        }
        Map<BfclCategory, CategoryScore> scores = new EnumMap<>(BfclCategory.class);
        counts.forEach((k, c) -> scores.put(k, new CategoryScore(k, c[0], c[1], c[2], c[3])));
        Double live = null;
        List<BfclCategory> liveAst = List.of(BfclCategory.LIVE_SIMPLE, BfclCategory.LIVE_MULTIPLE,
                BfclCategory.LIVE_PARALLEL, BfclCategory.LIVE_PARALLEL_MULTIPLE);
        if (scores.keySet().containsAll(liveAst)) {
            double sum = 0;
            int n = 0;
            for (BfclCategory c : liveAst) {
                sum += scores.get(c).accuracy() * scores.get(c).graded();
                n += scores.get(c).graded();
            }
            live = n == 0 ? 0 : sum / n;
        }
        Double irrelevance = null;
        if (scores.containsKey(BfclCategory.IRRELEVANCE) && scores.containsKey(BfclCategory.LIVE_IRRELEVANCE))
            irrelevance = (scores.get(BfclCategory.IRRELEVANCE).accuracy() + scores.get(BfclCategory.LIVE_IRRELEVANCE).accuracy()) / 2;
        return new Summary(scores, live, irrelevance);
    }

    /** The report printed by {@code ./brokkr bfcl run}. */
    public static String format(Summary s) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-24s %6s %6s %9s %6s %6s%n", "category", "tasks", "passed", "accuracy", "unsat", "infra"));
        for (CategoryScore c : s.categories().values()) {
            sb.append(String.format("%-24s %6d %6d %9.4f %6d %6d%n", c.category().id(), c.tasks(), c.passed(), c.accuracy(),
                    c.unsatisfiable(), c.failures()));
        }
        sb.append(String.format("%-24s %6d %6d%n", "total", s.tasks(), s.passed()));
        sb.append("live overall (weighted): ").append(s.liveOverall() == null ? "N/A" : String.format("%.4f", s.liveOverall())).append('\n');
        sb.append("irrelevance detection (unweighted): ")
                .append(s.irrelevanceDetection() == null ? "N/A" : String.format("%.4f", s.irrelevanceDetection())).append('\n');
        return sb.toString();
    }
}
