package brokkr.domains.bfcl;

import brokkr.domains.bfcl.PyObj.Atom;
import brokkr.domains.bfcl.PyObj.Dict;
import brokkr.domains.bfcl.PyObj.Seq;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Upstream's AST checker ({@code bfcl_eval/eval_checker/ast_eval/ast_checker.py}) for Python
 * categories, with Python's semantics and upstream's quirks reproduced on purpose (each named where
 * it happens). Pure: a verdict is a function of the function docs, the decoded answer, the possible
 * answers, the category and whether the model's names had {@code .} replaced by {@code _}.
 */
public final class AstChecker {
    private AstChecker() {}

    /**
     * A checker result. {@code errorType} is null only for a valid result without one; a valid result
     * of simple/multiple checks may carry {@code simple_function_checker:unclear} (upstream's initial
     * result surviving when no value checker replaced it).
     */
    public record Result(boolean valid, List<PyObj> errors, String errorType) {
        static final Result VALID = new Result(true, List.of(), null);

        static Result fail(String errorType, String message) {
            return new Result(false, List.of(PyObj.str(message)), errorType);
        }
    }

    /** Upstream raised (a KeyError, TypeError, ...) where Python would have: the data or answer is outside the checker's domain. */
    public static final class CheckerException extends RuntimeException {
        CheckerException(String message) {
            super(message);
        }
    }

    /** bfcl_eval/constants/enums.py Language: which type system the docs' parameter types are in. */
    public enum Language {
        PYTHON,
        JAVA,
        JAVASCRIPT;

        /** As ast_file_runner picks it: simple_java is Java, simple_javascript JavaScript, the rest Python. */
        public static Language ofCategory(String category) {
            return switch (category) {
                case "simple_java" -> JAVA;
                case "simple_javascript" -> JAVASCRIPT;
                default -> PYTHON;
            };
        }
    }

    private static final String UNCLEAR = "simple_function_checker:unclear";

    /** ast_checker.py PYTHON_TYPE_MAPPING (as type names). */
    private static String pythonType(String description) {
        return switch (description) {
            case "string", "any" -> "str";
            case "integer" -> "int";
            case "float" -> "float";
            case "boolean" -> "bool";
            case "array", "tuple" -> "list";
            case "dict" -> "dict";
            default -> throw new CheckerException("KeyError: " + PyObj.repr(PyObj.str(description)));
        };
    }

    /** ast_checker.py ast_checker: the dispatch is on substrings of the category name. */
    public static Result check(
            FunctionDoc.Docs functions, Seq modelOutput, Seq possibleAnswer, String category, boolean underscoreToDot) {
        return check(functions, modelOutput, possibleAnswer, category, underscoreToDot, Language.ofCategory(category));
    }

    /** ast_checker.py ast_checker with an explicit {@code language}. */
    public static Result check(
            FunctionDoc.Docs functions,
            Seq modelOutput,
            Seq possibleAnswer,
            String category,
            boolean underscoreToDot,
            Language language) {
        if (category.contains("parallel"))
            return parallelNoOrder(functions, modelOutput, possibleAnswer, underscoreToDot, language);
        if (category.contains("multiple"))
            return multiple(functions, modelOutput, possibleAnswer, underscoreToDot, language);
        if (modelOutput.size() != 1)
            return Result.fail("simple_function_checker:wrong_count", "Wrong number of functions.");
        return simple(
                functions.get(0),
                asDictObj(modelOutput.get(0)),
                asDictObj(possibleAnswer.get(0)),
                underscoreToDot,
                language);
    }

    /** ast_checker.py find_description: the first doc of that name, else None (which the caller then fails on). */
    private static FunctionDoc findDescription(FunctionDoc.Docs functions, String name) {
        FunctionDoc f = functions.byName().get(name);
        if (f != null) return f;
        throw new CheckerException("TypeError: 'NoneType' object is not subscriptable (no function " + name + ")");
    }

    /** ast_checker.py convert_func_name. */
    static String convertFuncName(String name, boolean underscoreToDot) {
        return name.contains(".") && underscoreToDot ? name.replace('.', '_') : name;
    }

    /** ast_checker.py multiple_function_checker: only the first expected call is checked, against the first output. */
    private static Result multiple(
            FunctionDoc.Docs functions, Seq modelOutput, Seq possibleAnswers, boolean u2d, Language language) {
        if (modelOutput.size() != possibleAnswers.size())
            return Result.fail("multiple_function_checker:wrong_count", "Wrong number of functions.");
        Dict expected = asDictObj(possibleAnswers.get(0));
        String name = expected.keyAt(0);
        return simple(findDescription(functions, name), asDictObj(modelOutput.get(0)), expected, u2d, language);
    }

