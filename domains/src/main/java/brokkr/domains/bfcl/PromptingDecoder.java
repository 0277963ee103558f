package brokkr.domains.bfcl;

import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyJsonLoads;
import brokkr.python.PyObjects;
import brokkr.python.PyRe;
import brokkr.python.PyRepr;
import brokkr.python.PyStrings;
import brokkr.python.PyTuple;
import brokkr.python.source.PyEval;
import brokkr.python.source.PyExpr;
import brokkr.python.source.PyParser;
import brokkr.value.PyBool;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.StringReader;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXParseException;

/**
 * How upstream decodes a prompting-mode model's text into calls ({@code bfcl_eval/model_handler/utils.py}
 * {@code default_decode_ast_prompting} and {@code ast_parse}, with the parsers of {@code model_handler/parser/}):
 * the text stripped of {@code `}, newlines and spaces and wrapped in {@code [...]} if it is not already; then,
 * with a tool-call tag, the first {@code <TOOLCALL>...</TOOLCALL>}'s content (stripped) or a ValueError; then
 * by return format: Python ({@code ast.parse} of the text without surrounding {@code '}, calls resolved by
 * {@code resolve_ast_call} / {@code resolve_ast_by_type}), Java / JavaScript (the text without its first and
 * last character, "for legacy reasons", through {@link JavaCallParser} / {@link JsCallParser}), JSON
 * ({@code parse_json_function_call} after the greedy {@code \[.*\]}), verbose / concise XML (the first
 * {@code <functions>...</functions>} through {@code xml.etree}). A failure is upstream's exception as
 * {@code str(e)}, which the verdict quotes ({@code ast_decoder:decoder_failed}).
 *
 * <p>Argued, not proven (no upstream Python here): the texts of exceptions raised inside Python's {@code ast},
 * {@code xml.etree} (expat's messages are approximated) and {@code ast.literal_eval} (whose message names a
 * memory address); a dict display's non-str keys become their repr (the checker's values have str keys).
 */
public final class PromptingDecoder {
    private PromptingDecoder() {}

    /** constants/enums.py ReturnFormat. */
    public enum ReturnFormat {
        PYTHON("python"),
        JAVA("java"),
        JAVASCRIPT("javascript"),
        JSON("json"),
        VERBOSE_XML("verbose_xml"),
        CONCISE_XML("concise_xml");

        private final String id;

        ReturnFormat(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        public static ReturnFormat of(String id) {
            for (ReturnFormat f : values()) if (f.id.equals(id)) return f;
            throw new IllegalArgumentException("unknown return format '" + id + "'");
        }

        /** The format a category's prompting answers are decoded in (eval_runner.py ast_file_runner). */
        public static ReturnFormat of(AstChecker.Language language) {
            return switch (language) {
                case JAVA -> JAVA;
                case JAVASCRIPT -> JAVASCRIPT;
                default -> PYTHON;
            };
        }
    }

    /** A decode failure: upstream's exception type and {@code str(e)}. */
    public static final class DecodeError extends RuntimeException {
        private final String pyType;

        DecodeError(String pyType, String str) {
            super(str, null, false, false);
            this.pyType = pyType;
        }

        public String pyType() {
            return pyType;
        }
    }

    /** default_decode_ast_prompting(result, language, has_tool_call_tag) as a harness answer. */
    public static BfclHarness.Answer answer(String text, ReturnFormat format, boolean toolCallTag) {
        try {
            return BfclHarness.Answer.of(decode(text, format, toolCallTag));
        } catch (DecodeError e) {
            return BfclHarness.Answer.failed(e.getMessage());
        }
    }

    /** default_decode_ast_prompting: the decoded value (which may not be in call format: {@code {}}, None, ...). */
    public static PyObj decode(String text, ReturnFormat format, boolean toolCallTag) {
        String result = strip(text == null ? "" : text, "`\n ");
        if (!result.startsWith("[")) result = "[" + result;
        if (!result.endsWith("]")) result = result + "]";
        return astParse(result, format, toolCallTag);
    }

    private static final Pattern TOOLCALL = PyRe.compile("<TOOLCALL>(.*?)</TOOLCALL>", true);
    private static final Pattern FUNCTIONS = PyRe.compile("<functions>(.*?)</functions>", true);
    private static final Pattern JSON_LIST = PyRe.compile("\\[.*\\]", true);
    private static final Pattern JSON_CALLS = PyRe.compile("\\[\\s*\\{.*?\\}\\s*(?:,\\s*\\{.*?\\}\\s*)*\\]", true);

