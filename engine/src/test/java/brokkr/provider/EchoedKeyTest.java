package brokkr.provider;

import static brokkr.provider.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A server (or a model) that echoes the key back, in any encoding: the key is scrubbed from every
 * recorded, decoded, thrown and logged text, whether it comes literally, JSON-escaped (also inside
 * JSON nested in a string, as tool-call arguments are) or URL-encoded.
 */
class EchoedKeyTest {
    /** Keys with the characters that have more than one encoding: '/', '+', '=', '"', a space. */
    static final List<String> SENDABLE =
            List.of("sk-proj/Ab9+cD/eF==", "sk-\"quoted\"-key-7f3a9c", "sk-mix/+=\" ab%cd 42");

    /**
     * Non-ASCII keys: no HTTP header can carry them as they are (the JDK sends Latin-1 as '?' and
     * refuses the rest), so they are refused before sending; they are redacted all the same.
     */
    static final List<String> UNSENDABLE =
            List.of("sk-ünïcödé-ß-key-1e5b", "sk-ключ-🔑-secret-99", "sk-mix/+=\"é 🔑 ab");

    /** The key as text, JSON-escaped every usual way, JSON nested in JSON, and URL-encoded. */
    static Set<String> forms(String key) {
        Set<String> f = new LinkedHashSet<>();
        f.add(key);
        String ascii = body(PyJson.dumps(new PyStr(key))); // CPython json.dumps: \" \\u00e9
        f.add(ascii);
        f.add(ascii.replace("/", "\\/")); // PHP, Ruby's to_json: \/
        f.add(upperHexEscapes(ascii)); // \u00E9
        f.add(body(PyJson.dumps(new PyStr(key), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false)))); // raw UTF-8, \"
        f.add(key.codePoints()
                .mapToObj(EchoedKeyTest::uEscape)
                .collect(Collectors.joining())); // every character \\uXXXX
        f.add(body(PyJson.dumps(new PyStr(ascii)))); // JSON in a JSON string: \\\" \\u00e9
        String url = URLEncoder.encode(key, StandardCharsets.UTF_8);
        f.add(url);
        f.add(lowerHex(url));
        f.add(url.replace("+", "%20"));
        return f;
    }

    private static String body(String jsonString) {
        return jsonString.substring(1, jsonString.length() - 1);
    }

    private static String uEscape(int cp) {
        StringBuilder sb = new StringBuilder();
        for (char c : Character.toChars(cp)) sb.append(String.format("\\u%04X", (int) c));
        return sb.toString();
    }

    private static String upperHexEscapes(String json) {
        return Pattern.compile("\\\\u([0-9a-f]{4})")
                .matcher(json)
                .replaceAll(m -> "\\\\u" + m.group(1).toUpperCase(Locale.ROOT));
    }

    /** The key's characters in turn literal, \\uXXXX-escaped and URL-encoded. */
    static String mixed(String key) {
        StringBuilder sb = new StringBuilder();
        int[] cps = key.codePoints().toArray();
        for (int i = 0; i < cps.length; i++) {
            String ch = new String(Character.toChars(cps[i]));
            sb.append(
                    switch (i % 3) {
                        case 0 -> ch;
                        case 1 -> uEscape(cps[i]);
                        default -> URLEncoder.encode(ch, StandardCharsets.UTF_8);
                    });
        }
        return sb.toString();
    }

    private static String lowerHex(String url) {
        StringBuilder sb = new StringBuilder(url);
        for (int i = sb.indexOf("%"); i >= 0; i = sb.indexOf("%", i + 1)) {
            sb.replace(i + 1, i + 3, sb.substring(i + 1, i + 3).toLowerCase(Locale.ROOT));
        }
        return sb.toString();
    }

    /** No form of the key is left in {@code s}: redacting it again changes nothing, and no literal form occurs. */
    static void assertNoKey(String key, String s, String where) {
        if (s == null) return;
        assertSame(s, Secret.of(key).redact(s), "an encoded key is left in " + where + ": " + s);
        for (String f : forms(key)) assertFalse(s.contains(f), where + " holds the key as " + f + ": " + s);
        assertFalse(s.contains(key.substring(3, key.length() - 2)), where + " holds a fragment of the key: " + s);
    }

    @Test
    void everyEncodingOfTheKeyIsRedacted() {
        List<String> keys = new ArrayList<>(SENDABLE);
        keys.addAll(UNSENDABLE);
        keys.add("sk-back\\slash\\\\double");
        for (String key : keys) {
            Secret secret = Secret.of(key);
            for (String form : forms(key)) {
                assertEquals(
                        "before " + Secret.REDACTED + " after",
                        secret.redact("before " + form + " after"),
                        key + " as " + form);
                assertEquals(Secret.REDACTED + Secret.REDACTED, secret.redact(form + form), key + " twice as " + form);
            }
            assertEquals(
                    "x " + Secret.REDACTED + " y",
                    secret.redact("x " + mixed(key) + " y"),
                    "a key in mixed encodings: " + mixed(key));
        }
        Secret s = Secret.of(SENDABLE.getFirst());
        String text = "nothing here \\n %41 + \\u0041";
        assertSame(text, s.redact(text), "text without the key is returned as is");
        assertEquals("sk-proj/Ab9+cD/eF=", s.redact("sk-proj/Ab9+cD/eF="), "a prefix of the key is not the key");
        assertEquals("EMPTY", Secret.of("EMPTY").redact("EMPTY"), "placeholders are not scrubbed");
    }

    /** Captures the provider's log output as formatted text. */
    private static final class Capture extends Handler {
        final List<String> lines = new ArrayList<>();
        final SimpleFormatter f = new SimpleFormatter();

        @Override
        public synchronized void publish(LogRecord r) {
            lines.add(f.format(r));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    private static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    /** Everything a caller can record or print from a turn. */
    private static List<String> texts(Turn t) {
        List<String> out = new ArrayList<>();
        out.add(t.message().content());
        out.add(t.message().toString());
        for (ToolCall c : t.message().toolCalls()) {
            out.add(c.id());
            out.add(c.name());
            out.add(c.rawArguments());
            out.add(c.malformed());
            out.add(PyJson.dumps(c.arguments()));
        }
        for (ModelCall c : t.calls()) {
            out.add(c.requestBody());
            out.add(c.responseBody());
            out.add(c.error());
            out.add(c.toString());
        }
        return out;
    }

    /** A 2xx whose message repeats the key in every form, in its text, its content parts and its tool-call arguments. */
    private static String openAiEcho(String key) {
        String all = String.join(" | ", forms(key));
        PyDict args = PyDict.of("location", "Boston " + key, "note", all);
        PyDict message = PyDict.of(
                "role",
                "assistant",
                "content",
                PyList.of(
                        PyDict.of("type", "text", "text", "Your key is " + all + " and split: " + key.substring(0, 6)),
                        PyDict.of("type", "text", "text", key.substring(6))),
                "tool_calls",
                PyList.of(PyDict.of(
                        "id",
                        "call_" + key,
                        "type",
                        "function",
                        "function",
                        PyDict.of("name", "get_weather", "arguments", PyJson.dumps(args)))));
        return PyJson.dumps(PyDict.of(
                "id",
                "chatcmpl-echo",
                "object",
                "chat.completion",
                "created",
                1,
                "model",
                "m",
                "choices",
                PyList.of(PyDict.of("index", 0, "message", message, "finish_reason", "tool_calls")),
                "usage",
                PyDict.of("prompt_tokens", 1, "completion_tokens", 2)));
    }

    @Test
    void echoedKeysNeverReachRecordsMessagesErrorsOrLogs() throws Exception {
        Logger logger = Logger.getLogger("brokkr.provider");
        Capture capture = new Capture();
        logger.addHandler(capture);
        Level old = logger.getLevel();
        logger.setLevel(Level.ALL);
        try {
            for (String key : SENDABLE) {
                capture.lines.clear();
                List<String> seen = new ArrayList<>();
                String forms = String.join(" ", forms(key));
                String errorBody =
                        PyJson.dumps(PyDict.of("error", PyDict.of("message", "Incorrect API key provided: " + forms)));
                try (var server = ScriptedModelServer.sequence(
                        Reply.json(500, errorBody),
                        Reply.json(200, "<html>proxy says " + forms + "</html>"),
                        Reply.json(
                                200,
                                "{\"error\": {\"message\": \""
                                        + forms(key).stream()
                                                .skip(1)
                                                .findFirst()
                                                .orElseThrow() + "\"}}"),
                        Reply.json(200, openAiEcho(key)),
                        Reply.json(401, errorBody))) {
                    HttpProvider p = new HttpProvider(
                            OpenAiChat.INSTANCE,
                            server.baseUrl(),
                            Secret.of(key),
                            fast("m").withMaxAttempts(4),
                            Effects.httpClient(fast("m").timeout()),
                            new FakeEffects().effects);
                    Turn ok = p.next(List.of(new Message.User("my key is " + key)), List.of(WEATHER));
                    assertEquals("Bearer " + key, server.requests().getFirst().credential(), "the key was sent");
                    assertEquals(4, ok.calls().size());
                    seen.addAll(texts(ok));
                    assertTrue(
                            ok.message().content().startsWith("Your key is " + Secret.REDACTED),
                            ok.message().content());
                    assertTrue(
                            ok.message().content().endsWith("split: " + Secret.REDACTED),
                            "parts joined, then redacted: " + ok.message().content());
                    ToolCall call = ok.message().toolCalls().getFirst();
                    assertEquals(
                            "Boston " + Secret.REDACTED,
                            call.arguments().get("location").asStr(),
                            "the arguments the tool runs with");
                    assertFalse(call.isMalformed(), call.malformed());

                    InfrastructureFailure f = assertThrows(
                            InfrastructureFailure.class, () -> p.next(List.of(new Message.User("hi")), List.of()));
                    f.attempts().forEach(c -> seen.add(c.toString()));
                    seen.add(f.getMessage());
                    seen.add(stackTrace(f));
                    seen.add(p.toString());
                }
                try (var server = ScriptedModelServer.sequence(Reply.json(
                        200,
                        PyJson.dumps(PyDict.of(
                                "id",
                                "msg_echo",
                                "type",
                                "message",
                                "role",
                                "assistant",
                                "model",
                                "claude",
                                "content",
                                PyList.of(
                                        PyDict.of("type", "text", "text", "Echo: " + forms),
                                        PyDict.of(
                                                "type",
                                                "tool_use",
                                                "id",
                                                "toolu_1",
                                                "name",
                                                "get_weather",
                                                "input",
                                                PyDict.of("location", key, "raw", PyJson.dumps(PyDict.of("k", key))))),
                                "stop_reason",
                                "tool_use",
                                "usage",
                                PyDict.of("input_tokens", 1, "output_tokens", 1)))))) {
                    HttpProvider p = new HttpProvider(
                            AnthropicMessages.INSTANCE,
                            server.url(),
                            Secret.of(key),
                            fast("claude"),
                            Effects.httpClient(fast("claude").timeout()),
                            new FakeEffects().effects);
                    Turn ok = p.next(ASK, List.of(WEATHER));
                    assertEquals(key, server.requests().getFirst().credential());
                    seen.addAll(texts(ok));
                    assertEquals(
                            Secret.REDACTED,
                            ok.message()
                                    .toolCalls()
                                    .getFirst()
                                    .arguments()
                                    .get("location")
                                    .asStr());
                }
                // The Responses wire, streamed: the key in a reasoning item's summary, the text and the arguments;
                // then a refusal (400) echoing it.
                Message.Assistant echo = new Message.Assistant(
                        "Echo: " + forms,
                        List.of(new ToolCall("call_k", "get_weather", PyDict.of("location", key, "all", forms))),
                        brokkr.conversation.Usage.ZERO,
                        List.of(PyDict.of(
                                "type",
                                "reasoning",
                                "id",
                                "rs_k",
                                "summary",
                                PyList.of(PyDict.of("type", "summary_text", "text", "The key: " + forms)),
                                "encrypted_content",
                                "enc")));
                try (var server = ScriptedModelServer.sequence(
                        Reply.status(
                                200,
                                OpenAiResponses.encodeStream(echo, "m", "resp_k"),
                                "Content-Type",
                                "text/event-stream"),
                        Reply.json(400, errorBody.replace("Incorrect API key", "parallel_tool_calls refused; key")))) {
                    HttpProvider p = new HttpProvider(
                            OpenAiResponses.INSTANCE,
                            server.baseUrl(),
                            Secret.of(key),
                            fast("m").withParallelToolCalls(true).withExtra(PyDict.of("stream", true)),
                            Effects.httpClient(fast("m").timeout()),
                            new FakeEffects().effects);
                    Turn ok = p.next(ASK, List.of(WEATHER));
                    assertEquals("Bearer " + key, server.requests().getFirst().credential());
                    seen.addAll(texts(ok));
                    seen.add(PyJson.dumps(PyList.of(ok.message().reasoning())));
                    assertEquals(
                            Secret.REDACTED,
                            ok.message()
                                    .toolCalls()
                                    .getFirst()
                                    .arguments()
                                    .get("location")
                                    .asStr());
                    List<Message> next = new ArrayList<>(ASK);
                    next.add(ok.message());
                    InfrastructureFailure f =
                            assertThrows(InfrastructureFailure.class, () -> p.next(next, List.of(WEATHER)));
                    assertTrue(f.getMessage().contains("parallel_tool_calls=true"), f.getMessage());
                    seen.add(server.requests().get(1).body()); // the reasoning sent back, as redacted
                    f.attempts().forEach(c -> seen.add(c.toString()));
                    seen.add(f.getMessage());
                    seen.add(stackTrace(f));
                }
                assertFalse(capture.lines.isEmpty(), "retries were logged");
                seen.addAll(capture.lines);
                for (String s : seen) assertNoKey(key, s, "a record of key " + key);
            }
        } finally {
            logger.removeHandler(capture);
            logger.setLevel(old);
        }
    }

    @Test
    void aKeyNoHeaderCanCarryIsRefusedWithoutBeingShown() {
        for (String key : UNSENDABLE) {
            for (String variable : List.of("OPENAI_API_KEY", "ANTHROPIC_API_KEY")) {
                var e = assertThrows(
                        IllegalArgumentException.class,
                        () -> Providers.fromEnvironment(
                                Map.of(variable, key),
                                variable.startsWith("OPENAI") ? "openai" : "anthropic",
                                "gpt",
                                fast("gpt")));
                assertTrue(e.getMessage().startsWith(variable + ": "), e.getMessage());
                assertNoKey(key, stackTrace(e), "the refusal");
            }
            var direct = assertThrows(
                    IllegalArgumentException.class,
                    () -> new HttpProvider(
                            OpenAiChat.INSTANCE,
                            "http://127.0.0.1:1/v1",
                            Secret.of(key),
                            fast("m"),
                            Effects.httpClient(fast("m").timeout()),
                            new FakeEffects().effects));
            assertNoKey(key, stackTrace(direct), "the refusal");
        }
        for (String key : SENDABLE) assertTrue(Secret.of(key).isHeaderSafe(), key);
    }
}
