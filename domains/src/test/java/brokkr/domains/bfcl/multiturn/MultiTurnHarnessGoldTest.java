package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.python.PyJson;
import brokkr.repl.Harness;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ground truth through both loop harnesses scores as the reference gold does on every bfcl-multi-turn task:
 * batched through the JSON tools ({@code harness: loop, action_space: tools}: each turn's calls in one model step)
 * and written as Java through the REPL ({@code action_space: repl}: each turn's calls one snippet of recorder
 * method calls). Per task the reward, the recorded trajectory (turns, steps, call strings) and the final world's
 * hash equal the reference's, so the checker graded the very calls upstream's loop records.
 */
@Tag("proof") // ./test runs the long proofs beside the other tests (the tag selects them)
class MultiTurnHarnessGoldTest {
    @TempDir
    Path tmp;

    static ExperimentSpec.CandidateSpec loop() {
        return new ExperimentSpec.CandidateSpec(
                "gold-loop",
                new ModelRef("scripted", "gold"),
                "tools",
                null,
                Harness.of("loop", "tools", null, PyDict.empty()));
    }

    static ExperimentSpec.CandidateSpec repl() {
        return new ExperimentSpec.CandidateSpec(
                "gold-repl",
                new ModelRef("scripted", "gold"),
                "repl",
                null,
                Harness.of("loop", "repl", "shape", PyDict.empty()));
    }

    /**
     * Every task through the loop and through the REPL (a sandbox JVM per episode); {@code -Dbrokkr.harness.sample=true}
     * takes, for a quick local check, every 8th task through the REPL, which includes every category's first, and the
     * tasks with a turn of more calls than upstream's step limit (one snippet is one step).
     */
    static List<String> replTasks(List<String> all) {
        if (!Boolean.getBoolean("brokkr.harness.sample")) return all;
        MultiTurnData data = MultiTurnData.load();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            MultiTurnData.Task t = data.task(all.get(i));
            boolean longTurn =
                    t.groundTruth().stream().anyMatch(turn -> turn.size() > MultiTurnInference.MAXIMUM_STEP_LIMIT);
            if (i % 8 == 0 || longTurn || callsAHeldOutFunctionEarly(t)) out.add(all.get(i));
        }
        return out;
    }

    /** Whether the ground truth calls a held-out function before its turn (upstream's executor runs it; the REPL calls it by name). */
    static boolean callsAHeldOutFunctionEarly(MultiTurnData.Task t) {
        for (var e : t.missedFunction().entrySet()) {
            for (int turn = 0; turn < e.getKey(); turn++) {
                for (String call : t.groundTruth().get(turn))
                    if (e.getValue()
                            .contains(call.substring(0, call.indexOf('(')).strip())) return true;
            }
        }
        return false;
    }

    @Test
    void goldThroughTheLoopAndTheReplScoresAsTheReferenceGoldOnEveryTask() {
        List<String> all = Registry.load().benchmarks().get("bfcl-multi-turn").tasks("all");
        assertEquals(800, all.size());
        List<String> repl = replTasks(all);
        for (String c : MultiTurnData.CATEGORIES) assertTrue(repl.stream().anyMatch(id -> id.equals(c + "_0")), c);
        assertTrue(
                repl.contains("multi_turn_long_context_38") && repl.contains("multi_turn_long_context_46"),
                "34 calls in one turn");
        assertTrue(repl.contains("multi_turn_miss_func_49"), "tail called two turns before it is offered");
        var reference = new ExperimentSpec.CandidateSpec("gold", new ModelRef("scripted", "gold"), "reference", null);
        Map<String, Attempt> ref = run("reference", all, reference);
        Map<String, Attempt> loop = run("loop", all, loop());
        long t0 = System.nanoTime();
        Map<String, Attempt> java = run("repl", repl, repl());
        System.out.printf(
                "bfcl-multi-turn gold through the REPL: %d tasks in %d ms%n",
                repl.size(), (System.nanoTime() - t0) / 1_000_000);
        for (String id : all)
            assertEquals(
                    1.0,
                    ref.get(id).reward(),
                    "reference gold " + id + " " + ref.get(id).evidence().details());
        compare(ref, loop, all, "loop/tools");
        compare(ref, java, repl, "loop/repl");
    }

    private Map<String, Attempt> run(String name, List<String> tasks, ExperimentSpec.CandidateSpec c) {
        var spec = new ExperimentSpec(
                "mt-" + name,
                List.of(new ExperimentSpec.DomainSpec("bfcl-multi-turn", null, tasks)),
                List.of(c),
                1,
                2,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(300),
                false);
        var r = Experiments.run(spec, tmp.resolve(name), Registry.load());
        assertEquals(0, r.infrastructureFailures(), r.summary());
        assertEquals(tasks.size(), r.completed(), r.summary());
        Map<String, Attempt> out = new HashMap<>();
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve(name))) {
            for (Attempt a : store.attempts(true)) out.put(a.taskId(), a);
        }
        return out;
    }

    private static void compare(
            Map<String, Attempt> ref, Map<String, Attempt> got, List<String> tasks, String harness) {
        for (String id : tasks) {
            Attempt r = ref.get(id), a = got.get(id);
            assertEquals(
                    r.reward(),
                    a.reward(),
                    harness + " " + id + " " + a.evidence().details());
            assertEquals(
                    PyJson.dumps(r.evidence().output().get("turns")),
                    PyJson.dumps(a.evidence().output().get("turns")),
                    harness + " trajectory " + id);
            assertEquals(
                    r.evidence().finalWorldSha256(), a.evidence().finalWorldSha256(), harness + " final world " + id);
        }
    }
}
