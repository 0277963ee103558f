package brokkr.cli;

import brokkr.command.Command;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.DecisionPoint;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.ExperimentStore;
import brokkr.experiment.Planner;
import brokkr.experiment.ProbeResult;
import brokkr.experiment.ProbeStore;
import brokkr.experiment.Probes;
import brokkr.experiment.Registry;
import brokkr.render.chart.ChartImages;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import brokkr.value.PyDict;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code ./brokkr probe ...}: a decision-point probe from the command line, printing the outcome table
 * ({@link Probes}); the same engine as {@code %probe}. A probe of a store's attempt is kept in that store
 * as a diagnostic probe record.
 */
public final class ProbeCommand implements Command {
    /** The process's registry: the domains probes resolve and replay. */
    private final Registry registry;

    public ProbeCommand(Registry registry) {
        this.registry = registry;
    }

    @Override
    public String name() {
        return "probe";
    }

    @Override
    public String summary() {
        return "sample a candidate's next action at one decision point of a recorded episode (outcome classes, gold, p-value)";
    }

    @Override
    public String usage() {
        return """
                usage: ./brokkr probe DIR ATTEMPT_ID --at K --candidate C [-n N] [--vs C2] [--seed S] [--parallelism P] [--chart FILE.png]
                       ./brokkr probe --domain NAME --task ID --at K --candidate C [--recorded-by R] [-n N] [--vs C2] [...]

                  Rebuilds the world at the K-th cut of a recorded episode (tau2: the customer's K-th message; wiki: after
                  the K-th tool call) by replaying its effects (not its models): attempt ATTEMPT_ID of the experiment store
                  in DIR, or a run of the domain's scripted candidate R (default the domain's first: tau2's gold, the
                  wiki's reference) on task ID. Then samples candidate C's answer there N times (default 20),
                  in parallel (P at a time, default 8), and prints the outcome classes (same tool and arguments, same
                  tool, text reply, stop) with counts, the class matching the record's own next action marked '*'.
                  With --vs C2 both candidates are sampled in the same rounds and Fisher's exact test compares how
                  often they match gold (two-sided p-value). C is a scripted name (gold, stop, gold-50: gold in 50%
                  of turns, seeded) or PROVIDER:MODEL (keys and base URLs from the environment); sample i gets the
                  request seed S+i. A probe of DIR's attempt is stored there as a diagnostic probe record (table probe),
                  never in a scorecard. --chart writes the decision-point probe chart as a PNG.""";
    }

