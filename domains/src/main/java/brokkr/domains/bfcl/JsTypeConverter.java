package brokkr.domains.bfcl;

import brokkr.domains.bfcl.AstChecker.CheckerException;
import brokkr.python.PyRe;
import brokkr.python.PyStrings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Upstream's {@code eval_checker/ast_eval/type_convertor/js_type_converter.py}: the string a model
 * sends for a JavaScript-typed parameter, turned into the Python value the AST checker compares;
 * unrecognised values stay strings. Python {@code re} semantics via {@link PyRe}.
 */
final class JsTypeConverter {
    private JsTypeConverter() {}

    private static final Pattern INTEGER = PyRe.compile("^-?\\d+$");
    private static final Pattern FLOAT = PyRe.compile("^-?\\d+(\\.\\d+)?$");
    private static final Pattern BIGINT = PyRe.compile("^-?\\d+n$");
    private static final Pattern ARRAY_2D = PyRe.compile(
            "\\[\\s*\\[.*?\\]\\s*(,\\s*\\[.*?\\]\\s*)*\\]|\\bnew\\s+Array\\(\\s*\\[.*?\\]\\s*(,\\s*\\[.*?\\]\\s*)*\\)");
    private static final Pattern INNER = PyRe.compile("\\[(.*?)\\]");
    private static final Pattern ARRAY = PyRe.compile("\\[(.*?)\\]|\\bnew\\s+Array\\((.*?)\\)");
    private static final Pattern DICT = PyRe.compile("\\{(.*?)\\}");
    private static final Pattern PAIR = PyRe.compile("([^:]+):\\s*(.*?)(?:,\\s*(?=[^,]+:)|$)");

    /** type_mappings.py JS_TYPE_CONVERSION, as Python type names; null for a type it lacks. */
    static String pythonType(String jsType) {
        return switch (jsType) {
            case "String", "any" -> "str";
            case "integer", "Bigint" -> "int";
            case "float" -> "float";
            case "Boolean" -> "bool";
            case "dict" -> "dict";
            case "array" -> "list";
            default -> null;
        };
    }

    /** js_type_converter(value, expected_type, nested_type). */
    static PyObj convert(String value, String type, String nestedType) {
        if (pythonType(type) == null) throw new CheckerException("ValueError: Unsupported type: " + type);
        return switch (type) {
            // One pair of matching outer quotes is removed (a lone '"' counts as a pair: it is both).
            case "String" ->
                (value.startsWith("\"") && value.endsWith("\"")) || (value.startsWith("'") && value.endsWith("'"))
                        ? PyObj.str(slice1(value))
                        : PyObj.str(value);
            case "integer" -> INTEGER.matcher(value).lookingAt() ? JavaTypeConverter.integer(value) : PyObj.str(value);
            case "float" -> FLOAT.matcher(value).lookingAt() ? JavaTypeConverter.floating(value) : PyObj.str(value);
            case "Bigint" ->
                BIGINT.matcher(value).lookingAt()
                        ? JavaTypeConverter.integer(value.substring(0, value.length() - 1))
                        : PyObj.str(value);
            case "Boolean" ->
                value.equals("true") || value.equals("false")
                        ? JavaTypeConverter.atom(value.equals("true"))
                        : PyObj.str(value);
            case "dict" -> parseDict(PyStrings.strip(value));
            case "array" -> parseArray(PyStrings.strip(value), nestedType);
            default -> PyObj.str(value); // any
        };
    }

    /**
     * parse_js_collection(code, "array"): the 2-D pattern first (its inner elements parsed without the
     * item type), then the 1-D one, both with {@code re.match} (a prefix match); elements split on
     * every comma, empty ones kept. Any exception inside returns the (stripped) code, as upstream's
     * bare {@code except:} does.
     */
    private static PyObj parseArray(String code, String nestedType) {
        try {
            Matcher m2 = ARRAY_2D.matcher(code);
            if (m2.lookingAt()) {
                Matcher inner = INNER.matcher(m2.group(0));
                List<PyObj> rows = new ArrayList<>();
                int idx = 0;
                while (inner.find()) {
                    String s = PyStrings.strip(inner.group(1));
                    if (idx == 0 && s.startsWith("[")) s = s.substring(1);
                    List<PyObj> row = new ArrayList<>();
                    for (String e : s.split(",", -1)) row.add(parseJsValue(PyStrings.strip(e)));
                    rows.add(PyObj.list(row));
                    idx++;
                }
                return PyObj.list(rows);
            }
            Matcher m = ARRAY.matcher(code);
            if (!m.lookingAt()) return PyObj.str(code);
            String group = m.group(1) != null ? m.group(1) : m.group(2);
            List<String> elements = new ArrayList<>();
            if (group != null) {
                String s = PyStrings.strip(group);
                if (!s.isEmpty()) elements.addAll(List.of(s.split(",", -1)));
            }
            List<PyObj> out = new ArrayList<>(elements.size());
            for (String e : elements) {
                String t = PyStrings.strip(e);
                if (nestedType == null) out.add(parseJsValue(t));
                else if (t.startsWith("'") || t.startsWith("\"")) out.add(convert(t, nestedType, "String"));
                else out.add(convert(t, nestedType, null));
            }
            return PyObj.list(out);
        } catch (CheckerException e) {
            return PyObj.str(code);
        }
    }

    /**
     * parse_js_collection(code, "dict"): {@code re.match(r"\{(.*?)\}")} (lazy: a nested object truncates
     * there), pairs split where {@code , name:} follows; keys stripped of spaces and quotes; a value's
     * quotes are stripped before it is typed ({@code 'true'} becomes True, {@code '50'} 50).
     */
    private static PyObj parseDict(String code) {
        if (code.equals("{}")) return new PyObj.Dict(new LinkedHashMap<>());
        Matcher m = DICT.matcher(code);
        if (!m.lookingAt()) return PyObj.str(code);
        Map<String, PyObj> out = new LinkedHashMap<>();
        Matcher pair = PAIR.matcher(m.group(1));
        while (pair.find()) {
            String key = PyStrings.strip(PyStrings.strip(pair.group(1)), "'\"");
            String value = PyStrings.strip(pair.group(2));
            PyObj v;
            if (value.startsWith("[") && value.endsWith("]")) v = parseArray(PyStrings.strip(value), null);
            else if (value.startsWith("{") && value.endsWith("}")) v = parseDict(PyStrings.strip(value));
            else v = parseJsValue(PyStrings.strip(value, "'\""));
            out.put(key, v);
        }
        return new PyObj.Dict(out);
    }

    /** parse_js_value: strip, bool, quoted str (one pair removed), int(), float(), else the text. */
    static PyObj parseJsValue(String raw) {
        String v = PyStrings.strip(raw);
        if (v.equals("true")) return JavaTypeConverter.atom(true);
        if (v.equals("false")) return JavaTypeConverter.atom(false);
        if ((v.startsWith("\"") && v.endsWith("\"")) || (v.startsWith("'") && v.endsWith("'")))
            return PyObj.str(slice1(v));
        return JavaTypeConverter.intOrFloatOrRaw(v);
    }

    /** Python's {@code s[1:-1]} (by code point; "" for fewer than three). */
    static String slice1(String s) {
        int n = s.codePointCount(0, s.length());
        if (n <= 2) return "";
        int a = s.offsetByCodePoints(0, 1), b = s.offsetByCodePoints(0, n - 1);
        return s.substring(a, b);
    }
}
