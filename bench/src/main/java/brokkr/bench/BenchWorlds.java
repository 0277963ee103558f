package brokkr.bench;

import brokkr.world.ValuePaths;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** The benchmark's worlds (tau2 db.json files) and its random updates. */
final class BenchWorlds {
    private BenchWorlds() {}

    /** {@code shared/upstream/tau2-bench/data/tau2/domains/DOMAIN/db.json}, beside the project root. */
    static Path db(String domain) {
        Path rel = Path.of("shared", "upstream", "tau2-bench", "data", "tau2", "domains", domain, "db.json");
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(rel))) return dir.resolve(rel);
        }
        throw new IllegalStateException("no " + rel + " beside the project root (run from inside the project)");
    }

    /** One update: a path to a leaf field of a random record (an order, a user, a product ...) and its new value. */
    record Update(Object[] path, Value value) {
        Value applyTo(Value world) { return ValuePaths.assocIn(world, value, path); }
    }

    /**
     * A random update: pick a table of the db ({@code orders}, {@code users}, ...), a random record in
     * it, then random keys/indexes down to a leaf, and change that leaf.
     */
    static Update randomUpdate(Value world, Random rnd) {
        while (true) {
            List<Object> path = new ArrayList<>();
            Value cur = world;
            while (cur instanceof PyDict || cur instanceof PyList) {
                if (cur instanceof PyDict d) {
                    if (d.isEmpty()) break;
                    String k = nth(d, rnd.nextInt(d.size()));
                    path.add(k);
                    cur = d.get(k);
                } else {
                    PyList l = (PyList) cur;
                    if (l.isEmpty()) break;
                    int i = rnd.nextInt(l.size());
                    path.add(i);
                    cur = l.get(i);
                }
            }
            Value next = switch (cur) {
                case PyStr s -> new PyStr(s.value() + "*");
                case PyInt i -> PyInt.of(i.fitsLong() ? i.longValue() + 1 : 0);
                case PyFloat f -> new PyFloat(f.value() + 0.01);
                case PyBool b -> PyBool.of(!b.value());
                default -> null; // an empty container or None: pick another path
            };
            if (next != null && path.size() >= 3) return new Update(path.toArray(), next);
        }
    }

    private static String nth(PyDict d, int n) {
        int i = 0;
        for (String k : d.keys()) if (i++ == n) return k;
        throw new AssertionError();
    }

    /** A structurally equal world sharing no container with {@code v} (so carrying no memos): Python's deepcopy. */
    static Value deepCopy(Value v) {
        return switch (v) {
            case PyDict d -> {
                PyDict.Builder b = PyDict.builder();
                for (Map.Entry<String, Value> e : d.entries()) b.put(e.getKey(), deepCopy(e.getValue()));
                yield b.build();
            }
            case PyList l -> {
                List<Value> items = new ArrayList<>(l.size());
                for (Value x : l) items.add(deepCopy(x));
                yield PyList.of(items);
            }
            default -> v;
        };
    }
}
