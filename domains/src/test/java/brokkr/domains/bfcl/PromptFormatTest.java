package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.value.Json;
import brokkr.value.PyList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The system prompts upstream builds (model_handler/utils.py formulate_system_prompt, format_function_doc; the
 * templates of constants/default_prompts.py), pinned byte for byte. The expected texts were written by hand from
 * those templates, not by running the code: "{persona}{task}" has no space between them in the plaintext
 * template; an empty {param_types} leaves two spaces; the doc format is named in lower case; the XML doc's
 * attributes lose every comma (a default's too); the Python doc's blocks are joined with blank lines.
 */
class PromptFormatTest {
    static final PyList FUNCTIONS = (PyList) Json.parse(
            "[{\"name\": \"math.factorial\", \"description\": \"Compute.\", \"parameters\": {\"type\": \"dict\", "
                    + "\"properties\": {\"number\": {\"type\": \"integer\", \"description\": \"The number.\"}, "
                    + "\"l\": {\"type\": \"array\", \"items\": {\"type\": \"integer\"}, \"description\": \"L.\", \"default\": [1, 2]}}, "
                    + "\"required\": [\"number\"]}}]");

    static final String PERSONA_TASK =
            "You are an expert in composing functions.You are given a question and a set of possible functions. Based on the question, you will need to make one or more function/tool calls to achieve the purpose. If none of the functions can be used, point it out. If the given question lacks the parameters required by the function, also point it out.";
    static final String MULTITURN =
            "At each turn, you should try your best to complete the tasks requested by the user within the current turn. Continue to output functions to call until you have fulfilled the user's request to the best of your ability. Once you have no more functions to call, the system will consider the current turn complete and proceed to the next turn or task.";

    @Test
    void theDefaultPrompt() {
        String json = """
                [
                    {
                        "name": "math.factorial",
                        "description": "Compute.",
                        "parameters": {
                            "type": "dict",
                            "properties": {
                                "number": {
                                    "type": "integer",
                                    "description": "The number."
                                },
                                "l": {
                                    "type": "array",
                                    "items": {
                                        "type": "integer"
                                    },
                                    "description": "L.",
                                    "default": [
                                        1,
                                        2
                                    ]
                                }
                            },
                            "required": [
                                "number"
                            ]
                        }
                    }
                ]""";
        String expected = PERSONA_TASK
                + "\n\nYou should only return the function calls in your response.\n\nIf you decide to invoke any of the function(s), you MUST put it in the format of [func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)].  You SHOULD NOT include any other text in the response.\n\n"
                + MULTITURN + "\n\nHere is a list of functions in json format that you can invoke.\n" + json + "\n";
        assertEquals(expected, PromptFormat.DEFAULT.systemPrompt(FUNCTIONS));
    }

    @Test
    void conciseXmlWithTagAndXmlDocs() {
        PromptFormat f = PromptFormat.parse(
                "ret_fmt=concise_xml&tool_call_tag=True&func_doc_fmt=xml&prompt_fmt=plaintext&style=classic");
        String xml = "<function name=\"math.factorial\">\n  <desc>Compute.</desc>\n  <params>\n"
                + "    <param name=\"number\" type=\"integer\" required=\"true\">\n      <desc>The number.</desc>\n    </param>\n"
                + "    <param name=\"l\" type=\"array[integer]\" required=\"false\" default=\"[1 2]\">\n      <desc>L.</desc>\n    </param>\n"
                + "  </params>\n</function>\n";
        String expected = PERSONA_TASK
                + "\n\nYou should only return the function calls in the <TOOLCALL> section. If you decide to invoke any of the function(s), you MUST put it in the format of <TOOLCALL><functions><function name=\"func_name1\"><param name=\"param1\" type=\"type1\">value1</param><param name=\"param2\" type=\"type2\">value2</param>...</function><function name=\"func_name2\"><param name=\"param3\" type=\"type3\">value</param></function></functions></TOOLCALL>. The type fields of the parameters in your function calls must be one of: string, integer, float, boolean, array, dict, or tuple. You SHOULD NOT include any other text in the response.\n\n"
                + MULTITURN + "\n\nHere is a list of functions in xml format that you can invoke.\n" + xml + "\n";
        assertEquals(expected, f.systemPrompt(FUNCTIONS));
    }

    @Test
    void jsonReturnWithPythonDocs() {
        PromptFormat f = PromptFormat.parse(
                "ret_fmt=json&tool_call_tag=False&func_doc_fmt=python&prompt_fmt=plaintext&style=classic");
        String doc = "# Function: math.factorial\n    \"\"\"\n    Compute.\n\n    Args:\n"
                + "        number (int): The number.\n        l (list[int], default=[1, 2]): L.\n    \"\"\"\n"
                + "\n\n\n";
        String expected = PERSONA_TASK
                + "\n\nYou should only return the function calls in your response.\n\nIf you decide to invoke any of the function(s), you MUST put it in the format of ```json\n[{\"function\":\"func_name1\",\"parameters\":{\"param1\":\"value1\",\"param2\":\"value2\"...}},{\"function\":\"func_name2\",\"parameters\":{\"param\":\"value\"}}]\n```.  You SHOULD NOT include any other text in the response.\n\n"
                + MULTITURN + "\n\nHere is a list of functions in python format that you can invoke.\n" + doc + "\n";
        assertEquals(expected, f.systemPrompt(FUNCTIONS));
    }

    @Test
    void markdownAndExperimental() {
        String md = PromptFormat.parse(
                        "ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=markdown&style=classic")
                .systemPrompt(PyList.of(List.of()));
        assertEquals(
                "You are an expert in composing functions.\n\n## Task\nYou are given a question and a set of possible functions."
                        + PERSONA_TASK.substring(PERSONA_TASK.indexOf(" Based on"))
                        + "\n\n## Tool Call Format\nYou should only return the function calls in your response.\n\nIf you decide to invoke any of the function(s), you MUST put it in the format of [func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)].  You SHOULD NOT include any other text in the response.\n\n## Multi-turn Behavior\n"
                        + MULTITURN
                        + "\n\n## Available Tools\nHere is a list of functions in json format that you can invoke.\n[]\n",
                md);
        String ex = PromptFormat.parse(
                        "ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=experimental")
                .systemPrompt(PyList.of(List.of()));
        assertEquals(
                "You are an expert in generating structured function calls.You are given a user query and a set of available functions. Your task is to produce one or more function/tool calls to fulfill the user's request. If no suitable function exists, or required parameters are missing, clearly indicate this.\n\nRespond with only the function calls.\n\nYou MUST format it exactly as [func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)].  Do NOT include any other text.\n\nAt every turn, aim to complete the user's tasks within that turn. Continue emitting function calls until the request is satisfied to the best of your ability. Once no more calls are needed, the system will proceed to the next turn.\n\nBelow is a list of callable functions in the json style:\n[]\n",
                ex);
    }

    @Test
    void theTwentySixConfigurationsInUpstreamsOrder() {
        List<PromptFormat> all = PromptFormat.all();
        assertEquals(26, all.size());
        assertEquals(
                "ret_fmt=python&tool_call_tag=True&func_doc_fmt=python&prompt_fmt=plaintext&style=classic",
                all.getFirst().id());
        assertEquals(
                "ret_fmt=concise_xml&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic",
                all.get(23).id());
        assertEquals(
                "ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=experimental",
                all.getLast().id());
        assertEquals(26, all.stream().distinct().count());
    }
}
