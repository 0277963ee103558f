package brokkr.experiment;

import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Check;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evidence;
import brokkr.eval.WorldReplay;
import brokkr.experiment.ExperimentStore.Cell;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import brokkr.world.WorldHash;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Looking into an experiment's store: its attempts, one attempt's transcript, and verify-world
 * (replaying an attempt's tool calls reproduces its recorded final world). Which checks failed where
 * is the {@link Scorecard}'s {@code perCheck}.
 */
public final class Inspect {
    private Inspect() {}

    /** One attempt as the attempts listing shows it: with its cell's benchmark and candidate label. */
    public record AttemptRow(Attempt attempt, String benchmark, String candidate) {}

    /**
     * Every attempt of the current spec's cells (or all, with {@code all}), oldest first, as a listing
     * shows them: without their evidence (each holds only its usage), which is most of a store's bytes
     * and is read only for one attempt at a time ({@link ExperimentQuery#attempt}).
     */
    public static List<AttemptRow> attempts(ExperimentQuery store, boolean all) {
        Map<CellKey, Cell> cells = new HashMap<>();
        for (Cell c : store.cells()) cells.put(c.key(), c);
        List<AttemptRow> out = new ArrayList<>();
        for (Attempt a : store.attempts(!all, false)) {
            Cell c = cells.get(new CellKey(a.environmentId(), a.agentId(), a.repetition()));
            // Every stored attempt has its cell (a foreign key); the fallbacks only keep a damaged store listable.
            out.add(new AttemptRow(a, c == null ? "?" : c.benchmark(), c == null ? a.agentId().substring(0, 12) : c.candidate()));
        }
        return out;
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
                if (d.get("name") instanceof PyStr n) sb.append(' ').append(n.value());
                sb.append("] ");
                Value content = d.get("content");
                if (content != null && !content.isNone()) sb.append(content instanceof PyStr s ? s.value() : PyJson.dumps(content));
                sb.append('\n');
                if (d.get("tool_calls") instanceof PyList calls) {
                    for (Value c : calls) {
                        PyDict cd = c.asDict();
                        Value args = cd.getOrDefault("arguments", PyDict.empty());
                        sb.append("  -> ").append(cd.getOrDefault("name", Value.str("?")) instanceof PyStr n ? n.value() : "?")
                                .append(args instanceof PyStr s ? s.value() : PyJson.dumps(args)).append('\n');
                    }
                }
            }
        } else if (!t.isNone()) {
            sb.append(PyJson.dumps(t, PyJson.DumpOptions.DEFAULT.withIndent(2).withEnsureAscii(false))).append('\n');
        }
    }

    /** A replayed attempt: the final-world hash it recorded and the one its replay produces. */
    public record WorldCheck(long attemptId, String recorded, String replayed) {
        public boolean matches() { return recorded.equals(replayed); }
    }

    /**
     * verify-world: rebuilds an attempt's final world from its record (the benchmark's
     * {@link WorldReplay} installs the initial world and replays the transcript's tool calls)
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
}
