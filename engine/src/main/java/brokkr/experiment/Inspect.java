package brokkr.experiment;

import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.WorldReplay;
import brokkr.world.WorldHash;
import brokkr.eval.Check;
import brokkr.eval.Evidence;
import brokkr.experiment.ExperimentStore.Cell;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Looking into an experiment's store: its attempts, which checks failed where, one attempt's
 * transcript, and verify-world (replaying an attempt's tool calls reproduces its recorded final world).
 */
public final class Inspect {
    private Inspect() {}

    /** Every attempt of the current spec's cells (or all, with {@code all}), one row each. */
    public static Table attempts(ExperimentQuery store, boolean all) {
        Map<CellKey, Cell> cells = new HashMap<>();
        for (Cell c : store.cells()) cells.put(c.key(), c);
        LongColumn id = LongColumn.create("id");
        StringColumn bench = StringColumn.create("benchmark"), cand = StringColumn.create("candidate"), task = StringColumn.create("task");
        IntColumn rep = IntColumn.create("rep");
        StringColumn status = StringColumn.create("status");
        DoubleColumn reward = DoubleColumn.create("reward");
        StringColumn failedChecks = StringColumn.create("failed_checks");
        LongColumn ms = LongColumn.create("duration_ms");
        StringColumn error = StringColumn.create("error");
        for (Attempt a : store.attempts(!all)) {
            Cell c = cells.get(new CellKey(a.environmentId(), a.agentId(), a.repetition()));
            id.append(a.id());
            bench.append(c == null ? "?" : c.benchmark());
            cand.append(c == null ? a.agentId().substring(0, 12) : c.candidate());
            task.append(a.taskId());
            rep.append(a.repetition());
            status.append(a.status().wire());
            if (a.completed()) reward.append(a.reward()); else reward.appendMissing();
            failedChecks.append(String.join(",", a.checks().stream().filter(x -> !x.passed()).map(Check::name).toList()));
            ms.append(a.durationMillis());
            error.append(a.error() == null ? "" : abbreviate(a.error(), 100));
        }
        return Table.create("attempts", id, bench, cand, task, rep, status, reward, failedChecks, ms, error);
    }

    /** Completed attempts of the current cells that failed each check, by candidate and check. */
    public static Table failuresByCheck(ExperimentQuery store) {
        return Scorecard.of(store).checkTable();
    }

    /** A readable transcript of one attempt, with its verdict and any error. */
    public static String transcript(ExperimentQuery store, long attemptId) {
        Attempt a = store.attempt(attemptId).orElseThrow(() -> new IllegalArgumentException("no attempt " + attemptId));
        StringBuilder sb = new StringBuilder();
        sb.append("attempt ").append(a.id()).append(": task ").append(a.taskId()).append(", repetition ").append(a.repetition())
                .append(", ").append(a.status().wire()).append('\n');
        sb.append("environment ").append(a.environmentId()).append("\nagent       ").append(a.agentId()).append('\n');
        if (a.completed()) {
            sb.append(String.format(Locale.ROOT, "reward %.3f, trust %s%n", a.reward(), a.trust().name().toLowerCase(Locale.ROOT)));
            for (Check c : a.checks()) sb.append("  [").append(c.passed() ? "pass" : "FAIL").append("] ").append(c.name()).append('\n');
        }
        if (a.error() != null) sb.append("error: ").append(a.error()).append('\n');
        Evidence e = a.evidence();
        if (!e.termination().isEmpty()) sb.append("termination: ").append(e.termination()).append('\n');
        sb.append("model calls: ").append(e.modelCalls().size()).append(", usage ");
        e.usage().forEach((role, u) -> sb.append(role).append(' ').append(u.inputTokens()).append('/').append(u.outputTokens()).append(' '));
        sb.append("\n\n");
        renderTranscript(e.transcript(), sb);
        return sb.toString();
    }

    /**
     * Messages ({@code {"role": ..., "content": ..., "tool_calls": [...]}}, the OpenAI shape protocols
     * record) are printed one per block; any other transcript shape is printed as indented JSON.
     */
    static void renderTranscript(Value t, StringBuilder sb) {
        if (t instanceof PyList l && l.stream().allMatch(m -> m instanceof PyDict d && d.containsKey("role"))) {
            for (Value m : l) {
                PyDict d = m.asDict();
                sb.append('[').append(d.get("role").asStr());
                if (d.get("name") instanceof brokkr.value.PyStr n) sb.append(' ').append(n.value());
                sb.append("] ");
                Value content = d.get("content");
                if (content != null && !content.isNone()) sb.append(content instanceof brokkr.value.PyStr s ? s.value() : PyJson.dumps(content));
                sb.append('\n');
                if (d.get("tool_calls") instanceof PyList calls) {
                    for (Value c : calls) {
                        PyDict cd = c.asDict();
                        Value args = cd.getOrDefault("arguments", PyDict.empty());
                        sb.append("  -> ").append(cd.getOrDefault("name", Value.str("?")) instanceof brokkr.value.PyStr n ? n.value() : "?")
                                .append(args instanceof brokkr.value.PyStr s ? s.value() : PyJson.dumps(args)).append('\n');
                    }
                }
            }
        } else if (!t.isNone()) {
            sb.append(PyJson.dumps(t, PyJson.DumpOptions.DEFAULT.withIndent(2).withEnsureAscii(false))).append('\n');
        }
    }

    private static String abbreviate(String s, int n) {
        String one = s.replace('\n', ' ');
        return one.length() <= n ? one : one.substring(0, n - 3) + "...";
    }

    /** A replayed attempt: the final-world hash it recorded and the one its replay produces. */
    public record WorldCheck(long attemptId, String recorded, String replayed) {
        public boolean matches() { return recorded.equals(replayed); }
    }

    /**
     * verify-world: rebuilds an attempt's final world from its record (the benchmark's
     * {@link brokkr.eval.WorldReplay} installs the initial world and replays the transcript's tool calls)
     * and compares its hash with the recorded one. IllegalArgumentException when the attempt recorded no
     * final world or its benchmark brings no replay.
     */
    public static WorldCheck verifyWorld(ExperimentQuery store, Registry registry, long attemptId) {
        Attempt a = store.attempt(attemptId).orElseThrow(() -> new IllegalArgumentException("no attempt " + attemptId));
        if (a.evidence().finalWorldSha256() == null) {
            throw new IllegalArgumentException("attempt " + attemptId + " recorded no final world (it failed before its protocol finished)");
        }
        EnvironmentDef env = store.environment(a.environmentId()).orElseThrow();
        BenchmarkProvider provider = registry.benchmark(env.benchmark());
        WorldReplay replay = provider.worldReplay()
                .orElseThrow(() -> new IllegalArgumentException("benchmark " + env.benchmark() + " brings no world replay"));
        return new WorldCheck(attemptId, a.evidence().finalWorldSha256(), WorldHash.sha256(replay.replay(env, a.evidence()), true));
    }

    /** Rendered as text (for the CLI). */
    public static String render(Table t) { return TextTable.render(t); }

}
