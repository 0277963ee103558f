package brokkr.python;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;

/**
 * CPython's {@code json.loads(str)}: the same values and, for malformed text, the same
 * {@code JSONDecodeError} (message and position) as the C scanner that {@code json.loads} runs
 * (Modules/_json.c scan_once_unicode, _parse_object_unicode, _parse_array_unicode,
 * _match_number_unicode, scanstring_unicode; Lib/json/decoder.py JSONDecoder.decode/raw_decode).
 *
 * <p>The pure-Python fallback (py_scanstring) words one error differently ("Invalid control
 * character {c!r} at"); the C text is what CPython users see. Trailing commas follow 3.13 ("Illegal
 * trailing comma before end of array/object" at the comma; 3.11 reported "Expecting value" /
 * "Expecting property name enclosed in double quotes" after it).
 *
 * <p>The scan runs over UTF-16 units; every structural character is ASCII, so only the reported
 * offsets need converting to Python's code point indexes (astral characters count once).
 * Deep nesting: CPython raises RecursionError at an interpreter-dependent depth; this parser
 * raises the same error type past {@link #MAX_DEPTH} levels.
 */
public final class PyJsonLoads {
    private PyJsonLoads() {}

    /** Nesting depth past which a RecursionError is raised (CPython's limit depends on the stack in use). */
    public static final int MAX_DEPTH = 5000;

    /** {@code json.JSONDecodeError}: a ValueError subclass; {@code str(e)} is "msg: line L column C (char P)". */
    public static final class JSONDecodeError extends PyException {
        private final String msg;
        private final int pos, lineno, colno;

        JSONDecodeError(String msg, int pos, int lineno, int colno) {
            super("JSONDecodeError", msg + ": line " + lineno + " column " + colno + " (char " + pos + ")");
            this.msg = msg;
            this.pos = pos;
            this.lineno = lineno;
            this.colno = colno;
        }

        /** The unformatted message, e.g. {@code Expecting value}. */
        public String msg() {
            return msg;
        }
        /** Code point index into the document. */
        public int pos() {
            return pos;
        }

        public int lineno() {
            return lineno;
        }

        public int colno() {
            return colno;
        }
    }

    /** {@code json.loads(s)} for a str document. */
    public static Value loads(String s) {
        return loads(s, false);
    }

    /**
     * {@code json.loads(x, parse_int=float if intsAsFloats else None)} for any value: a non-str is
     * CPython's TypeError ({@code the JSON object must be str, bytes or bytearray, not dict}).
     */
    public static Value loads(Value x, boolean intsAsFloats) {
        if (x instanceof brokkr.value.PyStr s) return loads(s.value(), intsAsFloats);
        throw PyException.typeError("the JSON object must be str, bytes or bytearray, not " + x.typeName());
    }

    /**
     * {@code json.loads(s, parse_int=float)} when {@code intsAsFloats}: every integer literal becomes
     * {@code float(literal)} (correctly rounded; overflow gives inf, as CPython's {@code float(str)}).
     */
    public static Value loads(String s, boolean intsAsFloats) {
        if (!s.isEmpty() && s.charAt(0) == '\uFEFF') throw error("Unexpected UTF-8 BOM (decode using utf-8-sig)", s, 0);
        Scanner sc = new Scanner(s, intsAsFloats);
        int idx = skipWs(s, 0);
        Value v;
        try {
            v = sc.scanOnce(idx, 0);
        } catch (StopIteration e) {
            throw error("Expecting value", s, e.idx);
        }
        int end = skipWs(s, sc.next);
        if (end != s.length()) throw error("Extra data", s, end);
        return v;
    }

    /** {@code JSONDecodeError(msg, doc, pos)} with {@code pos} a UTF-16 index, reported in code points. */
    static JSONDecodeError error(String msg, String doc, int unitPos) {
        int pos = doc.codePointCount(0, unitPos);
        int lastNl = doc.lastIndexOf('\n', unitPos - 1);
        int lineno = 1;
        for (int i = doc.indexOf('\n'); i >= 0 && i < unitPos; i = doc.indexOf('\n', i + 1)) lineno++;
        // colno = pos - doc.rfind('\n', 0, pos)
        int colno = lastNl < 0 ? pos + 1 : pos - doc.codePointCount(0, lastNl);
        return new JSONDecodeError(msg, pos, lineno, colno);
    }

