package brokkr.bench;

import brokkr.world.ValuePaths;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.Random;
import org.junit.jupiter.api.Test;

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
            assertEquals(PyJson.dumps(world).length(), PyJson.dumps(ValuePaths.assocIn(next, old, u.path())).length());
        }
    }

    @Test
    void aDeepCopyIsEqualAndSharesNoContainer() {
        Value copy = BenchWorlds.deepCopy(world);
        assertEquals(world, copy);
        assertNotSame(world, copy);
        assertNotSame(ValuePaths.getIn(world, "orders", "#W1"), ValuePaths.getIn(copy, "orders", "#W1"));
        assertNotSame(ValuePaths.getIn(world, "orders", "#W1", "items"), ValuePaths.getIn(copy, "orders", "#W1", "items"));
    }
}
