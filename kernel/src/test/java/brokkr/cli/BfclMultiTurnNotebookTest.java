package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.magics.CallOutcome;
import brokkr.magics.DomainSummary;
import brokkr.magics.ForkView;
import brokkr.magics.RunView;
import brokkr.magics.Session;
import brokkr.magics.TaskView;
import brokkr.magics.WorldDiff;
import brokkr.value.Value;
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
        assertTrue(t.goldActions().getFirst().startsWith("turn 0: "), t.goldActions().toString());
        ForkView f = (ForkView) session.magic("%fork multi_turn_base_50");
        assertEquals(t.initialWorldHash(), f.worldHash());
        assertTrue(f.tools().contains("lockDoors"), f.tools().toString());
        CallOutcome unlock = (CallOutcome) session.magic("%call lockDoors {\"unlock\": true, \"door\": [\"driver\"]}");
        assertEquals("{\"lockStatus\": \"unlocked\", \"remainingUnlockedDoors\": 1}", unlock.content());
        assertFalse(unlock.error());
        List<String> changed = unlock.changes().stream().map(WorldDiff.Change::path).toList();
        assertTrue(changed.stream().anyMatch(p -> p.contains("doorStatus") && p.contains("driver")), changed.toString());
        // A bad door name: upstream's KeyError, the door changed before it stays changed.
        CallOutcome bad = (CallOutcome) session.magic("%call lockDoors {\"unlock\": true, \"door\": [\"passenger\", \"trunk\"]}");
        assertEquals("Error during execution: 'trunk'", bad.content());
        assertTrue(bad.error());
        assertTrue(bad.changes().stream().anyMatch(c -> c.path().contains("passenger") && Value.of("unlocked").equals(c.after())),
                bad.changes().toString());
        // a new fork starts afresh
        session.magic("%fork multi_turn_base_50");
        CallOutcome again = (CallOutcome) session.magic("%call lockDoors {\"unlock\": true, \"door\": [\"driver\"]}");
        assertEquals(unlock.content(), again.content());
    }

    @Test
    void runTheScriptedReferenceCandidate() throws Exception {
        session.magic("%domain load bfcl-multi-turn");
        RunView r = (RunView) session.magic("%run --candidate gold --task multi_turn_base_50");
        assertEquals(1.0, r.reward(), r.text());
        assertTrue(r.passed(), r.text());
    }
}
