package brokkr.domains.bfcl.multiturn;

import brokkr.domains.bfcl.BfclData;
import brokkr.value.PyNone;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;
import org.pcollections.TreePVector;

/**
 * The module-level values of upstream's {@code func_source_code/long_context.py} (the padding that
 * long-context tasks add: {@code CREDIT_CARD_EXTENSION}, {@code MA_5_EXTENSION}, {@code PARKING_BRAKE_INSTRUCTION},
 * ...), as Python objects of {@code brokkr.python.PyObjects}' model, read from the upstream file and
 * verified against its pinned SHA-256. The file is a list of {@code NAME = <literal>} assignments (str,
 * int, float, bool, None, list, dict); it is read, never copied into the project.
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
            return new LongContextData(file, new Reader(new String(bytes, StandardCharsets.UTF_8)).module());
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

    /** The literal subset long_context.py uses: assignments of str/int/float/bool/None/list/dict displays. */
    private static final class Reader {
        private final String s;
        private int i;

        Reader(String s) { this.s = s; }

        Map<String, Object> module() {
            Map<String, Object> out = new LinkedHashMap<>();
            while (true) {
                skipSpace(true);
                if (i >= s.length()) return out;
                int start = i;
                while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) i++;
                String name = s.substring(start, i);
                if (name.isEmpty()) throw error("a name");
                skipSpace(false);
                expect('=');
                out.put(name, value());
            }
        }

        private Object value() {
            skipSpace(true);
            if (i >= s.length()) throw error("a value");
            char c = s.charAt(i);
            if (c == '[') {
                i++;
                List<Object> items = new ArrayList<>();
                while (true) {
                    skipSpace(true);
                    if (peek(']')) { i++; return TreePVector.from(items); }
                    items.add(value());
                    skipSpace(true);
                    if (peek(',')) i++;
                    else { expect(']'); return TreePVector.from(items); }
                }
            }
            if (c == '{') {
                i++;
                OrderedPMap<Object, Object> m = OrderedPMap.empty();
                while (true) {
                    skipSpace(true);
                    if (peek('}')) { i++; return m; }
                    Object k = value();
                    skipSpace(true);
                    expect(':');
                    m = m.plus(k, value());
                    skipSpace(true);
                    if (peek(',')) i++;
                    else { expect('}'); return m; }
                }
            }
            if (c == '\'' || c == '"') {
                StringBuilder sb = new StringBuilder();
                do {
                    string(sb);
                    skipSpace(true);
                } while (i < s.length() && (s.charAt(i) == '\'' || s.charAt(i) == '"'));
                return sb.toString();
            }
            int start = i;
            while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || "._+-".indexOf(s.charAt(i)) >= 0)) i++;
            String word = s.substring(start, i);
            return switch (word) {
                case "True" -> Boolean.TRUE;
                case "False" -> Boolean.FALSE;
                case "None" -> PyNone.NONE;
                default -> {
                    String digits = word.replace("_", "");
                    if (digits.matches("-?\\d+")) yield new BigInteger(digits);
                    if (digits.matches("-?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) yield Double.parseDouble(digits);
                    throw error("a literal, not '" + word + "'");
                }
            };
        }

        /** A (possibly triple-quoted) string without prefix; long_context.py has no backslash escapes. */
        private void string(StringBuilder sb) {
            char q = s.charAt(i);
            boolean triple = s.startsWith(String.valueOf(q).repeat(3), i);
            String end = triple ? String.valueOf(q).repeat(3) : String.valueOf(q);
            i += end.length();
            int close = s.indexOf(end, i);
            if (close < 0) throw error("the end of a string");
            String body = s.substring(i, close);
            if (body.indexOf('\\') >= 0) throw error("no backslash escape (none occur in the pinned file)");
            if (!triple && body.indexOf('\n') >= 0) throw error("a one-line string");
            sb.append(body);
            i = close + end.length();
        }

        private void skipSpace(boolean newlines) {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == '#') {
                    while (i < s.length() && s.charAt(i) != '\n') i++;
                } else if (c == ' ' || c == '\t' || c == '\r' || (newlines && c == '\n')) {
                    i++;
                } else {
                    return;
                }
            }
        }

        private boolean peek(char c) { return i < s.length() && s.charAt(i) == c; }

        private void expect(char c) {
            if (!peek(c)) throw error("'" + c + "'");
            i++;
        }

        private IllegalArgumentException error(String expected) {
            int line = 1;
            for (int k = 0; k < Math.min(i, s.length()); k++) if (s.charAt(k) == '\n') line++;
            return new IllegalArgumentException("expected " + expected + " at line " + line);
        }
    }
}
