package brokkr.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
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
                hashes.eq(row.get("h").asStr(), Long.toString(PyHash.hash(v)), PyObjects.repr(v));
            } else {
                List<Object> members = decodeAll(row.get("set").asList());
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
        assertEquals("['first', 'business', 'economy']", PyObjects.repr(PySetOrder.order(List.of("economy", "business", "first"))));
        assertThrows(IllegalArgumentException.class, () -> PyHash.hash(Double.NaN));
        PyException e = assertThrows(PyException.class, () -> PyHash.hash(PyObjects.list("a")));
        assertEquals("unhashable type: 'list'", e.str());
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
