package brokkr.domains.bfcl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Upstream's {@code bfcl_eval/model_handler/parser/js_parser.py} {@code parse_javascript_function_call}: a
 * prompting-mode model's JavaScript call text, parsed as tree-sitter-javascript 0.21.4 parses it, then read
 * the way that function reads the tree. Tree-sitter is not available here: this is a recursive-descent parser
 * for JavaScript expressions (literals with template strings and regular expressions, arrays, objects,
 * arrow and function expressions, member access with optional chaining, calls, {@code new}, every unary,
 * binary, logical, conditional, assignment and comma operator) in expression statements separated by
 * {@code ;} or automatic semicolon insertion (a line break, a {@code }} or the end); a statement that is no
 * expression statement is a {@code let/const/var} declaration or an error. Any other input is tree-sitter's
 * ERROR ({@code SyntaxError("Error js parsing the source code.")}); function bodies and template
 * substitutions are checked only for balanced brackets (argued, not parsed).
 *
 * <p>Quirks reproduced from the function: the call is the first {@code call_expression} that is a direct
 * child of a top-level expression statement ({@code a(x=1), b(y=2)} is a sequence expression: no call, the
 * function returns None); its name is {@code children[0]}'s text and its arguments {@code children[1]}'s
 * children; a {@code name=value} argument's value is the right side's source text verbatim, with its first
 * and last character cut when it starts and ends with the same quote (no unescaping, and {@code "a" + "b"}
 * becomes {@code a" + "b}); a positional identifier or {@code true} (not {@code false}) goes under the key None
 * (written "None": the checker only prints it); other arguments (compound assignments, literals) are dropped;
 * a repeated name raises.
 */
final class JsCallParser {
    static final String SYNTAX = "Error js parsing the source code.";

    private record Tok(String kind, int start, int end, boolean newlineBefore) {}

    /** A node: its type, span, and children (only where the reader looks). */
    private record Node(String type, int start, int end, List<Node> children) {
        Node(String type, int start, int end) {
            this(type, start, end, List.of());
        }
    }

    private static final class Syntax extends RuntimeException {
        Syntax(String m) {
            super(m, null, false, false);
        }
    }

    private final String src;
    private final List<Tok> toks = new ArrayList<>();
    private int pos;

    private JsCallParser(String src) {
        this.src = src;
    }

    /** parse_javascript_function_call(source): {@code [{name: {param: value}}]}, or null (None: no call). */
    static PyObj parse(String source) {
        JsCallParser p = new JsCallParser(source);
        List<Node> statements;
        try {
            p.tokenize();
            statements = p.program();
        } catch (Syntax e) {
            throw new JavaCallParser.Failure("SyntaxError", SYNTAX);
        }
        for (Node st : statements) {
            if (!st.type.equals("expression_statement")) continue;
            for (Node sub : st.children) {
                if (!sub.type.equals("call_expression")) continue;
                String name = p.text(sub.children.get(0));
                Map<String, List<String>> args = new LinkedHashMap<>();
                for (Node c : sub.children.get(1).children) {
                    if (c.type.equals("assignment_expression")) {
                        String k = p.text(c.children.get(0));
                        String v = p.text(c.children.get(2));
                        if ((v.startsWith("\"") && v.endsWith("\"")) || (v.startsWith("'") && v.endsWith("'")))
                            v = v.length() < 2 ? "" : v.substring(1, v.length() - 1);
                        args.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
                    } else if (c.type.equals("identifier") || c.type.equals("true")) {
                        args.computeIfAbsent("None", x -> new ArrayList<>()).add(p.text(c));
                    }
                }
                Map<String, PyObj> params = new LinkedHashMap<>();
                for (Map.Entry<String, List<String>> e : args.entrySet()) {
                    if (e.getValue().size() > 1)
                        throw new JavaCallParser.Failure(
                                "Exception", "Error: Multiple arguments with the same name are not supported.");
                    params.put(e.getKey(), PyObj.str(e.getValue().getFirst()));
                }
                Map<String, PyObj> call = new LinkedHashMap<>();
                call.put(name, new PyObj.Dict(params));
                return PyObj.list(List.of(new PyObj.Dict(call)));
            }
        }
        return null;
    }

    private String text(Node n) {
        return src.substring(n.start, n.end);
    }

    // ---------------------------------------------------------------- tokens

