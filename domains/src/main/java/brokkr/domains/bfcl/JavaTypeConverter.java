package brokkr.domains.bfcl;

import brokkr.domains.bfcl.AstChecker.CheckerException;
import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyRe;
import brokkr.python.PyStrings;
import brokkr.value.PyBool;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Upstream's {@code eval_checker/ast_eval/type_convertor/java_type_converter.py}: the string a model
 * sends for a Java-typed parameter, turned into the Python value the AST checker compares. A value
 * the converter does not recognise comes back unchanged as a str ("default to string"). The regexes
 * are Python's ({@link PyRe}: Unicode {@code \d}, {@code $} before a final newline) and the numbers
 * Python's {@code int()} / {@code float()}, so {@code "٩"} and {@code "9\n"} are integers.
 */
final class JavaTypeConverter {
    private JavaTypeConverter() {}

    private static final Pattern INTEGER = PyRe.compile("^-?\\d+$");
    private static final Pattern FLOAT = PyRe.compile("^-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?[fF]$");
    private static final Pattern DOUBLE = PyRe.compile("^-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?$");
    private static final Pattern LONG = PyRe.compile("^-?\\d+[lL]$");
    private static final Pattern F_SUFFIX = PyRe.compile("[fF]$");
    private static final Pattern L_SUFFIX = PyRe.compile("[lL]$");
    private static final Pattern AS_LIST = PyRe.compile("new\\s+ArrayList<\\w*>\\(Arrays\\.asList\\((.+?)\\)\\)");
    private static final Pattern ADD_BLOCK =
            PyRe.compile("new\\s+ArrayList<\\w*>\\(\\)\\s*\\{\\{\\s*(.+?)\\s*\\}\\}", true);
    private static final Pattern ADD = PyRe.compile("add\\((.+?)\\)");
    private static final Pattern EMPTY_LIST = PyRe.compile("new\\s+ArrayList<\\w*>\\(\\)");
    private static final Pattern ARRAY = PyRe.compile("new\\s+\\w+\\[\\]\\s*\\{(.*?)\\}");
    private static final Pattern HASHMAP =
            PyRe.compile("new\\s+HashMap<.*?>\\s*\\(\\)\\s*\\{\\s*\\{?\\s*(.*?)\\s*\\}?\\s*\\}", true);
    private static final Pattern PUT = PyRe.compile("put\\(\\\"(.*?)\\\",\\s*(.*?)\\)");
    private static final Pattern EMPTY_MAP = PyRe.compile("new\\s+HashMap<.*?>\\s*\\(\\)");

    /** type_mappings.py JAVA_TYPE_CONVERSION, as Python type names; null for a type it lacks. */
    static String pythonType(String javaType) {
        return switch (javaType) {
            case "byte", "short", "integer", "long" -> "int";
            case "float", "double" -> "float";
            case "boolean" -> "bool";
            case "char", "String", "any" -> "str";
            case "Array", "ArrayList", "Queue", "Stack" -> "list";
            case "Set" -> "set";
            case "HashMap", "Hashtable" -> "dict";
            default -> null;
        };
    }

    /** java_type_converter(value, expected_type, nested_type). */
    static PyObj convert(String value, String type, String nestedType) {
        if (pythonType(type) == null) throw new CheckerException("ValueError: Unsupported type: " + type);
        switch (type) {
            case "byte", "short", "integer" -> {
                return INTEGER.matcher(value).lookingAt() ? integer(value) : PyObj.str(value);
            }
            case "float" -> {
                return FLOAT.matcher(value).lookingAt()
                        ? floating(F_SUFFIX.matcher(value).replaceAll(""))
                        : PyObj.str(value);
            }
            case "double" -> {
                return DOUBLE.matcher(value).lookingAt() ? floating(value) : PyObj.str(value);
            }
            case "long" -> {
                return LONG.matcher(value).lookingAt()
                        ? integer(L_SUFFIX.matcher(value).replaceAll(""))
                        : PyObj.str(value);
            }
            case "boolean" -> {
                return value.equals("true") || value.equals("false") ? atom(value.equals("true")) : PyObj.str(value);
            }
            case "char" -> {
                // java_type_converter: the regex ^\'.$\' can never match (nothing follows $ but a
                // final newline), so a char is always the raw string.
                return PyObj.str(value);
            }
            case "Array" -> {
                return parseArray(value, nestedType);
            }
            case "ArrayList" -> {
                return parseArrayList(value, nestedType);
            }
            case "HashMap" -> {
                return parseHashMap(value);
            }
            case "Set", "Hashtable" ->
                throw new CheckerException("NotImplementedError: Set conversion is not implemented");
            case "Queue", "Stack" ->
                throw new CheckerException("NotImplementedError: " + type + " conversion is not implemented");
            default -> {
                return PyObj.str(value); // String, any: "we output as string for `any` type"
            }
        }
    }

