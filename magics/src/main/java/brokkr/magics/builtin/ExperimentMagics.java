package brokkr.magics.builtin;

import brokkr.eval.Attempt;
import brokkr.experiment.BenchmarkReports;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.ExperimentStore;
import brokkr.experiment.Experiments;
import brokkr.experiment.Fleet;
import brokkr.experiment.Planner;
import brokkr.experiment.PostgresLocation;
import brokkr.experiment.ProgressListener;
import brokkr.experiment.Scorecard;
import brokkr.experiment.StoreLocation;
import brokkr.magics.Display;
import brokkr.magics.MagicArgs;
import brokkr.magics.MagicExtension;
import brokkr.magics.MagicRegistry;
import brokkr.magics.MagicUsageException;
import brokkr.magics.Session;
import brokkr.magics.view.ExperimentTables;
import brokkr.magics.view.Rich;
import brokkr.magics.view.Tables;
import brokkr.render.chart.Charts;
import brokkr.render.experiment.FleetTables;
import brokkr.render.experiment.ScorecardTables;
import brokkr.run.Cancellation;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Table;

/**
 * The experiment magics over {@code brokkr.experiment}, plugged in as a {@link MagicExtension}
 * ({@code META-INF/services}): {@code %experiment FILE}, {@code %%experiment} (the spec in the cell),
 * {@code %scorecard DIR} and {@code %passk DIR}. Each is also plain Java ({@link #experiment},
 * {@link #scorecard}, {@link #passk}).
 */
public final class ExperimentMagics implements MagicExtension {
    @Override
    public void install(MagicRegistry r) {
        r.line(
                        "experiment",
                        "%experiment FILE [--dir DIR] | %experiment status --store URL [NAME] [--every S]",
                        "Runs (or resumes) the experiment of a YAML/JSON file with a live progress display, then shows its scorecard."
                                + " Default DIR: .brokkr/experiments/NAME. status: a fleet's cells (done, running, pending, out of"
                                + " retries), workers and providers' cells in flight, refreshed every S seconds (default 2) until no"
                                + " cell is pending or running, or the cell is interrupted.",
                        ExperimentMagics::experimentLine)
                .cell(
                        "experiment",
                        "%%experiment [--dir DIR] [--name NAME]",
                        "Runs (or resumes) the experiment defined in the cell body (YAML or JSON, as in an experiment file).",
                        ExperimentMagics::experimentCell)
                .line(
                        "scorecard",
                        "%scorecard DIR",
                        "The scorecard of the experiment in DIR: average reward and pass^k per candidate with standard errors over tasks and"
                                + " 95% intervals, failures by check, per task.",
                        ExperimentMagics::scorecardLine)
                .line(
                        "passk",
                        "%passk DIR [--by candidate]",
                        "pass^k against k, one curve per benchmark and candidate with 95% intervals as error bars, as a chart (PNG and SVG)"
                                + " with the numbers (standard errors, intervals, denominators) as a table.",
                        ExperimentMagics::passkLine)
                .line(
                        "scorecost",
                        "%scorecost DIR",
                        "Score against cost: each candidate's mean reward against its agent's US dollars per episode (priced from the"
                                + " recorded tokens), the Pareto front marked, as a chart (PNG and SVG).",
                        ExperimentMagics::scorecostLine);
    }

    static Object experimentLine(Session s, MagicArgs a) throws Exception {
        var p = a.parse(Set.of("dir", "store", "every"), 2);
        if ("status".equals(p.positional(0)))
            return status(s, p.option("store"), p.positional(1), p.option("every", "2"));
        if (p.positional(1) != null) throw new MagicUsageException("%experiment takes one experiment FILE");
        if (p.positional(0) == null) throw new MagicUsageException("which experiment file?");
        Path file = Path.of(p.positional(0));
        if (!Files.isRegularFile(file)) throw new MagicUsageException("no experiment file " + file);
        ExperimentSpec spec;
        try {
            spec = ExperimentSpec.read(file);
        } catch (ExperimentSpec.SpecException e) {
            throw new MagicUsageException(e.getMessage());
        }
        return experiment(s, spec, dir(p.option("dir"), spec, file));
    }

