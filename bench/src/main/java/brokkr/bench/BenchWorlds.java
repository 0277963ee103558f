package brokkr.bench;

import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import brokkr.world.ValuePaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The benchmark's worlds and its random updates. A world is a tau2 domain's {@code db.json} read as the
 * domain reads it: from the tau2 data directory of the one data-directory rule ({@link Tau2Data#locate()}:
 * {@code -Dbrokkr.tau2.data}, {@code BROKKR_TAU2_DATA}, else {@code shared/upstream/tau2-bench} beside the
 * project) and checked against the sha256 the domain pins, so a benchmark never measures other data than
 * the domain runs on.
 */
final class BenchWorlds {
    private BenchWorlds() {}

    /** A domain's pinned db file in a located data directory. */
    record Db(String domain, Tau2Data data, String path, String sha256) {
        /** The file's bytes, digest-checked, as a world value (what the domain's load starts from). */
        Value load() {
            return Json.read(data.read(path, sha256));
        }

        Path file() {
            return data.root().resolve(path);
        }
    }

    private static String dbPath(String domain) {
        return "data/tau2/domains/" + domain + "/db.json";
    }

    /** The registered tau2 domains whose world is a pinned {@code db.json}, sorted. */
    static List<String> domains() {
        return Tau2Domains.all().stream()
                .filter(b -> b.dataDigests().containsKey(dbPath(b.domainName())))
                .map(Tau2Benchmark::domainName)
                .toList();
    }

    /** {@code domain}'s db; IllegalArgumentException naming the domains that have one. */
    static Db db(String domain) {
        for (Tau2Benchmark b : Tau2Domains.all()) {
            String pin = b.dataDigests().get(dbPath(domain));
            if (b.domainName().equals(domain) && pin != null)
                return new Db(domain, Tau2Data.locate(), dbPath(domain), pin);
        }
        throw new IllegalArgumentException(
                "no tau2 domain '" + domain + "' with a db.json (available: " + String.join(", ", domains()) + ")");
    }

    /** One update: a path to a leaf field of a random record (an order, a user, a product ...) and its new value. */
    record Update(Object[] path, Value value) {
        Value applyTo(Value world) {
            return ValuePaths.assocIn(world, value, path);
        }
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
