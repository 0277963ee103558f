package brokkr.provider;

import static brokkr.provider.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.Turn;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.Test;

/** The API key reaches the server's auth header and nothing else: not records, exceptions, logs or toStrings. */
class KeyLeakTest {

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

    @Test
    void keyNeverAppearsInRecordsExceptionsLogsOrToStrings() throws Exception {
        Logger logger = Logger.getLogger("brokkr.provider");
        Capture capture = new Capture();
        logger.addHandler(capture);
        Level old = logger.getLevel();
        logger.setLevel(Level.ALL);
        List<String> seen = new ArrayList<>();
        try {
            // Servers that echo the key back: in a 500 body, in a 200 garbage body, in a 401 body, and in tool-call
            // text.
            String echo = "{\"error\": {\"message\": \"Incorrect API key provided: " + KEY + "\"}}";
            try (var server = ScriptedModelServer.sequence(
                    Reply.json(500, echo),
                    Reply.json(200, "not json " + KEY),
                    Reply.json(200, openAiWithArguments("\"{\\\"k\\\": \\\"" + KEY + "\\\"}\"")),
                    Reply.json(401, echo))) {
                FakeEffects fx = new FakeEffects();
                HttpProvider p = openai(server, fast("m"), fx);
                Turn ok = p.next(List.of(new Message.User("my key is " + KEY)), List.of(WEATHER));
                ok.calls().forEach(c -> seen.add(c.toString()));
                InfrastructureFailure f = assertThrows(
                        InfrastructureFailure.class, () -> p.next(List.of(new Message.User("hi")), List.of()));
                f.attempts().forEach(c -> seen.add(c.toString()));
                seen.add(f.getMessage());
                seen.add(f.toString());
                seen.add(stackTrace(f));
                seen.add(p.toString());
                assertEquals("Bearer " + KEY, server.requests().getFirst().credential(), "the key was sent");

                // The key is redacted wherever it was echoed.
                ModelCall first = ok.calls().getFirst();
                assertTrue(first.responseBody().contains(Secret.REDACTED));
                assertTrue(first.requestBody().contains("my key is " + Secret.REDACTED));
                assertEquals(3, ok.calls().size());
            }
            try (var server = ScriptedModelServer.sequence(
                    Reply.json(403, "{\"type\": \"error\", \"error\": {\"message\": \"bad key " + KEY + "\"}}"))) {
                HttpProvider p = anthropic(server, fast("claude"), new FakeEffects());
                InfrastructureFailure f = assertThrows(InfrastructureFailure.class, () -> p.next(ASK, List.of()));
                seen.add(stackTrace(f));
                f.attempts().forEach(c -> seen.add(c.toString()));
                seen.add(p.toString());
                seen.add(String.valueOf(server.requests()));
                assertEquals(KEY, server.requests().getFirst().credential());
            }
            // Connection errors (exception texts from the HTTP client) and factory errors.
            HttpProvider refused = openai("http://127.0.0.1:1/v1", fast("m").withMaxAttempts(1), new FakeEffects());
            InfrastructureFailure f = assertThrows(InfrastructureFailure.class, () -> refused.next(ASK, List.of()));
            seen.add(stackTrace(f));
            seen.add(Secret.of(KEY).toString());
            seen.add(Providers.fromEnvironment(Map.of("OPENAI_API_KEY", KEY), "openai", "gpt", fast("x"))
                    .toString());
            seen.add(assertThrows(
                            IllegalArgumentException.class,
                            () -> Providers.fromEnvironment(Map.of("OPENAI_API_KEY", KEY), "nope", "m", fast("x")))
                    .getMessage());
        } finally {
            logger.removeHandler(capture);
            logger.setLevel(old);
        }
        assertFalse(capture.lines.isEmpty(), "retries were logged");
        seen.addAll(capture.lines);
        for (String s : seen) assertFalse(s.contains(KEY), "key leaked into: " + s);
        assertFalse(seen.stream().anyMatch(s -> s.contains(KEY.substring(3))), "no key fragment either");
    }
}
