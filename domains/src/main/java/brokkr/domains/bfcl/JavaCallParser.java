package brokkr.domains.bfcl;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.SourceVersion;

/**
 * Upstream's {@code bfcl_eval/model_handler/parser/java_parser.py} {@code parse_java_function_call}: a
 * prompting-mode model's Java call text, parsed as tree-sitter-java 0.21.0 (py-tree-sitter 0.21.3) parses it,
 * then read the way that function reads the tree. Upstream's tree-sitter is not available here, so this is a
 * recursive-descent parser for the part of tree-sitter-java's grammar a call can use, building the nodes
 * tree-sitter builds (same node types, children and fields, so {@code traverse_node}'s text joins come out
 * the same): statements of expressions; assignment, lambda, ternary, binary, instanceof, unary, update, cast
 * expressions; literals, identifiers, {@code this}, field access, array access, method invocation, method
 * reference, class literals, object creation (with anonymous class bodies kept as balanced text), array
 * creation and initializers; simple, scoped, generic and array types. Anything else is tree-sitter's ERROR
 * (the function raises {@code SyntaxError("Error parsing java the source code.")}), with one recovery kept:
 * a statement's missing {@code ;} is tree-sitter's MISSING node, which {@code "ERROR" in sexp} does not see
 * (so {@code foo(a=1)} parses, as upstream's leaderboard relies on). Comments are not read (argued: rare in a
 * call). Quirks reproduced from the function: {@code get_text} slices the Python str with UTF-8 byte offsets
 * (text after a non-ASCII character is shifted); a top-level string/char literal loses its first and last
 * character with no unescaping; nested values are the concatenation of their tokens without whitespace,
 * except identifiers, class literals, type identifiers and method invocations (verbatim) and array / object
 * creation (re-spelled {@code new T[]{..}} / {@code new T(a, b)}, an anonymous class body dropped, an array
 * creation without initializer an AttributeError); only {@code name=value} arguments and positional
 * identifiers / class literals are kept (the latter under the key None, written "None" here: the checker
 * only prints it); a repeated name raises; the first method invocation in the tree (pre-order) is the call;
 * none gives {@code {}}.
 */
final class JavaCallParser {

    /** A parse failure: the exception upstream raises, as its type and {@code str(e)}. */
    static final class Failure extends RuntimeException {
        final String pyType;

        Failure(String pyType, String message) {
            super(message, null, false, false);
            this.pyType = pyType;
        }
    }

    static final String SYNTAX = "Error parsing java the source code.";

    /** A tree-sitter node: type, code point span, children and field names. */
    static final class Node {
        final String type;
        final int start;
        int end;
        final List<Node> children = new ArrayList<>();
        final Map<String, Node> fields = new LinkedHashMap<>();

        Node(String type, int start, int end) {
            this.type = type;
            this.start = start;
            this.end = end;
        }

        Node add(Node c) {
            children.add(c);
            end = Math.max(end, c.end);
            return c;
        }

        Node add(String field, Node c) {
            fields.put(field, c);
            return add(c);
        }
    }

    private record Tok(String kind, String text, int start, int end) {}

    private final int[] cps;
    private final int[] byteAt;
    private final List<Tok> toks = new ArrayList<>();
    private int pos;

