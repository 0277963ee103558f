package brokkr.render.report;

import brokkr.experiment.Comparison;
import brokkr.experiment.Scorecard;
import brokkr.render.Html;
import brokkr.render.Numbers;
import brokkr.render.experiment.ScorecardTables;
import brokkr.stats.Estimate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The report's first sentence, before any table: what the experiment found. Per benchmark, the candidate with the
 * highest mean reward and its interval, and, with a second candidate, the paired difference to the runner-up with
 * its 95% interval over the tasks both scored; then how many cells there are and how many lack a result.
 */
public final class Headline {
    private Headline() {}

    /** The paired comparison of two candidates of one benchmark, when the store can match their tasks. */
    @FunctionalInterface
    public interface Pairing {
        Optional<Comparison> compare(String benchmark, String best, String runnerUp);
    }

    /** The sentence as HTML (candidate names in bold, every name escaped). */
    public static String html(Scorecard sc, Pairing pairing) {
        Map<String, List<Scorecard.CandidateScore>> byBenchmark = new LinkedHashMap<>();
        for (Scorecard.CandidateScore r : sc.rows())
            if (r.scored())
                byBenchmark
                        .computeIfAbsent(r.benchmark(), b -> new ArrayList<>())
                        .add(r);
        List<String> clauses = new ArrayList<>();
        for (var e : byBenchmark.entrySet()) clauses.add(clause(e.getKey(), e.getValue(), pairing));
        String cells = sc.cells() + " cells, "
                + (sc.pendingCells() == 0 ? "all with a result" : sc.pendingCells() + " without a completed attempt");
        if (clauses.isEmpty()) return "Nothing scored yet: " + cells + ".";
        return "O" + String.join("; o", clauses).substring(1) + "; " + cells + ".";
    }

    /** {@code "on BENCHMARK, <b>best</b> did best: ..."} (lower case: the sentence capitalizes its first). */
    private static String clause(String benchmark, List<Scorecard.CandidateScore> rows, Pairing pairing) {
        // the first listed wins a tie: the scorecard's own order
        Scorecard.CandidateScore best = rows.stream()
                .max(Comparator.comparingDouble(Scorecard.CandidateScore::avgReward)
                        .thenComparing(r -> -rows.indexOf(r)))
                .orElseThrow();
        StringBuilder sb = new StringBuilder();
        sb.append("on ").append(Html.esc(benchmark)).append(", ");
        sb.append("<b>").append(Html.esc(best.candidate())).append("</b>");
        Estimate reward = best.rewardEstimate();
        sb.append(rows.size() > 1 ? " did best: mean reward " : " scored mean reward ")
                .append(Numbers.sig3(best.avgReward()))
                .append(interval(ScorecardTables.readInterval(reward, best.rewardWilson())));
        if (rows.size() == 1) {
            sb.append(" over ").append(best.tasks()).append(best.tasks() == 1 ? " task" : " tasks");
            return sb.toString();
        }
        Scorecard.CandidateScore second = rows.stream()
                .filter(r -> r != best)
                .max(Comparator.comparingDouble(Scorecard.CandidateScore::avgReward)
                        .thenComparing(r -> -rows.indexOf(r)))
                .orElseThrow();
        Optional<Comparison> c = pairing.compare(benchmark, best.candidate(), second.candidate());
        if (c.isEmpty() || c.get().reward().tasks() == 0) {
            sb.append(", ")
                    .append(Numbers.sig3(best.avgReward() - second.avgReward()))
                    .append(" above <b>")
                    .append(Html.esc(second.candidate()))
                    .append("</b> (no task scored by both to pair)");
            return sb.toString();
        }
        Estimate d = c.get().reward().difference();
        int tasks = c.get().reward().tasks();
        sb.append(", ")
                .append(d.value() == 0 ? "level with" : Numbers.sig3(d.value()) + " above")
                .append(" <b>")
                .append(Html.esc(second.candidate()))
                .append("</b> (paired over ")
                .append(tasks)
                .append(tasks == 1 ? " task" : " tasks");
        if (d.t95().defined()) {
            sb.append(", 95% interval ").append(range(d.t95()));
            if (d.t95().contains(0)) sb.append(": no clear difference at this size");
        }
        sb.append(')');
        if (rows.size() > 2) sb.append(", of ").append(rows.size()).append(" candidates");
        return sb.toString();
    }

    private static String interval(Estimate.Interval i) {
        return i.defined() ? " (95% interval " + range(i) + ")" : "";
    }

    private static String range(Estimate.Interval i) {
        return "[" + Numbers.sig3(i.low()) + ", " + Numbers.sig3(i.high()) + "]";
    }
}
