package brokkr.domains.bfcl;

import brokkr.python.PyJson;
import brokkr.value.PyBool;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An answer (a list of {@code {name: {param: value}}} calls) written as the text a prompting-mode model
 * answers with in a return format, for the scripted gold candidate: Python calls with {@code repr} values;
 * the JSON list of {@code {"function", "parameters"}}; verbose / concise XML with each value's type
 * ({@code integer}, {@code float}, {@code boolean}, {@code null}, {@code array} / {@code dict} / {@code tuple} as
 * a Python literal, {@code string}); Java / JavaScript calls whose values are the source texts of
 * {@link LanguageSource}, a value either written as is or as a string literal (which the parsers unquote).
 * {@link #accepted} picks the first writing of the first accepted construction that upstream's decoder and
 * checker accept, as {@link GoldAnswers#accepted} does for function calling.
 */
public final class PromptingAnswers {
    private PromptingAnswers() {}

    /** The text of {@code answer} in {@code format}, {@code quoted} naming the Java/JS parameters written as string literals. */
    static String render(
            PyObj answer, PromptingDecoder.ReturnFormat format, boolean tag, java.util.Set<String> quoted) {
        String body = switch (format) {
            case PYTHON -> calls(answer, (k, v) -> k + "=" + PyObj.repr(v), "[", "]");
            case JAVA, JAVASCRIPT ->
                calls(answer, (k, v) -> k + "=" + source(k, PyObj.strValue(v), format, quoted), "[", "]");
            case JSON -> "```json\n" + json(answer) + "\n```";
            case VERBOSE_XML, CONCISE_XML -> xml(answer, format == PromptingDecoder.ReturnFormat.VERBOSE_XML);
        };
        return tag ? "<TOOLCALL>" + body + "</TOOLCALL>" : body;
    }

    /** Marks a parameter whose value is written inside {@code Collections.unmodifiableMap(...)} (see {@link #accepted}). */
    static final String MAP_CALL = "\0map:";

    private static String source(
            String k, String v, PromptingDecoder.ReturnFormat format, java.util.Set<String> quoted) {
        if (quoted.contains(k)) return literal(v, format);
        if (quoted.contains(MAP_CALL + k)) return "Collections.unmodifiableMap(" + v + ")";
        return v;
    }

    /** A string literal whose text between the quotes is {@code s} (no escapes: the parsers do not unescape). */
    private static String literal(String s, PromptingDecoder.ReturnFormat format) {
        if (format == PromptingDecoder.ReturnFormat.JAVASCRIPT && s.contains("\"")) return "'" + s + "'";
        return "\"" + s + "\"";
    }

    private static String calls(
            PyObj answer, java.util.function.BiFunction<String, PyObj, String> arg, String open, String close) {
        List<String> out = new ArrayList<>();
        for (PyObj call : ((PyObj.Seq) answer).items()) {
            PyObj.Dict c = (PyObj.Dict) call;
            PyObj.Dict params = (PyObj.Dict) c.valueAt(0);
            List<String> args = new ArrayList<>();
            for (int i = 0; i < params.size(); i++) args.add(arg.apply(params.keyAt(i), params.valueAt(i)));
            out.add(c.keyAt(0) + "(" + String.join(", ", args) + ")");
        }
        return open + String.join(", ", out) + close;
    }

    private static String json(PyObj answer) {
        List<Value> out = new ArrayList<>();
        for (PyObj call : ((PyObj.Seq) answer).items()) {
            PyObj.Dict c = (PyObj.Dict) call;
            out.add(brokkr.value.PyDict.builder()
                    .put("function", new PyStr(c.keyAt(0)))
                    .put("parameters", PyObj.toJson(c.valueAt(0)))
                    .build());
        }
        return PyJson.dumps(brokkr.value.PyList.of(out), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false));
    }

    private static String xml(PyObj answer, boolean verbose) {
        StringBuilder sb = new StringBuilder("<functions>");
        for (PyObj call : ((PyObj.Seq) answer).items()) {
            PyObj.Dict c = (PyObj.Dict) call;
            PyObj.Dict params = (PyObj.Dict) c.valueAt(0);
            sb.append("<function name=\"").append(escape(c.keyAt(0), true)).append("\">");
            if (verbose) sb.append("<params>");
            for (int i = 0; i < params.size(); i++) {
                PyObj v = params.valueAt(i);
                String type = xmlType(v);
                String raw = type.equals("string") ? PyObj.strValue(v) : type.equals("null") ? "" : xmlValue(v);
                sb.append("<param name=\"")
                        .append(escape(params.keyAt(i), true))
                        .append('"');
                if (verbose)
                    sb.append(" value=\"")
                            .append(escape(raw, true))
                            .append("\" type=\"")
                            .append(type)
                            .append("\"/>");
                else
                    sb.append(" type=\"")
                            .append(type)
                            .append("\">")
                            .append(escape(raw, false))
                            .append("</param>");
            }
            if (verbose) sb.append("</params>");
            sb.append("</function>");
        }
        return sb.append("</functions>").toString();
    }

    private static String xmlType(PyObj v) {
        return switch (v) {
            case PyObj.Seq s -> s.tuple() ? "tuple" : "array";
            case PyObj.Dict d -> "dict";
            case PyObj.Atom a ->
                switch (a.value()) {
                    case PyBool b -> "boolean";
                    case PyInt i -> "integer";
                    case PyFloat f -> "float";
                    case PyNone n -> "null";
                    default -> "string";
                };
        };
    }

    private static String xmlValue(PyObj v) {
        if (v instanceof PyObj.Atom a && a.value() instanceof PyBool b) return b.value() ? "true" : "false";
        return PyObj.repr(v);
    }

    /** XML character data / attribute text ({@code \n}, {@code \t}, {@code \r} as references in attributes, which XML would normalise). */
    static String escape(String s, boolean attribute) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append(attribute ? "&quot;" : "\"");
                case '\n' -> sb.append(attribute ? "&#10;" : "\n");
                case '\t' -> sb.append(attribute ? "&#9;" : "\t");
                case '\r' -> sb.append("&#13;");
                default -> sb.append(ch);
            }
        }
        return sb.toString();
    }

    /**
     * The text of an accepted answer to {@code task} in {@code format} (names with their dots: prompting models are
     * not {@code underscore_to_dot}), if any: each constructed answer of {@link GoldAnswers#candidates}, written
     * with every string-typed parameter (Java {@code String} / {@code char}, JavaScript {@code String}) quoted, then
     * with none quoted, then with every parameter quoted, decoded and graded as upstream would. A Java
     * {@code HashMap} is written as the checker's converter reads it, a double-brace initialisation, but
     * java_parser.py drops an anonymous class body ({@code new HashMap<String,Object>()} is all that is left), so
     * the string-quoted writing also wraps each map in {@code Collections.unmodifiableMap(...)}: a method invocation
     * is kept verbatim, and the converter finds the initialisation inside it ({@code re.search}).
     */
    public static Optional<String> accepted(BfclTask task, PromptingDecoder.ReturnFormat format, boolean tag) {
        for (PyObj candidate : GoldAnswers.candidates(task, false)) {
            for (java.util.Set<String> quoted : quotings(task, candidate, format)) {
                String text = render(candidate, format, tag, quoted);
                BfclHarness.Answer a = PromptingDecoder.answer(text, format, tag);
                if (BfclHarness.grade(task, a, false).valid()) return Optional.of(text);
            }
        }
        return Optional.empty();
    }

    private static List<java.util.Set<String>> quotings(
            BfclTask task, PyObj candidate, PromptingDecoder.ReturnFormat format) {
        if (format != PromptingDecoder.ReturnFormat.JAVA && format != PromptingDecoder.ReturnFormat.JAVASCRIPT)
            return List.of(java.util.Set.of());
        java.util.Set<String> strings = new java.util.LinkedHashSet<>(), all = new java.util.LinkedHashSet<>();
        for (PyObj call : ((PyObj.Seq) candidate).items()) {
            PyObj.Dict c = (PyObj.Dict) call;
            PyObj.Dict params = (PyObj.Dict) c.valueAt(0);
            brokkr.value.PyDict props = propertiesOf(task, c.keyAt(0));
            for (int i = 0; i < params.size(); i++) {
                String k = params.keyAt(i);
                all.add(k);
                Value d = props.get(k);
                String type = d instanceof brokkr.value.PyDict dd && dd.get("type") instanceof PyStr s ? s.value() : "";
                if (type.equals("String") || type.equals("char")) strings.add(k);
                if (type.equals("HashMap")) strings.add(MAP_CALL + k);
            }
        }
        return List.of(strings, java.util.Set.of(), all);
    }

    private static brokkr.value.PyDict propertiesOf(BfclTask task, String name) {
        for (Value f : task.functions()) {
            brokkr.value.PyDict d = f.asDict();
            if (d.get("name").asStr().equals(name))
                return d.get("parameters")
                        .asDict()
                        .getOrDefault("properties", brokkr.value.PyDict.empty())
                        .asDict();
        }
        return brokkr.value.PyDict.empty();
    }
}
