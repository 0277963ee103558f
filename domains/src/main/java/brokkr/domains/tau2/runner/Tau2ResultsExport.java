package brokkr.domains.tau2.runner;

import brokkr.cost.PriceTable;
import brokkr.domains.tau2.banking.BankingDomain;
import brokkr.domains.tau2.conformance.Tau2Regrade;
import brokkr.domains.tau2.conformance.UpstreamSimulation;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.experiment.EpisodeCost;
import brokkr.experiment.Registry;
import brokkr.family.ResultCell;
import brokkr.family.ResultFormat;
import brokkr.repl.Harness;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An experiment's tau2 attempts as upstream's {@code Results} JSON ({@code src/tau2/data_model/simulation.py}),
 * one per tau2 domain and candidate, shaped as upstream's runner writes {@code results.json}
 * ({@code runner.batch.run_domain}): {@code timestamp, info, tasks, simulations, simulation_index}, simulations in
 * upstream's unit order (trial-major, then task order), each with upstream's message shape, termination reason,
 * {@code reward_info}, usage, seed and trial. So upstream's viewer and {@code compute_metrics} read a Brokkr run.
 *
 * <p>What Brokkr does not measure is null, never made up: message timestamps and per-message dollar costs
 * (tokens are given as litellm's {@code prompt_tokens}/{@code completion_tokens} usage per message); a simulation's
 * {@code agent_cost}/{@code user_cost} are its recorded tokens at Brokkr's price table, null for an unpriced model.
 * A termination reason of Brokkr's own ({@code cell_budget}) is written as the upstream one it stands for
 * ({@code TerminationReason#upstream}), the simulation's {@code info} naming it. {@code reward_info} is Brokkr's grade in upstream's form, obtained by grading the recorded trajectory
 * with the recorded NL verdicts ({@link Tau2Regrade#rewardInfo}); a cell with no completed attempt is its last
 * infrastructure failure, termination {@code infrastructure_error}, which upstream's metrics exclude.
 */
public final class Tau2ResultsExport {
    private Tau2ResultsExport() {}

    /** One results file: the benchmark ({@code tau2-retail}), the candidate's label and upstream's JSON. */
    public record Export(
            String benchmark, String domain, String candidate, PyDict results, List<String> warnings, String fileName) {
        public Export {
            warnings = List.copyOf(warnings);
        }

        Export withFileName(String candidatePart) {
            return new Export(
                    benchmark, domain, candidate, results, warnings, benchmark + "." + candidatePart + ".json");
        }
    }

    /** The agent implementation a {@code harness: claude-code} candidate's results name: not upstream's {@code llm_agent}. */
    public static final String CLAUDE_CODE_AGENT = "claude_code";

    /**
     * What an export of a {@code harness: claude-code} candidate says: upstream's leaderboard takes results of a
     * scaffold other than its own LLM agent as a "custom" submission (its submission guide: {@code submission_type:
     * "custom"} with methodology notes), never a standard one.
     */
    public static final String CUSTOM_SUBMISSION = "harness claude-code: the Claude Code CLI ran its own agent loop "
            + "(the domain's tools over MCP), so these results are an upstream \"custom\" submission "
            + "(submission_type: custom, with methodology notes), not a standard llm_agent one; agent_info.implementation "
            + "says " + CLAUDE_CODE_AGENT;

    /** Upstream's half-duplex text streaming default ({@code TextRunConfig}), recorded in every {@code Info}. */
    private static final PyDict TEXT_STREAMING = PyDict.of("chunk_by", "words", "chunk_size", 1);

    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS");

    /**
     * Every tau2 domain × candidate of an experiment's active cells (in the spec's order, each with the attempt
     * standing for it: {@link brokkr.family.StoredResults#read}); cells of other benchmarks are left out.
     */
    public static List<Export> export(List<ResultCell> cells, Registry registry) {
        return export(cells, registry, PriceTable.standard());
    }

    /**
     * {@link #export(List, Registry)}, each simulation's {@code agent_cost} and {@code user_cost} the US dollars its
     * agent's and user simulator's recorded tokens cost at {@code prices} ({@link EpisodeCost#usd}, as the scorecard's
     * cost per episode); null where a role's model has no price (a scripted one never has), never 0.
     */
    public static List<Export> export(List<ResultCell> cells, Registry registry, PriceTable prices) {
        Map<List<String>, List<ResultCell>> groups = new LinkedHashMap<>();
        for (ResultCell c : cells) {
            if (!(registry.benchmarks().get(c.benchmark()) instanceof Tau2Benchmark)) continue;
            groups.computeIfAbsent(List.of(c.benchmark(), c.candidate()), k -> new ArrayList<>())
                    .add(c);
        }
        List<Export> out = new ArrayList<>();
        for (var e : groups.entrySet()) {
            Tau2Benchmark bench =
                    (Tau2Benchmark) registry.benchmarks().get(e.getKey().get(0));
            out.add(export(bench, e.getKey().get(1), e.getValue(), prices));
        }
        // A file name per candidate (tau2-retail.gold.json) that no other candidate's file takes.
        Map<String, String> names =
                ResultFormat.fileNames(out.stream().map(Export::candidate).toList());
        return out.stream().map(x -> x.withFileName(names.get(x.candidate()))).toList();
    }

    private static Export export(Tau2Benchmark bench, String candidate, List<ResultCell> cells, PriceTable prices) {
        Tau2Domain domain = bench.domain();
        Tau2Regrade.Domain grading = Tau2Evaluate.domain(domain.name());
        List<String> taskOrder = new ArrayList<>(domain.tasks().keySet());
        List<ResultCell> ordered = new ArrayList<>(cells);
        ordered.sort(Comparator.<ResultCell>comparingInt(ResultCell::repetition)
                .thenComparingInt(c -> taskOrder.indexOf(c.taskId())));
        EnvironmentDef env = ordered.getFirst().environment();
        AgentDef agent = ordered.getFirst().agent();
        int trials = ordered.stream().mapToInt(c -> c.repetition() + 1).max().orElse(0);
        String policy = policy(domain);
        List<String> warnings = new ArrayList<>();
        List<Value> sims = new ArrayList<>();
        Set<String> taskIds = new LinkedHashSet<>();
        long first = Long.MAX_VALUE;
        for (ResultCell c : ordered) {
            Attempt a = c.attempt();
            if (a == null) continue; // not run yet: upstream's file has no simulation for it either
            taskIds.add(c.taskId());
            first = Math.min(first, a.startedAtMillis());
            sims.add(simulation(
                    a, domain, grading, policy, sims.size() + 1, warnings, bench.name() + "/" + candidate, prices));
        }
        List<Value> tasks = new ArrayList<>();
        for (String id : taskOrder)
            if (taskIds.contains(id)) tasks.add(domain.task(id).raw());
        PyDict opts = env.options();
        boolean custom = Harness.fromValue(agent.harness()).claudeCode();
        if (custom) warnings.add(CUSTOM_SUBMISSION);
        PyDict info = PyDict.builder()
                .put("git_commit", Tau2Domains.UPSTREAM_REVISION)
                .put("num_trials", trials)
                .put("max_steps", opts.get(Tau2Benchmark.MAX_STEPS))
                .put("max_errors", opts.get(Tau2Benchmark.MAX_ERRORS))
                .put(
                        "user_info",
                        PyDict.builder()
                                .put(
                                        "implementation",
                                        implementation(env.models().get("user"), "user_simulator"))
                                .put("llm", llm(env.models().get("user")))
                                .put("llm_args", env.models().get("user").options())
                                .put("global_simulation_guidelines", guidelines())
                                .put("voice_settings", PyNone.NONE)
                                .put("persona_config", PyNone.NONE)
                                .build())
                .put(
                        "agent_info",
                        PyDict.builder()
                                .put(
                                        "implementation",
                                        custom
                                                ? new PyStr(CLAUDE_CODE_AGENT)
                                                : implementation(agent.modelRef(), "llm_agent"))
                                .put("llm", llm(agent.modelRef()))
                                .put("llm_args", agent.options())
                                .put("voice_settings", PyNone.NONE)
                                .build())
                .put(
                        "environment_info",
                        PyDict.builder()
                                .put("domain_name", domain.name())
                                .put("policy", policy)
                                .put("tool_defs", PyNone.NONE)
                                .build())
                .put("seed", opts.get(Tau2Benchmark.RUN_SEED))
                .put("text_streaming_config", TEXT_STREAMING)
                .put("speech_complexity", PyNone.NONE)
                .put("audio_native_config", PyNone.NONE)
                .put("retrieval_config", retrievalConfig(domain))
                .put("retrieval_config_kwargs", PyNone.NONE)
                .build();
        PyDict results = PyDict.builder()
                .put("timestamp", first == Long.MAX_VALUE ? PyNone.NONE : new PyStr(iso(first)))
                .put("info", info)
                .put("tasks", PyList.of(tasks))
                .put("simulations", PyList.of(sims))
                .put("simulation_index", PyNone.NONE)
                .build();
        return new Export(bench.name(), domain.name(), candidate, results, warnings, null);
    }

    private static PyDict simulation(
            Attempt a,
            Tau2Domain domain,
            Tau2Regrade.Domain grading,
            String policy,
            int n,
            List<String> warnings,
            String label,
            PriceTable prices) {
        Evidence e = a.evidence();
        String termination = a.completed() ? e.termination() : "infrastructure_error";
        // Brokkr's own reasons become the one upstream's Results model loads (cell_budget: max_steps), graded alike;
        // the simulation's info keeps which it was.
        String upstreamTermination =
                Tau2Evaluator.termination(termination).upstream().value();
        Value simulationInfo = PyNone.NONE;
        if (!upstreamTermination.equals(termination)) {
            simulationInfo = PyDict.of(
                    "brokkr_termination_reason",
                    termination,
                    "note",
                    "Brokkr stopped this episode with its own termination reason " + termination
                            + ", written as upstream's " + upstreamTermination + " (graded alike: reward 0)");
            warnings.add("attempt " + a.id() + " (task " + a.taskId() + ", trial " + (a.repetition() + 1) + ") ended "
                    + termination + " (Brokkr's own, which upstream's TerminationReason does not have): written as "
                    + upstreamTermination + ", its simulation info says which");
        }
        PyList messages = messages(e.transcript());
        Value seed = e.output().get("seed") instanceof PyInt s ? s : PyNone.NONE;
        PyDict rewardInfo;
        if (!a.completed()) {
            rewardInfo = PyDict.of(
                    "reward",
                    0.0,
                    "db_check",
                    PyNone.NONE,
                    "env_assertions",
                    PyNone.NONE,
                    "action_checks",
                    PyNone.NONE,
                    "nl_assertions",
                    PyNone.NONE,
                    "communicate_checks",
                    PyNone.NONE,
                    "reward_basis",
                    PyNone.NONE,
                    "reward_breakdown",
                    PyNone.NONE,
                    "info",
                    PyDict.of("note", "Simulation terminated prematurely. Termination reason: infrastructure_error"));
        } else {
            Value nl = e.details().get("grade") instanceof PyDict g && g.get("nl_assertions") != null
                    ? g.get("nl_assertions")
                    : PyNone.NONE;
            UpstreamSimulation sim = new UpstreamSimulation(
                    label + " attempt " + a.id(),
                    domain.name(),
                    a.taskId(),
                    a.repetition(),
                    seed instanceof PyInt s ? s.longValue() : null,
                    upstreamTermination,
                    messages,
                    PyDict.of("nl_assertions", nl),
                    null,
                    PyDict.empty());
            rewardInfo = Tau2Regrade.rewardInfo(sim, grading);
            double r = ((PyFloat) rewardInfo.get("reward")).value();
            if (r != a.reward())
                warnings.add("attempt " + a.id() + " (task " + a.taskId() + ", trial " + (a.repetition() + 1)
                        + "): the stored reward is " + a.reward() + ", the trajectory grades " + r);
        }
        long end = a.startedAtMillis() + a.durationMillis();
        PyDict.Builder b = PyDict.builder()
                .put("id", String.format("00000000-0000-4000-8000-%012x", a.id() > 0 ? a.id() : n))
                .put("task_id", a.taskId())
                .put("timestamp", iso(end))
                .put("start_time", iso(a.startedAtMillis()))
                .put("end_time", iso(end))
                .put("duration", a.durationMillis() / 1000.0)
                .put("termination_reason", upstreamTermination)
                .put("agent_cost", usd(a, Evidence.AGENT, prices))
                .put("user_cost", usd(a, "user", prices))
                .put("agent_usage", PyNone.NONE)
                .put("reward_info", rewardInfo)
                .put("messages", messages)
                .put("ticks", PyNone.NONE)
                .put("trial", a.repetition())
                .put("seed", seed)
                .put("mode", "half_duplex")
                .put("speech_environment", PyNone.NONE)
                .put("review", PyNone.NONE)
                .put("user_only_review", PyNone.NONE)
                .put("info", simulationInfo)
                .put("auth_classification", PyNone.NONE)
                .put("hallucination_retries_used", 0)
                .put("hallucination_check", PyNone.NONE)
                .put("provider_session_id", PyNone.NONE)
                .put("policy", policy)
                .put("effect_timeline", PyNone.NONE);
        return b.build();
    }

    /** US dollars {@code role}'s recorded tokens of the attempt cost at {@code prices}; None when unpriced (never 0). */
    private static Value usd(Attempt a, String role, PriceTable prices) {
        if (!a.completed()) return PyNone.NONE;
        double usd = EpisodeCost.of(a.evidence()).usd(role, prices);
        return Double.isNaN(usd) ? PyNone.NONE : new PyFloat(usd);
    }

    /**
     * Upstream's {@code info.retrieval_config}: the retrieval variant of banking_knowledge, the one domain that has
     * one (Brokkr runs its {@code bm25} variant); None for the others.
     */
    static Value retrievalConfig(Tau2Domain d) {
        return d.name().equals(BankingDomain.DOMAIN) ? new PyStr(BankingDomain.RETRIEVAL_VARIANT) : PyNone.NONE;
    }

    /** Brokkr's transcript ({@code Tau2Transcript} JSON) as upstream's {@code model_dump(mode="json")} of its messages. */
    static PyList messages(Value transcript) {
        List<Value> out = new ArrayList<>();
        if (!(transcript instanceof PyList l)) return PyList.of(out);
        int turn = 0;
        for (Value v : l) {
            PyDict d = v.asDict();
            String role = d.get("role").asStr();
            if (role.equals("tool")) {
                Value id = d.containsKey("id") ? d.get("id") : d.getOrDefault("tool_call_id", PyNone.NONE);
                out.add(PyDict.builder()
                        .put("id", id)
                        .put("role", "tool")
                        .put("content", d.getOrDefault("content", PyNone.NONE))
                        .put("requestor", d.get("requestor"))
                        .put("error", d.getOrDefault("error", PyBool.FALSE))
                        .put("turn_idx", turn++)
                        .put("timestamp", PyNone.NONE)
                        .build());
                continue;
            }
            Value calls = PyNone.NONE;
            if (d.get("tool_calls") instanceof PyList tcs && !tcs.isEmpty()) {
                List<Value> cs = new ArrayList<>();
                for (Value tv : tcs) {
                    PyDict c = tv.asDict();
                    cs.add(PyDict.of(
                            "id",
                            c.getOrDefault("id", PyNone.NONE),
                            "name",
                            c.get("name"),
                            "arguments",
                            c.getOrDefault("arguments", PyDict.empty()),
                            "requestor",
                            c.getOrDefault("requestor", new PyStr(role.equals("user") ? "user" : "assistant"))));
                }
                calls = PyList.of(cs);
            }
            out.add(PyDict.builder()
                    .put("role", role)
                    .put("content", d.getOrDefault("content", PyNone.NONE))
                    .put("tool_calls", calls)
                    .put("is_audio", PyBool.FALSE)
                    .put("turn_idx", turn++)
                    .put("timestamp", PyNone.NONE)
                    .put("cost", PyNone.NONE)
                    .put("usage", usage(d.get("usage")))
                    .put("raw_data", PyNone.NONE)
                    .put("generation_time_seconds", PyNone.NONE)
                    .put("audio_format", PyNone.NONE)
                    .put("audio_path", PyNone.NONE)
                    .put("audio_script_gold", PyNone.NONE)
                    .put("speech_effects", PyNone.NONE)
                    .put("source_effects", PyNone.NONE)
                    .put("channel_effects", PyNone.NONE)
                    .put("turn_taking_action", PyNone.NONE)
                    .put("utterance_ids", PyNone.NONE)
                    .put("chunk_id", PyNone.NONE)
                    .put("is_final_chunk", PyBool.TRUE)
                    .put("source", PyNone.NONE)
                    .put("contains_speech", PyBool.TRUE)
                    .build());
        }
        return PyList.of(out);
    }

    /** Brokkr's token counts in litellm's usage keys; null when the message had no model call (scripted). */
    private static Value usage(Value u) {
        if (!(u instanceof PyDict d)) return PyNone.NONE;
        long in = d.get("input_tokens") instanceof PyInt i ? i.longValue() : 0,
                out = d.get("output_tokens") instanceof PyInt o ? o.longValue() : 0;
        if (in == 0 && out == 0) return PyNone.NONE;
        return PyDict.of("prompt_tokens", in, "completion_tokens", out, "total_tokens", in + out);
    }

    /** The domain's policy: upstream's agent prompt is {@code <instructions>...</instructions>\n<policy>\nPOLICY\n</policy>}. */
    static String policy(Tau2Domain d) {
        String p = d.agentSystemPrompt();
        int from = p.indexOf("\n<policy>\n"), to = p.lastIndexOf("\n</policy>");
        if (from < 0 || to < from)
            throw new IllegalStateException(d.name() + ": the agent prompt has no <policy> section");
        return p.substring(from + "\n<policy>\n".length(), to);
    }

    /** Upstream's {@code global_simulation_guidelines}: the user simulator's guidelines file. */
    private static String guidelines() {
        String path = "data/tau2/user_simulator/simulation_guidelines.md";
        return new String(
                Tau2Data.locate().read(path, Tau2Data.USER_SIMULATOR_DIGESTS.get(path)), StandardCharsets.UTF_8);
    }

    private static Value implementation(ModelRef m, String upstreamName) {
        return new PyStr(
                m.provider().equals(BenchmarkProvider.SCRIPTED) ? "brokkr_scripted_" + m.model() : upstreamName);
    }

    private static Value llm(ModelRef m) {
        return new PyStr(
                m.provider().equals(BenchmarkProvider.SCRIPTED)
                        ? "scripted:" + m.model()
                        : m.provider() + ":" + m.model());
    }

    private static String iso(long epochMillis) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC)
                .format(ISO);
    }
}
