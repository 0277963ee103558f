package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Exploration;
import brokkr.eval.ToolWorld;
import brokkr.experiment.Registry;
import brokkr.magics.DomainSummary;
import brokkr.magics.Session;
import brokkr.magics.view.CallOutcome;
import brokkr.magics.view.ForkView;
import brokkr.magics.view.RunView;
import brokkr.magics.view.TaskView;
import brokkr.value.PyDict;
import brokkr.value.Value;
import brokkr.world.WorldDiff;
import brokkr.world.WorldHash;
import java.util.List;
import org.junit.jupiter.api.Test;

/** bfcl-multi-turn in the notebook session: %domain load, %task, %fork a task's world, %call a backend method with the world diff. */
class BfclMultiTurnNotebookTest {
    private final Session session = new Session();

    @Test
    void exploreForkAndCall() throws Exception {
        DomainSummary s = (DomainSummary) session.magic("%domain load bfcl-multi-turn");
        assertEquals(800, s.tasks());
        TaskView t = (TaskView) session.magic("%task multi_turn_base_50");
        assertTrue(
                t.goldActions().getFirst().startsWith("turn 0: "),
                t.goldActions().toString());
        ForkView f = (ForkView) session.magic("%fork multi_turn_base_50");
        assertEquals(t.initialWorldHash(), f.worldHash());
        assertTrue(f.tools().contains("lockDoors"), f.tools().toString());
        CallOutcome unlock = (CallOutcome) session.magic("%call lockDoors {\"unlock\": true, \"door\": [\"driver\"]}");
        assertEquals("{\"lockStatus\": \"unlocked\", \"remainingUnlockedDoors\": 1}", unlock.content());
        assertFalse(unlock.error());
        List<String> changed =
                unlock.changes().stream().map(WorldDiff.Change::path).toList();
        assertTrue(
                changed.stream().anyMatch(p -> p.contains("doorStatus") && p.contains("driver")), changed.toString());
        // A bad door name: upstream's KeyError, the door changed before it stays changed.
        CallOutcome bad =
                (CallOutcome) session.magic("%call lockDoors {\"unlock\": true, \"door\": [\"passenger\", \"trunk\"]}");
        assertEquals("Error during execution: 'trunk'", bad.content());
        assertTrue(bad.error());
        assertTrue(
                bad.changes().stream()
                        .anyMatch(c -> c.path().contains("passenger")
                                && Value.of("unlocked").equals(c.after())),
                bad.changes().toString());
        // a new fork starts afresh
        session.magic("%fork multi_turn_base_50");
        CallOutcome again = (CallOutcome) session.magic("%call lockDoors {\"unlock\": true, \"door\": [\"driver\"]}");
        assertEquals(unlock.content(), again.content());
    }

    /**
     * {@code %run} under the loop harnesses: the ground truth batched through Brokkr's loop and written as Java
     * through the REPL (its held-out function revealed as a method at its turn) passes upstream's checker.
     */
    @Test
    void runUnderTheLoopHarnesses() throws Exception {
        session.magic("%domain load bfcl-multi-turn");
        RunView loop = (RunView) session.magic("%run --candidate gold --task multi_turn_miss_func_0 --harness loop");
        assertEquals(1.0, loop.reward(), loop.resultLine());
        RunView repl = (RunView)
                session.magic("%run --candidate gold --task multi_turn_miss_func_0 --harness loop --action-space repl");
        assertEquals(1.0, repl.reward(), repl.resultLine());
        String dialogue = repl.dialogue().toString();
        assertTrue(dialogue.contains("java_eval") && dialogue.contains("cd(map(\"folder\", \"document\"))"), dialogue);
        assertTrue(dialogue.contains("## New functions (Java methods)\nString sort(String file_name)"), dialogue);
        assertEquals(
                loop.attempt().evidence().output().get("turns"),
                repl.attempt().evidence().output().get("turns"));
    }

    /**
     * Checkpoints at turn boundaries: TASK@K is the world after the ground truth's first K turns; @0 is the
     * initial world; each boundary's world is the one before it plus that turn's ground-truth calls.
     */
    @Test
    void forkAtATurnBoundary() throws Exception {
        session.magic("%domain load bfcl-multi-turn");
        TaskView t = (TaskView) session.magic("%task multi_turn_base_0");
        ForkView start = (ForkView) session.magic("%fork multi_turn_base_0@0");
        assertEquals(t.initialWorldHash(), start.worldHash());
        ForkView after1 = (ForkView) session.magic("%fork multi_turn_base_0@1");
        assertFalse(after1.worldHash().equals(start.worldHash()), "turn 0's ground truth changes the world");
        // The boundary after turn 0, reached by hand: the initial world plus turn 0's ground-truth calls, one call
        // each.
        Exploration x =
                Registry.load().benchmark("bfcl-multi-turn").exploration().orElseThrow();
        ToolWorld w = x.fork("multi_turn_base_0");
        int calls = 0;
        for (String g : t.goldActions()) {
            if (!g.startsWith("turn 0: ")) continue;
            String call = g.substring("turn 0: ".length());
            ToolWorld.Step step = w.call(call.substring(0, call.indexOf('(')), callArgs(call));
            assertFalse(step.result().error(), call + ": " + step.result());
            w = step.after();
            calls++;
        }
        assertEquals(3, calls, t.goldActions().toString());
        assertEquals(
                after1.worldHash(),
                WorldHash.sha256(w.state(), true),
                "TASK@1 is the world after turn 0's ground truth");
        int turns = (int) t.goldActions().stream()
                .map(g -> g.substring(0, g.indexOf(':')))
                .distinct()
                .count();
        ForkView end = (ForkView) session.magic("%fork multi_turn_base_0@" + turns);
        assertFalse(end.worldHash().equals(after1.worldHash()));
        Exception e = assertThrows(Exception.class, () -> session.magic("%fork multi_turn_base_0@" + (turns + 1)));
        assertTrue(e.getMessage().contains("a turn boundary of multi_turn_base_0 is 0.." + turns), e.getMessage());
    }

    /** {@code mv(source='a', destination='b')} as keyword arguments (the turn-0 calls of multi_turn_base_0 take str arguments). */
    private static PyDict callArgs(String call) {
        String inner = call.substring(call.indexOf('(') + 1, call.lastIndexOf(')'));
        PyDict.Builder b = PyDict.builder();
        for (String kv : inner.isBlank() ? new String[0] : inner.split(",\\s*(?=\\w+=)")) {
            String v = kv.substring(kv.indexOf('=') + 1).trim();
            b.put(kv.substring(0, kv.indexOf('=')).trim(), Value.of(v.substring(1, v.length() - 1)));
        }
        return b.build();
    }

    @Test
    void runTheScriptedReferenceCandidate() throws Exception {
        session.magic("%domain load bfcl-multi-turn");
        RunView r = (RunView) session.magic("%run --candidate gold --task multi_turn_base_50");
        assertEquals(1.0, r.reward(), r.text());
        assertTrue(r.passed(), r.text());
    }
}
