package brokkr.repl;

import brokkr.conversation.ToolSpec;
import brokkr.sandbox.MiniJson;
import brokkr.sandbox.TypeText;
import brokkr.tool.ResultTypes;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A benchmark's JSON tools as Java, for a REPL action space: the source evaluated in the sandbox
 * before the first snippet (methods that call the harness through {@code brokkr.sandbox.SandboxBridge})
 * and the text that tells the model about them, with the same information as the JSON schemas: every
 * tool as a Java signature with its full description and every parameter's type and description.
 *
 * <p>Two shapes. {@link #namespace}: the tools are methods of one object ({@code tau2.get_order_details("#W1")}),
 * positional parameters in schema order (overloads leave out trailing optional ones), returning the
 * tool's result text. {@link #recorders}: each tool is a top-level method taking one map of keyword
 * arguments (BFCL: every call is one emitted call).
 */
public record JavaApi(String source, String reference, Map<String, String> docs) {

    /** Helpers every REPL gets: {@code map(k, v, ...)} and {@code list(...)} allow nulls and keep order. */
    static final String HELPERS = """
            Map<String, Object> map(Object... keysAndValues) { return brokkr.sandbox.SandboxBridge.map(keysAndValues); }
            List<Object> list(Object... values) { return brokkr.sandbox.SandboxBridge.list(values); }
            """;

    private static final Set<String> RESERVED = Set.of(
            "abstract",
            "assert",
            "boolean",
            "break",
            "byte",
            "case",
            "catch",
            "char",
            "class",
            "const",
            "continue",
            "default",
            "do",
            "double",
            "else",
            "enum",
            "extends",
            "final",
            "finally",
            "float",
            "for",
            "goto",
            "if",
            "implements",
            "import",
            "instanceof",
            "int",
            "interface",
            "long",
            "native",
            "new",
            "package",
            "private",
            "protected",
            "public",
            "return",
            "short",
            "static",
            "strictfp",
            "super",
            "switch",
            "synchronized",
            "this",
            "throw",
            "throws",
            "transient",
            "try",
            "void",
            "volatile",
            "while",
            "true",
            "false",
            "null",
            "var",
            "record",
            "yield",
            "sealed",
            "permits",
            "when",
            "_");

    /** A name usable in Java: other characters become {@code _}, a reserved word gets a trailing {@code _}. */
    public static String javaName(String name) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            b.append(
                    i == 0
                            ? (Character.isJavaIdentifierStart(c) ? c : '_')
                            : (Character.isJavaIdentifierPart(c) ? c : '_'));
        }
        String s = b.isEmpty() ? "_arg" : b.toString();
        return RESERVED.contains(s) ? s + "_" : s;
    }

    record Param(String name, String javaName, String type, boolean required, String description) {}

    static List<Param> params(ToolSpec t) {
        List<Param> out = new ArrayList<>();
        PyDict schema = t.parameters() == null ? PyDict.empty() : t.parameters();
        Value props = schema.get("properties");
        Value req = schema.get("required");
        List<String> required = new ArrayList<>();
        if (req instanceof PyList l) for (Value v : l) required.add(v.asStr());
        if (props instanceof PyDict p) {
            for (var e : p.entries()) {
                boolean r = required.contains(e.getKey());
                PyDict ps = e.getValue() instanceof PyDict d ? d : PyDict.empty();
                String desc = ps.get("description") instanceof PyStr s ? s.value() : "";
                out.add(new Param(e.getKey(), javaName(e.getKey()), javaType(ps, r), r, desc + constraints(ps)));
            }
        }
        return out;
    }

    /** What the schema says beyond the description (enum values, defaults, item types), as JSON schema says it. */
    private static String constraints(PyDict ps) {
        StringBuilder b = new StringBuilder();
        for (String k : List.of("enum", "default", "items", "properties", "format")) {
            Value v = ps.get(k);
            if (v != null)
                b.append(b.isEmpty() ? " [" : ", ").append(k).append(": ").append(brokkr.python.PyJson.dumps(v));
        }
        return b.isEmpty() ? "" : b.append(']').toString();
    }

    static String javaType(PyDict ps, boolean required) {
        Value type = ps.get("type");
        String t = type instanceof PyStr s ? s.value() : null;
        if (t == null && ps.get("anyOf") instanceof PyList any) {
            List<String> types = new ArrayList<>();
            for (Value v : any)
                if (v instanceof PyDict d
                        && d.get("type") instanceof PyStr s
                        && !s.value().equals("null")) types.add(s.value());
            if (types.size() == 1) return boxed(base(types.getFirst()));
            return "Object";
        }
        String b = t == null ? "Object" : base(t);
        return required ? b : boxed(b);
    }

    private static String base(String jsonType) {
        return switch (jsonType) {
            case "string" -> "String";
            case "integer" -> "long";
            case "number", "float" -> "double";
            case "boolean" -> "boolean";
            case "array", "tuple" -> "List<?>";
            case "object", "dict" -> "Map<String, ?>";
            default -> "Object";
        };
    }

    private static String boxed(String t) {
        return switch (t) {
            case "long" -> "Long";
            case "double" -> "Double";
            case "boolean" -> "Boolean";
            default -> t;
        };
    }

    /**
     * The tools as methods of {@code var}, an instance of class {@code className}, with
     * {@code var.parse(text)}, {@code var.shape(x)}, {@code var.doc(name)}, {@code var.tools()} and
     * {@code var.call(name, map)}.
     */
    public static JavaApi namespace(String var, String className, List<ToolSpec> tools) {
        return namespace(var, className, tools, null);
    }

    /**
     * As above, with each tool's result type ({@code types}' {@code assistant/NAME}; null: none) at the end of its
     * {@code var.doc(name)}, {@code var.types()} listing the named types and {@code var.check(type, value)} giving a
     * value's first violation of a named type or of a tool's result type (null when it fits; JSON text is parsed
     * first). The reference (what a prompt shows) is the same with or without types: whether a prompt shows them
     * is a guidance of its own.
     */
    public static JavaApi namespace(String var, String className, List<ToolSpec> tools, ResultTypes types) {
        StringBuilder src = new StringBuilder(HELPERS);
        StringBuilder ref = new StringBuilder();
        Map<String, String> docs = new LinkedHashMap<>();
        src.append("final class ").append(className).append(" {\n");
        for (ToolSpec t : tools) {
            List<Param> ps = params(t);
            String m = javaName(t.name());
            int firstOptionalTail = ps.size();
            while (firstOptionalTail > 0 && !ps.get(firstOptionalTail - 1).required()) firstOptionalTail--;
            for (int n = ps.size(); n >= firstOptionalTail; n--) {
                List<Param> shown = ps.subList(0, n);
                src.append("  public String ").append(m).append('(');
                src.append(String.join(
                        ", ",
                        shown.stream().map(p -> p.type() + " " + p.javaName()).toList()));
                src.append(") {\n    Map<String, Object> a = new LinkedHashMap<>();\n");
                for (Param p : shown) {
                    if (p.required())
                        src.append("    a.put(")
                                .append(lit(p.name()))
                                .append(", ")
                                .append(p.javaName())
                                .append(");\n");
                    else
                        src.append("    if (")
                                .append(p.javaName())
                                .append(" != null) a.put(")
                                .append(lit(p.name()))
                                .append(", ")
                                .append(p.javaName())
                                .append(");\n");
                }
                src.append("    return brokkr.sandbox.SandboxBridge.call(")
                        .append(lit(t.name()))
                        .append(", a);\n  }\n");
            }
            String doc = doc(var + ".", m, ps, t.description(), "String");
            ref.append(doc).append('\n');
            Map<?, ?> type = types == null ? null : types.type("assistant", t.name());
            if (type != null) doc += "\nreturns " + TypeText.withDefinitions(types.defs(), type);
            docs.put(t.name(), doc);
        }
        src.append(
                "  public String call(String name, Map<String, ?> args) { return brokkr.sandbox.SandboxBridge.call(name, new LinkedHashMap<String, Object>(args)); }\n");
        src.append("  public Object parse(String json) { return brokkr.sandbox.SandboxBridge.parse(json); }\n");
        src.append("  public String shape(Object value) { return brokkr.sandbox.SandboxBridge.shape(value); }\n");
        src.append("  private static final Map<String, String> DOCS = new LinkedHashMap<>();\n  static {\n");
        docs.forEach((k, v) -> src.append("    DOCS.put(")
                .append(lit(k))
                .append(", ")
                .append(lit(v))
                .append(");\n"));
        src.append("  }\n");
        src.append(
                "  public String doc(String name) { String d = DOCS.get(name); if (d == null) throw new IllegalArgumentException(\"no tool named \" + name + \"; tools: \" + DOCS.keySet()); return d; }\n");
        src.append("  public String tools() { return String.join(\"\\n\", DOCS.keySet()); }\n");
        if (types != null) src.append(typeMethods(types));
        src.append("}\n");
        src.append(className)
                .append(' ')
                .append(var)
                .append(" = new ")
                .append(className)
                .append("();\n");
        return new JavaApi(src.toString(), ref.toString(), Map.copyOf(docs));
    }

    /** {@code types()} and {@code check(type, value)} over {@code types}, carried into the sandbox as their JSON text. */
    private static String typeMethods(ResultTypes types) {
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("$defs", types.defs());
        file.put("tools", types.tools());
        return "  @SuppressWarnings(\"unchecked\") private static final Map<String, Object> TYPES = (Map<String, Object>)"
                + " brokkr.sandbox.SandboxBridge.parse(" + lit(MiniJson.write(file)) + ");\n"
                + "  private static Map<String, Object> typeSection(String k) { return (Map<String, Object>) TYPES.get(k); }\n"
                + "  public String types() { StringBuilder b = new StringBuilder(); for (var e : typeSection(\"$defs\").entrySet())"
                + " { if (b.length() > 0) b.append(\"\\n\"); b.append(e.getKey()).append(\" = \")"
                + ".append(brokkr.sandbox.TypeText.render((Map<?, ?>) e.getValue())); } return b.toString(); }\n"
                + "  public String check(String type, Object value) {\n"
                + "    Object t = typeSection(\"$defs\").get(type);\n"
                + "    if (t == null) t = typeSection(\"tools\").get(\"assistant/\" + type);\n"
                + "    if (t == null) throw new IllegalArgumentException(\"no type named \" + type + \"; types: \""
                + " + typeSection(\"$defs\").keySet() + \" and each tool's name\");\n"
                + "    if (value instanceof String s && (s.startsWith(\"{\") || s.startsWith(\"[\"))) value = parse(s);\n"
                + "    return brokkr.sandbox.TypeCheck.firstViolation(typeSection(\"$defs\"), (Map<?, ?>) t, value);\n"
                + "  }\n";
    }

    /**
     * Top-level {@code call(name, map)} (as {@link #namespace}'s), for a recorder-shaped API whose calls return real
     * results (BFCL multi-turn) rather than a stub.
     */
    public static final String CALL_HELPER = """
            String call(String name, Map<String, ?> args) { return brokkr.sandbox.SandboxBridge.call(name, new LinkedHashMap<String, Object>(args)); }
            """;

    /** {@code parse} and {@code shape}: what every repl_guidance may name (the shape guidance does), results real or not. */
    static final String VIEW_HELPERS = """
            Object parse(String json) { return brokkr.sandbox.SandboxBridge.parse(json); }
            String shape(Object value) { return brokkr.sandbox.SandboxBridge.shape(value); }
            """;

    /** How the model is told to call recorder methods (BFCL single- and multi-turn prompts). */
    public static final String RECORDER_CALLS =
            "The functions below are Java methods taking one map of keyword arguments, built with "
                    + "map(k1, v1, ...) (and list(...) for lists), e.g. f(map(\"x\", 1, \"names\", list(\"a\", \"b\"))).";

    /** How the model is told to write argument values of recorder methods (keyword maps carry no Java types). */
    public static final String RECORDER_LITERALS =
            "Use Java literals of the parameter's type (5 for an integer, 5.0 for a float, \"text\", true).";

    /**
     * Each tool a top-level method taking one map of keyword arguments, with the {@code map}/{@code list} helpers and
     * {@code parse}/{@code shape} (BFCL single-turn: the shape guidance names {@code shape(...)}).
     */
    public static JavaApi recorders(List<ToolSpec> tools) {
        JavaApi methods = recorderMethods(tools);
        return new JavaApi(HELPERS + VIEW_HELPERS + methods.source(), methods.reference(), methods.docs());
    }

    /**
     * The recorder methods of {@code tools} alone (no helpers): what a REPL whose API is already in place is given
     * when its protocol offers more tools later ({@link JavaRepl#with}).
     */
    public static JavaApi recorderMethods(List<ToolSpec> tools) {
        StringBuilder src = new StringBuilder();
        StringBuilder ref = new StringBuilder();
        Map<String, String> docs = new LinkedHashMap<>();
        for (ToolSpec t : tools) {
            String m = javaName(t.name());
            src.append("String ")
                    .append(m)
                    .append("(Map<String, ?> args) { return brokkr.sandbox.SandboxBridge.call(")
                    .append(lit(t.name()))
                    .append(", new LinkedHashMap<String, Object>(args)); }\n");
            String doc = doc("", m, params(t), t.description(), "String");
            docs.put(t.name(), doc);
            ref.append(doc).append('\n');
        }
        return new JavaApi(src.toString(), ref.toString(), Map.copyOf(docs));
    }

    /** This API followed by {@code more} (evaluated after it; its reference after this one's). */
    public JavaApi plus(JavaApi more) {
        Map<String, String> all = new LinkedHashMap<>(docs);
        all.putAll(more.docs);
        return new JavaApi(source + more.source, reference + more.reference, Map.copyOf(all));
    }

    /** A call of recorder method {@code tool} with {@code arguments} as Java: {@code name(map("k", v, ...))}. */
    public static String recorderCall(String tool, PyDict arguments) {
        return javaName(tool) + "(" + literal(arguments) + ")";
    }

    private static String doc(String prefix, String method, List<Param> ps, String description, String returns) {
        StringBuilder b = new StringBuilder();
        b.append(returns).append(' ').append(prefix).append(method).append('(');
        b.append(String.join(
                        ", ",
                        ps.stream().map(p -> p.type() + " " + p.javaName()).toList()))
                .append(")\n");
        if (description != null && !description.isBlank())
            b.append("    ").append(description.strip().replace("\n", "\n    ")).append('\n');
        for (Param p : ps) {
            b.append("    - ")
                    .append(p.javaName())
                    .append(p.javaName().equals(p.name()) ? "" : " (key \"" + p.name() + "\")")
                    .append(" (")
                    .append(p.type())
                    .append(p.required() ? ", required" : ", optional: null leaves it out")
                    .append("): ")
                    .append(p.description())
                    .append('\n');
        }
        return b.toString();
    }

    /** A Java string literal. */
    public static String lit(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) || c == '\u2028' || c == '\u2029')
                        b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }

    /** A value as a Java expression giving the same JSON value (maps and lists through the helpers). */
    public static String literal(Value v) {
        return switch (v) {
            case brokkr.value.PyNone n -> "null";
            case PyStr s -> lit(s.value());
            case brokkr.value.PyBool b -> String.valueOf(b.value());
            case brokkr.value.PyInt i ->
                i.value().bitLength() < 32
                        ? i.value().toString()
                        : i.value().bitLength() < 64
                                ? i.value() + "L"
                                : "new java.math.BigInteger(\"" + i.value() + "\")";
            case brokkr.value.PyFloat f ->
                Double.isNaN(f.value())
                        ? "Double.NaN"
                        : Double.isInfinite(f.value())
                                ? (f.value() > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY")
                                : Double.toString(f.value());
            case PyList l when l.size() == 1 && l.get(0).isNone() -> "list((Object) null)";
            case PyList l ->
                "list(" + String.join(", ", l.stream().map(JavaApi::literal).toList()) + ")";
            case PyDict d -> {
                List<String> parts = new ArrayList<>();
                for (var e : d.entries()) {
                    parts.add(lit(e.getKey()));
                    parts.add(literal(e.getValue()));
                }
                yield "map(" + String.join(", ", parts) + ")";
            }
        };
    }
}
