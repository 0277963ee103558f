package brokkr.provider.claudecode;

import brokkr.conversation.Usage;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Claude Code CLI's {@code --output-format stream-json --verbose} output, one JSON object a line, as
 * 2.1.328 writes it (learnt by running it against a loopback Messages server, see
 * {@code FakeAnthropicServer}):
 *
 * <ul>
 *   <li>{@code {"type":"system","subtype":"init",...}}: session id, model, tools, MCP servers, version;</li>
 *   <li>{@code {"type":"assistant","message":{...}}}: one line per content block of a streamed API
 *       message (the same {@code message.id} repeats; {@link Reader} joins them). An API error arrives as
 *       a synthetic assistant message ({@code model "<synthetic>"}) whose top level carries
 *       {@code error} ({@code rate_limit}, {@code server_error}, {@code authentication_failed},
 *       {@code billing_error}, ...), {@code is_api_error_message}, {@code api_error_status} and
 *       {@code api_error} ({@code usage_limit_reached} when a subscription's window refused the call);</li>
 *   <li>{@code {"type":"user","message":{"content":[{"type":"tool_result",...}]}}}: tool results;</li>
 *   <li>{@code {"type":"rate_limit_event","rate_limit_info":{status, resetsAt, rateLimitType,
 *       utilization, unifiedWindows}}}: read from the API's {@code anthropic-ratelimit-unified-*}
 *       response headers (subscription credentials only);</li>
 *   <li>{@code {"type":"result",...}}: {@code is_error}, {@code api_error_status}, {@code api_error},
 *       {@code terminal_reason} ({@code completed}, {@code api_error}, {@code max_turns}, ...),
 *       {@code result} text, {@code total_cost_usd}, {@code usage}, {@code modelUsage} (per model,
 *       cumulative over a streaming session). Its {@code subtype} is {@code success} even for a failed
 *       API call, so nothing here reads it to decide success.</li>
 * </ul>
 */
public final class StreamJson {
    private StreamJson() {}

    /** One line of the output. */
    public sealed interface Event {
        PyDict raw();
    }

    public record Init(String sessionId, String model, List<String> tools, String version, PyDict raw)
            implements Event {}

    /** One assistant line: its message id and blocks, and the API error fields when the CLI synthesised it from one. */
    public record Assistant(
            String messageId,
            List<Block> content,
            String error,
            Integer apiErrorStatus,
            String apiError,
            String apiErrorType,
            String parentToolUseId,
            PyDict raw)
            implements Event {
        public boolean isApiError() {
            return error != null || apiErrorStatus != null || bool(raw.get("is_api_error_message"));
        }
    }

    public record User(List<ToolResult> results, PyDict raw) implements Event {}

    public record RateLimit(RateLimitInfo info, PyDict raw) implements Event {}

    public record Result(
            boolean isError,
            String subtype,
            Integer apiErrorStatus,
            String apiError,
            String apiErrorType,
            String terminalReason,
            String result,
            Double totalCostUsd,
            int numTurns,
            PyDict modelUsage,
            PyDict raw)
            implements Event {}

    /** Any other line ({@code stream_event}, hooks, ...), kept as is. */
    public record Other(String type, PyDict raw) implements Event {}

    /** A content block of an assistant message. */
    public sealed interface Block {}

    public record Text(String text) implements Block {}

    /** A {@code tool_use} block; {@code input} as the CLI gave it (normally an object). */
    public record ToolUse(String id, String name, Value input) implements Block {}

    public record OtherBlock(String type, PyDict raw) implements Block {}

    public record ToolResult(String toolUseId, String content, boolean isError) {}

    /** One usage window ({@code five_hour}, {@code seven_day}, ...): utilization 0..1 and its reset (epoch seconds). */
    public record Window(String status, Double utilization, Long resetsAt) {}

    /**
     * A {@code rate_limit_event}'s {@code rate_limit_info}: {@code status} ({@code allowed},
     * {@code allowed_warning}, {@code rejected}), the window that decided it ({@code rateLimitType}), its
     * {@code utilization} and {@code resetsAt} (epoch seconds), and every window reported.
     */
    public record RateLimitInfo(
            String status, Long resetsAt, String rateLimitType, Double utilization, Map<String, Window> windows) {
        public boolean rejected() {
            return "rejected".equals(status);
        }

        static RateLimitInfo of(PyDict d) {
            if (d == null) return null;
            Map<String, Window> windows = new LinkedHashMap<>();
            if (d.get("unifiedWindows") instanceof PyDict w)
                for (var e : w.entries())
                    if (e.getValue() instanceof PyDict x)
                        windows.put(
                                e.getKey(),
                                new Window(
                                        str(x.get("status")),
                                        number(x.get("utilization")),
                                        integer(x.get("resetsAt"))));
            return new RateLimitInfo(
                    str(d.get("status")),
                    integer(d.get("resetsAt")),
                    str(d.get("rateLimitType")),
                    number(d.get("utilization")),
                    Map.copyOf(windows));
        }
    }

    /**
     * One user message for a session started with {@code --input-format stream-json}:
     * {@code {"type":"user","message":{"role":"user","content":TEXT}}}. Each such line is one turn; the CLI
     * answers it with assistant/user lines and one {@code result} line (read each turn with a fresh
     * {@link Reader}; {@code modelUsage} in a session's results is cumulative, see {@link CliUsage#minus}).
     */
    public static String userLine(String text) {
        return brokkr.python.PyJson.dumps(
                PyDict.of("type", "user", "message", PyDict.of("role", "user", "content", text)));
    }

    /**
     * An assistant message of the conversation that the session did not write itself (tau2's opening greeting, which
     * upstream's orchestrator puts first in its agent's history): the pinned CLI takes such a line on its stream-json
     * input into the conversation as it is, answering nothing until the next user line (its next request to the
     * Messages API carries it as an assistant message before that user message).
     */
    public static String assistantLine(String text) {
        return brokkr.python.PyJson.dumps(PyDict.of(
                "type",
                "assistant",
                "message",
                PyDict.of(
                        "role",
                        "assistant",
                        "content",
                        brokkr.value.PyList.of(List.of(PyDict.of("type", "text", "text", text))))));
    }

    /** Parses one output line; null for a blank one. A line that is not a JSON object is an {@link Other} of type {@code "invalid"}. */
    public static Event parse(String line) {
        if (line == null || line.isBlank()) return null;
        PyDict d;
        try {
            if (!(Json.parse(line) instanceof PyDict x)) return new Other("invalid", PyDict.of("line", line));
            d = x;
        } catch (RuntimeException e) {
            return new Other("invalid", PyDict.of("line", line));
        }
        String type = str(d.get("type"));
        return switch (type == null ? "" : type) {
            case "system" ->
                "init".equals(str(d.get("subtype")))
                        ? new Init(
                                str(d.get("session_id")),
                                str(d.get("model")),
                                strings(d.get("tools")),
                                str(d.get("claude_code_version")),
                                d)
                        : new Other("system", d);
            case "assistant" -> {
                PyDict m = d.get("message") instanceof PyDict x ? x : PyDict.empty();
                yield new Assistant(
                        str(m.get("id")),
                        blocks(m.get("content")),
                        str(d.get("error")),
                        intOrNull(d.get("api_error_status")),
                        str(d.get("api_error")),
                        str(d.get("api_error_type")),
                        str(d.get("parent_tool_use_id")),
                        d);
            }
            case "user" -> {
                List<ToolResult> results = new ArrayList<>();
                if (d.get("message") instanceof PyDict m && m.get("content") instanceof PyList l)
                    for (Value v : l)
                        if (v instanceof PyDict b && "tool_result".equals(str(b.get("type"))))
                            results.add(new ToolResult(
                                    str(b.get("tool_use_id")), text(b.get("content")), bool(b.get("is_error"))));
                yield new User(List.copyOf(results), d);
            }
            case "rate_limit_event" ->
                new RateLimit(RateLimitInfo.of(d.get("rate_limit_info") instanceof PyDict x ? x : PyDict.empty()), d);
            case "result" ->
                new Result(
                        bool(d.get("is_error")),
                        str(d.get("subtype")),
                        intOrNull(d.get("api_error_status")),
                        str(d.get("api_error")),
                        str(d.get("api_error_type")),
                        str(d.get("terminal_reason")),
                        str(d.get("result")),
                        number(d.get("total_cost_usd")),
                        (int) (integer(d.get("num_turns")) == null ? 0 : integer(d.get("num_turns"))),
                        d.get("modelUsage") instanceof PyDict u ? u : PyDict.empty(),
                        d);
            default -> new Other(type, d);
        };
    }

    /** Why a CLI call failed, read from the error fields (never from {@code subtype}). */
    public enum ErrorKind {
        /** The subscription's usage window refused the call ({@code api_error: usage_limit_reached}, or a rejected window). */
        USAGE_LIMIT(false),
        /** A 429 that is not a usage window: retried. */
        RATE_LIMIT(true),
        /** 529 / {@code overloaded_error}: retried. */
        OVERLOADED(true),
        /** Other 5xx, connection failures: retried. */
        SERVER(true),
        /** 401/403, {@code authentication_failed}: retrying cannot help. */
        AUTHENTICATION(false),
        /** {@code billing_error}: retrying cannot help. */
        BILLING(false),
        /** 400/404/413 and the like: the request itself. */
        INVALID_REQUEST(false),
        /** {@code terminal_reason: max_turns} with no API error (a tool call Claude Code could not run). */
        MAX_TURNS(false),
        /** The process ended without a {@code result} line (crashed, killed, timed out). */
        NO_RESULT(true),
        /** Anything else {@code is_error} says. */
        OTHER(false);

        private final boolean retryable;

        ErrorKind(boolean retryable) {
            this.retryable = retryable;
        }

        /** Whether another attempt may succeed at once (a usage-window refusal waits for its reset instead). */
        public boolean retryable() {
            return retryable;
        }
    }

    /** An error of one CLI call: its kind, a one-line message, the API status (0 when none) and, for a usage window, its reset. */
    public record CliError(ErrorKind kind, String message, int status, Long resetsAt) {}

    /** Tokens and the CLI's cost estimate (US dollars) of a call, from {@code modelUsage} summed over models. */
    public record CliUsage(
            long inputTokens, long outputTokens, long cacheReadTokens, long cacheCreationTokens, double costUsd) {
        public static final CliUsage ZERO = new CliUsage(0, 0, 0, 0, 0);

        /** As Brokkr's {@link Usage}: input counts cache reads and writes (kept apart too), as for the Anthropic wire. */
        public Usage usage() {
            return new Usage(
                    inputTokens + cacheReadTokens + cacheCreationTokens,
                    outputTokens,
                    cacheReadTokens,
                    cacheCreationTokens);
        }

        /** What happened between {@code earlier} (a cumulative reading of the same session) and this one. */
        public CliUsage minus(CliUsage earlier) {
            return new CliUsage(
                    inputTokens - earlier.inputTokens,
                    outputTokens - earlier.outputTokens,
                    cacheReadTokens - earlier.cacheReadTokens,
                    cacheCreationTokens - earlier.cacheCreationTokens,
                    costUsd - earlier.costUsd);
        }

        static CliUsage of(PyDict modelUsage, Double totalCost) {
            long in = 0, out = 0, read = 0, create = 0;
            double cost = 0;
            for (var e : modelUsage.entries()) {
                if (!(e.getValue() instanceof PyDict u)) continue;
                in += orZero(integer(u.get("inputTokens")));
                out += orZero(integer(u.get("outputTokens")));
                read += orZero(integer(u.get("cacheReadInputTokens")));
                create += orZero(integer(u.get("cacheCreationInputTokens")));
                Double c = number(u.get("costUSD"));
                cost += c == null ? 0 : c;
            }
            return new CliUsage(in, out, read, create, totalCost != null ? totalCost : cost);
        }
    }

    /**
     * Collects the events of one CLI process (one {@code -p} call, or a streaming session turn by turn):
     * assistant lines joined by message id, tool results, the latest rate-limit reading per window, the
     * latest result. Not thread-safe: one reader per process.
     */
    public static final class Reader {
        private final List<Event> events = new ArrayList<>();
        private final LinkedHashMap<String, List<Block>> messages = new LinkedHashMap<>();
        private final List<Assistant> apiErrors = new ArrayList<>();
        private final List<ToolResult> toolResults = new ArrayList<>();
        private final Map<String, RateLimitInfo> rateLimits = new LinkedHashMap<>();
        private RateLimitInfo lastRateLimit;
        private Init init;
        private Result result;
        private int anonymous;

        /** Parses and adds one line; returns its event (null for a blank line). */
        public Event accept(String line) {
            Event e = parse(line);
            if (e != null) add(e);
            return e;
        }

        public void add(Event e) {
            events.add(e);
            switch (e) {
                case Init i -> init = i;
                case Assistant a -> {
                    if (a.isApiError()) apiErrors.add(a);
                    else if (a.parentToolUseId() == null)
                        messages.computeIfAbsent(
                                        a.messageId() == null ? "anonymous-" + anonymous++ : a.messageId(),
                                        k -> new ArrayList<>())
                                .addAll(a.content());
                }
                case User u -> toolResults.addAll(u.results());
                case RateLimit r -> {
                    if (r.info() != null) {
                        lastRateLimit = r.info();
                        if (r.info().rateLimitType() != null)
                            rateLimits.put(r.info().rateLimitType(), r.info());
                    }
                }
                case Result r -> result = r;
                case Other o -> {}
            }
        }

        public List<Event> events() {
            return List.copyOf(events);
        }

        public Optional<Init> init() {
            return Optional.ofNullable(init);
        }

        /** The latest result line (in a streaming session, one per turn: the latest is cumulative). */
        public Optional<Result> result() {
            return Optional.ofNullable(result);
        }

        /** The model's messages (API errors excluded), each the blocks of one message id, in arrival order. */
        public List<List<Block>> messages() {
            return messages.values().stream().map(List::copyOf).toList();
        }

        /** Every block of every model message, in order. */
        public List<Block> blocks() {
            return messages.values().stream().flatMap(List::stream).toList();
        }

        /** The text of every text block of the model's messages, joined without separator; null when there is none. */
        public String text() {
            StringBuilder sb = null;
            for (Block b : blocks())
                if (b instanceof Text t) (sb == null ? sb = new StringBuilder() : sb).append(t.text());
            return sb == null ? null : sb.toString();
        }

        public List<ToolUse> toolUses() {
            return blocks().stream()
                    .filter(b -> b instanceof ToolUse)
                    .map(b -> (ToolUse) b)
                    .toList();
        }

        public List<ToolResult> toolResults() {
            return List.copyOf(toolResults);
        }

        /** The latest reading of each usage window that a {@code rate_limit_event} reported, by type. */
        public Map<String, RateLimitInfo> rateLimits() {
            return Map.copyOf(rateLimits);
        }

        public Optional<RateLimitInfo> lastRateLimit() {
            return Optional.ofNullable(lastRateLimit);
        }

        /** Tokens and cost from the latest result's {@code modelUsage} (cumulative: the latest is the total). */
        public CliUsage usage() {
            return result == null ? CliUsage.ZERO : CliUsage.of(result.modelUsage(), result.totalCostUsd());
        }

        /**
         * The call's error, or empty when it succeeded. Read from {@code is_error}, {@code api_error_status},
         * {@code api_error}, the assistant line's {@code error} and {@code terminal_reason}; {@code subtype}
         * is never consulted (a refused call says {@code success}). No result line at all is
         * {@link ErrorKind#NO_RESULT}.
         */
        public Optional<CliError> error() {
            if (result == null) return Optional.of(new CliError(ErrorKind.NO_RESULT, "no result line", 0, null));
            Assistant api = apiErrors.isEmpty() ? null : apiErrors.getLast();
            Integer status = result.apiErrorStatus() != null
                    ? result.apiErrorStatus()
                    : api == null ? null : api.apiErrorStatus();
            String apiError = result.apiError() != null ? result.apiError() : api == null ? null : api.apiError();
            String error = api == null ? null : api.error();
            boolean failed = result.isError() || status != null || api != null;
            if (!failed) return Optional.empty();
            String message = oneLine(result.result() != null ? result.result() : api == null ? "" : textOf(api));
            int st = status == null ? 0 : status;
            RateLimitInfo refused = refusedWindow(api);
            if ("usage_limit_reached".equals(apiError) || refused != null) {
                Long reset = refused != null ? refused.resetsAt() : null;
                return Optional.of(new CliError(ErrorKind.USAGE_LIMIT, message, st, reset));
            }
            ErrorKind kind;
            if ("authentication_failed".equals(error) || st == 401 || st == 403) kind = ErrorKind.AUTHENTICATION;
            else if ("billing_error".equals(error) || st == 402) kind = ErrorKind.BILLING;
            else if ("rate_limit".equals(error) || st == 429) kind = ErrorKind.RATE_LIMIT;
            else if ("overloaded".equals(error)
                    || st == 529
                    || "overloaded_error".equals(result.apiErrorType())
                    || (api != null && "overloaded_error".equals(api.apiErrorType()))) kind = ErrorKind.OVERLOADED;
            else if ("server_error".equals(error) || st >= 500) kind = ErrorKind.SERVER;
            else if ("invalid_request".equals(error) || (st >= 400 && st < 500)) kind = ErrorKind.INVALID_REQUEST;
            else if ("max_turns".equals(result.terminalReason())) kind = ErrorKind.MAX_TURNS;
            else kind = ErrorKind.OTHER;
            if (message.isEmpty())
                message = kind.name().toLowerCase(java.util.Locale.ROOT) + " (terminal_reason "
                        + result.terminalReason() + ")";
            return Optional.of(new CliError(kind, message, st, null));
        }

        /** The rejected window behind a refusal: the error's own {@code rate_limit_info}, else a rejected event. */
        private RateLimitInfo refusedWindow(Assistant api) {
            if (api != null
                    && api.raw().get("api_error_params") instanceof PyDict p
                    && p.get("rate_limit_info") instanceof PyDict info) {
                RateLimitInfo r = RateLimitInfo.of(info);
                if (r.rejected()) return r;
            }
            if (api != null && lastRateLimit != null && lastRateLimit.rejected()) return lastRateLimit;
            return null;
        }
    }

    private static String textOf(Assistant a) {
        StringBuilder sb = new StringBuilder();
        for (Block b : a.content()) if (b instanceof Text t) sb.append(t.text());
        return sb.toString();
    }

    private static String oneLine(String s) {
        String t = s == null ? "" : s.replaceAll("\\s+", " ").strip();
        return t.length() <= 500 ? t : t.substring(0, 500) + "...";
    }

    private static List<Block> blocks(Value content) {
        List<Block> out = new ArrayList<>();
        if (content instanceof PyStr s) out.add(new Text(s.value()));
        else if (content instanceof PyList l)
            for (Value v : l) {
                if (!(v instanceof PyDict b)) continue;
                String type = str(b.get("type"));
                if ("text".equals(type)) out.add(new Text(str(b.get("text")) == null ? "" : str(b.get("text"))));
                else if ("tool_use".equals(type))
                    out.add(new ToolUse(str(b.get("id")), str(b.get("name")), b.get("input")));
                else out.add(new OtherBlock(type, b));
            }
        return List.copyOf(out);
    }

    private static String text(Value v) {
        if (v instanceof PyStr s) return s.value();
        if (v instanceof PyList l) {
            StringBuilder sb = new StringBuilder();
            for (Value x : l) if (x instanceof PyDict d && str(d.get("text")) != null) sb.append(str(d.get("text")));
            return sb.toString();
        }
        return null;
    }

    static String str(Value v) {
        return v instanceof PyStr s ? s.value() : null;
    }

    static boolean bool(Value v) {
        return v instanceof PyBool b && b.value();
    }

    static Long integer(Value v) {
        if (v instanceof PyInt i && i.fitsLong()) return i.longValue();
        if (v instanceof PyFloat f && !Double.isNaN(f.value())) return (long) f.value();
        if (v instanceof PyStr s) {
            try {
                return (long) Double.parseDouble(s.value());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private static Integer intOrNull(Value v) {
        Long l = integer(v);
        return l == null ? null : (int) (long) l;
    }

    static Double number(Value v) {
        if (v instanceof PyInt i) return i.value().doubleValue();
        if (v instanceof PyFloat f) return f.value();
        return null;
    }

    private static long orZero(Long l) {
        return l == null ? 0 : l;
    }

    private static List<String> strings(Value v) {
        List<String> out = new ArrayList<>();
        if (v instanceof PyList l) for (Value x : l) if (str(x) != null) out.add(str(x));
        return List.copyOf(out);
    }
}