    /** ast_checker.py parallel_function_checker_no_order: greedy first match per expected call. */
    private static Result parallelNoOrder(
            FunctionDoc.Docs functions, Seq modelOutput, Seq possibleAnswers, boolean u2d, Language language) {
        if (modelOutput.size() != possibleAnswers.size())
            return Result.fail("parallel_function_checker_no_order:wrong_count", "Wrong number of functions.");
        boolean[] matched = new boolean[modelOutput.size()];
        for (int i = 0; i < possibleAnswers.size(); i++) {
            Dict expected = asDictObj(possibleAnswers.get(i));
            FunctionDoc doc = findDescription(functions, expected.keyAt(0));
            List<PyObj> allErrors = new ArrayList<>();
            Result result = null;
            for (int index = 0; index < modelOutput.size(); index++) {
                if (matched[index]) continue;
                result = simple(doc, asDictObj(modelOutput.get(index)), expected, u2d, language);
                if (result.valid()) {
                    matched[index] = true;
                    break;
                }
                Map<String, PyObj> detail = new LinkedHashMap<>();
                detail.put("sub_error", PyObj.list(result.errors()));
                detail.put("sub_error_type", PyObj.str(result.errorType()));
                detail.put("model_output_item", modelOutput.get(index));
                detail.put("possible_answer_item", expected);
                Map<String, PyObj> wrapper = new LinkedHashMap<>();
                wrapper.put("Model Result Index " + index, new Dict(detail));
                allErrors.add(new Dict(wrapper));
            }
            if (result == null) throw new CheckerException("UnboundLocalError: result");
            if (!result.valid()) {
                StringBuilder considered = new StringBuilder("[");
                for (int k = 0; k < modelOutput.size(); k++) {
                    if (matched[k]) continue;
                    if (considered.length() > 1) considered.append(", ");
                    considered.append(k);
                }
                considered.append(']');
                allErrors.addFirst(PyObj.str("Could not find a matching function among index " + considered
                        + " of model output for index " + i + " of possible answers."));
                return new Result(false, allErrors, "parallel_function_checker_no_order:cannot_find_match");
            }
        }
        return Result.VALID;
    }

