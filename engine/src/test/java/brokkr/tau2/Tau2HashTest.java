package brokkr.tau2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The memoized, checkpointed DB hash equals sha256(json.dumps(v, sort_keys=True)) computed from scratch. */
class Tau2HashTest {
    static String reference(Value v) {
        return Tau2Data.sha256Hex(PyJson.dumps(v, PyJson.DumpOptions.SORTED).getBytes(StandardCharsets.UTF_8));
    }

    static PyDict world(Random r) {
        PyDict.Builder root = PyDict.builder();
        for (String table : List.of("zeta", "alpha", "mid")) {
            PyDict.Builder t = PyDict.builder();
            for (int i = 0; i < 400; i++) {
                String k = "#" + table.charAt(0) + (r.nextInt(1_000_000) + 1000);
                t.put(k, PyDict.of("id", k, "price", new PyFloat(r.nextInt(100000) / 100.0),
                        "tags", PyList.of(new PyStr("x" + r.nextInt(9)), new PyStr("é\u2028\"q")), "big", "y".repeat(r.nextInt(200))));
            }
            root.put(table, t.build());
        }
        root.put("small", PyDict.of("a", 1, "b", List.of(1, 2.5, "z")));
        return root.build();
    }

    @Test
    void matchesFromScratchAcrossBranches() {
        Random r = new Random(7);
        PyDict base = world(r);
        assertEquals(reference(base), Tau2Hash.hash(base));
        List<PyDict> branches = new ArrayList<>(List.of(base, base, base));
        for (int step = 0; step < 150; step++) {
            int b = r.nextInt(branches.size());
            PyDict w = branches.get(b);
            String table = List.of("zeta", "alpha", "mid").get(r.nextInt(3));
            PyDict t = w.get(table).asDict();
            List<String> keys = new ArrayList<>(t.keys());
            String k = keys.get(r.nextInt(keys.size()));
            PyDict next = switch (r.nextInt(4)) {
                case 0 -> w.with(table, t.with(k, t.get(k).asDict().with("price", new PyFloat(r.nextDouble()))));
                case 1 -> w.with(table, t.without(k));
                case 2 -> w.with(table, t.with("#new" + step, PyDict.of("id", "n")));
                default -> w.with("small", PyDict.of("a", step));
            };
            branches.set(b, next);
            assertEquals(reference(next), Tau2Hash.hash(next), "step " + step);
            if (r.nextInt(5) == 0) assertEquals(reference(base), Tau2Hash.hash(base));
        }
    }

    @Test
    void smallWorlds() {
        for (Value v : List.of(PyDict.empty(), PyList.empty(), PyDict.of("b", 1, "a", List.of()), new PyStr("x"))) {
            assertEquals(reference(v), Tau2Hash.hash(v));
        }
    }
}
