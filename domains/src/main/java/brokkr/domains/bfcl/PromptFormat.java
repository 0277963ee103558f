package brokkr.domains.bfcl;

import brokkr.python.PyJson;
import brokkr.python.PyRepr;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A prompting-mode system prompt configuration ({@code ret_fmt=…&tool_call_tag=…&func_doc_fmt=…&prompt_fmt=…&style=…},
 * model_handler/utils.py {@code parse_prompt_variation_params}) and the system prompt upstream builds from it
 * ({@code formulate_system_prompt}, with the templates of constants/default_prompts.py and the function docs of
 * {@code format_function_doc}). {@link #DEFAULT} is what every prompting-mode entry gets
 * ({@code DEFAULT_SYSTEM_PROMPT_FORMAT}); {@link #all()} the 26 format-sensitivity configurations in upstream's
 * order (bfcl_eval/utils.py {@code get_all_format_sensitivity_configs}).
 */
public record PromptFormat(
        PromptingDecoder.ReturnFormat returnFormat,
        boolean toolCallTag,
        String functionDocFormat,
        String promptFormat,
        String style) {

    private static final Pattern PATTERN = Pattern.compile("^ret_fmt=(python|json|verbose_xml|concise_xml)"
            + "&tool_call_tag=(True|False)&func_doc_fmt=(python|xml|json)&prompt_fmt=(plaintext|markdown)"
            + "&style=(classic|experimental)$");

    public static final PromptFormat DEFAULT =
            parse("ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic");

    /** parse_prompt_variation_params. */
    public static PromptFormat parse(String config) {
        Matcher m = PATTERN.matcher(config);
        if (!m.matches()) throw new IllegalArgumentException("Invalid query format: " + PyRepr.reprStr(config));
        return new PromptFormat(
                PromptingDecoder.ReturnFormat.of(m.group(1)),
                m.group(2).equals("True"),
                m.group(3),
                m.group(4),
                m.group(5));
    }

    /** The configuration string, as upstream writes it into a format-sensitivity id. */
    public String id() {
        return "ret_fmt=" + returnFormat.id() + "&tool_call_tag=" + (toolCallTag ? "True" : "False") + "&func_doc_fmt="
                + functionDocFormat + "&prompt_fmt=" + promptFormat + "&style=" + style;
    }

    @Override
    public String toString() {
        return id();
    }

    /** get_all_format_sensitivity_configs: 4 return formats × tag × 3 doc formats, then markdown, then experimental. */
    public static List<PromptFormat> all() {
        List<PromptFormat> out = new ArrayList<>();
        for (String ret : List.of("python", "json", "verbose_xml", "concise_xml"))
            for (String tag : List.of("True", "False"))
                for (String doc : List.of("python", "xml", "json"))
                    out.add(parse("ret_fmt=" + ret + "&tool_call_tag=" + tag + "&func_doc_fmt=" + doc
                            + "&prompt_fmt=plaintext&style=classic"));
        out.add(parse("ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=markdown&style=classic"));
        out.add(parse("ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=experimental"));
        return List.copyOf(out);
    }

    // ------------------------------------------------------------------ constants/default_prompts.py

    static String outputFormat(PromptingDecoder.ReturnFormat f) {
        return switch (f) {
            case PYTHON, JAVA, JAVASCRIPT ->
                "[func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)]";
            case JSON ->
                "```json\n[{\"function\":\"func_name1\",\"parameters\":{\"param1\":\"value1\",\"param2\":\"value2\"...}},{\"function\":\"func_name2\",\"parameters\":{\"param\":\"value\"}}]\n```";
            case VERBOSE_XML ->
                "<functions><function name=\"func_name1\"><params><param name=\"param1\" value=\"value1\" type=\"type1\"/><param name=\"param2\" value=\"value2\" type=\"type2\"/>...</params></function><function name=\"func_name2\"><params><param name=\"param3\" value=\"value3\" type=\"type3\"/></params></function></functions>";
            case CONCISE_XML ->
                "<functions><function name=\"func_name1\"><param name=\"param1\" type=\"type1\">value1</param><param name=\"param2\" type=\"type2\">value2</param>...</function><function name=\"func_name2\"><param name=\"param3\" type=\"type3\">value</param></function></functions>";
        };
    }

    static String paramTypes(PromptingDecoder.ReturnFormat f) {
        return f == PromptingDecoder.ReturnFormat.VERBOSE_XML || f == PromptingDecoder.ReturnFormat.CONCISE_XML
                ? "The type fields of the parameters in your function calls must be one of: string, integer, float, boolean, array, dict, or tuple."
                : "";
    }

    private record Style(
            String persona,
            String task,
            String toolCallNoTag,
            String toolCallWithTag,
            String multiturnBehavior,
            String availableTools) {}

    private static final Style CLASSIC = new Style(
            "You are an expert in composing functions.",
            "You are given a question and a set of possible functions. Based on the question, you will need to make one or more function/tool calls to achieve the purpose. If none of the functions can be used, point it out. If the given question lacks the parameters required by the function, also point it out.",
            "You should only return the function calls in your response.\n\nIf you decide to invoke any of the function(s), you MUST put it in the format of {output_format}. {param_types} You SHOULD NOT include any other text in the response.",
            "You should only return the function calls in the <TOOLCALL> section. If you decide to invoke any of the function(s), you MUST put it in the format of <TOOLCALL>{output_format}</TOOLCALL>. {param_types} You SHOULD NOT include any other text in the response.",
            "At each turn, you should try your best to complete the tasks requested by the user within the current turn. Continue to output functions to call until you have fulfilled the user's request to the best of your ability. Once you have no more functions to call, the system will consider the current turn complete and proceed to the next turn or task.",
            "Here is a list of functions in {format} format that you can invoke.\n{functions}\n");

    private static final Style EXPERIMENTAL = new Style(
            "You are an expert in generating structured function calls.",
            "You are given a user query and a set of available functions. Your task is to produce one or more function/tool calls to fulfill the user's request. If no suitable function exists, or required parameters are missing, clearly indicate this.",
            "Respond with only the function calls.\n\nYou MUST format it exactly as {output_format}. {param_types} Do NOT include any other text.",
            "Return only the function calls enclosed in <TOOLCALL> tags.\n\nYou MUST format it exactly as <TOOLCALL>{output_format}</TOOLCALL>. {param_types} Do NOT include any other text.",
            "At every turn, aim to complete the user's tasks within that turn. Continue emitting function calls until the request is satisfied to the best of your ability. Once no more calls are needed, the system will proceed to the next turn.",
            "Below is a list of callable functions in the {format} style:\n{functions}\n");

    /** formulate_system_prompt(config, functions): {@code functions} as the model sees them (language hints applied). */
    public String systemPrompt(PyList functions) {
        Style s = style.equals("classic") ? CLASSIC : EXPERIMENTAL;
        String toolCallFormat = (toolCallTag ? s.toolCallWithTag : s.toolCallNoTag)
                .replace("{output_format}", outputFormat(returnFormat))
                .replace("{param_types}", paramTypes(returnFormat));
        // str.format substitutes each field once: replacing {format} before {functions} keeps braces in the docs.
        int at = s.availableTools.indexOf("{functions}");
        String availableTools = s.availableTools.substring(0, at).replace("{format}", functionDocFormat)
                + functionDoc(functions, functionDocFormat)
                + s.availableTools.substring(at + "{functions}".length());
        return promptFormat.equals("plaintext")
                ? s.persona + s.task + "\n\n" + toolCallFormat + "\n\n" + s.multiturnBehavior + "\n\n" + availableTools
                : s.persona + "\n\n## Task\n" + s.task + "\n\n## Tool Call Format\n" + toolCallFormat
                        + "\n\n## Multi-turn Behavior\n" + s.multiturnBehavior + "\n\n## Available Tools\n"
                        + availableTools;
    }

    // ------------------------------------------------------------------ format_function_doc

    /** format_function_doc(functions, function_doc_format). */
    static String functionDoc(PyList functions, String format) {
        return switch (format) {
            case "xml" -> xmlDoc(functions);
            case "python" -> pythonDoc(functions);
            case "json" -> PyJson.dumps(functions, PyJson.DumpOptions.DEFAULT.withIndent(4));
            default -> throw new IllegalArgumentException("Invalid function doc format: " + format);
        };
    }

    private static String str(PyDict d, String k, String dflt) {
        Value v = d.get(k);
        return v == null ? dflt : v instanceof PyStr s ? s.value() : PyRepr.str(v);
    }

    /** _generate_function_doc_xml. */
    static String xmlDoc(PyList functions) {
        List<String> blocks = new ArrayList<>();
        for (Value f : functions) {
            PyDict fn = f.asDict();
            PyDict params = fn.get("parameters").asDict();
            PyDict props = params.getOrDefault("properties", PyDict.empty()).asDict();
            Value required = params.get("required");
            StringBuilder xml = new StringBuilder();
            xml.append("<function name=\"").append(str(fn, "name", "")).append("\">\n");
            xml.append("  <desc>").append(str(fn, "description", "")).append("</desc>\n");
            xml.append("  <params>\n");
            for (var e : props.entries())
                xml.append(paramXml(e.getKey(), e.getValue().asDict(), required, 2));
            xml.append("  </params>\n");
            xml.append("</function>\n");
            blocks.add(xml.toString());
        }
        return String.join("\n", blocks);
    }

    private static String paramXml(String name, PyDict meta, Value requiredSet, int level) {
        String indent = " ".repeat(level * 2);
        String type = str(meta, "type", "string");
        String desc = str(meta, "description", "");
        String isRequired = requiredSet == null ? "true" : contains(requiredSet, name) ? "true" : "false";
        if (meta.containsKey("enum")) desc += " Enum values: " + PyRepr.str(meta.get("enum")) + ".";
        if (meta.get("items") instanceof PyDict items && items.containsKey("type")) {
            type = type + "[" + str(items, "type", "") + "]";
        } else if (meta.containsKey("additionalProperties")) {
            if (!(meta.get("additionalProperties") instanceof PyDict ap))
                throw new IllegalArgumentException(
                        "'" + meta.get("additionalProperties").typeName() + "' object has no attribute 'get'");
            type = type + "[" + str(ap, "type", "string") + "]";
        }
        String attrs = "name=\"" + name + "\", type=\"" + type + "\", required=\"" + isRequired + "\"";
        if (meta.containsKey("default")) attrs += " default=\"" + PyRepr.repr(meta.get("default")) + "\"";
        // " ".join(attrs).replace(",", ""): every comma goes, a default's included.
        StringBuilder sb = new StringBuilder();
        sb.append(indent).append("<param ").append(attrs.replace(",", "")).append(">\n");
        sb.append(indent).append("  <desc>").append(desc).append("</desc>\n");
        if (meta.get("properties") instanceof PyDict props) {
            Value childRequired = meta.get("required");
            sb.append(indent).append("  <params>\n");
            for (var e : props.entries())
                sb.append(paramXml(e.getKey(), e.getValue().asDict(), childRequired, level + 2));
            sb.append(indent).append("  </params>\n");
        }
        sb.append(indent).append("</param>\n");
        return sb.toString();
    }

    private static boolean contains(Value list, String name) {
        for (Value v : list.asList()) if (v instanceof PyStr s && s.value().equals(name)) return true;
        return false;
    }

    /** _generate_function_doc_python. */
    static String pythonDoc(PyList functions) {
        List<String> docs = new ArrayList<>();
        for (Value f : functions) {
            PyDict fn = f.asDict();
            StringBuilder sb = new StringBuilder();
            sb.append("# Function: ").append(str(fn, "name", "")).append('\n');
            sb.append("    \"\"\"\n");
            sb.append("    ").append(str(fn, "description", "")).append("\n\n");
            PyDict params = fn.getOrDefault("parameters", PyDict.empty()).asDict();
            PyDict props = params.getOrDefault("properties", PyDict.empty()).asDict();
            if (!props.isEmpty()) {
                sb.append("    Args:\n");
                for (var e : props.entries()) paramDoc(e.getKey(), e.getValue().asDict(), 0, sb);
            }
            sb.append("    \"\"\"\n");
            docs.add(sb.toString());
            docs.add("\n");
        }
        return String.join("\n\n", docs);
    }

    private static void paramDoc(String name, PyDict meta, int depth, StringBuilder sb) {
        String indent = " ".repeat(8 + 4 * depth);
        String desc = str(meta, "description", "");
        if (meta.containsKey("enum")) desc += " Enum values: " + PyRepr.str(meta.get("enum")) + ".";
        String dflt = meta.containsKey("default") ? ", default=" + PyRepr.repr(meta.get("default")) : "";
        sb.append(indent)
                .append(name)
                .append(" (")
                .append(pyType(meta))
                .append(dflt)
                .append("): ")
                .append(desc)
                .append('\n');
        if (meta.get("properties") instanceof PyDict props)
            for (var e : props.entries()) paramDoc(e.getKey(), e.getValue().asDict(), depth + 1, sb);
    }

    private static String pyType(PyDict meta) {
        String t = str(meta, "type", "string");
        switch (t) {
            case "string":
                return "str";
            case "number":
                return "float";
            case "integer":
                return "int";
            case "boolean":
                return "bool";
            default:
        }
        if ((t.equals("array") || t.equals("list") || t.equals("tuple")) && meta.get("items") instanceof PyDict items)
            return "list[" + pyType(items) + "]";
        if (t.equals("object") || t.equals("dict")) {
            if (meta.get("additionalProperties") instanceof PyDict ap) return "dict[str, " + pyType(ap) + "]";
            return "dict";
        }
        return t;
    }
}
