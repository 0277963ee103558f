package brokkr.render.chart;

import brokkr.eval.Attempt;
import brokkr.experiment.ProbeResult;
import brokkr.experiment.Probes;
import java.awt.Color;
import java.awt.Font;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;

/**
 * The charts of probes and branches: the decision-point probe chart (outcome classes with their counts,
 * the gold class in its own colour and named so), two candidates side by side with the p-value, and the
 * distribution of branch rewards per variant.
 */
public final class ProbeCharts {
    private ProbeCharts() {}

    static final Color GOLD = new Color(0x009E73), SAME_TOOL = new Color(0xE69F00), OTHER = new Color(0x8C8C8C);
    static final Map<ProbeResult.Label, Color> FILL = Map.of(
            ProbeResult.Label.MATCHES_GOLD,
            GOLD,
            ProbeResult.Label.SAME_TOOL,
            SAME_TOOL,
            ProbeResult.Label.DIFFERS,
            OTHER,
            ProbeResult.Label.NO_GOLD,
            Charts.COLORS[0]);
    static final Map<ProbeResult.Label, String> LEGEND = Map.of(
            ProbeResult.Label.MATCHES_GOLD,
            "matches the recorded (gold) next action",
            ProbeResult.Label.SAME_TOOL,
            "same tool as gold, other arguments",
            ProbeResult.Label.DIFFERS,
            "differs from gold",
            ProbeResult.Label.NO_GOLD,
            "no recorded next action");
    /** What marks the gold class's name on the category axis (colour alone would not survive greyscale). */
    static final String GOLD_MARK = "[gold] ";

    static final int MAX_LABEL = 30;

    /** One candidate's probe: a bar per outcome class with its count, the class matching gold green and marked. */
    public static CategoryChart probe(ProbeResult r) {
        CategoryChart chart = bars(
                r.benchmark() + " task " + task(r.taskId()) + ", " + r.cutUnit() + " " + r.at() + ": " + r.candidate()
                        + " (" + r.n() + " samples)",
                "next action (outcome class)",
                "samples");
        List<ProbeResult.OutcomeClass> cs = r.classes();
        List<String> names = new ArrayList<>();
        Map<ProbeResult.Label, List<Integer>> by = new LinkedHashMap<>();
        for (ProbeResult.Label l : ProbeResult.Label.values()) by.put(l, new ArrayList<>());
        for (ProbeResult.OutcomeClass c : cs) {
            names.add(name(c.key(), c.label() == ProbeResult.Label.MATCHES_GOLD));
            for (var e : by.entrySet()) e.getValue().add(e.getKey() == c.label() ? c.count() : null);
        }
        // one series per relation to gold, overlapped: each bar is drawn by the one series it belongs to
        chart.getStyler().setOverlapped(true);
        for (var e : by.entrySet()) {
            if (e.getValue().stream().allMatch(x -> x == null)) continue;
            CategorySeries series = chart.addSeries(LEGEND.get(e.getKey()), names, e.getValue());
            series.setFillColor(FILL.get(e.getKey()));
        }
        integerY(
                chart,
                cs.stream().mapToInt(ProbeResult.OutcomeClass::count).max().orElse(1));
        return chart;
    }