    /** ast_parse(input_str, language, has_tool_call_tag). */
    static PyObj astParse(String input, ReturnFormat format, boolean toolCallTag) {
        if (toolCallTag) {
            Matcher m = TOOLCALL.matcher(input);
            if (!m.find()) throw new DecodeError("ValueError", "No tool call tag found in input string: " + input);
            input = PyStrings.strip(m.group(1));
        }
        try {
            return switch (format) {
                case PYTHON -> python(strip(PyStrings.strip(input), "'"));
                case JAVA -> JavaCallParser.parse(slice1(input));
                case JAVASCRIPT -> {
                    PyObj r = JsCallParser.parse(slice1(input));
                    yield r == null ? NONE : r;
                }
                case VERBOSE_XML, CONCISE_XML -> {
                    Matcher m = FUNCTIONS.matcher(input);
                    if (!m.find())
                        throw new DecodeError(
                                "ValueError",
                                "No XML function call found in input string: " + input + ". Missing <functions> tag.");
                    yield xml(m.group(0), format == ReturnFormat.VERBOSE_XML);
                }
                case JSON -> {
                    Matcher m = JSON_LIST.matcher(input);
                    yield json(m.find() ? m.group(0) : input);
                }
            };
        } catch (JavaCallParser.Failure f) {
            throw new DecodeError(f.pyType, f.getMessage());
        } catch (PyException e) {
            throw new DecodeError(e.pyType(), e.str().replace("(<string>, line", "(<unknown>, line"));
        }
    }

    static final PyObj NONE = new PyObj.Atom(PyNone.NONE);

    /** Python's {@code s[1:-1]} over code points. */
    private static String slice1(String s) {
        int[] c = s.codePoints().toArray();
        return c.length <= 2 ? "" : new String(c, 1, c.length - 2);
    }

    private static String strip(String s, String chars) {
        return PyStrings.strip(s, chars);
    }

    // ------------------------------------------------------------------ Python (utils.py ast_parse)

    private static PyObj python(String source) {
        PyExpr body = PyParser.parse(source, BfclData.PYTHON);
        List<PyObj> out = new ArrayList<>();
        if (body instanceof PyExpr.Call c) {
            out.add(resolveCall(c));
        } else {
            List<PyExpr> elts = switch (body) {
                case PyExpr.ListDisplay l -> l.items();
                case PyExpr.Tuple t -> t.items();
                case PyExpr.SetDisplay s -> s.items();
                default ->
                    throw new DecodeError("AttributeError", "'" + astType(body) + "' object has no attribute 'elts'");
            };
            for (PyExpr e : elts) {
                if (!(e instanceof PyExpr.Call c)) throw new DecodeError("AssertionError", "");
                out.add(resolveCall(c));
            }
        }
        return PyObj.list(out);
    }

    /** resolve_ast_call: the dotted name of the attribute chain, keyword arguments only. */
    private static PyObj resolveCall(PyExpr.Call call) {
        List<String> parts = new ArrayList<>();
        PyExpr f = call.fn();
        while (f instanceof PyExpr.Attr a) {
            parts.add(a.name());
            f = a.obj();
        }
        if (f instanceof PyExpr.Name n) parts.add(n.id());
        java.util.Collections.reverse(parts);
        Map<String, PyObj> args = new LinkedHashMap<>();
        for (PyExpr.Arg a : call.args()) {
            if (a.star() == 1 || (a.name() == null && a.star() == 0)) continue; // positional: not in keywords
            // **x is a keyword whose arg is None.
            args.put(a.name() == null ? "None" : a.name(), resolve(a.value()));
        }
        Map<String, PyObj> out = new LinkedHashMap<>();
        out.put(String.join(".", parts), new PyObj.Dict(args));
        return new PyObj.Dict(out);
    }

    /** resolve_ast_by_type. */
    private static PyObj resolve(PyExpr v) {
        return switch (v) {
            case PyExpr.Const c -> c.value() == PyObjects.ELLIPSIS ? PyObj.str("...") : fromPython(c.value());
            case PyExpr.Unary u -> {
                // output = -value.operand.value, whatever the operator
                if (!(u.operand() instanceof PyExpr.Const c))
                    throw new DecodeError(
                            "AttributeError", "'" + astType(u.operand()) + "' object has no attribute 'value'");
                yield fromPython(brokkr.python.PyObjectOps.neg(c.value()));
            }
            case PyExpr.ListDisplay l ->
                PyObj.list(l.items().stream().map(PromptingDecoder::resolve).toList());
            case PyExpr.DictDisplay d -> {
                Map<String, PyObj> m = new LinkedHashMap<>();
                for (int i = 0; i < d.keys().size(); i++) {
                    if (d.keys().get(i) == null)
                        throw new DecodeError("Exception", "Unsupported AST type: <class 'NoneType'>");
                    PyObj k = resolve(d.keys().get(i));
                    m.put(
                            k instanceof PyObj.Atom a && a.value() instanceof PyStr s ? s.value() : PyObj.repr(k),
                            resolve(d.values().get(i)));
                }
                yield new PyObj.Dict(m);
            }
            case PyExpr.Binary b -> fromPython(new PyEval(n -> null, BfclData.PYTHON).eval(b));
            case PyExpr.Name n -> PyObj.str(n.id());
            case PyExpr.Call c -> {
                boolean keywords = c.args().stream().anyMatch(a -> a.name() != null || a.star() == 2);
                yield keywords ? resolveCall(c) : PyObj.str(PyUnparse.unparse(c));
            }
            case PyExpr.Tuple t ->
                new PyObj.Seq(t.items().stream().map(PromptingDecoder::resolve).toList(), true);
            case PyExpr.Subscript s ->
                PyObj.str(PyUnparse.unparse(s.obj()) + "[" + PyUnparse.unparseSlice(s.index()) + "]");
            default -> throw new DecodeError("Exception", "Unsupported AST type: <class 'ast." + astType(v) + "'>");
        };
    }

