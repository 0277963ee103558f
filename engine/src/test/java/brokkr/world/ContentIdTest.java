package brokkr.world;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContentIdTest {
    @Test
    void matchesPythonsCanonicalJson() {
        // python3: v = {"name": ..., "b": [...], "a": {...}, "big": ...}
        //   hashlib.sha256(json.dumps(v, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
        Value v = Json.parse("{\"name\": \"get_order_details\", \"b\": [1, 1.0, -0.0, 1e-07, 1e+22, true, null, "
                + "\"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\\\ \\n\\t\\u0001\\u007f\"], \"a\": {\"z\": 1, \"y\": {\"x\": []}, \"w\": {}}, "
                + "\"big\": 123456789012345678901234567890}");
        assertEquals(
                "d0c1c7d005c829d31b998da8159f8a1f04011bae6cf97049e45a66996074ae53",
                ContentId.of(v).hex());
    }

    @Test
    void retailDbHasPythonsContentId() {
        // python3: hashlib.sha256(json.dumps(json.load(open(p)), sort_keys=True, separators=(",",
        // ":")).encode()).hexdigest()
        assertEquals(
                "f08162ba14d2d3ce9ebe4ebc0fa3cd4bdc2876eaaf9d3411802cdba96ea1f41a",
                ContentId.of(Json.read(SharedData.tau2Db("retail"))).hex());
    }

    @Test
    void dictOrderDoesNotMatterAtAnyDepth() {
        RandomWorlds gen = new RandomWorlds(7);
        for (int i = 0; i < 50; i++) {
            Value v = gen.value(5, 6);
            Value shuffled = shuffle(v, gen);
            assertEquals(ContentId.of(v), ContentId.of(shuffled));
        }
        assertEquals(
                ContentId.of(Json.parse("{\"a\": 1, \"b\": {\"c\": 2, \"d\": 3}}")),
                ContentId.of(Json.parse("{\"b\": {\"d\": 3, \"c\": 2}, \"a\": 1}")));
    }

    @Test
    void listOrderTypesAndValuesDoMatter() {
        List<Value> distinct = List.of(
                Json.parse("[1, 2]"),
                Json.parse("[2, 1]"),
                PyInt.of(1),
                new PyFloat(1.0),
                Json.parse("true"),
                Json.parse("\"1\""),
                Json.parse("null"),
                Json.parse("{}"),
                Json.parse("[]"),
                Json.parse("{\"a\": 1}"),
                Json.parse("{\"a\": [1]}"),
                Json.parse("{\"A\": 1}"),
                new PyFloat(-0.0),
                new PyFloat(0.0));
        List<ContentId> ids = distinct.stream().map(ContentId::of).toList();
        assertEquals(ids.size(), ids.stream().distinct().count(), ids.toString());
    }

    @Test
    void isStableAndHasAShortForm() {
        Value v = PyDict.of("tool", "cancel_pending_order", "params", List.of("order_id", "reason"));
        ContentId a = ContentId.of(v),
                b =
                        ContentId.of(Json.parse(
                                "{\"params\": [\"order_id\", \"reason\"], \"tool\": \"cancel_pending_order\"}"));
        assertEquals(a, b);
        assertEquals(a.hex(), a.toString());
        assertEquals(ContentId.SHORT_LENGTH, a.shortForm().length());
        assertTrue(a.hex().startsWith(a.shortForm()));
        assertEquals(a, new ContentId(a.hex()));
        assertThrows(IllegalArgumentException.class, () -> new ContentId("abc"));
        assertThrows(IllegalArgumentException.class, () -> new ContentId(a.hex().toUpperCase()));
    }

    @Test
    void doesNotTouchTheHashMemos() {
        PyDict v = PyDict.of("a", PyDict.of("b", 1));
        ContentId.of(v);
        assertNull(v.memo(0));
        assertNull(v.memo(1));
    }

    private static Value shuffle(Value v, RandomWorlds gen) {
        return switch (v) {
            case PyDict d -> {
                List<Map.Entry<String, Value>> entries = new ArrayList<>(d.entries());
                Collections.shuffle(entries, gen.random());
                PyDict.Builder b = PyDict.builder();
                for (Map.Entry<String, Value> e : entries) b.put(e.getKey(), shuffle(e.getValue(), gen));
                yield b.build();
            }
            case PyList l -> PyList.of(l.stream().map(x -> shuffle(x, gen)).toList());
            default -> v;
        };
    }
}
