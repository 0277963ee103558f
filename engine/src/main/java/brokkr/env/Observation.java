package brokkr.env;

import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import brokkr.provider.OpenAiChat;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.util.List;

/**
 * What {@link Env#reset} and {@link Env#step} answer, as a Gym environment's step does: the messages the agent sees
 * next ({@code messages}: at a reset the system prompt and the conversation up to the agent's first turn; after a
 * step the tool results and the counterpart's reply), the tools on offer (at a reset, and again whenever they
 * change; empty otherwise), the {@code reward} (0 until the episode ends, then the domain's grade), {@code done},
 * and {@code info} (at the end: the grade's checks, the termination reason, the attempt's status). An error
 * observation ({@link #error} not null) changed nothing: the session, if there is one, still waits for an action.
 */
public record Observation(
        String session,
        List<Message> messages,
        List<ToolSpec> tools,
        double reward,
        boolean done,
        PyDict info,
        Error error) {

    /** Why a request was refused, and so which HTTP status answers it. */
    public enum Kind {
        /** The action (or the request) is not what a step takes: 400. */
        MALFORMED("malformed", 400),
        /** No such task: 400. */
        UNKNOWN_TASK("unknown_task", 400),
        /** No such session (never made, closed, timed out, or ended and forgotten): 404. */
        UNKNOWN_SESSION("unknown_session", 404),
        /** The session's episode has ended: 409. */
        ENDED("ended", 409),
        /** Another step of the same session is under way: 409. */
        BUSY("busy", 409),
        /** As many sessions are open as the cap allows: 429. */
        FULL("too_many_sessions", 429);

        public final String wire;
        public final int httpStatus;

        Kind(String wire, int httpStatus) {
            this.wire = wire;
            this.httpStatus = httpStatus;
        }
    }

    /** A refusal: its kind and a sentence saying what to do. */
    public record Error(Kind kind, String message) {}

    public Observation {
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        info = info == null ? PyDict.empty() : info;
    }

    static Observation error(String session, Kind kind, String message) {
        return new Observation(session, List.of(), List.of(), 0.0, false, PyDict.empty(), new Error(kind, message));
    }

    public boolean isError() {
        return error != null;
    }

    /**
     * The JSON the HTTP endpoint answers: {@code session}, {@code observation: {messages, tools}} (messages and tools
     * in OpenAI Chat Completions' shape, what an agent on that wire reads), {@code reward}, {@code done},
     * {@code info}; an error observation is {@code {session, error: {kind, message}}}.
     */
    public PyDict toValue() {
        Value id = session == null ? PyNone.NONE : Value.str(session);
        if (error != null)
            return PyDict.of("session", id, "error", PyDict.of("kind", error.kind().wire, "message", error.message()));
        return PyDict.of(
                "session",
                id,
                "observation",
                PyDict.of(
                        "messages",
                        PyList.of(
                                messages.stream().map(OpenAiChat::encodeMessage).toList()),
                        "tools",
                        PyList.of(tools.stream().map(OpenAiChat::encodeTool).toList())),
                "reward",
                reward,
                "done",
                done,
                "info",
                info);
    }
}