    /** ast_checker.py simple_function_checker. */
    static Result simple(FunctionDoc doc, Dict modelOutput, Dict possibleAnswerByName, boolean u2d, Language language) {
        Dict possible = asDictObj(possibleAnswerByName.valueAt(0));
        if (doc.broken() != null) throw new CheckerException(doc.broken());
        Map<String, FunctionDoc.Param> paramDetails = doc.params();

        // `result` is rebound to each value checker's success return, so a valid answer ends with
        // whichever result the last string/list/dict check left (upstream quirk kept in checker_return).
        Result result = new Result(true, List.of(), UNCLEAR);

        String funcName = convertFuncName(doc.name(), u2d);
        if (!modelOutput.has(funcName))
            return Result.fail(
                    "simple_function_checker:wrong_func_name",
                    "Function name " + reprStr(funcName) + " not found in model output.");
        Dict modelParams = asDictObj(modelOutput.get(funcName));

        for (String p : doc.required()) {
            if (!modelParams.has(p))
                return Result.fail(
                        "simple_function_checker:missing_required", "Missing required parameter: " + reprStr(p) + ".");
        }

        for (int pi = 0; pi < modelParams.size(); pi++) {
            String param = modelParams.keyAt(pi);
            PyObj value = modelParams.valueAt(pi);
            if (!paramDetails.containsKey(param) || !possible.has(param))
                return Result.fail(
                        "simple_function_checker:unexpected_param", "Unexpected parameter: " + reprStr(param) + ".");
            FunctionDoc.Param details = paramDetails.get(param);
            if (details.problem() != null) throw new CheckerException(details.problem());
            String description = details.type();
            String expected;
            String nested = null;
            if (language == Language.PYTHON) {
                expected = pythonType(description);
                if (description.equals("array") || description.equals("tuple")) {
                    if (details.itemsType() == null) throw new CheckerException("KeyError: 'items'");
                    nested = pythonType(details.itemsType());
                }
                // "We convert all tuple value to list when the expected type is tuple."
                if (description.equals("tuple") && value instanceof Seq s && s.tuple()) value = PyObj.list(s.items());
                // "Allow python auto conversion from int to float" (type(value) == int: bool excluded).
                if (description.equals("float") && value instanceof Atom a && a.value() instanceof PyInt i)
                    value = new Atom(new PyFloat(i.value().doubleValue()));
            } else {
                // The JAVA / JAVASCRIPT branches: JAVA_TYPE_CONVERSION / JS_TYPE_CONVERSION[type] (a
                // KeyError for any other type), every value must be a str, then the converter runs.
                boolean java = language == Language.JAVA;
                expected = java ? JavaTypeConverter.pythonType(description) : JsTypeConverter.pythonType(description);
                if (expected == null) throw new CheckerException("KeyError: " + reprStr(description));
                if (!PyObj.isStr(value))
                    return Result.fail(
                            java ? "type_error:java" : "type_error:js",
                            "Incorrect type for parameter " + reprStr(param) + ". Expected type String, got "
                                    + value.typeName() + ". Parameter value: " + PyObj.repr(value) + ".");
                String nestedType = null;
                // NESTED_CONVERSION_TYPE_LIST = ["Array", "ArrayList", "array"]
                if (description.equals("Array") || description.equals("ArrayList") || description.equals("array")) {
                    nestedType = details.itemsType();
                    if (nestedType == null) throw new CheckerException("KeyError: 'items'");
                    nested = java ? JavaTypeConverter.pythonType(nestedType) : JsTypeConverter.pythonType(nestedType);
                    if (nested == null) throw new CheckerException("KeyError: " + reprStr(nestedType));
                }
                String text = PyObj.strValue(value);
                value = java
                        ? JavaTypeConverter.convert(text, description, nestedType)
                        : JsTypeConverter.convert(text, description, nestedType);
            }

            PyObj answers = possible.get(param);
            TypeResult t = typeChecker(param, value, answers, description, expected, nested);
            if (!t.result.valid()) return t.result;

            if (!t.isVariable) {
                if (expected.equals("dict")) {
                    result = dictChecker((Dict) value, answers);
                    if (!result.valid()) return result;
                    continue;
                } else if (expected.equals("list") && "dict".equals(nested)) {
                    result = listDictChecker((Seq) value, answers);
                    if (!result.valid()) return result;
                    continue;
                } else if (expected.equals("str")) {
                    result = stringChecker(param, value, answers);
                    if (!result.valid()) return result;
                    continue;
                } else if (expected.equals("list")) {
                    result = listChecker(param, (Seq) value, answers);
                    if (!result.valid()) return result;
                    continue;
                }
            }
            if (!in(value, answers))
                return Result.fail(
                        "value_error:others",
                        "Invalid value for parameter " + reprStr(param) + ": " + PyObj.repr(value)
                                + ". Expected one of " + PyObj.str(answers) + ".");
        }

        for (int i = 0; i < possible.size(); i++) {
            if (!modelParams.has(possible.keyAt(i)) && !in(PyObj.EMPTY_STR, possible.valueAt(i)))
                return Result.fail(
                        "simple_function_checker:missing_optional",
                        "Optional parameter " + reprStr(possible.keyAt(i))
                                + " not provided and not marked as optional.");
        }
        return result;
    }

    private record TypeResult(Result result, boolean isVariable) {}

    /** ast_checker.py get_possible_answer_type: the type of the first answer that is not "". */
    private static String possibleAnswerType(PyObj answers) {
        for (PyObj a : iterate(answers)) if (!PyObj.eq(a, PyObj.EMPTY_STR)) return a.typeName();
        return null;
    }

    /**
     * ast_checker.py type_checker. Quirk: a failed nested check does not return; it falls through to
     * the "variable" test, so {@code type_error:nested} comes back only when the value's type is also
     * the answers' type, and otherwise the simple message is appended after the nested one.
     */
    private static TypeResult typeChecker(
            String param, PyObj value, PyObj answers, String description, String expected, String nested) {
        boolean isVariable = false;
        String answerType = possibleAnswerType(answers);
        if (answerType != null && !answerType.equals(expected)) isVariable = true;

        List<PyObj> errors = new ArrayList<>(2);
        String errorType;
        if (value.typeName().equals(expected)) {
            if (nested == null) return new TypeResult(Result.VALID, isVariable);
            for (PyObj item : iterate(answers)) {
                boolean flag = true;
                if (PyObj.isList(item)) {
                    for (PyObj v : iterate(value)) {
                        if (!typeChecker(param, v, item, nested, nested, null)
                                .result
                                .valid()) {
                            flag = false;
                            break;
                        }
                    }
                }
                if (flag) return new TypeResult(Result.VALID, isVariable);
            }
            errors.add(PyObj.str("Nested type checking failed for parameter " + reprStr(param)
                    + ". Expected outer type " + description + " with inner type <class '" + nested
                    + "'>. Parameter value: " + PyObj.repr(value) + "."));
            errorType = "type_error:nested";
            if (answerType != null && value.typeName().equals(answerType))
                return new TypeResult(new Result(false, errors, errorType), true);
        } else if (answerType != null && value.typeName().equals(answerType)) {
            return new TypeResult(new Result(true, List.of(), "type_error:simple"), true);
        }
        errors.add(PyObj.str("Incorrect type for parameter " + reprStr(param) + ". Expected type " + description
                + ", got " + value.typeName() + ". Parameter value: " + PyObj.repr(value) + "."));
        return new TypeResult(new Result(false, errors, "type_error:simple"), isVariable);
    }

