package brokkr.eval;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A protocol's portable result: the transcript (every message and tool call, as JSON data), any other
 * output the evaluator needs (e.g. tau2's communicated facts), why the interaction ended, and what the
 * protocol counted of its agent ({@link Counts}; null when it counted nothing).
 */
public record Interaction(Value transcript, PyDict output, String termination, Counts counts) {
    public Interaction {
        output = output == null ? PyDict.empty() : output;
        termination = termination == null ? "" : termination;
    }

    /** An interaction whose protocol counted nothing (costs then come from the recorded calls and the transcript). */
    public Interaction(Value transcript, PyDict output, String termination) {
        this(transcript, output, termination, null);
    }

    /**
     * What a protocol counted of its agent, each figure null when it did not count it: the agent's model steps
     * and the characters of the requests they sent (both or neither; {@link Counter} counts them the same way
     * for every protocol and every model, scripted ones too), and the domain's tool calls the agent made, however
     * it expressed them (JSON tools, or Java in a REPL snippet).
     */
    public record Counts(Long modelSteps, Long requestChars, Long toolCalls) {
        public Counts {
            if ((modelSteps == null) != (requestChars == null))
                throw new IllegalArgumentException("model steps and request characters go together");
        }

        /** Only the domain's tool calls (the requests are then read from the recorded model calls). */
        public static Counts toolCalls(long toolCalls) {
            return new Counts(null, null, toolCalls);
        }

        /** The counts as stored in evidence ({@code model_steps}, {@code request_chars}, {@code tool_calls}; null for uncounted). */
        public PyDict toValue() {
            return PyDict.builder()
                    .put("model_steps", nullable(modelSteps))
                    .put("request_chars", nullable(requestChars))
                    .put("tool_calls", nullable(toolCalls))
                    .build();
        }

        public static Counts fromValue(Value v) {
            PyDict d = v.asDict();
            return new Counts(num(d.get("model_steps")), num(d.get("request_chars")), num(d.get("tool_calls")));
        }

        private static Value nullable(Long n) {
            return n == null ? PyNone.NONE : PyInt.of(n);
        }

        private static Long num(Value v) {
            return v instanceof PyInt i ? i.longValue() : null;
        }
    }

    /**
     * Counts an agent's model steps and the characters of what it is sent, the one place request sizes are
     * measured: each step's request is its messages' texts (contents, tool-call names and arguments as the model
     * sent them or as JSON) and its tools' names, descriptions and parameter schemas, without any wire's framing,
     * so the figure is the same whichever provider (or scripted model) answers. Each message and tool list is
     * measured once (requests repeat the conversation so far). Thread-safe.
     */
    public static final class Counter {
        private final Map<Object, Long> measured = new IdentityHashMap<>();
        private long steps, chars;

        /** {@code model}, counting each of its steps. */
        public Candidate wrap(Candidate model) {
            return (history, tools) -> {
                count(history, tools);
                return model.next(history, tools);
            };
        }

        private synchronized void count(List<Message> history, List<ToolSpec> tools) {
            steps++;
            for (Message m : history) chars += measured.computeIfAbsent(m, x -> chars(m));
            chars += measured.computeIfAbsent(
                    tools, x -> tools.stream().mapToLong(Counter::chars).sum());
        }

        /**
         * Model steps taken where no request passed through {@link #wrap} (an agent running its own loop, e.g. the
         * Claude Code CLI, reports its responses); their request characters are not known to Brokkr.
         */
        public synchronized void steps(long n) {
            steps += n;
        }

        /** The steps and request characters so far, with the domain's tool calls the protocol counted (null: not counted). */
        public synchronized Counts counts(Long toolCalls) {
            return new Counts(steps, chars, toolCalls);
        }

        static long chars(Message m) {
            return switch (m) {
                case Message.System s -> length(s.content());
                case Message.User u -> length(u.content()) + chars(u.toolCalls());
                case Message.Assistant a -> length(a.content()) + chars(a.toolCalls());
                case Message.Tool t -> length(t.content());
            };
        }

        private static long chars(List<ToolCall> calls) {
            long n = 0;
            if (calls != null)
                for (ToolCall c : calls)
                    n += length(c.name())
                            + (c.rawArguments() != null
                                    ? c.rawArguments().length()
                                    : c.arguments() == null
                                            ? 0
                                            : PyJson.dumps(c.arguments()).length());
            return n;
        }

        static long chars(ToolSpec t) {
            return length(t.name())
                    + length(t.description())
                    + (t.parameters() == null ? 0 : PyJson.dumps(t.parameters()).length());
        }

        private static long length(String s) {
            return s == null ? 0 : s.length();
        }
    }
}
