package brokkr.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every hash and set order gen_hash_vectors.py recorded with CPython 3.11 under PYTHONHASHSEED=0. */
class PyHashTest {

    @Test
    void cpythonVectors() {
        Vectors.Check hashes = new Vectors.Check("hash (PYTHONHASHSEED=0)");
        Vectors.Check orders = new Vectors.Check("set iteration order");
        for (PyDict row : Vectors.read("hash.jsonl")) {
            if (row.containsKey("hash")) {
                Object v = decode(row.get("hash"));
                hashes.eq(row.get("h").asStr(), Long.toString(PyHash.hash(v).getAsLong()), PyObjects.repr(v));
            } else {
                // PySetOrder takes distinct members (a PySet's); adding a duplicate leaves CPython's table unchanged.
                List<Object> members = new ArrayList<>();
                for (Object m : decodeAll(row.get("set").asList())) {
                    if (members.stream().noneMatch(x -> PyObjects.eq(x, m))) members.add(m);
                }
                orders.eq(PyObjects.repr(decodeAll(row.get("order").asList())), PyObjects.repr(PySetOrder.order(members)),
                        PyObjects.repr(members));
            }
        }
        hashes.finish();
        orders.finish();
    }

    /** The text book_flight prints for {"economy", "business", "first"} (travel_booking.py), and the refused hashes. */
    @Test
    void knownOrdersAndRefusals() {
        assertEquals("['first', 'business', 'economy']", PyObjects.repr(PySetOrder.order(List.<Object>of("economy", "business", "first"))));
        // Address-based in CPython 3.11 (no reproducible value) or unhashable: no hash.
        assertTrue(PyHash.hash(Double.NaN).isEmpty());
        assertTrue(PyHash.hash(PyNone.NONE).isEmpty());
        assertTrue(PyHash.hash(PyObjects.list("a")).isEmpty());
    }

    private static List<Object> decodeAll(PyList l) {
        List<Object> out = new ArrayList<>();
        for (Value v : l) out.add(decode(v));
        return out;
    }

    private static Object decode(Value v) {
        return switch (v) {
            case PyStr s -> s.value();
            case PyBool b -> b.value();
            case PyDict d when d.containsKey("i") -> new BigInteger(d.get("i").asStr());
            case PyDict d when d.containsKey("f") -> Vectors.parseHex(d.get("f").asStr());
            case PyDict d when d.containsKey("t") -> new PyTuple(decodeAll(d.get("t").asList()));
            default -> throw new IllegalArgumentException(v.toString());
        };
    }
}