    private static final String[] OPS = {
        ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=", "=>", "==", "!=", "<=", ">=",
        "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "**", "(", ")",
        "{", "}", "[", "]", ";", ",", ".", "=", "<", ">", "!", "~", "?", ":", "+", "-", "*", "/", "%", "&", "|", "^",
        "@", "#"
    };

    private static final Set<String> VALUE_END = Set.of(
            ")",
            "]",
            "}",
            "identifier",
            "number",
            "string",
            "template",
            "regex",
            "this",
            "super",
            "true",
            "false",
            "null",
            "undefined",
            "++",
            "--");

    private void tokenize() {
        int i = 0, n = src.length();
        boolean nl = false;
        while (i < n) {
            char c = src.charAt(i);
            if (c == '\n' || c == '\r' || c == '\u2028' || c == '\u2029') {
                nl = true;
                i++;
                continue;
            }
            if (Character.isWhitespace(c) || c == '\uFEFF') {
                i++;
                continue;
            }
            if (c == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
                while (i < n && src.charAt(i) != '\n') i++;
                continue;
            }
            if (c == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
                int e = src.indexOf("*/", i + 2);
                if (e < 0) throw new Syntax("unterminated comment");
                if (src.substring(i, e).indexOf('\n') >= 0) nl = true;
                i = e + 2;
                continue;
            }
            int s = i;
            String kind;
            if (c == '"' || c == '\'') {
                i++;
                while (i < n && src.charAt(i) != c) {
                    if (src.charAt(i) == '\n') throw new Syntax("newline in string");
                    if (src.charAt(i) == '\\') i++;
                    i++;
                }
                if (i >= n) throw new Syntax("unterminated string");
                i++;
                kind = "string";
            } else if (c == '`') {
                i = template(i + 1);
                kind = "template";
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(src.charAt(i + 1)))) {
                i = number(i);
                kind = "number";
            } else if (Character.isJavaIdentifierStart(c) || c == '\\') {
                while (i < n
                        && (Character.isJavaIdentifierPart(src.charAt(i)) || src.charAt(i) == '\\')
                        && src.charAt(i) != 0) i++;
                String w = src.substring(s, i);
                kind = KEYWORDS.contains(w) ? w : "identifier";
            } else if (c == '/' && (toks.isEmpty() || !VALUE_END.contains(toks.getLast().kind))) {
                i++;
                boolean cls = false;
                while (i < n && (src.charAt(i) != '/' || cls)) {
                    char d = src.charAt(i);
                    if (d == '\n') throw new Syntax("newline in regex");
                    if (d == '\\') i++;
                    else if (d == '[') cls = true;
                    else if (d == ']') cls = false;
                    i++;
                }
                if (i >= n) throw new Syntax("unterminated regex");
                i++;
                while (i < n && Character.isLetter(src.charAt(i))) i++;
                kind = "regex";
            } else {
                String op = null;
                for (String o : OPS) {
                    if (src.startsWith(o, i)) {
                        op = o;
                        break;
                    }
                }
                if (op == null) throw new Syntax("unexpected character");
                // "?." before a digit is "?" then a number (a ? .5 : 1).
                if (op.equals("?.") && i + 2 < n && Character.isDigit(src.charAt(i + 2))) op = "?";
                i += op.length();
                kind = op;
            }
            toks.add(new Tok(kind, s, i, nl));
            nl = false;
        }
        toks.add(new Tok("EOF", n, n, true));
    }

    private static final Set<String> KEYWORDS = Set.of(
            "break",
            "case",
            "catch",
            "class",
            "const",
            "continue",
            "debugger",
            "default",
            "delete",
            "do",
            "else",
            "export",
            "extends",
            "finally",
            "for",
            "function",
            "if",
            "import",
            "in",
            "instanceof",
            "new",
            "return",
            "super",
            "switch",
            "this",
            "throw",
            "try",
            "typeof",
            "var",
            "void",
            "while",
            "with",
            "true",
            "false",
            "null",
            "undefined",
            "let");

    private int template(int i) {
        int n = src.length();
        while (i < n && src.charAt(i) != '`') {
            char c = src.charAt(i);
            if (c == '\\') i += 2;
            else if (c == '$' && i + 1 < n && src.charAt(i + 1) == '{') {
                int depth = 1;
                i += 2;
                while (i < n && depth > 0) {
                    char d = src.charAt(i);
                    if (d == '{') depth++;
                    else if (d == '}') depth--;
                    else if (d == '`') i = template(i + 1) - 1;
                    else if (d == '"' || d == '\'') {
                        int e = i + 1;
                        while (e < n && src.charAt(e) != d) e += src.charAt(e) == '\\' ? 2 : 1;
                        i = e;
                    }
                    i++;
                }
            } else i++;
        }
        if (i >= n) throw new Syntax("unterminated template");
        return i + 1;
    }

    private int number(int i) {
        int n = src.length();
        if (src.charAt(i) == '0' && i + 1 < n && "xXoObB".indexOf(src.charAt(i + 1)) >= 0) {
            int radix = switch (Character.toLowerCase(src.charAt(i + 1))) {
                case 'x' -> 16;
                case 'o' -> 8;
                default -> 2;
            };
            i += 2;
            int d = i;
            while (i < n && (Character.digit(src.charAt(i), radix) >= 0 || src.charAt(i) == '_')) i++;
            if (i == d) throw new Syntax("bad number");
            if (i < n && src.charAt(i) == 'n') i++;
        } else {
            boolean integer = true;
            while (i < n && (isDigit(src.charAt(i)) || src.charAt(i) == '_')) i++;
            if (i < n && src.charAt(i) == '.') {
                integer = false;
                i++;
                while (i < n && (isDigit(src.charAt(i)) || src.charAt(i) == '_')) i++;
            }
            if (i < n && (src.charAt(i) == 'e' || src.charAt(i) == 'E')) {
                int save = i++;
                if (i < n && (src.charAt(i) == '+' || src.charAt(i) == '-')) i++;
                if (i < n && isDigit(src.charAt(i))) {
                    integer = false;
                    while (i < n && isDigit(src.charAt(i))) i++;
                } else i = save;
            }
            if (integer && i < n && src.charAt(i) == 'n') i++;
        }
        if (i < n && Character.isJavaIdentifierPart(src.charAt(i))) throw new Syntax("bad number");
        return i;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    // ---------------------------------------------------------------- grammar

    private Tok peek() {
        return toks.get(pos);
    }

    private Tok peek(int k) {
        return toks.get(Math.min(pos + k, toks.size() - 1));
    }

    private boolean at(String k) {
        return peek().kind.equals(k);
    }

    private Tok next() {
        return toks.get(pos++);
    }

    private Tok expect(String k) {
        if (!at(k)) throw new Syntax("expected " + k);
        return next();
    }

    private Node leafNode(String type) {
        Tok t = next();
        return new Node(type, t.start, t.end);
    }

    private int lastEnd() {
        return toks.get(pos - 1).end;
    }

    private List<Node> program() {
        List<Node> out = new ArrayList<>();
        while (!at("EOF")) out.add(statement());
        return out;
    }

    /** The end of a statement: ';', or an automatic semicolon before a line break, '}' or the end. */
    private void endStatement() {
        if (at(";")) next();
        else if (!(peek().newlineBefore || at("}") || at("EOF"))) throw new Syntax("missing ;");
    }

    private Node statement() {
        int s = peek().start;
        if (at(";")) {
            next();
            return new Node("empty_statement", s, lastEnd());
        }
        if (at("{")) {
            next();
            while (!at("}")) {
                if (at("EOF")) throw new Syntax("unclosed block");
                statement();
            }
            next();
            return new Node("statement_block", s, lastEnd());
        }
        if (at("let") || at("const") || at("var")) {
            next();
            do {
                bindingTarget();
                if (at("=")) {
                    next();
                    assignment();
                }
            } while (at(",") && next() != null);
            endStatement();
            return new Node("lexical_declaration", s, lastEnd());
        }
        if (at("return")) {
            next();
            if (!at(";") && !at("}") && !at("EOF") && !peek().newlineBefore) sequence();
            endStatement();
            return new Node("return_statement", s, lastEnd());
        }
        Node e = sequence();
        endStatement();
        return new Node("expression_statement", s, lastEnd(), List.of(e));
    }

    private void bindingTarget() {
        if (at("identifier")) next();
        else if (at("[") || at("{")) primary();
        else throw new Syntax("expected a binding");
    }

    private Node sequence() {
        Node first = assignment();
        if (!at(",")) return first;
        while (at(",")) {
            next();
            assignment();
        }
        return new Node("sequence_expression", first.start, lastEnd());
    }

    private static final Set<String> AUGMENTED =
            Set.of("+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??=");

    private Node assignment() {
        int s = peek().start;
        if (isArrow()) return arrow();
        if (at("async") || (at("identifier") && text(peek()).equals("async") && isArrowAfter(1))) {
            next();
            return arrow();
        }
        Node left = conditional();
        if (at("=")) {
            if (!Set.of("identifier", "member_expression", "subscript_expression", "array", "object", "undefined")
                    .contains(left.type)) throw new Syntax("bad assignment target");
            Node eq = leafNode("=");
            Node right = assignment();
            return new Node("assignment_expression", s, right.end, List.of(left, eq, right));
        }
        if (AUGMENTED.contains(peek().kind)) {
            if (!Set.of("identifier", "member_expression", "subscript_expression")
                    .contains(left.type)) throw new Syntax("bad assignment target");
            next();
            Node right = assignment();
            return new Node("augmented_assignment_expression", s, right.end);
        }
        return left;
    }

    private String text(Tok t) {
        return src.substring(t.start, t.end);
    }

    private boolean isArrow() {
        return isArrowAfter(0);
    }

    private boolean isArrowAfter(int k) {
        if (peek(k).kind.equals("identifier") && peek(k + 1).kind.equals("=>")) return true;
        if (!peek(k).kind.equals("(")) return false;
        int depth = 0, j = k;
        while (true) {
            String kind = peek(j).kind;
            if (kind.equals("EOF")) return false;
            if (kind.equals("(") || kind.equals("[") || kind.equals("{")) depth++;
            if (kind.equals(")") || kind.equals("]") || kind.equals("}")) depth--;
            j++;
            if (depth == 0) break;
        }
        return peek(j).kind.equals("=>");
    }

    private Node arrow() {
        int s = peek().start;
        if (at("identifier")) next();
        else parenthesized();
        expect("=>");
        if (at("{")) body();
        else assignment();
        return new Node("arrow_function", s, lastEnd());
    }

    /** A function body or any bracketed group: balanced, not parsed further. */
    private void body() {
        int depth = 0;
        do {
            if (at("EOF")) throw new Syntax("unbalanced");
            String k = next().kind;
            if (k.equals("{") || k.equals("(") || k.equals("[")) depth++;
            if (k.equals("}") || k.equals(")") || k.equals("]")) depth--;
        } while (depth > 0);
    }

    private void parenthesized() {
        body();
    }

    private Node conditional() {
        Node c = binary(0);
        if (!at("?")) return c;
        next();
        assignment();
        expect(":");
        Node alt = assignment();
        return new Node("ternary_expression", c.start, alt.end);
    }

    private static final List<Set<String>> LEVELS = List.of(
            Set.of("??"),
            Set.of("||"),
            Set.of("&&"),
            Set.of("|"),
            Set.of("^"),
            Set.of("&"),
            Set.of("==", "!=", "===", "!=="),
            Set.of("<", ">", "<=", ">=", "instanceof", "in"),
            Set.of("<<", ">>", ">>>"),
            Set.of("+", "-"),
            Set.of("*", "/", "%"));

    private Node binary(int level) {
        if (level == LEVELS.size()) return exponent();
        Node left = binary(level + 1);
        while (LEVELS.get(level).contains(peek().kind)) {
            next();
            Node right = binary(level + 1);
            left = new Node("binary_expression", left.start, right.end);
        }
        return left;
    }

    private Node exponent() {
        Node base = unary();
        if (!at("**")) return base;
        next();
        Node e = exponent();
        return new Node("binary_expression", base.start, e.end);
    }

    private Node unary() {
        int s = peek().start;
        if (Set.of("!", "~", "+", "-", "typeof", "void", "delete").contains(peek().kind)
                || (at("identifier")
                        && text(peek()).equals("await")
                        && !peek(1).kind.equals("=")
                        && !peek(1).kind.equals("(")
                        && !peek(1).kind.equals(")")
                        && !peek(1).kind.equals(","))) {
            next();
            Node o = unary();
            return new Node("unary_expression", s, o.end);
        }
        if (at("++") || at("--")) {
            next();
            Node o = unary();
            return new Node("update_expression", s, o.end);
        }
        Node e = postfix(primary());
        if ((at("++") || at("--")) && !peek().newlineBefore) {
            next();
            return new Node("update_expression", s, lastEnd());
        }
        return e;
    }

    private Node postfix(Node e) {
        while (true) {
            if (at(".") || at("?.")) {
                boolean optional = at("?.");
                next();
                if (optional && at("(")) {
                    Node args = arguments();
                    e = new Node("call_expression", e.start, args.end, List.of(e, new Node("?.", 0, 0), args));
                    continue;
                }
                if (optional && at("[")) {
                    body();
                    e = new Node("subscript_expression", e.start, lastEnd());
                    continue;
                }
                if (at("#")) next();
                Tok name = next();
                if (!name.kind.equals("identifier") && !KEYWORDS.contains(name.kind)) throw new Syntax("bad member");
                e = new Node("member_expression", e.start, name.end);
            } else if (at("[")) {
                next();
                sequence();
                expect("]");
                e = new Node("subscript_expression", e.start, lastEnd());
            } else if (at("(")) {
                Node args = arguments();
                e = new Node("call_expression", e.start, args.end, List.of(e, args));
            } else if (at("template")) {
                Tok t = next();
                e = new Node(
                        "call_expression", e.start, t.end, List.of(e, new Node("template_string", t.start, t.end)));
            } else {
                return e;
            }
        }
    }

    private Node arguments() {
        int s = peek().start;
        List<Node> children = new ArrayList<>();
        children.add(leafNode("("));
        while (!at(")")) {
            if (at("...")) {
                int ss = peek().start;
                next();
                Node v = assignment();
                children.add(new Node("spread_element", ss, v.end));
            } else children.add(assignment());
            if (at(",")) children.add(leafNode(","));
            else break;
        }
        Tok close = expect(")");
        children.add(new Node(")", close.start, close.end));
        return new Node("arguments", s, lastEnd(), children);
    }

    private Node primary() {
        Tok t = peek();
        int s = t.start;
        switch (t.kind) {
            case "identifier" -> {
                String w = text(t);
                if (w.equals("async") && peek(1).kind.equals("function")) {
                    next();
                    return primary();
                }
                return leafNode("identifier");
            }
            case "number" -> {
                return leafNode("number");
            }
            case "string" -> {
                return leafNode("string");
            }
            case "template" -> {
                return leafNode("template_string");
            }
            case "regex" -> {
                return leafNode("regex");
            }
            case "true", "false", "null", "undefined", "this", "super" -> {
                return leafNode(t.kind);
            }
            case "(" -> {
                next();
                sequence();
                expect(")");
                return new Node("parenthesized_expression", s, lastEnd());
            }
            case "[" -> {
                next();
                while (!at("]")) {
                    if (at(",")) {
                        next();
                        continue;
                    }
                    if (at("...")) next();
                    assignment();
                    if (!at("]")) expect(",");
                }
                next();
                return new Node("array", s, lastEnd());
            }
            case "{" -> {
                next();
                while (!at("}")) {
                    if (at("...")) {
                        next();
                        assignment();
                    } else {
                        boolean computed = false;
                        if (at("[")) {
                            next();
                            assignment();
                            expect("]");
                            computed = true;
                        } else {
                            Tok k = next();
                            if (!Set.of("identifier", "string", "number").contains(k.kind)
                                    && !KEYWORDS.contains(k.kind)) throw new Syntax("bad property key");
                        }
                        if (at(":")) {
                            next();
                            assignment();
                        } else if (at("(")) {
                            body();
                            if (!at("{")) throw new Syntax("method without body");
                            body();
                        } else if (at("=") && !computed) {
                            next();
                            assignment(); // shorthand with default (patterns)
                        } else if (computed) throw new Syntax("computed key without value");
                    }
                    if (!at("}")) expect(",");
                }
                next();
                return new Node("object", s, lastEnd());
            }
            case "function" -> {
                next();
                if (at("*")) next();
                if (at("identifier")) next();
                if (!at("(")) throw new Syntax("function without parameters");
                body();
                if (!at("{")) throw new Syntax("function without body");
                body();
                return new Node("function_expression", s, lastEnd());
            }
            case "class" -> {
                next();
                if (at("identifier")) next();
                if (at("extends")) {
                    next();
                    postfix(primary());
                }
                if (!at("{")) throw new Syntax("class without body");
                body();
                return new Node("class", s, lastEnd());
            }
            case "new" -> {
                next();
                if (at(".")) {
                    next();
                    expect("identifier");
                    return new Node("meta_property", s, lastEnd());
                }
                Node callee = primary();
                while (at(".") || at("[")) {
                    if (at(".")) {
                        next();
                        next();
                    } else {
                        body();
                    }
                }
                if (at("(")) arguments();
                return new Node("new_expression", s, lastEnd());
            }
            default -> throw new Syntax("unexpected " + t.kind);
        }
    }
}
