package brokkr.magics.builtin;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Branches;
import brokkr.eval.Checkpoint;
import brokkr.eval.DecisionPoint;
import brokkr.eval.ModelRef;
import brokkr.eval.NextAction;
import brokkr.eval.Transcripts;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentStore;
import brokkr.experiment.ProbeResult;
import brokkr.experiment.ProbeStore;
import brokkr.experiment.Probes;
import brokkr.experiment.Registry;
import brokkr.experiment.StoredBranches;
import brokkr.magics.Bench;
import brokkr.magics.MagicArgs;
import brokkr.magics.MagicExtension;
import brokkr.magics.MagicRegistry;
import brokkr.magics.MagicUsageException;
import brokkr.magics.Session;
import brokkr.magics.view.Figure;
import brokkr.magics.view.Rich;
import brokkr.magics.view.Tables;
import brokkr.render.chart.ProbeCharts;
import brokkr.repl.Harness;
import brokkr.run.Policy;
import brokkr.run.Runner;
import brokkr.value.Value;
import brokkr.world.WorldHash;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.knowm.xchart.CategoryChart;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Decision-point probes, checkpoints and branches in the notebook ({@link MagicExtension}):
 * {@code %probe} (one candidate, or two with {@code --vs} and the p-value), {@code %checkpoint} and
 * {@code %branch}. Every benchmark with {@link BenchmarkProvider#branching()} works alike; nothing here
 * names a domain. Each magic is also plain Java ({@link #probe}, {@link #compare}, {@link #checkpoint},
 * {@link #branch}), and {@link #probeTrajectory} probes any transcript value of the notebook.
 */
public final class ProbeMagics implements MagicExtension {
    static final int DEFAULT_SAMPLES = 20;

    @Override
    public void install(MagicRegistry r) {
        r.line(
                        "probe",
                        "%probe DIR ATTEMPT_ID --at K --candidate C [-n N] [--vs C2] [--seed S] | %probe TASK CUT --candidate C [-n N] [--vs C2] [--recorded-by R]"
                                + " [--harness H] [--vs-harness H2] [--expect TEXT]",
                        "A decision-point probe: rebuilds the world at the K-th cut (tau2: customer message; wiki: tool call) of a recorded attempt (of the store in DIR, or of a"
                                + " run of R, default the domain's first scripted candidate, on TASK of the loaded domain) by replaying its effects, and"
                                + " samples candidate C's answer there N times (default " + DEFAULT_SAMPLES
                                + ") in parallel: a chart of outcome"
                                + " classes with counts (the gold class marked), the sampled calls, and with --vs C2 both candidates in the same rounds"
                                + " with Fisher's exact test and the difference of their rates with its 95% interval. C: a scripted name (gold,"
                                + " gold-50) or PROVIDER:MODEL. --harness H drives C by a harness (reference, loop/tools,"
                                + " loop/repl:GUIDANCE e.g. loop/repl:typed), which answers with its whole turn: every call on the"
                                + " way executed, its reply to the customer the sample (wiki: its next file call); --vs-harness H2 the same for C2 (C2 defaults to"
                                + " C). --expect TEXT: a sample matches when its reply says TEXT (tau2's communicate check), instead"
                                + " of the record's next action. Stored in DIR as a diagnostic probe record, never in a scorecard.",
                        ProbeMagics::probeLine)
                .line(
                        "checkpoint",
                        "%checkpoint TASK --at K [--candidate C] [--harness H] [--user PROVIDER:MODEL] [--judge PROVIDER:MODEL]",
                        "Runs an episode of C (default the domain's first scripted candidate; --harness H: reference, loop/tools,"
                                + " loop/repl:GUIDANCE where the domain hosts it) on TASK of the loaded domain until its K-th cut (tau2: the"
                                + " customer's K-th message; wiki: after the K-th tool call) and holds it: nothing graded, the candidate idle."
                                + " Names the checkpoint (cp1, cp2, ...) for %branch.",
                        ProbeMagics::checkpointLine)
                .line(
                        "branch",
                        "%branch CP -n N [--candidate C[,C2...]] [--harness H] [--user PROVIDER:MODEL[,...]] [--judge PROVIDER:MODEL] [--dir DIR]",
                        "Runs N branches of checkpoint CP per variant (each listed candidate x user; default the checkpoint's; a"
                                + " candidate runs in the checkpoint's harness unless --harness H names another), concurrently, each"
                                + " an ordinary graded attempt: a table of branch rewards and a chart of the reward distribution per variant"
                                + " (this checkpoint's earlier %branch variants included; a repeated variant continues with new branch indices)."
                                + " --dir DIR also stores them in that experiment directory: each branch its own cell, listed by experiment"
                                + " show/attempts/transcript as candidate 'C [branch CHECKPOINT@K]', never in the plain candidate's row.",
                        ProbeMagics::branchLine);
    }

    // ---- %probe ----

    /** One candidate's probe: the chart, the outcome table and the sampled calls. */
    public record ProbeView(ProbeResult result, String stored) implements Figure {
        @Override
        public CategoryChart chart() {
            return ProbeCharts.probe(result);
        }

        public Table outcomes() {
            return outcomeTable(result);
        }

        public Table samples() {
            return sampleTable(result);
        }

        @Override
        public String html() {
            return "<p>" + Tables.esc(goldLine(result)) + "</p>" + Tables.html(outcomes())
                    + "<details><summary>sampled calls (" + result.n() + ")</summary>" + Tables.html(samples())
                    + "</details>"
                    + (stored == null ? "" : "<p>" + Tables.esc(stored) + "</p>");
        }

        @Override
        public String text() {
            return result.table() + (stored == null ? "" : "\n" + stored);
        }
    }

    /** Two candidates side by side, with the p-value. */
    public record ComparisonView(Probes.Comparison comparison, String stored) implements Figure {
        @Override
        public CategoryChart chart() {
            return ProbeCharts.comparison(comparison);
        }

        @Override
        public String html() {
            ProbeResult a = comparison.first(), b = comparison.second();
            return "<p>" + Tables.esc(goldLine(a)) + "</p><p><b>" + Tables.esc(pLine(comparison)) + "</b></p>"
                    + "<p>" + Tables.esc(a.candidate()) + "</p>" + Tables.html(outcomeTable(a))
                    + "<p>" + Tables.esc(b.candidate()) + "</p>" + Tables.html(outcomeTable(b))
                    + "<details><summary>sampled calls</summary>" + Tables.html(sampleTable(a))
                    + Tables.html(sampleTable(b)) + "</details>"
                    + (stored == null ? "" : "<p>" + Tables.esc(stored) + "</p>");
        }

        @Override
        public String text() {
            return comparison.table() + (stored == null ? "" : "\n" + stored);
        }
    }

    static String goldLine(ProbeResult r) {
        return r.cutUnit() + " " + r.at() + ": \"" + Session.clip(String.valueOf(r.customerMessage()), 160)
                + "\"; "
                + (r.expect() != null
                        ? "a sample matches when its reply says '" + r.expect() + "'"
                        : "gold next action: "
                                + (r.gold() == null ? "none (the record ends here)" : ProbeResult.classKey(r.gold())));
    }

    static String pLine(Probes.Comparison c) {
        return String.format(
                Locale.ROOT,
                "%s: %s %d/%d, %s %d/%d; difference %+.2f, 95%% CI [%+.2f, %+.2f] (Newcombe);"
                        + " Fisher's exact test (two-sided) p = %.4g",
                c.first().expect() == null
                        ? "matches gold"
                        : "says '" + c.first().expect() + "'",
                c.first().candidate(),
                c.first().matchesGold(),
                c.first().n(),
                c.second().candidate(),
                c.second().matchesGold(),
                c.second().n(),
                c.difference(),
                c.differenceInterval().low(),
                c.differenceInterval().high(),
                c.test().pValue());
    }

    static Table outcomeTable(ProbeResult r) {
        StringColumn cls = StringColumn.create("outcome class"), label = StringColumn.create("vs gold");
        IntColumn count = IntColumn.create("count");
        DoubleColumn share = DoubleColumn.create("share");
        for (ProbeResult.OutcomeClass c : r.classes()) {
            cls.append(c.key());
            label.append(c.label().text());
            count.append(c.count());
            share.append((double) c.count() / r.n());
        }
        return Table.create("outcomes", cls, label, count, share);
    }

    static Table sampleTable(ProbeResult r) {
        IntColumn idx = IntColumn.create("sample"), round = IntColumn.create("round");
        StringColumn cand = StringColumn.create("candidate"),
                action = StringColumn.create("next action"),
                result = StringColumn.create("environment answered");
        for (ProbeResult.Sample s : r.samples()) {
            idx.append(s.index());
            round.append(s.round());
            cand.append(r.candidate());
            NextAction a = s.action();
            String reply =
                    a.kind().name().toLowerCase(Locale.ROOT) + ": " + Session.clip(String.valueOf(a.text()), 100);
            action.append(
                    a.kind() == NextAction.Kind.CALL
                            ? a.callsText()
                            : a.calls().isEmpty()
                                    ? reply
                                    : Session.clip(a.callsText(), 160) + " -> " + reply); // a loop harness's turn
            result.append(
                    a.results().isEmpty()
                            ? ""
                            : String.join(
                                    " | ",
                                    a.results().stream()
                                            .map(x -> (x.error() ? "error: " : "")
                                                    + Session.clip(String.valueOf(x.content()), 80))
                                            .toList()));
        }
        return Table.create("samples", idx, round, cand, action, result);
    }

    static Object probeLine(Session s, MagicArgs a) throws Exception {
        var p = withShortN(a)
                .parse(
                        Set.of(
                                "at",
                                "candidate",
                                "n",
                                "vs",
                                "seed",
                                "recorded-by",
                                "parallelism",
                                "harness",
                                "vs-harness",
                                "expect"),
                        2);
        String first = p.positional(0);
        if (first == null)
            throw new MagicUsageException("probe what? DIR ATTEMPT_ID --at K, or TASK CUT on the loaded domain");
        if (p.option("candidate") == null)
            throw new MagicUsageException("--candidate C is required (a scripted name or PROVIDER:MODEL)");
        int n = positiveInt("-n", p.option("n", String.valueOf(DEFAULT_SAMPLES)));
        long seed = longOption("--seed", p.option("seed", "0"));
        int parallelism =
                positiveInt("--parallelism", p.option("parallelism", String.valueOf(Probes.DEFAULT_PARALLELISM)));
        Probes.Agent cand = agent(ref(p.option("candidate")), p.option("harness"));
        Probes.Agent vs = p.option("vs") == null && p.option("vs-harness") == null
                ? null
                : agent(p.option("vs") == null ? cand.model() : ref(p.option("vs")), p.option("vs-harness"));
        if (vs != null && vs.label().equals(cand.label()))
            throw new MagicUsageException("--vs compares two different candidates; both are " + cand.label());
        String expect = p.option("expect");
        Path dir = Path.of(first);
        if (Files.isRegularFile(ExperimentStore.file(dir))) {
            if (p.positional(1) == null)
                throw new MagicUsageException("which attempt of " + dir + "? %probe DIR ATTEMPT_ID --at K");
            if (p.option("recorded-by") != null)
                throw new MagicUsageException(
                        "--recorded-by is for TASK CUT on the loaded domain, not a store's attempt");
            long id = longOption("ATTEMPT_ID", p.positional(1));
            int at = positiveInt("--at", required(p.option("at"), "--at K (the customer message) is required"));
            return vs == null
                    ? probe(dir, id, at, cand, expect, n, seed, parallelism)
                    : compare(dir, id, at, cand, vs, expect, n, seed, parallelism);
        }
        String cut = p.option("at") != null ? p.option("at") : p.positional(1);
        if (cut == null) throw new MagicUsageException("which customer message? %probe TASK CUT (or --at K)");
        if (p.option("at") != null && p.positional(1) != null)
            throw new MagicUsageException("give the cut once: TASK CUT or TASK --at K");
        Bench b = s.domain();
        Attempt record = record(s, b, first, p.option("recorded-by"));
        int at = positiveInt("CUT", cut);
        DecisionPoint dp = usage(() -> Probes.decisionPoint(
                b.provider(),
                b.provider().environment(first, Map.of()),
                record.evidence().transcript(),
                at));
        Function<ModelRef, Candidate> models = models(s.registry());
        if (vs == null)
            return new ProbeView(
                    usage(() -> Probes.probe(b.provider(), dp, 0, cand, expect, n, seed, models, parallelism)), null);
        return new ComparisonView(
                usage(() -> Probes.compare(b.provider(), dp, 0, cand, vs, expect, n, seed, models, parallelism)), null);
    }

    /** A run of a scripted candidate on the loaded domain (default its first), on the evaluation path: the record a TASK CUT probe reads. */
    public static Attempt record(Session s, Bench b, String task, String recordedBy) {
        if (b.candidates().isEmpty() && recordedBy == null)
            throw new MagicUsageException(
                    b.name() + " offers no scripted candidate to record a run: probe a store's attempt");
        String by = recordedBy != null ? recordedBy : b.candidates().getFirst();
        Bench.Plan plan = b.plan(by, task, Map.of(), s.registry());
        Attempt a = Runner.attempts(plan.plan(), Policy.of(1)).getFirst();
        if (a.evidence().transcript().isNone())
            throw new MagicUsageException(
                    "the run of " + by + " on task " + task + " left no transcript: " + a.error());
        return a;
    }

    /** Probes attempt {@code attemptId} of the store in {@code dir} at its {@code at}-th customer message and stores the probe record there. */
    public static ProbeView probe(
            Path dir, long attemptId, int at, ModelRef candidate, int n, long seed, int parallelism)
            throws InterruptedException {
        return probe(dir, attemptId, at, agent(candidate, null), null, n, seed, parallelism);
    }

    /** As above, {@code candidate} under its harness; {@code expect} (or null) what a matching reply says. */
    public static ProbeView probe(
            Path dir, long attemptId, int at, Probes.Agent candidate, String expect, int n, long seed, int parallelism)
            throws InterruptedException {
        Registry registry = Session.current().registry();
        Probes.Recorded rec = recorded(dir, registry, attemptId);
        DecisionPoint dp = usage(() -> rec.at(at));
        ProbeResult r = usage(() ->
                Probes.probe(rec.provider(), dp, attemptId, candidate, expect, n, seed, models(registry), parallelism));
        return new ProbeView(r, store(dir, st -> List.of(st.recordProbe(r))));
    }

    /** {@link #probe} for two candidates in the same rounds, with Fisher's exact test; both stored as one comparison. */
    public static ComparisonView compare(
            Path dir, long attemptId, int at, ModelRef first, ModelRef second, int n, long seed, int parallelism)
            throws InterruptedException {
        return compare(dir, attemptId, at, agent(first, null), agent(second, null), null, n, seed, parallelism);
    }

    /** As above, each candidate under its own harness (the REPL's shape against typed guidance), interleaved. */
    public static ComparisonView compare(
            Path dir,
            long attemptId,
            int at,
            Probes.Agent first,
            Probes.Agent second,
            String expect,
            int n,
            long seed,
            int parallelism)
            throws InterruptedException {
        Registry registry = Session.current().registry();
        Probes.Recorded rec = recorded(dir, registry, attemptId);
        DecisionPoint dp = usage(() -> rec.at(at));
        Probes.Comparison c = usage(() -> Probes.compare(
                rec.provider(), dp, attemptId, first, second, expect, n, seed, models(registry), parallelism));
        return new ComparisonView(c, store(dir, st -> st.recordComparison(c)));
    }

    /** Probes any recorded transcript value of task {@code taskId} of the loaded domain (e.g. {@code run.attempt().evidence().transcript()}). */
    public static ProbeView probeTrajectory(
            Session s, String taskId, Value transcript, int at, ModelRef candidate, int n, long seed)
            throws InterruptedException {
        Bench b = s.domain();
        DecisionPoint dp = usage(
                () -> Probes.decisionPoint(b.provider(), b.provider().environment(taskId, Map.of()), transcript, at));
        return new ProbeView(
                usage(() -> Probes.probe(
                        b.provider(),
                        dp,
                        0,
                        candidate,
                        label(candidate),
                        n,
                        seed,
                        models(s.registry()),
                        Probes.DEFAULT_PARALLELISM)),
                null);
    }

    private static Probes.Recorded recorded(Path dir, Registry registry, long attemptId) {
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            return Probes.recorded(q, registry, attemptId);
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException(e.getMessage());
        }
    }

    private interface StoreWork {
        List<ProbeStore.ProbeRecord> run(ExperimentStore s);
    }

    /** Stores probe records in the experiment's store; says where (or why not, when a run holds the store). */
    private static String store(Path dir, StoreWork work) {
        try (ExperimentStore st = ExperimentStore.openForRun(dir)) {
            List<ProbeStore.ProbeRecord> recs = work.run(st);
            return "stored in " + dir + " as diagnostic probe record" + (recs.size() == 1 ? " #" : "s #")
                    + String.join(
                            ", #",
                            recs.stream().map(r -> String.valueOf(r.id())).toList()) + " (never in a scorecard)";
        } catch (IllegalStateException e) {
            return "not stored: " + e.getMessage();
        }
    }

    // ---- %checkpoint and %branch ----

    /** The checkpoints and branch results of one session, by name. */
    static final class Held {
        final Map<String, Checkpoint> checkpoints = new LinkedHashMap<>();
        final Map<String, Map<String, List<Attempt>>> branches = new LinkedHashMap<>();
    }

    private static final Map<Session, Held> HELD = new WeakHashMap<>();

    static synchronized Held held(Session s) {
        return HELD.computeIfAbsent(s, k -> new Held());
    }

    /** A checkpoint: its name, the held log and the world it holds. */
    public record CheckpointView(String name, Checkpoint checkpoint) implements Rich {
        public String worldHash() {
            return WorldHash.sha256(checkpoint.world(), true);
        }

        List<String[]> lines() {
            List<String[]> out = new ArrayList<>();
            for (var m : Transcripts.fromValue(checkpoint.transcript())) {
                String role = m.getClass().getSimpleName().toLowerCase(Locale.ROOT);
                String text = m instanceof Message.Assistant as && as.hasToolCalls()
                        ? String.join(
                                "; ",
                                as.toolCalls().stream()
                                        .map(c -> c.name() + "(" + c.rawArguments() + ")")
                                        .toList())
                        : String.valueOf(contentOf(m));
                out.add(new String[] {role, Session.clip(text, 160)});
            }
            return out;
        }

        @Override
        public String text() {
            StringBuilder sb = new StringBuilder(String.format(
                    Locale.ROOT,
                    "%s: %s task %s held at %s %d (%s, checkpoint %s, world %s)%n",
                    name,
                    checkpoint.cell().provider().name(),
                    checkpoint.taskId(),
                    checkpoint.cutUnit(),
                    checkpoint.at(),
                    checkpoint.agent().modelRef(),
                    checkpoint.id().substring(0, 12),
                    worldHash().substring(0, 12)));
            for (String[] l : lines())
                sb.append("  ").append(l[0]).append(": ").append(l[1]).append('\n');
            return sb.toString().stripTrailing();
        }

        @Override
        public String html() {
            StringBuilder sb = new StringBuilder("<div class=\"brokkr-checkpoint\"><p><b>")
                    .append(Tables.esc(name))
                    .append("</b>: ")
                    .append(Tables.esc(checkpoint.cell().provider().name() + " task " + checkpoint.taskId()
                            + " held at " + checkpoint.cutUnit() + " " + checkpoint.at() + ", candidate "
                            + checkpoint.agent().modelRef() + "; world "
                            + worldHash().substring(0, 12)))
                    .append("</p><table><tr><th>role</th><th>message</th></tr>");
            for (String[] l : lines())
                sb.append("<tr><td>")
                        .append(Tables.esc(l[0]))
                        .append("</td><td>")
                        .append(Tables.esc(l[1]))
                        .append("</td></tr>");
            return sb.append("</table></div>").toString();
        }
    }

    private static String contentOf(Message m) {
        return switch (m) {
            case Message.System x -> x.content();
            case Message.User x -> x.content();
            case Message.Assistant x -> x.content();
            case Message.Tool x -> x.content();
        };
    }

    /** Branch results of one checkpoint: a table of rewards and the distribution per variant. */
    /** @param storedIn the experiment directory the branches of this %branch were stored in, or null */
    public record BranchesView(
            String checkpoint,
            String benchmark,
            String cutUnit,
            int at,
            String task,
            Map<String, List<Attempt>> byVariant,
            Path storedIn,
            List<Long> storedIds)
            implements Figure {
        @Override
        public CategoryChart chart() {
            int n = byVariant.values().stream().mapToInt(List::size).sum();
            return ProbeCharts.rewards(
                    "Branches of " + checkpoint + " (" + benchmark + " task " + ProbeCharts.task(task) + ", " + cutUnit
                            + " " + at + "): reward by variant (" + n + " branches)",
                    byVariant);
        }

        public Table table() {
            StringColumn variant = StringColumn.create("variant"),
                    termination = StringColumn.create("termination"),
                    failed = StringColumn.create("failed checks");
            IntColumn branch = IntColumn.create("branch");
            DoubleColumn reward = DoubleColumn.create("reward");
            byVariant.forEach((v, as) -> {
                for (Attempt a : as) {
                    variant.append(v);
                    branch.append(a.repetition());
                    reward.append(a.completed() ? a.reward() : Double.NaN);
                    termination.append(
                            a.completed()
                                    ? a.evidence().termination()
                                    : "not graded: " + Session.clip(String.valueOf(a.error()), 80));
                    failed.append(String.join(
                            ", ",
                            a.checks().stream()
                                    .filter(c -> !c.passed())
                                    .map(c -> c.name())
                                    .toList()));
                }
            });
            return Table.create("branches", variant, branch, reward, termination, failed);
        }

        public Table summary() {
            StringColumn variant = StringColumn.create("variant");
            IntColumn n = IntColumn.create("branches");
            DoubleColumn mean = DoubleColumn.create("mean reward");
            byVariant.forEach((v, as) -> {
                variant.append(v);
                n.append(as.size());
                mean.append(as.stream()
                        .filter(Attempt::completed)
                        .mapToDouble(Attempt::reward)
                        .average()
                        .orElse(Double.NaN));
            });
            return Table.create("variants", variant, n, mean);
        }

        /** Where the branches were stored, as a sentence (empty when they were not). */
        public String storedNote() {
            if (storedIn == null) return "";
            return storedIds.size() + " branch attempt(s) stored in " + storedIn + " (ids "
                    + storedIds.stream().map(String::valueOf).collect(Collectors.joining(", "))
                    + "; experiment show/attempts/transcript " + storedIn + ")";
        }

        @Override
        public String html() {
            String note = storedIn == null ? "" : "<p>" + Tables.esc(storedNote()) + "</p>";
            return Tables.html(summary()) + note + "<details><summary>every branch</summary>" + Tables.html(table())
                    + "</details>";
        }

        @Override
        public String text() {
            return Tables.text(summary()) + (storedIn == null ? "" : "\n" + storedNote()) + "\n" + Tables.text(table());
        }
    }

    static Object checkpointLine(Session s, MagicArgs a) throws Exception {
        var p = a.parse(Set.of("at", "candidate", "user", "judge", "harness"), 1);
        if (p.positional(0) == null) throw new MagicUsageException("which task? %checkpoint TASK --at K");
        int at = positiveInt("--at", required(p.option("at"), "--at K (the cut to hold) is required"));
        Map<String, String> roles = new LinkedHashMap<>();
        for (String role : List.of("user", "judge")) if (p.option(role) != null) roles.put(role, p.option(role));
        return checkpoint(s, p.positional(0), at, p.option("candidate"), roles, harness(p.option("harness")));
    }

    /** The harness {@code --harness} names ({@link Harness#ofLabel}), null when not given. */
    static Harness harness(String label) {
        if (label == null) return null;
        try {
            return Harness.ofLabel(label);
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException("--harness: " + e.getMessage());
        }
    }

    /** Holds an episode of {@code candidate} (null: the domain's first scripted one) on a task of the loaded domain at its cut {@code at}. */
    public static CheckpointView checkpoint(Session s, String task, int at, String candidate, Map<String, String> roles)
            throws Exception {
        return checkpoint(s, task, at, candidate, roles, null);
    }

    /** As above, the candidate driven by {@code harness} (null: the reference agent). */
    public static CheckpointView checkpoint(
            Session s, String task, int at, String candidate, Map<String, String> roles, Harness harness)
            throws Exception {
        Bench b = s.domain();
        if (b.provider().branching().isEmpty())
            throw new MagicUsageException(b.name() + " has no checkpoints (its interaction cannot be held)");
        String c = candidate != null
                ? candidate
                : b.candidates().isEmpty() ? null : b.candidates().getFirst();
        if (c == null)
            throw new MagicUsageException("--candidate C is required: " + b.name() + " offers no scripted candidate");
        Bench.Plan plan = harness == null
                ? b.plan(c, task, roles, s.registry())
                : b.plan(
                        c, task, roles, s.registry(), harness, harness.replGuidance() != null ? Harness.REPL : "tools");
        Checkpoint cp =
                usage(() -> Branches.checkpoint(plan.cell(), at, plan.plan().models()));
        Held h = held(s);
        String name;
        synchronized (h) {
            name = "cp" + (h.checkpoints.size() + 1);
            h.checkpoints.put(name, cp);
        }
        return new CheckpointView(name, cp);
    }

    static Object branchLine(Session s, MagicArgs a) throws Exception {
        var p = withShortN(a).parse(Set.of("n", "candidate", "user", "judge", "parallelism", "dir", "harness"), 1);
        if (p.positional(0) == null) throw new MagicUsageException("which checkpoint? %branch CP -n N");
        int n = positiveInt("-n", required(p.option("n"), "-n N (branches per variant) is required"));
        int parallelism = positiveInt("--parallelism", p.option("parallelism", "8"));
        Path dir = p.option("dir") == null ? null : Path.of(p.option("dir"));
        return branch(
                s,
                p.positional(0),
                n,
                list(p.option("candidate")),
                list(p.option("user")),
                p.option("judge"),
                harness(p.option("harness")),
                parallelism,
                dir);
    }

    /** Runs {@code n} branches of checkpoint {@code name} per variant (candidates x users; empty lists keep the checkpoint's). */
    public static BranchesView branch(
            Session s, String name, int n, List<String> candidates, List<String> users, String judge, int parallelism)
            throws InterruptedException {
        return branch(s, name, n, candidates, users, judge, null, parallelism, null);
    }

    /**
     * As above; with {@code dir} (not null) the branches are also stored there as ordinary attempts
     * ({@link StoredBranches}). A variant run again continues with new branch indices (new trial seeds).
     */
    public static BranchesView branch(
            Session s,
            String name,
            int n,
            List<String> candidates,
            List<String> users,
            String judge,
            Harness harness,
            int parallelism,
            Path dir)
            throws InterruptedException {
        Held h = held(s);
        Checkpoint cp;
        synchronized (h) {
            cp = h.checkpoints.get(name);
            if (cp == null)
                throw new MagicUsageException("no checkpoint '" + name + "'"
                        + (h.checkpoints.isEmpty()
                                ? " (make one with %checkpoint TASK --at K)"
                                : " (this session's: " + String.join(", ", h.checkpoints.keySet()) + ")"));
        }
        List<ModelRef> agents = new ArrayList<>();
        if (candidates.isEmpty()) agents.add(null);
        else for (String c : candidates) agents.add(ref(c));
        List<ModelRef> userRefs = new ArrayList<>();
        if (users.isEmpty()) userRefs.add(null);
        else for (String u : users) userRefs.add(modelOnly("--user", u));
        ModelRef judgeRef = judge == null ? null : modelOnly("--judge", judge);
        Map<String, List<Branches.Branch>> planned = new LinkedHashMap<>();
        for (ModelRef ag : agents) {
            for (ModelRef u : userRefs) {
                Branches.Variant v = new Branches.Variant(ag, u, judgeRef, harness);
                String key =
                        v.label().equals("same") ? "checkpoint's (" + cp.agent().modelRef() + ")" : v.label();
                int from;
                synchronized (h) {
                    from = h.branches
                            .getOrDefault(name, Map.of())
                            .getOrDefault(key, List.of())
                            .size();
                }
                List<Branches.Branch> bs = new ArrayList<>();
                for (int i = 0; i < n; i++) bs.add(Branches.branch(cp, v, from + i));
                planned.put(key, bs);
            }
        }
        Function<ModelRef, Candidate> models = models(s.registry());
        List<Branches.Branch> all =
                planned.values().stream().flatMap(List::stream).toList();
        List<Attempt> attempts = dir == null
                ? usage(() -> StoredBranches.runUnstored(all, models, parallelism))
                : usage(() -> StoredBranches.run(dir, all, models, parallelism));
        Map<String, List<Attempt>> results;
        synchronized (h) {
            results = h.branches.computeIfAbsent(name, k -> new LinkedHashMap<>());
            int i = 0;
            for (var e : planned.entrySet()) {
                List<Attempt> l = results.computeIfAbsent(e.getKey(), k -> new ArrayList<>());
                for (int j = 0; j < e.getValue().size(); j++) l.add(attempts.get(i++));
            }
            results = copy(results);
        }
        return new BranchesView(
                name,
                cp.cell().provider().name(),
                cp.cutUnit(),
                cp.at(),
                cp.taskId(),
                results,
                dir,
                dir == null ? List.of() : attempts.stream().map(Attempt::id).toList());
    }

    private static Map<String, List<Attempt>> copy(Map<String, List<Attempt>> m) {
        Map<String, List<Attempt>> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, List.copyOf(v)));
        return out;
    }

    // ---- arguments ----

    /** {@code -n N} as {@code --n N} (the magics' options are long ones). */
    static MagicArgs withShortN(MagicArgs a) {
        return new MagicArgs(
                a.raw(), a.words().stream().map(w -> w.equals("-n") ? "--n" : w).toList());
    }

    static ModelRef ref(String spec) {
        try {
            return Probes.candidate(spec);
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException(e.getMessage());
        }
    }

    static ModelRef modelOnly(String option, String spec) {
        ModelRef r = Bench.modelRef(option, spec);
        if (r == null)
            throw new MagicUsageException(option + " takes PROVIDER:MODEL (e.g. openai:gpt-4.1), not '" + spec + "'");
        return r;
    }

    static List<String> list(String csv) {
        if (csv == null) return List.of();
        return List.of(csv.split(",")).stream()
                .map(String::strip)
                .filter(x -> !x.isEmpty())
                .toList();
    }

    /**
     * A probe's candidate: {@code model} under the harness {@code harness} names ({@link Harness#ofLabel}; null:
     * the reference agent), labelled {@code NAME} or, under another harness, {@code NAME [loop/repl:typed]}.
     */
    public static Probes.Agent agent(ModelRef model, String harness) {
        Harness h;
        try {
            h = harness == null ? Harness.DEFAULT_REFERENCE : Harness.ofLabel(harness);
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException("--harness: " + e.getMessage());
        }
        String label = label(model) + (h.loop() || h.claudeCode() ? " [" + h.label() + "]" : "");
        return new Probes.Agent(model, h.toValue(), label);
    }

    /** A candidate's label: its scripted name, or PROVIDER/MODEL. */
    static String label(ModelRef r) {
        return r.provider().equals(BenchmarkProvider.SCRIPTED) ? r.model() : r.toString();
    }

    /** The registry's one resolver (the runner opens each model reference once per run). */
    static Function<ModelRef, Candidate> models(Registry registry) {
        return registry.resolver();
    }

    static String required(String v, String message) {
        if (v == null) throw new MagicUsageException(message);
        return v;
    }

    static int positiveInt(String what, String v) {
        try {
            int i = Integer.parseInt(v);
            if (i >= 1) return i;
        } catch (NumberFormatException ignored) {
            // below
        }
        throw new MagicUsageException(what + " takes a whole number of at least 1, not '" + v + "'");
    }

    static long longOption(String what, String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new MagicUsageException(what + " takes a whole number, not '" + v + "'");
        }
    }

    private interface Answer<T, E extends Exception> {
        T get() throws E;
    }

    /** The engine's IllegalArgumentException (an unknown task, a cut the record does not reach) as a usage error. */
    private static <T, E extends Exception> T usage(Answer<T, E> answer) throws E {
        try {
            return answer.get();
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw new MagicUsageException(e.getMessage());
        }
    }
}
