package brokkr.domains.bfcl.multiturn;

import brokkr.domains.bfcl.BfclData;
import brokkr.python.ArrayVector;
import brokkr.python.PyException;
import brokkr.python.PyObjects;
import brokkr.python.PyTuple;
import brokkr.python.source.PyLiterals;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pcollections.OrderedPMap;

/**
 * The module-level values of upstream's {@code func_source_code/long_context.py} (the padding that
 * long-context tasks add: {@code CREDIT_CARD_EXTENSION}, {@code MA_5_EXTENSION}, {@code PARKING_BRAKE_INSTRUCTION},
 * ...), as Python objects of {@code brokkr.python.PyObjects}' model.
 *
 * <p>By default they come from Brokkr's transcription, the resource {@value #RESOURCE} beside this class
 * (written by the test-scope tool {@code LongContextResource} from the upstream file, whose sha256 it records;
 * the resource's own sha256 {@link #RESOURCE_SHA256} is verified on load). Its encoding: a JSON object
 * {@code {"provenance": {...}, "encoding": "...", "values": {NAME: value}}}; a value is JSON (str, int as an
 * integer literal, float as {@code repr(x)}, so {@code 1.0} stays a float, bool, None as {@code null}, list, dict
 * with str keys in insertion order), and a Python-only value is a one-key object {@code {"$python": ...}}:
 * {@code {"$python": "Ellipsis"}} (the last element of {@code WATCH_LIST_EXTENSION}) and
 * {@code {"$python": "tuple", "items": [...]}} (none at the pinned commit). No dict of the source has the key
 * {@code "$python"} (the tool refuses one).
 *
 * <p>To check against an upstream checkout, the system property {@code brokkr.bfcl.long_context} or the environment
 * variable {@code BROKKR_BFCL_LONG_CONTEXT} names a {@code long_context.py} instead: it is verified against its pinned
 * SHA-256 {@link #SHA256} and its {@code NAME = <literal>} assignments are evaluated with {@link PyLiterals}.
 */
public final class LongContextData {
    /** sha256 of long_context.py at gorilla 6ea5797 (190,330 bytes). */
    public static final String SHA256 = "5c9a5710115609c779e5b2ccb43f6ad58271ed96f2ea7a797edb0d65c385aa38";

    static final String UPSTREAM_PATH =
            "berkeley-function-call-leaderboard/bfcl_eval/eval_checker/multi_turn_eval/func_source_code/long_context.py";
    /** Brokkr's transcription of the upstream file (a classpath resource beside this class). */
    public static final String RESOURCE = "long_context.json";
    /** sha256 of {@link #RESOURCE}. */
    public static final String RESOURCE_SHA256 = "c4b98aa8805af9a9fec145837a722f8c21cfe14d25232ed63b6405b3046cc273";

    static final String PYTHON_ONLY = "$python";

    private static volatile LongContextData loaded;

    private final String source;
    private final Map<String, Object> values;

    private LongContextData(String source, Map<String, Object> values) {
        this.source = source;
        this.values = values;
    }

    /** The values (read once per process): the upstream file named by the override, else the resource. */
    public static LongContextData get() {
        LongContextData d = loaded;
        if (d == null) {
            synchronized (LongContextData.class) {
                if (loaded == null)
                    loaded = override().map(LongContextData::load).orElseGet(LongContextData::fromResource);
                d = loaded;
            }
        }
        return d;
    }

    /** The upstream long_context.py named by {@code -Dbrokkr.bfcl.long_context} or {@code BROKKR_BFCL_LONG_CONTEXT}, if any. */
    public static Optional<Path> override() {
        String p = System.getProperty("brokkr.bfcl.long_context");
        if (p == null || p.isBlank()) p = System.getenv("BROKKR_BFCL_LONG_CONTEXT");
        return p == null || p.isBlank() ? Optional.empty() : Optional.of(Path.of(p));
    }

    /** Reads and verifies the resource {@value #RESOURCE}. */
    public static LongContextData fromResource() {
        byte[] bytes;
        try (InputStream in = LongContextData.class.getResourceAsStream(RESOURCE)) {
            if (in == null)
                throw new BfclData.BfclDataException(
                        "BFCL long-context resource " + RESOURCE + " is missing from the classpath");
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new BfclData.BfclDataException(
                    "BFCL long-context resource " + RESOURCE + " cannot be read: " + e.getMessage(), e);
        }
        return fromResourceBytes(RESOURCE, bytes);
    }

