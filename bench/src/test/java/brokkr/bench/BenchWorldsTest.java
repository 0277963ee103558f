package brokkr.bench;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import brokkr.world.ValuePaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchWorldsTest {
    private final Value world = brokkr.value.Json.parse(
            "{\"orders\": {\"#W1\": {\"status\": \"pending\", \"items\": [{\"price\": 1.5, \"ok\": true}], \"none\": null, \"e\": {}},"
                    + " \"#W2\": {\"status\": \"delivered\", \"n\": 3}}, \"users\": {\"u\": {\"name\": \"x\"}}}");

    @Test
    void aRandomUpdateChangesOneLeafOfOneRecord() {
        Random rnd = new Random(3);
        for (int i = 0; i < 200; i++) {
            BenchWorlds.Update u = BenchWorlds.randomUpdate(world, rnd);
            assertTrue(u.path().length >= 3, "table, record, field");
            Value old = ValuePaths.getIn(world, u.path());
            assertNotNull(old);
            assertFalse(old instanceof PyDict || old instanceof PyList || old.isNone());
            assertNotEquals(old, u.value());
            Value next = u.applyTo(world);
            assertEquals(u.value(), ValuePaths.getIn(next, u.path()));
            assertEquals(
                    PyJson.dumps(world).length(),
                    PyJson.dumps(ValuePaths.assocIn(next, old, u.path())).length());
        }
    }

    @Test
    void aDeepCopyIsEqualAndSharesNoContainer() {
        Value copy = BenchWorlds.deepCopy(world);
        assertEquals(world, copy);
        assertNotSame(world, copy);
        assertNotSame(ValuePaths.getIn(world, "orders", "#W1"), ValuePaths.getIn(copy, "orders", "#W1"));
        assertNotSame(
                ValuePaths.getIn(world, "orders", "#W1", "items"), ValuePaths.getIn(copy, "orders", "#W1", "items"));
    }

    /**
     * Issue 10 item 17: bench world reads the dbs by the data-directory rule every command follows and
     * checks the domains' pinned digests (it walked up to shared/ on its own and read whatever was there).
     */
    @Test
    void dbsFollowTheDataDirectoryRuleAndTheirPins(@TempDir Path dir) throws Exception {
        assertTrue(
                BenchWorlds.domains().containsAll(List.of("airline", "retail")),
                BenchWorlds.domains().toString());
        assertTrue(BenchWorlds.db("retail").load() instanceof PyDict d && d.containsKey("orders"));
        Path changed =
                Files.createDirectories(dir.resolve("data/tau2/domains/retail")).resolve("db.json");
        Files.writeString(changed, "{\"orders\": {}, \"products\": {}, \"users\": {}}");
        String before = System.getProperty("brokkr.tau2.data");
        System.setProperty("brokkr.tau2.data", dir.toString());
        try {
            BenchWorlds.Db db = BenchWorlds.db("retail");
            assertEquals(changed, db.file(), "the directory the property names");
            Tau2Data.Tau2DataException e = assertThrows(Tau2Data.Tau2DataException.class, db::load);
            assertTrue(
                    e.getMessage().contains(changed.toString())
                            && e.getMessage().contains("expected (pinned) 413a6516"),
                    e.getMessage());
            assertThrows(
                    Tau2Data.Tau2DataException.class,
                    () -> WorldBench.run(List.of("--no-jmh", "--db", "retail"), System.out),
                    "refused before anything is measured");
            java.io.UncheckedIOException missing = assertThrows(
                    java.io.UncheckedIOException.class,
                    () -> WorldBench.run(List.of("--no-jmh", "--db", "airline"), System.out),
                    "a directory without the file");
            assertTrue(
                    missing.getMessage()
                            .contains(dir.resolve("data/tau2/domains/airline/db.json")
                                    .toString()),
                    missing.getMessage());
        } finally {
            if (before == null) System.clearProperty("brokkr.tau2.data");
            else System.setProperty("brokkr.tau2.data", before);
        }
        assertThrows(IllegalArgumentException.class, () -> BenchWorlds.db("nowhere"));
        for (List<String> bad :
                List.of(List.of("--db"), List.of("--db", "nowhere"), List.of("--only"), List.of("--fast"))) {
            assertThrows(IllegalArgumentException.class, () -> WorldBench.run(bad, System.out), bad.toString());
        }
    }
}
