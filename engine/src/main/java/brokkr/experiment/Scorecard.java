package brokkr.experiment;

import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.TrustTier;
import brokkr.experiment.ExperimentStore.Cell;
import brokkr.experiment.ExperimentStore.CellKey;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * An experiment's scores, one row per benchmark × candidate, computed from completed attempts only:
 * infrastructure failures are counted but enter no metric. Average reward is over attempts and
 * pass^k over tasks, as upstream tau2's {@code compute_metrics}; per-task and per-check breakdowns say
 * where and why a candidate lost. Costs (tokens, durations) are kept apart in {@link Cost} because
 * they differ between otherwise identical runs.
 *
 * @param pendingCells active cells with no completed attempt (not yet run, or failed on infrastructure)
 */
public record Scorecard(List<CandidateScore> rows, int cells, int pendingCells) {

    public record CandidateScore(String benchmark, String candidate, String agentId, int tasks, int attempts,
                                 int infrastructureFailures, double avgReward, List<Double> passHatK,
                                 List<TaskScore> perTask, List<CheckScore> perCheck, Map<TrustTier, Integer> trust,
                                 Cost cost) {
        public CandidateScore withoutCost() {
            return new CandidateScore(benchmark, candidate, agentId, tasks, attempts, infrastructureFailures, avgReward,
                    passHatK, perTask, perCheck, trust, null);
        }
    }

    public record TaskScore(String taskId, int trials, int successes, double avgReward, List<Double> passHatK) {}

    /** How often a check was evaluated and how often it failed. */
    public record CheckScore(String check, int evaluated, int failed) {}

    /** The candidate's own tokens and the attempts' wall time (completed attempts). */
    public record Cost(long inputTokens, long outputTokens, double meanDurationMs, long totalDurationMs) {}

    /** The scores without costs: equal for two runs that graded the same. */
    public Scorecard withoutCost() {
        return new Scorecard(rows.stream().map(CandidateScore::withoutCost).toList(), cells, pendingCells);
    }

    /** Scores the active cells of a store. */
    public static Scorecard of(ExperimentQuery store) {
        return of(store.cells().stream().filter(Cell::active).toList(), store.attempts(true, false));
    }

    /** Scores {@code cells} from {@code attempts} (attempts of other cells are ignored). */
    public static Scorecard of(List<Cell> cells, List<Attempt> attempts) {
        Map<CellKey, Cell> byKey = new LinkedHashMap<>();
        for (Cell c : cells) byKey.put(c.key(), c);
        // Groups in the cells' order: benchmark × candidate.
        Map<List<String>, List<Attempt>> groups = new LinkedHashMap<>();
        Map<List<String>, String> agentIds = new LinkedHashMap<>();
        Map<List<String>, List<String>> taskOrder = new LinkedHashMap<>();
        for (Cell c : cells) {
            List<String> g = List.of(c.benchmark(), c.candidate());
            groups.computeIfAbsent(g, x -> new ArrayList<>());
            agentIds.put(g, c.key().agentId());
            List<String> tasks = taskOrder.computeIfAbsent(g, x -> new ArrayList<>());
            if (!tasks.contains(c.taskId())) tasks.add(c.taskId());
        }
        Set<CellKey> completedCells = new HashSet<>();
        for (Attempt a : attempts) {
            Cell c = byKey.get(new CellKey(a.environmentId(), a.agentId(), a.repetition()));
            if (c == null) continue;
            groups.get(List.of(c.benchmark(), c.candidate())).add(a);
            if (a.completed()) completedCells.add(c.key());
        }
        List<CandidateScore> rows = new ArrayList<>();
        for (var e : groups.entrySet()) rows.add(score(e.getKey().get(0), e.getKey().get(1), agentIds.get(e.getKey()), taskOrder.get(e.getKey()), e.getValue()));
        return new Scorecard(rows, cells.size(), cells.size() - completedCells.size());
    }