    private JavaCallParser(String source) {
        cps = source.codePoints().toArray();
        byteAt = new int[cps.length + 1];
        for (int i = 0; i < cps.length; i++)
            byteAt[i + 1] = byteAt[i] + new String(Character.toChars(cps[i])).getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * parse_java_function_call(source): {@code [{name: {param: value}}]}, {@code {}} (an empty dict: no call),
     * or a {@link Failure}.
     */
    static PyObj parse(String source) {
        JavaCallParser p = new JavaCallParser(source);
        Node root;
        try {
            p.tokenize();
            root = p.program();
        } catch (Syntax e) {
            throw new Failure("SyntaxError", SYNTAX);
        }
        PyObj r = p.traverse(root);
        return r == null ? new PyObj.Dict(Map.of()) : r;
    }

    /** The tree (tests). */
    static Node tree(String source) {
        JavaCallParser p = new JavaCallParser(source);
        p.tokenize();
        return p.program();
    }

    private static final class Syntax extends RuntimeException {
        Syntax(String m) {
            super(m, null, false, false);
        }
    }

    // ---------------------------------------------------------------- reading the tree (java_parser.py)

    /** get_text: {@code source_code[node.start_byte : node.end_byte]}, byte offsets on a str. */
    private String text(Node n) {
        int from = Math.min(byteAt[n.start], cps.length), to = Math.min(byteAt[n.end], cps.length);
        if (to <= from) return "";
        return new String(cps, from, to - from);
    }

    private String traverseNode(Node node, boolean nested) {
        if (node == null) throw new Failure("AttributeError", "'NoneType' object has no attribute 'type'");
        switch (node.type) {
            case "string_literal", "character_literal" -> {
                String t = text(node);
                return nested ? t : pySlice1(t);
            }
            case "identifier", "class_literal", "type_identifier", "method_invocation" -> {
                return text(node);
            }
            case "array_creation_expression" -> {
                String type = traverseNode(node.fields.get("type"), true);
                String value = traverseNode(node.fields.get("value"), true);
                return "new " + type + "[]" + value;
            }
            case "object_creation_expression" -> {
                String type = traverseNode(node.fields.get("type"), true);
                Node args = node.fields.get("arguments");
                List<String> parts = new ArrayList<>();
                for (Node c : args.children)
                    if (!Set.of(",", "(", ")").contains(c.type)) parts.add(traverseNode(c, true));
                return "new " + type + "(" + String.join(", ", parts) + ")";
            }
            default -> {
                if (!node.children.isEmpty()) {
                    StringBuilder sb = new StringBuilder();
                    for (Node c : node.children) sb.append(traverseNode(c, true));
                    return sb.toString();
                }
                return text(node);
            }
        }
    }

    /** Python's {@code s[1:-1]}. */
    private static String pySlice1(String s) {
        int[] c = s.codePoints().toArray();
        return c.length <= 2 ? "" : new String(c, 1, c.length - 2);
    }

    private PyObj traverse(Node node) {
        if (node.type.equals("method_invocation")) {
            String method = text(node.fields.get("name"));
            Node object = node.fields.get("object");
            String name = object != null ? text(object) + "." + method : method;
            Node args = node.fields.get("arguments");
            Map<String, List<String>> arguments = new LinkedHashMap<>();
            for (Node c : args.children) {
                if (c.type.equals("assignment_expression")) {
                    String k = text(c.children.get(0));
                    arguments.computeIfAbsent(k, x -> new ArrayList<>()).add(traverseNode(c.children.get(2), false));
                } else if (Set.of("identifier", "class_literal", "set").contains(c.type)) {
                    arguments.computeIfAbsent("None", x -> new ArrayList<>()).add(traverseNode(c, false));
                }
            }
            Map<String, PyObj> params = new LinkedHashMap<>();
            for (Map.Entry<String, List<String>> e : arguments.entrySet()) {
                if (e.getValue().size() > 1)
                    throw new Failure("Exception", "Error: Multiple arguments with the same name are not supported.");
                params.put(e.getKey(), PyObj.str(e.getValue().getFirst()));
            }
            Map<String, PyObj> call = new LinkedHashMap<>();
            call.put(name, new PyObj.Dict(params));
            return PyObj.list(List.of(new PyObj.Dict(call)));
        }
        for (Node c : node.children) {
            PyObj r = traverse(c);
            if (r != null) return r;
        }
        return null;
    }

    // ---------------------------------------------------------------- tokens

    /**
     * Java's reserved words and literals (tree-sitter-java's keyword tokens): the JDK's own list, less {@code _},
     * which the hand-written list this replaces did not hold (behaviour kept).
     */
    private static boolean keyword(String w) {
        return SourceVersion.isKeyword(w) && !w.equals("_");
    }

    private static final String[] OPS = {
        ">>>=", "<<=", ">>=", ">>>", "...", "->", "::", "++", "--", "&&", "||", "==", "!=", "<=", ">=", "+=", "-=",
        "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "(", ")", "{", "}", "[", "]", ";", ",", ".", "@", "=", ">", "<",
        "!", "~", "?", ":", "+", "-", "*", "/", "&", "|", "^", "%"
    };

    private void tokenize() {
        int i = 0, n = cps.length;
        while (i < n) {
            int c = cps[i];
            if (Character.isWhitespace(c) || c == 0xFEFF) {
                i++;
                continue;
            }
            int s = i;
            if (c == '"') {
                boolean block = i + 2 < n && cps[i + 1] == '"' && cps[i + 2] == '"';
                if (block) {
                    i += 3;
                    while (i < n && !(cps[i] == '"' && i + 2 < n && cps[i + 1] == '"' && cps[i + 2] == '"')) {
                        if (cps[i] == '\\') i++;
                        i++;
                    }
                    if (i >= n) throw new Syntax("unterminated text block");
                    i += 3;
                } else {
                    i++;
                    while (i < n && cps[i] != '"') {
                        if (cps[i] == '\n') throw new Syntax("newline in string");
                        if (cps[i] == '\\') i++;
                        i++;
                    }
                    if (i >= n) throw new Syntax("unterminated string");
                    i++;
                }
                toks.add(new Tok("string_literal", null, s, i));
            } else if (c == '\'') {
                // tree-sitter-java 0.21.0 character_literal: ' then one or more of [^\\'\n], \\., \\\n, then '
                // (so 'abc' is one).
                i++;
                int body = i;
                while (i < n && cps[i] != '\'' && cps[i] != '\n') {
                    if (cps[i] == '\\') i++;
                    i++;
                }
                if (i >= n || cps[i] != '\'' || i == body) throw new Syntax("bad char literal");
                i++;
                toks.add(new Tok("character_literal", null, s, i));
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(cps[i + 1]))) {
                i = number(i);
                toks.add(new Tok("number", null, s, i));
            } else if (Character.isJavaIdentifierStart(c)) {
                while (i < n && Character.isJavaIdentifierPart(cps[i]) && cps[i] != 0) i++;
                String w = new String(cps, s, i - s);
                toks.add(new Tok(keyword(w) ? w : "identifier", w, s, i));
            } else {
                String op = null;
                for (String o : OPS) {
                    if (matches(i, o)) {
                        op = o;
                        break;
                    }
                }
                if (op == null) throw new Syntax("unexpected character");
                i += op.length();
                toks.add(new Tok(op, op, s, i));
            }
        }
        toks.add(new Tok("EOF", "", n, n));
    }

