package brokkr.domains.bfcl;

import brokkr.domains.bfcl.PyObj.Atom;
import brokkr.domains.bfcl.PyObj.Dict;
import brokkr.domains.bfcl.PyObj.Seq;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A possible-answer value written as the Java / JavaScript source text a model sends for a
 * simple_java / simple_javascript parameter (every such parameter is a string on the wire: the
 * checker runs it through {@link JavaTypeConverter} / {@link JsTypeConverter} first). The spellings
 * are the ones those converters read back to the value: Java arrays {@code new T[]{a, b}} with
 * unquoted string elements (upstream keeps an element's quotes), {@code ArrayList} through
 * {@code Arrays.asList} with quoted strings (upstream cuts each element's first and last character),
 * {@code HashMap} as double-brace {@code put("k", v)} calls, {@code long} with its {@code L}; JS
 * floats without an exponent (js_type_converter's float regex has none). A string answer for a
 * non-string type is a variable or constant name and is sent as is.
 */
final class LanguageSource {
    private LanguageSource() {}

    static PyObj encode(AstChecker.Language language, PyObj value, Value details) {
        String type = typeOf(details);
        String itemType = details instanceof PyDict d && d.get("items") instanceof PyDict items ? typeOf(items) : "";
        return PyObj.str(
                language == AstChecker.Language.JAVA ? java(value, type, itemType) : js(value, type, itemType));
    }

    private static String typeOf(Value details) {
        return details instanceof PyDict d && d.get("type") instanceof PyStr s ? s.value() : "";
    }

    private static String java(PyObj v, String type, String itemType) {
        if (v instanceof Seq s) {
            if (type.equals("ArrayList")) {
                if (s.items().isEmpty()) return "new ArrayList<>()";
                return "new ArrayList<>(Arrays.asList(" + join(s, x -> javaElement(x, itemType, true)) + "))";
            }
            return "new " + javaArrayType(itemType) + "[]{" + join(s, x -> javaElement(x, itemType, false)) + "}";
        }
        if (v instanceof Dict d) {
            StringBuilder sb = new StringBuilder("new HashMap<String, Object>() {{ ");
            for (Map.Entry<String, PyObj> e : d.entries().entrySet())
                sb.append("put(\"")
                        .append(e.getKey())
                        .append("\", ")
                        .append(javaElement(e.getValue(), "", true))
                        .append("); ");
            return sb.append("}}").toString();
        }
        return javaAtom(((Atom) v).value(), type);
    }

    private static String javaAtom(Value a, String type) {
        return switch (a) {
            case PyStr s -> s.value();
            case PyBool b -> b.value() ? "true" : "false";
            case PyInt i when type.equals("long") -> i.value() + "L";
            case PyInt i when type.equals("float") -> i.value() + "f";
            case PyFloat f when type.equals("float") -> PyObj.repr(new Atom(f)) + "f";
            default -> PyObj.repr(new Atom(a));
        };
    }

    /** An element of a collection: strings quoted when the converter strips quotes ({@code quote}). */
    private static String javaElement(PyObj x, String itemType, boolean quote) {
        if (x instanceof Atom a && a.value() instanceof PyStr s) return quote ? '"' + s.value() + '"' : s.value();
        return java(x, itemType, "");
    }

    private static String javaArrayType(String itemType) {
        return switch (itemType) {
            case "integer" -> "int";
            case "", "any" -> "Object";
            default -> itemType;
        };
    }

    private static String js(PyObj v, String type, String itemType) {
        if (v instanceof Seq s) return "[" + join(s, x -> jsElement(x, itemType)) + "]";
        if (v instanceof Dict d) {
            List<String> pairs = new ArrayList<>();
            for (Map.Entry<String, PyObj> e : d.entries().entrySet())
                pairs.add(e.getKey() + ": " + jsElement(e.getValue(), ""));
            return "{" + String.join(", ", pairs) + "}";
        }
        return jsAtom(((Atom) v).value(), type);
    }

    private static String jsAtom(Value a, String type) {
        return switch (a) {
            case PyStr s -> s.value();
            case PyBool b -> b.value() ? "true" : "false";
            case PyInt i when type.equals("Bigint") -> i.value() + "n";
            case PyFloat f -> new BigDecimal(Double.toString(f.value())).toPlainString();
            default -> PyObj.repr(new Atom(a));
        };
    }

    private static String jsElement(PyObj x, String itemType) {
        if (x instanceof Atom a && a.value() instanceof PyStr s) return '"' + s.value() + '"';
        return js(x, itemType, "");
    }

    private static String join(Seq s, java.util.function.Function<PyObj, String> f) {
        List<String> out = new ArrayList<>();
        for (PyObj x : s.items()) out.add(f.apply(x));
        return String.join(", ", out);
    }
}
