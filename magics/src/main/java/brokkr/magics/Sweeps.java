package brokkr.magics;

import brokkr.magics.view.RunView;
import brokkr.render.chart.Charts;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Sweeps of a domain whose task ids are sizes, with its scripted candidates, as tables and charts: one episode per
 * (candidate, size) through the same {@link Bench#run} as {@code %run}.
 */
public final class Sweeps {
    private Sweeps() {}

    /**
     * One scripted episode per (candidate, size) of a domain whose task ids are sizes (the synthetic
     * domains: {@code sweep("loop", "depth", ...)}, {@code sweep("parallel", "tasks", ...)}): calls made,
     * tool turns, reward and the domain's result line. {@code sizeColumn} names the size column.
     */
    public static Table sweep(String domain, String sizeColumn, List<Integer> sizes, List<String> candidates) {
        return sweep(Benches.load(Session.current().registry(), domain), sizeColumn, sizes, candidates);
    }

    private static Table sweep(Bench b, String sizeName, List<Integer> sizes, List<String> candidates) {
        List<String> cand = new ArrayList<>();
        List<Integer> size = new ArrayList<>(), calls = new ArrayList<>(), turns = new ArrayList<>();
        List<Double> reward = new ArrayList<>();
        List<String> line = new ArrayList<>();
        for (String c : candidates) {
            for (int n : sizes) {
                RunView r = b.run(c, String.valueOf(n));
                cand.add(c);
                size.add(n);
                calls.add(r.transcript().toolCalls().size());
                turns.add((int) r.transcript().assistantMessages().stream()
                        .filter(m -> m.hasToolCalls())
                        .count());
                reward.add(r.reward());
                line.add(r.resultLine());
            }
        }
        return Table.create(
                b.name() + " sweep",
                StringColumn.create("candidate", cand),
                IntColumn.create(
                        sizeName, size.stream().mapToInt(Integer::intValue).toArray()),
                IntColumn.create(
                        "tool calls", calls.stream().mapToInt(Integer::intValue).toArray()),
                IntColumn.create(
                        "tool turns", turns.stream().mapToInt(Integer::intValue).toArray()),
                DoubleColumn.create(
                        "reward",
                        reward.stream().mapToDouble(Double::doubleValue).toArray()),
                StringColumn.create("result", line));
    }

    /**
     * One series per candidate: {@code y} against the size column (the sweep's second column), e.g.
     * {@code chart(t, "tool calls")} for a loop sweep or {@code chart(t, "tool turns")} for a parallel one.
     */
    public static XYChart chart(Table sweep, String y) {
        String x = sweep.column(1).name();
        XYChart chart = Charts.xy(sweep.name() + ": " + y + " by " + x, x, y);
        StringColumn cands = sweep.stringColumn("candidate");
        for (String c : cands.unique().asList()) {
            Table part = sweep.where(cands.isEqualTo(c));
            double[] xs = part.intColumn(x).asDoubleArray();
            double[] ys = part.numberColumn(y).asDoubleArray();
            chart.addSeries(c, xs, ys);
        }
        return Charts.distinguish(chart);
    }
}
