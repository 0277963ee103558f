package brokkr.value;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.python.PyJson;
import org.junit.jupiter.api.Test;

class ValueTest {
    @Test
    void dictKeepsInsertionOrderLikePython() {
        PyDict d = PyDict.of("b", 1, "a", 2, "c", 3);
        assertEquals("{\"b\": 1, \"a\": 2, \"c\": 3}", PyJson.dumps(d));
        assertEquals("{\"b\": 9, \"a\": 2, \"c\": 3}", PyJson.dumps(d.with("b", PyInt.of(9))), "replacing keeps position");
        assertEquals("{\"a\": 2, \"c\": 3, \"b\": 1}", PyJson.dumps(d.without("b").with("b", PyInt.of(1))), "re-adding moves to the end");
        assertEquals("{\"a\": 2, \"b\": 1, \"c\": 3}", PyJson.dumps(d, PyJson.DumpOptions.SORTED));
    }

    @Test
    void forkSharesAndDoesNotDisturbTheOriginal() {
        PyDict world = PyDict.of("orders", PyDict.of("#1", PyDict.of("status", "pending")));
        PyDict fork = world.with("orders", world.get("orders").asDict().with("#1", PyDict.of("status", "cancelled")));
        assertEquals("pending", world.get("orders").asDict().get("#1").asDict().get("status").asStr());
        assertEquals("cancelled", fork.get("orders").asDict().get("#1").asDict().get("status").asStr());
    }

    @Test
    void jsonKeepsIntVersusFloat() {
        Value v = Json.parse("{\"a\": 1, \"b\": 1.0, \"c\": 1e5, \"d\": 123456789012345678901234567890, \"e\": [true, null, NaN]}");
        PyDict d = v.asDict();
        assertInstanceOf(PyInt.class, d.get("a"));
        assertInstanceOf(PyFloat.class, d.get("b"));
        assertEquals(new PyFloat(100000.0), d.get("c"));
        assertEquals("{\"a\": 1, \"b\": 1.0, \"c\": 100000.0, \"d\": 123456789012345678901234567890, \"e\": [true, null, NaN]}",
                PyJson.dumps(v));
    }

    @Test
    void repeatedKeyKeepsFirstPositionAndLastValue() {
        assertEquals("{\"a\": 3, \"b\": 2}", PyJson.dumps(Json.parse("{\"a\":1,\"b\":2,\"a\":3}")));
    }

    @Test
    void membershipIsALookupAndValuesAreNeverJavaNull() {
        PyDict.Builder b = PyDict.builder();
        for (int i = 0; i < 2000; i++) b.put("#W" + i, PyDict.of("i", i));
        PyDict orders = b.build().with("none", PyNone.NONE).without("#W7");
        assertTrue(orders.containsKey("#W1999"));
        assertTrue(orders.containsKey("none"), "a key holding None is present");
        assertFalse(orders.containsKey("#W7"));
        assertFalse(orders.containsKey("#W2000"));
        assertSame(orders, orders.without("#W7"), "removing an absent key is no change");
        assertThrows(NullPointerException.class, () -> orders.with("x", (Value) null));
        assertThrows(NullPointerException.class, () -> PyDict.builder().put("x", (Value) null));
    }
}