    static Object experimentCell(Session s, MagicArgs a, String body) throws Exception {
        var p = a.parse(Set.of("dir", "name"), 0);
        if (body == null || body.isBlank())
            throw new MagicUsageException("the cell body is the experiment (YAML or JSON)");
        ExperimentSpec spec;
        try {
            JsonNode node = new ObjectMapper(new YAMLFactory()).readTree(body);
            if (node == null || !node.isObject())
                throw new MagicUsageException("the cell body must be a mapping (YAML or JSON)");
            Value v = Json.parse(new ObjectMapper().writeValueAsString(node));
            spec = ExperimentSpec.fromValue(
                    (PyDict) v, p.option("name", "notebook"), Path.of("").toAbsolutePath());
        } catch (JsonProcessingException e) {
            throw new MagicUsageException("the cell body is not YAML: " + e.getOriginalMessage());
        } catch (ExperimentSpec.SpecException e) {
            throw new MagicUsageException(e.getMessage());
        }
        return experiment(s, spec, dir(p.option("dir"), spec, null));
    }

    /** A fleet's status, as {@code experiment status} prints it. */
    public record FleetStatusView(String text, boolean settled) implements Rich {
        @Override
        public String html() {
            return "<pre>" + Tables.esc(text) + "</pre>";
        }
    }