    /** Two candidates at one decision point, side by side per outcome class, the p-value of their gold rates in the title. */
    public static CategoryChart comparison(Probes.Comparison c) {
        ProbeResult a = c.first(), b = c.second();
        CategoryChart chart = bars(
                String.format(
                        Locale.ROOT,
                        "%s task %s, %s %d: %s vs %s (p = %.3g, Fisher)",
                        a.benchmark(),
                        task(a.taskId()),
                        a.cutUnit(),
                        a.at(),
                        a.candidate(),
                        b.candidate(),
                        c.test().pValue()),
                "next action (outcome class)",
                "samples");
        Map<String, int[]> counts = new LinkedHashMap<>();
        String goldKey = a.goldKey();
        List<ProbeResult.OutcomeClass> all = new ArrayList<>(a.classes());
        all.addAll(b.classes());
        // the gold class first, then the others by total count
        all.sort((x, y) -> Boolean.compare(
                y.label() == ProbeResult.Label.MATCHES_GOLD, x.label() == ProbeResult.Label.MATCHES_GOLD));
        for (ProbeResult.OutcomeClass oc : all) counts.putIfAbsent(oc.key(), new int[2]);
        for (ProbeResult.OutcomeClass oc : a.classes()) counts.get(oc.key())[0] = oc.count();
        for (ProbeResult.OutcomeClass oc : b.classes()) counts.get(oc.key())[1] = oc.count();
        List<String> names = new ArrayList<>();
        List<Integer> first = new ArrayList<>(), second = new ArrayList<>();
        int max = 1;
        for (var e : counts.entrySet()) {
            // a class matches gold exactly when its key is the gold action's (same calls and arguments, or both text,
            // or both stop)
            names.add(name(e.getKey(), e.getKey().equals(goldKey)));
            first.add(e.getValue()[0] == 0 ? null : e.getValue()[0]); // no bar, no "0" label
            second.add(e.getValue()[1] == 0 ? null : e.getValue()[1]);
            max = Math.max(max, Math.max(e.getValue()[0], e.getValue()[1]));
        }
        chart.addSeries(
                        a.candidate() + String.format(Locale.ROOT, " (gold %d/%d)", a.matchesGold(), a.n()),
                        names,
                        first)
                .setFillColor(Charts.COLORS[0]);
        chart.addSeries(
                        b.candidate() + String.format(Locale.ROOT, " (gold %d/%d)", b.matchesGold(), b.n()),
                        names,
                        second)
                .setFillColor(Charts.COLORS[1]);
        integerY(chart, max);
        return chart;
    }

    /** Branch rewards: how many branches of each variant earned each reward. */
    public static CategoryChart rewards(String title, Map<String, List<Attempt>> byVariant) {
        CategoryChart chart = bars(title, "reward", "branches");
        TreeSet<Double> rewards = new TreeSet<>();
        byVariant.values().forEach(l -> l.stream().filter(Attempt::completed).forEach(a -> rewards.add(a.reward())));
        if (rewards.isEmpty()) rewards.add(0.0);
        List<String> names =
                rewards.stream().map(x -> String.format(Locale.ROOT, "%.2f", x)).toList();
        int max = 1, i = 0;
        for (var e : byVariant.entrySet()) {
            List<Integer> ys = new ArrayList<>();
            for (double x : rewards) {
                int n = (int) e.getValue().stream()
                        .filter(a -> a.completed() && a.reward() == x)
                        .count();
                ys.add(n == 0 ? null : n);
                max = Math.max(max, n);
            }
            chart.addSeries(e.getKey(), names, ys).setFillColor(Charts.COLORS[i++ % Charts.COLORS.length]);
        }
        integerY(chart, max);
        return chart;
    }

    /** A task id short enough for a title (telecom's ids name every fault they inject). */
    public static String task(String id) {
        return id.length() > 24 ? id.substring(0, 21) + "..." : id;
    }

    /** A class's name on the axis: the tool and its arguments clipped, the gold class marked. */
    public static String name(String key, boolean gold) {
        String k = key.length() > MAX_LABEL ? key.substring(0, MAX_LABEL - 3) + "..." : key;
        return gold ? GOLD_MARK + k : k;
    }

    private static CategoryChart bars(String title, String x, String y) {
        CategoryChart chart = Charts.clean(new CategoryChartBuilder()
                .width(Charts.WIDTH)
                .height(Charts.HEIGHT)
                .title(title)
                .xAxisTitle(x)
                .yAxisTitle(y)
                .build());
        CategoryStyler s = chart.getStyler();
        s.setLabelsVisible(true);
        s.setLabelsFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        s.setLabelsFontColorAutomaticEnabled(false);
        s.setLabelsFontColor(Color.WHITE);
        s.setLabelsPosition(0.9);
        s.setLegendPosition(Styler.LegendPosition.OutsideS);
        s.setLegendLayout(Styler.LegendLayout.Horizontal);
        s.setXAxisLabelRotation(0);
        s.setAvailableSpaceFill(0.6);
        return chart;
    }

    /** Counts on a y axis from 0 with room above the tallest bar for its label, whole-number ticks only. */
    private static void integerY(CategoryChart chart, int max) {
        chart.getStyler().setYAxisMin(0.0).setYAxisMax(Math.ceil(max * 1.15) + 0.5);
        chart.getStyler().setYAxisDecimalPattern("0");
    }
}
