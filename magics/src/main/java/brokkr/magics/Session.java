package brokkr.magics;

import brokkr.eval.Exploration;
import brokkr.eval.ToolWorld;
import brokkr.experiment.Registry;
import brokkr.magics.view.CallOutcome;
import brokkr.magics.view.ForkDiff;
import brokkr.magics.view.ForkView;
import brokkr.magics.view.Rich;
import brokkr.magics.view.RunView;
import brokkr.magics.view.Tables;
import brokkr.magics.view.TaskView;
import brokkr.python.PyJson;
import brokkr.repl.Harness;
import brokkr.telemetry.GenAiTrace;
import brokkr.telemetry.TraceExport;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import brokkr.world.WorldDiff;
import brokkr.world.WorldHash;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The state the magics share (the loaded domain, the current fork) and their plain-Java API: every
 * magic is a method here, so {@code %tasks --split test} and {@code session.tasks("test", null)} are
 * the same call. A kernel or REPL makes one session and publishes it as {@link #current()}, so user
 * code in the same heap reaches it.
 */
public final class Session {
    private static volatile Session current;

    private final MagicRegistry magics;
    private final Registry models;
    private volatile Display display = Display.NONE;
    private Bench domain;
    private ToolWorld fork;
    private String forkTask;
    /** The world {@link #fork} made (the current fork's parent) and the calls made on the fork since. */
    private ToolWorld forkOrigin;

    private int forkCalls;

    public Session(MagicRegistry magics) {
        this(magics, Registry.process());
    }

    /** A session whose domains and models come from {@code models} (the process's one registry by default). */
    public Session(MagicRegistry magics, Registry models) {
        this.magics = magics;
        this.models = models;
    }

    public Session() {
        this(MagicRegistry.standard());
    }

    /** The session of the running kernel or REPL (a new one when none was published). */
    public static Session current() {
        Session s = current;
        if (s == null) {
            synchronized (Session.class) {
                if (current == null) current = new Session();
                s = current;
            }
        }
        return s;
    }

    public static void publish(Session s) {
        current = s;
    }

    public MagicRegistry magics() {
        return magics;
    }

    /** The benchmarks and model factories this session's runs use. */
    public Registry registry() {
        return models;
    }

    public Display display() {
        return display;
    }

    public void display(Display d) {
        this.display = d == null ? Display.NONE : d;
    }

    /** Runs one magic line ({@code %name args}, the percent optional) as plain Java. */
    public Object magic(String line) throws Exception {
        String l = line.strip().replaceFirst("^%", "");
        int sp = l.indexOf(' ');
        String name = sp < 0 ? l : l.substring(0, sp);
        return magics.evalLine(this, name, sp < 0 ? "" : l.substring(sp + 1));
    }

    // ---- the magics' Java API ----

    public DomainSummary domain(String name) {
        Bench b = Benches.load(models, name);
        synchronized (this) {
            domain = b;
            fork = null;
            forkTask = null;
            forkOrigin = null;
            forkCalls = 0;
        }
        return b.summary();
    }

    public synchronized Bench domain() {
        if (domain == null)
            throw new MagicUsageException(
                    "no domain loaded: %domain load NAME (one of " + String.join(", ", Benches.names(models)) + ")");
        return domain;
    }

    /** The tasks of the loaded domain, optionally of one split and containing {@code text} (any case) in id or scenario. */
    public Table tasks(String split, String text) {
        Bench b = domain();
        List<Exploration.TaskRow> rows = b.tasks().stream()
                .filter(r -> split == null || r.splits().contains(split))
                .filter(r -> text == null
                        || (r.id() + " " + r.scenario())
                                .toLowerCase(Locale.ROOT)
                                .contains(text.toLowerCase(Locale.ROOT)))
                .toList();
        if (split != null && b.tasks().stream().noneMatch(r -> r.splits().contains(split))) {
            throw new MagicUsageException("no split '" + split + "' in " + b.name());
        }
        return Table.create(
                b.name() + " tasks",
                StringColumn.create(
                        "id", rows.stream().map(Exploration.TaskRow::id).toList()),
                StringColumn.create(
                        "splits",
                        rows.stream().map(r -> String.join(",", r.splits())).toList()),
                StringColumn.create(
                        "scenario",
                        rows.stream().map(Exploration.TaskRow::scenario).toList()),
                StringColumn.create(
                        "reward basis",
                        rows.stream().map(Exploration.TaskRow::rewardBasis).toList()),
                IntColumn.create(
                        "gold actions",
                        rows.stream().mapToInt(Exploration.TaskRow::goldActions).toArray()));
    }

    public TaskView task(String id) {
        return domain().task(id);
    }

    /** Forks a fresh world (of a task, or the pristine one) and makes it current for {@link #call}. */
    public ForkView fork(String taskId) {
        Bench b = domain();
        ToolWorld w = b.fork(taskId);
        synchronized (this) {
            fork = w;
            forkTask = taskId;
            forkOrigin = w;
            forkCalls = 0;
        }
        return new ForkView(b.name(), taskId, WorldHash.sha256(w.state(), true), w.tools());
    }

    /** The current fork (forking the pristine world first when there is none). */
    public synchronized ToolWorld world() {
        if (fork == null) fork(null);
        return fork;
    }

    /** Calls a tool on the current fork with JSON-object arguments; the fork moves to the world after the call. */
    public CallOutcome call(String tool, String jsonArgs) {
        ToolWorld w = world();
        if (!w.tools().contains(tool)) {
            throw new MagicUsageException(
                    "no tool '" + tool + "' in " + domain().name() + " (tools: " + String.join(", ", w.tools()) + ")");
        }
        PyDict args;
        try {
            Value v = jsonArgs == null || jsonArgs.isBlank() ? PyDict.empty() : Json.parse(jsonArgs);
            if (!(v instanceof PyDict d))
                throw new MagicUsageException("arguments must be a JSON object, got " + v.typeName());
            args = d;
        } catch (Json.JsonFormatException e) {
            throw new MagicUsageException("arguments are not valid JSON: " + e.getMessage());
        }
        ToolWorld.Step step = w.call(tool, args);
        synchronized (this) {
            if (fork == w) {
                fork = step.after();
                forkCalls++;
            }
        }
        return new CallOutcome(
                tool,
                PyJson.dumps(args),
                step.result().content(),
                step.result().error(),
                WorldDiff.diff(w.state(), step.after().state()),
                step.after().fileChanges(w).orElse(List.of()));
    }

    /** The current fork against the world {@link #fork} made: what the calls since changed in all. */
    public ForkDiff diff() {
        ToolWorld now = world();
        ToolWorld origin;
        int calls;
        synchronized (this) {
            origin = forkOrigin;
            calls = forkCalls;
        }
        return new ForkDiff(
                domain().name(),
                forkTask,
                calls,
                WorldDiff.diff(origin.state(), now.state()),
                now.fileChanges(origin).orElse(List.of()));
    }

    public String forkTask() {
        return forkTask;
    }

    public RunView run(String candidate, String taskId) {
        return domain().run(candidate, taskId);
    }

    /**
     * One run of {@code candidate} (a scripted name or {@code PROVIDER:MODEL}) on a task, with models
     * for the domain's other roles ({@code user}, {@code judge}: {@code PROVIDER:MODEL}). A run that calls
     * models runs on a worker thread while the display shows its progress (model calls, seconds);
     * interrupting the cell stops it.
     */
    public RunView run(String candidate, String taskId, Map<String, String> roles) throws InterruptedException {
        return run(candidate, taskId, roles, Harness.DEFAULT_REFERENCE, Bench.ACTION_SPACE);
    }

    /** As above, the candidate under {@code harness} in {@code actionSpace} ({@code %run ... --harness loop --action-space repl}). */
    public RunView run(String candidate, String taskId, Map<String, String> roles, Harness harness, String actionSpace)
            throws InterruptedException {
        return run(candidate, taskId, roles, harness, actionSpace, null);
    }

    /**
     * As above, with OpenTelemetry GenAI spans to {@code otel} ({@code %run --otel URL|file:PATH|off}; null: the
     * kernel's {@code OTEL_*} environment decides, as for {@code experiment run}), flushed when the run ends.
     */
    public RunView run(
            String candidate,
            String taskId,
            Map<String, String> roles,
            Harness harness,
            String actionSpace,
            String otel)
            throws InterruptedException {
        Bench b = domain();
        Bench.Plan plan = b.plan(candidate, taskId, roles, models, harness, actionSpace);
        TraceExport spans;
        try {
            spans = TraceExport.open(otel, false, System.getenv());
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException(e.getMessage());
        }
        try (spans) {
            return run(b, plan, candidate, taskId, spans.trace());
        }
    }

    private RunView run(Bench b, Bench.Plan plan, String candidate, String taskId, GenAiTrace trace)
            throws InterruptedException {
        if (!plan.usesModels()) return b.run(plan, () -> {}, trace);
        AtomicInteger calls = new AtomicInteger();
        long t0 = System.nanoTime();
        String id = display.show(new RunProgress(b.name(), taskId, candidate, 0, 0, false));
        CompletableFuture<RunView> run = new CompletableFuture<>();
        Thread worker = Thread.ofPlatform()
                .name("run-" + b.name() + "-" + taskId)
                .daemon(true)
                .start(() -> {
                    try {
                        run.complete(b.run(plan, calls::incrementAndGet, trace));
                    } catch (Throwable t) {
                        run.completeExceptionally(t);
                    }
                });
        try {
            while (true) {
                try {
                    RunView v = run.get(500, TimeUnit.MILLISECONDS);
                    display.update(
                            id,
                            new RunProgress(
                                    b.name(), taskId, candidate, calls.get(), (System.nanoTime() - t0) / 1e9, true));
                    return v;
                } catch (TimeoutException e) {
                    display.update(
                            id,
                            new RunProgress(
                                    b.name(), taskId, candidate, calls.get(), (System.nanoTime() - t0) / 1e9, false));
                }
            }
        } catch (InterruptedException e) {
            worker.interrupt();
            throw e;
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) throw re;
            if (c instanceof Error err) throw err;
            throw new IllegalStateException(c);
        }
    }

    /** The live line of a single run that calls models. */
    public record RunProgress(
            String domain, String taskId, String candidate, int modelCalls, double seconds, boolean finished)
            implements Rich {
        @Override
        public String text() {
            return String.format(
                    Locale.ROOT,
                    "%s task %s, %s: %d model call%s, %.1f s%s",
                    domain,
                    taskId,
                    candidate,
                    modelCalls,
                    modelCalls == 1 ? "" : "s",
                    seconds,
                    finished ? ", finished" : "");
        }

        @Override
        public String html() {
            return "<div class=\"brokkr-progress\">" + (finished ? "" : "<progress style=\"width:12em\"></progress> ")
                    + Tables.esc(text()) + "</div>";
        }
    }

    public static String clip(String s, int n) {
        String one = s.replace('\n', ' ');
        return one.length() <= n ? one : one.substring(0, n - 3) + "...";
    }
}
