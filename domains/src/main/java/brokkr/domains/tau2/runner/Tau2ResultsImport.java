package brokkr.domains.tau2.runner;

import brokkr.domains.tau2.conformance.UpstreamMessages;
import brokkr.domains.tau2.conformance.UpstreamRecords;
import brokkr.domains.tau2.conformance.UpstreamSimulation;
import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Transcript;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.eval.TrustTier;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Registry;
import brokkr.family.ResultCell;
import brokkr.family.ResultFormat;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * An upstream results file (or graded corpus) loaded as an experiment store, so Brokkr's scorecards, pass^k,
 * per-task and per-check tables, transcripts and report read trajectories produced by upstream's own runner.
 * Scores are upstream's: each simulation is one completed attempt with the recorded reward, one check per
 * reward component of the task's basis ({@code reward_breakdown}, as {@code experiment run} names them) and
 * {@code terminated_normally}; an {@code infrastructure_error} termination is an infrastructure failure (no
 * verdict, in no metric). The candidate is upstream's agent ({@code upstream:IMPLEMENTATION:LLM} from the
 * file's {@code info}; {@code upstream-corpus} for a corpus, whose records of one task are its trials in file
 * order). The recorded reward info stays in each attempt's details ({@code upstream_reward_info}); no final
 * world is recorded (upstream keeps none), so {@code verify-world} has nothing to check. The import is returned
 * as values ({@link ResultFormat.Imported}); the caller writes the store ({@link brokkr.family.StoredResults#write}).
 */
public final class Tau2ResultsImport {
    private Tau2ResultsImport() {}

    /** Reads {@code file} as an experiment of {@code registry}'s tau2 domain it names (IllegalArgumentException for a bad file). */
    public static ResultFormat.Imported read(Path file, Registry registry) {
        UpstreamRecords.Contents contents = UpstreamRecords.read(file);
        String domainName = contents.simulations().getFirst().domain();
        for (UpstreamSimulation s : contents.simulations()) {
            if (!s.domain().equals(domainName))
                throw new IllegalArgumentException(
                        s.label() + ": domain " + s.domain() + " in a file of " + domainName);
        }
        Tau2Benchmark bench = Tau2Domains.benchmark(registry, domainName);
        Tau2Domain domain = bench.domain();
        PyDict info = contents.isResultsFile() ? contents.results().get("info").asDict() : null;

        String candidate = "upstream-corpus";
        ModelRef agentRef = new ModelRef("upstream", "graded-corpus");
        ModelRef userRef = new ModelRef("upstream", "recorded-user");
        PyDict options = PyDict.empty();
        if (info != null) {
            PyDict agent = info.get("agent_info").asDict(),
                    user = info.get("user_info").asDict();
            String impl = text(agent.get("implementation"), "agent"), llm = text(agent.get("llm"), "");
            candidate = "upstream:" + impl + (llm.isEmpty() ? "" : ":" + llm);
            try {
                ExperimentSpec.checkCandidateId(candidate); // the same rule as a spec's candidate ids
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        file.getFileName() + ": info.agent_info gives a bad candidate: " + e.getMessage());
            }
            agentRef = new ModelRef("upstream", impl + (llm.isEmpty() ? "" : ":" + llm), dict(agent.get("llm_args")));
            String userLlm = text(user.get("llm"), "");
            userRef = new ModelRef(
                    "upstream",
                    text(user.get("implementation"), "user") + (userLlm.isEmpty() ? "" : ":" + userLlm),
                    dict(user.get("llm_args")));
            PyDict.Builder o = PyDict.builder();
            if (info.get("max_steps") instanceof PyInt v) o.put(Tau2Benchmark.MAX_STEPS, v);
            if (info.get("max_errors") instanceof PyInt v) o.put(Tau2Benchmark.MAX_ERRORS, v);
            if (info.get("seed") instanceof PyInt v) o.put(Tau2Benchmark.RUN_SEED, v);
            options = o.build();
        }
        Map<String, ModelRef> roles = Map.of("user", userRef, "judge", new ModelRef("upstream", "recorded-verdicts"));
        AgentDef agentDef = new AgentDef(agentRef.provider(), agentRef.model(), "tools", agentRef.options(), null);

        Map<String, Integer> seen = new HashMap<>();
        Set<List<Object>> keys = new HashSet<>();
        List<ResultCell> cells = new ArrayList<>();
        for (UpstreamSimulation s : contents.simulations()) {
            TaskSpec task;
            try {
                task = domain.task(s.taskId());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(s.label() + ": " + e.getMessage());
            }
            EnvironmentDef env = bench.environment(s.taskId(), roles, options);
            int occurrence = seen.merge(env.id(), 1, Integer::sum) - 1;
            int repetition = s.trial() != null ? s.trial() : occurrence;
            if (!keys.add(List.of(env.id(), repetition))) {
                throw new IllegalArgumentException(
                        s.label() + ": task " + s.taskId() + " trial " + repetition + " appears twice");
            }
            cells.add(new ResultCell(
                    bench.name(),
                    candidate,
                    s.taskId(),
                    repetition,
                    env,
                    agentDef,
                    attempt(s, task, env.id(), agentDef.id(), repetition)));
        }
        String name = file.getFileName()
                .toString()
                .replaceAll("\\.(jsonl\\.gz|json\\.gz|jsonl|json|gz)$", "")
                .replaceAll("[^A-Za-z0-9._-]", "_");
        String spec = PyJson.dumps(PyDict.of(
                "imported_from",
                file.toAbsolutePath().toString(),
                "format",
                contents.isResultsFile() ? "tau2 results" : "tau2 graded corpus",
                "benchmark",
                bench.name(),
                "candidate",
                candidate));
        long infra = cells.stream().filter(c -> !c.attempt().completed()).count();
        return new ResultFormat.Imported(
                name,
                spec,
                cells,
                cells.size() + " simulations of " + bench.name() + " by " + candidate,
                infra > 0 ? List.of(infra + " infrastructure errors, not scored") : List.of());
    }

    private static Attempt attempt(
            UpstreamSimulation s, TaskSpec task, String environmentId, String agentId, int repetition) {
        PyDict ri = s.rewardInfo();
        Value transcript =
                Tau2Transcript.toValue(UpstreamMessages.parse(s.messages()).trajectory());
        PyDict output = PyDict.of("seed", s.seed() == null ? PyNone.NONE : PyInt.of(s.seed()), "note", PyNone.NONE);
        PyDict details = PyDict.of(
                "termination",
                s.termination(),
                "upstream_reward_info",
                ri == null ? PyNone.NONE : ri,
                "source",
                s.label());
        Evidence evidence = new Evidence(
                PyDict.empty(),
                transcript,
                output,
                s.termination(),
                null,
                List.of(),
                Map.of(),
                PyDict.empty(),
                details);
        long started = millis(s.raw().get("start_time"));
        long duration = s.raw().get("duration") instanceof PyFloat d ? Math.round(d.value() * 1000) : 0;
        if (s.termination().equals("infrastructure_error")) {
            return new Attempt(
                    0,
                    environmentId,
                    agentId,
                    repetition,
                    s.taskId(),
                    Attempt.Status.INFRASTRUCTURE_FAILURE,
                    List.of(),
                    0.0,
                    null,
                    evidence,
                    "upstream recorded an infrastructure_error",
                    started,
                    duration);
        }
        boolean normal = s.termination().equals("user_stop") || s.termination().equals("agent_stop");
        List<Check> checks = new ArrayList<>();
        checks.add(new Check("terminated_normally", normal));
        PyDict breakdown = ri != null && ri.get("reward_breakdown") instanceof PyDict b ? b : PyDict.empty();
        boolean judged = false;
        if (normal && task.criteria() != null) {
            for (RewardType t : List.of(
                    RewardType.DB,
                    RewardType.ENV_ASSERTION,
                    RewardType.ACTION,
                    RewardType.NL_ASSERTION,
                    RewardType.COMMUNICATE)) {
                if (!task.criteria().basisIncludes(t) || !(breakdown.get(t.name()) instanceof PyFloat r)) continue;
                checks.add(new Check(t.name().toLowerCase(Locale.ROOT), r.value() == 1.0));
                if (t == RewardType.NL_ASSERTION && ri.get("nl_assertions") instanceof PyList nl && !nl.isEmpty())
                    judged = true;
            }
        }
        return new Attempt(
                0,
                environmentId,
                agentId,
                repetition,
                s.taskId(),
                Attempt.Status.COMPLETED,
                checks,
                s.reward(),
                judged ? TrustTier.MODEL_JUDGED : TrustTier.DETERMINISTIC,
                evidence,
                null,
                started,
                duration);
    }

    /** Upstream's {@code datetime.isoformat()} times (no zone: read as UTC); 0 when absent or unreadable. */
    private static long millis(Value v) {
        if (!(v instanceof PyStr s)) return 0;
        try {
            return LocalDateTime.parse(s.value()).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            return 0;
        }
    }

    private static String text(Value v, String dflt) {
        return v instanceof PyStr s ? s.value() : dflt;
    }

    private static PyDict dict(Value v) {
        return v instanceof PyDict d ? d : PyDict.empty();
    }
}
