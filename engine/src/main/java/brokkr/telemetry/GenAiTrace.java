package brokkr.telemetry;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * OpenTelemetry spans after the GenAI semantic conventions: {@code invoke_agent} per unit of a run (an
 * episode, a task), {@code chat} per model call of any role, {@code execute_tool} per tool call. Off
 * ({@link #OFF}) unless a run asks for it: then every method is one null check and returns what it
 * was given, so a run without traces does what it did before (the bench module's {@code OtelBench}
 * measures it: ./brokkr bench otel).
 *
 * <p>The runner hands a unit's trace to its thread through the OpenTelemetry {@link Context} (with the
 * unit's {@code invoke_agent} span as the parent), so that the agent loop and a benchmark's own
 * orchestrator find it ({@link #current}) without every harness passing it on.
 *
 * <p>Prompts, completions, tool arguments and results are recorded only with {@code captureContent}
 * ({@code gen_ai.input.messages}, {@code gen_ai.output.messages}, {@code gen_ai.tool.call.arguments},
 * {@code gen_ai.tool.call.result}); a span never holds a request's headers, so never an API key.
 */
public final class GenAiTrace {
    /** No spans at all. */
    public static final GenAiTrace OFF = new GenAiTrace(null, false);

    /** The instrumentation scope's name. */
    public static final String SCOPE = "brokkr";

    public static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    public static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    public static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    public static final AttributeKey<String> AGENT_NAME = AttributeKey.stringKey("gen_ai.agent.name");
    public static final AttributeKey<String> AGENT_ID = AttributeKey.stringKey("gen_ai.agent.id");
    public static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    public static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    public static final AttributeKey<List<String>> FINISH_REASONS =
            AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    public static final AttributeKey<String> INPUT_MESSAGES = AttributeKey.stringKey("gen_ai.input.messages");
    public static final AttributeKey<String> OUTPUT_MESSAGES = AttributeKey.stringKey("gen_ai.output.messages");
    public static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    public static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
    public static final AttributeKey<String> TOOL_TYPE = AttributeKey.stringKey("gen_ai.tool.type");
    public static final AttributeKey<String> TOOL_ARGUMENTS = AttributeKey.stringKey("gen_ai.tool.call.arguments");
    public static final AttributeKey<String> TOOL_RESULT = AttributeKey.stringKey("gen_ai.tool.call.result");
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    /** Brokkr's own: the characters of a tool call's arguments (its JSON text). */
    public static final AttributeKey<Long> TOOL_ARGUMENTS_SIZE = AttributeKey.longKey("brokkr.tool.arguments_size");
    /** Brokkr's own: which role of the cell a model plays ({@code agent}, {@code user}, {@code judge}). */
    public static final AttributeKey<String> ROLE = AttributeKey.stringKey("brokkr.role");
    /** Brokkr's own: the model-call attempts of one {@code chat} (retries included; 0 for a scripted model). */
    public static final AttributeKey<Long> ATTEMPTS = AttributeKey.longKey("brokkr.model_call.attempts");

    public static final AttributeKey<Boolean> CACHE_HIT = AttributeKey.booleanKey("brokkr.model_call.cache_hit");

    private static final ContextKey<GenAiTrace> KEY = ContextKey.named("brokkr.genai-trace");

    private final Tracer tracer;
    private final boolean captureContent;

    private GenAiTrace(Tracer tracer, boolean captureContent) {
        this.tracer = tracer;
        this.captureContent = captureContent;
    }

    /** Spans made by {@code otel}'s tracer; prompts, completions and tool payloads only with {@code captureContent}. */
    public static GenAiTrace of(OpenTelemetry otel, boolean captureContent) {
        return new GenAiTrace(otel.getTracer(SCOPE), captureContent);
    }

    public boolean on() {
        return tracer != null;
    }

    public boolean capturesContent() {
        return captureContent;
    }

    /** The trace of the unit this thread runs ({@link #agent}), {@link #OFF} outside one. */
    public static GenAiTrace current() {
        GenAiTrace t = Context.current().get(KEY);
        return t == null ? OFF : t;
    }

    /**
     * Runs {@code body} under an {@code invoke_agent} span named after {@code agentName} (the candidate's label),
     * with {@code attributes} (the cell's content ids, task and trial), made current with this trace for what
     * {@code body} does on this thread; {@code outcome} adds what the result says (its status, reward).
     */
    public <R> R agent(
            String agentName,
            Attributes attributes,
            Callable<R> body,
            java.util.function.Function<? super R, Attributes> outcome)
            throws Exception {
        if (tracer == null) return body.call();
        Span span = tracer.spanBuilder("invoke_agent" + (agentName == null ? "" : " " + agentName))
                .setSpanKind(SpanKind.INTERNAL)
                .setAllAttributes(attributes)
                .setAttribute(OPERATION, "invoke_agent")
                .startSpan();
        if (agentName != null) span.setAttribute(AGENT_NAME, agentName);
        try (Scope ignored =
                span.storeInContext(Context.current()).with(KEY, this).makeCurrent()) {
            R r = body.call();
            if (r != null) {
                Attributes more = outcome.apply(r);
                span.setAllAttributes(more);
                if (more.get(ERROR_TYPE) != null) span.setStatus(StatusCode.ERROR);
            }
            return r;
        } catch (Exception | Error e) {
            span.setAttribute(ERROR_TYPE, e.getClass().getName());
            span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
            throw e;
        } finally {
            span.end();
        }
    }

    /**
     * {@code model} with a {@code chat} span around each {@link Candidate#next}: the provider and model
     * asked for ({@code provider}, {@code model}: null when unknown), the tokens, the finish reasons, and
     * {@code error.type} when the call failed for good.
     */
    public Candidate chat(String role, String provider, String model, Candidate c) {
        if (tracer == null) return c;
        GenAiTrace self = this;
        return new Candidate() {
            @Override
            public Turn next(List<Message> history, List<ToolSpec> tools) throws InfrastructureFailure {
                Span span = tracer.spanBuilder(model == null ? "chat" : "chat " + model)
                        .setSpanKind(SpanKind.CLIENT)
                        .setAttribute(OPERATION, "chat")
                        .setAttribute(ROLE, role)
                        .startSpan();
                if (provider != null) span.setAttribute(PROVIDER, provider);
                if (model != null) span.setAttribute(REQUEST_MODEL, model);
                if (self.captureContent) span.setAttribute(INPUT_MESSAGES, messagesJson(history));
                try (Scope ignored = span.makeCurrent()) {
                    Turn turn = c.next(history, tools);
                    Message.Assistant reply = turn.message();
                    Usage u = reply.usage() == null ? Usage.ZERO : reply.usage();
                    span.setAttribute(INPUT_TOKENS, u.inputTokens());
                    span.setAttribute(OUTPUT_TOKENS, u.outputTokens());
                    span.setAttribute(FINISH_REASONS, finishReasons(turn));
                    span.setAttribute(ATTEMPTS, (long) turn.calls().size());
                    if (!turn.calls().isEmpty())
                        span.setAttribute(CACHE_HIT, turn.calls().getLast().cacheHit());
                    if (self.captureContent) span.setAttribute(OUTPUT_MESSAGES, messagesJson(List.of(reply)));
                    return turn;
                } catch (InfrastructureFailure e) {
                    span.setAttribute(ATTEMPTS, (long) e.attempts().size());
                    span.setAttribute(ERROR_TYPE, e.getClass().getName());
                    span.setStatus(StatusCode.ERROR, e.getMessage());
                    throw e;
                } catch (RuntimeException | Error e) {
                    span.setAttribute(ERROR_TYPE, e.getClass().getName());
                    span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
                    throw e;
                } finally {
                    span.end();
                }
            }

            @Override
            public String baseUrl() {
                return c.baseUrl();
            }

            @Override
            public Candidate unwrapped() {
                return c.unwrapped();
            }

            @Override
            public void noteCalls(List<ModelCall> calls, Usage usage) {
                c.noteCalls(calls, usage);
            }

            @Override
            public Candidate.Permit acquire() {
                return c.acquire();
            }
        };
    }

    /**
     * Starts one {@code execute_tool} span per call of a turn. An executor takes a turn's calls as one batch (it
     * may run them one after another or at once), so each span starts when the batch does and ends when its
     * call's answer is known; {@link ToolSpans#end} ends them.
     */
    public ToolSpans tools(List<ToolCall> calls) {
        return tools(calls, null);
    }

    /** {@link #tools(List)} of calls made by {@code role} ({@code brokkr.role}: a simulated user's own tools). */
    public ToolSpans tools(List<ToolCall> calls, String role) {
        if (tracer == null || calls.isEmpty()) return ToolSpans.NONE;
        Span[] spans = new Span[calls.size()];
        for (int i = 0; i < spans.length; i++) {
            ToolCall c = calls.get(i);
            Span s = tracer.spanBuilder("execute_tool " + c.name())
                    .setSpanKind(SpanKind.INTERNAL)
                    .setAttribute(OPERATION, "execute_tool")
                    .setAttribute(TOOL_NAME, c.name())
                    .setAttribute(TOOL_TYPE, "function")
                    .startSpan();
            if (c.id() != null) s.setAttribute(TOOL_CALL_ID, c.id());
            if (role != null) s.setAttribute(ROLE, role);
            String args = arguments(c);
            s.setAttribute(TOOL_ARGUMENTS_SIZE, (long) args.length());
            if (captureContent) s.setAttribute(TOOL_ARGUMENTS, args);
            spans[i] = s;
        }
        return new ToolSpans(spans, captureContent);
    }

    /** The spans of one turn's tool calls, by call position. */
    public static final class ToolSpans {
        public static final ToolSpans NONE = new ToolSpans(new Span[0], false);

        /** A call whose arguments were not a JSON object: it never reached a tool. */
        public static final String MALFORMED_ARGUMENTS = "malformed_arguments";
        /** The tool answered with an error (the model's mistake or the tool's refusal). */
        public static final String TOOL_ERROR = "tool_error";
        /** The executor gave no answer for the call. */
        public static final String NO_RESULT = "no_result";

        private final Span[] spans;
        private final boolean captureContent;

        private ToolSpans(Span[] spans, boolean captureContent) {
            this.spans = spans;
            this.captureContent = captureContent;
        }

        /**
         * Ends call {@code i}'s span with its answer: {@code errorType} (one of this class's constants, or an
         * exception's class name) when it failed, null when it did not.
         */
        public void end(int i, String result, String errorType) {
            if (spans.length == 0) return;
            Span s = spans[i];
            if (captureContent && result != null) s.setAttribute(TOOL_RESULT, result);
            if (errorType != null) {
                s.setAttribute(ERROR_TYPE, errorType);
                s.setStatus(StatusCode.ERROR);
            }
            s.end();
        }

        /** Ends every call's span as failed with {@code errorType} (the whole turn failed: what it threw). */
        public void failAll(String errorType) {
            for (int i = 0; i < spans.length; i++) end(i, null, errorType);
        }
    }

    /** The call's arguments as the model sent them (their JSON text), or as parsed when no text was kept. */
    private static String arguments(ToolCall c) {
        if (c.rawArguments() != null) return c.rawArguments();
        return c.arguments() == null ? "" : PyJson.dumps(c.arguments());
    }

    /**
     * The finish reasons of the provider's last response where it says them (OpenAI's {@code finish_reason}
     * of each choice, Anthropic's {@code stop_reason}); else what the message shows: {@code tool_calls} when
     * it calls tools, {@code stop} when it answers (a scripted model, a streamed or cached response).
     */
    static List<String> finishReasons(Turn turn) {
        if (!turn.calls().isEmpty()) {
            String body = turn.calls().getLast().responseBody();
            if (body != null && body.startsWith("{")) {
                try {
                    if (brokkr.value.Json.parse(body) instanceof PyDict root) {
                        List<String> out = new ArrayList<>();
                        if (root.get("choices") instanceof PyList choices)
                            for (Value ch : choices)
                                if (ch instanceof PyDict d && d.get("finish_reason") instanceof PyStr s)
                                    out.add(s.value());
                        if (root.get("stop_reason") instanceof PyStr s) out.add(s.value());
                        if (!out.isEmpty()) return out;
                    }
                } catch (RuntimeException notJson) {
                    // a body that is not one JSON object (a stream's events): the message says it instead
                }
            }
        }
        return List.of(turn.message().hasToolCalls() ? "tool_calls" : "stop");
    }

    /**
     * Messages in the GenAI conventions' shape ({@code role} and {@code parts}: {@code text},
     * {@code tool_call}, {@code tool_call_response}), as JSON text.
     */
    static String messagesJson(List<Message> messages) {
        List<Value> out = new ArrayList<>(messages.size());
        for (Message m : messages) {
            List<Value> parts = new ArrayList<>();
            String role;
            switch (m) {
                case Message.System s -> {
                    role = "system";
                    text(parts, s.content());
                }
                case Message.User u -> {
                    role = "user";
                    text(parts, u.content());
                    toolCalls(parts, u.toolCalls());
                }
                case Message.Assistant a -> {
                    role = "assistant";
                    text(parts, a.content());
                    toolCalls(parts, a.toolCalls());
                }
                case Message.Tool t -> {
                    role = "tool";
                    parts.add(PyDict.of("type", "tool_call_response", "id", t.toolCallId(), "response", t.content()));
                }
            }
            out.add(PyDict.of("role", role, "parts", PyList.of(parts)));
        }
        return PyJson.dumps(PyList.of(out));
    }

    private static void toolCalls(List<Value> parts, List<ToolCall> calls) {
        if (calls == null) return;
        for (ToolCall c : calls)
            parts.add(PyDict.of("type", "tool_call", "id", c.id(), "name", c.name(), "arguments", arguments(c)));
    }

    private static void text(List<Value> parts, String content) {
        if (content != null && !content.isEmpty()) parts.add(PyDict.of("type", "text", "content", content));
    }
}