    /** parse_arraylist: Arrays.asList form, then the double-brace add form, then the empty form. */
    private static PyObj parseArrayList(String input, String nestedType) {
        Matcher m = AS_LIST.matcher(input);
        if (m.find()) {
            List<PyObj> out = new ArrayList<>();
            for (String e : m.group(1).split(",", -1)) out.add(arrayListElement(PyStrings.strip(e), nestedType));
            return PyObj.list(out);
        }
        m = ADD_BLOCK.matcher(input);
        if (m.find()) {
            List<PyObj> out = new ArrayList<>();
            Matcher add = ADD.matcher(m.group(1));
            while (add.find()) out.add(arrayListElement(PyStrings.strip(add.group(1)), nestedType));
            return PyObj.list(out);
        }
        if (EMPTY_LIST.matcher(input).find()) return PyObj.list(new ArrayList<>());
        return PyObj.str(input);
    }

    /** parse_arraylist's element rule: char/String items lose their first and last character, whatever they are. */
    private static PyObj arrayListElement(String e, String nestedType) {
        if ("char".equals(nestedType) || "String".equals(nestedType)) return PyObj.str(JsTypeConverter.slice1(e));
        return nestedType != null ? convert(e, nestedType, null) : parseJavaValue(e);
    }

    /** parse_array: {@code re.search}, elements split on every comma, blank ones dropped. */
    private static PyObj parseArray(String input, String nestedType) {
        Matcher m = ARRAY.matcher(input);
        if (!m.find()) return PyObj.str(input);
        List<PyObj> out = new ArrayList<>();
        for (String x : m.group(1).split(",", -1)) {
            String e = PyStrings.strip(x);
            if (e.isEmpty()) continue;
            out.add(nestedType != null ? convert(e, nestedType, null) : parseJavaValue(e));
        }
        return PyObj.list(out);
    }

    /** parse_hashmap: keys must be double-quoted; a value ends at the first {@code )}. */
    private static PyObj parseHashMap(String input) {
        Matcher m = HASHMAP.matcher(input);
        if (m.find()) {
            Map<String, PyObj> entries = new LinkedHashMap<>();
            String puts = m.group(1);
            if (!PyStrings.strip(puts).isEmpty()) {
                Matcher put = PUT.matcher(puts);
                while (put.find()) entries.put(put.group(1), parseJavaValue(PyStrings.strip(put.group(2))));
            }
            return new PyObj.Dict(entries);
        }
        if (EMPTY_MAP.matcher(input).find()) return new PyObj.Dict(new LinkedHashMap<>());
        return PyObj.str(input);
    }

    /** parse_java_value: bool, double-quoted str, long, float, then int(), float(), else the raw text. */
    static PyObj parseJavaValue(String v) {
        if (v.equals("true")) return atom(true);
        if (v.equals("false")) return atom(false);
        if (v.startsWith("\"") && v.endsWith("\"")) return PyObj.str(JsTypeConverter.slice1(v));
        // int(value_str[:-1]) drops the last character, which is the suffix only without a final newline.
        if (LONG.matcher(v).lookingAt()) return integer(v.substring(0, v.length() - 1));
        if (FLOAT.matcher(v).lookingAt()) return floating(F_SUFFIX.matcher(v).replaceAll(""));
        return intOrFloatOrRaw(v);
    }

    /** {@code try: int(v) except ValueError: try: float(v) except ValueError: v} (both converters' fallback). */
    static PyObj intOrFloatOrRaw(String v) {
        try {
            return new PyObj.Atom(new PyInt(PyBuiltins.parseInt(v, BfclData.PYTHON)));
        } catch (PyException e) {
            try {
                return new PyObj.Atom(new PyFloat(PyBuiltins.parseFloat(v, BfclData.PYTHON)));
            } catch (PyException e2) {
                return PyObj.str(v);
            }
        }
    }

    /** {@code int(s)}; a ValueError escapes as upstream's would. */
    static PyObj integer(String s) {
        try {
            return new PyObj.Atom(new PyInt(PyBuiltins.parseInt(s, BfclData.PYTHON)));
        } catch (PyException e) {
            throw new CheckerException("ValueError: " + e.getMessage());
        }
    }

    /** {@code float(s)}; a ValueError escapes as upstream's would. */
    static PyObj floating(String s) {
        try {
            return new PyObj.Atom(new PyFloat(PyBuiltins.parseFloat(s, BfclData.PYTHON)));
        } catch (PyException e) {
            throw new CheckerException("ValueError: " + e.getMessage());
        }
    }

    static PyObj atom(boolean b) {
        return new PyObj.Atom(PyBool.of(b));
    }
}
