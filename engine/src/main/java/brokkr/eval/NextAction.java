package brokkr.eval;

import brokkr.conversation.ToolCall;
import brokkr.python.PyJson;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A candidate's answer at a decision point: tool calls (with what the environment answered to them),
 * a text reply, a stop, or a failed model call.
 *
 * @param text    the message's text (null when it has none; the failure for {@link Kind#FAILED})
 * @param results one per call, in order: what the environment answered
 */
public record NextAction(Kind kind, List<ToolCall> calls, String text, List<Result> results) {
    public enum Kind {
        CALL,
        TEXT,
        STOP,
        FAILED
    }

    /** What the environment answered to one call. */
    public record Result(String content, boolean error) {}

    /** The token a conversation ends on (tau2's {@code ###STOP###}); a text containing it is a stop. */
    public static final String STOP_TOKEN = "###STOP###";

    public NextAction {
        calls = calls == null ? List.of() : List.copyOf(calls);
        results = results == null ? List.of() : List.copyOf(results);
    }

    /** A message as an action: tool calls when it has any, else a stop when its text holds the stop token, else a text reply. */
    public static NextAction of(String text, List<ToolCall> calls, List<Result> results) {
        if (calls != null && !calls.isEmpty()) return new NextAction(Kind.CALL, calls, text, results);
        if (text != null && text.contains(STOP_TOKEN)) return new NextAction(Kind.STOP, List.of(), text, List.of());
        return new NextAction(Kind.TEXT, List.of(), text, List.of());
    }

    /**
     * A whole agent turn under a loop harness: its reply to the customer ({@code reply}: text, or a stop), with
     * the domain calls it made on the way and what the environment answered them. The kind is the reply's
     * ({@link Kind#TEXT} or {@link Kind#STOP}); a turn that ended without a reply is its last calls.
     */
    public static NextAction turn(String reply, List<ToolCall> calls, List<Result> results) {
        if (reply == null) return of(null, calls, results);
        NextAction r = of(reply, List.of(), List.of());
        return new NextAction(r.kind(), calls, reply, results);
    }

    /**
     * Whether this action's text says {@code info} as tau2's communicate check reads a message (upstream
     * {@code evaluate_communicate_info}): {@code info} lower-cased is a substring of the text lower-cased with its
     * commas removed. A call or a failure says nothing.
     */
    public boolean says(String info) {
        return (kind == Kind.TEXT || kind == Kind.STOP) && says(text, info);
    }

    /** {@link #says(String)} for a message's text (the one place the rule is written). */
    public static boolean says(String message, String info) {
        return message != null
                && message.toLowerCase(Locale.ROOT).replace(",", "").contains(info.toLowerCase(Locale.ROOT));
    }

    public static NextAction failed(String why) {
        return new NextAction(Kind.FAILED, List.of(), why, List.of());
    }

    /** The calls as {@code name(args)} with the arguments as sorted-key JSON, joined by {@code "; "}: equal strings, equal calls. */
    public String callsText() {
        return calls.stream()
                .map(c -> c.name() + "(" + PyJson.dumps(c.arguments(), PyJson.DumpOptions.SORTED.withEnsureAscii(false))
                        + ")")
                .collect(Collectors.joining("; "));
    }

    /** The tools called, in order. */
    public List<String> toolNames() {
        return calls.stream().map(ToolCall::name).toList();
    }

    public PyDict toValue() {
        List<Value> cs = new ArrayList<>();
        for (ToolCall c : calls) {
            cs.add(PyDict.of(
                    "id",
                    c.id() == null ? PyNone.NONE : Value.str(c.id()),
                    "name",
                    c.name(),
                    "arguments",
                    c.arguments(),
                    "raw_arguments",
                    c.rawArguments() == null ? PyNone.NONE : Value.str(c.rawArguments())));
        }
        List<Value> rs = new ArrayList<>();
        for (Result r : results)
            rs.add(PyDict.of(
                    "content",
                    r.content() == null ? PyNone.NONE : Value.str(r.content()),
                    "error",
                    PyBool.of(r.error())));
        return PyDict.builder()
                .put("kind", kind.name().toLowerCase(Locale.ROOT))
                .put("calls", PyList.of(cs))
                .put("text", text == null ? PyNone.NONE : Value.str(text))
                .put("results", PyList.of(rs))
                .build();
    }

    public static NextAction fromValue(Value v) {
        PyDict d = v.asDict();
        List<ToolCall> cs = new ArrayList<>();
        for (Value c : d.get("calls").asList()) {
            PyDict x = c.asDict();
            cs.add(new ToolCall(
                    str(x.get("id")),
                    x.get("name").asStr(),
                    x.get("arguments").asDict(),
                    str(x.get("raw_arguments")),
                    null));
        }
        List<Result> rs = new ArrayList<>();
        for (Value r : d.get("results").asList()) {
            Value content = r.asDict().get("content");
            rs.add(new Result(
                    content.isNone() ? null : content.asStr(),
                    ((PyBool) r.asDict().get("error")).value()));
        }
        Value text = d.get("text");
        return new NextAction(
                Kind.valueOf(d.get("kind").asStr().toUpperCase(Locale.ROOT)),
                cs,
                text.isNone() ? null : text.asStr(),
                rs);
    }

    private static String str(Value v) {
        return v == null || v.isNone() ? null : v.asStr();
    }
}