    private boolean matches(int i, String o) {
        if (i + o.length() > cps.length) return false;
        for (int k = 0; k < o.length(); k++) if (cps[i + k] != o.charAt(k)) return false;
        return true;
    }

    /** A Java number literal (tree-sitter-java's integer and floating point literal tokens). */
    private int number(int i) {
        int n = cps.length;
        if (cps[i] == '0'
                && i + 1 < n
                && (cps[i + 1] == 'x' || cps[i + 1] == 'X' || cps[i + 1] == 'b' || cps[i + 1] == 'B')) {
            boolean hex = cps[i + 1] == 'x' || cps[i + 1] == 'X';
            i += 2;
            int d = i;
            while (i < n && (Character.digit(cps[i], hex ? 16 : 2) >= 0 || cps[i] == '_')) i++;
            if (i == d) throw new Syntax("bad number");
            if (i < n && (cps[i] == 'l' || cps[i] == 'L')) i++;
        } else {
            while (i < n && (isAsciiDigit(cps[i]) || cps[i] == '_')) i++;
            boolean fp = false;
            if (i < n && cps[i] == '.' && !(i + 1 < n && Character.isJavaIdentifierStart(cps[i + 1]))) {
                fp = true;
                i++;
                while (i < n && (isAsciiDigit(cps[i]) || cps[i] == '_')) i++;
            }
            if (i < n && (cps[i] == 'e' || cps[i] == 'E')) {
                int save = i;
                i++;
                if (i < n && (cps[i] == '+' || cps[i] == '-')) i++;
                if (i < n && isAsciiDigit(cps[i])) {
                    fp = true;
                    while (i < n && (isAsciiDigit(cps[i]) || cps[i] == '_')) i++;
                } else {
                    i = save;
                }
            }
            if (i < n && "fFdD".indexOf(cps[i]) >= 0) i++;
            else if (!fp && i < n && (cps[i] == 'l' || cps[i] == 'L')) i++;
        }
        if (i < n && Character.isJavaIdentifierPart(cps[i])) throw new Syntax("bad number suffix");
        return i;
    }

