package brokkr.world;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class PathsTest {
    private final Value world = Json.parse("{\"orders\": {\"#W1\": {\"status\": \"pending\", \"items\": [{\"price\": 1.5}, {\"price\": 2}]},"
            + " \"#W2\": {\"status\": \"delivered\", \"items\": []}}, \"users\": {\"u\": {\"orders\": [\"#W1\"]}}}");

    @Test
    void getIn() {
        assertEquals(new PyStr("pending"), Paths.getIn(world, "orders", "#W1", "status"));
        assertEquals(PyInt.of(2), Paths.getIn(world, "orders", "#W1", "items", -1, "price"));
        assertSame(world, Paths.getIn(world));
        assertNull(Paths.getIn(world, "orders", "#W9", "status"), "a missing key reads as null, like PyDict.get");
        assertThrows(IndexOutOfBoundsException.class, () -> Paths.getIn(world, "orders", "#W2", "items", 0));
        assertThrows(ClassCastException.class, () -> Paths.getIn(world, "orders", "#W1", "status", "x"));
        assertThrows(IllegalArgumentException.class, () -> Paths.getIn(world, "orders", 1.5));
    }

    @Test
    void assocInSharesUntouchedNodesAndLeavesTheOriginal() {
        Value next = Paths.assocIn(world, new PyStr("cancelled"), "orders", "#W1", "status");
        assertEquals(new PyStr("cancelled"), Paths.getIn(next, "orders", "#W1", "status"));
        assertEquals(new PyStr("pending"), Paths.getIn(world, "orders", "#W1", "status"));
        assertSame(Paths.getIn(world, "users"), Paths.getIn(next, "users"));
        assertSame(Paths.getIn(world, "orders", "#W2"), Paths.getIn(next, "orders", "#W2"));
        assertSame(Paths.getIn(world, "orders", "#W1", "items"), Paths.getIn(next, "orders", "#W1", "items"));
        assertEquals(PyJson.dumps(world).replace("pending", "cancelled"), PyJson.dumps(next), "key order is kept");
    }

    @Test
    void assocInMayAddOnlyTheLastKey() {
        Value next = Paths.assocIn(world, new PyStr("r"), "orders", "#W2", "reason");
        assertEquals("{\"status\": \"delivered\", \"items\": [], \"reason\": \"r\"}", PyJson.dumps(Paths.getIn(next, "orders", "#W2")));
        assertThrows(NoSuchElementException.class, () -> Paths.assocIn(world, new PyStr("r"), "orders", "#W9", "reason"));
        assertThrows(IndexOutOfBoundsException.class, () -> Paths.assocIn(world, PyInt.of(1), "orders", "#W2", "items", 0));
        assertSame(PyInt.of(7), Paths.assocIn(world, PyInt.of(7)));
    }

    @Test
    void updateIn() {
        Value next = Paths.updateIn(world, v -> PyInt.of(((PyInt) v).longValue() * 10), "orders", "#W1", "items", 1, "price");
        assertEquals(PyInt.of(20), Paths.getIn(next, "orders", "#W1", "items", 1, "price"));
        Value appended = Paths.updateIn(world, v -> v.asList().plus(new PyStr("#W2")), "users", "u", "orders");
        assertEquals("[\"#W1\", \"#W2\"]", PyJson.dumps(Paths.getIn(appended, "users", "u", "orders")));
        assertThrows(NoSuchElementException.class, () -> Paths.updateIn(world, v -> v, "orders", "#W1", "reason"));
    }

    @Test
    void dissocIn() {
        Value next = Paths.dissocIn(world, "orders", "#W1");
        assertEquals("[\"#W2\"]", PyJson.dumps(Value.of(new java.util.ArrayList<>(Paths.getIn(next, "orders").asDict().keys()))));
        Value fewer = Paths.dissocIn(world, "orders", "#W1", "items", 0);
        assertEquals("[{\"price\": 2}]", PyJson.dumps(Paths.getIn(fewer, "orders", "#W1", "items")));
        assertThrows(NoSuchElementException.class, () -> Paths.dissocIn(world, "orders", "#W9"));
        assertThrows(IllegalArgumentException.class, () -> Paths.dissocIn(world));
    }
}
