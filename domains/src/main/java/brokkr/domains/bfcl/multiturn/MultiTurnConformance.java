package brokkr.domains.bfcl.multiturn;

import brokkr.domains.conformance.Corpus;
import brokkr.domains.conformance.CorpusStream;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Replays the BFCL multi-turn conformance corpora (../shared/conformance/bfcl/multi_turn/README.md):
 * execution corpora ({@code gold-exec}: one execution per turn with full states; fuzz: one execution
 * per step with state hashes) compared call by call and turn by turn. Each record starts from a
 * pristine process ({@link World#EMPTY}), as the corpora were recorded.
 */
public final class MultiTurnConformance {
    private MultiTurnConformance() {}

    /**
     * {@code records} replayed, {@code calls} compared, {@code mismatches} records that differ,
     * {@code skipped} records not replayed because a backend class is not available (named in {@code missingClasses}).
     */
    public record Report(int records, long calls, int mismatches, int skipped, Set<String> missingClasses, long nanos) {
        public String summary() {
            return records + " records, " + calls + " calls, " + mismatches + " mismatches";
        }
    }

    private static final int MAX_RESULT = 2048;

    /** Replays every record of {@code corpus}; prints the first difference of each mismatching record and the summary line. */
    public static Report run(MultiTurnData data, Path corpus, PrintStream out) {
        return run(data, corpus, out, CorpusStream.defaultThreads());
    }

    /** {@link #run} with {@code threads} workers (1: in order on the calling thread); the output is the same. */
    public static Report run(MultiTurnData data, Path corpus, PrintStream out, int threads) {
        return checkEach(data, corpus, out, threads, ExecutionRecord::parse, (task, parsed) -> {
            Replay replay = new Replay(task, parsed);
            String diff;
            try {
                diff = replay.run();
            } catch (Corpus.CorpusException e) {
                throw e; // a record without an expected field proves nothing: an error at its line, not a mismatch
            } catch (RuntimeException e) {
                diff = "internal error at " + replay.where() + ": " + e;
            }
            return new Checked(replay.calls, diff, label(parsed.record()));
        });
    }

    /** What checking one record found: the calls it holds, its first difference (null when none) and how to name it. */
    record Checked(long calls, String diff, String label) {}

    /** The check of one record of a task whose backend classes are all available. */
    @FunctionalInterface
    interface RecordCheck {
        Checked check(MultiTurnData.Task task, ExecutionRecord parsed);
    }

    /** What a worker found for one line: the backend classes missing for its task (then skipped), else the check. */
    private record Outcome(List<String> absent, Checked checked) {}

    /**
     * Every record of a multi-turn corpus through {@code check} (the replay here, the verdicts in
     * {@link MultiTurnVerdicts}) on {@code threads} workers ({@link CorpusStream}: records are independent, each
     * starts from a pristine world): records of tasks whose backend classes are missing are skipped and named, each
     * mismatch is printed with its label in file order, then the summary line.
     */
    static Report checkEach(
            MultiTurnData data,
            Path corpus,
            PrintStream out,
            int threads,
            Function<CorpusStream.RawLine, ExecutionRecord> parse,
            RecordCheck check) {
        long start = System.nanoTime();
        int[] counts = new int[3]; // records, mismatches, skipped
        long[] calls = {0};
        Set<String> missing = new TreeSet<>();
        CorpusStream.forEach(
                corpus,
                threads,
                line -> {
                    ExecutionRecord parsed = parse.apply(line);
                    Corpus.Record r = parsed.record();
                    String taskId = r.string("task_id");
                    MultiTurnData.Task task = data.task(taskId);
                    if (task == null) throw r.fail("unknown task " + taskId);
                    List<String> absent = task.involvedClasses().stream()
                            .filter(c -> Backends.find(c).isEmpty())
                            .toList();
                    if (!absent.isEmpty()) return new Outcome(absent, null);
                    return new Outcome(List.of(), check.check(task, parsed));
                },
                o -> {
                    if (!o.absent().isEmpty()) {
                        counts[2]++;
                        missing.addAll(o.absent());
                        return;
                    }
                    counts[0]++;
                    Checked c = o.checked();
                    calls[0] += c.calls();
                    if (c.diff() != null) {
                        counts[1]++;
                        out.println(c.label() + ": " + c.diff());
                    }
                });
        Report rep = new Report(counts[0], calls[0], counts[1], counts[2], missing, System.nanoTime() - start);
        if (rep.skipped() > 0)
            out.println("skipped " + rep.skipped() + " records: backend classes not available: "
                    + String.join(", ", missing));
        out.println(rep.summary());
        return rep;
    }

    private static String label(Corpus.Record r) {
        String s = r.file().getFileName() + ":" + r.line() + " " + r.string("task_id");
        if (r.has("seq")) s += " seq " + r.value().get("seq");
        return s;
    }

    /** Replays one execution record; {@link #run} returns the first difference or null. */
    private static final class Replay {
        final MultiTurnData.Task task;
        final Corpus.Record r;
        final String model;
        long calls;
        /** Where the replay is (for an internal error's message): -1 before the first step. */
        int whereTurn = -1, whereStep;

        final ExecutionRecord parsed;

        Replay(MultiTurnData.Task task, ExecutionRecord parsed) {
            this.task = task;
            this.parsed = parsed;
            this.r = parsed.record();
            String m = r.string("exec_model_name");
            this.model = m;
        }

        String where() {
            return whereTurn < 0 ? "start" : "turn " + whereTurn + " step " + whereStep;
        }

        String run() {
            TaskSetup setup = task.setup();
            List<String> variables = Executor.variables(setup, model, true);
            Executor.Execution ex = Executor.execute(World.EMPTY, setup, model, true, List.of());
            World w = ex.world();
            String d = compareStates(
                    "initial state",
                    w,
                    setup,
                    variables,
                    r.object("initial_state_sha").value(),
                    parsed.object(r, "initial_state"));
            if (d != null) return d;
            for (Corpus.Record turn : r.objects("turns")) {
                int t = turn.value().get("turn") instanceof brokkr.value.PyInt i
                        ? i.value().intValue()
                        : -1;
                List<List<Corpus.Record>> steps = new ArrayList<>();
                if (turn.has("steps")) {
                    for (Value step : turn.value().get("steps").asList()) {
                        List<Corpus.Record> cs = new ArrayList<>();
                        for (Value c : step.asList()) cs.add(new Corpus.Record(r.file(), r.line(), "call", c.asDict()));
                        steps.add(cs);
                    }
                } else {
                    steps.add(turn.objects("calls"));
                }
                if (steps.isEmpty()) {
                    w = Executor.execute(w, setup, model, true, List.of()).world();
                }
                for (int s = 0; s < steps.size(); s++) {
                    List<Corpus.Record> step = steps.get(s);
                    List<String> callTexts = new ArrayList<>(step.size());
                    for (Corpus.Record c : step) callTexts.add(c.string("call"));
                    whereTurn = t;
                    whereStep = s;
                    Executor.Execution e = Executor.execute(w, setup, model, true, callTexts);
                    w = e.world();
                    for (int c = 0; c < step.size(); c++) {
                        calls++;
                        Value expected = step.get(c).required("result");
                        String got = e.results().get(c);
                        if (!resultMatches(expected, got)) {
                            return "turn " + t + (turn.has("steps") ? " step " + s : "") + " call " + c + " "
                                    + clip(callTexts.get(c)) + ": expected " + clip(expectedText(expected)) + ", got "
                                    + clip(PyJson.dumps(new PyStr(got)));
                        }
                    }
                }
                d = compareStates(
                        "after turn ",
                        t,
                        w,
                        setup,
                        variables,
                        turn.object("state_sha").value(),
                        parsed.object(turn, "state"));
                Supplier<PyDict> changes = parsed.object(turn, "state_changes");
                if (d != null) {
                    if (changes != null) d += "; recorded changes " + clip(PyJson.dumps(changes.get()));
                    return d;
                }
            }
            return null;
        }

        private String compareStates(
                String when,
                World w,
                TaskSetup setup,
                List<String> variables,
                PyDict expectedSha,
                Supplier<PyDict> expectedStates) {
            return compareStates(when, -1, w, setup, variables, expectedSha, expectedStates);
        }

        /** The states of every involved class against their hashes; {@code when} and {@code turn} (-1: none) name it. */
        private String compareStates(
                String whenText,
                int turn,
                World w,
                TaskSetup setup,
                List<String> variables,
                PyDict expectedSha,
                Supplier<PyDict> expectedStates) {
            List<String> classes = setup.involvedClasses();
            for (int i = 0; i < classes.size(); i++) {
                String cls = classes.get(i);
                String variable = variables.get(i);
                String sha = StateDump.stateSha(w, variable);
                Value want = expectedSha.get(cls);
                if (!(want instanceof PyStr))
                    throw r.fail("the expected " + cls + " state " + (turn < 0 ? whenText : whenText + turn)
                            + " (its sha) is missing or not a string");
                if (!want.asStr().equals(sha)) {
                    Value state = StateDump.renderState(w.state(variable));
                    String detail = "";
                    PyDict expectedState = expectedStates == null ? null : expectedStates.get();
                    if (expectedState != null
                            && expectedState.get(cls) instanceof PyDict es
                            && state instanceof PyDict got) {
                        detail = "; " + firstDifference(es, got);
                    } else if (state instanceof PyDict got) {
                        detail = "; state " + clip(StateDump.canonical(got));
                    }
                    return cls + " state " + (turn < 0 ? whenText : whenText + turn) + ": sha " + sha + ", expected "
                            + (want == null ? "none" : want.asStr()) + detail;
                }
            }
            return null;
        }

        private static String firstDifference(PyDict expected, PyDict got) {
            Set<String> keys = new LinkedHashSet<>(expected.keys());
            keys.addAll(got.keys());
            for (String k : keys) {
                Value e = expected.get(k), g = got.get(k);
                String et = e == null ? "absent" : StateDump.canonical(e),
                        gt = g == null ? "absent" : StateDump.canonical(g);
                if (!et.equals(gt)) return "attribute " + k + ": expected " + clip(et) + ", got " + clip(gt);
            }
            return "no attribute differs (hash input differs)";
        }
    }

    private static boolean resultMatches(Value expected, String got) {
        if (expected instanceof PyStr s) return s.value().equals(got);
        if (expected instanceof PyDict d && d.get("$sha") != null) {
            int len = got.codePointCount(0, got.length());
            return len > MAX_RESULT
                    && StateDump.sha16(got).equals(d.get("$sha").asStr())
                    && len == ((brokkr.value.PyInt) d.get("$len")).value().intValue();
        }
        return false;
    }

    private static String expectedText(Value expected) {
        return PyJson.dumps(expected);
    }

    static String clip(String s) {
        return s.length() <= 400 ? s : s.substring(0, 400) + "...(" + s.length() + " chars)";
    }
}
