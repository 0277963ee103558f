package brokkr.domains.bfcl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Upstream's overall BFCL score ({@code eval_runner_helper.generate_leaderboard_csv}, commit 6ea5797): five
 * segments weighed by {@code calculate_percentage_weighted_accuracy} with weights {@code [10, 10, 10, 30, 40]}:
 * <ul>
 *   <li>non-live: the unweighted mean of simple (itself the mean of simple_python, simple_java,
 *       simple_javascript), multiple, parallel and parallel_multiple;</li>
 *   <li>live: live_simple, live_multiple, live_parallel and live_parallel_multiple weighted by their task
 *       counts ({@code calculate_weighted_accuracy});</li>
 *   <li>irrelevance: the mean of irrelevance and live_irrelevance;</li>
 *   <li>multi-turn: the mean of multi_turn_base, _miss_func, _miss_param and _long_context;</li>
 *   <li>agentic: the mean of web search (web_search_base, web_search_no_snippet) and memory (memory_kv,
 *       memory_vector, memory_rec_sum).</li>
 * </ul>
 * Upstream counts a category that was not run as 0 ({@code get_category_score}: "it will still be considered 0 in
 * the overall score calculation"), so its overall of a partial run is no score of the model. Here a segment has a
 * value only when every one of its categories was run, and upstream's overall ({@link #upstream}) only when every
 * segment has one; {@link #ofSegmentsRun} is the same weights over the segments that have a value, always shown
 * with the segments it covers ({@link #covers}), never under upstream's name. The agentic segment's two halves
 * ({@link #agenticParts}: web search, memory) are given beside it, and one that ran counts in the overall of the
 * segments run while the other has not.
 */
public record BfclOverall(List<Segment> segments, List<Segment> agenticParts) {

    /** One category's accuracy and the task count it is weighted by (in the live segment). */
    public record Category(double accuracy, int count) {}

    /** A segment: its upstream weight (of 100), its categories, and its accuracy (null unless all of them ran). */
    public record Segment(String name, double weight, List<String> categories, Double accuracy) {}

    public static final List<String> SIMPLE = List.of("simple_python", "simple_java", "simple_javascript");
    public static final List<String> NON_LIVE_REST = List.of("multiple", "parallel", "parallel_multiple");
    public static final List<String> LIVE =
            List.of("live_simple", "live_multiple", "live_parallel", "live_parallel_multiple");
    public static final List<String> IRRELEVANCE = List.of("irrelevance", "live_irrelevance");
    public static final List<String> MULTI_TURN =
            List.of("multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context");
    public static final List<String> WEB_SEARCH = List.of("web_search_base", "web_search_no_snippet");
    public static final List<String> MEMORY = List.of("memory_kv", "memory_vector", "memory_rec_sum");

    public BfclOverall {
        segments = List.copyOf(segments);
        agenticParts = List.copyOf(agenticParts);
    }

    /** Segments without agentic parts. */
    public BfclOverall(List<Segment> segments) {
        this(segments, List.of());
    }

    /** The overall of the categories in {@code byCategory} (by upstream's category name; others are not run). */
    public static BfclOverall of(Map<String, Category> byCategory) {
        List<String> nonLive = new ArrayList<>(SIMPLE);
        nonLive.addAll(NON_LIVE_REST);
        List<String> agentic = new ArrayList<>(WEB_SEARCH);
        agentic.addAll(MEMORY);
        Double simple = mean(byCategory, SIMPLE);
        Double nonLiveAcc = simple == null || !byCategory.keySet().containsAll(NON_LIVE_REST)
                ? null
                : (simple + sum(byCategory, NON_LIVE_REST)) / 4;
        Double live = null;
        if (byCategory.keySet().containsAll(LIVE)) {
            double weighted = 0;
            int n = 0;
            for (String c : LIVE) {
                weighted += byCategory.get(c).accuracy() * byCategory.get(c).count();
                n += byCategory.get(c).count();
            }
            live = n == 0 ? null : weighted / n;
        }
        Double web = mean(byCategory, WEB_SEARCH), memory = mean(byCategory, MEMORY);
        // The agentic segment's halves (summary_web_search, summary_memory), each 20 of upstream's 100: the web-search
        // slot is filled when its categories run (web_search_base, web_search_no_snippet), memory's when all three of
        // memory_kv, memory_vector and memory_rec_sum do.
        List<Segment> parts =
                List.of(new Segment("web search", 20, WEB_SEARCH, web), new Segment("memory", 20, MEMORY, memory));
        return new BfclOverall(
                List.of(
                        new Segment("non-live", 10, nonLive, nonLiveAcc),
                        new Segment("live", 10, LIVE, live),
                        new Segment("irrelevance", 10, IRRELEVANCE, mean(byCategory, IRRELEVANCE)),
                        new Segment("multi-turn", 30, MULTI_TURN, mean(byCategory, MULTI_TURN)),
                        new Segment("agentic", 40, agentic, web == null || memory == null ? null : (web + memory) / 2)),
                parts);
    }

    /**
     * The segments {@link #ofSegmentsRun} weighs: those with a value, and when the agentic segment has none, those of
     * its halves that have one (agentic is the unweighted mean of its two halves, so each carries 20 of its 40).
     */
    private List<Segment> weighed() {
        List<Segment> out = new ArrayList<>();
        for (Segment s : segments) {
            if (s.accuracy() != null) out.add(s);
            else if (s.name().equals("agentic")) for (Segment p : agenticParts) if (p.accuracy() != null) out.add(p);
        }
        return out;
    }

    /** Upstream's overall: every segment weighed by its share; null unless every segment has a value. */
    public Double upstream() {
        double acc = 0;
        for (Segment s : segments) {
            if (s.accuracy() == null) return null;
            acc += s.accuracy() * s.weight() / 100;
        }
        return acc;
    }

    /** Upstream's weights renormalised over the segments that have a value; null when none has. */
    public Double ofSegmentsRun() {
        double acc = 0, weight = 0;
        for (Segment s : weighed()) {
            acc += s.accuracy() * s.weight();
            weight += s.weight();
        }
        return weight == 0 ? null : acc / weight;
    }

    /** What {@link #ofSegmentsRun} covers: {@code live, irrelevance: 20% of upstream's weight}. */
    public String covers() {
        List<String> names = new ArrayList<>();
        double weight = 0;
        for (Segment s : weighed()) {
            names.add(agenticParts.contains(s) ? s.name() + " (half of agentic)" : s.name());
            weight += s.weight();
        }
        if (names.isEmpty()) return "no segment";
        return String.join(", ", names) + ": " + String.format(Locale.ROOT, "%.0f", weight) + "% of upstream's weight";
    }

    /** The segments without a value (some category of theirs was not run). */
    public List<String> notRun() {
        return segments.stream()
                .filter(s -> s.accuracy() == null)
                .map(Segment::name)
                .toList();
    }

    private static Double mean(Map<String, Category> byCategory, List<String> categories) {
        return byCategory.keySet().containsAll(categories) ? sum(byCategory, categories) / categories.size() : null;
    }

    private static double sum(Map<String, Category> byCategory, List<String> categories) {
        double s = 0;
        for (String c : categories) s += byCategory.get(c).accuracy();
        return s;
    }
}
