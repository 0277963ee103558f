package brokkr.render.chart;

import brokkr.experiment.Comparison;
import brokkr.experiment.EpisodeCost;
import brokkr.experiment.Scorecard;
import brokkr.render.Numbers;
import brokkr.render.experiment.ScorecardTables;
import brokkr.stats.Estimate;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Paint;
import java.awt.Shape;
import java.awt.font.FontRenderContext;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Brokkr's charts: one clean look (white, light grid, readable fonts) at a size that reads in a
 * notebook or a report, and series told apart by colour, marker and line style together, so that
 * curves lying on top of each other (two candidates at pass^k 1.0) stay visible and the chart reads
 * in greyscale too.
 */
public final class Charts {
    private Charts() {}

    public static final int WIDTH = 880;
    public static final int HEIGHT = 520;

    /** Okabe and Ito's colour-blind-safe palette (without its yellow, too pale on white). */
    public static final Color[] COLORS = {
        new Color(0x0072B2),
        new Color(0xD55E00),
        new Color(0x009E73),
        new Color(0xCC79A7),
        new Color(0x56B4E9),
        new Color(0xE69F00),
        new Color(0x000000)
    };
    /**
     * Open markers, each series' smaller than the one before and of another shape: where two series
     * share a point both outlines show (nested), which filled markers of one size would hide.
     */
    static final Marker[] MARKERS = {
        new Open(Open.Kind.CIRCLE, 1.5),
        new Open(Open.Kind.SQUARE, 1.1),
        new Open(Open.Kind.DIAMOND, 0.9),
        new Open(Open.Kind.TRIANGLE, 0.75),
        new Open(Open.Kind.CIRCLE, 0.55),
        new Open(Open.Kind.SQUARE, 0.45)
    };
    /** Solid and wide first, then narrower dashed, dotted and dash-dotted lines that leave the wider ones visible beside them. */
    static final BasicStroke[] LINES = {
        new BasicStroke(5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND),
        new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {10f, 6f}, 0f),
        new BasicStroke(2.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 10f, new float[] {1f, 6f}, 0f),
        new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {12f, 5f, 2f, 5f}, 0f)
    };

    /** An outlined marker filled white, {@code scale} times the styler's marker size. */
    static final class Open extends Marker {
        enum Kind {
            CIRCLE,
            SQUARE,
            DIAMOND,
            TRIANGLE
        }

        private final Kind kind;
        private final double scale;

        Open(Kind kind, double scale) {
            this.kind = kind;
            this.scale = scale;
        }

        @Override
        public void paint(Graphics2D g, double x, double y, int markerSize) {
            double r = markerSize * scale / 2;
            Shape shape = switch (kind) {
                case CIRCLE -> new Ellipse2D.Double(x - r, y - r, 2 * r, 2 * r);
                case SQUARE -> new Rectangle2D.Double(x - r * 0.9, y - r * 0.9, 1.8 * r, 1.8 * r);
                case DIAMOND ->
                    polygon(new double[] {x, x + r * 1.2, x, x - r * 1.2}, new double[] {y - r * 1.2, y, y + r * 1.2, y
                    });
                case TRIANGLE ->
                    polygon(
                            new double[] {x, x + r * 1.1, x - r * 1.1},
                            new double[] {y - r * 1.2, y + r * 0.9, y + r * 0.9});
            };
            Paint ink = g.getPaint();
            g.setPaint(Color.WHITE);
            g.fill(shape);
            g.setPaint(ink);
            g.setStroke(new BasicStroke(2.2f));
            g.draw(shape);
        }

        private static Shape polygon(double[] xs, double[] ys) {
            Path2D.Double p = new Path2D.Double();
            p.moveTo(xs[0], ys[0]);
            for (int i = 1; i < xs.length; i++) p.lineTo(xs[i], ys[i]);
            p.closePath();
            return p;
        }
    }

    private static final Color INK = new Color(0x222222), GRID = new Color(0xE3E3E3), AXIS = new Color(0x888888);

    /** Applies the look to any XChart chart (built by hand in a notebook too); returns it. */
    public static <C extends Chart<?, ?>> C clean(C chart) {
        Styler s = chart.getStyler();
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderVisible(false);
        s.setChartFontColor(INK);
        s.setChartTitleBoxVisible(false);
        s.setChartTitleFont(titleFont(chart.getTitle(), chart.getWidth() - 2 * 14));
        if (chart.getTitle() != null) chart.setTitle(fittedTitle(chart.getTitle(), chart.getWidth() - 2 * 14));
        s.setChartTitlePadding(12);
        s.setChartPadding(14);
        s.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        s.setLegendBorderColor(GRID);
        s.setLegendBackgroundColor(Color.WHITE);
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setLegendSeriesLineLength(36);
        s.setSeriesColors(COLORS);
        s.setSeriesMarkers(MARKERS);
        s.setSeriesLines(LINES);
        s.setMarkerSize(11);
        s.setAntiAlias(true);
        if (s instanceof AxesChartStyler a) {
            a.setPlotGridLinesColor(GRID);
            a.setPlotGridLinesStroke(new BasicStroke(1f));
            a.setPlotGridVerticalLinesVisible(false);
            a.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
            a.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
            a.setAxisTickMarksColor(AXIS);
            a.setAxisTickLabelsColor(INK);
            a.setPlotMargin(6);
        }
        return chart;
    }

    /** The title's font size at most, and the least it is shrunk to before the title is cut. */
    static final int TITLE_SIZE = 17, TITLE_MIN_SIZE = 12;

    private static final FontRenderContext MEASURE = new FontRenderContext(null, true, true);

    /**
     * The bold title font, shrunk from {@value #TITLE_SIZE} towards {@value #TITLE_MIN_SIZE} points until
     * {@code title} fits {@code width} pixels: XChart draws a title on one line and clips what is wider than the
     * chart ("branch rewards (8 branches" lost its end).
     */
    static Font titleFont(String title, int width) {
        Font f = new Font(Font.SANS_SERIF, Font.BOLD, TITLE_SIZE);
        if (title == null) return f;
        for (int size = TITLE_SIZE; size > TITLE_MIN_SIZE && textWidth(f, title) > width; size--)
            f = f.deriveFont((float) (size - 1));
        return f;
    }

    /** The title as drawn: whole when it fits at the smallest size, else its middle cut with "…" (start and end kept). */
    static String fittedTitle(String title, int width) {
        Font smallest = new Font(Font.SANS_SERIF, Font.BOLD, TITLE_MIN_SIZE);
        if (textWidth(smallest, title) <= width) return title;
        int keep = title.length();
        String cut = title;
        while (keep > 8 && textWidth(smallest, cut) > width) {
            keep--;
            int head = (keep + 1) / 2;
            cut = title.substring(0, head) + "…" + title.substring(title.length() - (keep - head));
        }
        return cut;
    }

    private static double textWidth(Font f, String s) {
        return f.getStringBounds(s, MEASURE).getWidth();
    }

    /**
     * Gives the series, in order, their own colour, marker and line style together (XChart's cycle
     * changes the line style only after a full round of colours); returns the chart.
     */
    public static XYChart distinguish(XYChart chart) {
        int i = 0;
        for (XYSeries s : chart.getSeriesMap().values()) {
            s.setLineColor(COLORS[i % COLORS.length]);
            s.setMarkerColor(COLORS[i % COLORS.length]);
            s.setMarker(MARKERS[i % MARKERS.length]);
            s.setLineStyle(LINES[i % LINES.length]);
            i++;
        }
        return chart;
    }

    /** An XY chart of the default size and the clean look. */
    public static XYChart xy(String title, String xTitle, String yTitle) {
        return clean(new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle(xTitle)
                .yAxisTitle(yTitle)
                .build());
    }

    /** x ticks only at whole numbers (k, sizes): XChart would otherwise label 1.5, 2.5 for a few points. */
    public static void integerX(XYChart chart) {
        // XChart keeps a tick spacing only when its labels are all different and fit (else it widens the
        // spacing, down to the axis ends alone): the unlabelled ticks between whole numbers get short
        // blanks, one space more for each whole number below them.
        chart.getStyler()
                .setxAxisTickLabelsFormattingFunction(x -> Math.abs(x - Math.rint(x)) < 1e-9
                        ? String.valueOf(Math.round(x))
                        : " ".repeat(1 + (int) Math.floor(Math.abs(x))));
    }

    /** A rate axis: 0 to 1 with ticks every 0.1 labelled 0.0 to 1.0. */
    public static void unitY(XYChart chart) {
        chart.getStyler()
                .setYAxisMin(0.0)
                .setYAxisMax(1.0)
                .setYAxisDecimalPattern("0.0")
                .setYAxisTickMarkSpacingHint(40);
    }

    /**
     * pass^k against k, one curve per benchmark and candidate, titled with the experiment's name and
     * how much it rests on ({@code "loop-passk: pass^k by candidate (5 tasks, 4 trials)"}), each point
     * with its 95% interval over tasks as an error bar (the interval the statistics table marks to read:
     * {@link ScorecardTables#readInterval}). Candidates' points are set a little apart along k so that
     * bars of equal values do not hide each other.
     */
    public static XYChart passK(String experiment, Scorecard sc) {
        XYChart chart = xy(
                passKTitle(experiment, sc), "k (trials that must all pass)", "pass^k (bars: 95% interval over tasks)");
        integerX(chart);
        unitY(chart);
        boolean benchmarks = sc.rows().stream()
                        .map(Scorecard.CandidateScore::benchmark)
                        .distinct()
                        .count()
                > 1;
        List<Scorecard.CandidateScore> drawn =
                sc.rows().stream().filter(r -> !r.passHatK().isEmpty()).toList();
        List<double[]> xsOf = new ArrayList<>();
        for (int c = 0; c < drawn.size(); c++) {
            Scorecard.CandidateScore r = drawn.get(c);
            List<Double> curve = r.passHatK();
            double shift = dodge(c, drawn.size());
            double[] xs = new double[curve.size()], ys = new double[curve.size()];
            for (int i = 0; i < curve.size(); i++) {
                xs[i] = i + 1 + shift;
                ys[i] = curve.get(i);
            }
            xsOf.add(xs);
            XYSeries s = chart.addSeries(benchmarks ? r.benchmark() + " / " + r.candidate() : r.candidate(), xs, ys);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        }
        distinguish(chart);
        for (int c = 0; c < drawn.size(); c++) {
            Scorecard.CandidateScore r = drawn.get(c);
            List<Estimate> est = r.passHatKEstimates();
            List<Estimate.Interval> wilson = r.passHatKWilson();
            for (int i = 0; i < est.size(); i++) {
                Estimate.Interval iv = ScorecardTables.readInterval(est.get(i), wilson.get(i));
                if (iv.defined() && iv.high() > iv.low())
                    errorBar(chart, "95% " + c + "/" + i, xsOf.get(c)[i], iv, COLORS[c % COLORS.length]);
            }
        }
        int maxK = sc.maxK();
        chart.getStyler().setXAxisMin(0.5).setXAxisMax(Math.max(1, maxK) + 0.5);
        return chart;
    }

    /**
     * Score against cost, one point per benchmark and candidate whose agent cost is priced: the mean reward
     * (pass^1 for 0/1 rewards) against the agent's US dollars per episode ({@code usd_agent/ep}: the judge's and
     * user simulator's cost is the evaluation's, not the candidate's), the Pareto front (no other candidate of
     * the benchmark is as good for less or better for as much) joined by a step line and its points named with a
     * star. Null when no candidate has a priced cost (nothing to draw, never a point at $0).
     */
    public static XYChart scoreVsCost(String experiment, Scorecard sc) {
        List<Scorecard.CandidateScore> priced = sc.rows().stream()
                .filter(r -> r.scored() && !Double.isNaN(r.cost().perEpisode().usd(EpisodeCost.COST_ROLES.getFirst())))
                .toList();
        if (priced.isEmpty()) return null;
        boolean benchmarks = priced.stream()
                        .map(Scorecard.CandidateScore::benchmark)
                        .distinct()
                        .count()
                > 1;
        XYChart chart = xy(
                experiment + ": score against cost (" + priced.size() + " candidates, * on the Pareto front)",
                "agent US dollars per episode",
                "mean reward (pass^1)");
        unitY(chart);
        List<Scorecard.CandidateScore> front = paretoFront(priced);
        for (Scorecard.CandidateScore r : priced) {
            String name = (benchmarks ? r.benchmark() + " / " : "") + r.candidate() + (front.contains(r) ? " *" : "");
            XYSeries s = chart.addSeries(
                    name,
                    new double[] {r.cost().perEpisode().usd(EpisodeCost.COST_ROLES.getFirst())},
                    new double[] {r.avgReward()});
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
        distinguish(chart);
        for (String bench : front.stream()
                .map(Scorecard.CandidateScore::benchmark)
                .distinct()
                .toList()) {
            List<Scorecard.CandidateScore> f =
                    front.stream().filter(r -> r.benchmark().equals(bench)).toList();
            if (f.size() < 2) continue;
            // A step line: from each front point right to the next one's cost, then up to its score.
            double[] xs = new double[2 * f.size() - 1], ys = new double[2 * f.size() - 1];
            for (int i = 0; i < f.size(); i++) {
                xs[2 * i] = f.get(i).cost().perEpisode().usd(EpisodeCost.COST_ROLES.getFirst());
                ys[2 * i] = f.get(i).avgReward();
                if (i + 1 < f.size()) {
                    xs[2 * i + 1] = f.get(i + 1).cost().perEpisode().usd(EpisodeCost.COST_ROLES.getFirst());
                    ys[2 * i + 1] = f.get(i).avgReward();
                }
            }
            XYSeries line = chart.addSeries("Pareto front" + (benchmarks ? " " + bench : ""), xs, ys);
            line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            line.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
            line.setLineColor(java.awt.Color.GRAY);
            line.setLineStyle(new java.awt.BasicStroke(1.2f));
        }
        chart.getStyler().setXAxisMin(0.0);
        // Dollars with their leading zero (the default pattern printed ".001"), to four places of cents' fractions.
        chart.getStyler().setXAxisDecimalPattern("0.0####");
        return chart;
    }

    /**
     * The candidates no other of the same benchmark dominates (costs no more and scores no less, one of them
     * strictly), by benchmark and then by cost ascending.
     */
    public static List<Scorecard.CandidateScore> paretoFront(List<Scorecard.CandidateScore> rows) {
        List<Scorecard.CandidateScore> out = new ArrayList<>();
        for (Scorecard.CandidateScore r : rows) {
            double c = r.cost().perEpisode().usd(EpisodeCost.COST_ROLES.getFirst());
            boolean dominated = rows.stream()
                    .filter(o -> o != r && o.benchmark().equals(r.benchmark()))
                    .anyMatch(o -> {
                        double oc = o.cost().perEpisode().usd(EpisodeCost.COST_ROLES.getFirst());
                        return oc <= c && o.avgReward() >= r.avgReward() && (oc < c || o.avgReward() > r.avgReward());
                    });
            if (!dominated) out.add(r);
        }
        out.sort(java.util.Comparator.comparing(Scorecard.CandidateScore::benchmark)
                .thenComparingDouble(r -> r.cost().perEpisode().usd(EpisodeCost.COST_ROLES.getFirst())));
        return out;
    }

    /** How far the {@code i}-th of {@code n} series sits from the whole k: centred, 0.07 apart, within a third of a step. */
    static double dodge(int i, int n) {
        if (n <= 1) return 0;
        double step = Math.min(0.07, 0.33 / (n - 1));
        return (i - (n - 1) / 2.0) * step;
    }

    /** An I-beam from {@code iv.low()} to {@code iv.high()} at {@code x}, thin and solid, in the series' colour, out of the legend. */
    static void errorBar(XYChart chart, String name, double x, Estimate.Interval iv, Color colour) {
        double w = 0.03;
        XYSeries bar = chart.addSeries(name, new double[] {x - w, x + w, x, x, x - w, x + w}, new double[] {
            iv.high(), iv.high(), iv.high(), iv.low(), iv.low(), iv.low()
        });
        bar.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        bar.setMarker(SeriesMarkers.NONE);
        bar.setLineColor(colour);
        bar.setLineStyle(new BasicStroke(1.8f));
        bar.setShowInLegend(false);
    }

    /**
     * The per-task differences of one comparison, largest first, as bars (A higher above the zero line,
     * B higher below), with the mean difference and its 95% interval as lines across; titled with the
     * benchmark, the candidates and the tasks it rests on.
     */
    public static CategoryChart taskDifferences(Comparison c) {
        boolean dirs = c.acrossDirectories();
        String a = c.a().label(dirs), b = c.b().label(dirs);
        CategoryChart chart = clean(new CategoryChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(c.benchmark() + ": mean reward per task, " + a + " - " + b + " ("
                        + c.tasks().size() + (c.tasks().size() == 1 ? " task)" : " tasks)"))
                .xAxisTitle("task (sorted by difference)")
                .yAxisTitle("difference in mean reward (a - b)")
                .build());
        CategoryStyler st = chart.getStyler();
        st.setOverlapped(true);
        st.setAvailableSpaceFill(0.7);
        st.setXAxisLabelRotation(c.tasks().size() > 12 ? 90 : 0);
        st.setYAxisDecimalPattern("0.00");
        st.setPlotGridVerticalLinesVisible(false);
        if (c.tasks().isEmpty()) return chart;
        List<Comparison.TaskDifference> sorted = c.tasks().stream()
                .sorted(Comparator.comparingDouble(Comparison.TaskDifference::rewardDifference)
                        .reversed())
                .toList();
        List<String> ids =
                sorted.stream().map(Comparison.TaskDifference::taskId).toList();
        List<Double> up =
                sorted.stream().map(t -> Math.max(0, t.rewardDifference())).toList();
        List<Double> down =
                sorted.stream().map(t -> Math.min(0, t.rewardDifference())).toList();
        chart.addSeries(a + " higher", ids, up).setFillColor(COLORS[0]);
        chart.addSeries(b + " higher", ids, down).setFillColor(COLORS[1]);
        Estimate d = c.reward().difference();
        line(chart, "mean difference " + Numbers.sig3(d.value()), ids, d.value(), INK, new BasicStroke(2.5f));
        if (d.t95().defined()) {
            BasicStroke dashed =
                    new BasicStroke(1.8f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {8f, 5f}, 0f);
            line(
                    chart,
                    "95% interval [" + Numbers.sig3(d.t95().low()) + ", "
                            + Numbers.sig3(d.t95().high()) + "]",
                    ids,
                    d.t95().low(),
                    INK,
                    dashed);
            line(chart, "95% interval high", ids, d.t95().high(), INK, dashed).setShowInLegend(false);
        }
        double lo = Math.min(
                -0.05,
                Math.min(
                        down.stream().mapToDouble(x -> x).min().orElse(0),
                        d.t95().defined() ? d.t95().low() : 0));
        double hi = Math.max(
                0.05,
                Math.max(
                        up.stream().mapToDouble(x -> x).max().orElse(0),
                        d.t95().defined() ? d.t95().high() : 0));
        st.setYAxisMin(lo - 0.05).setYAxisMax(hi + 0.05);
        return chart;
    }

    private static CategorySeries line(
            CategoryChart chart, String name, List<String> ids, double y, Color colour, BasicStroke stroke) {
        CategorySeries s = chart.addSeries(name, ids, ids.stream().map(x -> y).toList());
        s.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(colour);
        s.setLineStyle(stroke);
        return s;
    }

    /** {@code "NAME: pass^k by candidate (T tasks, N trials)"}; a range of tasks when candidates ran on different numbers. */
    static String passKTitle(String experiment, Scorecard sc) {
        int min = sc.rows().stream()
                .filter(r -> !r.passHatK().isEmpty())
                .mapToInt(Scorecard.CandidateScore::tasks)
                .min()
                .orElse(0);
        int max = sc.rows().stream()
                .filter(r -> !r.passHatK().isEmpty())
                .mapToInt(Scorecard.CandidateScore::tasks)
                .max()
                .orElse(0);
        String tasks = (min == max ? String.valueOf(max) : min + "-" + max) + (max == 1 ? " task" : " tasks");
        int k = sc.maxK();
        return experiment + ": pass^k by candidate (" + tasks + ", " + k + (k == 1 ? " trial)" : " trials)");
    }
}
