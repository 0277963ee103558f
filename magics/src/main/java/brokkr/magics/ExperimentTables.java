package brokkr.magics;

import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.TrustTier;
import brokkr.eval.Report;
import brokkr.experiment.BenchmarkReports;
import brokkr.experiment.EpisodeCost;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.Inspect;
import brokkr.experiment.Scorecard;
import brokkr.experiment.Scorecard.CandidateScore;
import brokkr.experiment.Scorecard.CheckScore;
import brokkr.experiment.Scorecard.TaskScore;
import brokkr.stats.Estimate;
import brokkr.stats.Wilson;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * An experiment's scorecard and attempts as Tablesaw tables (the notebook shows them as HTML) and as
 * the plain text {@code ./brokkr experiment run|show|attempts|checks} prints (the CLI uses these
 * same tables through {@link Tables#aligned}).
 */
public final class ExperimentTables {
    private ExperimentTables() {}

    /**
     * One row per benchmark × candidate: counts (tasks, scored trials per task, scored attempts,
     * infrastructure failures), average reward with its task-clustered standard error and 95% t
     * interval, pass^1..n, what an episode costs on average ({@link #PER_EPISODE}), duration, trust tiers;
     * a candidate with no scored attempt has its average reward, pass^k, costs and duration missing, and
     * a figure no episode reported (tokens of a scripted model) is missing, never 0.
     */
    public static Table summary(Scorecard s) {
        StringColumn bench = StringColumn.create("benchmark"), cand = StringColumn.create("candidate");
        IntColumn tasks = IntColumn.create("tasks"), attempts = IntColumn.create("attempts"), infra = IntColumn.create("infra_failures");
        StringColumn trials = StringColumn.create("trials");
        DoubleColumn reward = DoubleColumn.create("avg_reward"), se = DoubleColumn.create("se"),
                low = DoubleColumn.create("t95_lo"), high = DoubleColumn.create("t95_hi");
        List<DoubleColumn> pass = passColumns(s.maxK());
        List<DoubleColumn> perEpisode = PER_EPISODE.stream().map(DoubleColumn::create).toList();
        DoubleColumn dur = DoubleColumn.create("mean_duration_ms");
        StringColumn trust = StringColumn.create("trust");
        for (CandidateScore r : s.rows()) {
            bench.append(r.benchmark());
            cand.append(r.candidate());
            tasks.append(r.tasks());
            trials.append(trialsText(r));
            attempts.append(r.attempts());
            infra.append(r.infrastructureFailures());
            // No scored attempt: no average reward and no mean duration (missing, drawn as a dash), never 0.
            if (r.scored()) reward.append(r.avgReward()); else reward.appendMissing();
            Estimate e = r.rewardEstimate();
            append(se, e.se());
            append(low, e.t95().low());
            append(high, e.t95().high());
            appendCurve(pass, r.passHatK());
            EpisodeCost.Means m = r.cost().perEpisode();
            double[] costs = {m.inputTokens(), m.outputTokens(), m.modelSteps(), m.toolCalls(), m.requestChars()};
            for (int i = 0; i < costs.length; i++) append(perEpisode.get(i), costs[i]);
            if (r.scored()) dur.append(r.cost().meanDurationMs()); else dur.appendMissing();
            trust.append(trustText(r.trust()));
        }
        List<Column<?>> cols = new ArrayList<>(List.<Column<?>>of(bench, cand, tasks, trials, attempts, infra, reward, se, low, high));
        cols.addAll(pass);
        cols.addAll(perEpisode);
        cols.addAll(List.<Column<?>>of(dur, trust));
        return Table.create("scorecard", cols.toArray(Column[]::new));
    }

    /**
     * The summary's columns of what an episode costs, means per completed episode (EpisodeCost.Means):
     * the agent's input and output tokens, its model steps, the tool calls the protocol recorded and the
     * characters of the requests its model was sent.
     */
    public static final List<String> PER_EPISODE = List.of("in_tok/ep", "out_tok/ep", "steps/ep", "calls/ep", "req_chars/ep");

    /** What the statistics table says under its name: how its intervals are made and what they leave out (three lines). */
    public static final String STATISTICS_NOTE = "95% intervals over tasks; infrastructure failures are excluded from every metric and denominator\n"
            + "t95: t with tasks-1 df around the standard error clustered by task; intervals of rates clipped to [0, 1]\n"
            + "wilson95: Wilson-type (design-effect n, t quantile), the one to read (read: wilson) with fewer than " + Wilson.FEW_TASKS
            + " tasks or a rate within " + Wilson.NEAR_EDGE + " of 0 or 1";

    /**
     * One row per benchmark × candidate × metric (avg_reward, pass^1..n): the value, its standard error
     * over tasks, the 95% t and Wilson-type intervals, which of the two to read, and the denominators
     * it rests on (tasks, scored trials per task, scored attempts, infrastructure failures left out).
     */
    public static Table statistics(Scorecard s) {
        StringColumn bench = StringColumn.create("benchmark"), cand = StringColumn.create("candidate"), metric = StringColumn.create("metric");
        DoubleColumn value = DoubleColumn.create("value"), se = DoubleColumn.create("se"), tLow = DoubleColumn.create("t95_lo"),
                tHigh = DoubleColumn.create("t95_hi"), wLow = DoubleColumn.create("wilson95_lo"), wHigh = DoubleColumn.create("wilson95_hi");
        StringColumn read = StringColumn.create("read"), trials = StringColumn.create("trials");
        IntColumn tasks = IntColumn.create("tasks"), attempts = IntColumn.create("attempts"), infra = IntColumn.create("infra_excluded");
        for (CandidateScore r : s.rows()) {
            List<String> names = new ArrayList<>(List.of("avg_reward"));
            List<Estimate> estimates = new ArrayList<>(List.of(r.rewardEstimate()));
            List<Estimate.Interval> wilson = new ArrayList<>(List.of(r.rewardWilson()));
            for (int k = 1; k <= r.passHatK().size(); k++) names.add("pass^" + k);
            estimates.addAll(r.passHatKEstimates());
            wilson.addAll(r.passHatKWilson());
            for (int i = 0; i < names.size(); i++) {
                Estimate e = estimates.get(i);
                bench.append(r.benchmark());
                cand.append(r.candidate());
                metric.append(names.get(i));
                append(value, e.value());
                append(se, e.se());
                append(tLow, e.t95().low());
                append(tHigh, e.t95().high());
                append(wLow, wilson.get(i).low());
                append(wHigh, wilson.get(i).high());
                Estimate.Interval shown = readInterval(e, wilson.get(i)); // the very Wilson instance when that is the one to read
                read.append(!shown.defined() ? "" : shown == wilson.get(i) ? "wilson" : "t");
                tasks.append(r.tasks());
                trials.append(trialsText(r));
                attempts.append(r.attempts());
                infra.append(r.infrastructureFailures());
            }
        }
        return Table.create("statistics", bench, cand, metric, value, se, tLow, tHigh, wLow, wHigh, read, tasks, trials, attempts, infra);
    }

    /**
     * The interval to read for an estimate: the Wilson-type one with fewer than {@value Wilson#FEW_TASKS}
     * tasks or a rate near 0 or 1 ({@link Wilson#preferred}), else the t interval; none when neither exists.
     */
    public static Estimate.Interval readInterval(Estimate e, Estimate.Interval wilson) {
        if (!e.defined()) return Estimate.Interval.NONE;
        if (wilson.defined() && Wilson.preferred(e.tasks(), e.value())) return wilson;
        return e.t95();
    }

    /** Scored trials per task: {@code "4"}, or the range {@code "3-4"} when tasks have different numbers; empty without a task. */
    static String trialsText(CandidateScore r) {
        if (r.perTask().isEmpty()) return "";
        return r.minTrials() == r.maxTrials() ? String.valueOf(r.maxTrials()) : r.minTrials() + "-" + r.maxTrials();
    }

    /** A value that cannot be computed (NaN) is missing: drawn as a dash, never as 0 or NaN. */
    static void append(DoubleColumn c, double v) {
        if (Double.isNaN(v)) c.appendMissing(); else c.append(v);
    }

    /** One row per benchmark × candidate × task. */
    public static Table tasks(Scorecard s) {
        StringColumn bench = StringColumn.create("benchmark"), cand = StringColumn.create("candidate"), task = StringColumn.create("task");
        IntColumn trials = IntColumn.create("trials"), succ = IntColumn.create("successes");
        DoubleColumn reward = DoubleColumn.create("avg_reward");
        List<DoubleColumn> pass = passColumns(s.maxK());
        for (CandidateScore r : s.rows()) {
            for (TaskScore t : r.perTask()) {
                bench.append(r.benchmark());
                cand.append(r.candidate());
                task.append(t.taskId());
                trials.append(t.trials());
                succ.append(t.successes());
                reward.append(t.avgReward());
                appendCurve(pass, t.passHatK());
            }
        }
        List<Column<?>> cols = new ArrayList<>(List.<Column<?>>of(bench, cand, task, trials, succ, reward));
        cols.addAll(pass);
        return Table.create("tasks", cols.toArray(Column[]::new));
    }

    /** One row per benchmark × candidate × check: how often it was evaluated and failed. */
    public static Table checks(Scorecard s) {
        StringColumn bench = StringColumn.create("benchmark"), cand = StringColumn.create("candidate"), check = StringColumn.create("check");
        IntColumn evaluated = IntColumn.create("evaluated"), failed = IntColumn.create("failed");
        DoubleColumn rate = DoubleColumn.create("fail_rate");
        for (CandidateScore r : s.rows()) {
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

    /**
     * One row per attempt: its cell, status, reward (missing unless completed), failed checks, duration,
     * error (abbreviated). {@code trial} is the cell's repetition counted from 1, as everything a person
     * reads counts trials ({@code tau2 run}'s trial column, transcripts); the store keeps the repetition from 0.
     */
    public static Table attempts(List<Inspect.AttemptRow> rows) {
        LongColumn id = LongColumn.create("id");
        StringColumn bench = StringColumn.create("benchmark"), cand = StringColumn.create("candidate"), task = StringColumn.create("task");
        IntColumn trial = IntColumn.create("trial");
        StringColumn status = StringColumn.create("status");
        DoubleColumn reward = DoubleColumn.create("reward");
        StringColumn failedChecks = StringColumn.create("failed_checks");
        LongColumn ms = LongColumn.create("duration_ms");
        StringColumn error = StringColumn.create("error");
        for (Inspect.AttemptRow row : rows) {
            Attempt a = row.attempt();
            id.append(a.id());
            bench.append(row.benchmark());
            cand.append(row.candidate());
            task.append(a.taskId());
            trial.append(a.repetition() + 1);
            status.append(a.status().wire());
            if (a.completed()) reward.append(a.reward()); else reward.appendMissing();
            failedChecks.append(String.join(",", a.checks().stream().filter(x -> !x.passed()).map(Check::name).toList()));
            ms.append(a.durationMillis());
            error.append(a.error() == null ? "" : abbreviate(a.error(), 100));
        }
        return Table.create("attempts", id, bench, cand, task, trial, status, reward, failedChecks, ms, error);
    }

    /** The scorecard as plain text: summary, failures by check, per-task results. */
    public static String text(Scorecard s) {
        StringBuilder sb = new StringBuilder();
        sb.append("cells: ").append(s.cells()).append(", without a completed attempt: ").append(s.pendingCells()).append('\n');
        sb.append("infrastructure failures are excluded from every metric\n\n");
        sb.append(Tables.aligned(summary(s))).append('\n');
        Table statistics = statistics(s);
        if (statistics.rowCount() > 0) sb.append(statisticsText(statistics)).append('\n');
        Table checks = checks(s);
        if (checks.rowCount() > 0) sb.append("checks (failed of evaluated)\n").append(Tables.aligned(checks)).append('\n');
        Table tasks = tasks(s);
        if (tasks.rowCount() > 0) sb.append("per task\n").append(Tables.aligned(tasks));
        return sb.toString();
    }

    /** The statistics table under its heading and note, as plain text. */
    public static String statisticsText(Table statistics) {
        return "statistics: " + STATISTICS_NOTE.replace("\n", "\n  ") + "\n" + Tables.aligned(statistics);
    }

    /** The statistics table with its note above it, as HTML. */
    public static String statisticsHtml(Table statistics) {
        return "<p class=\"brokkr-note\">Statistics: " + Tables.esc(STATISTICS_NOTE).replace("\n", "<br>") + "</p>" + Tables.html(statistics);
    }

    /**
     * A benchmark's own report table ({@link Report}, e.g. BFCL's per-category accuracy): text, whole
     * number and double columns as its values are, null cells missing.
     */
    public static Table report(Report r) {
        List<Column<?>> cols = new ArrayList<>();
        for (int c = 0; c < r.columns().size(); c++) {
            String name = r.columns().get(c);
            int col = c;
            List<Object> values = r.rows().stream().map(row -> row.get(col)).toList();
            if (values.stream().allMatch(v -> v == null || v instanceof Integer)) {
                IntColumn ic = IntColumn.create(name);
                values.forEach(v -> { if (v == null) ic.appendMissing(); else ic.append((Integer) v); });
                cols.add(ic);
            } else if (values.stream().allMatch(v -> v == null || v instanceof Integer || v instanceof Long)) {
                LongColumn lc = LongColumn.create(name);
                values.forEach(v -> { if (v == null) lc.appendMissing(); else lc.append(((Number) v).longValue()); });
                cols.add(lc);
            } else if (values.stream().allMatch(v -> v == null || v instanceof Number)) {
                DoubleColumn dc = DoubleColumn.create(name);
                values.forEach(v -> { if (v == null) dc.appendMissing(); else dc.append(((Number) v).doubleValue()); });
                cols.add(dc);
            } else {
                StringColumn sc = StringColumn.create(name);
                values.forEach(v -> sc.append(v == null ? "" : v.toString()));
                cols.add(sc);
            }
        }
        return Table.create(r.title(), cols.toArray(Column[]::new));
    }

    /** A report's figures as a table ({@code figure}, {@code value}; a figure that cannot be computed is missing). */
    public static Table figures(Report r) {
        StringColumn name = StringColumn.create("figure");
        DoubleColumn value = DoubleColumn.create("value");
        for (Report.Figure f : r.figures()) {
            name.append(f.name());
            if (f.value() == null) value.appendMissing(); else value.append(f.value());
        }
        return Table.create(r.title() + ": figures", name, value);
    }

    /** One benchmark × candidate report as plain text: its title, table, figures and notes. */
    public static String reportText(BenchmarkReports.CandidateReport cr) { return reportText(cr, true); }

    /** As {@link #reportText(BenchmarkReports.CandidateReport)}, the notes only {@code withNotes} (once per benchmark in a listing of several candidates). */
    public static String reportText(BenchmarkReports.CandidateReport cr, boolean withNotes) {
        Report r = cr.report();
        StringBuilder sb = new StringBuilder();
        sb.append(cr.benchmark()).append(" / ").append(cr.candidate()).append(": ").append(r.title()).append('\n');
        sb.append(Tables.aligned(report(r)));
        if (!r.figures().isEmpty()) sb.append('\n').append(Tables.aligned(figures(r)));
        if (withNotes) for (String n : r.notes()) sb.append("  ").append(n).append('\n');
        return sb.toString();
    }

    /**
     * One row per experiment directory, as {@code experiment list} prints it: the directory, the
     * experiment's name, its benchmarks and candidates, how many of its current cells have a completed
     * attempt, how many current cells it has, and when it last ran (UTC).
     */
    public static Table experiments(Map<String, ExperimentQuery.Overview> byDir) {
        StringColumn dir = StringColumn.create("dir"), name = StringColumn.create("name"), domains = StringColumn.create("domains"),
                candidates = StringColumn.create("candidates"), last = StringColumn.create("last_run_utc");
        IntColumn done = IntColumn.create("cells_done"), cells = IntColumn.create("cells");
        byDir.forEach((d, o) -> {
            dir.append(d);
            name.append(o.name());
            domains.append(String.join(",", o.benchmarks()));
            candidates.append(String.join(",", o.candidates()));
            done.append(o.cellsDone());
            cells.append(o.cells());
            last.append(o.lastRunMillis() == 0 ? "" : UTC.format(Instant.ofEpochMilli(o.lastRunMillis())));
        });
        return Table.create("experiments", dir, name, domains, candidates, done, cells, last);
    }

    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

    /** pass^1..pass^maxK columns. */
    private static List<DoubleColumn> passColumns(int maxK) {
        List<DoubleColumn> pass = new ArrayList<>();
        for (int k = 1; k <= maxK; k++) pass.add(DoubleColumn.create("pass^" + k));
        return pass;
    }

    /** A curve shorter than the columns (a row with fewer trials than another) leaves the rest missing. */
    private static void appendCurve(List<DoubleColumn> pass, List<Double> curve) {
        for (int k = 1; k <= pass.size(); k++) {
            if (k <= curve.size()) pass.get(k - 1).append(curve.get(k - 1)); else pass.get(k - 1).appendMissing();
        }
    }

    private static String trustText(Map<TrustTier, Integer> trust) {
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(trust).forEach((t, n) -> sb.append(sb.isEmpty() ? "" : " ").append(t.name().toLowerCase(Locale.ROOT)).append(':').append(n));
        return sb.toString();
    }

    private static String abbreviate(String s, int n) {
        String one = s.replace('\n', ' ');
        return one.length() <= n ? one : one.substring(0, n - 3) + "...";
    }
}