    /**
     * {@code %experiment status --store URL [NAME]}: the fleet's status, shown and refreshed in place every
     * {@code every} seconds until no cell is pending or running (or the cell is interrupted); the last one
     * is the cell's value.
     */
    static Object status(Session s, String store, String name, String every) throws Exception {
        if (store == null)
            throw new MagicUsageException("%experiment status needs --store postgresql://HOST[:PORT]/DB");
        PostgresLocation location;
        double seconds;
        try {
            location = PostgresLocation.parse(store);
            seconds = Double.parseDouble(every);
        } catch (NumberFormatException e) {
            throw new MagicUsageException("--every takes seconds, not '" + every + "'");
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException(e.getMessage());
        }
        if (!(seconds >= 0.1)) throw new MagicUsageException("--every takes at least 0.1 seconds");
        FleetStatusView view = statusView(location, name);
        Display display = s.display();
        String id = display.show(view);
        try {
            while (!view.settled()) {
                Thread.sleep((long) (seconds * 1000));
                view = statusView(location, name);
                display.update(id, view);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the watch ends; the fleet goes on
        }
        return view;
    }

    private static FleetStatusView statusView(PostgresLocation location, String name) {
        try {
            List<Fleet.Status> all = Fleet.status(location, name);
            return new FleetStatusView(FleetTables.text(location.display(), all), FleetTables.settled(all));
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException(e.getMessage());
        }
    }

    /**
     * Where a run goes: {@code --dir} (a directory or a PostgreSQL URL), else the file's {@code store:}, else
     * {@code .brokkr/experiments/NAME}.
     */
    private static StoreLocation dir(String given, ExperimentSpec spec, Path file) {
        String from = given != null ? given : file == null ? null : ExperimentSpec.store(file);
        if (from == null) return StoreLocation.of(Path.of(".brokkr", "experiments", spec.name()));
        try {
            return StoreLocation.parse(from);
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException(e.getMessage());
        }
    }

    /** A magic's DIR argument: a directory holding a store, or a PostgreSQL URL (see {@link StoreLocation#existing}). */
    public static StoreLocation store(String arg) {
        try {
            return StoreLocation.existing(arg);
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException(e.getMessage());
        }
    }

    /** The outcome of {@code %experiment}: the run's counts and its scorecard. */
    public record ExperimentView(Experiments.Result result, ScorecardView scorecard) implements Rich {
        @Override
        public String text() {
            return result.summary() + "\n\n" + scorecard.text();
        }

        @Override
        public String text(int width) {
            return result.summary() + "\n\n" + scorecard.text(width);
        }

        @Override
        public String html() {
            return "<p>" + Tables.esc(result.summary()) + "</p>" + scorecard.html();
        }
    }

    /**
     * A live progress line: published once and replaced in place as attempts complete; at the end it
     * says the run finished or was interrupted (with the cells kept).
     */
    public record ProgressView(
            String name,
            int done,
            int total,
            int alreadyDone,
            double seconds,
            boolean finished,
            boolean interrupted,
            String paused)
            implements Rich {
        /** A run not paused. */
        public ProgressView(
                String name,
                int done,
                int total,
                int alreadyDone,
                double seconds,
                boolean finished,
                boolean interrupted) {
            this(name, done, total, alreadyDone, seconds, finished, interrupted, null);
        }

        @Override
        public String text() {
            return (paused == null || finished ? "" : "PAUSED: " + paused + ". ")
                    + String.format(
                            Locale.ROOT,
                            "%s: %d/%d cells done%s, %.1f s%s",
                            name,
                            done,
                            total,
                            alreadyDone > 0 ? " (" + alreadyDone + " before this run)" : "",
                            seconds,
                            interrupted
                                    ? ", Interrupted: the " + done + " done are kept; run it again to resume"
                                    : finished ? ", finished" : "");
        }

        @Override
        public String html() {
            return "<div><progress value=\"" + done + "\" max=\"" + Math.max(total, 1)
                    + "\" style=\"width:30em\"></progress> " + Tables.esc(text()) + "</div>";
        }
    }

    /** Counts the attempts a run completes (the runner calls it on its writer thread) for the live display. */
    private static final class CompletedCount implements ProgressListener {
        final AtomicInteger completed = new AtomicInteger();
        /** Why the run waits (a usage window), or null. */
        volatile String paused;

        @Override
        public void paused(String reason, java.time.Instant until) {
            paused = reason;
        }

        @Override
        public void resumed() {
            paused = null;
        }

        @Override
        public void attemptFinished(Attempt attempt) {
            if (attempt.completed()) completed.incrementAndGet();
        }
    }

    /** How often the live display is refreshed. */
    private static final long REFRESH_MILLIS = 500;

    /**
     * Runs an experiment on a worker thread, showing and updating its progress. Interrupting the cell
     * cancels the run ({@link Cancellation}): cells in flight are abandoned, the finished ones kept, the
     * run lock released; the display says {@code Interrupted} with the cells done, the cell ends
     * interrupted, and the next {@code %experiment} resumes. The display is only ever touched from its
     * own thread: the kernel delivers an interrupt to the cell's thread, and one that lands while that
     * thread is publishing on the kernel's sockets breaks the publish (ZeroMQ's EINTR).
     */
    public static ExperimentView experiment(Session s, ExperimentSpec spec, Path dir) throws Exception {
        return experiment(s, spec, StoreLocation.of(dir));
    }

    /** As above, into the store at {@code dir} (a directory's or a PostgreSQL schema). */
    public static ExperimentView experiment(Session s, ExperimentSpec spec, StoreLocation dir) throws Exception {
        // The spec's progress switch is the terminal bar's; the notebook shows its own display.
        ExperimentSpec quiet = spec.withProgress(false);
        int total;
        try {
            total = Planner.plan(quiet, s.registry()).units().size();
        } catch (ExperimentSpec.SpecException e) {
            throw new MagicUsageException(e.getMessage());
        }
        int before = completedCells(dir);
        long t0 = System.nanoTime();
        Display display = s.display();
        CompletedCount progress = new CompletedCount();
        Cancellation cancellation = new Cancellation();
        ScheduledExecutorService painter = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform()
                .name("experiment-display-" + spec.name())
                .daemon(true)
                .unstarted(r));
        AtomicReference<String> id = new AtomicReference<>();
        painter.execute(
                () -> id.set(display.show(new ProgressView(spec.name(), before, total, before, 0, false, false))));
        // A completed attempt completes a cell that had none: the store's completed cells are before + these.
        painter.scheduleWithFixedDelay(
                () -> display.update(
                        id.get(),
                        new ProgressView(
                                spec.name(),
                                before + progress.completed.get(),
                                total,
                                before,
                                (System.nanoTime() - t0) / 1e9,
                                false,
                                false,
                                progress.paused)),
                REFRESH_MILLIS,
                REFRESH_MILLIS,
                TimeUnit.MILLISECONDS);
        CompletableFuture<Experiments.Result> run = new CompletableFuture<>();
        Thread.ofPlatform().name("experiment-" + spec.name()).daemon(true).start(() -> {
            try {
                run.complete(Experiments.run(quiet, dir, s.registry(), progress, cancellation, false));
            } catch (Throwable t) {
                run.completeExceptionally(t);
            }
        });
        boolean interrupted = false;
        Experiments.Result result = null;
        Throwable failure = null;
        try {
            try {
                result = run.get();
            } catch (InterruptedException e) {
                interrupted = true;
                cancellation.cancel();
                result = awaitUninterruptibly(run); // the cells in flight are abandoned: this is short
            }
        } catch (ExecutionException e) {
            failure = e.getCause();
        } finally {
            Experiments.Result r = result;
            boolean stopped = interrupted;
            painter.execute(() -> {
                if (r != null)
                    display.update(
                            id.get(),
                            new ProgressView(
                                    spec.name(),
                                    r.completed() + r.skipped(),
                                    total,
                                    before,
                                    (System.nanoTime() - t0) / 1e9,
                                    true,
                                    stopped));
            });
            painter.shutdown();
            awaitUninterruptibly(painter);
        }
        if (interrupted && failure == null) {
            throw new InterruptedException(
                    "experiment " + spec.name() + " interrupted: " + (result.completed() + result.skipped()) + "/"
                            + total + " cells done and kept in " + dir.display());
        }
        if (failure != null) {
            if (failure instanceof ExperimentSpec.SpecException se) throw new MagicUsageException(se.getMessage());
            if (failure instanceof IllegalStateException ise
                    && String.valueOf(ise.getMessage()).contains("run.lock")) {
                throw new MagicUsageException(ise.getMessage());
            }
            if (failure instanceof Exception ex) throw ex;
            throw new ExecutionException(failure);
        }
        return new ExperimentView(result, new ScorecardView(dir.display(), result.scorecard()));
    }