    private static boolean isAsciiDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private Tok peek() {
        return toks.get(pos);
    }

    private Tok peek(int k) {
        return toks.get(Math.min(pos + k, toks.size() - 1));
    }

    private boolean at(String kind) {
        return peek().kind.equals(kind);
    }

    private Node leaf(String type) {
        Tok t = toks.get(pos++);
        return new Node(type, t.start, t.end);
    }

    private Node expect(String kind) {
        if (!at(kind)) throw new Syntax("expected " + kind + " at " + peek().start);
        return leaf(kind);
    }

    /** A {@code >} where the lexer made {@code >>} or {@code >>>} (type arguments): split the token. */
    private Node expectCloseAngle() {
        Tok t = peek();
        if (t.kind.equals(">")) return leaf(">");
        if (t.kind.startsWith(">>")) {
            String rest = t.kind.substring(1);
            toks.set(pos, new Tok(rest, rest, t.start + 1, t.end));
            return new Node(">", t.start, t.start + 1);
        }
        throw new Syntax("expected >");
    }

    // ---------------------------------------------------------------- grammar

    private Node program() {
        Node root = new Node("program", 0, 0);
        while (!at("EOF")) root.add(statement());
        root.end = cps.length == 0 ? 0 : root.end;
        return root;
    }

    private Node statement() {
        if (at(";")) return leaf(";");
        if (at("{")) {
            Node b = new Node("block", peek().start, peek().end);
            b.add(leaf("{"));
            while (!at("}")) {
                if (at("EOF")) throw new Syntax("unclosed block");
                b.add(statement());
            }
            b.add(leaf("}"));
            return b;
        }
        if (at("return")) {
            Node r = new Node("return_statement", peek().start, peek().end);
            r.add(leaf("return"));
            if (!at(";")) r.add(expression());
            if (at(";")) r.add(leaf(";"));
            return r;
        }
        Node s = new Node("expression_statement", peek().start, peek().end);
        s.add(expression());
        // A missing ';' is tree-sitter's MISSING node (zero width, no ERROR in the sexp).
        if (at(";")) s.add(leaf(";"));
        return s;
    }

    private Node expression() {
        Node left = ternary();
        if (isAssignOp(peek().kind)) {
            if (!Set.of("identifier", "field_access", "array_access").contains(left.type))
                throw new Syntax("bad assignment target");
            Node a = new Node("assignment_expression", left.start, left.end);
            a.add("left", left);
            a.add("operator", leaf(peek().kind));
            a.add("right", expression());
            return a;
        }
        return left;
    }

    private static boolean isAssignOp(String k) {
        return Set.of("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>=")
                .contains(k);
    }

