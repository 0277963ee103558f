package brokkr.render.experiment;

import brokkr.experiment.Comparison;
import brokkr.experiment.Comparison.TaskDifference;
import brokkr.render.table.PlainTable;
import brokkr.render.table.TableText;
import brokkr.stats.Paired;
import brokkr.stats.SignFlip;
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
        return "a = " + c.a().label(dirs) + ", b = " + c.b().label(dirs)
                + ": differences a - b over the tasks both scored" + (dirs ? "" : " (in " + c.a().dir() + ")");
    }

    /** What the metrics table's columns rest on (two lines). */
    public static final String NOTE =
            "per task: the mean over the trials both sides scored (aligned by trial); se = sd(d)/sqrt(tasks), "
                    + "t95 with tasks-1 df; p_t: paired t, p_signflip: sign-flip permutation test\n"
                    + "mde80: the difference detectable with 80% power at the 5% level, (t_0.975 + t_0.80) * se (Bloom 1995); "
                    + "infrastructure failures are never scored, so never paired";

    /**
     * One row per benchmark × metric (avg_reward, pass^1..K): the tasks compared, each side's mean, the
     * mean difference a - b with its paired standard error and 95% interval, the paired-t and sign-flip
     * p-values, the minimum detectable effect; undefined values missing (a dash), never 0.
     */
    /** The metric row of the agent's US dollars per episode ({@link Comparison#agentUsd}), present when both sides are priced. */
    public static final String AGENT_USD = "usd_agent/ep";

    public static PlainTable metrics(List<Comparison> cs) {
        PlainTable.Builder bench = PlainTable.text("benchmark"),
                metric = PlainTable.text("metric"),
                trials = PlainTable.text("trials");
        PlainTable.Builder tasks = PlainTable.integers("tasks");
        PlainTable.Builder a = PlainTable.doubles("a"),
                b = PlainTable.doubles("b"),
                diff = PlainTable.doubles("diff"),
                se = PlainTable.doubles("se"),
                low = PlainTable.doubles("t95_lo"),
                high = PlainTable.doubles("t95_hi"),
                pT = PlainTable.doubles("p_t"),
                pFlip = PlainTable.doubles("p_signflip"),
                mde = PlainTable.doubles("mde80");
        for (Comparison c : cs) {
            List<String> names = new ArrayList<>(List.of("avg_reward"));
            List<Paired> ps = new ArrayList<>(List.of(c.reward()));
            for (int k = 1; k <= c.maxK(); k++) names.add("pass^" + k);
            ps.addAll(c.passHatK());
            // The cost difference beside the score's: the agent's dollars per episode over the same trials.
            if (c.agentUsd() != null) {
                names.add(AGENT_USD);
                ps.add(c.agentUsd());
            }
            for (int i = 0; i < names.size(); i++) {
                Paired p = ps.get(i);
                bench.append(c.benchmark());
                metric.append(names.get(i));
                tasks.append(p.tasks());
                trials.append(trialsText(c));
                a.append(p.meanA());
                b.append(p.meanB());
                diff.append(p.difference().value());
                se.append(p.difference().se());
                low.append(p.difference().t95().low());
                high.append(p.difference().t95().high());
                pT.append(p.pT());
                pFlip.append(p.signFlip().p());
                mde.append(p.mde80());
            }
        }
        return PlainTable.of("comparison", bench, metric, tasks, trials, a, b, diff, se, low, high, pT, pFlip, mde);
    }

    /** One row per benchmark × matched task: trials paired, each side's mean reward, the difference, and pass^k differences. */
    public static PlainTable tasks(List<Comparison> cs) {
        int maxK = cs.stream().mapToInt(Comparison::maxK).max().orElse(0);
        PlainTable.Builder bench = PlainTable.text("benchmark"), task = PlainTable.text("task");
        PlainTable.Builder trials = PlainTable.integers("trials");
        PlainTable.Builder a = PlainTable.doubles("reward_a"),
                b = PlainTable.doubles("reward_b"),
                diff = PlainTable.doubles("reward_diff");
        List<PlainTable.Builder> pass = new ArrayList<>();
        for (int k = 1; k <= maxK; k++) pass.add(PlainTable.doubles("pass^" + k + "_diff"));
        for (Comparison c : cs) {
            for (TaskDifference t : c.tasks()) {
                bench.append(c.benchmark());
                task.append(t.taskId());
                trials.append(t.trials());
                a.append(t.rewardA());
                b.append(t.rewardB());
                diff.append(t.rewardDifference());
                for (int k = 1; k <= maxK; k++) {
                    if (k <= c.maxK()) pass.get(k - 1).append(t.passHatKDifference(k));
                    else pass.get(k - 1).appendMissing();
                }
            }
        }
        List<PlainTable.Builder> cols = new ArrayList<>(List.<PlainTable.Builder>of(bench, task, trials, a, b, diff));
        cols.addAll(pass);
        return PlainTable.of("per task", cols.toArray(PlainTable.Builder[]::new));
    }

    /** The tasks left out of the comparison, and why. */
    public static PlainTable unmatched(List<Comparison> cs) {
        PlainTable.Builder bench = PlainTable.text("benchmark"),
                task = PlainTable.text("task"),
                reason = PlainTable.text("reason");
        for (Comparison c : cs) {
            for (Comparison.Unmatched u : c.unmatched()) {
                bench.append(c.benchmark());
                task.append(u.taskId());
                reason.append(u.reason());
            }
        }
        return PlainTable.of("unmatched tasks (excluded)", bench, task, reason);
    }

    /** Per benchmark: how the sign-flip p was computed, tasks left out, unpaired trials. */
    public static List<String> notes(List<Comparison> cs) {
        List<String> out = new ArrayList<>();
        for (Comparison c : cs) {
            SignFlip.Result r = c.reward().signFlip();
            out.add(c.benchmark() + ": " + c.tasks().size() + " tasks compared, "
                    + c.unmatched().size() + " left out" + (c.unmatched().isEmpty() ? "" : " (listed below)") + ", "
                    + c.trialsExcluded() + " scored trials without a partner left out; sign-flip p " + r.method()
                    + (r.exact() ? "" : " (exact up to " + SignFlip.EXACT_MAX_TASKS + " tasks)"));
        }
        return out;
    }

    /** Everything as plain text: the head, the metrics with their note, the notes, the tasks left out and the per-task differences. */
    public static String text(List<Comparison> cs) {
        StringBuilder sb = new StringBuilder(head(cs)).append("\n\n");
        sb.append(TableText.aligned(metrics(cs)));
        sb.append("  ").append(NOTE.replace("\n", "\n  ")).append('\n');
        for (String n : notes(cs)) sb.append("  ").append(n).append('\n');
        PlainTable unmatched = unmatched(cs);
        if (unmatched.rowCount() > 0) sb.append('\n').append(TableText.text(unmatched));
        PlainTable tasks = tasks(cs);
        if (tasks.rowCount() > 0) sb.append('\n').append(TableText.text(tasks));
        return sb.toString();
    }

    private static String trialsText(Comparison c) {
        int min = c.tasks().stream().mapToInt(TaskDifference::trials).min().orElse(0);
        int max = c.tasks().stream().mapToInt(TaskDifference::trials).max().orElse(0);
        if (c.tasks().isEmpty()) return "";
        return min == max ? String.valueOf(max) : min + "-" + max;
    }
}
