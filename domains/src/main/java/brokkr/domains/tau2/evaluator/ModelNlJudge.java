package brokkr.domains.tau2.evaluator;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.evaluator.Checks.NlAssertionCheck;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.python.PyRepr;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The NL-assertion judge as upstream runs it ({@code NLAssertionsEvaluator.evaluate_nl_assertions},
 * {@code src/tau2/evaluator/evaluator_nl_assertions.py}): one model call with upstream's exact system
 * and user prompts and no tools, the answer parsed as JSON. Upstream uses gpt-4.1 at temperature 0
 * ({@code DEFAULT_LLM_NL_ASSERTIONS}); the candidate given here decides the model.
 */
public record ModelNlJudge(String name, Candidate model) implements NlJudge {

    /** Upstream's system prompt, character for character: an unindented triple-quoted literal keeps its 8-space indentation. */
    public static final String SYSTEM_PROMPT = String.join(
            "\n",
            "",
            "        TASK",
            "        - You will be given a list of expected outcomes and a conversation that was collected during a test case run.",
            "        - The conversation is between an agent and a customer.",
            "        - Your job is to evaluate whether the agent satisfies each of the expected outcomes.",
            "        - Grade each expected outcome individually.",
            "",
            "        FORMAT",
            "        - Your response should be a JSON object with the following fields:",
            "        - `reasoning`: a short explanation for your classification",
            "        - `metExpectation`: `true` if the agent satisfies the expected outcomes, `false` otherwise",
            "        - `expectedOutcome`: repeat the expectation from the input that you are grading",
            "        ",
            "        Example response structure:",
            "        {",
            "            \"results\": [",
            "                {",
            "                    \"expectedOutcome\": \"<one of the expected outcomes from the input>\",",
            "                    \"reasoning\": \"<reasoning trace>\",",
            "                    \"metExpectation\": <false or true>,",
            "                }",
            "            ]",
            "        }",
            "        ");

    /** Upstream's {@code trajectory_str}: {@code f"{message.role}: {message.content}"} per message, None for no content. */
    public static String trajectoryText(List<Tau2Message> trajectory) {
        StringBuilder sb = new StringBuilder();
        for (Tau2Message m : trajectory) {
            if (!sb.isEmpty()) sb.append('\n');
            sb.append(m.role()).append(": ").append(m.content() == null ? "None" : m.content());
        }
        return sb.toString();
    }

    /** Upstream's user prompt; the assertions appear as Python's {@code str()} of the list. */
    public static String userPrompt(List<Tau2Message> trajectory, List<String> nlAssertions) {
        List<Value> items = new ArrayList<>();
        for (String a : nlAssertions) items.add(new PyStr(a));
        return "\n        conversation:\n        " + trajectoryText(trajectory)
                + "\n        \n        expectedOutcomes:\n        " + PyRepr.repr(PyList.of(items)) + "\n        ";
    }

    /** The exact request upstream's judge sends: a system and a user message. */
    public static List<Message> request(List<Tau2Message> trajectory, List<String> nlAssertions) {
        return List.of(new Message.System(SYSTEM_PROMPT), new Message.User(userPrompt(trajectory, nlAssertions)));
    }

    @Override
    public Verdict judge(List<Tau2Message> trajectory, List<String> nlAssertions) throws InfrastructureFailure {
        Turn turn = model.next(request(trajectory, nlAssertions), List.of());
        return new Verdict(parse(turn.message().content()), turn.calls());
    }

    /**
     * Upstream parses with {@code json.loads(content)} and builds one {@code NLAssertionCheck} per entry
     * of {@code results} (missing key: none); whatever the judge lists is what counts, so an empty list
     * passes (upstream quirk). Anything upstream would raise on is a {@link JudgeFormatException}.
     */
    public static List<NlAssertionCheck> parse(String content) {
        if (content == null) throw new JudgeFormatException("judge returned no content");
        Value data;
        try {
            data = Json.parse(content);
        } catch (Json.JsonFormatException e) {
            throw new JudgeFormatException(
                    "judge answer is not JSON (" + oneLine(e) + "); it begins: " + excerpt(content));
        }
        if (!(data instanceof PyDict d))
            throw new JudgeFormatException("judge answer is a JSON " + data.typeName() + ", not an object");
        Value results = d.get("results");
        if (results == null) return List.of();
        List<NlAssertionCheck> out = new ArrayList<>();
        for (Value r : iterate(results)) {
            if (!(r instanceof PyDict rd))
                throw new JudgeFormatException("a result is a " + r.typeName() + ", not an object");
            out.add(new NlAssertionCheck(str(rd, "expectedOutcome"), bool(rd, "metExpectation"), str(rd, "reasoning")));
        }
        return out;
    }

    /** The parser's complaint on one line: its own message without the source excerpt Jackson appends on a second. */
    private static String oneLine(Json.JsonFormatException e) {
        if (e.getCause() instanceof com.fasterxml.jackson.core.JsonProcessingException j) {
            var where = j.getLocation();
            String what = j.getOriginalMessage().lines().findFirst().orElse("");
            return where == null || where.getLineNr() < 1
                    ? what
                    : "line " + where.getLineNr() + ", column " + where.getColumnNr() + ": " + what;
        }
        return String.valueOf(e.getMessage()).lines().findFirst().orElse("");
    }

    /** The first characters of a judge's answer, quoted, on one line (a prose answer is told from a cut JSON one). */
    private static String excerpt(String content) {
        String flat = content.strip().replaceAll("\\s+", " ");
        return "\"" + (flat.length() > 80 ? flat.substring(0, 80) + "..." : flat) + "\"";
    }

    private static List<Value> iterate(Value v) {
        if (v instanceof PyList l) return l.items();
        if (v instanceof PyDict d) { // iterating a dict yields its keys, which are str: r["..."] then fails
            if (d.isEmpty()) return List.of();
            throw new JudgeFormatException("'results' is an object: indexing its str keys fails");
        }
        throw new JudgeFormatException("'results' is a " + v.typeName() + ", not a list");
    }

    private static String str(PyDict d, String k) {
        Value v = d.get(k);
        if (v == null) throw new JudgeFormatException("result has no key '" + k + "'");
        if (v instanceof PyStr s) return s.value();
        throw new JudgeFormatException("'" + k + "' is a " + v.typeName() + ", pydantic wants a str");
    }

    /** pydantic's lax {@code bool}: bools, the ints and floats 0 and 1, and the usual yes/no words. */
    static boolean bool(PyDict d, String k) {
        Value v = d.get(k);
        if (v == null) throw new JudgeFormatException("result has no key '" + k + "'");
        switch (v) {
            case PyBool b -> {
                return b.value();
            }
            case PyInt i -> {
                if (i.value().equals(BigInteger.ONE)) return true;
                if (i.value().signum() == 0) return false;
            }
            case PyFloat f -> {
                if (f.value() == 1.0) return true;
                if (f.value() == 0.0) return false;
            }
            case PyStr s -> {
                switch (s.value().toLowerCase(Locale.ROOT)) {
                    case "1", "on", "t", "true", "y", "yes" -> {
                        return true;
                    }
                    case "0", "off", "f", "false", "n", "no" -> {
                        return false;
                    }
                    default -> {}
                }
            }
            default -> {}
        }
        throw new JudgeFormatException("'" + k + "' is not a valid boolean: " + PyRepr.repr(v));
    }
}
