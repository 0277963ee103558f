package brokkr.domains.bfcl.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Backend quirks of upstream's memory_kv / memory_rec_sum that a port must keep (conformance README). */
class MemoryBackendsTest {
    private static final String MODEL = "gpt-4.1-2025-04-14-FC";

    @Test
    void keyFormatIsReMatchWithDollarBeforeAFinalNewline() {
        assertTrue(MemoryAPI_kv.validKey("name"));
        assertTrue(MemoryAPI_kv.validKey("a_b1_c"));
        assertTrue(MemoryAPI_kv.validKey("name\n"));
        for (String bad : List.of("k1", "key_", "a__b", "clé", "", "Name", "name\n\n"))
            assertFalse(MemoryAPI_kv.validKey(bad), bad);
    }

    @Test
    void replacingTheEmptyTextInsertsAroundEveryCodePoint() {
        assertEquals("XaXbX", MemoryAPI_rec_sum.pyReplace("ab", "", "X"));
        assertEquals("X\uD83D\uDE00X", MemoryAPI_rec_sum.pyReplace("\uD83D\uDE00", "", "X"));
        assertEquals("X", MemoryAPI_rec_sum.pyReplace("", "", "X"));
    }

    @Test
    void aForkKeepsItsOwnMemoryAndSnapshotFiles() {
        MemoryRun run = MemoryRun.start("MemoryAPI_kv", "notetaker", MODEL).enter("memory_kv_prereq_32-notetaker-0");
        MemoryRun a = run.with(run.execute(List.of("core_memory_add(key='task',value='buy milk')"))
                        .world())
                .flush();
        MemoryRun b = run.with(run.execute(List.of("core_memory_add(key='task',value='call Jacob')"))
                        .world())
                .flush();
        String next = "memory_kv_prereq_33-notetaker-1";
        assertTrue(a.enter(next).instance().contextDump().contains("buy milk"));
        assertTrue(b.enter(next).instance().contextDump().contains("call Jacob"));
        assertFalse(b.enter(next).instance().contextDump().contains("buy milk"));
        assertEquals(
                "There is no content in the core memory at this point.",
                run.enter(next).instance().contextDump(),
                "the run before either flush has no snapshot file: the next entry starts empty");
    }

    @Test
    void keySearchOnAnEmptyMemoryDividesByZeroAndTiesKeepInsertionOrder() {
        MemoryRun run = MemoryRun.start("MemoryAPI_kv", "student", MODEL).enter("memory_kv_prereq_22-student-0");
        assertEquals(
                List.of("Error during execution: division by zero"),
                run.execute(List.of("core_memory_key_search(query='x')")).results());
        run = run.with(run.execute(
                        List.of("core_memory_add(key='b_note',value='1')", "core_memory_add(key='a_note',value='2')"))
                .world());
        assertEquals(
                List.of("{\"ranked_results\": [[0.0, \"b_note\"], [0.0, \"a_note\"]]}"),
                run.execute(List.of("core_memory_key_search(query='zzz')")).results());
        assertEquals(
                List.of("Error during execution: slice indices must be integers or None or have an __index__ method"),
                run.execute(List.of("core_memory_key_search(query='note',k='2')"))
                        .results());
    }
}
