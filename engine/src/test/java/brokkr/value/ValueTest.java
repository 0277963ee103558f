package brokkr.value;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.python.PyJson;
import brokkr.python.PyStrings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValueTest {
    @Test
    void dictKeepsInsertionOrderLikePython() {
        PyDict d = PyDict.of("b", 1, "a", 2, "c", 3);
        assertEquals("{\"b\": 1, \"a\": 2, \"c\": 3}", PyJson.dumps(d));
        assertEquals(
                "{\"b\": 9, \"a\": 2, \"c\": 3}", PyJson.dumps(d.with("b", PyInt.of(9))), "replacing keeps position");
        assertEquals(
                "{\"a\": 2, \"c\": 3, \"b\": 1}",
                PyJson.dumps(d.without("b").with("b", PyInt.of(1))),
                "re-adding moves to the end");
        assertEquals("{\"a\": 2, \"b\": 1, \"c\": 3}", PyJson.dumps(d, PyJson.DumpOptions.SORTED));
    }

    @Test
    void forkSharesAndDoesNotDisturbTheOriginal() {
        PyDict world = PyDict.of("orders", PyDict.of("#1", PyDict.of("status", "pending")));
        PyDict fork = world.with("orders", world.get("orders").asDict().with("#1", PyDict.of("status", "cancelled")));
        assertEquals(
                "pending",
                world.get("orders").asDict().get("#1").asDict().get("status").asStr());
        assertEquals(
                "cancelled",
                fork.get("orders").asDict().get("#1").asDict().get("status").asStr());
    }

    @Test
    void jsonKeepsIntVersusFloat() {
        Value v = Json.parse(
                "{\"a\": 1, \"b\": 1.0, \"c\": 1e5, \"d\": 123456789012345678901234567890, \"e\": [true, null, NaN]}");
        PyDict d = v.asDict();
        assertInstanceOf(PyInt.class, d.get("a"));
        assertInstanceOf(PyFloat.class, d.get("b"));
        assertEquals(new PyFloat(100000.0), d.get("c"));
        assertEquals(
                "{\"a\": 1, \"b\": 1.0, \"c\": 100000.0, \"d\": 123456789012345678901234567890, \"e\": [true, null, NaN]}",
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

    /**
     * The two forms (arrays up to SMALL_MAX keys, a persistent map beyond) against a LinkedHashMap model
     * with Python's dict order: random updates, removals and re-adds across the bound, equality and
     * hash codes across forms, and the versions before each step left as they were.
     */
    @Test
    void smallAndLargeFormsBehaveAsOnePythonDict() {
        java.util.Random r = new java.util.Random(11);
        for (int round = 0; round < 200; round++) {
            PyDict d = PyDict.empty();
            java.util.LinkedHashMap<String, Value> model = new java.util.LinkedHashMap<>();
            List<PyDict> versions = new java.util.ArrayList<>();
            List<String> texts = new java.util.ArrayList<>();
            for (int step = 0; step < 60; step++) {
                String k = "k" + r.nextInt(PyDict.SMALL_MAX + 6);
                if (r.nextInt(4) == 0) {
                    d = d.without(k);
                    model.remove(k);
                } else {
                    Value v = PyInt.of(r.nextInt(5));
                    d = d.with(k, v);
                    model.put(k, v); // LinkedHashMap keeps a replaced key's position, as dict does
                }
                assertEquals(model.size(), d.size());
                assertEquals(new java.util.ArrayList<>(model.keySet()), new java.util.ArrayList<>(d.keys()));
                for (String key : List.of("k0", "k3", "k" + (PyDict.SMALL_MAX + 2), "absent")) {
                    assertEquals(model.get(key), d.get(key));
                    assertEquals(model.containsKey(key), d.containsKey(key));
                }
                PyDict.Builder b = PyDict.builder(); // the same entries built afresh: small whenever they fit
                model.forEach(b::put);
                PyDict rebuilt = b.build();
                assertEquals(rebuilt, d);
                assertEquals(d, rebuilt);
                assertEquals(model.hashCode(), d.hashCode());
                assertEquals(rebuilt.hashCode(), d.hashCode());
                assertEquals(PyJson.dumps(rebuilt), PyJson.dumps(d));
                List<String> sortedKeys = new java.util.ArrayList<>(model.keySet());
                sortedKeys.sort(PyStrings.CODE_POINT_ORDER);
                Map.Entry<String, Value>[] sorted = d.sortedEntries(
                        PyStrings.CODE_POINT_ORDER); // cached per key set: values must be this version's
                assertEquals(
                        sortedKeys,
                        java.util.Arrays.stream(sorted).map(Map.Entry::getKey).toList());
                for (Map.Entry<String, Value> e : sorted) assertSame(model.get(e.getKey()), e.getValue());
                Map.Entry<String, Value>[] reversed = d.sortedEntries(java.util.Comparator.<String>reverseOrder());
                if (reversed.length > 1)
                    assertEquals(
                            sortedKeys.getLast(), reversed[0].getKey(), "another order is not served from the cache");
                versions.add(d);
                texts.add(PyJson.dumps(d));
            }
            for (int i = 0; i < versions.size(); i++)
                assertEquals(texts.get(i), PyJson.dumps(versions.get(i)), "an earlier version changed");
        }
        PyDict big = PyDict.empty();
        for (int i = 0; i < PyDict.SMALL_MAX + 1; i++) big = big.with("k" + i, PyInt.of(i));
        assertNotEquals(big, big.with("k0", PyInt.of(99)));
        assertNotEquals(big.without("k0"), big.without("k1"));
    }

    /** A large dict remembers the one replaced key it was made from, for incremental hashing; bounded chains, nothing else. */
    @Test
    void aLargeDictKnowsItsOriginOnlyForAReplacedKey() {
        PyDict.Builder b = PyDict.builder();
        for (int i = 0; i < 100; i++) b.put("#" + i, PyInt.of(i));
        PyDict table = b.build();
        PyDict once = table.with("#5", PyInt.of(-5));
        assertSame(table, once.origin());
        assertEquals("#5", once.changedKey());
        assertNull(table.with("#new", PyInt.of(0)).origin(), "a new key changes the key order: no origin");
        assertNull(table.without("#5").origin());
        assertNull(PyDict.of("a", 1).with("a", PyInt.of(2)).origin(), "small dicts keep no origin");
        PyDict chain = table;
        for (int i = 0; i < 20; i++) chain = chain.with("#" + i, PyInt.of(i + 1000));
        int depth = 0;
        for (PyDict x = chain; x.origin() != null; x = x.origin()) depth++;
        assertTrue(depth <= 8, "a chain of origins is bounded (retains few earlier versions): " + depth);
        once.dropOrigin();
        assertNull(once.origin());
        assertNull(once.changedKey());
        assertEquals(PyInt.of(-5), once.get("#5"), "dropping the hint changes nothing of the value");
    }
}