    private static CandidateScore score(String benchmark, String candidate, String agentId, List<String> taskOrder, List<Attempt> all) {
        List<Attempt> done = all.stream().filter(Attempt::completed).toList();
        int infra = all.size() - done.size();
        Map<String, List<Attempt>> byTask = new LinkedHashMap<>();
        for (String t : taskOrder) byTask.put(t, new ArrayList<>());
        for (Attempt a : done) byTask.get(a.taskId()).add(a);
        byTask.values().removeIf(List::isEmpty); // upstream counts tasks with at least one evaluated simulation
        List<PassHatK.TaskTrials> trials = new ArrayList<>();
        for (List<Attempt> as : byTask.values()) trials.add(new PassHatK.TaskTrials(as.size(), (int) as.stream().filter(Attempt::success).count()));
        int maxK = PassHatK.maxK(trials);
        List<TaskScore> perTask = new ArrayList<>();
        int i = 0;
        for (var e : byTask.entrySet()) {
            PassHatK.TaskTrials t = trials.get(i++);
            List<Double> curve = new ArrayList<>();
            for (int k = 1; k <= maxK; k++) curve.add(PassHatK.of(t.trials(), t.successes(), k));
            perTask.add(new TaskScore(e.getKey(), t.trials(), t.successes(), mean(e.getValue()), curve));
        }
        Map<String, int[]> checks = new LinkedHashMap<>();
        Map<TrustTier, Integer> trust = new EnumMap<>(TrustTier.class);
        long in = 0, out = 0, dur = 0;
        for (Attempt a : done) {
            for (Check c : a.checks()) {
                int[] n = checks.computeIfAbsent(c.name(), x -> new int[2]);
                n[0]++;
                if (!c.passed()) n[1]++;
            }
            trust.merge(a.trust(), 1, Integer::sum);
            in += a.evidence().agentUsage().inputTokens();
            out += a.evidence().agentUsage().outputTokens();
            dur += a.durationMillis();
        }
        List<CheckScore> perCheck = new ArrayList<>();
        checks.forEach((k, n) -> perCheck.add(new CheckScore(k, n[0], n[1])));
        // Upstream returns avg_reward 0.0 and no pass^k when nothing was evaluated.
        return new CandidateScore(benchmark, candidate, agentId, byTask.size(), done.size(), infra,
                done.isEmpty() ? 0.0 : mean(done), PassHatK.curve(trials), perTask, perCheck, Map.copyOf(trust),
                new Cost(in, out, done.isEmpty() ? 0 : (double) dur / done.size(), dur));
    }

    private static double mean(List<Attempt> as) {
        double s = 0;
        for (Attempt a : as) s += a.reward();
        return s / as.size();
    }

    private int maxK() { return rows.stream().mapToInt(r -> r.passHatK().size()).max().orElse(0); }

    // ---------------------------------------------------------------- tables

    /** One row per benchmark × candidate: counts, average reward, pass^1..n, tokens, duration. */
    public Table summaryTable() {
        StringColumn bench = StringColumn.create("benchmark"), cand = StringColumn.create("candidate");
        IntColumn tasks = IntColumn.create("tasks"), attempts = IntColumn.create("attempts"), infra = IntColumn.create("infra_failures");
        DoubleColumn reward = DoubleColumn.create("avg_reward");
        int maxK = maxK();
        List<DoubleColumn> pass = new ArrayList<>();
        for (int k = 1; k <= maxK; k++) pass.add(DoubleColumn.create("pass^" + k));
        LongColumn in = LongColumn.create("input_tokens"), out = LongColumn.create("output_tokens");
        DoubleColumn dur = DoubleColumn.create("mean_duration_ms");
        StringColumn trust = StringColumn.create("trust");
        for (CandidateScore r : rows) {
            bench.append(r.benchmark());
            cand.append(r.candidate());
            tasks.append(r.tasks());
            attempts.append(r.attempts());
            infra.append(r.infrastructureFailures());
            reward.append(r.avgReward());
            for (int k = 1; k <= maxK; k++) {
                if (k <= r.passHatK().size()) pass.get(k - 1).append(r.passHatK().get(k - 1)); else pass.get(k - 1).appendMissing();
            }
            in.append(r.cost().inputTokens());
            out.append(r.cost().outputTokens());
            dur.append(r.cost().meanDurationMs());
            trust.append(trustText(r.trust()));
        }
        List<Column<?>> cols = new ArrayList<>(List.<Column<?>>of(bench, cand, tasks, attempts, infra, reward));
        cols.addAll(pass);
        cols.addAll(List.<Column<?>>of(in, out, dur, trust));
        return Table.create("scorecard", cols.toArray(Column[]::new));
    }