    private static Experiments.Result awaitUninterruptibly(CompletableFuture<Experiments.Result> run)
            throws ExecutionException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return run.get();
                } catch (InterruptedException again) {
                    interrupted = true; // a second interrupt while the run winds down changes nothing
                }
            }
        } finally {
            if (interrupted) Thread.interrupted();
        }
    }

    private static void awaitUninterruptibly(ScheduledExecutorService painter) {
        while (true) {
            try {
                if (painter.awaitTermination(1, TimeUnit.MINUTES)) return;
            } catch (InterruptedException ignored) {
                // the last display update still goes out
            }
        }
    }

    /** Cells of {@code dir} with a completed attempt (0 before the store exists). */
    static int completedCells(StoreLocation dir) {
        if (dir instanceof StoreLocation.Directory d && !Files.isRegularFile(ExperimentStore.file(d.dir()))) return 0;
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            return (int) store.cellStates().values().stream()
                    .filter(c -> c.completed() > 0)
                    .count();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    // ---- %scorecard ----

    /** A scorecard as HTML tables: the summary, failures by check, and per task (folded). */
    public record ScorecardView(String dir, Scorecard scorecard) implements Rich {
        public Table summary() {
            return ExperimentTables.summary(scorecard);
        }

        public Table statistics() {
            return ExperimentTables.statistics(scorecard);
        }

        public Table checks() {
            return ExperimentTables.checks(scorecard);
        }

        public Table tasks() {
            return ExperimentTables.tasks(scorecard);
        }

        /**
         * The benchmarks' own reports over the directory's current cells (BFCL: accuracy per category with
         * upstream's aggregates), read from its store; none for a benchmark without one (or a scorecard
         * that was not read from a directory).
         */
        public List<BenchmarkReports.CandidateReport> reports() {
            StoreLocation at;
            try {
                at = StoreLocation.existing(dir);
            } catch (IllegalArgumentException e) {
                return List.of();
            }
            try (ExperimentQuery store = ExperimentQuery.open(at)) {
                return BenchmarkReports.of(store, Session.current().registry());
            }
        }

        @Override
        public String text() {
            return text(0);
        }

        @Override
        public String text(int width) {
            StringBuilder sb = new StringBuilder(ScorecardTables.text(scorecard, width));
            for (BenchmarkReports.CandidateReport r : reports()) sb.append('\n').append(ExperimentTables.reportText(r));
            return sb.toString();
        }

        @Override
        public String html() {
            StringBuilder sb = new StringBuilder("<div class=\"brokkr-scorecard\">");
            sb.append("<p><b>")
                    .append(Tables.esc(dir))
                    .append("</b>: ")
                    .append(scorecard.cells())
                    .append(" cells, ")
                    .append(scorecard.pendingCells())
                    .append(" without a completed attempt; infrastructure failures enter no metric</p>");
            sb.append(Tables.html(summary()));
            if (statistics().rowCount() > 0) sb.append(ExperimentTables.statisticsHtml(statistics()));
            for (BenchmarkReports.CandidateReport r : reports()) {
                sb.append("<p>")
                        .append(Tables.esc(r.benchmark() + " / " + r.candidate() + ": "
                                + r.report().title()))
                        .append("</p>")
                        .append(Tables.html(ExperimentTables.report(r.report())));
                if (!r.report().figures().isEmpty()) sb.append(Tables.html(ExperimentTables.figures(r.report())));
                if (!r.report().notes().isEmpty()) {
                    sb.append("<ul class=\"brokkr-notes\">");
                    for (String n : r.report().notes())
                        sb.append("<li>").append(Tables.esc(n)).append("</li>");
                    sb.append("</ul>");
                }
            }
            if (checks().rowCount() > 0)
                sb.append("<p>Checks (failed of evaluated)</p>").append(Tables.html(checks()));
            if (tasks().rowCount() > 0)
                sb.append("<details><summary>per task</summary>")
                        .append(Tables.html(tasks()))
                        .append("</details>");
            return sb.append("</div>").toString();
        }
    }

    static Object scorecardLine(Session s, MagicArgs a) {
        var p = a.parse(Set.of(), 1);
        if (p.positional(0) == null) throw new MagicUsageException("which experiment directory?");
        return scorecard(store(p.positional(0)));
    }

    public static ScorecardView scorecard(Path dir) {
        return scorecard(store(dir.toString()));
    }

    /** The scorecard of the store at {@code dir} (a directory's or a PostgreSQL schema). */
    public static ScorecardView scorecard(StoreLocation dir) {
        return new ScorecardView(dir.display(), Experiments.scorecard(dir));
    }

    // ---- %passk ----

    /** The name of the experiment last run in {@code dir} (the directory's name for a store that has none). */
    public static String experimentName(Path dir) {
        return experimentName(StoreLocation.of(dir));
    }

    /** As above, of the store at {@code dir} (a PostgreSQL store without one: its URL). */
    public static String experimentName(StoreLocation dir) {
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            return q.experiment()
                    .map(Map.Entry::getKey)
                    .orElse(
                            dir instanceof StoreLocation.Directory d
                                    ? String.valueOf(d.dir().toAbsolutePath().getFileName())
                                    : dir.display());
        }
    }

    /** pass^k curves: the numbers (one row per benchmark, candidate and k) and the chart. */
    public record PassKView(Table table, XYChart chart) {}

    static Object scorecostLine(Session s, MagicArgs a) {
        var p = a.parse(Set.of(), 1);
        if (p.positional(0) == null) throw new MagicUsageException("which experiment directory?");
        return scorecost(store(p.positional(0)));
    }

    /** The score-against-cost chart of the store at {@code dir} ({@link Charts#scoreVsCost}). */
    public static XYChart scorecost(StoreLocation dir) {
        XYChart chart = Charts.scoreVsCost(experimentName(dir), scorecard(dir).scorecard());
        if (chart == null)
            throw new MagicUsageException(
                    dir.display()
                            + " has no candidate with a priced cost yet (a model without a price shows a dash: add it to prices.yaml)");
        return chart;
    }

    static Object passkLine(Session s, MagicArgs a) {
        var p = a.parse(Set.of("by"), 1);
        if (p.positional(0) == null) throw new MagicUsageException("which experiment directory?");
        String by = p.option("by", "candidate");
        if (!by.equals("candidate"))
            throw new MagicUsageException("--by takes 'candidate' (one curve per benchmark and candidate)");
        return passk(store(p.positional(0)));
    }

    /**
     * The pass^k rows of the scorecard's statistics (value, standard error over tasks, 95% t and
     * Wilson-type intervals, which to read, denominators) and the chart with those intervals as bars.
     */
    public static PassKView passk(Path dir) {
        return passk(StoreLocation.of(dir));
    }

    /** As above, of the store at {@code dir} (a directory's or a PostgreSQL schema). */
    public static PassKView passk(StoreLocation dir) {
        Scorecard sc = scorecard(dir).scorecard();
        Table stats = ExperimentTables.statistics(sc);
        Table rows = stats.where(stats.stringColumn("metric").startsWith("pass^"));
        if (rows.rowCount() == 0) throw new MagicUsageException(dir.display() + " has no completed attempts yet");
        IntColumn k = IntColumn.create("k");
        for (String m : rows.stringColumn("metric")) k.append(Integer.parseInt(m.substring("pass^".length())));
        Table table = Table.create(
                "pass^k",
                rows.column("benchmark").copy(),
                rows.column("candidate").copy(),
                k);
        for (String c : List.of(
                "value",
                "se",
                "t95_lo",
                "t95_hi",
                "wilson95_lo",
                "wilson95_hi",
                "read",
                "tasks",
                "trials",
                "attempts",
                "infra_excluded")) {
            table.addColumns(rows.column(c).copy().setName(c.equals("value") ? "pass^k" : c));
        }
        return new PassKView(table, Charts.passK(experimentName(dir), sc));
    }
}
