package brokkr.world;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class ValuePathsTest {
    private final Value world = Json.parse(
            "{\"orders\": {\"#W1\": {\"status\": \"pending\", \"items\": [{\"price\": 1.5}, {\"price\": 2}]},"
                    + " \"#W2\": {\"status\": \"delivered\", \"items\": []}}, \"users\": {\"u\": {\"orders\": [\"#W1\"]}}}");

    @Test
    void getIn() {
        assertEquals(new PyStr("pending"), ValuePaths.getIn(world, "orders", "#W1", "status"));
        assertEquals(PyInt.of(2), ValuePaths.getIn(world, "orders", "#W1", "items", -1, "price"));
        assertSame(world, ValuePaths.getIn(world));
        assertNull(ValuePaths.getIn(world, "orders", "#W9", "status"), "a missing key reads as null, like PyDict.get");
        assertThrows(IndexOutOfBoundsException.class, () -> ValuePaths.getIn(world, "orders", "#W2", "items", 0));
        assertThrows(ClassCastException.class, () -> ValuePaths.getIn(world, "orders", "#W1", "status", "x"));
        assertThrows(IllegalArgumentException.class, () -> ValuePaths.getIn(world, "orders", 1.5));
    }

    @Test
    void assocInSharesUntouchedNodesAndLeavesTheOriginal() {
        Value next = ValuePaths.assocIn(world, new PyStr("cancelled"), "orders", "#W1", "status");
        assertEquals(new PyStr("cancelled"), ValuePaths.getIn(next, "orders", "#W1", "status"));
        assertEquals(new PyStr("pending"), ValuePaths.getIn(world, "orders", "#W1", "status"));
        assertSame(ValuePaths.getIn(world, "users"), ValuePaths.getIn(next, "users"));
        assertSame(ValuePaths.getIn(world, "orders", "#W2"), ValuePaths.getIn(next, "orders", "#W2"));
        assertSame(ValuePaths.getIn(world, "orders", "#W1", "items"), ValuePaths.getIn(next, "orders", "#W1", "items"));
        assertEquals(PyJson.dumps(world).replace("pending", "cancelled"), PyJson.dumps(next), "key order is kept");
    }

    @Test
    void assocInMayAddOnlyTheLastKey() {
        Value next = ValuePaths.assocIn(world, new PyStr("r"), "orders", "#W2", "reason");
        assertEquals(
                "{\"status\": \"delivered\", \"items\": [], \"reason\": \"r\"}",
                PyJson.dumps(ValuePaths.getIn(next, "orders", "#W2")));
        assertThrows(
                NoSuchElementException.class,
                () -> ValuePaths.assocIn(world, new PyStr("r"), "orders", "#W9", "reason"));
        assertThrows(
                IndexOutOfBoundsException.class,
                () -> ValuePaths.assocIn(world, PyInt.of(1), "orders", "#W2", "items", 0));
        assertSame(PyInt.of(7), ValuePaths.assocIn(world, PyInt.of(7)));
    }

    @Test
    void updateIn() {
        Value next = ValuePaths.updateIn(
                world, v -> PyInt.of(((PyInt) v).longValue() * 10), "orders", "#W1", "items", 1, "price");
        assertEquals(PyInt.of(20), ValuePaths.getIn(next, "orders", "#W1", "items", 1, "price"));
        Value appended = ValuePaths.updateIn(world, v -> v.asList().plus(new PyStr("#W2")), "users", "u", "orders");
        assertEquals("[\"#W1\", \"#W2\"]", PyJson.dumps(ValuePaths.getIn(appended, "users", "u", "orders")));
        assertThrows(NoSuchElementException.class, () -> ValuePaths.updateIn(world, v -> v, "orders", "#W1", "reason"));
    }

    @Test
    void dissocIn() {
        Value next = ValuePaths.dissocIn(world, "orders", "#W1");
        assertEquals(
                "[\"#W2\"]",
                PyJson.dumps(Value.of(new java.util.ArrayList<>(
                        ValuePaths.getIn(next, "orders").asDict().keys()))));
        Value fewer = ValuePaths.dissocIn(world, "orders", "#W1", "items", 0);
        assertEquals("[{\"price\": 2}]", PyJson.dumps(ValuePaths.getIn(fewer, "orders", "#W1", "items")));
        assertThrows(NoSuchElementException.class, () -> ValuePaths.dissocIn(world, "orders", "#W9"));
        assertThrows(IllegalArgumentException.class, () -> ValuePaths.dissocIn(world));
    }
}