    /** One row per benchmark × candidate × task. */
    public Table taskTable() {
        StringColumn bench = StringColumn.create("benchmark"), cand = StringColumn.create("candidate"), task = StringColumn.create("task");
        IntColumn trials = IntColumn.create("trials"), succ = IntColumn.create("successes");
        DoubleColumn reward = DoubleColumn.create("avg_reward");
        int maxK = maxK();
        List<DoubleColumn> pass = new ArrayList<>();
        for (int k = 1; k <= maxK; k++) pass.add(DoubleColumn.create("pass^" + k));
        for (CandidateScore r : rows) {
            for (TaskScore t : r.perTask()) {
                bench.append(r.benchmark());
                cand.append(r.candidate());
                task.append(t.taskId());
                trials.append(t.trials());
                succ.append(t.successes());
                reward.append(t.avgReward());
                for (int k = 1; k <= maxK; k++) {
                    if (k <= t.passHatK().size()) pass.get(k - 1).append(t.passHatK().get(k - 1)); else pass.get(k - 1).appendMissing();
                }
            }
        }
        List<Column<?>> cols = new ArrayList<>(List.<Column<?>>of(bench, cand, task, trials, succ, reward));
        cols.addAll(pass);
        return Table.create("tasks", cols.toArray(Column[]::new));
    }

    /** One row per benchmark × candidate × check: how often it was evaluated and failed. */
    public Table checkTable() {
        StringColumn bench = StringColumn.create("benchmark"), cand = StringColumn.create("candidate"), check = StringColumn.create("check");
        IntColumn evaluated = IntColumn.create("evaluated"), failed = IntColumn.create("failed");
        DoubleColumn rate = DoubleColumn.create("fail_rate");
        for (CandidateScore r : rows) {
            for (CheckScore c : r.perCheck()) {
                bench.append(r.benchmark());
                cand.append(r.candidate());
                check.append(c.check());
                evaluated.append(c.evaluated());
                failed.append(c.failed());
                rate.append(c.evaluated() == 0 ? 0 : (double) c.failed() / c.evaluated());
            }
        }
        return Table.create("checks", bench, cand, check, evaluated, failed, rate);
    }

    private static String trustText(Map<TrustTier, Integer> trust) {
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(trust).forEach((t, n) -> sb.append(sb.isEmpty() ? "" : " ").append(t.name().toLowerCase(Locale.ROOT)).append(':').append(n));
        return sb.toString();
    }

    // ---------------------------------------------------------------- text

    /** The scorecard as plain text: summary, failures by check, per-task results. */
    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append("cells: ").append(cells).append(", without a completed attempt: ").append(pendingCells).append('\n');
        sb.append("infrastructure failures are excluded from every metric\n\n");
        sb.append(TextTable.render(summaryTable())).append('\n');
        Table checks = checkTable();
        if (checks.rowCount() > 0) sb.append("checks (failed of evaluated)\n").append(TextTable.render(checks)).append('\n');
        Table tasks = taskTable();
        if (tasks.rowCount() > 0) sb.append("per task\n").append(TextTable.render(tasks));
        return sb.toString();
    }
}
