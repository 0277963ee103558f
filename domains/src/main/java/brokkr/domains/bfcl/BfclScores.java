package brokkr.domains.bfcl;

import brokkr.eval.Attempt;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Report;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * BFCL's report over a run's attempts: per-category accuracy with upstream's aggregates, as
 * {@code ./brokkr bfcl run} prints it ({@link #format}) and as the experiment path reports it
 * ({@link #report}, the benchmark's {@link brokkr.eval.BenchmarkProvider#reports}).
 */
public final class BfclScores {
    private BfclScores() {}

    /** One task's result: its category, whether no answer can pass it, whether it passed, whether it was not scored. */
    public record TaskResult(
            BfclCategory category, boolean unsatisfiable, boolean passed, boolean infrastructureFailure) {
        /** The result of an attempt of {@link BfclBenchmark} on {@code env} (which names the task's category). */
        public static TaskResult of(EnvironmentDef env, Attempt a) {
            if (!env.id().equals(a.environmentId()))
                throw new IllegalArgumentException("attempt " + a.taskId() + " is not of environment " + env.taskId());
            return new TaskResult(
                    BfclCategory.of(env.options().get("category").asStr()),
                    BfclBenchmark.unsatisfiable(env),
                    a.success(),
                    !a.completed());
        }
    }

    /** One category's score: upstream's accuracy is passed / tasks graded. */
    public record CategoryScore(BfclCategory category, int tasks, int passed, int unsatisfiable, int failures) {
        public int graded() {
            return tasks - failures;
        }

        public double accuracy() {
            return graded() == 0 ? 0 : (double) passed / graded();
        }
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
    public record Summary(
            Map<BfclCategory, CategoryScore> categories, Double liveOverall, Double irrelevanceDetection) {
        public int passed() {
            return categories.values().stream().mapToInt(CategoryScore::passed).sum();
        }

        public int tasks() {
            return categories.values().stream().mapToInt(CategoryScore::tasks).sum();
        }

        /**
         * Upstream's overall and its five segments over these categories ({@link BfclOverall}): each category with a
         * graded task at its accuracy, weighted by its graded tasks; the segments of categories not run are missing.
         */
        public BfclOverall overall() {
            return overall(Map.of());
        }

        /** As {@link #overall()}, with the categories of other parts of the run (multi-turn, memory) beside these. */
        public BfclOverall overall(Map<String, BfclOverall.Category> others) {
            Map<String, BfclOverall.Category> byId = new java.util.LinkedHashMap<>(others);
            for (CategoryScore c : categories.values())
                if (c.graded() > 0) byId.put(c.category().id(), new BfclOverall.Category(c.accuracy(), c.graded()));
            return BfclOverall.of(byId);
        }
    }

    public static Summary summarize(List<TaskResult> results) {
        Map<BfclCategory, int[]> counts = new EnumMap<>(BfclCategory.class);
        for (TaskResult r : results) {
            int[] c = counts.computeIfAbsent(r.category(), k -> new int[4]);
            c[0]++;
            if (r.passed()) c[1]++;
            if (r.unsatisfiable()) c[2]++;
            if (r.infrastructureFailure()) c[3]++;
        }
        Map<BfclCategory, CategoryScore> scores = new EnumMap<>(BfclCategory.class);
        counts.forEach((k, c) -> scores.put(k, new CategoryScore(k, c[0], c[1], c[2], c[3])));
        Double live = null;
        List<BfclCategory> liveAst = List.of(
                BfclCategory.LIVE_SIMPLE,
                BfclCategory.LIVE_MULTIPLE,
                BfclCategory.LIVE_PARALLEL,
                BfclCategory.LIVE_PARALLEL_MULTIPLE);
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
            irrelevance = (scores.get(BfclCategory.IRRELEVANCE).accuracy()
                            + scores.get(BfclCategory.LIVE_IRRELEVANCE).accuracy())
                    / 2;
        return new Summary(scores, live, irrelevance);
    }

    /** The names of upstream's two aggregates, as both reports give them. */
    public static final String LIVE_OVERALL = "live overall (weighted)",
            IRRELEVANCE_DETECTION = "irrelevance detection (unweighted)";

    /**
     * The summary as plain report data: the same table and aggregates {@link #format} prints, accuracy
     * unrounded (a missing accuracy for a category with nothing graded), the total as the last row.
     */
    public static Report report(Summary s) {
        List<List<Object>> rows = new ArrayList<>();
        for (CategoryScore c : s.categories().values()) {
            rows.add(Arrays.asList(
                    c.category().id(),
                    c.tasks(),
                    c.passed(),
                    c.graded() == 0 ? null : c.accuracy(),
                    c.unsatisfiable(),
                    c.failures()));
        }
        rows.add(Arrays.asList(
                "total",
                s.tasks(),
                s.passed(),
                null,
                s.categories().values().stream()
                        .mapToInt(CategoryScore::unsatisfiable)
                        .sum(),
                s.categories().values().stream()
                        .mapToInt(CategoryScore::failures)
                        .sum()));
        List<Report.Figure> figures = new ArrayList<>(List.of(
                new Report.Figure(LIVE_OVERALL, s.liveOverall()),
                new Report.Figure(IRRELEVANCE_DETECTION, s.irrelevanceDetection())));
        figures.addAll(overallFigures(s.overall()));
        return new Report(
                "per category",
                List.of("category", "tasks", "passed", "accuracy", "unsat", "infra"),
                rows,
                figures,
                List.of(
                        "accuracy = passed / graded (tasks without an infrastructure failure); unsat: tasks no answer can pass",
                        LIVE_OVERALL
                                + ": live_simple, live_multiple, live_parallel, live_parallel_multiple weighted by graded tasks",
                        IRRELEVANCE_DETECTION
                                + ": the mean of irrelevance and live_irrelevance; an aggregate is missing when one of its categories was not run",
                        OVERALL_NOTE));
    }

    /** The name of upstream's overall, as the reports give it. */
    public static final String UPSTREAM_OVERALL = "overall (upstream's weights)";

    static final String OVERALL_NOTE = UPSTREAM_OVERALL
            + ": non-live 10%, live 10%, irrelevance 10%, multi-turn 30%, agentic 40% (eval_runner_helper's"
            + " generate_leaderboard_csv); a segment is missing unless all its categories were run, and the overall"
            + " unless every segment was (upstream counts a category not run as 0); 'overall of the segments run' is"
            + " the same weights over the segments that were, and names them";

    /** Each segment of upstream's overall (missing when not run), upstream's overall, and the overall of the segments run. */
    static List<Report.Figure> overallFigures(BfclOverall o) {
        List<Report.Figure> out = new ArrayList<>();
        for (BfclOverall.Segment seg : o.segments()) {
            out.add(new Report.Figure(
                    seg.name() + " (" + String.format(java.util.Locale.ROOT, "%.0f", seg.weight()) + "%)",
                    seg.accuracy()));
            if (seg.name().equals("agentic"))
                for (BfclOverall.Segment p : o.agenticParts())
                    out.add(new Report.Figure(
                            "agentic: " + p.name() + " (" + String.format(java.util.Locale.ROOT, "%.0f", p.weight())
                                    + "%)",
                            p.accuracy()));
        }
        out.add(new Report.Figure(UPSTREAM_OVERALL, o.upstream()));
        out.add(new Report.Figure("overall of the segments run (" + o.covers() + ")", o.ofSegmentsRun()));
        return out;
    }

    /** The report printed by {@code ./brokkr bfcl run}. */
    public static String format(Summary s) {
        return format(s, Map.of());
    }

    /** As {@link #format(Summary)}, upstream's overall over these categories and {@code others} (the run's other parts). */
    public static String format(Summary s, Map<String, BfclOverall.Category> others) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                "%-24s %6s %6s %9s %6s %6s%n", "category", "tasks", "passed", "accuracy", "unsat", "infra"));
        for (CategoryScore c : s.categories().values()) {
            sb.append(String.format(
                    "%-24s %6d %6d %9.4f %6d %6d%n",
                    c.category().id(), c.tasks(), c.passed(), c.accuracy(), c.unsatisfiable(), c.failures()));
        }
        sb.append(String.format("%-24s %6d %6d%n", "total", s.tasks(), s.passed()));
        sb.append(LIVE_OVERALL)
                .append(": ")
                .append(s.liveOverall() == null ? "N/A" : String.format("%.4f", s.liveOverall()))
                .append('\n');
        sb.append(IRRELEVANCE_DETECTION)
                .append(": ")
                .append(s.irrelevanceDetection() == null ? "N/A" : String.format("%.4f", s.irrelevanceDetection()))
                .append('\n');
        sb.append(formatOverall(s.overall(others)));
        return sb.toString();
    }

    /** Upstream's overall as {@code ./brokkr bfcl run} prints it: each segment (N/A when not run), both overalls. */
    public static String formatOverall(BfclOverall o) {
        StringBuilder sb = new StringBuilder();
        for (Report.Figure f : overallFigures(o))
            sb.append(f.name())
                    .append(": ")
                    .append(f.value() == null ? "N/A" : String.format("%.4f", f.value()))
                    .append('\n');
        return sb.toString();
    }
}
