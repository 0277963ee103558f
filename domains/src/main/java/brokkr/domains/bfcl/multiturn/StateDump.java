package brokkr.domains.bfcl.multiturn;

import brokkr.python.PyJson;
import brokkr.python.PyObjects;
import brokkr.python.PySet;
import brokkr.python.PyStrings;
import brokkr.python.PyTuple;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The canonical state dump of the conformance corpora (README "Canonical state dump"): {@code R(x)}
 * renders a Python object as a JSON-like value ({@code $float}, {@code $tuple}, {@code $map},
 * {@code $set}, {@code $frozenset}, {@code $repr}, and {@link StateNode}s' own forms); the canonical
 * text is {@code json.dumps(R, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)};
 * a hash is the first 16 hex digits of its SHA-256.
 */
public final class StateDump {
    private StateDump() {}

    private static final PyJson.DumpOptions CANONICAL =
            PyJson.DumpOptions.COMPACT.withSortKeys(true).withAllowNan(false);

    /** {@code R(x)}. */
    public static Value render(Object o) {
        return switch (o) {
            case PyNone n -> PyNone.NONE;
            case Boolean b -> PyBool.of(b);
            case BigInteger i -> new PyInt(i);
            case Double d ->
                Double.isFinite(d) ? new PyFloat(d) : PyDict.of("$float", d.isNaN() ? "nan" : d > 0 ? "inf" : "-inf");
            case String s -> new PyStr(s);
            case List<?> l -> {
                List<Value> items = new ArrayList<>(l.size());
                for (Object x : l) items.add(render(x));
                yield PyList.of(items);
            }
            case PyTuple t -> {
                List<Value> items = new ArrayList<>(t.size());
                for (Object x : t.items()) items.add(render(x));
                yield PyDict.of("$tuple", PyList.of(items));
            }
            case Map<?, ?> m -> {
                boolean allStr = true;
                for (Object k : m.keySet())
                    if (!(k instanceof String)) {
                        allStr = false;
                        break;
                    }
                if (allStr) {
                    PyDict.Builder b = PyDict.builder();
                    for (Map.Entry<?, ?> e : m.entrySet()) b.put((String) e.getKey(), render(e.getValue()));
                    yield b.build();
                }
                List<Value[]> pairs = new ArrayList<>();
                for (Map.Entry<?, ?> e : m.entrySet())
                    pairs.add(new Value[] {render(e.getKey()), render(e.getValue())});
                List<String> keyTexts = new ArrayList<>();
                pairs.sort(Comparator.comparing((Value[] p) -> canonical(p[0]), PyStrings::compare));
                List<Value> rows = new ArrayList<>();
                for (Value[] p : pairs) rows.add(PyList.of(p[0], p[1]));
                yield PyDict.of("$map", PyList.of(rows));
            }
            case PySet s -> {
                List<Value> items = new ArrayList<>();
                for (Object x : s.members()) items.add(render(x));
                items.sort(Comparator.comparing(StateDump::canonical, PyStrings::compare));
                yield PyDict.of(s.frozen() ? "$frozenset" : "$set", PyList.of(items));
            }
            case StateNode node -> node.render();
            case PyObjects.Custom c -> PyDict.of("$repr", c.pyRepr(), "$type", c.pyTypeName());
            default ->
                throw new IllegalArgumentException(
                        "not a Python object: " + o.getClass().getName());
        };
    }

    /** The canonical text of a rendering. */
    public static String canonical(Value rendered) {
        return PyJson.dumps(rendered, CANONICAL);
    }

    /** The rendering of an instance's state: {@code {attr: R(value)}}. */
    public static Value renderState(Map<String, Object> state) {
        PyDict.Builder b = PyDict.builder();
        for (Map.Entry<String, Object> e : state.entrySet()) b.put(e.getKey(), render(e.getValue()));
        return b.build();
    }

    /**
     * {@code sha(renderState(world.state(variable)))}, remembered for the instance and globals objects it was worked
     * out for: both are immutable and a call that only reads returns the same objects, so a class a turn did not
     * change (and every task's pristine world, which is made once per process) is not rendered and hashed again.
     */
    public static String stateSha(World world, String variable) {
        Backend instance = world.instance(variable);
        if (instance == null) throw new IllegalArgumentException("no instance " + variable);
        Identity key = new Identity(instance, world.globals());
        synchronized (STATE_SHAS) {
            String sha = STATE_SHAS.get(key);
            if (sha != null) return sha;
        }
        String sha = sha(renderState(world.state(variable)));
        synchronized (STATE_SHAS) {
            STATE_SHAS.put(key, sha);
        }
        return sha;
    }

    static void forgetStateShas() {
        synchronized (STATE_SHAS) {
            STATE_SHAS.clear();
        }
    }

    /** An instance and the globals it was seen with, compared by identity. */
    private record Identity(Backend instance, Globals globals) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Identity i && i.instance == instance && i.globals == globals;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(instance) * 31 + System.identityHashCode(globals);
        }
    }

    /** The most recently used hashes (a bound on the worlds it keeps alive). */
    private static final int STATE_SHAS_KEPT = 4096;

    private static final Map<Identity, String> STATE_SHAS = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Identity, String> eldest) {
            return size() > STATE_SHAS_KEPT;
        }
    };

    /** First 16 hex digits of SHA-256 over the canonical text. */
    public static String sha(Value rendered) {
        return sha16(canonical(rendered));
    }

    public static String sha16(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
