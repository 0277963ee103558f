package brokkr.domains.bfcl.multiturn;

import brokkr.domains.bfcl.BfclData;
import brokkr.python.PyJson;
import brokkr.python.PyObjects;
import brokkr.python.PyTuple;
import brokkr.value.PyNone;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The tool that writes Brokkr's transcription {@link LongContextData#RESOURCE} from upstream's long_context.py
 * (gorilla at {@link BfclData#UPSTREAM_COMMIT}, {@value LongContextData#UPSTREAM_PATH}), in the encoding documented on
 * {@link LongContextData}: the file's values are read with the project's own {@link PyLiterals} (through
 * {@link LongContextData#load}, which verifies the file's sha256), never copied as source.
 *
 * <p>Run (from the worktree root, after {@code mvn -o -q -B test-compile}):
 * <pre>java -cp "$(cat domains/target/cp.txt):domains/target/classes:domains/target/test-classes:engine/target/classes" \
 *   brokkr.domains.bfcl.multiturn.LongContextResource /path/to/long_context.py \
 *   domains/src/main/resources/brokkr/domains/bfcl/multiturn/long_context.json</pre>
 * ({@code cp.txt} from {@code mvn -o -q -pl domains dependency:build-classpath -Dmdep.outputFile=target/cp.txt});
 * it prints the written file's sha256, which {@link LongContextData#RESOURCE_SHA256} pins.
 */
public final class LongContextResource {
    private LongContextResource() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: LongContextResource LONG_CONTEXT_PY OUT_JSON");
            System.exit(2);
        }
        byte[] out = encode(LongContextData.load(Path.of(args[0])).values()).getBytes(StandardCharsets.UTF_8);
        Files.write(Path.of(args[1]), out);
        System.out.println(args[1] + " sha256 " + LongContextDataTest.sha256(out));
    }

    /** The resource text for {@code values} (ASCII, one module global per line). */
    static String encode(Map<String, Object> values) {
        StringBuilder sb = new StringBuilder("{\"provenance\": {");
        sb.append("\"repository\": \"https://github.com/ShishirPatil/gorilla\", \"commit\": \"")
                .append(BfclData.UPSTREAM_COMMIT)
                .append("\", \"path\": \"")
                .append(LongContextData.UPSTREAM_PATH)
                .append("\", \"sha256\": \"")
                .append(LongContextData.SHA256)
                .append(
                        "\", \"license\": \"Apache-2.0\", \"note\": \"the module-level values of the upstream file, "
                                + "read with brokkr's PyLiterals and written by brokkr.domains.bfcl.multiturn.LongContextResource (domains test scope)\"},\n");
        sb.append(
                "\"encoding\": \"JSON; float as repr(x); None as null; dict keys are str in insertion order; "
                        + "{\\\"$python\\\": \\\"Ellipsis\\\"} is Ellipsis; {\\\"$python\\\": \\\"tuple\\\", \\\"items\\\": [...]} is a tuple\",\n");
        sb.append("\"values\": {");
        boolean first = true;
        for (Map.Entry<String, Object> e : values.entrySet()) {
            sb.append(first ? "\n" : ",\n");
            first = false;
            str(e.getKey(), sb);
            sb.append(": ");
            value(e.getValue(), sb);
        }
        return sb.append("\n}}\n").toString();
    }

    private static void value(Object o, StringBuilder sb) {
        switch (o) {
            case PyNone n -> sb.append("null");
            case Boolean b -> sb.append(b);
            case BigInteger i -> sb.append(i);
            case Double d -> {
                if (d.isNaN() || d.isInfinite())
                    throw new IllegalArgumentException("non-finite float " + d + " has no JSON form here");
                sb.append(PyJson.floatJson(d));
            }
            case String s -> str(s, sb);
            case PyTuple t -> {
                sb.append("{\"").append(LongContextData.PYTHON_ONLY).append("\": \"tuple\", \"items\": ");
                array(t.items(), sb);
                sb.append('}');
            }
            case List<?> l -> array(l, sb);
            case Map<?, ?> m -> {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!(e.getKey() instanceof String k))
                        throw new IllegalArgumentException("dict key " + PyObjects.repr(e.getKey()) + " is not a str");
                    if (k.equals(LongContextData.PYTHON_ONLY))
                        throw new IllegalArgumentException("dict key " + k + " is reserved by the encoding");
                    if (!first) sb.append(", ");
                    first = false;
                    str(k, sb);
                    sb.append(": ");
                    value(e.getValue(), sb);
                }
                sb.append('}');
            }
            default -> {
                if (o != PyObjects.ELLIPSIS)
                    throw new IllegalArgumentException("no encoding for a " + PyObjects.typeName(o));
                sb.append("{\"").append(LongContextData.PYTHON_ONLY).append("\": \"Ellipsis\"}");
            }
        }
    }

    private static void str(String s, StringBuilder sb) {
        try {
            PyJson.writeString(s, true, sb);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void array(List<?> items, StringBuilder sb) {
        sb.append('[');
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) sb.append(", ");
            value(items.get(i), sb);
        }
        sb.append(']');
    }
}
