package brokkr.render.report;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Evidence;
import brokkr.eval.Exploration;
import brokkr.eval.Transcripts;
import brokkr.experiment.Comparison;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.Inspect;
import brokkr.experiment.Registry;
import brokkr.experiment.Scorecard;
import brokkr.experiment.StoreLocation;
import brokkr.python.PyJson;
import brokkr.render.Html;
import brokkr.render.Numbers;
import brokkr.render.chart.ChartImages;
import brokkr.render.chart.Charts;
import brokkr.render.experiment.ScorecardTables;
import brokkr.render.table.TableHtml;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * An experiment as one self-contained HTML page to attach to a paper or a pull request: the
 * scorecard, the pass^k chart (inline SVG), the per-task table and the checks, and every attempt with
 * its grade breakdown and transcript (dialogue, tool calls, tool results), folded; an attempt whose domain shows
 * the files it left (a wiki's pages, {@link Exploration#files}) has them rendered beside its grade, their links
 * and citations jumps inside the page ({@link FilesHtml}). A checkbox shows
 * failures only. No server and no network: the CSS and the few lines of script are inline, and every
 * text from the store (transcripts hold arbitrary text) is escaped, control and bidi characters shown as
 * escapes ({@link Html#esc}).
 *
 * <p>The page is written as it is read ({@link #write}): the head from the scorecard and the attempts'
 * listing (no evidence), then one attempt at a time, read whole, written and dropped, so a store of any size
 * reports in a small heap. A text longer than {@link LongTexts#SHOWN} characters shows its start, the rest
 * one click away; a long text an attempt repeats (a tool's output echoed in the next request) is shown whole
 * once per attempt and linked where it recurs.
 *
 * @param name     the experiment's name
 * @param specJson the spec the store last ran, as JSON ("" when it has none)
 * @param headlineHtml what the experiment found, in one sentence ({@link Headline})
 * @param listing  every attempt of the current cells without its evidence, in scorecard order (candidate, task,
 *                 repetition)
 */
public record ExperimentReport(
        String name,
        String dir,
        String specJson,
        Scorecard scorecard,
        String headlineHtml,
        List<Inspect.AttemptRow> listing) {
    public ExperimentReport {
        listing = List.copyOf(listing);
    }

    /**
     * One attempt as the page shows it: its cell, its messages, its grade read by its domain and the files it left
     * that its domain shows ({@link Exploration#files}; null when none).
     */
    public record AttemptView(
            Inspect.AttemptRow row, List<Message> messages, Exploration.RunReport grade, Exploration.Files files) {
        public Attempt attempt() {
            return row.attempt();
        }

        public boolean passed() {
            return attempt().success();
        }
    }

    /**
     * Writes {@code dir}'s report to {@code out} (the store is only read); {@code registry} lends each domain's
     * reading of its attempts. Only one attempt's evidence is in memory at a time.
     */
    public static void write(Path dir, Registry registry, Writer out) throws IOException {
        write(StoreLocation.of(dir), registry, out);
    }

    /** As {@link #write(Path, Registry, Writer)}, for the store at {@code store} (a directory's or a PostgreSQL schema). */
    public static void write(StoreLocation store, Registry registry, Writer out) throws IOException {
        String dir = store.display();
        String dirName = store instanceof StoreLocation.Directory d
                ? String.valueOf(d.dir().toAbsolutePath().getFileName())
                : store.display();
        try (ExperimentQuery q = ExperimentQuery.open(store)) {
            Scorecard sc = Scorecard.of(q);
            var experiment = q.experiment();
            String name = experiment.map(Map.Entry::getKey).orElse(dirName);
            String spec = experiment.map(Map.Entry::getValue).orElse("");
            String headline = Headline.html(sc, (benchmark, best, runnerUp) -> {
                try {
                    return Comparison.between(q, dir, best, q, dir, runnerUp).stream()
                            .filter(c -> c.benchmark().equals(benchmark))
                            .findFirst();
                } catch (IllegalArgumentException e) {
                    return Optional.empty(); // no benchmark in common: the headline says so
                }
            });
            var report = new ExperimentReport(name, dir, spec, sc, headline, order(Inspect.attempts(q, false), sc));
            report.write(out, listed -> {
                // The listing carries no evidence (it is most of a store's bytes): read each attempt whole, one at a
                // time.
                Attempt whole;
                try {
                    whole = q.attempt(listed.attempt().id()).orElse(listed.attempt());
                } catch (ExperimentQuery.DamagedRecordException e) {
                    whole = listed.attempt(); // shown from its row's columns; the report command names it
                }
                Inspect.AttemptRow row = new Inspect.AttemptRow(whole, listed.benchmark(), listed.candidate());
                return new AttemptView(row, messages(row.attempt()), grade(registry, row), files(registry, row));
            });
        }
    }

    /** Attempts in the scorecard's order: benchmark and candidate as its rows, tasks as its per-task lists, then repetition. */
    static List<Inspect.AttemptRow> order(List<Inspect.AttemptRow> rows, Scorecard sc) {
        Map<List<String>, Integer> group = new HashMap<>();
        Map<List<String>, Integer> task = new HashMap<>();
        for (Scorecard.CandidateScore r : sc.rows()) {
            group.putIfAbsent(List.of(r.benchmark(), r.candidate()), group.size());
            for (Scorecard.TaskScore t : r.perTask())
                task.putIfAbsent(List.of(r.benchmark(), r.candidate(), t.taskId()), task.size());
        }
        return rows.stream()
                .sorted(Comparator.comparingInt((Inspect.AttemptRow r) ->
                                group.getOrDefault(List.of(r.benchmark(), r.candidate()), Integer.MAX_VALUE))
                        .thenComparingInt(r -> task.getOrDefault(
                                List.of(
                                        r.benchmark(),
                                        r.candidate(),
                                        r.attempt().taskId()),
                                Integer.MAX_VALUE))
                        .thenComparingInt(r -> r.attempt().repetition())
                        .thenComparingLong(r -> r.attempt().id()))
                .toList();
    }

    private static List<Message> messages(Attempt a) {
        try {
            return a.evidence().transcript().isNone()
                    ? List.of()
                    : Transcripts.fromValue(a.evidence().transcript());
        } catch (RuntimeException e) {
            return List.of(new Message.System("(transcript not in message form: " + e.getMessage() + ")\n"
                    + PyJson.dumps(a.evidence().transcript())));
        }
    }

    /** The domain's reading of a completed attempt (tau2 says which checks are diagnostics), else the attempt's own checks. */
    private static Exploration.RunReport grade(Registry registry, Inspect.AttemptRow row) {
        Attempt a = row.attempt();
        if (!a.completed()) return null;
        BenchmarkProvider p = registry.benchmarks().get(row.benchmark());
        if (p != null && p.exploration().isPresent()) {
            try {
                return p.exploration().get().report(a);
            } catch (RuntimeException e) {
                // A record the domain cannot read (an older evidence shape) still shows its own checks.
            }
        }
        return new Exploration.RunReport(
                "reward " + Numbers.sig3(a.reward()) + ", " + a.evidence().termination(),
                a.checks().stream()
                        .map(c -> new Exploration.CheckLine(c.name(), c.passed(), c.passed() ? "passed" : "failed"))
                        .toList());
    }

    /** The files the attempt's domain shows of it, or null (none, or a record the domain cannot read). */
    private static Exploration.Files files(Registry registry, Inspect.AttemptRow row) {
        BenchmarkProvider p = registry.benchmarks().get(row.benchmark());
        if (p == null || p.exploration().isEmpty()) return null;
        try {
            return p.exploration().get().files(row.attempt()).orElse(null);
        } catch (RuntimeException e) {
            return null; // an older evidence shape: the attempt still shows its grade and transcript
        }
    }

    // ---------------------------------------------------------------- HTML

    /** The page, each attempt of the listing read by {@code reader} when its turn comes and written at once. */
    public void write(Writer out, Function<Inspect.AttemptRow, AttemptView> reader) throws IOException {
        StringBuilder sb = new StringBuilder(64 * 1024);
        int failed = (int) listing.stream().filter(a -> !a.attempt().success()).count();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append(
                        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">")
                .append("<title>")
                .append(esc(name))
                .append(" - Brokkr report</title><style>")
                .append(resource("report.css"))
                .append("</style></head><body>");
        sb.append("<header><h1>")
                .append(esc(name))
                .append("</h1><p class=\"headline\" id=\"headline\">")
                .append(headlineHtml)
                .append("</p><p class=\"sub\">Brokkr experiment report · <code>")
                .append(esc(dir))
                .append("</code> · ")
                .append(scorecard.cells())
                .append(" cells, ")
                .append(scorecard.pendingCells())
                .append(" without a completed attempt · ")
                .append(listing.size())
                .append(" attempts, ")
                .append(failed)
                .append(" not passed · infrastructure failures enter no metric</p></header><main>");

        sb.append("<section id=\"scorecard\"><h2>Scorecard</h2><div class=\"scroll\">")
                .append(TableHtml.html(ScorecardTables.summary(scorecard)))
                .append("</div>");
        var statistics = ScorecardTables.statistics(scorecard);
        if (statistics.rowCount() > 0) {
            sb.append("<div class=\"scroll\" id=\"statistics\">")
                    .append(ScorecardTables.statisticsHtml(statistics))
                    .append("</div>");
        }
        if (!specJson.isEmpty()) {
            sb.append("<details class=\"spec\"><summary>experiment definition</summary>")
                    .append(specHtml(specJson))
                    .append("</details>");
        }
        sb.append("</section>");

        if (scorecard.maxK() > 0) {
            var chart = Charts.passK(name, scorecard);
            // VectorGraphics2D draws text as outlines: the figure's label and caption carry the title as text.
            sb.append("<section id=\"passk\"><h2>pass^k</h2><figure role=\"img\" aria-label=\"")
                    .append(esc(chart.getTitle()))
                    .append("\">")
                    .append(ChartImages.svg(chart))
                    .append("<figcaption><b>")
                    .append(esc(chart.getTitle()))
                    .append(
                            "</b>: the chance that k trials of a task all pass, averaged over tasks (upstream tau2's estimate); bars: its 95% interval over tasks,")
                    .append(
                            " the Wilson-type one with fewer than 30 tasks or near 0 or 1, else t (as the statistics table marks).</figcaption></figure></section>");
        }

        var costChart = Charts.scoreVsCost(name, scorecard);
        if (costChart != null) {
            sb.append("<section id=\"cost\"><h2>Score against cost</h2><figure role=\"img\" aria-label=\"")
                    .append(esc(costChart.getTitle()))
                    .append("\">")
                    .append(ChartImages.svg(costChart))
                    .append("<figcaption><b>")
                    .append(esc(costChart.getTitle()))
                    .append(
                            "</b>: each candidate's mean reward against its agent's dollars per episode (priced from the recorded tokens;"
                                    + " the judge's and user simulator's cost is the evaluation's); the grey steps join the Pareto front.")
                    // The chart's words are drawn as outlines; the front is also said in text, for search and screen
                    // readers.
                    .append(" On the front, cheapest first: <span class=\"front\">")
                    .append(esc(String.join(
                            ", ",
                            costChart.getSeriesMap().values().stream()
                                    .filter(x -> x.getName().endsWith(" *"))
                                    .sorted(java.util.Comparator.comparingDouble(x -> x.getXData()[0]))
                                    .map(x ->
                                            x.getName().substring(0, x.getName().length() - 2))
                                    .toList())))
                    .append("</span>.</figcaption></figure></section>");
        }

        sb.append(
                        "<div class=\"controls\" id=\"controls\"><label><input type=\"checkbox\" id=\"failed-only\"> failed only</label>")
                .append(
                        "<button type=\"button\" id=\"expand-all\">expand all</button><button type=\"button\" id=\"collapse-all\">collapse all</button>")
                .append("<span id=\"shown\" class=\"sub\"></span></div>");

        sb.append("<section id=\"tasks\"><h2>Per task</h2><div class=\"scroll\">")
                .append(taskTable())
                .append("</div></section>");

        var checks = ScorecardTables.checks(scorecard);
        if (checks.rowCount() > 0)
            sb.append("<section id=\"checks\"><h2>Checks (failed of evaluated)</h2><div class=\"scroll\">")
                    .append(TableHtml.html(checks))
                    .append("</div></section>");

        sb.append("<section id=\"attempts\"><h2>Attempts</h2>");
        if (listing.isEmpty()) sb.append("<p class=\"sub\">no attempts yet</p>");
        out.append(sb);
        FilesHtml.Sources sources = new FilesHtml.Sources();
        for (Inspect.AttemptRow listed : listing) {
            sb.setLength(0);
            attempt(sb, reader.apply(listed), sources);
            out.append(sb);
            // an attempt with a huge text leaves a huge buffer: start the next one small
            if (sb.capacity() > 1 << 20) sb = new StringBuilder(64 * 1024);
        }
        sb.setLength(0);
        sb.append("</section>");
        sources.write(sb);
        sb.append(
                "</main><footer class=\"sub\">written by <code>./brokkr report</code>; self-contained: no server, no network</footer>");
        sb.append("<script>").append(resource("report.js")).append("</script></body></html>\n");
        out.append(sb);
        out.flush();
    }

    /** The spec as folded JSON, cut when long (a spec can inline a prompt). */
    private static String specHtml(String specJson) {
        StringBuilder sb = new StringBuilder();
        new LongTexts("spec-text-").json(sb, specJson);
        return sb.toString();
    }

    private String taskTable() {
        int maxK = scorecard.maxK();
        StringBuilder sb = new StringBuilder("<table class=\"brokkr-table tasks\"><thead><tr>");
        for (String h : List.of("benchmark", "candidate", "task"))
            sb.append("<th style=\"text-align:left\">").append(h).append("</th>");
        for (String h : List.of("trials", "successes", "avg_reward"))
            sb.append("<th style=\"text-align:right\">").append(h).append("</th>");
        for (int k = 1; k <= maxK; k++)
            sb.append("<th style=\"text-align:right\">pass^").append(k).append("</th>");
        sb.append("<th></th></tr></thead><tbody>");
        for (Scorecard.CandidateScore r : scorecard.rows()) {
            for (Scorecard.TaskScore t : r.perTask()) {
                boolean passed = t.trials() > 0 && t.successes() == t.trials();
                sb.append("<tr class=\"task-row\" data-passed=\"")
                        .append(passed ? 1 : 0)
                        .append("\"><td>")
                        .append(esc(r.benchmark()))
                        .append("</td><td>")
                        .append(esc(r.candidate()))
                        .append("</td><td>")
                        .append(esc(t.taskId()))
                        .append("</td>")
                        .append(num(String.valueOf(t.trials())))
                        .append(num(String.valueOf(t.successes())))
                        .append(num(Numbers.sig3(t.avgReward())));
                for (int k = 1; k <= maxK; k++)
                    num(sb, k <= t.passHatK().size() ? Numbers.sig3(t.passHatK().get(k - 1)) : "");
                sb.append("<td>")
                        .append(
                                passed
                                        ? "<span class=\"ok\">✓ all passed</span>"
                                        : "<span class=\"bad\">✗ " + (t.trials() - t.successes()) + " failed</span>")
                        .append("</td></tr>");
            }
        }
        return sb.append("</tbody></table>").toString();
    }

    private static String num(String s) {
        return "<td style=\"text-align:right\">" + esc(s) + "</td>";
    }

    private static void num(StringBuilder sb, String s) {
        sb.append(num(s));
    }

    private static void attempt(StringBuilder sb, AttemptView v, FilesHtml.Sources sources) {
        Attempt a = v.attempt();
        LongTexts texts = new LongTexts("attempt-" + a.id() + "-text-");
        Evidence e = a.evidence();
        String status = !a.completed()
                ? "<span class=\"bad\">infrastructure failure</span>"
                : v.passed() ? "<span class=\"ok\">✓ passed</span>" : "<span class=\"bad\">✗ failed</span>";
        sb.append("<details class=\"attempt\" id=\"attempt-")
                .append(a.id())
                .append("\" data-passed=\"")
                .append(v.passed() ? 1 : 0)
                .append("\">");
        sb.append("<summary><span class=\"aid\">#")
                .append(a.id())
                .append("</span> ")
                .append(esc(v.row().benchmark()))
                .append(" · <b>")
                .append(esc(v.row().candidate()))
                .append("</b> · task <code>")
                .append(esc(a.taskId()))
                .append("</code> · trial ")
                .append(a.repetition() + 1)
                .append(" · ")
                .append(status);
        if (a.completed()) sb.append(" · reward ").append(Numbers.sig3(a.reward()));
        sb.append(" · ")
                .append(v.messages().size())
                .append(" messages · ")
                .append(Numbers.duration(a.durationMillis()))
                .append("</summary>");
        sb.append(v.files() == null ? "<div class=\"attempt-body\">" : "<div class=\"attempt-body has-files\">")
                .append("<div class=\"grade\"><h3>Grade</h3>");
        if (a.completed()) {
            sb.append("<p>")
                    .append(esc(v.grade().resultLine()))
                    .append(" · trust ")
                    .append(esc(a.trust().name().toLowerCase(Locale.ROOT)))
                    .append("</p>");
            sb.append(
                    "<table class=\"checks\"><thead><tr><th style=\"text-align:left\">check</th><th style=\"text-align:left\">result</th><th style=\"text-align:left\">about</th></tr></thead><tbody>");
            for (Exploration.CheckLine c : v.grade().checks()) {
                sb.append("<tr><td><code>")
                        .append(esc(c.name()))
                        .append("</code></td><td>")
                        .append(c.passed() ? "<span class=\"ok\">✓ pass</span>" : "<span class=\"bad\">✗ fail</span>")
                        .append("</td><td>")
                        .append(esc(c.detail()))
                        .append("</td></tr>");
            }
            sb.append("</tbody></table>");
        } else {
            texts.pre(sb, "class=\"error\"", a.error());
        }
        sb.append("<p class=\"sub\">termination ")
                .append(esc(e.termination().isEmpty() ? "-" : e.termination()))
                .append(" · model calls ")
                .append(e.modelCalls().size());
        e.usage()
                .forEach((role, u) -> sb.append(" · ")
                        .append(esc(role))
                        .append(" tokens ")
                        .append(u.inputTokens())
                        .append('/')
                        .append(u.outputTokens()));
        sb.append("</p></div>");
        if (v.files() != null) FilesHtml.attempt(sb, a.id(), v.files(), sources);
        sb.append("<div class=\"dialogue\"><h3>Transcript</h3>");
        if (v.messages().isEmpty()) sb.append("<p class=\"sub\">no transcript recorded</p>");
        for (Message m : v.messages()) message(sb, m, texts);
        sb.append("</div></div></details>");
    }

    private static void message(StringBuilder sb, Message m, LongTexts texts) {
        switch (m) {
            case Message.System s -> {
                sb.append("<details class=\"msg msg-system\"><summary><span class=\"role\">system</span> ")
                        .append(s.content() == null ? 0 : s.content().length())
                        .append(" characters</summary>");
                texts.pre(sb, "", s.content());
                sb.append("</details>");
            }
            case Message.User u -> turn(sb, "user", u.content(), u.toolCalls(), texts);
            case Message.Assistant a -> turn(sb, "assistant", a.content(), a.toolCalls(), texts);
            case Message.Tool t -> {
                sb.append("<div class=\"msg msg-tool")
                        .append(t.error() ? " msg-error" : "")
                        .append("\"><div class=\"role\">tool")
                        .append(t.name() == null ? "" : " · <code>" + esc(t.name()) + "</code>")
                        .append(t.error() ? " · <span class=\"bad\">error</span>" : "")
                        .append("</div><div class=\"body\">");
                texts.json(sb, t.content());
                sb.append("</div></div>");
            }
        }
    }

    private static void turn(StringBuilder sb, String role, String content, List<ToolCall> calls, LongTexts texts) {
        sb.append("<div class=\"msg msg-")
                .append(role)
                .append("\"><div class=\"role\">")
                .append(role)
                .append("</div><div class=\"body\">");
        if (content != null && !content.isEmpty()) texts.pre(sb, "", content);
        for (ToolCall c : calls) {
            String args = c.rawArguments() != null ? c.rawArguments() : PyJson.dumps(c.arguments());
            sb.append("<div class=\"call\"><span class=\"arrow\">→</span> <code>")
                    .append(esc(c.name()))
                    .append("</code>");
            texts.json(sb, args);
            sb.append("</div>");
        }
        sb.append("</div></div>");
    }

    private static String esc(String s) {
        return Html.esc(s);
    }

    static String resource(String name) {
        try (InputStream in = ExperimentReport.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("missing resource " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