    private Node ternary() {
        Node cond = binary(0);
        if (!at("?")) return cond;
        Node t = new Node("ternary_expression", cond.start, cond.end);
        t.add("condition", cond);
        t.add(leaf("?"));
        t.add("consequence", expression());
        t.add(expect(":"));
        t.add("alternative", expression());
        return t;
    }

    private static final List<Set<String>> LEVELS = List.of(
            Set.of("||"),
            Set.of("&&"),
            Set.of("|"),
            Set.of("^"),
            Set.of("&"),
            Set.of("==", "!="),
            Set.of("<", "<=", ">", ">=", "instanceof"),
            Set.of("<<", ">>", ">>>"),
            Set.of("+", "-"),
            Set.of("*", "/", "%"));

    private Node binary(int level) {
        if (level == LEVELS.size()) return unary();
        Node left = binary(level + 1);
        while (LEVELS.get(level).contains(peek().kind)) {
            if (at("instanceof")) {
                Node b = new Node("instanceof_expression", left.start, left.end);
                b.add("left", left);
                b.add(leaf("instanceof"));
                if (at("final")) b.add(leaf("final"));
                b.add("right", type());
                if (at("identifier")) b.add("name", leaf("identifier"));
                left = b;
                continue;
            }
            Node b = new Node("binary_expression", left.start, left.end);
            b.add("left", left);
            b.add("operator", leaf(peek().kind));
            b.add("right", binary(level + 1));
            left = b;
        }
        return left;
    }

    private Node unary() {
        Tok t = peek();
        if (Set.of("+", "-", "!", "~").contains(t.kind)) {
            Node u = new Node("unary_expression", t.start, t.end);
            u.add("operator", leaf(t.kind));
            u.add("operand", unary());
            return u;
        }
        if (t.kind.equals("++") || t.kind.equals("--")) {
            Node u = new Node("update_expression", t.start, t.end);
            u.add(leaf(t.kind));
            u.add(unary());
            return u;
        }
        if (t.kind.equals("(") && isCast()) {
            Node c = new Node("cast_expression", t.start, t.end);
            c.add(leaf("("));
            c.add("type", type());
            while (at("&")) {
                c.add(leaf("&"));
                c.add("type", type());
            }
            c.add(expect(")"));
            c.add("value", unary());
            return c;
        }
        Node e = postfix(primary());
        if (at("++") || at("--")) {
            Node u = new Node("update_expression", e.start, e.end);
            u.add(e);
            u.add(leaf(peek().kind));
            return u;
        }
        return e;
    }

    private static final Set<String> PRIMITIVES =
            Set.of("byte", "short", "int", "long", "char", "float", "double", "boolean");

    /** {@code (Type) x}: a primitive type, or a reference type followed by something that can start an operand. */
    private boolean isCast() {
        Tok a = peek(1);
        if (PRIMITIVES.contains(a.kind)) {
            int k = 2;
            while (peek(k).kind.equals("[") && peek(k + 1).kind.equals("]")) k += 2;
            return peek(k).kind.equals(")");
        }
        if (!a.kind.equals("identifier")) return false;
        int k = 1, depth = 0;
        while (true) {
            String kind = peek(k).kind;
            if (kind.equals("EOF")) return false;
            if (kind.equals("<")) depth++;
            else if (kind.equals(">")) depth--;
            else if (kind.equals(">>")) depth -= 2;
            else if (kind.equals(">>>")) depth -= 3;
            else if (kind.equals(")") && depth == 0) break;
            else if (!Set.of("identifier", ".", ",", "[", "]", "?", "extends", "super", "&")
                    .contains(kind)) return false;
            k++;
        }
        Tok after = peek(k + 1);
        return Set.of(
                        "identifier",
                        "string_literal",
                        "character_literal",
                        "number",
                        "(",
                        "this",
                        "new",
                        "true",
                        "false",
                        "null",
                        "!",
                        "~",
                        "super")
                .contains(after.kind);
    }

