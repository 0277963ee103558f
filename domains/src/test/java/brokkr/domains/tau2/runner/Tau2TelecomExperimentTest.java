package brokkr.domains.tau2.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.telecom.TelecomBenchmark;
import brokkr.eval.Exploration;
import brokkr.eval.ToolWorld;
import brokkr.experiment.Registry;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What is telecom's own on the experiment path (gold, stop and world replay of every domain: Tau2DomainsExperimentTest). */
class Tau2TelecomExperimentTest {
    @TempDir
    Path tmp;

    /** Telecom has no full split (upstream's tasks_full.json is not part of the pinned data); the error names the file. */
    @Test
    void theFullSplitIsNotPinned() {
        var b = new TelecomBenchmark();
        IllegalArgumentException full = assertThrows(IllegalArgumentException.class, () -> b.tasks("full"));
        assertTrue(full.getMessage().contains("tasks_full.json"), full.getMessage());
    }

    @Test
    void exploringTelecomForksBothWorlds() {
        Exploration x =
                Registry.load().benchmarks().get("tau2-telecom").exploration().orElseThrow();
        assertEquals(114, x.summary().tasks());
        assertEquals(13, x.summary().tools().size());
        ToolWorld pristine = x.fork(null);
        ToolWorld.Step step = pristine.call("get_customer_by_id", PyDict.of("customer_id", "C1001"));
        assertTrue(
                step.result().content().startsWith("{\"customer_id\": \"C1001\", \"full_name\": \"John Smith\""),
                step.result().content());
        PyDict state = pristine.state().asDict();
        assertEquals(List.of("db", "user_db", "session"), List.copyOf(state.keys()));
        assertEquals(state, step.after().state(), "a read leaves both worlds as they were");
    }
}
