package brokkr.domains.tau2.runner;

import brokkr.cost.PriceTable;
import brokkr.domains.tau2.conformance.UpstreamMetrics;
import brokkr.eval.Attempt;
import brokkr.eval.Evidence;
import brokkr.experiment.EpisodeCost;
import brokkr.experiment.Registry;
import brokkr.family.ResultCell;
import brokkr.repl.Harness;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * An experiment's tau2 results as a submission to upstream's leaderboard: {@code submission.json} as
 * {@code tau2 submit prepare} writes it ({@code src/tau2/scripts/leaderboard/prepare_submission.py}, the pydantic
 * {@code Submission} of {@code submission.py}, schema {@code web/leaderboard/public/submissions/schema.json}) and
 * beside it the trajectory files it names, each upstream's {@code Results} JSON ({@link Tau2ResultsExport}).
 *
 * <p>What the leaderboard's rules refuse ({@code docs/leaderboard-submission.md}, {@code verify_trajectories_public.py},
 * {@code validate_submission_traj_set}) is refused with the reason, never written: a domain the leaderboard has no
 * column for, fewer than 4 trials, not every task of the domain's {@code base} split (or others besides), a cell
 * without a completed attempt, different user simulators (or agents) across domains, and episodes Brokkr stopped at a
 * cell budget (upstream's runner never does: the budget's stops would count as the model's failures).
 *
 * <p>Scores are what upstream's {@code get_metrics} computes from the trajectory files ({@link UpstreamMetrics}, its
 * {@code compute_metrics} to the bit): pass^1..4 in percent and {@code cost}, the mean of the simulations'
 * {@code agent_cost} (each the scorecard's agent cost of the episode, {@link EpisodeCost}), left out, with a note,
 * when some episode's agent model has no price: never 0.
 */
public final class Tau2Submission {
    private Tau2Submission() {}

    /** The domains upstream's {@code Results} (of a submission) has fields for, in its order. */
    public static final List<String> LEADERBOARD_DOMAINS = List.of("retail", "airline", "telecom", "banking_knowledge");

    /** The fewest trials per task the leaderboard takes (its pass^1..pass^4; "4+ trials" in its requirements). */
    public static final int MIN_TRIALS = 4;

    /** The task split the leaderboard scores (upstream's {@code check_tasks}: {@code tasks_loader("base")}). */
    public static final String SPLIT = "base";

    /** Where the trajectory files go, beside submission.json (upstream's {@code TRAJECTORY_FILES_DIR_NAME}). */
    public static final String TRAJECTORIES_DIR = "trajectories";

    /**
     * What the experiment does not know: the names the leaderboard shows. Null for an optional one; {@code
     * modelName} null: the agent's model as the trajectories name it (upstream's default); {@code
     * submittingOrganization} null: the model's organisation (upstream's default); {@code candidate} null: the
     * experiment's only tau2 candidate.
     */
    public record Metadata(
            String candidate,
            String modelName,
            String modelOrganization,
            String submittingOrganization,
            String contactEmail,
            String contactName,
            String contactGithub,
            LocalDate submissionDate) {}

    /** One trajectory file: its domain, its path beside submission.json and upstream's Results JSON. */
    public record Trajectory(String domain, String path, PyDict results) {}

    /** submission.json's value, its trajectory files and what the caller should say about it. */
    public record Submission(PyDict submission, List<Trajectory> trajectories, List<String> warnings) {
        public Submission {
            trajectories = List.copyOf(trajectories);
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * The submission of {@code cells}' tau2 results (cells of other benchmarks are left out), costs at
     * {@code prices}. IllegalArgumentException with the reason for what the leaderboard refuses.
     */
    public static Submission build(List<ResultCell> all, Registry registry, PriceTable prices, Metadata meta) {
        List<ResultCell> tau2 = all.stream()
                .filter(c -> registry.benchmarks().get(c.benchmark()) instanceof Tau2Benchmark)
                .toList();
        if (tau2.isEmpty()) throw new IllegalArgumentException("the experiment has no tau2 cells");
        Set<String> candidates = new LinkedHashSet<>();
        for (ResultCell c : tau2) candidates.add(c.candidate());
        String candidate = meta.candidate();
        if (candidate == null) {
            if (candidates.size() > 1)
                throw new IllegalArgumentException("a submission is one model's results and the experiment has "
                        + candidates.size() + " candidates (" + String.join(", ", candidates)
                        + "): choose one with --candidate ID");
            candidate = candidates.iterator().next();
        } else if (!candidates.contains(candidate)) {
            throw new IllegalArgumentException(
                    "no tau2 candidate '" + candidate + "' (candidates: " + String.join(", ", candidates) + ")");
        }
        String chosen = candidate;
        List<ResultCell> cells =
                tau2.stream().filter(c -> c.candidate().equals(chosen)).toList();

        Map<String, List<ResultCell>> byBenchmark = new LinkedHashMap<>();
        for (ResultCell c : cells)
            byBenchmark.computeIfAbsent(c.benchmark(), k -> new ArrayList<>()).add(c);
        Map<String, Tau2Benchmark> domains = new LinkedHashMap<>(); // upstream domain name -> benchmark
        List<String> refused = new ArrayList<>(); // every rule broken, so that one run of the export names them all
        for (var e : byBenchmark.entrySet()) {
            Tau2Benchmark bench = (Tau2Benchmark) registry.benchmarks().get(e.getKey());
            String domain = bench.domain().name();
            if (!LEADERBOARD_DOMAINS.contains(domain)) {
                refused.add(bench.name() + " is no leaderboard domain (upstream's leaderboard takes "
                        + String.join(", ", LEADERBOARD_DOMAINS) + ")");
                continue;
            }
            domains.put(domain, bench);
            refused.addAll(whatTheLeaderboardRefuses(bench, e.getValue()));
        }
        if (!refused.isEmpty()) throw new IllegalArgumentException(String.join("; ", refused));

        List<Tau2ResultsExport.Export> exports = Tau2ResultsExport.export(cells, registry, prices);
        refuseDifferentModels(exports);
        Map<String, Tau2ResultsExport.Export> byDomain = new LinkedHashMap<>();
        for (Tau2ResultsExport.Export x : exports) byDomain.put(x.domain(), x);

        List<String> warnings = new ArrayList<>();
        List<String> costNotes = new ArrayList<>();
        Map<String, PyDict> results = new LinkedHashMap<>();
        for (String domain : LEADERBOARD_DOMAINS) {
            Tau2Benchmark bench = domains.get(domain);
            if (bench == null) continue;
            // What upstream's get_metrics computes from the trajectory file (compute_metrics, its pandas means), so
            // that its validate_submission_metrics finds the very numbers: pass^k in percent, the mean agent_cost.
            PyDict metrics = UpstreamMetrics.compute(byDomain.get(domain).results());
            PyDict passHat = metrics.get("pass_hat_ks").asDict();
            PyDict.Builder r = PyDict.builder();
            for (int k = 1; k <= MIN_TRIALS; k++)
                r.put("pass_" + k, new PyFloat(((PyFloat) passHat.get(Integer.toString(k))).value() * 100));
            List<ResultCell> domainCells = byBenchmark.get(bench.name());
            long unpriced = domainCells.stream()
                    .filter(c ->
                            Double.isNaN(EpisodeCost.of(c.attempt().evidence()).usd(Evidence.AGENT, prices)))
                    .count();
            if (unpriced == 0) {
                r.put("cost", metrics.get("avg_agent_cost"));
            } else {
                String why = domain + ": cost left out: " + unpriced + " of " + domainCells.size()
                        + " trajectories' agent model has no price in Brokkr's price table (a scripted model has none; "
                        + "add one in prices.yaml), and an unknown cost is never written as 0";
                warnings.add(why);
                costNotes.add(why);
            }
            Value retrieval = Tau2ResultsExport.retrievalConfig(bench.domain());
            if (retrieval instanceof PyStr) r.put("retrieval_config", retrieval);
            results.put(domain, r.build());
        }

        Tau2ResultsExport.Export first = exports.getFirst();
        PyDict info = first.results().get("info").asDict();
        String agentLlm = info.get("agent_info").asDict().get("llm").asStr();
        String userLlm = info.get("user_info").asDict().get("llm").asStr();
        Harness harness = Harness.fromValue(cells.getFirst().agent().harness());
        boolean custom = !harness.label().equals(Harness.REFERENCE);
        int trials = cells.stream().mapToInt(c -> c.repetition() + 1).max().orElse(0);
        long firstStart = cells.stream()
                .mapToLong(c -> c.attempt().startedAtMillis())
                .min()
                .orElse(0);

        List<Trajectory> trajectories = new ArrayList<>();
        PyDict.Builder files = PyDict.builder();
        for (Tau2ResultsExport.Export x : exports) {
            // upstream's prepare_submission names a results.json "{domain}_results.json" in trajectories/
            String name = x.domain() + "_results.json";
            trajectories.add(new Trajectory(x.domain(), TRAJECTORIES_DIR + "/" + name, x.results()));
            files.put(x.domain(), name);
            warnings.addAll(x.warnings());
        }

        StringBuilder notes =
                new StringBuilder("Run with Brokkr, a Java port of tau2-bench proven against upstream commit "
                        + Tau2Domains.UPSTREAM_REVISION + ": " + trials + " trials of every task of the base split, "
                        + "agent harness " + harness.label() + ", user simulator " + userLlm + ".");
        if (custom)
            notes.append(" Custom: the agent ran under Brokkr's harness ")
                    .append(harness.label())
                    .append(" instead of upstream's reference LLM-agent loop (its own control flow and prompts"
                            + " around the domain's tools and policy).");
        notes.append(" Cost: the agent's recorded tokens at Brokkr's price table (a pinned copy of LiteLLM's prices).");
        for (String n : costNotes) notes.append(' ').append(n).append('.');

        PyDict.Builder contact = PyDict.builder().put("email", meta.contactEmail());
        if (meta.contactName() != null) contact.put("name", meta.contactName());
        if (meta.contactGithub() != null) contact.put("github", meta.contactGithub());
        PyDict.Builder rs = PyDict.builder();
        results.forEach(rs::put);
        // pydantic's field order of Submission, None fields left out (model_dump_json(exclude_none=True))
        PyDict submission = PyDict.builder()
                .put("model_name", meta.modelName() != null ? meta.modelName() : agentLlm)
                .put("model_organization", meta.modelOrganization())
                .put(
                        "submitting_organization",
                        meta.submittingOrganization() != null
                                ? meta.submittingOrganization()
                                : meta.modelOrganization())
                .put("submission_date", meta.submissionDate().toString())
                .put("submission_type", custom ? "custom" : "standard")
                .put("modality", "text")
                .put("contact_info", contact.build())
                .put("results", rs.build())
                .put("is_new", PyBool.FALSE)
                .put("trajectories_available", PyBool.TRUE)
                .put("trajectory_files", files.build())
                .put(
                        "methodology",
                        PyDict.builder()
                                .put(
                                        "evaluation_date",
                                        LocalDate.ofInstant(Instant.ofEpochMilli(firstStart), ZoneOffset.UTC)
                                                .toString())
                                .put("tau2_bench_version", Tau2Domains.UPSTREAM_VERSION)
                                .put("user_simulator", userLlm)
                                .put("notes", notes.toString())
                                .put(
                                        "verification",
                                        PyDict.builder()
                                                .put("modified_prompts", PyBool.of(custom))
                                                .put("omitted_questions", PyBool.FALSE)
                                                .put(
                                                        "details",
                                                        custom
                                                                ? "Brokkr harness " + harness.label()
                                                                        + " around upstream's domain tools and policy"
                                                                : "upstream's reference agent loop, prompts and user"
                                                                        + " simulator as transcribed by Brokkr")
                                                .build())
                                .build())
                .build();
        return new Submission(submission, trajectories, warnings);
    }

    /** One domain's cells against the leaderboard's rules: every base task, at least 4 trials each, all completed, no budget stop. */
    private static List<String> whatTheLeaderboardRefuses(Tau2Benchmark bench, List<ResultCell> cells) {
        List<String> refused = new ArrayList<>();
        List<String> base = bench.tasks(SPLIT);
        Map<String, Integer> trials = new LinkedHashMap<>();
        for (ResultCell c : cells) trials.merge(c.taskId(), 1, Integer::sum);
        Set<String> missing = new TreeSet<>(base);
        missing.removeAll(trials.keySet());
        Set<String> extra = new TreeSet<>(trials.keySet());
        base.forEach(extra::remove);
        if (!missing.isEmpty())
            refused.add(bench.name() + ": the leaderboard takes every task of the " + SPLIT
                    + " split (" + base.size() + "); the experiment has " + (base.size() - missing.size())
                    + " of them (missing " + missing.size() + ": " + sample(missing) + ")");
        if (!extra.isEmpty())
            refused.add(bench.name() + ": " + extra.size() + " tasks outside the " + SPLIT + " split (" + sample(extra)
                    + "), which the leaderboard does not take");
        int fewest = trials.values().stream().mapToInt(Integer::intValue).min().orElse(0);
        int most = trials.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        if (fewest < MIN_TRIALS)
            refused.add(bench.name() + ": " + fewest + " trial" + (fewest == 1 ? "" : "s")
                    + " per task; the leaderboard takes at least " + MIN_TRIALS + " (repetitions: " + MIN_TRIALS + ")");
        else if (fewest != most)
            refused.add(bench.name() + ": tasks have " + fewest + " to " + most
                    + " trials; the leaderboard takes the same number for every task");
        long incomplete = cells.stream()
                .filter(c -> c.attempt() == null || !c.attempt().completed())
                .count();
        if (incomplete > 0)
            refused.add(bench.name() + ": " + incomplete + " of " + cells.size()
                    + " cells have no completed attempt (not run yet, or an infrastructure failure): run the"
                    + " experiment again to finish them");
        long budgetStops = cells.stream()
                .map(ResultCell::attempt)
                .filter(a -> stoppedByCellBudget(a))
                .count();
        if (budgetStops > 0)
            refused.add(
                    bench.name() + ": " + budgetStops + " episodes were stopped at the"
                            + " experiment's budget.per_cell (termination cell_budget), which upstream's runner never does: the"
                            + " leaderboard would count the budget's stops as the model's failures; run without budget.per_cell");
        return refused;
    }

    private static boolean stoppedByCellBudget(Attempt a) {
        return a != null
                && a.completed()
                && Tau2Evaluator.termination(a.evidence().termination())
                        == brokkr.domains.tau2.model.TerminationReason.CELL_BUDGET;
    }

    /**
     * upstream's {@code validate_submission_traj_set}: every domain's results with the same agent and user simulator
     * with identical arguments.
     */
    static void refuseDifferentModels(List<Tau2ResultsExport.Export> exports) {
        Map<String, String> users = new LinkedHashMap<>(), agents = new LinkedHashMap<>();
        for (Tau2ResultsExport.Export x : exports) {
            PyDict info = x.results().get("info").asDict();
            users.put(x.benchmark(), models(info.get("user_info").asDict()));
            agents.put(x.benchmark(), models(info.get("agent_info").asDict()));
        }
        if (new LinkedHashSet<>(users.values()).size() > 1)
            throw new IllegalArgumentException("the user simulator differs across domains (" + describe(users)
                    + "); the leaderboard takes one user simulator with identical arguments for every domain");
        if (new LinkedHashSet<>(agents.values()).size() > 1)
            throw new IllegalArgumentException("the agent differs across domains (" + describe(agents)
                    + "); the leaderboard takes one agent model with identical arguments for every domain");
    }

    private static String models(PyDict info) {
        return info.get("llm").asStr() + " " + brokkr.python.PyJson.dumps(info.get("llm_args"));
    }

    private static String describe(Map<String, String> byBenchmark) {
        List<String> out = new ArrayList<>();
        byBenchmark.forEach((b, m) -> out.add(b + ": " + m));
        return String.join("; ", out);
    }

    /** At most 5 ids, then how many more. */
    private static String sample(Set<String> ids) {
        List<String> l = new ArrayList<>(ids);
        return String.join(", ", l.subList(0, Math.min(5, l.size()))) + (l.size() > 5 ? ", ..." : "");
    }
}