    private Node primary() {
        Tok t = peek();
        switch (t.kind) {
            case "number" -> {
                String s = new String(cps, t.start, t.end - t.start).toLowerCase();
                String type;
                if (s.startsWith("0x"))
                    type = s.contains(".") || s.contains("p") ? "hex_floating_point_literal" : "hex_integer_literal";
                else if (s.startsWith("0b")) type = "binary_integer_literal";
                else if (s.contains(".") || s.contains("e") || s.endsWith("f") || s.endsWith("d"))
                    type = "decimal_floating_point_literal";
                else if (s.length() > 1 && s.startsWith("0") && !s.equals("0l")) type = "octal_integer_literal";
                else type = "decimal_integer_literal";
                return leaf(type);
            }
            case "string_literal", "character_literal" -> {
                return leaf(t.kind);
            }
            case "true", "false" -> {
                return leaf(t.kind);
            }
            case "null" -> {
                return leaf("null_literal");
            }
            case "this" -> {
                return leaf("this");
            }
            case "super" -> {
                return leaf("super");
            }
            case "new" -> {
                return creation();
            }
            case "(" -> {
                if (isLambdaParams()) return lambda();
                Node p = new Node("parenthesized_expression", t.start, t.end);
                p.add(leaf("("));
                p.add(expression());
                p.add(expect(")"));
                return p;
            }
            case "identifier" -> {
                if (peek(1).kind.equals("->")) return lambda();
                return leaf("identifier");
            }
            default -> {
                if (PRIMITIVES.contains(t.kind) || t.kind.equals("void")) {
                    // int.class, int[].class
                    Node type = type();
                    if (!at(".") || !peek(1).kind.equals("class")) throw new Syntax("type outside a cast");
                    Node c = new Node("class_literal", type.start, type.end);
                    c.add(type);
                    c.add(leaf("."));
                    c.add(leaf("class"));
                    return c;
                }
                throw new Syntax("unexpected " + t.kind);
            }
        }
    }

    private boolean isLambdaParams() {
        int k = 1, depth = 1;
        while (depth > 0) {
            String kind = peek(k).kind;
            if (kind.equals("EOF")) return false;
            if (kind.equals("(")) depth++;
            if (kind.equals(")")) depth--;
            k++;
        }
        return peek(k).kind.equals("->");
    }

    private Node lambda() {
        Node l = new Node("lambda_expression", peek().start, peek().end);
        if (at("identifier")) {
            l.add("parameters", leaf("identifier"));
        } else {
            int save = pos;
            boolean inferred = true;
            int k = 1;
            while (!peek(k).kind.equals(")")) {
                if (peek(k).kind.equals("EOF")) throw new Syntax("unclosed lambda parameters");
                if (!peek(k).kind.equals("identifier") && !peek(k).kind.equals(",")) inferred = false;
                k++;
            }
            Node params = new Node(inferred ? "inferred_parameters" : "formal_parameters", peek().start, peek().end);
            params.add(leaf("("));
            if (inferred) {
                while (!at(")")) params.add(at(",") ? leaf(",") : leaf("identifier"));
            } else {
                while (!at(")")) {
                    if (at(",")) {
                        params.add(leaf(","));
                        continue;
                    }
                    Node fp = new Node("formal_parameter", peek().start, peek().end);
                    while (at("final")) fp.add(leaf("final"));
                    fp.add("type", type());
                    fp.add("name", expect("identifier"));
                    params.add(fp);
                }
            }
            params.add(expect(")"));
            l.add("parameters", params);
            if (pos <= save) throw new Syntax("lambda");
        }
        l.add(expect("->"));
        if (at("{")) l.add("body", statement());
        else l.add("body", expression());
        return l;
    }

