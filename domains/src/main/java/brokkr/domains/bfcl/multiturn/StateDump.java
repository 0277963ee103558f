package brokkr.domains.bfcl.multiturn;

import brokkr.python.PyFloats;
import brokkr.python.PyInts;
import brokkr.python.PyJson;
import brokkr.python.PyObjects;
import brokkr.python.PySet;
import brokkr.python.PyStrings;
import brokkr.python.PyTuple;
import brokkr.python.TextMemo;
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
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
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
                if (allKeysStr(m)) {
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

    /**
     * {@code canonical(render(o))}, written straight from the Python object: no rendering is built, and the text of
     * a persistent container is remembered ({@link TextMemo}), so a state's subtree that a call left as it was is not
     * written again when the state is hashed after the next call.
     */
    public static String canonicalText(Object o) {
        StringBuilder sb = new StringBuilder(256);
        writeCanonical(o, sb);
        return sb.toString();
    }

    /** Canonical texts of persistent containers (see {@link #canonicalText}). */
    private static final TextMemo CANONICAL_TEXTS = new TextMemo(1 << 15, 48);

    /** Appends {@code canonical(render(o))} to {@code sb}. */
    public static void writeCanonical(Object o, StringBuilder sb) {
        if (!TextMemo.remembers(o)) {
            writeCanonicalOf(o, sb);
            return;
        }
        String known = CANONICAL_TEXTS.get(o);
        if (known != null) {
            sb.append(known);
            return;
        }
        int start = sb.length();
        writeCanonicalOf(o, sb);
        CANONICAL_TEXTS.put(o, sb, start);
    }

    /** {@link #render}'s cases, each written as {@link #CANONICAL} writes its rendering. */
    private static void writeCanonicalOf(Object o, StringBuilder sb) {
        switch (o) {
            case PyNone n -> sb.append("null");
            case Boolean b -> sb.append(b ? "true" : "false");
            case BigInteger i -> sb.append(PyInts.toDecimal(i));
            case Double d -> {
                if (Double.isFinite(d)) PyFloats.appendRepr(d, sb);
                else
                    sb.append(
                            d.isNaN()
                                    ? "{\"$float\":\"nan\"}"
                                    : d > 0 ? "{\"$float\":\"inf\"}" : "{\"$float\":\"-inf\"}");
            }
            case String s -> string(s, sb);
            case List<?> l -> array(l, sb);
            case PyTuple t -> {
                sb.append("{\"$tuple\":");
                array(t.items(), sb);
                sb.append('}');
            }
            case Map<?, ?> m -> {
                if (allKeysStr(m)) {
                    int n = m.size();
                    if (n == 0) {
                        sb.append("{}");
                        return;
                    }
                    Map.Entry<?, ?>[] entries = m.entrySet().toArray(new Map.Entry<?, ?>[n]);
                    if (n > 1)
                        Arrays.sort(entries, (a, b) -> PyStrings.compare((String) a.getKey(), (String) b.getKey()));
                    sb.append('{');
                    for (int i = 0; i < n; i++) {
                        if (i > 0) sb.append(',');
                        string((String) entries[i].getKey(), sb);
                        sb.append(':');
                        writeCanonical(entries[i].getValue(), sb);
                    }
                    sb.append('}');
                    return;
                }
                // {"$map": [[R(k), R(v)], ...]} by the canonical text of R(k)
                List<String[]> pairs = new ArrayList<>(m.size());
                for (Map.Entry<?, ?> e : m.entrySet())
                    pairs.add(new String[] {canonicalText(e.getKey()), canonicalText(e.getValue())});
                pairs.sort((a, b) -> PyStrings.compare(a[0], b[0]));
                sb.append("{\"$map\":[");
                for (int i = 0; i < pairs.size(); i++) {
                    if (i > 0) sb.append(',');
                    sb.append('[')
                            .append(pairs.get(i)[0])
                            .append(',')
                            .append(pairs.get(i)[1])
                            .append(']');
                }
                sb.append("]}");
            }
            case PySet s -> {
                List<String> items = new ArrayList<>(s.size());
                for (Object x : s.members()) items.add(canonicalText(x));
                items.sort(PyStrings::compare);
                sb.append(s.frozen() ? "{\"$frozenset\":[" : "{\"$set\":[");
                for (int i = 0; i < items.size(); i++) {
                    if (i > 0) sb.append(',');
                    sb.append(items.get(i));
                }
                sb.append("]}");
            }
            case StateNode node -> node.writeCanonical(sb);
            case PyObjects.Custom c -> {
                sb.append("{\"$repr\":");
                string(c.pyRepr(), sb);
                sb.append(",\"$type\":");
                string(c.pyTypeName(), sb);
                sb.append('}');
            }
            default ->
                throw new IllegalArgumentException(
                        "not a Python object: " + o.getClass().getName());
        }
    }

    private static void array(List<?> l, StringBuilder sb) {
        sb.append('[');
        boolean first = true;
        for (Object x : l) {
            if (!first) sb.append(',');
            first = false;
            writeCanonical(x, sb);
        }
        sb.append(']');
    }

    /** A str as the canonical text writes it ({@code ensure_ascii=True}). */
    public static void string(String s, StringBuilder sb) {
        try {
            PyJson.writeString(s, true, sb);
        } catch (java.io.IOException e) {
            throw new AssertionError(e); // StringBuilder does not throw
        }
    }

    /** The rendering of an instance's state: {@code {attr: R(value)}}. */
    public static Value renderState(Map<String, Object> state) {
        PyDict.Builder b = PyDict.builder();
        for (Map.Entry<String, Object> e : state.entrySet()) b.put(e.getKey(), render(e.getValue()));
        return b.build();
    }

    /** {@code canonical(renderState(state))}, written straight from the state ({@link #canonicalText}). */
    public static String stateText(Map<String, Object> state) {
        StringBuilder sb = new StringBuilder(1024);
        writeCanonicalOf(state, sb); // a state map is made anew for each look: not worth remembering
        return sb.toString();
    }

    /**
     * {@code sha(renderState(world.state(variable)))}, remembered for the instance and globals objects it was worked
     * out for: both are immutable and a call that only reads returns the same objects, so a class a turn did not
     * change (and every task's pristine world, which is made once per process) is not rendered and hashed again.
     */
    public static String stateSha(World world, String variable) {
        Backend instance = world.instance(variable);
        if (instance == null) throw new IllegalArgumentException("no instance " + variable);
        Globals globals = world.globals();
        int slot = (System.identityHashCode(instance) * 31 + System.identityHashCode(globals)) & (STATE_SHAS_KEPT - 1);
        KnownSha known = STATE_SHAS[slot];
        if (known != null && known.instance == instance && known.globals == globals) return known.sha;
        String sha = sha16(stateText(world.state(variable)));
        STATE_SHAS[slot] = new KnownSha(instance, globals, sha);
        return sha;
    }

    static void forgetStateShas() {
        Arrays.fill(STATE_SHAS, null);
        CANONICAL_TEXTS.clear();
        for (Runnable forget : FORGET) forget.run();
    }

    private static final List<Runnable> FORGET = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Registers a memo of canonical texts kept elsewhere (a backend's own nodes), forgotten with this class's. */
    public static void forgetWithStateShas(Runnable forget) {
        FORGET.add(forget);
    }

    /** A state's hash and the instance and globals objects it was worked out for (compared by identity). */
    private record KnownSha(Backend instance, Globals globals, String sha) {}

    /**
     * Remembered hashes, direct-mapped on the two objects' identity hashes (a power of two): a look-up is an array
     * read with no lock (both workers of a corpus check hash states all the time; the former synchronized
     * access-ordered map serialised them), a miss replaces the slot, and the bound is the worlds it keeps alive.
     */
    private static final int STATE_SHAS_KEPT = 8192;

    private static final KnownSha[] STATE_SHAS = new KnownSha[STATE_SHAS_KEPT];

    /** First 16 hex digits of SHA-256 over the canonical text. */
    public static String sha(Value rendered) {
        return sha16(canonical(rendered));
    }

    public static String sha16(String text) {
        byte[] d = SHA256.get().digest(text.getBytes(StandardCharsets.UTF_8)); // digest() resets it for the next use
        return HEX.formatHex(d, 0, 8);
    }

    private static final HexFormat HEX = HexFormat.of();

    /** One digest per thread: {@code MessageDigest.getInstance} looks the provider up on every call. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    /** A dict whose keys are all {@code str} renders as an object; any other key makes it a {@code $map}. */
    private static boolean allKeysStr(Map<?, ?> m) {
        for (Object k : m.keySet()) if (!(k instanceof String)) return false;
        return true;
    }
}