    /** json.decoder.WHITESPACE: only ' ', '\t', '\n', '\r' (the C IS_WHITESPACE agrees). */
    private static boolean isWs(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    private static int skipWs(String s, int i) {
        int n = s.length();
        while (i < n && isWs(s.charAt(i))) i++;
        return i;
    }

    /** The C scanner's {@code raise_stop_iteration(idx)}: no value starts at idx. */
    private static final class StopIteration extends RuntimeException {
        final int idx;

        StopIteration(int idx) {
            super(null, null, false, false);
            this.idx = idx;
        }
    }

    private static final class Scanner {
        private final String s;
        private final int len;
        /** The C code's {@code *next_idx_ptr}: the index after the term just scanned. */
        int next;

        private final boolean intsAsFloats;

        Scanner(String s, boolean intsAsFloats) {
            this.s = s;
            this.len = s.length();
            this.intsAsFloats = intsAsFloats;
        }

        private char at(int i) {
            return s.charAt(i);
        }

        /** scan_once_unicode. */
        Value scanOnce(int idx, int depth) {
            if (idx >= len) throw new StopIteration(idx);
            char c = at(idx);
            switch (c) {
                case '"':
                    return new PyStr(scanString(idx + 1));
                case '{':
                    checkDepth(depth, "object");
                    return parseObject(idx + 1, depth + 1);
                case '[':
                    checkDepth(depth, "array");
                    return parseArray(idx + 1, depth + 1);
                case 'n':
                    if (s.startsWith("null", idx)) {
                        next = idx + 4;
                        return PyNone.NONE;
                    }
                    break;
                case 't':
                    if (s.startsWith("true", idx)) {
                        next = idx + 4;
                        return PyBool.TRUE;
                    }
                    break;
                case 'f':
                    if (s.startsWith("false", idx)) {
                        next = idx + 5;
                        return PyBool.FALSE;
                    }
                    break;
                case 'N':
                    if (s.startsWith("NaN", idx)) {
                        next = idx + 3;
                        return new PyFloat(Double.NaN);
                    }
                    break;
                case 'I':
                    if (s.startsWith("Infinity", idx)) {
                        next = idx + 8;
                        return new PyFloat(Double.POSITIVE_INFINITY);
                    }
                    break;
                case '-':
                    if (s.startsWith("-Infinity", idx)) {
                        next = idx + 9;
                        return new PyFloat(Double.NEGATIVE_INFINITY);
                    }
                    break;
                default:
                    break;
            }
            return matchNumber(idx);
        }

        private void checkDepth(int depth, String what) {
            if (depth >= MAX_DEPTH) {
                throw new PyException(
                        "RecursionError",
                        "maximum recursion depth exceeded while decoding a JSON " + what + " from a unicode string");
            }
        }

        /** _parse_object_unicode; idx is just after '{'. Repeated keys keep their first position, last value. */
        private Value parseObject(int idx, int depth) {
            PyDict.Builder b = PyDict.builder();
            idx = skipWs(s, idx);
            if (idx >= len || at(idx) != '}') {
                while (true) {
                    if (idx >= len || at(idx) != '"')
                        throw error("Expecting property name enclosed in double quotes", s, idx);
                    String key = scanString(idx + 1);
                    idx = skipWs(s, next);
                    if (idx >= len || at(idx) != ':') throw error("Expecting ':' delimiter", s, idx);
                    idx = skipWs(s, idx + 1);
                    Value val = scanOnce(idx, depth);
                    b.put(key, val);
                    idx = skipWs(s, next);
                    if (idx < len && at(idx) == '}') break;
                    if (idx >= len || at(idx) != ',') throw error("Expecting ',' delimiter", s, idx);
                    int comma = idx;
                    idx = skipWs(s, idx + 1);
                    if (idx < len && at(idx) == '}')
                        throw error("Illegal trailing comma before end of object", s, comma);
                }
            }
            next = idx + 1;
            return b.build();
        }

        /** _parse_array_unicode; idx is just after '['. */
        private Value parseArray(int idx, int depth) {
            ArrayList<Value> items = new ArrayList<>();
            idx = skipWs(s, idx);
            if (idx >= len || at(idx) != ']') {
                while (true) {
                    items.add(scanOnce(idx, depth));
                    idx = skipWs(s, next);
                    if (idx < len && at(idx) == ']') break;
                    if (idx >= len || at(idx) != ',') throw error("Expecting ',' delimiter", s, idx);
                    int comma = idx;
                    idx = skipWs(s, idx + 1);
                    if (idx < len && at(idx) == ']')
                        throw error("Illegal trailing comma before end of array", s, comma);
                }
            }
            next = idx + 1;
            return PyList.of(items);
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        /** _match_number_unicode: [-](0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)? else StopIteration(start). */
        private Value matchNumber(int start) {
            int endIdx = len - 1;
            int idx = start;
            if (at(idx) == '-') {
                idx++;
                if (idx > endIdx) throw new StopIteration(start);
            }
            char c = at(idx);
            if (c >= '1' && c <= '9') {
                idx++;
                while (idx <= endIdx && isDigit(at(idx))) idx++;
            } else if (c == '0') {
                idx++;
            } else {
                throw new StopIteration(start);
            }
            boolean isFloat = false;
            if (idx < endIdx && at(idx) == '.' && isDigit(at(idx + 1))) {
                isFloat = true;
                idx += 2;
                while (idx <= endIdx && isDigit(at(idx))) idx++;
            }
            if (idx < endIdx && (at(idx) == 'e' || at(idx) == 'E')) {
                int eStart = idx;
                idx++;
                if (idx < endIdx && (at(idx) == '-' || at(idx) == '+')) idx++;
                while (idx <= endIdx && isDigit(at(idx))) idx++;
                if (isDigit(at(idx - 1))) isFloat = true;
                else idx = eStart;
            }
            next = idx;
            if (isFloat || intsAsFloats) return new PyFloat(Double.parseDouble(s.substring(start, idx)));
            if (idx - start <= 18) return PyInt.of(Long.parseLong(s, start, idx, 10));
            return new PyInt(PyInts.parseDecimal(s, start, idx));
        }

        private static int hexDigit(char c) {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            if (c >= 'A' && c <= 'F') return c - 'A' + 10;
            return -1;
        }

        /** scanstring_unicode (strict); end is the index after the opening quote. Sets {@link #next}. */
        private String scanString(int end) {
            int begin = end - 1;
            StringBuilder sb = null;
            while (true) {
                int nx = end;
                char c = 0;
                for (; nx < len; nx++) {
                    c = at(nx);
                    if (c == '"' || c == '\\') break;
                    if (c <= 0x1f) throw error("Invalid control character at", s, nx);
                }
                if (nx >= len) throw error("Unterminated string starting at", s, begin);
                if (c == '"' && sb == null) {
                    next = nx + 1;
                    return s.substring(end, nx);
                }
                if (sb == null) sb = new StringBuilder(nx - end + 16);
                sb.append(s, end, nx);
                nx++;
                if (c == '"') {
                    next = nx;
                    return sb.toString();
                }
                if (nx == len) throw error("Unterminated string starting at", s, begin);
                c = at(nx);
                if (c != 'u') {
                    end = nx + 1;
                    char out = switch (c) {
                        case '"' -> '"';
                        case '\\' -> '\\';
                        case '/' -> '/';
                        case 'b' -> '\b';
                        case 'f' -> '\f';
                        case 'n' -> '\n';
                        case 'r' -> '\r';
                        case 't' -> '\t';
                        default -> 0;
                    };
                    if (out == 0) throw error("Invalid \\escape", s, end - 2);
                    sb.append(out);
                } else {
                    nx++;
                    end = nx + 4;
                    // The C code's bound is end >= len (one more than needed): "\\u1234 at the very end
                    // of the document is an invalid escape, not an unterminated string.
                    if (end >= len) throw error("Invalid \\uXXXX escape", s, nx - 1);
                    int u = 0;
                    for (; nx < end; nx++) {
                        int d = hexDigit(at(nx));
                        if (d < 0) throw error("Invalid \\uXXXX escape", s, end - 5);
                        u = (u << 4) | d;
                    }
                    if (Character.isHighSurrogate((char) u) && end + 6 < len && at(nx++) == '\\' && at(nx++) == 'u') {
                        int u2 = 0;
                        end += 6;
                        for (; nx < end; nx++) {
                            int d = hexDigit(at(nx));
                            if (d < 0) throw error("Invalid \\uXXXX escape", s, end - 5);
                            u2 = (u2 << 4) | d;
                        }
                        if (Character.isLowSurrogate((char) u2)) {
                            sb.append((char) u).append((char) u2);
                            continue;
                        }
                        end -= 6;
                    }
                    sb.append((char) u);
                }
            }
        }
    }
}