    private static final Set<String> OPTIONS = Set.of(
            "--at",
            "--candidate",
            "-n",
            "--vs",
            "--seed",
            "--parallelism",
            "--chart",
            "--domain",
            "--task",
            "--recorded-by");

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        Map<String, String> o = new LinkedHashMap<>();
        List<String> positionals = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("-") && !isNumber(a)) {
                String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
                if (!OPTIONS.contains(name)) throw new UsageException("unknown option " + name);
                String value;
                if (a.contains("=")) value = a.substring(a.indexOf('=') + 1);
                else if (i + 1 < args.size()) value = args.get(++i);
                else throw new UsageException(name + " needs a value");
                if (o.putIfAbsent(name, value) != null) throw new UsageException(name + " given twice");
            } else {
                positionals.add(a);
            }
        }
        int at = positive("--at", require(o, "--at", "--at K (the cut) is required"));
        ModelRef candidate = candidate("--candidate", require(o, "--candidate", "--candidate C is required"));
        ModelRef vs = o.containsKey("--vs") ? candidate("--vs", o.get("--vs")) : null;
        int n = positive("-n", o.getOrDefault("-n", "20"));
        int parallelism =
                positive("--parallelism", o.getOrDefault("--parallelism", String.valueOf(Probes.DEFAULT_PARALLELISM)));
        long seed = whole("--seed", o.getOrDefault("--seed", "0"));
        Path dir = null;
        long attemptId = 0;
        BenchmarkProvider provider;
        DecisionPoint dp;
        try {
            if (o.containsKey("--domain") || o.containsKey("--task")) {
                if (!positionals.isEmpty())
                    throw new UsageException("give a store's DIR ATTEMPT_ID, or --domain and --task, not both");
                provider = registry.benchmark(require(o, "--domain", "--domain NAME is required with --task"));
                String task = require(o, "--task", "--task ID is required with --domain");
                String firstScripted = provider.exploration()
                        .map(x -> x.candidates().isEmpty()
                                ? "gold"
                                : x.candidates().getFirst())
                        .orElse("gold");
                ModelRef by = candidate("--recorded-by", o.getOrDefault("--recorded-by", firstScripted));
                if (!by.provider().equals(BenchmarkProvider.SCRIPTED))
                    throw new UsageException("--recorded-by takes a scripted candidate's name");
                EnvironmentDef env = provider.environment(task, Map.of());
                Plan plan = Planner.cells(
                        provider,
                        List.of(task),
                        Map.of(),
                        PyDict.empty(),
                        List.of(new ExperimentSpec.CandidateSpec(by.model(), by, "tools", null)),
                        1,
                        Probes.registryModels(registry),
                        registry);
                Attempt record = Runner.attempts(plan, Policy.of(1)).getFirst();
                if (record.evidence().transcript().isNone())
                    throw new InputException(
                            "the run of " + by.model() + " on task " + task + " left no transcript: " + record.error());
                dp = Probes.decisionPoint(provider, env, record.evidence().transcript(), at);
            } else {
                if (o.containsKey("--recorded-by"))
                    throw new UsageException("--recorded-by goes with --domain and --task");
                if (positionals.size() != 2)
                    throw new UsageException(
                            "expected DIR ATTEMPT_ID (or --domain NAME --task ID), got " + positionals);
                dir = Path.of(positionals.get(0));
                if (!Files.isRegularFile(ExperimentStore.file(dir)))
                    throw new InputException(dir + " holds no experiment (no " + ExperimentStore.FILE + ")");
                attemptId = whole("ATTEMPT_ID", positionals.get(1));
                Probes.Recorded rec;
                try (ExperimentQuery q = ExperimentQuery.open(dir)) {
                    rec = Probes.recorded(q, registry, attemptId);
                }
                provider = rec.provider();
                dp = rec.at(at);
            }
        } catch (IllegalArgumentException e) { // an unknown domain or task, a cut the record does not reach
            throw new InputException(e.getMessage());
        }
        Supplier<byte[]> chart; // drawn only when asked for: a probe without --chart loads no chart library
        boolean storedAll = true;
        try {
            if (vs == null) {
                ProbeResult r = Probes.probe(
                        provider,
                        dp,
                        attemptId,
                        candidate,
                        label(candidate),
                        n,
                        seed,
                        Probes.registryModels(registry),
                        parallelism);
                out.println(r.table());
                if (dir != null) storedAll &= stored(dir, st -> List.of(st.recordProbe(r)), out, err);
                chart = () -> ChartImages.probePng(r);
            } else {
                Probes.Comparison c = Probes.compare(
                        provider,
                        dp,
                        attemptId,
                        candidate,
                        label(candidate),
                        vs,
                        label(vs),
                        n,
                        seed,
                        Probes.registryModels(registry),
                        parallelism);
                out.println(c.table());
                if (dir != null) storedAll &= stored(dir, st -> st.recordComparison(c), out, err);
                chart = () -> ChartImages.probePng(c);
            }
        } catch (IllegalArgumentException e) { // an unknown candidate or model provider
            throw new InputException(e.getMessage());
        }
        if (o.containsKey("--chart")) {
            Path png = Path.of(o.get("--chart"));
            if (png.toAbsolutePath().getParent() != null)
                Files.createDirectories(png.toAbsolutePath().getParent());
            Files.write(png, chart.get());
            out.println("wrote " + png);
        }
        return storedAll ? 0 : 1; // measured but not kept: the record asked for was not made
    }

    private interface StoreWork {
        List<ProbeStore.ProbeRecord> run(ExperimentStore s);
    }

    /** Stores the probe's records and says so; false (said on stderr) when the store is busy (a run holds it). */
    private static boolean stored(Path dir, StoreWork w, PrintStream out, PrintStream err) {
        try (ExperimentStore st = ExperimentStore.openForRun(dir)) {
            List<ProbeStore.ProbeRecord> recs = w.run(st);
            out.println("stored in " + dir + " as diagnostic probe record(s) #"
                    + String.join(
                            ", #",
                            recs.stream().map(r -> String.valueOf(r.id())).toList()));
            return true;
        } catch (IllegalStateException e) {
            err.println("brokkr probe: not stored: " + e.getMessage());
            return false;
        }
    }

    private static String label(ModelRef r) {
        return r.provider().equals(BenchmarkProvider.SCRIPTED) ? r.model() : r.toString();
    }

    private static boolean isNumber(String s) {
        return s.matches("-\\d+");
    }

    private static String require(Map<String, String> o, String name, String message) {
        String v = o.get(name);
        if (v == null) throw new UsageException(message);
        return v;
    }

    private static ModelRef candidate(String option, String spec) {
        try {
            return Probes.candidate(spec);
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }

    private static int positive(String name, String v) {
        try {
            int i = Integer.parseInt(v);
            if (i >= 1) return i;
        } catch (NumberFormatException ignored) {
            // below
        }
        throw new UsageException(name + " takes a whole number of at least 1, not '" + v + "'");
    }

    private static long whole(String name, String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new UsageException(name + " takes a whole number, not '" + v + "'");
        }
    }
}