    private Node postfix(Node e) {
        while (true) {
            if (at(".")) {
                Tok next = peek(1);
                if (next.kind.equals("class") && isTypeLike(e)) {
                    Node c = new Node("class_literal", e.start, e.end);
                    c.add(typeOf(e));
                    c.add(leaf("."));
                    c.add(leaf("class"));
                    e = c;
                    continue;
                }
                if (next.kind.equals("new")) {
                    Node dot = leaf(".");
                    Node creation = creation();
                    Node o = new Node("object_creation_expression", e.start, e.end);
                    o.add(e);
                    o.add(dot);
                    for (Node c : creation.children) o.add(c);
                    o.fields.putAll(creation.fields);
                    e = o;
                    continue;
                }
                if (next.kind.equals("this") || next.kind.equals("super")) {
                    Node f = new Node("field_access", e.start, e.end);
                    f.add("object", e);
                    f.add(leaf("."));
                    f.add("field", leaf(next.kind));
                    e = f;
                    continue;
                }
                Node dot = leaf(".");
                Node name = expect("identifier");
                if (at("(")) {
                    Node m = new Node("method_invocation", e.start, e.end);
                    m.add("object", e);
                    m.add(dot);
                    m.add("name", name);
                    m.add("arguments", arguments());
                    e = m;
                } else {
                    Node f = new Node("field_access", e.start, e.end);
                    f.add("object", e);
                    f.add(dot);
                    f.add("field", name);
                    e = f;
                }
            } else if (at("(") && e.type.equals("identifier")) {
                Node m = new Node("method_invocation", e.start, e.end);
                m.add("name", e);
                m.add("arguments", arguments());
                e = m;
            } else if (at("[")) {
                if (peek(1).kind.equals("]") && isTypeLike(e)) {
                    // Foo[].class
                    Node at = new Node("array_type", e.start, e.end);
                    at.add("element", typeOf(e));
                    at.add("dimensions", dimensions());
                    if (!at(".") || !peek(1).kind.equals("class")) throw new Syntax("array type outside class literal");
                    Node c = new Node("class_literal", at.start, at.end);
                    c.add(at);
                    c.add(leaf("."));
                    c.add(leaf("class"));
                    e = c;
                    continue;
                }
                Node a = new Node("array_access", e.start, e.end);
                a.add("array", e);
                a.add(leaf("["));
                a.add("index", expression());
                a.add(expect("]"));
                e = a;
            } else if (at("::")) {
                Node r = new Node("method_reference", e.start, e.end);
                r.add(e);
                r.add(leaf("::"));
                if (at("new")) r.add(leaf("new"));
                else r.add(expect("identifier"));
                e = r;
            } else {
                return e;
            }
        }
    }

    private static boolean isTypeLike(Node e) {
        return e.type.equals("identifier") || e.type.equals("field_access") && isTypeLike(e.fields.get("object"));
    }

    /** An identifier / field access read again as a type (class literals: tree-sitter parses a type there). */
    private Node typeOf(Node e) {
        if (e.type.equals("identifier")) return new Node("type_identifier", e.start, e.end);
        Node s = new Node("scoped_type_identifier", e.start, e.end);
        s.add(typeOf(e.fields.get("object")));
        s.add(new Node(".", e.children.get(1).start, e.children.get(1).end));
        s.add(new Node("type_identifier", e.fields.get("field").start, e.fields.get("field").end));
        return s;
    }

    private Node arguments() {
        Node a = new Node("argument_list", peek().start, peek().end);
        a.add(expect("("));
        if (!at(")")) {
            a.add(expression());
            while (at(",")) {
                a.add(leaf(","));
                a.add(expression());
            }
        }
        a.add(expect(")"));
        return a;
    }

    private Node dimensions() {
        Node d = new Node("dimensions", peek().start, peek().end);
        while (at("[") && peek(1).kind.equals("]")) {
            d.add(leaf("["));
            d.add(leaf("]"));
        }
        return d;
    }

