package brokkr.python.source;

import brokkr.python.CPython;
import brokkr.python.PyBytes;
import brokkr.python.PyComplex;
import brokkr.python.PyException;
import brokkr.python.PyInts;
import brokkr.python.PyObjects;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Parses a string as CPython's {@code eval()} does (input mode "eval": an expression list) into a
 * {@link PyExpr}, raising {@code SyntaxError}s with CPython's texts ({@code str(e)} is
 * {@code "<msg> (<string>, line N)"}) for the malformed call strings models produce.
 *
 * <p>Error precedence follows CPython's pegen (Parser/pegen_errors.c {@code _PyPegen_set_syntax_error}):
 * a tokenizer error anywhere in the source ({@code unmatched ')'}, unterminated string, leading zeros,
 * ...) wins over every parser error, because CPython tokenizes the rest of the source before reporting
 * one; a parse that runs into the end of the input inside brackets reports {@code '(' was never closed};
 * otherwise the specific errors of the grammar's {@code invalid_*} rules this subset reaches, else
 * {@code invalid syntax} at the furthest token read. {@code keyword argument repeated} is the
 * compiler's check after a successful parse.
 *
 * <p>The grammar's error texts are CPython 3.11's pegen (Parser/parser.c, Parser/pegen_errors.c of 3.11,
 * recorded by BFCL's fuzz corpora); the release's profile decides what its Unicode database decides
 * ({@link CPython#isPrintable}: "invalid character" or "invalid non-printable character"). See
 * {@link CPython} for what 3.12/3.13 changed and is not transcribed.
 */
public final class PyParser {
    /**
     * SOFT_ERROR: a tokenizer error CPython reports only when the parser reaches it (tok->done set, no
     * exception: a bad line continuation); tokenizing stops there, as the full-source check does.
     */
    private enum T {
        NAME,
        NUMBER,
        STRING,
        OP,
        NEWLINE,
        END,
        EOF_IN_BRACKETS,
        SOFT_ERROR
    }

    private record Tok(T type, String text, int line, int start, Object value, int level) {}

    private static final Set<String> KEYWORDS = Set.of(
            "False",
            "None",
            "True",
            "and",
            "as",
            "assert",
            "async",
            "await",
            "break",
            "class",
            "continue",
            "def",
            "del",
            "elif",
            "else",
            "except",
            "finally",
            "for",
            "from",
            "global",
            "if",
            "import",
            "in",
            "is",
            "lambda",
            "nonlocal",
            "not",
            "or",
            "pass",
            "raise",
            "return",
            "try",
            "while",
            "with",
            "yield");

    private static final String[] OPERATORS = {
        "**=", "//=", ">>=", "<<=", "...", "!=", "==", "<=", ">=", "**", "//", "->", "+=", "-=", "*=", "/=", "%=", "&=",
        "|=", "^=", "@=", ":=", ">>", "<<", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "@", "=", "+", "-", "*",
        "/", "%", "&", "|", "^", "~", "<", ">"
    };

    /**
     * {@link #OPERATORS} by their first character, longest first as there: a call string's every bracket and comma
     * tried two dozen longer operators first (a tenth of replaying the fuzz corpus went to parsing).
     */
    private static final String[][] OPERATORS_BY_FIRST = new String[128][];

    static {
        for (char c = 0; c < OPERATORS_BY_FIRST.length; c++) {
            final char first = c;
            OPERATORS_BY_FIRST[c] = java.util.Arrays.stream(OPERATORS)
                    .filter(o -> o.charAt(0) == first)
                    .toArray(String[]::new);
        }
    }

    private final String src;
    private final CPython python;
    private final List<Tok> toks = new ArrayList<>();
    /** The first tokenizer error, raised when the parser reaches it or fails anywhere. */
    private PyException tokError;

    private int pos;
    private int furthest;

    private PyParser(String src, CPython python) {
        this.src = src;
        this.python = python;
    }

    private static PyException syntaxError(String msg, int line) {
        return new PyException("SyntaxError", msg + " (<string>, line " + line + ")");
    }

    /** A plain "invalid syntax": what a failing alternative gives, which an enclosing rule may try past. */
    private static final class GenericSyntaxError extends PyException {
        GenericSyntaxError(int line) {
            super("SyntaxError", "invalid syntax (<string>, line " + line + ")");
        }
    }

    /**
     * Whether the grammar's invalid_* rules are on (pegen's second pass); off while parsing the
     * {@code expression_without_invalid} of invalid_expression.
     */
    private boolean invalidRules = true;

    /** CPython 3.11's invalid_arguments: a positional argument after keyword arguments (or after {@code **}). */
    private PyException positionalAfterKeywords(boolean afterDoubleStar, int line) {
        return invalid(
                afterDoubleStar
                        ? "positional argument follows keyword argument unpacking"
                        : "positional argument follows keyword argument",
                line);
    }

    /** A specific error of an invalid_* rule, or a plain failure where those rules are off. */
    private PyException invalid(String msg, int line) {
        return invalidRules ? syntaxError(msg, line) : new GenericSyntaxError(line);
    }

    /** Parses {@code source} as {@code eval(source)} would under {@code python}. */
    public static PyExpr parse(String source, CPython python) {
        if (source.indexOf('\0') >= 0)
            throw new PyException("SyntaxError", "source code string cannot contain null bytes");
        // bltinmodule.c builtin_eval_impl: leading spaces and tabs are stripped.
        int i = 0;
        while (i < source.length() && (source.charAt(i) == ' ' || source.charAt(i) == '\t')) i++;
        PyParser p = new PyParser(source.substring(i), python);
        p.tokenize();
        PyExpr e;
        try {
            e = p.parseEval();
        } catch (PyException err) {
            if (p.tokError != null) throw p.tokError;
            throw err;
        }
        checkRepeatedKeywords(e);
        return e;
    }

    // ---------------------------------------------------------------- tokenizer

    private void tokenize() {
        Deque<int[]> parens = new ArrayDeque<>(); // {char, line}
        int n = src.length();
        int i = 0;
        int line = 1;
        boolean lineHasTokens = false;
        while (true) {
            if (i >= n) {
                if (!parens.isEmpty()) {
                    toks.add(new Tok(T.EOF_IN_BRACKETS, "", line, i, parens.peek(), parens.size()));
                    return;
                }
                if (lineHasTokens) toks.add(new Tok(T.NEWLINE, "", line, i, null, 0));
                // a source of only whitespace ends "at line 0"; a comment counts as a line
                toks.add(new Tok(
                        T.END,
                        "",
                        (toks.isEmpty() || onlyNewlines()) && src.isBlank() ? 0 : Math.max(line, 1),
                        i,
                        null,
                        0));
                return;
            }
            char c = src.charAt(i);
            if (c == ' ' || c == '\t' || c == '\f') {
                i++;
                continue;
            }
            if (c == '#') {
                while (i < n && src.charAt(i) != '\n' && src.charAt(i) != '\r') i++;
                continue;
            }
            if (c == '\\') {
                if (i + 1 < n && src.charAt(i + 1) == '\n') {
                    i += 2;
                    line++;
                    continue;
                }
                String msg = "unexpected character after line continuation character";
                toks.add(new Tok(T.SOFT_ERROR, msg, line, i, null, parens.size()));
                return;
            }
            if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < n && src.charAt(i + 1) == '\n') i++;
                i++;
                if (parens.isEmpty() && lineHasTokens) {
                    toks.add(new Tok(T.NEWLINE, "\n", line, i, null, 0));
                    lineHasTokens = false;
                }
                line++;
                continue;
            }
            if (!parens.isEmpty() || lineHasTokens || true) lineHasTokens = true;
            int level = parens.size();
            if (isIdStart(c)) {
                int j = i;
                while (j < n && isIdPart(src.charAt(j))) j++;
                String word = src.substring(i, j);
                if (j < n && (src.charAt(j) == '\'' || src.charAt(j) == '"') && isStringPrefix(word)) {
                    int[] end = new int[2];
                    Object value = string(j, word.toLowerCase(), line, end);
                    if (value == null) return;
                    toks.add(new Tok(T.STRING, src.substring(i, end[0]), line, i, value, level));
                    line = end[1];
                    i = end[0];
                    continue;
                }
                toks.add(new Tok(T.NAME, word, line, i, null, level));
                i = j;
                continue;
            }
            if (c >= '0' && c <= '9' || c == '.' && i + 1 < n && Character.isDigit(src.charAt(i + 1))) {
                int[] end = new int[1];
                Object value = number(i, line, end);
                if (value == null) return;
                toks.add(new Tok(T.NUMBER, src.substring(i, end[0]), line, i, value, level));
                i = end[0];
                continue;
            }
            if (c == '\'' || c == '"') {
                int[] end = new int[2];
                Object value = string(i, "", line, end);
                if (value == null) return;
                toks.add(new Tok(T.STRING, src.substring(i, end[0]), line, i, value, level));
                line = end[1];
                i = end[0];
                continue;
            }
            String op = null;
            if (c < OPERATORS_BY_FIRST.length) {
                for (String o : OPERATORS_BY_FIRST[c]) {
                    if (src.startsWith(o, i)) {
                        op = o;
                        break;
                    }
                }
            }
            if (op == null) {
                if (c == '!' || c == '$' || c == '?' || c == '`') {
                    // tokenizer.c PyToken_OneChar: an OP token the grammar has no use for (a parser error, not a
                    // tokenizer one)
                    toks.add(new Tok(T.OP, "!", line, i, null, parens.size()));
                    i++;
                    continue;
                }
                int cp = src.codePointAt(i);
                if (Character.isHighSurrogate(c) || cp > 127 || cp < 32) {
                    // tokenizer.c verify_identifier / tok_get: Py_UNICODE_ISPRINTABLE decides the wording
                    if (cp > 127 && python.isPrintable(cp)) {
                        fail(
                                "invalid character '" + new String(Character.toChars(cp)) + "' (U+"
                                        + String.format("%04X", cp) + ")",
                                line);
                    } else {
                        fail("invalid non-printable character U+" + String.format("%04X", cp), line);
                    }
                    return;
                }
                fail("invalid syntax", line);
                return;
            }
            switch (op) {
                case "(", "[", "{" -> parens.push(new int[] {op.charAt(0), line});
                case ")", "]", "}" -> {
                    if (parens.isEmpty()) {
                        fail("unmatched '" + op + "'", line);
                        return;
                    }
                    int[] open = parens.pop();
                    char want = open[0] == '(' ? ')' : open[0] == '[' ? ']' : '}';
                    if (want != op.charAt(0)) {
                        String msg = "closing parenthesis '" + op + "' does not match opening parenthesis '"
                                + (char) open[0] + "'";
                        if (open[1] != line) msg += " on line " + open[1];
                        fail(msg, line);
                        return;
                    }
                    level = parens.size();
                }
                default -> {}
            }
            toks.add(new Tok(
                    T.OP,
                    op,
                    line,
                    i,
                    null,
                    op.equals(")") || op.equals("]") || op.equals("}") ? level : parens.size()));
            i += op.length();
        }
    }

    private boolean onlyNewlines() {
        for (Tok t : toks) if (t.type != T.NEWLINE) return false;
        return true;
    }

    private void fail(String msg, int line) {
        tokError = syntaxError(msg, line);
    }

    private static boolean isIdStart(char c) {
        return c == '_' || Character.isLetter(c) || c > 127 && Character.isUnicodeIdentifierStart(c);
    }

    private static boolean isIdPart(char c) {
        return c == '_'
                || Character.isLetterOrDigit(c)
                || c > 127 && Character.isUnicodeIdentifierPart(c) && !Character.isIdentifierIgnorable(c);
    }

    private static boolean isStringPrefix(String w) {
        return switch (w.toLowerCase()) {
            case "r", "u", "b", "br", "rb", "f", "fr", "rf" -> true;
            default -> false;
        };
    }

    /** Parses a string literal starting at the quote {@code q}; end[0] = index after it, end[1] = line after it. */
    private Object string(int q, String prefix, int line, int[] end) {
        char quote = src.charAt(q);
        boolean triple = src.startsWith(String.valueOf(quote).repeat(3), q);
        boolean raw = prefix.contains("r");
        boolean bytes = prefix.contains("b");
        int i = q + (triple ? 3 : 1);
        int n = src.length();
        int startLine = line;
        BadLiteral bad = null;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (i >= n) {
                if (triple)
                    fail("unterminated triple-quoted string literal (detected at line " + line + ")", startLine);
                else fail("unterminated string literal (detected at line " + line + ")", startLine);
                return null;
            }
            char c = src.charAt(i);
            if (triple ? src.startsWith(String.valueOf(quote).repeat(3), i) : c == quote) {
                i += triple ? 3 : 1;
                break;
            }
            if (c == '\n' || c == '\r') {
                if (!triple) {
                    fail("unterminated string literal (detected at line " + line + ")", startLine);
                    return null;
                }
                line++;
                sb.append('\n');
                if (c == '\r' && i + 1 < n && src.charAt(i + 1) == '\n') i++;
                i++;
                continue;
            }
            if (c == '\\') {
                if (i + 1 >= n) {
                    i++;
                    continue;
                }
                char d = src.charAt(i + 1);
                if (raw) {
                    sb.append(c).append(d);
                    if (d == '\n') line++;
                    i += 2;
                    continue;
                }
                i += 2;
                switch (d) {
                    case '\n' -> line++;
                    case '\\' -> sb.append('\\');
                    case '\'' -> sb.append('\'');
                    case '"' -> sb.append('"');
                    case 'a' -> sb.append('\u0007');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'v' -> sb.append('\u000b');
                    case 'x', 'u', 'U' -> {
                        int len = d == 'x' ? 2 : d == 'u' ? 4 : 8;
                        if (bytes && d != 'x') {
                            sb.append('\\').append(d);
                            break;
                        }
                        int j = i;
                        while (j < n && j - i < len && Character.digit(src.charAt(j), 16) >= 0) j++;
                        if (j - i < len) {
                            String kind = d == 'x'
                                    ? "truncated \\xXX escape"
                                    : d == 'u' ? "truncated \\uXXXX escape" : "truncated \\UXXXXXXXX escape";
                            int at = escapeOffset(q + (triple ? 3 : 1), i - 2);
                            if (bad == null)
                                bad = new BadLiteral(
                                        "(unicode error) 'unicodeescape' codec can't decode bytes in position " + at
                                                + "-" + (at + 1 + (j - i)) + ": " + kind,
                                        startLine);
                            i = j;
                            break;
                        }
                        int cp = Integer.parseInt(src.substring(i, j), 16);
                        if (cp > 0x10FFFF) {
                            int at = escapeOffset(q + (triple ? 3 : 1), i - 2);
                            if (bad == null)
                                bad = new BadLiteral(
                                        "(unicode error) 'unicodeescape' codec can't decode bytes in position " + at
                                                + "-" + (at + 9) + ": illegal Unicode character",
                                        startLine);
                            i = j;
                            break;
                        }
                        sb.appendCodePoint(cp);
                        i = j;
                    }
                    case 'N' -> {
                        int close = src.indexOf('}', i);
                        if (bytes || i >= n || src.charAt(i) != '{' || close < 0) {
                            if (bytes) {
                                sb.append("\\N");
                                break;
                            }
                            if (bad == null)
                                bad = new BadLiteral(
                                        "(unicode error) 'unicodeescape' codec can't decode bytes in position "
                                                + escapeOffset(q + (triple ? 3 : 1), i - 2) + "-"
                                                + (escapeOffset(q + (triple ? 3 : 1), i - 2) + 1)
                                                + ": malformed \\N character escape",
                                        startLine);
                            break;
                        }
                        try {
                            sb.appendCodePoint(Character.codePointOf(src.substring(i + 1, close)));
                        } catch (IllegalArgumentException e) {
                            if (bad == null)
                                bad = new BadLiteral(
                                        "(unicode error) 'unicodeescape' codec can't decode bytes in position "
                                                + escapeOffset(q + (triple ? 3 : 1), i - 2) + "-"
                                                + (escapeOffset(q + (triple ? 3 : 1), i - 2) + close - i + 2)
                                                + ": unknown Unicode character name",
                                        startLine);
                        }
                        i = close + 1;
                    }
                    default -> {
                        if (d >= '0' && d <= '7') {
                            int j = i - 1;
                            int v = 0;
                            while (j < n && j < i + 2 && src.charAt(j) >= '0' && src.charAt(j) <= '7')
                                v = v * 8 + (src.charAt(j++) - '0');
                            sb.appendCodePoint(v);
                            i = j;
                        } else {
                            sb.append('\\')
                                    .append(d); // an unknown escape keeps its backslash (a DeprecationWarning only)
                        }
                    }
                }
                continue;
            }
            sb.append(c);
            i++;
        }
        end[0] = i;
        end[1] = line;
        if (bad != null) return bad;
        String s = sb.toString();
        if (bytes) return new PyBytes(s);
        return s;
    }

    /**
     * The byte offset the unicode-escape codec reports for the escape at {@code at}: string.c
     * decode_unicode_with_escapes first rewrites every non-ASCII character of the body as a 10-byte
     * {@code \UXXXXXXXX}, then decodes.
     */
    private int escapeOffset(int bodyStart, int at) {
        int n = 0;
        for (int k = bodyStart; k < at; ) {
            int cp = src.codePointAt(k);
            n += cp < 128 ? 1 : 10;
            k += Character.charCount(cp);
        }
        return n;
    }

    /**
     * A string literal whose escapes do not decode: string.c raises that SyntaxError when the parser builds
     * the literal, after tokenizing (so a tokenizer error later in the source still wins).
     */
    private record BadLiteral(String message, int line) {}

    /** Parses a number literal; end[0] = index after it. */
    private Object number(int i, int line, int[] end) {
        int n = src.length();
        int j = i;
        char c = src.charAt(i);
        if (c == '0' && i + 1 < n && "xXoObB".indexOf(src.charAt(i + 1)) >= 0) {
            char kind = Character.toLowerCase(src.charAt(i + 1));
            int radix = kind == 'x' ? 16 : kind == 'o' ? 8 : 2;
            String name = kind == 'x' ? "hexadecimal" : kind == 'o' ? "octal" : "binary";
            j = i + 2;
            StringBuilder digits = new StringBuilder();
            while (j < n) {
                char d = src.charAt(j);
                if (d == '_') {
                    if (j + 1 >= n || Character.digit(src.charAt(j + 1), radix) < 0) {
                        fail("invalid " + name + " literal", line);
                        return null;
                    }
                    j++;
                    continue;
                }
                if (Character.digit(d, radix) >= 0) {
                    digits.append(d);
                    j++;
                    continue;
                }
                if (Character.isDigit(d)) {
                    fail("invalid digit '" + d + "' in " + name + " literal", line);
                    return null;
                }
                break;
            }
            if (digits.isEmpty() || j < n && isIdPart(src.charAt(j))) {
                fail("invalid " + name + " literal", line);
                return null;
            }
            end[0] = j;
            return new BigInteger(digits.toString(), radix);
        }
        StringBuilder text = new StringBuilder();
        boolean isFloat = false;
        j = digits(i, text, line);
        if (j < 0) return null;
        if (j < n && src.charAt(j) == '.') {
            isFloat = true;
            text.append('.');
            j++;
            if (j < n && Character.isDigit(src.charAt(j))) {
                j = digits(j, text, line);
                if (j < 0) return null;
            }
        }
        if (j < n && (src.charAt(j) == 'e' || src.charAt(j) == 'E')) {
            int k = j + 1;
            if (k < n && (src.charAt(k) == '+' || src.charAt(k) == '-')) k++;
            if (k < n && Character.isDigit(src.charAt(k))) {
                isFloat = true;
                text.append('e').append(src, j + 1, k);
                j = digits(k, text, line);
                if (j < 0) return null;
            } else {
                fail("invalid decimal literal", line);
                return null;
            }
        }
        boolean imaginary = false;
        if (j < n && (src.charAt(j) == 'j' || src.charAt(j) == 'J')) {
            imaginary = true;
            j++;
        }
        if (j < n && isIdPart(src.charAt(j)) && !startsKeyword(j)) {
            fail(imaginary ? "invalid imaginary literal" : "invalid decimal literal", line);
            return null;
        }
        end[0] = j;
        String t = text.toString();
        if (imaginary) return new PyComplex(0.0, Double.parseDouble(t));
        if (isFloat) return Double.parseDouble(t);
        // tokenizer.c tok_get: a decimal integer other than zero may not start with 0
        if (t.length() > 1 && t.charAt(0) == '0' && !t.chars().allMatch(ch -> ch == '0')) {
            fail(
                    "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
                    line);
            return null;
        }
        return PyInts.parseDecimal(t, 0, t.length());
    }

    /** CPython allows keywords right after a number ({@code 1if x else y}, with a warning). */
    private boolean startsKeyword(int j) {
        for (String k : List.of("and", "else", "for", "if", "in", "is", "not", "or")) {
            if (src.startsWith(k, j)) return true;
        }
        return false;
    }

    private int digits(int j, StringBuilder text, int line) {
        int n = src.length();
        while (j < n) {
            char d = src.charAt(j);
            if (Character.isDigit(d) && d < 128) {
                text.append(d);
                j++;
                continue;
            }
            if (d == '_') {
                if (j + 1 >= n || !Character.isDigit(src.charAt(j + 1))) {
                    fail("invalid decimal literal", line);
                    return -1;
                }
                j++;
                continue;
            }
            break;
        }
        return j;
    }

    // ---------------------------------------------------------------- parser

    private Tok peek() {
        if (pos >= toks.size()) {
            if (tokError != null) throw tokError;
            Tok last = toks.getLast();
            if (last.type == T.SOFT_ERROR) throw syntaxError(last.text, last.line);
            return last;
        }
        if (pos > furthest) furthest = pos;
        Tok t = toks.get(pos);
        if (t.type == T.SOFT_ERROR) throw syntaxError(t.text, t.line);
        // pegen_errors.c _PyPegen_tokenizer_error E_EOF: fetching the end of input inside brackets is the error
        if (t.type == T.EOF_IN_BRACKETS) throw neverClosed(t);
        return t;
    }

    private Tok peekAt(int k) {
        int save = pos;
        pos += k;
        try {
            return peek();
        } finally {
            pos = save;
        }
    }

    private boolean isOp(String op) {
        Tok t = peek();
        return t.type == T.OP && t.text.equals(op);
    }

    private boolean isKw(String kw) {
        Tok t = peek();
        return t.type == T.NAME && t.text.equals(kw);
    }

    private Tok next() {
        Tok t = peek();
        pos++;
        return t;
    }

    private void expectOp(String op) {
        if (!isOp(op)) throw generic();
        pos++;
    }

    private static PyException neverClosed(Tok t) {
        int[] open = (int[]) t.value;
        return syntaxError("'" + (char) open[0] + "' was never closed", open[1]);
    }

    /**
     * A lambda or a comprehension's 'for', which this parser does not take: pegen's lambdef / for_if_clause reads
     * the token after the keyword first (the end of input inside brackets is then "'(' was never closed").
     */
    private PyException unsupportedClause() {
        peekAt(1);
        return generic();
    }

    /**
     * Whether {@code for_if_clauses} parses here: {@code ('async'? 'for' star_targets 'in' disjunction ('if'
     * disjunction)*)+}, the targets read as bitwise_or expressions (their assignability, invalid_for_target, is not
     * checked). Comprehensions are not evaluated here; this only lets the invalid_* rules that need the clauses
     * raise. On a plain failure the position is back where it was (the tokens read still count for the furthest).
     */
    private boolean forIfClauses() {
        int save = pos;
        try {
            do {
                if (isKw("async")) pos++;
                if (!isKw("for")) throw generic();
                pos++;
                orExpr();
                while (isOp(",") && !peekAt(1).text.equals("in")) {
                    pos++;
                    orExpr();
                }
                if (isOp(",")) pos++;
                if (!isKw("in")) throw generic();
                pos++;
                disjunction();
                while (isKw("if")) {
                    pos++;
                    disjunction();
                }
            } while (isKw("for") || isKw("async"));
            return true;
        } catch (GenericSyntaxError e) {
            pos = save;
            return false;
        }
    }

    /**
     * invalid_comprehension: {@code ('[' | '{') a=star_named_expression ',' b=star_named_expressions
     * for_if_clauses} and {@code ('[' | '{') a=star_named_expression b=',' for_if_clauses}: a display of two or more
     * items, or of one and a comma, followed by a comprehension clause.
     */
    private void checkComprehensionTarget(int itemsBefore) {
        if (invalidRules && itemsBefore >= 1 && (isKw("for") || isKw("async")) && forIfClauses())
            throw syntaxError("did you forget parentheses around the comprehension target?", peek().line);
    }

    /** The generic error at the furthest token the parse read. */
    private PyException generic() {
        peek();
        Tok t = toks.get(Math.min(furthest, toks.size() - 1));
        if (t.type == T.EOF_IN_BRACKETS) {
            int[] open = (int[]) t.value;
            return syntaxError("'" + (char) open[0] + "' was never closed", open[1]);
        }
        return new GenericSyntaxError(t.line);
    }

    private PyExpr parseEval() {
        if (peek().type == T.END) throw syntaxError("invalid syntax", peek().line);
        PyExpr e = expressions();
        while (peek().type == T.NEWLINE) pos++;
        if (peek().type != T.END) {
            checkForgottenComma(e);
            throw generic();
        }
        return e;
    }

    /** {@code expressions: expression (',' expression)* [',']}. */
    private PyExpr expressions() {
        if (isOp("*")) throw generic();
        PyExpr first = expression();
        if (!isOp(",")) {
            if (first instanceof PyExpr.Starred) throw syntaxError("can't use starred expression here", peek().line);
            return first;
        }
        List<PyExpr> items = new ArrayList<>();
        items.add(first);
        while (isOp(",")) {
            pos++;
            if (!startsExpression()) break;
            if (isOp("*")) throw generic();
            items.add(expression());
        }
        return new PyExpr.Tuple(items);
    }

    private PyExpr starOrExpression() {
        if (isOp("*")) {
            int start = pos;
            pos++;
            PyExpr e = new PyExpr.Starred(orExpr());
            starts.put(e, start);
            return e;
        }
        return expression();
    }

    private boolean startsExpression() {
        Tok t = peek();
        return switch (t.type) {
            case NAME ->
                !KEYWORDS.contains(t.text)
                        || Set.of("True", "False", "None", "not", "lambda", "await")
                                .contains(t.text);
            case NUMBER, STRING -> true;
            case OP -> Set.of("(", "[", "{", "-", "+", "~", "*", "...").contains(t.text);
            default -> false;
        };
    }

    /** Where each expression parsed by {@link #expression} starts (token index), for the invalid_* rules. */
    private final java.util.IdentityHashMap<PyExpr, Integer> starts = new java.util.IdentityHashMap<>();

    private PyExpr expression() {
        int start = pos;
        PyExpr e = expressionAt();
        starts.put(e, start);
        return e;
    }

    private PyExpr expressionAt() {
        if (isKw("lambda")) throw unsupportedClause();
        PyExpr body = disjunction();
        if (isKw("if")) {
            // disjunction 'if' disjunction 'else' expression, else the alternative disjunction: the 'if' is left
            // to the caller; invalid_expression's a=disjunction 'if' b=disjunction !('else'|':') raises
            int ifAt = pos++;
            PyExpr test = tail(this::disjunction, ifAt);
            if (test == null) return body;
            if (!isKw("else")) {
                Tok t = peek();
                if (invalidRules && !(t.type == T.OP && t.text.equals(":"))) {
                    throw syntaxError("expected 'else' after 'if' expression", t.line);
                }
                pos = ifAt;
                return body;
            }
            pos++;
            PyExpr orElse = tail(this::expression, ifAt);
            if (orElse == null) return body;
            return new PyExpr.IfExp(test, body, orElse);
        }
        return body;
    }

    private PyExpr disjunction() {
        PyExpr first = conjunction();
        if (!isKw("or")) return first;
        List<PyExpr> values = new ArrayList<>(List.of(first));
        while (isKw("or")) {
            pos++;
            values.add(conjunction());
        }
        return new PyExpr.BoolOp("or", values);
    }

    private PyExpr conjunction() {
        PyExpr first = inversion();
        if (!isKw("and")) return first;
        List<PyExpr> values = new ArrayList<>(List.of(first));
        while (isKw("and")) {
            pos++;
            values.add(inversion());
        }
        return new PyExpr.BoolOp("and", values);
    }

    private PyExpr inversion() {
        if (isKw("not")) {
            pos++;
            return new PyExpr.Unary("not", inversion());
        }
        return comparison();
    }

    private PyExpr comparison() {
        PyExpr left = orExpr();
        List<String> ops = new ArrayList<>();
        List<PyExpr> rights = new ArrayList<>();
        while (true) {
            Tok t = peek();
            int opAt = pos;
            String op = null;
            if (t.type == T.OP && Set.of("==", "!=", "<", ">", "<=", ">=").contains(t.text)) {
                op = t.text;
                pos++;
            } else if (isKw("in")) {
                op = "in";
                pos++;
            } else if (isKw("not") && peekAt(1).type == T.NAME && peekAt(1).text.equals("in")) {
                op = "not in";
                pos += 2;
            } else if (isKw("is")) {
                pos++;
                if (isKw("not")) {
                    pos++;
                    op = "is not";
                } else op = "is";
            }
            if (op == null) break;
            // pegen: a compare_op_bitwise_or_pair that does not parse is not taken (the comparison ends before it)
            PyExpr right = tail(this::orExpr, opAt);
            if (right == null) break;
            ops.add(op);
            rights.add(right);
        }
        return ops.isEmpty() ? left : new PyExpr.Compare(left, ops, rights);
    }

    private PyExpr orExpr() {
        return binaryLevel(0);
    }

    private static final List<Set<String>> LEVELS = List.of(
            Set.of("|"),
            Set.of("^"),
            Set.of("&"),
            Set.of("<<", ">>"),
            Set.of("+", "-"),
            Set.of("*", "/", "//", "%", "@"));

    private PyExpr binaryLevel(int level) {
        if (level == LEVELS.size()) return factor();
        PyExpr left = binaryLevel(level + 1);
        while (peek().type == T.OP && LEVELS.get(level).contains(peek().text)) {
            int opAt = pos;
            String op = next().text;
            // the left-recursive rules (sum: sum '+' term | term ...) fall back to the shorter parse
            PyExpr right = tail(() -> binaryLevel(level + 1), opAt);
            if (right == null) break;
            left = new PyExpr.Binary(op, left, right);
        }
        return left;
    }

    private PyExpr factor() {
        Tok t = peek();
        if (t.type == T.OP && (t.text.equals("-") || t.text.equals("+") || t.text.equals("~"))) {
            pos++;
            return new PyExpr.Unary(t.text, factor());
        }
        return power();
    }

    private PyExpr power() {
        PyExpr base = primary();
        if (isOp("**")) {
            int opAt = pos++;
            PyExpr exponent = tail(this::factor, opAt);
            if (exponent != null) return new PyExpr.Binary("**", base, exponent);
        }
        return base;
    }

    private PyExpr primary() {
        PyExpr e = atom();
        while (true) {
            int at = pos;
            PyExpr longer;
            if (isOp(".")) {
                pos++;
                Tok name = peek();
                if (name.type != T.NAME || KEYWORDS.contains(name.text)) {
                    pos = at;
                    return e;
                }
                pos++;
                longer = new PyExpr.Attr(e, name.text);
            } else if (isOp("(")) {
                pos++;
                PyExpr fn = e;
                longer = tail(() -> new PyExpr.Call(fn, arguments()), at);
            } else if (isOp("[")) {
                pos++;
                PyExpr obj = e;
                longer = tail(
                        () -> {
                            PyExpr sub = new PyExpr.Subscript(obj, slices());
                            expectOp("]");
                            return sub;
                        },
                        at);
            } else {
                return e;
            }
            // pegen's left-recursive primary: a '.', '(' or '[' tail that does not parse is not taken
            if (longer == null) return e;
            e = longer;
        }
    }

    /**
     * {@code rule} parsed where a PEG loop or left-recursive rule may stop: its result, or null with the position
     * back at {@code from} when it fails plainly (a specific error of an invalid_* rule still propagates).
     */
    private PyExpr tail(java.util.function.Supplier<PyExpr> rule, int from) {
        try {
            return rule.get();
        } catch (GenericSyntaxError e) {
            pos = from;
            return null;
        }
    }

    private PyExpr slices() {
        List<PyExpr> items = new ArrayList<>();
        boolean tuple = false;
        while (true) {
            items.add(slice());
            if (!isOp(",")) break;
            tuple = true;
            pos++;
            if (isOp("]")) break;
        }
        return tuple ? new PyExpr.Tuple(items) : items.getFirst();
    }

    private PyExpr slice() {
        PyExpr lower = null;
        if (!isOp(":")) {
            lower = starOrExpression();
            if (!isOp(":")) return lower;
        }
        pos++;
        PyExpr upper = isOp(":") || isOp("]") || isOp(",") ? null : expression();
        PyExpr step = null;
        if (isOp(":")) {
            pos++;
            step = isOp("]") || isOp(",") ? null : expression();
        }
        return new PyExpr.Slice(lower, upper, step);
    }

    /** After '(' up to and including ')'. */
    private List<PyExpr.Arg> arguments() {
        List<PyExpr.Arg> args = new ArrayList<>();
        boolean sawKeyword = false;
        boolean sawDoubleStar = false;
        while (!isOp(")")) {
            Tok start = peek();
            if (isOp("**")) {
                pos++;
                args.add(new PyExpr.Arg(null, expression(), 2));
                sawDoubleStar = true;
            } else if (isOp("*")) {
                pos++;
                if (sawDoubleStar)
                    throw invalid("iterable argument unpacking follows keyword argument unpacking", start.line);
                // invalid_arguments: a=args ',' '*' — the same words when the starred argument does not parse
                PyExpr starred = args.isEmpty() || !invalidRules ? expression() : tail(this::expression, pos);
                if (starred == null)
                    throw syntaxError("iterable argument unpacking follows keyword argument unpacking", start.line);
                args.add(new PyExpr.Arg(null, starred, 1));
            } else if (start.type == T.NAME
                    && !KEYWORDS.contains(start.text)
                    && peekAt(1).type == T.OP
                    && peekAt(1).text.equals("=")) {
                pos += 2;
                args.add(new PyExpr.Arg(start.text, expression(), 0));
                sawKeyword = true;
                // invalid_kwarg: a=NAME b='=' expression for_if_clauses
                if (invalidRules && (isKw("for") || isKw("async")) && forIfClauses())
                    throw syntaxError("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", start.line);
            } else if (start.type == T.NAME
                    && !KEYWORDS.contains(start.text)
                    && peekAt(1).type == T.OP
                    && peekAt(1).text.equals(":=")) {
                // args: assignment_expression, a positional argument
                pos += 2;
                PyExpr value = new PyExpr.NamedExpr(start.text, expression());
                if (sawKeyword || sawDoubleStar) throw positionalAfterKeywords(sawDoubleStar, start.line);
                args.add(new PyExpr.Arg(null, value, 0));
            } else if (start.type == T.NAME
                    && Set.of("True", "False", "None").contains(start.text)
                    && peekAt(1).type == T.OP
                    && peekAt(1).text.equals("=")) {
                throw invalid("cannot assign to " + start.text, start.line);
            } else {
                if (!startsExpression()) throw generic();
                PyExpr value = expression();
                if (isOp(":=")) throw generic(); // expression !':='
                if (isOp("=")) {
                    throw invalid("expression cannot contain assignment, perhaps you meant \"==\"?", start.line);
                }
                if (isKw("for") || isKw("async")) peekAt(1); // for_if_clause reads the token after 'for'
                // invalid_arguments: a=expression b=for_if_clauses ',' [...] (the first argument), a=args
                // b=for_if_clauses with more than one positional argument (_PyPegen_nonparen_genexp_in_call), args ','
                // a=expression b=for_if_clauses (after any argument)
                if (invalidRules && (isKw("for") || isKw("async"))) {
                    int at = pos;
                    if (forIfClauses() && (!args.isEmpty() || isOp(",")))
                        throw syntaxError("Generator expression must be parenthesized", start.line);
                    pos = at;
                }
                if ((isKw("for") || isKw("async")) && !(invalidRules && (sawKeyword || sawDoubleStar))) {
                    throw generic();
                }
                if (!isOp(",") && !isOp(")") && !isKw("for") && !isKw("async") && invalidRules)
                    checkForgottenComma(value);
                // invalid_arguments: a=args ',' args — a positional argument that parses after keywords, whatever
                // follows it
                if (sawKeyword || sawDoubleStar) throw positionalAfterKeywords(sawDoubleStar, start.line);
                args.add(new PyExpr.Arg(null, value, 0));
            }
            if (isOp(",")) {
                pos++;
                continue;
            }
            if (!isOp(")")) {
                // invalid_kwarg's NAME '=' expression for_if_clauses reads the token after 'for'
                if (isKw("for") || isKw("async")) peekAt(1);
                checkForgottenComma(args.isEmpty() ? null : args.getLast().value());
                throw generic();
            }
        }
        pos++;
        return args;
    }

    /**
     * What pegen's second pass finds where an expression is directly followed by another one. invalid_expression:
     * inside brackets, "invalid syntax. Perhaps you forgot a comma?" if the second parses (without the invalid
     * rules) — unless the first starts with NAME STRING or with a soft keyword, which CPython 3.11 tests as a
     * prefix match (so {@code c}, {@code ca}, {@code m}, {@code _} ... are exempt too). invalid_legacy_expression:
     * after a bare NAME the rest is parsed as star_expressions with the invalid rules on (their errors, and
     * "Missing parentheses in call to 'print'" for print/exec). Tokenizer errors met on the way are raised.
     */
    private void checkForgottenComma(PyExpr previous) {
        if (previous == null || pos == 0 || !invalidRules || !startsExpression()) return;
        Integer startIndex = starts.get(previous);
        Tok first = startIndex == null ? toks.get(pos - 1) : toks.get(startIndex);
        Tok second = startIndex == null || startIndex + 1 >= toks.size() ? null : toks.get(startIndex + 1);
        // NAME is pegen's non-keyword name token: True 'x', None 'x' are not exempt
        boolean exempt = first.type == T.NAME
                        && !KEYWORDS.contains(first.text)
                        && (second != null && second.type == T.STRING
                                || "_".startsWith(first.text)
                                || "case".startsWith(first.text)
                                || "match".startsWith(first.text))
                // _PyPegen_check_legacy_stmt: print/exec leave it to invalid_legacy_expression
                || previous instanceof PyExpr.Name nm0
                        && (nm0.id().equals("print") || nm0.id().equals("exec"));
        int save = pos;
        if (!exempt) {
            invalidRules = false;
            Tok last = null;
            try {
                expression();
                last = toks.get(pos - 1);
            } catch (GenericSyntaxError e) {
                // the second expression does not parse: no comma hint
            } finally {
                invalidRules = true;
                pos = save;
            }
            if (last != null && last.level > 0)
                throw syntaxError("invalid syntax. Perhaps you forgot a comma?", first.line);
        }
        if (previous instanceof PyExpr.Name nm && !isOp("(")) {
            try {
                // b=star_expressions, element by element. pegen memoizes the left-recursive primary regardless of
                // the invalid rules: where the attempt above parsed a first element NAME '(' ... without them, the
                // primary it kept (the NAME, its call not parsing) is what star_expressions gets back, so no hint
                // comes from inside that call (measured: "cd cd('s' folder='x')" is a plain invalid syntax).
                PyExpr element;
                invalidRules = exempt
                        || !(peek().type == T.NAME
                                && peekAt(1).type == T.OP
                                && peekAt(1).text.equals("("));
                try {
                    element = expression();
                } finally {
                    invalidRules = true;
                }
                while (isOp(",")) {
                    pos++;
                    if (!startsExpression()) break;
                    element = expression();
                }
                checkForgottenComma(element);
                if (nm.id().equals("print") || nm.id().equals("exec")) {
                    throw syntaxError(
                            "Missing parentheses in call to '" + nm.id() + "'. Did you mean " + nm.id() + "(...)?",
                            first.line);
                }
            } catch (GenericSyntaxError e) {
                // no specific error in the rest
            } finally {
                pos = save;
            }
        }
    }

    /**
     * Grammar rule invalid_named_expression, for an element of a parenthesised expression or a display:
     * {@code NAME '=' bitwise_or} not followed by '=' or ':=' is "invalid syntax. Maybe you meant '==' or ':='
     * instead of '='?"; another {@code bitwise_or '=' bitwise_or} (not a list, tuple or True/False/None)
     * "cannot assign to <kind> here. Maybe you meant '==' instead of '='?".
     */
    private void checkAssignmentInElement() {
        if (!invalidRules) return;
        Tok t = peek();
        int save = pos;
        // invalid_named_expression: a=expression ':=' expression -> "cannot use assignment expressions with <kind>"
        if (!(t.type == T.NAME
                && !KEYWORDS.contains(t.text)
                && peekAt(1).type == T.OP
                && peekAt(1).text.equals(":="))) {
            PyExpr target = null;
            try {
                if (startsExpression()) {
                    target = expression();
                    if (isOp(":=")) {
                        pos++;
                        if (!startsExpression()) target = null;
                        else expression();
                    } else target = null;
                }
            } catch (GenericSyntaxError e) {
                target = null;
            } finally {
                pos = save;
            }
            if (target != null) throw syntaxError("cannot use assignment expressions with " + exprName(target), t.line);
        }
        if (t.type == T.NAME && !KEYWORDS.contains(t.text)) {
            Tok eq = peekAt(1);
            if (eq.type == T.OP && eq.text.equals("=")) {
                pos += 2;
                boolean assignFollows;
                try {
                    if (!startsExpression()) return;
                    binaryLevel(0);
                    assignFollows = isOp("=") || isOp(":=");
                } catch (GenericSyntaxError e) {
                    assignFollows = false; // pegen backtracks to the longest bitwise_or that parses
                } finally {
                    pos = save;
                }
                if (!assignFollows)
                    throw syntaxError("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", t.line);
                return;
            }
        }
        if (t.type == T.OP && (t.text.equals("(") || t.text.equals("["))) return;
        if (t.type == T.NAME && Set.of("True", "False", "None").contains(t.text)) return;
        PyExpr target;
        try {
            target = binaryLevel(0);
            if (!isOp("=")) return;
            pos++;
            if (!startsExpression()) return;
            binaryLevel(0);
            if (isOp("=") || isOp(":=")) return;
        } catch (GenericSyntaxError e) {
            return;
        } finally {
            pos = save;
        }
        throw syntaxError(
                "cannot assign to " + exprName(target) + " here. Maybe you meant '==' instead of '='?", t.line);
    }

    /** pegen.c _PyPegen_get_expr_name. */
    private static String exprName(PyExpr e) {
        return switch (e) {
            case PyExpr.Attr a -> "attribute";
            case PyExpr.Subscript s -> "subscript";
            case PyExpr.Starred s -> "starred";
            case PyExpr.Name n -> "name";
            case PyExpr.ListDisplay l -> "list";
            case PyExpr.Tuple t -> "tuple";
            case PyExpr.Call c -> "function call";
            case PyExpr.BoolOp b -> "expression";
            case PyExpr.Binary b -> "expression";
            case PyExpr.Unary u -> "expression";
            case PyExpr.IfExp i -> "conditional expression";
            case PyExpr.NamedExpr n -> "named expression";
            case PyExpr.Compare c -> "comparison";
            case PyExpr.DictDisplay d -> "dict literal";
            case PyExpr.SetDisplay d -> "set display";
            case PyExpr.Const c ->
                c.value() == PyObjects.ELLIPSIS
                        ? "ellipsis"
                        : c.value() instanceof Boolean b
                                ? (b ? "True" : "False")
                                : c.value() == brokkr.value.PyNone.NONE ? "None" : "literal";
            case PyExpr.Slice s -> "slice";
        };
    }

    private PyExpr atom() {
        Tok t = peek();
        switch (t.type) {
            case NAME -> {
                pos++;
                switch (t.text) {
                    case "True":
                        return new PyExpr.Const(Boolean.TRUE);
                    case "False":
                        return new PyExpr.Const(Boolean.FALSE);
                    case "None":
                        return new PyExpr.Const(brokkr.value.PyNone.NONE);
                    default:
                        if (KEYWORDS.contains(t.text)) {
                            pos--;
                            throw generic();
                        }
                        return new PyExpr.Name(t.text);
                }
            }
            case NUMBER -> {
                pos++;
                return new PyExpr.Const(t.value);
            }
            case STRING -> {
                pos++;
                Object v = t.value;
                if (v instanceof BadLiteral b) throw syntaxError(b.message(), b.line());
                while (peek().type == T.STRING) {
                    Object more = next().value;
                    if (more instanceof BadLiteral b) throw syntaxError(b.message(), b.line());
                    if ((v instanceof PyBytes) != (more instanceof PyBytes)) {
                        throw syntaxError("cannot mix bytes and nonbytes literals", t.line);
                    }
                    v = v instanceof PyBytes a ? a.concat((PyBytes) more) : (String) v + more;
                }
                return new PyExpr.Const(v);
            }
            case OP -> {
                switch (t.text) {
                    case "(" -> {
                        pos++;
                        if (isOp(")")) {
                            pos++;
                            return new PyExpr.Tuple(List.of());
                        }
                        checkAssignmentInElement();
                        PyExpr first = starOrExpression();
                        if (isOp(")")) {
                            pos++;
                            if (first instanceof PyExpr.Starred)
                                throw syntaxError("cannot use starred expression here", t.line);
                            return first;
                        }
                        if (isKw("for")) throw unsupportedClause();
                        if (!isOp(",")) {
                            checkForgottenComma(first);
                            throw generic();
                        }
                        List<PyExpr> items = new ArrayList<>(List.of(first));
                        while (isOp(",")) {
                            pos++;
                            if (isOp(")")) break;
                            checkAssignmentInElement();
                            items.add(starOrExpression());
                        }
                        if (!isOp(")")) {
                            checkForgottenComma(items.getLast());
                            throw generic();
                        }
                        pos++;
                        return new PyExpr.Tuple(items);
                    }
                    case "[" -> {
                        pos++;
                        List<PyExpr> items = new ArrayList<>();
                        while (!isOp("]")) {
                            checkComprehensionTarget(items.size());
                            checkAssignmentInElement();
                            items.add(starOrExpression());
                            checkComprehensionTarget(items.size() - 1);
                            if (isKw("for")) throw unsupportedClause();
                            if (isOp(",")) {
                                pos++;
                                continue;
                            }
                            if (!isOp("]")) {
                                checkForgottenComma(items.getLast());
                                throw generic();
                            }
                        }
                        pos++;
                        return new PyExpr.ListDisplay(items);
                    }
                    case "{" -> {
                        pos++;
                        return braces();
                    }
                    case "..." -> {
                        pos++;
                        return new PyExpr.Const(PyObjects.ELLIPSIS);
                    }
                    default -> throw generic();
                }
            }
            default -> throw generic();
        }
    }

    private PyExpr braces() {
        if (isOp("}")) {
            pos++;
            return new PyExpr.DictDisplay(List.of(), List.of());
        }
        List<PyExpr> keys = new ArrayList<>();
        List<PyExpr> values = new ArrayList<>();
        List<PyExpr> items = new ArrayList<>();
        Boolean dict = null;
        while (!isOp("}")) {
            if (dict != Boolean.TRUE) checkComprehensionTarget(items.size());
            if (isOp("**")) {
                if (dict == Boolean.FALSE) throw generic();
                dict = true;
                pos++;
                keys.add(null);
                values.add(binaryLevel(0));
            } else if (isOp("*")) {
                if (dict == Boolean.TRUE) throw generic();
                dict = false;
                items.add(starOrExpression());
            } else {
                if (dict != Boolean.TRUE) checkAssignmentInElement();
                PyExpr k = expression();
                if (isOp(":") && dict != Boolean.FALSE) {
                    dict = true;
                    pos++;
                    // invalid_double_starred_kvpairs / invalid_kvpair: expression ':' &('}'|',')
                    if (isOp(",") || isOp("}"))
                        throw invalid("expression expected after dictionary key and ':'", peek().line);
                    keys.add(k);
                    values.add(expression());
                } else {
                    // invalid_kvpair after a pair and a comma: a=expression !(':'), whatever follows (measured: it
                    // wins over "Perhaps you forgot a comma?" there)
                    if (dict == Boolean.TRUE) throw invalid("':' expected after dictionary key", peek().line);
                    dict = false;
                    items.add(k);
                }
            }
            if (dict == Boolean.FALSE) checkComprehensionTarget(items.size() - 1);
            if (isKw("for")) throw unsupportedClause();
            if (isOp(",")) {
                pos++;
                continue;
            }
            if (!isOp("}")) {
                checkForgottenComma(dict ? values.getLast() : items.getLast());
                throw generic();
            }
        }
        pos++;
        return dict ? new PyExpr.DictDisplay(keys, values) : new PyExpr.SetDisplay(items);
    }

    /** compile.c validate_keywords / compiler_call_helper: "keyword argument repeated: x". */
    private static void checkRepeatedKeywords(PyExpr e) {
        switch (e) {
            case PyExpr.Call c -> {
                checkRepeatedKeywords(c.fn());
                Set<String> seen = new HashSet<>();
                for (PyExpr.Arg a : c.args()) {
                    if (a.name() != null && !seen.add(a.name()))
                        throw syntaxError("keyword argument repeated: " + a.name(), 1);
                }
                for (PyExpr.Arg a : c.args()) checkRepeatedKeywords(a.value());
            }
            case PyExpr.Attr a -> checkRepeatedKeywords(a.obj());
            case PyExpr.Subscript s -> {
                checkRepeatedKeywords(s.obj());
                checkRepeatedKeywords(s.index());
            }
            case PyExpr.Slice s -> {
                if (s.lower() != null) checkRepeatedKeywords(s.lower());
                if (s.upper() != null) checkRepeatedKeywords(s.upper());
                if (s.step() != null) checkRepeatedKeywords(s.step());
            }
            case PyExpr.Tuple t -> t.items().forEach(PyParser::checkRepeatedKeywords);
            case PyExpr.ListDisplay l -> l.items().forEach(PyParser::checkRepeatedKeywords);
            case PyExpr.SetDisplay s -> s.items().forEach(PyParser::checkRepeatedKeywords);
            case PyExpr.DictDisplay d -> {
                d.keys().forEach(k -> {
                    if (k != null) checkRepeatedKeywords(k);
                });
                d.values().forEach(PyParser::checkRepeatedKeywords);
            }
            case PyExpr.Starred s -> checkRepeatedKeywords(s.value());
            case PyExpr.Unary u -> checkRepeatedKeywords(u.operand());
            case PyExpr.Binary b -> {
                checkRepeatedKeywords(b.left());
                checkRepeatedKeywords(b.right());
            }
            case PyExpr.BoolOp b -> b.values().forEach(PyParser::checkRepeatedKeywords);
            case PyExpr.Compare c -> {
                checkRepeatedKeywords(c.left());
                c.rights().forEach(PyParser::checkRepeatedKeywords);
            }
            case PyExpr.NamedExpr n -> checkRepeatedKeywords(n.value());
            case PyExpr.IfExp i -> {
                checkRepeatedKeywords(i.test());
                checkRepeatedKeywords(i.body());
                checkRepeatedKeywords(i.orElse());
            }
            case PyExpr.Const c -> {}
            case PyExpr.Name n -> {}
        }
    }
}