    /** The name of Python's ast class for an expression. */
    static String astType(PyExpr e) {
        return switch (e) {
            case PyExpr.Const c -> "Constant";
            case PyExpr.Name n -> "Name";
            case PyExpr.Attr a -> "Attribute";
            case PyExpr.Call c -> "Call";
            case PyExpr.Subscript s -> "Subscript";
            case PyExpr.Slice s -> "Slice";
            case PyExpr.Tuple t -> "Tuple";
            case PyExpr.ListDisplay l -> "List";
            case PyExpr.SetDisplay s -> "Set";
            case PyExpr.DictDisplay d -> "Dict";
            case PyExpr.Starred s -> "Starred";
            case PyExpr.Unary u -> "UnaryOp";
            case PyExpr.Binary b -> "BinOp";
            case PyExpr.BoolOp b -> "BoolOp";
            case PyExpr.Compare c -> "Compare";
            case PyExpr.IfExp i -> "IfExp";
            case PyExpr.NamedExpr n -> "NamedExpr";
        };
    }

    /** A Python object of {@code brokkr.python.PyObjects} as the checker's value. */
    static PyObj fromPython(Object o) {
        return switch (o) {
            case PyNone n -> NONE;
            case Boolean b -> new PyObj.Atom(PyBool.of(b));
            case BigInteger i -> new PyObj.Atom(new PyInt(i));
            case Double d -> new PyObj.Atom(new PyFloat(d));
            case String s -> PyObj.str(s);
            case PyTuple t ->
                new PyObj.Seq(
                        t.items().stream().map(PromptingDecoder::fromPython).toList(), true);
            case List<?> l ->
                PyObj.list(l.stream().map(PromptingDecoder::fromPython).toList());
            case Map<?, ?> m -> {
                Map<String, PyObj> out = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : m.entrySet())
                    out.put(
                            e.getKey() instanceof String s ? s : PyObj.repr(fromPython(e.getKey())),
                            fromPython(e.getValue()));
                yield new PyObj.Dict(out);
            }
            default ->
                throw new DecodeError(
                        "Exception", "Unsupported value of type " + PyObjects.typeName(o) + " in a decoded call");
        };
    }

    // ------------------------------------------------------------------ JSON (parser/json_parser.py)

    private static PyObj json(String source) {
        Matcher m = JSON_CALLS.matcher(source);
        if (m.find()) source = m.group(0);
        Value parsed;
        try {
            parsed = PyJsonLoads.loads(source);
        } catch (PyJsonLoads.JSONDecodeError e) {
            return PyObj.list(List.of());
        }
        List<PyObj> calls = new ArrayList<>();
        Iterable<Value> items = switch (parsed) {
            case brokkr.value.PyList l -> l;
            case brokkr.value.PyDict d -> List.of(); // iterating a dict gives its str keys, none a dict
            case PyStr s -> List.of();
            default -> throw new DecodeError("TypeError", "'" + parsed.typeName() + "' object is not iterable");
        };
        for (Value item : items) {
            if (!(item instanceof brokkr.value.PyDict d)) continue;
            Value name = d.get("function");
            if (name == null) throw new DecodeError("KeyError", "'function'");
            Value params = d.get("parameters");
            if (params == null) throw new DecodeError("KeyError", "'parameters'");
            if (!(name instanceof PyStr s))
                throw new DecodeError("Exception", "a function name that is not a str: " + PyRepr.repr(name));
            Map<String, PyObj> call = new LinkedHashMap<>();
            call.put(s.value(), PyObj.ofValue(params));
            calls.add(new PyObj.Dict(call));
        }
        return PyObj.list(calls);
    }

    // ------------------------------------------------------------------ XML (parser/xml_parser.py)