    /** {@code new T(args) {body}?} or {@code new T[..]..} / {@code new T[]{..}}. */
    private Node creation() {
        Tok start = peek();
        Node newTok = expect("new");
        Node typeArgs = at("<") ? typeArguments() : null;
        Node type = simpleType();
        if (at("[")) {
            Node a = new Node("array_creation_expression", start.start, start.end);
            a.add(newTok);
            a.add("type", type);
            if (peek(1).kind.equals("]")) {
                a.add("dimensions", dimensions());
                a.add("value", arrayInitializer());
            } else {
                while (at("[") && !peek(1).kind.equals("]")) {
                    Node de = new Node("dimensions_expr", peek().start, peek().end);
                    de.add(leaf("["));
                    de.add(expression());
                    de.add(expect("]"));
                    a.add("dimensions", de);
                }
                if (at("[")) a.add("dimensions", dimensions());
            }
            return a;
        }
        Node o = new Node("object_creation_expression", start.start, start.end);
        o.add(newTok);
        if (typeArgs != null) o.add("type_arguments", typeArgs);
        o.add("type", type);
        o.add("arguments", arguments());
        if (at("{")) o.add(classBody());
        return o;
    }

    /** An anonymous class body: balanced braces, its content read as tokens (not modelled further). */
    private Node classBody() {
        Node b = new Node("class_body", peek().start, peek().end);
        int depth = 0;
        do {
            if (at("EOF")) throw new Syntax("unclosed class body");
            if (at("{")) depth++;
            if (at("}")) depth--;
            b.add(leaf(peek().kind));
        } while (depth > 0);
        return b;
    }

    private Node arrayInitializer() {
        Node a = new Node("array_initializer", peek().start, peek().end);
        a.add(expect("{"));
        while (!at("}")) {
            a.add(at("{") ? arrayInitializer() : expression());
            if (at(",")) a.add(leaf(","));
            else break;
        }
        a.add(expect("}"));
        return a;
    }

    /** A type with its array dimensions. */
    private Node type() {
        Node t = simpleType();
        if (at("[") && peek(1).kind.equals("]")) {
            Node a = new Node("array_type", t.start, t.end);
            a.add("element", t);
            a.add("dimensions", dimensions());
            return a;
        }
        return t;
    }

    private Node simpleType() {
        Tok t = peek();
        if (PRIMITIVES.contains(t.kind)) {
            String type = switch (t.kind) {
                case "float", "double" -> "floating_point_type";
                case "boolean" -> "boolean_type";
                default -> "integral_type";
            };
            if (type.equals("boolean_type")) return leaf("boolean_type");
            Node n = new Node(type, t.start, t.end);
            n.add(leaf(t.kind));
            return n;
        }
        if (t.kind.equals("void")) return leaf("void_type");
        if (t.kind.equals("?")) {
            Node w = new Node("wildcard", t.start, t.end);
            w.add(leaf("?"));
            if (at("extends") || at("super")) {
                w.add(leaf(peek().kind));
                w.add(type());
            }
            return w;
        }
        if (!t.kind.equals("identifier")) throw new Syntax("expected a type");
        Node type = leaf("type_identifier");
        while (true) {
            if (at("<")) {
                Node g = new Node("generic_type", type.start, type.end);
                g.add(type);
                g.add(typeArguments());
                type = g;
            } else if (at(".") && peek(1).kind.equals("identifier")) {
                Node s = new Node("scoped_type_identifier", type.start, type.end);
                s.add(type);
                s.add(leaf("."));
                s.add(leaf("type_identifier"));
                type = s;
            } else {
                return type;
            }
        }
    }

    private Node typeArguments() {
        Node a = new Node("type_arguments", peek().start, peek().end);
        a.add(expect("<"));
        if (!at(">") && !peek().kind.startsWith(">>")) {
            a.add(type());
            while (at(",")) {
                a.add(leaf(","));
                a.add(type());
            }
        }
        a.add(expectCloseAngle());
        return a;
    }
}