    /**
     * ast_checker.py standardize_string: drop spaces and {@code ,./-_*^}, lower-case, then single
     * quotes become double quotes.
     */
    static String standardize(String s) {
        // ASCII fast path in one pass; anything else takes the general route below.
        int n = s.length();
        char[] out = new char[n];
        int k = 0;
        boolean ascii = true;
        for (int i = 0; i < n && ascii; i++) {
            char c = s.charAt(i);
            switch (c) {
                case ' ', ',', '.', '/', '-', '_', '*', '^' -> {}
                case '\'' -> out[k++] = '"';
                default -> {
                    if (c >= 0x80) ascii = false;
                    else out[k++] = c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
                }
            }
        }
        if (ascii) return new String(out, 0, k);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case ' ', ',', '.', '/', '-', '_', '*', '^' -> {}
                default -> sb.append(c);
            }
        }
        // str.lower(): Java's root-locale lower-casing agrees with CPython's full mapping (U+0130 to
        // "i\u0307", final sigma in context).
        return sb.toString().toLowerCase(Locale.ROOT).replace('\'', '"');
    }

    private static PyObj standardized(PyObj o) {
        return PyObj.isStr(o) ? PyObj.str(standardize(PyObj.strValue(o))) : o;
    }

    /** ast_checker.py string_checker. */
    private static Result stringChecker(String param, PyObj value, PyObj answers) {
        String std = standardize(PyObj.strValue(value));
        for (PyObj a : iterate(answers)) {
            if (PyObj.isStr(a) && standardize(PyObj.strValue(a)).equals(std)) return Result.VALID;
        }
        return Result.fail(
                "value_error:string",
                "Invalid value for parameter " + reprStr(param) + ": " + PyObj.repr(value) + ". Expected one of "
                        + PyObj.str(answers) + ". Case insensitive.");
    }

    /** ast_checker.py list_checker: str elements standardised on both sides, then list membership. */
    private static Result listChecker(String param, Seq value, PyObj answers) {
        List<PyObj> std = new ArrayList<>(value.size());
        for (PyObj x : value.items()) std.add(standardized(x));
        Seq standardValue = PyObj.list(std);
        for (PyObj a : iterate(answers)) {
            // possible_answer[i][j] over range(len(...)): a "" answer is an empty list here.
            List<PyObj> sa = new ArrayList<>();
            for (PyObj x : indexable(a)) sa.add(standardized(x));
            if (PyObj.eq(standardValue, PyObj.list(sa))) return Result.VALID;
        }
        return Result.fail(
                "value_error:list/tuple",
                "Invalid value for parameter " + reprStr(param) + ": " + PyObj.repr(value) + ". Expected one of "
                        + PyObj.str(answers) + ".");
    }

    /**
     * ast_checker.py dict_checker. Quirks: the result of the last non-"" answer is returned; after
     * the first loop breaks, the second loop (missing keys) still runs and may append its message and
     * override the error type.
     */
    private static Result dictChecker(Dict value, PyObj answers) {
        Result result = new Result(false, List.of(), "dict_checker:unclear");
        for (PyObj candidate : iterate(answers)) {
            if (PyObj.eq(candidate, PyObj.EMPTY_STR)) continue;
            Dict answer = asDictObj(candidate);
            List<PyObj> errors = new ArrayList<>(2);
            String errorType = "dict_checker:unclear";
            boolean flag = true;
            for (int vi = 0; vi < value.size(); vi++) {
                String key = value.keyAt(vi);
                PyObj item = value.valueAt(vi);
                if (!answer.has(key)) {
                    errors.add(PyObj.str("Unexpected dict key parameter: '" + key + "'."));
                    errorType = "value_error:dict_key";
                    flag = false;
                    break;
                }
                PyObj standardValue = standardized(item);
                List<PyObj> standardAnswers = new ArrayList<>();
                for (PyObj x : indexable(answer.get(key))) standardAnswers.add(standardized(x));
                Seq sa = PyObj.list(standardAnswers);
                if (!in(standardValue, sa)) {
                    errors.add(PyObj.str("Invalid value for parameter " + reprStr(key) + ": " + PyObj.repr(item)
                            + ". Expected one of " + PyObj.repr(sa) + "."));
                    errorType = "value_error:dict_value";
                    flag = false;
                    break;
                }
            }
            for (int ai = 0; ai < answer.size(); ai++) {
                if (!value.has(answer.keyAt(ai)) && !in(PyObj.EMPTY_STR, answer.valueAt(ai))) {
                    errors.add(PyObj.str("Missing dict key parameter: '" + answer.keyAt(ai) + "'."));
                    errorType = "value_error:dict_key";
                    flag = false;
                    break;
                }
            }
            if (flag) return Result.VALID;
            result = new Result(false, errors, errorType);
        }
        return result;
    }

    /** ast_checker.py list_dict_checker: element-wise dict_checker, order significant. */
    private static Result listDictChecker(Seq value, PyObj answers) {
        Result result = new Result(false, List.of(), "list_dict_checker:unclear");
        for (PyObj candidate : iterate(answers)) {
            if (value.size() != len(candidate)) {
                result = Result.fail("value_error:list_dict_count", "Wrong number of dictionaries in the list.");
                continue;
            }
            boolean flag = true;
            List<PyObj> elements = indexable(candidate);
            for (int i = 0; i < value.size(); i++) {
                if (!(value.get(i) instanceof Dict d))
                    throw new CheckerException(
                            "AttributeError: '" + value.get(i).typeName() + "' object has no attribute 'items'");
                result = dictChecker(d, PyObj.list(List.of(elements.get(i))));
                if (!result.valid()) {
                    flag = false;
                    break;
                }
            }
            if (flag) return Result.VALID;
        }
        return result;
    }

    /** Python's {@code x in container} for the containers answers come in. */
    private static boolean in(PyObj x, PyObj container) {
        if (container instanceof Seq s) {
            for (PyObj y : s.items()) if (PyObj.eq(x, y)) return true;
            return false;
        }
        if (PyObj.isStr(container)) {
            if (!PyObj.isStr(x))
                throw new CheckerException(
                        "TypeError: 'in <string>' requires string as left operand, not " + x.typeName());
            return PyObj.strValue(container).contains(PyObj.strValue(x));
        }
        if (container instanceof Dict d) return PyObj.isStr(x) && d.has(PyObj.strValue(x));
        throw new CheckerException("TypeError: argument of type '" + container.typeName() + "' is not iterable");
    }

    /** {@code for x in o} over what answers hold: lists/tuples by item, a str by character, a dict by key. */
    private static List<PyObj> iterate(PyObj o) {
        if (o instanceof Seq s) return s.items();
        if (PyObj.isStr(o)) return chars(PyObj.strValue(o));
        if (o instanceof Dict d) {
            List<PyObj> keys = new ArrayList<>(d.size());
            for (int i = 0; i < d.size(); i++) keys.add(PyObj.str(d.keyAt(i)));
            return keys;
        }
        throw new CheckerException("TypeError: '" + o.typeName() + "' object is not iterable");
    }

    /** {@code o[j] for j in range(len(o))}: sequences and str only (a dict would raise KeyError). */
    private static List<PyObj> indexable(PyObj o) {
        if (o instanceof Seq s) return s.items();
        if (PyObj.isStr(o)) return chars(PyObj.strValue(o));
        if (o instanceof Dict d && d.size() == 0) return List.of();
        throw new CheckerException("KeyError/TypeError indexing a " + o.typeName());
    }

    private static int len(PyObj o) {
        if (o instanceof Seq s) return s.size();
        if (o instanceof Dict d) return d.size();
        if (PyObj.isStr(o))
            return PyObj.strValue(o).codePointCount(0, PyObj.strValue(o).length());
        throw new CheckerException("TypeError: object of type '" + o.typeName() + "' has no len()");
    }

    private static List<PyObj> chars(String s) {
        return s.codePoints().mapToObj(cp -> PyObj.str(Character.toString(cp))).toList();
    }

    private static String reprStr(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        brokkr.python.PyRepr.reprStr(s, sb, BfclData.PYTHON);
        return sb.toString();
    }

    private static Dict asDictObj(PyObj o) {
        if (o instanceof Dict d) return d;
        throw new CheckerException("AttributeError: '" + o.typeName() + "' object has no attribute 'keys'");
    }
}
