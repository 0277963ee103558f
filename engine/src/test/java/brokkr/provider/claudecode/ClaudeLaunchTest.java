package brokkr.provider.claudecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.provider.claudecode.StreamJson.ErrorKind;
import brokkr.provider.testing.ClaudeCodeFixture;
import brokkr.provider.testing.FakeAnthropicServer;
import brokkr.provider.testing.FakeAnthropicServer.Reply;
import brokkr.provider.testing.FakeAnthropicServer.Text;
import brokkr.provider.testing.FakeAnthropicServer.ToolUse;
import brokkr.value.PyDict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real pinned CLI against the loopback fake Messages server: what {@link ClaudeLaunch} starts, and what
 * {@link StreamJson.Reader} makes of every kind of answer (a reply, a tool call, each API error, a usage
 * window's warning and refusal). One CLI start per case (about 0.5 s of CPU each).
 */
class ClaudeLaunchTest {
    @TempDir
    Path tmp;

    private ClaudeLaunch.Outcome call(FakeAnthropicServer server, Map<String, String> env, Integer maxTurns)
            throws Exception {
        ClaudeLaunch launch = ClaudeLaunch.builder(ClaudeCodeFixture.cli(), Files.createTempDirectory(tmp, "cfg"))
                .env(env)
                .model("claude-sonnet-4-5")
                .systemPrompt("You are Brokkr's test model.")
                .maxTurns(maxTurns)
                .putEnv("CLAUDE_CODE_MAX_RETRIES", "0")
                .build();
        return launch.run("Say hello.", Duration.ofSeconds(60));
    }

    @Test
    void theVersionIsThePinnedOne() {
        assertTrue(
                ClaudeCodeFixture.cli().version().startsWith(ClaudeCli.PINNED_VERSION + " "),
                ClaudeCodeFixture.cli().version());
    }

    @Test
    void aTextReplyWithItsUsageAndTheRequestAsBrokkrMadeIt() throws Exception {
        try (var server = FakeAnthropicServer.sequence(Reply.text("Hello from the fake."))) {
            var out = call(server, server.apiKeyEnv(), null);
            assertEquals(0, out.exitCode(), out.stdout());
            assertEquals("Hello from the fake.", out.events().text());
            assertTrue(out.events().error().isEmpty(), out.stdout());
            var usage = out.events().usage();
            assertEquals(10, usage.inputTokens());
            assertEquals(5, usage.outputTokens());
            assertTrue(usage.costUsd() > 0, "the CLI's cost estimate: " + usage);
            assertEquals(
                    ClaudeCli.PINNED_VERSION, out.events().init().orElseThrow().version());
            var req = server.messageRequests().getFirst();
            assertEquals("claude-sonnet-4-5", req.model());
            assertTrue(req.systemText().contains("You are Brokkr's test model."), req.systemText());
            assertEquals("Say hello.", req.lastUserText());
            assertEquals(0, req.json().get("tools").asList().size(), "no built-in tools");
            assertEquals(
                    "disabled", req.json().get("thinking").asDict().get("type").asStr());
            assertFalse(out.stdout().contains("fake-key-for-tests"), "the key is redacted from the record");
        }
    }

    @Test
    void aToolUseBlockIsReadAndMaxTurnsIsNoApiError() throws Exception {
        try (var server = FakeAnthropicServer.sequence(Reply.message(
                new Text("Looking."), new ToolUse("toolu_1", "mcp__brokkr__find_user", PyDict.of("email", "a@b.c"))))) {
            var out = call(server, server.apiKeyEnv(), 1);
            var uses = out.events().toolUses();
            assertEquals(1, uses.size(), out.stdout());
            assertEquals("mcp__brokkr__find_user", uses.getFirst().name());
            assertEquals(PyDict.of("email", "a@b.c"), uses.getFirst().input());
            assertEquals("Looking.", out.events().text());
            assertEquals(ErrorKind.MAX_TURNS, out.events().error().orElseThrow().kind());
            assertEquals(1, out.events().toolResults().size(), "the CLI answered the unknown tool itself");
        }
    }

    @Test
    void apiErrorsAreClassifiedThoughTheResultSaysSuccess() throws Exception {
        for (var c : Map.of(
                        ErrorKind.AUTHENTICATION, Reply.unauthorized(),
                        ErrorKind.OVERLOADED, Reply.overloaded(),
                        ErrorKind.RATE_LIMIT, Reply.rateLimited())
                .entrySet()) {
            try (var server = FakeAnthropicServer.sequence(c.getValue())) {
                var out = call(server, server.apiKeyEnv(), null);
                var result = out.events().result().orElseThrow();
                assertEquals("success", result.subtype(), "the CLI's subtype says nothing: " + out.stdout());
                var error = out.events().error().orElseThrow(() -> new AssertionError(out.stdout()));
                assertEquals(c.getKey(), error.kind(), out.stdout());
                assertEquals(((Reply.Failure) c.getValue()).status(), error.status());
                assertTrue(out.events().messages().isEmpty(), "no model message from an error");
            }
        }
    }

    @Test
    void aUsageWindowWarnsThenRefusesWithItsReset() throws Exception {
        long reset = System.currentTimeMillis() / 1000 + 3600;
        try (var server = FakeAnthropicServer.sequence(
                Reply.text("ok").window("5h", 0.98, reset), Reply.usageLimitRejected("5h", reset))) {
            var warned = call(server, server.oauthEnv(), null);
            assertTrue(warned.events().error().isEmpty(), warned.stdout());
            var w = warned.events().rateLimits().get("five_hour");
            assertEquals("allowed_warning", w.status());
            assertEquals(0.98, w.utilization());
            assertEquals(reset, w.resetsAt());

            var refused = call(server, server.oauthEnv(), null);
            var error = refused.events().error().orElseThrow();
            assertEquals(ErrorKind.USAGE_LIMIT, error.kind(), refused.stdout());
            assertEquals(reset, error.resetsAt());
            assertTrue(refused.events().rateLimits().get("five_hour").rejected());
            assertFalse(refused.stdout().contains("fake-token-for-tests"));
        }
    }
}
