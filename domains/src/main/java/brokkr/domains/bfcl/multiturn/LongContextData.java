package brokkr.domains.bfcl.multiturn;

import brokkr.domains.bfcl.BfclData;
import brokkr.python.PyException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The module-level values of upstream's {@code func_source_code/long_context.py} (the padding that
 * long-context tasks add: {@code CREDIT_CARD_EXTENSION}, {@code MA_5_EXTENSION}, {@code PARKING_BRAKE_INSTRUCTION},
 * ...), as Python objects of {@code brokkr.python.PyObjects}' model, read from the upstream file and
 * verified against its pinned SHA-256. The file is a list of {@code NAME = <literal>} assignments (str,
 * int, float, bool, None, Ellipsis, list, dict), evaluated with {@link PyLiterals}; it is read, never copied into the project.
 *
 * <p>Location: the system property {@code brokkr.bfcl.long_context}, else the environment variable
 * {@code BROKKR_BFCL_LONG_CONTEXT}, else {@code ../eval_checker/multi_turn_eval/func_source_code/long_context.py}
 * beside the BFCL data directory ({@link BfclData#locate()}), i.e. where it lies in a gorilla checkout.
 */
public final class LongContextData {
    /** sha256 of long_context.py at gorilla 6ea5797 (190,330 bytes). */
    public static final String SHA256 = "5c9a5710115609c779e5b2ccb43f6ad58271ed96f2ea7a797edb0d65c385aa38";
    static final String UPSTREAM_PATH = "berkeley-function-call-leaderboard/bfcl_eval/eval_checker/multi_turn_eval/func_source_code/long_context.py";

    private static volatile LongContextData loaded;

    private final Path file;
    private final Map<String, Object> values;

    private LongContextData(Path file, Map<String, Object> values) {
        this.file = file;
        this.values = values;
    }

    /** The values from the file documented on the class (read once per process). */
    public static LongContextData get() {
        LongContextData d = loaded;
        if (d == null) {
            synchronized (LongContextData.class) {
                if (loaded == null) loaded = load(locate());
                d = loaded;
            }
        }
        return d;
    }

    public static Path locate() {
        String p = System.getProperty("brokkr.bfcl.long_context");
        if (p == null || p.isBlank()) p = System.getenv("BROKKR_BFCL_LONG_CONTEXT");
        if (p != null && !p.isBlank()) return Path.of(p);
        Path data = BfclData.locate();
        return data.resolveSibling("eval_checker").resolve("multi_turn_eval").resolve("func_source_code").resolve("long_context.py");
    }

    /** Reads and verifies {@code file}. */
    public static LongContextData load(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BfclData.BfclDataException("BFCL long-context data " + file + " cannot be read (" + e.getMessage()
                    + "); it is upstream's " + UPSTREAM_PATH + " at gorilla " + BfclData.UPSTREAM_COMMIT
                    + " (set -Dbrokkr.bfcl.long_context=FILE or BROKKR_BFCL_LONG_CONTEXT)", e);
        }
        String actual = sha256(bytes);
        if (!actual.equals(SHA256)) {
            throw new BfclData.BfclDataException("BFCL long-context data " + file + " has sha256 " + actual + ", expected " + SHA256);
        }
        try {
            return new LongContextData(file, module(new String(bytes, StandardCharsets.UTF_8)));
        } catch (IllegalArgumentException e) {
            throw new BfclData.BfclDataException("BFCL long-context data " + file + " is malformed: " + e.getMessage(), e);
        }
    }

    public Path file() { return file; }

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
            return PyLiterals.eval(rhs.strip());
        } catch (PyException e) {
            throw new IllegalArgumentException(name + ": " + e.pyType() + ": " + e.str(), e);
        }
    }
}
