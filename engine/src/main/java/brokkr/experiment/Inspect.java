package brokkr.experiment;

import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Branches;
import brokkr.eval.Check;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evidence;
import brokkr.eval.WorldReplay;
import brokkr.experiment.ExperimentStore.Cell;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import brokkr.world.WorldHash;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

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
            out.add(new AttemptRow(
                    a, c == null ? "?" : c.benchmark(), c == null ? a.agentId().substring(0, 12) : c.candidate()));
        }
        return out;
    }

    /**
     * One attempt as a person reads it: which cell it is (benchmark, candidate, task, trial counted
     * from 1), its verdict and grade breakdown (every check, the reward, the trust tier, the grader's
     * details), any error, the model calls and tokens, then the dialogue ({@link #renderTranscript}).
     */
    public static String transcript(ExperimentQuery store, long attemptId) {
        Attempt a = store.attempt(attemptId).orElseThrow(() -> new IllegalArgumentException("no attempt " + attemptId));
        Cell cell = cellOf(store, a);
        StringBuilder sb = new StringBuilder();
        sb.append("attempt ")
                .append(a.id())
                .append(": ")
                .append(cell == null ? "?" : cell.benchmark())
                .append(", candidate ")
                .append(cell == null ? a.agentId().substring(0, 12) : cell.candidate())
                .append(", task ")
                .append(a.taskId())
                .append(", trial ")
                .append(a.repetition() + 1)
                .append(", ")
                .append(a.status().wire())
                .append('\n');
        sb.append(String.format(
                Locale.ROOT,
                "started %s UTC, %d ms%n",
                TIME.format(Instant.ofEpochMilli(a.startedAtMillis())),
                a.durationMillis()));
        Evidence e = a.evidence();
        // A stored branch (StoredBranches): which checkpoint it continues; its dialogue below starts with the
        // checkpoint's log.
        if (e.setup().get(Branches.BRANCH) instanceof PyDict br) {
            sb.append("branch of checkpoint ")
                    .append(br.get("checkpoint").asStr())
                    .append(" at ")
                    .append(
                            br.get("unit") == null
                                    ? brokkr.eval.Branching.CUSTOMER_MESSAGE
                                    : br.get("unit").asStr())
                    .append(' ')
                    .append(PyJson.dumps(br.get("at")))
                    .append('\n');
        }
        if (a.completed()) {
            sb.append(String.format(
                    Locale.ROOT,
                    "grade: reward %.3f, %s, trust %s%n",
                    a.reward(),
                    a.success() ? "success" : "not a success",
                    a.trust().name().toLowerCase(Locale.ROOT)));
            for (Check c : a.checks())
                sb.append("  ")
                        .append(c.passed() ? "pass " : "FAIL ")
                        .append(c.name())
                        .append('\n');
            if (!e.details().isEmpty()) {
                sb.append("  details:\n");
                for (var d : e.details().entries())
                    sb.append(indent(d.getKey() + ": " + text(d.getValue()), "    "))
                            .append('\n');
            }
        } else {
            sb.append(
                    "no grade: an infrastructure failure enters no metric (retried when the experiment runs again)\n");
        }
        if (a.error() != null) sb.append("error: ").append(a.error()).append('\n');
        if (!e.termination().isEmpty())
            sb.append("termination: ").append(e.termination()).append('\n');
        sb.append("model calls: ").append(e.modelCalls().size());
        long hits = e.modelCalls().stream().filter(c -> c.call().cacheHit()).count();
        if (hits > 0) sb.append(" (").append(hits).append(" served from the model-call cache)");
        if (!e.usage().isEmpty()) {
            sb.append("; tokens in/out:");
            e.usage()
                    .forEach((role, u) -> sb.append(' ')
                            .append(role)
                            .append(' ')
                            .append(u.inputTokens())
                            .append('/')
                            .append(u.outputTokens()));
        }
        // Dollars by role at the standard price table, and what a backend reported itself beside it.
        StringBuilder usd = new StringBuilder();
        for (brokkr.cost.RoleSpend s : brokkr.cost.RoleSpend.of(e)) {
            double d = s.usd(brokkr.cost.PriceTable.standard());
            if (Double.isNaN(d) && s.reportedUsd() == null) continue;
            usd.append(' ')
                    .append(s.role())
                    .append(' ')
                    .append(Double.isNaN(d) ? "–" : String.format(java.util.Locale.ROOT, "$%.4g", d));
            if (s.reportedUsd() != null)
                usd.append(String.format(java.util.Locale.ROOT, " (backend says $%.4g)", s.reportedUsd()));
        }
        if (!usd.isEmpty()) sb.append("; cost:").append(usd);
        sb.append("\n\n");
        renderTranscript(e.transcript(), sb);
        return sb.toString();
    }

    /**
     * One attempt's whole record as JSON-able data ({@code experiment transcript --json}): the cell it
     * belongs to, its verdict, timings and the evidence as stored (long texts restored).
     */
    public static PyDict record(ExperimentQuery store, long attemptId) {
        Attempt a = store.attempt(attemptId).orElseThrow(() -> new IllegalArgumentException("no attempt " + attemptId));
        Cell cell = cellOf(store, a);
        List<Value> checks = new ArrayList<>();
        for (Check c : a.checks()) checks.add(PyDict.of("name", c.name(), "passed", c.passed()));
        return PyDict.builder()
                .put("id", a.id())
                .put("benchmark", cell == null ? PyNone.NONE : Value.str(cell.benchmark()))
                .put("candidate", cell == null ? PyNone.NONE : Value.str(cell.candidate()))
                .put("task_id", a.taskId())
                .put("repetition", a.repetition())
                .put("trial", a.repetition() + 1)
                .put("environment_id", a.environmentId())
                .put("agent_id", a.agentId())
                .put("status", a.status().wire())
                .put("reward", a.completed() ? Value.of(a.reward()) : PyNone.NONE)
                .put(
                        "trust",
                        a.trust() == null
                                ? PyNone.NONE
                                : Value.str(a.trust().name().toLowerCase(Locale.ROOT)))
                .put("checks", PyList.of(checks))
                .put("error", a.error() == null ? PyNone.NONE : Value.str(a.error()))
                .put("started_at_ms", a.startedAtMillis())
                .put("duration_ms", a.durationMillis())
                .put("evidence", a.evidence().toValue())
                .build();
    }

    private static Cell cellOf(ExperimentQuery store, Attempt a) {
        CellKey k = new CellKey(a.environmentId(), a.agentId(), a.repetition());
        return store.cells().stream().filter(c -> c.key().equals(k)).findFirst().orElse(null);
    }

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

    /**
     * The dialogue of a transcript in the OpenAI message shape protocols record ({@link
     * brokkr.eval.Transcripts}): one block per message, {@code [role] text} (a tool result names its
     * tool and call, {@code [tool NAME #CALL]}, and says when it is an error), continuation lines
     * indented; each tool call on its own line as {@code -> NAME(ARGS) #CALL}; text that is a JSON
     * object or array (most tool results) pretty-printed. Any other transcript shape is printed as
     * indented JSON.
     */
    static void renderTranscript(Value t, StringBuilder sb) {
        if (t instanceof PyList l
                && l.stream().allMatch(m -> m instanceof PyDict d && d.get("role") instanceof PyStr)) {
            sb.append("dialogue: ").append(l.size()).append(" messages\n");
            for (Value m : l) {
                PyDict d = m.asDict();
                String role = d.get("role").asStr();
                sb.append('[').append(role);
                if (d.get("name") instanceof PyStr n) sb.append(' ').append(n.value());
                if (d.get("tool_call_id") instanceof PyStr id && !id.value().isEmpty())
                    sb.append(" #").append(id.value());
                if (d.get("error") instanceof PyBool b && b.value()) sb.append(", error");
                sb.append("] ");
                Value content = d.get("content");
                String body = content == null || content.isNone()
                        ? ""
                        : content instanceof PyStr s ? pretty(s.value()) : pretty(PyJson.dumps(content));
                sb.append(indent(body, "    ").stripLeading()).append('\n');
                if (d.get("tool_calls") instanceof PyList calls) {
                    for (Value c : calls) {
                        PyDict cd = c.asDict();
                        Value args = cd.getOrDefault("arguments", PyDict.empty());
                        String raw = cd.get("raw_arguments") instanceof PyStr r ? r.value() : null;
                        sb.append("    -> ")
                                .append(cd.get("name") instanceof PyStr n ? n.value() : "?")
                                .append('(')
                                .append(
                                        args instanceof PyStr s
                                                ? s.value()
                                                : raw != null && args instanceof PyDict ad && ad.isEmpty()
                                                        ? raw
                                                        : PyJson.dumps(
                                                                args,
                                                                PyJson.DumpOptions.DEFAULT.withEnsureAscii(false)))
                                .append(')');
                        if (cd.get("id") instanceof PyStr id && !id.value().isEmpty())
                            sb.append(" #").append(id.value());
                        if (cd.get("malformed") instanceof PyStr bad)
                            sb.append("  (malformed: ").append(bad.value()).append(')');
                        sb.append('\n');
                    }
                }
            }
        } else if (!t.isNone()) {
            sb.append(PyJson.dumps(t, PyJson.DumpOptions.DEFAULT.withIndent(2).withEnsureAscii(false)))
                    .append('\n');
        }
    }

    /** A text that is a JSON object or array, indented; any other text as it is. */
    private static String pretty(String s) {
        String t = s.strip();
        if (!(t.startsWith("{") && t.endsWith("}")) && !(t.startsWith("[") && t.endsWith("]"))) return s;
        try {
            return PyJson.dumps(
                    Json.parse(t), PyJson.DumpOptions.DEFAULT.withIndent(2).withEnsureAscii(false));
        } catch (RuntimeException notJson) {
            return s;
        }
    }

    /** A value of the grader's details: text as it is, anything else as indented JSON. */
    private static String text(Value v) {
        return v instanceof PyStr s
                ? s.value()
                : PyJson.dumps(v, PyJson.DumpOptions.DEFAULT.withIndent(2).withEnsureAscii(false));
    }

    /** Every line of {@code s} that is not blank indented by {@code by} (callers strip the first line's where it follows a label). */
    private static String indent(String s, String by) {
        return s.lines().map(l -> l.isBlank() ? "" : by + l).collect(Collectors.joining("\n"));
    }

    /** A replayed attempt: the final-world hash it recorded and the one its replay produces. */
    public record WorldCheck(long attemptId, String recorded, String replayed) {
        public boolean matches() {
            return recorded.equals(replayed);
        }
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
            throw new IllegalArgumentException(
                    "attempt " + attemptId + " recorded no final world (it failed before its protocol finished)");
        }
        EnvironmentDef env = store.environment(a.environmentId()).orElseThrow();
        BenchmarkProvider provider = registry.benchmark(env.benchmark());
        WorldReplay replay = provider.worldReplay()
                .orElseThrow(
                        () -> new IllegalArgumentException("benchmark " + env.benchmark() + " brings no world replay"));
        return new WorldCheck(
                attemptId, a.evidence().finalWorldSha256(), WorldHash.sha256(replay.replay(env, a.evidence()), true));
    }
}
