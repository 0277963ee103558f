package brokkr.magics;

import brokkr.experiment.Comparison;
import brokkr.experiment.Comparison.TaskDifference;
import brokkr.stats.Paired;
import brokkr.stats.SignFlip;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

import java.util.ArrayList;
import java.util.List;

/**
 * Paired comparisons ({@link Comparison}) as tables and text, for {@code ./brokkr experiment compare}
 * and {@code %compare}: the differences over tasks per metric, the per-task differences, and the tasks
 * left out.
 */
public final class ComparisonTables {
    private ComparisonTables() {}

    /** The first line: which candidate is A and which is B. */
    public static String head(List<Comparison> cs) {
        Comparison c = cs.getFirst();
        boolean dirs = c.acrossDirectories();
        return "a = " + c.a().label(dirs) + ", b = " + c.b().label(dirs) + ": differences a - b over the tasks both scored"
                + (dirs ? "" : " (in " + c.a().dir() + ")");
    }

    /** What the metrics table's columns rest on (two lines). */
    public static final String NOTE = "per task: the mean over the trials both sides scored (aligned by trial); se = sd(d)/sqrt(tasks), "
            + "t95 with tasks-1 df; p_t: paired t, p_signflip: sign-flip permutation test\n"
            + "mde80: the difference detectable with 80% power at the 5% level, (t_0.975 + t_0.80) * se (Bloom 1995); "
            + "infrastructure failures are never scored, so never paired";

    /**
     * One row per benchmark × metric (avg_reward, pass^1..K): the tasks compared, each side's mean, the
     * mean difference a - b with its paired standard error and 95% interval, the paired-t and sign-flip
     * p-values, the minimum detectable effect; undefined values missing (a dash), never 0.
     */
    public static Table metrics(List<Comparison> cs) {
        StringColumn bench = StringColumn.create("benchmark"), metric = StringColumn.create("metric"), trials = StringColumn.create("trials");
        IntColumn tasks = IntColumn.create("tasks");
        DoubleColumn a = DoubleColumn.create("a"), b = DoubleColumn.create("b"), diff = DoubleColumn.create("diff"), se = DoubleColumn.create("se"),
                low = DoubleColumn.create("t95_lo"), high = DoubleColumn.create("t95_hi"), pT = DoubleColumn.create("p_t"),
                pFlip = DoubleColumn.create("p_signflip"), mde = DoubleColumn.create("mde80");
        for (Comparison c : cs) {
            List<String> names = new ArrayList<>(List.of("avg_reward"));
            List<Paired> ps = new ArrayList<>(List.of(c.reward()));
            for (int k = 1; k <= c.maxK(); k++) names.add("pass^" + k);
            ps.addAll(c.passHatK());
            for (int i = 0; i < names.size(); i++) {
                Paired p = ps.get(i);
                bench.append(c.benchmark());
                metric.append(names.get(i));
                tasks.append(p.tasks());
                trials.append(trialsText(c));
                ExperimentTables.append(a, p.meanA());
                ExperimentTables.append(b, p.meanB());
                ExperimentTables.append(diff, p.difference().value());
                ExperimentTables.append(se, p.difference().se());
                ExperimentTables.append(low, p.difference().t95().low());
                ExperimentTables.append(high, p.difference().t95().high());
                ExperimentTables.append(pT, p.pT());
                ExperimentTables.append(pFlip, p.signFlip().p());
                ExperimentTables.append(mde, p.mde80());
            }
        }
        return Table.create("comparison", bench, metric, tasks, trials, a, b, diff, se, low, high, pT, pFlip, mde);
    }

    /** One row per benchmark × matched task: trials paired, each side's mean reward, the difference, and pass^k differences. */
    public static Table tasks(List<Comparison> cs) {
        int maxK = cs.stream().mapToInt(Comparison::maxK).max().orElse(0);
        StringColumn bench = StringColumn.create("benchmark"), task = StringColumn.create("task");
        IntColumn trials = IntColumn.create("trials");
        DoubleColumn a = DoubleColumn.create("reward_a"), b = DoubleColumn.create("reward_b"), diff = DoubleColumn.create("reward_diff");
        List<DoubleColumn> pass = new ArrayList<>();
        for (int k = 1; k <= maxK; k++) pass.add(DoubleColumn.create("pass^" + k + "_diff"));
        for (Comparison c : cs) {
            for (TaskDifference t : c.tasks()) {
                bench.append(c.benchmark());
                task.append(t.taskId());
                trials.append(t.trials());
                a.append(t.rewardA());
                b.append(t.rewardB());
                diff.append(t.rewardDifference());
                for (int k = 1; k <= maxK; k++) {
                    if (k <= c.maxK()) pass.get(k - 1).append(t.passHatKDifference(k)); else pass.get(k - 1).appendMissing();
                }
            }
        }
        List<Column<?>> cols = new ArrayList<>(List.<Column<?>>of(bench, task, trials, a, b, diff));
        cols.addAll(pass);
        return Table.create("per task", cols.toArray(Column[]::new));
    }

    /** The tasks left out of the comparison, and why. */
    public static Table unmatched(List<Comparison> cs) {
        StringColumn bench = StringColumn.create("benchmark"), task = StringColumn.create("task"), reason = StringColumn.create("reason");
        for (Comparison c : cs) {
            for (Comparison.Unmatched u : c.unmatched()) {
                bench.append(c.benchmark());
                task.append(u.taskId());
                reason.append(u.reason());
            }
        }
        return Table.create("unmatched tasks (excluded)", bench, task, reason);
    }

    /** Per benchmark: how the sign-flip p was computed, tasks left out, unpaired trials. */
    public static List<String> notes(List<Comparison> cs) {
        List<String> out = new ArrayList<>();
        for (Comparison c : cs) {
            SignFlip.Result r = c.reward().signFlip();
            out.add(c.benchmark() + ": " + c.tasks().size() + " tasks compared, " + c.unmatched().size() + " left out" + (c.unmatched().isEmpty() ? "" : " (listed below)") + ", "
                    + c.trialsExcluded() + " scored trials without a partner left out; sign-flip p " + r.method()
                    + (r.exact() ? "" : " (exact up to " + SignFlip.EXACT_MAX_TASKS + " tasks)"));
        }
        return out;
    }

    /** Everything as plain text: the head, the metrics with their note, the notes, the tasks left out and the per-task differences. */
    public static String text(List<Comparison> cs) {
        StringBuilder sb = new StringBuilder(head(cs)).append("\n\n");
        sb.append(Tables.aligned(metrics(cs)));
        sb.append("  ").append(NOTE.replace("\n", "\n  ")).append('\n');
        for (String n : notes(cs)) sb.append("  ").append(n).append('\n');
        Table unmatched = unmatched(cs);
        if (unmatched.rowCount() > 0) sb.append('\n').append(Tables.text(unmatched));
        Table tasks = tasks(cs);
        if (tasks.rowCount() > 0) sb.append('\n').append(Tables.text(tasks));
        return sb.toString();
    }

    private static String trialsText(Comparison c) {
        int min = c.tasks().stream().mapToInt(TaskDifference::trials).min().orElse(0);
        int max = c.tasks().stream().mapToInt(TaskDifference::trials).max().orElse(0);
        if (c.tasks().isEmpty()) return "";
        return min == max ? String.valueOf(max) : min + "-" + max;
    }
}
