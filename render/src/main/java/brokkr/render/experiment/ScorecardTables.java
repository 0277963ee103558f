package brokkr.render.experiment;

import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.Report;
import brokkr.eval.TrustTier;
import brokkr.experiment.BenchmarkReports;
import brokkr.experiment.EpisodeCost;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.Inspect;
import brokkr.experiment.Scorecard;
import brokkr.experiment.Scorecard.CandidateScore;
import brokkr.experiment.Scorecard.CheckScore;
import brokkr.experiment.Scorecard.TaskScore;
import brokkr.render.Html;
import brokkr.render.table.PlainTable;
import brokkr.render.table.TableHtml;
import brokkr.render.table.TableText;
import brokkr.stats.Estimate;
import brokkr.stats.Wilson;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * An experiment's scorecard and attempts as plain tables ({@link PlainTable}): the text
 * {@code ./brokkr experiment run|show|attempts|checks} prints ({@link TableText#aligned}), their CSV and
 * JSON, the report's HTML; the notebook shows the same tables (as Tablesaw tables).
 */
public final class ScorecardTables {
    private ScorecardTables() {}

    /**
     * One row per benchmark × candidate: counts (tasks, scored trials per task, scored attempts,
     * infrastructure failures), average reward with its task-clustered standard error and 95% t
     * interval, pass^1..n, what an episode costs on average ({@link #PER_EPISODE}), duration, trust tiers;
     * a candidate with no scored attempt has its average reward, pass^k, costs and duration missing, and
     * a figure no episode reported (tokens of a scripted model) is missing, never 0.
     */
    public static PlainTable summary(Scorecard s) {
        PlainTable.Builder bench = PlainTable.text("benchmark"), cand = PlainTable.text("candidate");
        PlainTable.Builder tasks = PlainTable.integers("tasks"),
                attempts = PlainTable.integers("attempts"),
                infra = PlainTable.integers("infra_failures");
        PlainTable.Builder trials = PlainTable.text("trials");
        PlainTable.Builder reward = PlainTable.doubles("avg_reward"),
                se = PlainTable.doubles("se"),
                low = PlainTable.doubles("t95_lo"),
                high = PlainTable.doubles("t95_hi");
        List<PlainTable.Builder> pass = passColumns(s.maxK());
        List<PlainTable.Builder> perEpisode =
                PER_EPISODE.stream().map(PlainTable::doubles).toList();
        PlainTable.Builder dur = PlainTable.doubles("mean_duration_ms");
        PlainTable.Builder trust = PlainTable.text("trust");
        for (CandidateScore r : s.rows()) {
            bench.append(r.benchmark());
            cand.append(r.candidate());
            tasks.append(r.tasks());
            trials.append(trialsText(r));
            attempts.append(r.attempts());
            infra.append(r.infrastructureFailures());
            // No scored attempt: no average reward and no mean duration (missing, drawn as a dash), never 0.
            if (r.scored()) reward.append(r.avgReward());
            else reward.appendMissing();
            Estimate e = r.rewardEstimate();
            se.append(e.se());
            low.append(e.t95().low());
            high.append(e.t95().high());
            appendCurve(pass, r.passHatK());
            EpisodeCost.Means m = r.cost().perEpisode();
            double[] costs = {
                m.inputTokens(),
                m.outputTokens(),
                m.modelSteps(),
                m.toolCalls(),
                m.requestChars(),
                m.usd(EpisodeCost.COST_ROLES.get(0)),
                m.usd(EpisodeCost.COST_ROLES.get(1)),
                m.usd(EpisodeCost.COST_ROLES.get(2))
            };
            for (int i = 0; i < costs.length; i++) perEpisode.get(i).append(costs[i]);
            if (r.scored()) dur.append(r.cost().meanDurationMs());
            else dur.appendMissing();
            trust.append(trustText(r.trust()));
        }
        List<PlainTable.Builder> cols = new ArrayList<>(
                List.<PlainTable.Builder>of(bench, cand, tasks, trials, attempts, infra, reward, se, low, high));
        cols.addAll(pass);
        cols.addAll(perEpisode);
        cols.addAll(List.<PlainTable.Builder>of(dur, trust));
        return PlainTable.of("scorecard", cols.toArray(PlainTable.Builder[]::new));
    }

    /**
     * The summary's columns of what an episode costs, means per completed episode (EpisodeCost.Means):
     * the agent's input and output tokens, its model steps, the tool calls the protocol recorded and the
     * characters of the requests its model was sent; then US dollars per episode by role (agent, user simulator,
     * judge: {@link EpisodeCost#COST_ROLES}; the judge's is the evaluation's cost, not the candidate's), priced
     * from the recorded tokens at the price table ({@code brokkr.cost.PriceTable}), a dash where unpriced.
     */
    public static final List<String> PER_EPISODE = List.of(
            "in_tok/ep",
            "out_tok/ep",
            "steps/ep",
            "calls/ep",
            "req_chars/ep",
            "usd_agent/ep",
            "usd_user/ep",
            "usd_judge/ep");

    /** What the statistics table says under its name: how its intervals are made and what they leave out (three lines). */
    public static final String STATISTICS_NOTE =
            "95% intervals over tasks; infrastructure failures are excluded from every metric and denominator\n"
                    + "t95: t with tasks-1 df around the standard error clustered by task; intervals of rates clipped to [0, 1]\n"
                    + "wilson95: Wilson-type (design-effect n, t quantile), the one to read (read: wilson) with fewer than "
                    + Wilson.FEW_TASKS
                    + " tasks or a rate within " + Wilson.NEAR_EDGE + " of 0 or 1";

    /**
     * One row per benchmark × candidate × metric (avg_reward, pass^1..n): the value, its standard error
     * over tasks, the 95% t and Wilson-type intervals, which of the two to read, and the denominators
     * it rests on (tasks, scored trials per task, scored attempts, infrastructure failures left out).
     */
    public static PlainTable statistics(Scorecard s) {
        PlainTable.Builder bench = PlainTable.text("benchmark"),
                cand = PlainTable.text("candidate"),
                metric = PlainTable.text("metric");
        PlainTable.Builder value = PlainTable.doubles("value"),
                se = PlainTable.doubles("se"),
                tLow = PlainTable.doubles("t95_lo"),
                tHigh = PlainTable.doubles("t95_hi"),
                wLow = PlainTable.doubles("wilson95_lo"),
                wHigh = PlainTable.doubles("wilson95_hi");
        PlainTable.Builder read = PlainTable.text("read"), trials = PlainTable.text("trials");
        PlainTable.Builder tasks = PlainTable.integers("tasks"),
                attempts = PlainTable.integers("attempts"),
                infra = PlainTable.integers("infra_excluded");
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
                value.append(e.value());
                se.append(e.se());
                tLow.append(e.t95().low());
                tHigh.append(e.t95().high());
                wLow.append(wilson.get(i).low());
                wHigh.append(wilson.get(i).high());
                Estimate.Interval shown =
                        readInterval(e, wilson.get(i)); // the very Wilson instance when that is the one to read
                read.append(!shown.defined() ? "" : shown == wilson.get(i) ? "wilson" : "t");
                tasks.append(r.tasks());
                trials.append(trialsText(r));
                attempts.append(r.attempts());
                infra.append(r.infrastructureFailures());
            }
        }
        return PlainTable.of(
                "statistics",
                bench,
                cand,
                metric,
                value,
                se,
                tLow,
                tHigh,
                wLow,
                wHigh,
                read,
                tasks,
                trials,
                attempts,
                infra);
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
    public static String trialsText(CandidateScore r) {
        if (r.perTask().isEmpty()) return "";
        return r.minTrials() == r.maxTrials() ? String.valueOf(r.maxTrials()) : r.minTrials() + "-" + r.maxTrials();
    }

    /** One row per benchmark × candidate × task. */
    public static PlainTable tasks(Scorecard s) {
        PlainTable.Builder bench = PlainTable.text("benchmark"),
                cand = PlainTable.text("candidate"),
                task = PlainTable.text("task");
        PlainTable.Builder trials = PlainTable.integers("trials"), succ = PlainTable.integers("successes");
        PlainTable.Builder reward = PlainTable.doubles("avg_reward");
        List<PlainTable.Builder> pass = passColumns(s.maxK());
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
        List<PlainTable.Builder> cols =
                new ArrayList<>(List.<PlainTable.Builder>of(bench, cand, task, trials, succ, reward));
        cols.addAll(pass);
        return PlainTable.of("tasks", cols.toArray(PlainTable.Builder[]::new));
    }

    /** One row per benchmark × candidate × check: how often it was evaluated and failed. */
    public static PlainTable checks(Scorecard s) {
        PlainTable.Builder bench = PlainTable.text("benchmark"),
                cand = PlainTable.text("candidate"),
                check = PlainTable.text("check");
        PlainTable.Builder evaluated = PlainTable.integers("evaluated"), failed = PlainTable.integers("failed");
        PlainTable.Builder rate = PlainTable.doubles("fail_rate");
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
        return PlainTable.of("checks", bench, cand, check, evaluated, failed, rate);
    }

    /**
     * One row per attempt: its cell, status, reward (missing unless completed), failed checks, duration,
     * error (abbreviated). {@code trial} is the cell's repetition counted from 1, as everything a person
     * reads counts trials ({@code tau2 run}'s trial column, transcripts); the store keeps the repetition from 0.
     */
    public static PlainTable attempts(List<Inspect.AttemptRow> rows) {
        PlainTable.Builder id = PlainTable.longs("id");
        PlainTable.Builder bench = PlainTable.text("benchmark"),
                cand = PlainTable.text("candidate"),
                task = PlainTable.text("task");
        PlainTable.Builder trial = PlainTable.integers("trial");
        PlainTable.Builder status = PlainTable.text("status");
        PlainTable.Builder reward = PlainTable.doubles("reward");
        PlainTable.Builder failedChecks = PlainTable.text("failed_checks");
        PlainTable.Builder ms = PlainTable.longs("duration_ms");
        PlainTable.Builder error = PlainTable.text("error");
        for (Inspect.AttemptRow row : rows) {
            Attempt a = row.attempt();
            id.append(a.id());
            bench.append(row.benchmark());
            cand.append(row.candidate());
            task.append(a.taskId());
            trial.append(a.repetition() + 1);
            status.append(a.status().wire());
            if (a.completed()) reward.append(a.reward());
            else reward.appendMissing();
            failedChecks.append(String.join(
                    ",",
                    a.checks().stream()
                            .filter(x -> !x.passed())
                            .map(Check::name)
                            .toList()));
            ms.append(a.durationMillis());
            error.append(a.error() == null ? "" : abbreviate(a.error(), 100));
        }
        return PlainTable.of("attempts", id, bench, cand, task, trial, status, reward, failedChecks, ms, error);
    }

    /** The scorecard as plain text: summary, failures by check, per-task results. */
    public static String text(Scorecard s) {
        return text(s, 0);
    }

    /** {@link #text(Scorecard)} with every table fitted to {@code width} characters (0: no limit; {@link TableText#aligned(PlainTable, int)}). */
    public static String text(Scorecard s, int width) {
        StringBuilder sb = new StringBuilder();
        sb.append("cells: ")
                .append(s.cells())
                .append(", without a completed attempt: ")
                .append(s.pendingCells())
                .append('\n');
        sb.append("infrastructure failures are excluded from every metric\n\n");
        sb.append(TableText.aligned(summary(s), width)).append('\n');
        PlainTable statistics = statistics(s);
        if (statistics.rowCount() > 0)
            sb.append(statisticsText(statistics, width)).append('\n');
        PlainTable checks = checks(s);
        if (checks.rowCount() > 0)
            sb.append("checks (failed of evaluated)\n")
                    .append(TableText.aligned(checks, width))
                    .append('\n');
        PlainTable tasks = tasks(s);
        if (tasks.rowCount() > 0) sb.append("per task\n").append(TableText.aligned(tasks, width));
        return sb.toString();
    }

    /** The statistics table under its heading and note, as plain text. */
    public static String statisticsText(PlainTable statistics) {
        return statisticsText(statistics, 0);
    }

    /** {@link #statisticsText(PlainTable)} fitted to {@code width} characters (0: no limit). */
    public static String statisticsText(PlainTable statistics, int width) {
        String note = "statistics: " + STATISTICS_NOTE.replace("\n", "\n  ");
        if (width > 0)
            note = String.join(
                    "\n",
                    note.lines()
                            .map(l -> String.join("\n    ", TableText.wrap(l, width - 4, Integer.MAX_VALUE)))
                            .toList());
        return note + "\n" + TableText.aligned(statistics, width);
    }

    /** The statistics table with its note above it, as HTML. */
    public static String statisticsHtml(PlainTable statistics) {
        return "<p class=\"brokkr-note\">Statistics: "
                + Html.esc(STATISTICS_NOTE).replace("\n", "<br>") + "</p>" + TableHtml.html(statistics);
    }

    /**
     * A benchmark's own report table ({@link Report}, e.g. BFCL's per-category accuracy): text, whole
     * number and double columns as its values are, null cells missing.
     */
    public static PlainTable report(Report r) {
        List<PlainTable.Builder> cols = new ArrayList<>();
        for (int c = 0; c < r.columns().size(); c++) {
            String name = r.columns().get(c);
            int col = c;
            List<Object> values = r.rows().stream().map(row -> row.get(col)).toList();
            if (values.stream().allMatch(v -> v == null || v instanceof Integer)) {
                PlainTable.Builder ic = PlainTable.integers(name);
                values.forEach(v -> {
                    if (v == null) ic.appendMissing();
                    else ic.append((Integer) v);
                });
                cols.add(ic);
            } else if (values.stream().allMatch(v -> v == null || v instanceof Integer || v instanceof Long)) {
                PlainTable.Builder lc = PlainTable.longs(name);
                values.forEach(v -> {
                    if (v == null) lc.appendMissing();
                    else lc.append(((Number) v).longValue());
                });
                cols.add(lc);
            } else if (values.stream().allMatch(v -> v == null || v instanceof Number)) {
                PlainTable.Builder dc = PlainTable.doubles(name);
                values.forEach(v -> {
                    if (v == null) dc.appendMissing();
                    else dc.append(((Number) v).doubleValue());
                });
                cols.add(dc);
            } else {
                PlainTable.Builder sc = PlainTable.text(name);
                values.forEach(v -> sc.append(v == null ? "" : v.toString()));
                cols.add(sc);
            }
        }
        return PlainTable.of(r.title(), cols.toArray(PlainTable.Builder[]::new));
    }

    /** A report's figures as a table ({@code figure}, {@code value}; a figure that cannot be computed is missing). */
    public static PlainTable figures(Report r) {
        PlainTable.Builder name = PlainTable.text("figure");
        PlainTable.Builder value = PlainTable.doubles("value");
        for (Report.Figure f : r.figures()) {
            name.append(f.name());
            if (f.value() == null) value.appendMissing();
            else value.append(f.value());
        }
        return PlainTable.of(r.title() + ": figures", name, value);
    }

    /** One benchmark × candidate report as plain text: its title, table, figures and notes. */
    public static String reportText(BenchmarkReports.CandidateReport cr) {
        return reportText(cr, true);
    }

    /** As {@link #reportText(BenchmarkReports.CandidateReport)}, the notes only {@code withNotes} (once per benchmark in a listing of several candidates). */
    public static String reportText(BenchmarkReports.CandidateReport cr, boolean withNotes) {
        Report r = cr.report();
        StringBuilder sb = new StringBuilder();
        sb.append(cr.benchmark())
                .append(" / ")
                .append(cr.candidate())
                .append(": ")
                .append(r.title())
                .append('\n');
        sb.append(TableText.aligned(report(r)));
        if (!r.figures().isEmpty()) sb.append('\n').append(TableText.aligned(figures(r)));
        if (withNotes) for (String n : r.notes()) sb.append("  ").append(n).append('\n');
        return sb.toString();
    }

    /**
     * One row per experiment directory, as {@code experiment list} prints it: the directory, the
     * experiment's name, its benchmarks and candidates, how many of its current cells have a completed
     * attempt, how many current cells it has, and when it last ran (UTC).
     */
    public static PlainTable experiments(Map<String, ExperimentQuery.Overview> byDir) {
        PlainTable.Builder dir = PlainTable.text("dir"),
                name = PlainTable.text("name"),
                domains = PlainTable.text("domains"),
                candidates = PlainTable.text("candidates"),
                last = PlainTable.text("last_run_utc");
        PlainTable.Builder done = PlainTable.integers("cells_done"), cells = PlainTable.integers("cells");
        byDir.forEach((d, o) -> {
            dir.append(d);
            name.append(o.name());
            domains.append(String.join(",", o.benchmarks()));
            candidates.append(String.join(",", o.candidates()));
            done.append(o.cellsDone());
            cells.append(o.cells());
            last.append(o.lastRunMillis() == 0 ? "" : UTC.format(Instant.ofEpochMilli(o.lastRunMillis())));
        });
        return PlainTable.of("experiments", dir, name, domains, candidates, done, cells, last);
    }

    private static final DateTimeFormatter UTC =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

    /** pass^1..pass^maxK columns. */
    private static List<PlainTable.Builder> passColumns(int maxK) {
        List<PlainTable.Builder> pass = new ArrayList<>();
        for (int k = 1; k <= maxK; k++) pass.add(PlainTable.doubles("pass^" + k));
        return pass;
    }

    /** A curve shorter than the columns (a row with fewer trials than another) leaves the rest missing. */
    private static void appendCurve(List<PlainTable.Builder> pass, List<Double> curve) {
        for (int k = 1; k <= pass.size(); k++) {
            if (k <= curve.size()) pass.get(k - 1).append(curve.get(k - 1));
            else pass.get(k - 1).appendMissing();
        }
    }

    private static String trustText(Map<TrustTier, Integer> trust) {
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(trust)
                .forEach((t, n) -> sb.append(sb.isEmpty() ? "" : " ")
                        .append(t.name().toLowerCase(Locale.ROOT))
                        .append(':')
                        .append(n));
        return sb.toString();
    }

    private static String abbreviate(String s, int n) {
        String one = s.replace('\n', ' ');
        return one.length() <= n ? one : one.substring(0, n - 3) + "...";
    }
}