    /** Verifies {@code bytes} (named {@code name} in errors) against {@link #RESOURCE_SHA256} and decodes them. */
    static LongContextData fromResourceBytes(String name, byte[] bytes) {
        String actual = sha256(bytes);
        if (!actual.equals(RESOURCE_SHA256)) {
            throw new BfclData.BfclDataException(
                    "BFCL long-context resource " + name + " has sha256 " + actual + ", expected " + RESOURCE_SHA256);
        }
        try {
            Map<String, Value> doc = Json.read(bytes).asDict().asMap();
            String from = doc.get("provenance").asDict().get("sha256").asStr();
            if (!from.equals(SHA256))
                throw new IllegalArgumentException("transcribes a source with sha256 " + from + ", expected " + SHA256);
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, Value> e : doc.get("values").asDict().entries())
                out.put(e.getKey(), decode(e.getValue()));
            return new LongContextData(name, out);
        } catch (RuntimeException e) {
            throw new BfclData.BfclDataException(
                    "BFCL long-context resource " + name + " is malformed: " + e.getMessage(), e);
        }
    }

    private static Object decode(Value v) {
        return switch (v) {
            case PyList l -> {
                List<Object> items = new ArrayList<>(l.size());
                for (Value item : l) items.add(decode(item));
                yield ArrayVector.from(items);
            }
            case PyDict d
            when d.containsKey(PYTHON_ONLY) ->
                switch (d.get(PYTHON_ONLY).asStr()) {
                    case "Ellipsis" -> PyObjects.ELLIPSIS;
                    case "tuple" -> {
                        List<Object> items = new ArrayList<>();
                        for (Value item : d.get("items").asList()) items.add(decode(item));
                        yield new PyTuple(items);
                    }
                    default -> throw new IllegalArgumentException("unknown Python-only value " + d);
                };
            case PyDict d -> {
                OrderedPMap<Object, Object> m = OrderedPMap.empty();
                for (Map.Entry<String, Value> e : d.entries()) m = m.plus(e.getKey(), decode(e.getValue()));
                yield m;
            }
            default -> PyObjects.fromValue(v);
        };
    }

    /** Reads and verifies an upstream long_context.py. */
    public static LongContextData load(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BfclData.BfclDataException(
                    "BFCL long-context data " + file + " cannot be read (" + e.getMessage()
                            + "); it is upstream's " + UPSTREAM_PATH + " at gorilla " + BfclData.UPSTREAM_COMMIT
                            + " (named by -Dbrokkr.bfcl.long_context=FILE or BROKKR_BFCL_LONG_CONTEXT)",
                    e);
        }
        String actual = sha256(bytes);
        if (!actual.equals(SHA256)) {
            throw new BfclData.BfclDataException(
                    "BFCL long-context data " + file + " has sha256 " + actual + ", expected " + SHA256);
        }
        try {
            return new LongContextData(file.toString(), module(new String(bytes, StandardCharsets.UTF_8)));
        } catch (IllegalArgumentException e) {
            throw new BfclData.BfclDataException(
                    "BFCL long-context data " + file + " is malformed: " + e.getMessage(), e);
        }
    }

    /** Where the values were read from (the resource's name or the upstream file's path). */
    public String source() {
        return source;
    }

    /** The module globals in the source's order. */
    public Map<String, Object> values() {
        return Collections.unmodifiableMap(values);
    }

    /** The module global {@code name}; an {@link IllegalArgumentException} naming it if the file has none. */
    public Object value(String name) {
        Object v = values.get(name);
        if (v == null) throw new IllegalArgumentException("long_context.py defines no " + name);
        return v;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The module's {@code NAME = <literal>} statements: each starts at the beginning of a line (continuation lines
     * of the multi-line dict displays are indented), and each right-hand side is evaluated with {@link PyLiterals}.
     */
    private static Map<String, Object> module(String source) {
        Map<String, Object> out = new LinkedHashMap<>();
        Matcher m = ASSIGNMENT.matcher(source);
        String name = null;
        int rhsStart = 0;
        while (m.find()) {
            if (name != null) out.put(name, eval(name, source.substring(rhsStart, m.start())));
            name = m.group(1);
            rhsStart = m.end();
        }
        if (name == null) throw new IllegalArgumentException("no NAME = value statement");
        out.put(name, eval(name, source.substring(rhsStart)));
        return out;
    }

    private static final Pattern ASSIGNMENT = Pattern.compile("(?m)^([A-Za-z_][A-Za-z0-9_]*)[ \\t]*=(?!=)");

    private static Object eval(String name, String rhs) {
        try {
            return PyLiterals.eval(rhs.strip(), BfclData.PYTHON);
        } catch (PyException e) {
            throw new IllegalArgumentException(name + ": " + e.pyType() + ": " + e.str(), e);
        }
    }
}