    private static PyObj xml(String source, boolean verbose) {
        Element root;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setExpandEntityReferences(false);
            var builder = f.newDocumentBuilder();
            builder.setErrorHandler(null);
            root = builder.parse(new InputSource(new StringReader(source))).getDocumentElement();
        } catch (SAXParseException e) {
            // expat's "not well-formed (invalid token): line L, column C" (argued: the reason words differ).
            throw new DecodeError(
                    "ParseError",
                    "not well-formed (invalid token): line " + e.getLineNumber() + ", column "
                            + Math.max(0, e.getColumnNumber() - 1));
        } catch (Exception e) {
            throw new DecodeError("ParseError", String.valueOf(e.getMessage()));
        }
        List<PyObj> results = new ArrayList<>();
        for (Element func : children(root, "function")) {
            if (!func.hasAttribute("name")) throw new DecodeError("KeyError", "'name'");
            Map<String, PyObj> params = new LinkedHashMap<>();
            List<Element> elements;
            if (verbose) {
                List<Element> containers = children(func, "params");
                elements = containers.isEmpty() ? children(func, "param") : children(containers.getFirst(), "param");
            } else {
                elements = children(func, "param");
            }
            for (Element p : elements) {
                String name;
                String raw;
                if (verbose) {
                    name = p.hasAttribute("name") ? p.getAttribute("name") : "None";
                    raw = p.hasAttribute("value") ? p.getAttribute("value") : "";
                } else {
                    if (!p.hasAttribute("name")) throw new DecodeError("KeyError", "'name'");
                    name = p.getAttribute("name");
                    raw = PyStrings.strip(leadingText(p));
                }
                String type = p.hasAttribute("type") ? p.getAttribute("type") : "string";
                params.put(name, byType(raw, type));
            }
            Map<String, PyObj> call = new LinkedHashMap<>();
            call.put(func.getAttribute("name"), new PyObj.Dict(params));
            results.add(new PyObj.Dict(call));
        }
        return PyObj.list(results);
    }

    /** ElementTree's {@code findall(tag)}: the direct children with that tag. */
    private static List<Element> children(Element e, String tag) {
        List<Element> out = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling())
            if (n instanceof Element c && c.getTagName().equals(tag)) out.add(c);
        return out;
    }

    /** ElementTree's {@code .text}: the character data before the first child element. */
    private static String leadingText(Element e) {
        StringBuilder sb = new StringBuilder();
        for (Node n = e.getFirstChild(); n != null && !(n instanceof Element); n = n.getNextSibling())
            if (n.getNodeType() == Node.TEXT_NODE || n.getNodeType() == Node.CDATA_SECTION_NODE)
                sb.append(n.getNodeValue());
        return sb.toString();
    }

    /** convert_value_by_type. */
    private static PyObj byType(String raw, String type) {
        return switch (type) {
            case "string" -> PyObj.str(raw);
            case "integer" -> new PyObj.Atom(new PyInt(PyBuiltins.parseInt(raw, BfclData.PYTHON)));
            case "float" -> new PyObj.Atom(new PyFloat(PyBuiltins.parseFloat(raw, BfclData.PYTHON)));
            case "boolean" ->
                new PyObj.Atom(PyBool.of(raw.toLowerCase(java.util.Locale.ROOT).equals("true")));
            case "null" -> NONE;
            case "array", "tuple", "object", "dict" -> literalEval(raw);
            default -> PyObj.str(raw);
        };
    }

    /** ast.literal_eval(raw): literals, displays of literals and signed numbers only. */
    static PyObj literalEval(String raw) {
        String s = raw;
        int i = 0;
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
        PyExpr e = PyParser.parse(s.substring(i), BfclData.PYTHON);
        checkLiteral(e);
        return fromPython(new PyEval(n -> null, BfclData.PYTHON).eval(e));
    }

    private static void checkLiteral(PyExpr e) {
        switch (e) {
            case PyExpr.Const c -> {}
            case PyExpr.ListDisplay l -> l.items().forEach(PromptingDecoder::checkLiteral);
            case PyExpr.Tuple t -> t.items().forEach(PromptingDecoder::checkLiteral);
            case PyExpr.SetDisplay t -> t.items().forEach(PromptingDecoder::checkLiteral);
            case PyExpr.DictDisplay d -> {
                for (PyExpr k : d.keys()) if (k == null) malformed(e);
                d.keys().forEach(PromptingDecoder::checkLiteral);
                d.values().forEach(PromptingDecoder::checkLiteral);
            }
            case PyExpr.Unary u
            when (u.op().equals("-") || u.op().equals("+"))
                    && u.operand() instanceof PyExpr.Const c
                    && !(c.value() instanceof String) -> {}
            default -> malformed(e);
        }
    }

    private static void malformed(PyExpr e) {
        // The real message ends with the node's repr, "<ast.Name object at 0x...>": its address is not reproducible.
        throw new DecodeError("ValueError", "malformed node or string on line 1: <ast." + astType(e) + " object>");
    }
}
