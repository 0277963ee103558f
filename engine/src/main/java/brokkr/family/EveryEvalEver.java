package brokkr.family;

import brokkr.command.Command;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.ContentHash;
import brokkr.eval.Evidence;
import brokkr.experiment.EpisodeCost;
import brokkr.experiment.Scorecard;
import brokkr.python.PyJson;
import brokkr.repl.Harness;
import brokkr.stats.Estimate;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code experiment export --format every-eval-ever}: an experiment's results in the Every Eval Ever schema
 * (github.com/evaleval/every_eval_ever, {@code every_eval_ever/schemas/eval.schema.json} and
 * {@code instance_level_eval.schema.json}, schema 0.3.0), for every benchmark, whatever its family. One aggregate log
 * per benchmark × candidate (the grain its guide gives a benchmark with its own per-sample file) at
 * {@code data/BENCHMARK/DEVELOPER/MODEL/UUID.json}, its completed attempts beside it in {@code UUID_samples.jsonl},
 * as its converters (Inspect, HELM, lm-eval) lay records out.
 *
 * <p>The scores are the scorecard's ({@link ResultCell#scorecard}): the average reward and pass^1..n, each with its
 * standard error clustered by task and 95% t interval ({@link Scorecard.CandidateScore#rewardEstimate}). The schema
 * has no cost field: the cost per episode of each role (agent, user simulator, judge) goes, as strings, into the
 * average reward's {@code score_details.details} and each sample's {@code metadata}, only where priced (an unpriced
 * model's cost is absent, never 0); the agent's tokens are each sample's {@code token_usage}.
 */
public final class EveryEvalEver implements ResultFormat {
    public static final String NAME = "every-eval-ever";
    /** The schema version the records follow (eval.schema.json's {@code version}). */
    public static final String SCHEMA_VERSION = "0.3.0";

    static final ExportOption SOURCE_ORGANIZATION = new ExportOption(
            "--source-organization", "ORG", false, "who provides the data (default: unknown, as its converters)");
    static final ExportOption EVALUATOR_RELATIONSHIP = new ExportOption(
            "--evaluator-relationship",
            "REL",
            false,
            "first_party, third_party (default, as its converters), collaborative or other");

    private static final Set<String> RELATIONSHIPS = Set.of("first_party", "third_party", "collaborative", "other");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String exportHelp() {
        return """
                every-eval-ever: per benchmark and candidate, an Every Eval Ever record (schema 0.3.0) under
                --out DIR (required) as its datastore lays them out: data/BENCHMARK/DEVELOPER/MODEL/UUID.json
                (average reward and pass^k with standard errors and 95% intervals; costs per episode where
                priced) and UUID_samples.jsonl (every completed attempt: messages, score, tokens)""";
    }

    @Override
    public String directoryTree() {
        return "data/BENCHMARK/DEVELOPER/MODEL/UUID.json and UUID_samples.jsonl";
    }

    @Override
    public List<ExportOption> exportOptions() {
        return List.of(SOURCE_ORGANIZATION, EVALUATOR_RELATIONSHIP);
    }

    @Override
    public Exported export(List<ResultCell> cells, ExportContext context) {
        String organization = context.options().getOrDefault(SOURCE_ORGANIZATION.name(), "unknown");
        String relationship = context.options().getOrDefault(EVALUATOR_RELATIONSHIP.name(), "third_party");
        if (!RELATIONSHIPS.contains(relationship))
            throw new Command.UsageException("--evaluator-relationship must be first_party, third_party, collaborative"
                    + " or other, not '" + relationship + "'");
        Map<List<String>, List<ResultCell>> groups = new LinkedHashMap<>();
        for (ResultCell c : cells)
            groups.computeIfAbsent(List.of(c.benchmark(), c.candidate()), k -> new ArrayList<>())
                    .add(c);
        Scorecard card = ResultCell.scorecard(cells, context.prices());
        String retrieved = Long.toString(System.currentTimeMillis() / 1000);
        List<ExportedFile> files = new ArrayList<>();
        int samples = 0;
        for (var g : groups.entrySet()) {
            List<ResultCell> group = g.getValue();
            Scorecard.CandidateScore row = card.rows().stream()
                    .filter(r -> r.benchmark().equals(g.getKey().get(0))
                            && r.candidate().equals(g.getKey().get(1)))
                    .findFirst()
                    .orElse(null);
            if (row == null || !row.scored()) continue; // nothing scored: no record claims a score
            Record r = record(group, row, context, organization, relationship, retrieved);
            files.add(new ExportedFile(
                    r.dir() + "/" + r.uuid() + ".json", PyJson.dumps(r.aggregate(), JSON), null, List.of()));
            files.add(new ExportedFile(r.dir() + "/" + r.uuid() + "_samples.jsonl", r.samples(), null, List.of()));
            samples += r.rows();
        }
        int records = files.size() / 2;
        return new Exported(
                files,
                "wrote " + records + " Every Eval Ever record" + (records == 1 ? "" : "s") + " (" + samples
                        + " samples)");
    }

    private static final PyJson.DumpOptions JSON =
            PyJson.DumpOptions.DEFAULT.withIndent(2).withEnsureAscii(false);

    /** One record: its directory ({@code data/B/D/M}), file UUID, aggregate JSON, samples' JSONL text and rows. */
    record Record(String dir, String uuid, PyDict aggregate, String samples, int rows) {}

    private static Record record(
            List<ResultCell> group,
            Scorecard.CandidateScore row,
            ExportContext context,
            String organization,
            String relationship,
            String retrieved) {
        ResultCell first = group.getFirst();
        AgentDef agent = first.agent();
        String benchmark = first.benchmark();
        boolean scripted = agent.provider().equals(BenchmarkProvider.SCRIPTED);
        String developer = agent.provider();
        String modelId = agent.provider() + "/" + agent.model();
        long started = group.stream()
                .filter(c -> c.attempt() != null)
                .mapToLong(c -> c.attempt().startedAtMillis())
                .min()
                .orElse(0);
        String evaluationTs = Long.toString(started / 1000);
        // Variant axes (the candidate: harness, options) belong in evaluation_id, not in the model's id.
        String evaluationId =
                benchmark + "/" + modelId.replace('/', '_') + "/" + first.candidate() + "/" + evaluationTs;
        String uuid = uuid4(evaluationId);
        String dir = "data/" + component(benchmark) + "/" + component(developer) + "/" + component(agent.model());
        String resultId = benchmark + "/avg_reward";

        List<Value> results = new ArrayList<>();
        Estimate reward = row.rewardEstimate();
        boolean rates = row.perTask().stream().allMatch(t -> t.avgReward() >= 0 && t.avgReward() <= 1);
        PyDict.Builder details = PyDict.builder()
                .put("tasks", Integer.toString(row.tasks()))
                .put("attempts", Integer.toString(row.attempts()))
                .put("infrastructure_failures", Integer.toString(row.infrastructureFailures()))
                .put(
                        "trials_per_task",
                        row.minTrials() == row.maxTrials()
                                ? Integer.toString(row.minTrials())
                                : row.minTrials() + "-" + row.maxTrials());
        if (row.cost() != null)
            for (String role : EpisodeCost.COST_ROLES) {
                double usd = row.cost().perEpisode().usd(role);
                if (!Double.isNaN(usd)) details.put("usd_" + role + "_per_episode", Double.toString(usd));
            }
        results.add(result(
                resultId,
                benchmark,
                group,
                metric(
                        "average reward over completed attempts",
                        "brokkr.avg_reward",
                        "average reward",
                        PyDict.empty(),
                        rates),
                reward,
                row.attempts(),
                details.build()));
        List<Estimate> passHat = row.passHatKEstimates();
        for (int k = 1; k <= passHat.size(); k++)
            results.add(result(
                    benchmark + "/pass_hat_" + k,
                    benchmark,
                    group,
                    metric(
                            "pass^" + k + ": the chance that "
                                    + (k == 1
                                            ? "a trial of a task succeeds"
                                            : "all of " + k + " trials of a task succeed")
                                    + ", averaged over tasks",
                            "pass_hat_k",
                            "pass^" + k,
                            PyDict.of("k", k),
                            true),
                    passHat.get(k - 1),
                    row.tasks(),
                    PyDict.empty()));

        StringBuilder jsonl = new StringBuilder();
        int rows = 0;
        for (ResultCell c : group) {
            Attempt a = c.attempt();
            if (a == null || !a.completed()) continue; // scored attempts only, as the aggregate
            jsonl.append(PyJson.dumps(sample(a, c, evaluationId, modelId, benchmark, resultId, context), COMPACT))
                    .append('\n');
            rows++;
        }
        String samples = jsonl.toString();

        Harness harness = Harness.fromValue(agent.harness());
        PyDict.Builder modelDetails = PyDict.builder()
                .put("deployment_type", "unknown")
                .put("model_availability", "unknown")
                .put("brokkr_candidate", first.candidate())
                .put("brokkr_harness", harness.label())
                .put("brokkr_action_space", agent.actionSpace());
        if (!agent.options().isEmpty()) modelDetails.put("brokkr_options", PyJson.dumps(agent.options()));
        if (scripted) modelDetails.put("note", "a Brokkr scripted model (no language model), provider scripted");
        PyDict aggregate = PyDict.builder()
                .put("schema_version", SCHEMA_VERSION)
                .put("evaluation_id", evaluationId)
                .put("evaluation_timestamp", evaluationTs)
                .put("retrieved_timestamp", retrieved)
                .put(
                        "source_metadata",
                        PyDict.builder()
                                .put("source_name", "brokkr")
                                .put("source_type", "evaluation_run")
                                .put("source_organization_name", organization)
                                .put("evaluator_relationship", relationship)
                                .build())
                .put(
                        "eval_library",
                        PyDict.builder()
                                .put("name", "brokkr")
                                .put("version", version())
                                .put(
                                        "additional_details",
                                        PyDict.of(
                                                "upstream_revision",
                                                first.environment().upstreamRevision()))
                                .build())
                .put(
                        "model_info",
                        PyDict.builder()
                                .put("name", agent.model())
                                .put("id", modelId)
                                .put("developer", developer)
                                .put("inference_platform", agent.provider())
                                .put("additional_details", modelDetails.build())
                                .build())
                .put("evaluation_results", PyList.of(results))
                .put(
                        "detailed_evaluation_results",
                        PyDict.builder()
                                .put("format", "jsonl")
                                .put("file_path", dir + "/" + uuid + "_samples.jsonl")
                                .put("hash_algorithm", "sha256")
                                .put("checksum", ContentHash.sha256(samples))
                                .put("total_rows", rows)
                                .build())
                .build();
        return new Record(dir, uuid, aggregate, samples, rows);
    }

    private static final PyJson.DumpOptions COMPACT = PyJson.DumpOptions.DEFAULT.withEnsureAscii(false);

    private static PyDict metric(String description, String id, String name, PyDict parameters, boolean rates) {
        PyDict.Builder m = PyDict.builder()
                .put("evaluation_description", description)
                .put("metric_id", id)
                .put("metric_name", name)
                .put("metric_kind", id.equals("pass_hat_k") ? "pass_rate" : "reward")
                .put("metric_unit", rates ? "proportion" : "points");
        if (!parameters.isEmpty()) m.put("metric_parameters", parameters);
        return m.put("lower_is_better", PyBool.FALSE)
                .put("score_type", "continuous")
                .put("min_score", rates ? new PyFloat(0.0) : new PyStr("-Infinity"))
                .put("max_score", rates ? new PyFloat(1.0) : new PyStr("Infinity"))
                .build();
    }

    private static PyDict result(
            String resultId,
            String benchmark,
            List<ResultCell> group,
            PyDict metric,
            Estimate e,
            int samples,
            PyDict details) {
        PyDict.Builder uncertainty = PyDict.builder();
        if (!Double.isNaN(e.se()))
            uncertainty.put(
                    "standard_error",
                    PyDict.of(
                            "value",
                            e.se(),
                            "method",
                            "analytic, clustered by task (trials of a task are correlated)"));
        if (e.t95().defined())
            uncertainty.put(
                    "confidence_interval",
                    PyDict.of(
                            "lower",
                            e.t95().low(),
                            "upper",
                            e.t95().high(),
                            "confidence_level",
                            0.95,
                            "method",
                            "t interval, tasks - 1 degrees of freedom, clipped to the score's range"));
        uncertainty.put("num_samples", samples);
        PyDict.Builder score = PyDict.builder().put("score", e.value());
        if (!details.isEmpty()) score.put("details", details);
        score.put("uncertainty", uncertainty.build());
        ResultCell first = group.getFirst();
        return PyDict.builder()
                .put("evaluation_result_id", resultId)
                .put("evaluation_name", benchmark)
                .put(
                        "source_data",
                        PyDict.of(
                                "dataset_name",
                                benchmark,
                                "source_type",
                                "other",
                                "additional_details",
                                PyDict.of(
                                        "upstream_revision",
                                        first.environment().upstreamRevision(),
                                        "tasks",
                                        Long.toString(group.stream()
                                                .map(ResultCell::taskId)
                                                .distinct()
                                                .count()))))
                .put("metric_config", metric)
                .put("score_details", score.build())
                .build();
    }

    /** One completed attempt as an instance-level record of the average reward's result. */
    private static PyDict sample(
            Attempt a,
            ResultCell c,
            String evaluationId,
            String modelId,
            String benchmark,
            String resultId,
            ExportContext context) {
        Evidence e = a.evidence();
        List<Value> messages = messages(e.transcript());
        EpisodeCost cost = EpisodeCost.of(e);
        PyDict.Builder metadata = PyDict.builder()
                .put("trial", Integer.toString(a.repetition() + 1))
                .put("brokkr_attempt_id", Long.toString(a.id()))
                .put("candidate", c.candidate());
        if (e.termination() != null) metadata.put("termination", e.termination());
        for (String role : EpisodeCost.COST_ROLES) {
            double usd = cost.usd(role, context.prices());
            if (!Double.isNaN(usd)) metadata.put("usd_" + role, Double.toString(usd));
        }
        String raw = firstUserText(messages);
        PyDict.Builder s = PyDict.builder()
                .put("schema_version", SCHEMA_VERSION)
                .put("evaluation_id", evaluationId)
                .put("model_id", modelId)
                .put("evaluation_name", benchmark)
                .put("evaluation_result_id", resultId)
                .put("sample_id", a.taskId())
                .put("interaction_type", messages.isEmpty() ? "single_turn" : "agentic")
                .put(
                        "input",
                        PyDict.of("raw", raw != null ? raw : "task " + a.taskId(), "reference", PyList.of(List.of())));
        if (messages.isEmpty()) {
            s.put("output", PyDict.of("raw", PyList.of(List.of(new PyStr(PyJson.dumps(e.output()))))));
            s.put("messages", PyNone.NONE);
        } else {
            s.put("output", PyNone.NONE);
            s.put("messages", PyList.of(messages));
        }
        s.put("answer_attribution", PyList.of(List.of()));
        s.put(
                "evaluation",
                PyDict.builder()
                        .put("score", a.reward())
                        .put("is_correct", PyBool.of(a.success()))
                        .put("num_turns", messages.isEmpty() ? PyNone.NONE : PyInt.of(messages.size()))
                        .put("tool_calls_count", cost.toolCalls())
                        .build());
        if (cost.tokens() != null)
            s.put(
                    "token_usage",
                    PyDict.of(
                            "input_tokens",
                            cost.tokens().inputTokens(),
                            "output_tokens",
                            cost.tokens().outputTokens(),
                            "total_tokens",
                            cost.tokens().inputTokens() + cost.tokens().outputTokens()));
        s.put("performance", PyDict.of("latency_ms", (double) a.durationMillis()));
        s.put("metadata", metadata.build());
        return s.build();
    }

    /**
     * A recorded transcript (a list of messages with a {@code role}) in the schema's message shape: content as text,
     * tool calls with string arguments, a tool result naming the call it answers. Empty when the transcript is not
     * such a list (a benchmark whose interaction is no dialogue).
     */
    static List<Value> messages(Value transcript) {
        List<Value> out = new ArrayList<>();
        if (!(transcript instanceof PyList l)) return out;
        for (Value v : l) {
            if (!(v instanceof PyDict d) || !(d.get("role") instanceof PyStr role)) return List.of();
            int turn = out.size();
            PyDict.Builder m = PyDict.builder().put("turn_idx", turn).put("role", role.value());
            Value content = d.get("content");
            m.put("content", content == null || content.isNone() ? PyNone.NONE : new PyStr(text(content)));
            if (d.get("tool_calls") instanceof PyList calls && !calls.isEmpty()) {
                List<Value> cs = new ArrayList<>();
                for (int i = 0; i < calls.size(); i++) {
                    if (!(calls.get(i) instanceof PyDict call)) continue;
                    PyDict.Builder args = PyDict.builder();
                    if (call.get("arguments") instanceof PyDict ad)
                        for (String k : ad.keys()) args.put(k, text(ad.get(k)));
                    Value id = call.get("id");
                    cs.add(PyDict.of(
                            "id",
                            id == null || id.isNone() ? "call_" + turn + "_" + i : text(id),
                            "name",
                            text(call.getOrDefault("name", new PyStr(""))),
                            "arguments",
                            args.build()));
                }
                m.put("tool_calls", PyList.of(cs));
            }
            if (role.value().equals("tool")) {
                Value id = d.containsKey("id") ? d.get("id") : d.get("tool_call_id");
                if (id != null && !id.isNone()) m.put("tool_call_id", PyList.of(List.of(new PyStr(text(id)))));
            }
            out.add(m.build());
        }
        return out;
    }

    private static String firstUserText(List<Value> messages) {
        for (Value m : messages)
            if (m.asDict().get("role").asStr().equals("user") && m.asDict().get("content") instanceof PyStr s)
                return s.value();
        return null;
    }

    /** A string as itself, anything else as its JSON. */
    private static String text(Value v) {
        return v instanceof PyStr s ? s.value() : PyJson.dumps(v);
    }

    /** A datastore path component: outside {@code [A-Za-z0-9._-]} each character becomes {@code _}. */
    private static String component(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** A UUID of version 4's shape (the datastore's file names), derived from {@code key} so a re-export is the same file. */
    static String uuid4(String key) {
        String h = ContentHash.sha256(key);
        char variant = "89ab".charAt(Character.digit(h.charAt(16), 16) & 3);
        return h.substring(0, 8) + "-" + h.substring(8, 12) + "-4" + h.substring(13, 16) + "-" + variant
                + h.substring(17, 20) + "-" + h.substring(20, 32);
    }

    private static String version() {
        String v = EveryEvalEver.class.getPackage().getImplementationVersion();
        return v == null ? "unknown" : v;
    }
}
