package brokkr.provider.claudecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.eval.AgentDef;
import brokkr.eval.ModelRef;
import brokkr.provider.Effects;
import brokkr.provider.testing.ClaudeCodeFixture;
import brokkr.provider.testing.FakeAnthropicServer;
import brokkr.provider.testing.FakeAnthropicServer.Reply;
import brokkr.run.UsageWindows;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code provider: claude-code} through the real pinned CLI against the loopback fake Messages server. */
class ClaudeCodeProviderTest {
    @TempDir
    Path tmp;

    static final List<ToolSpec> TOOLS = List.of(new ToolSpec(
            "get_order_details",
            "Get an order's details.",
            PyDict.of("type", "object", "properties", PyDict.of("order_id", PyDict.of("type", "string")))));

    static final Effects NO_WAIT = new Effects(Clock.systemUTC(), d -> {}, () -> 0.0);

    ClaudeCodeModels models(Map<String, String> env) {
        Map<String, String> e = new HashMap<>(env);
        e.put("BROKKR_CLAUDE_CONFIG_ROOT", tmp.resolve("configs").toString());
        return new ClaudeCodeModels(e, new UsageWindows(Clock.systemUTC()), NO_WAIT);
    }

    @Test
    void aStepRendersTheConversationAndReadsTheCallBackWithItsRecord() throws Exception {
        ClaudeCodeFixture.cli();
        try (var server = FakeAnthropicServer.start(r -> {
            List<Message> history = ClaudeCodePrompt.decodeConversation(r.lastUserText());
            List<ToolSpec> tools = ClaudeCodePrompt.decodeTools(r.systemText());
            String order = ((Message.User) history.getLast()).content().replaceAll(".*(#W\\d+).*", "$1");
            return Reply.text("Let me check.\n"
                    + ClaudeCodeReplies.encode(
                            new ToolCall("x", tools.getFirst().name(), PyDict.of("order_id", order))));
        })) {
            var candidate = (ClaudeCodeProvider)
                    models(server.apiKeyEnv()).create(new ModelRef("claude-code", "claude-sonnet-4-5"));
            var turn = candidate.next(
                    List.of(new Message.System("You are a retail agent."), new Message.User("Where is order #W42?")),
                    TOOLS);
            var m = turn.message();
            assertEquals("Let me check.", m.content());
            assertEquals(1, m.toolCalls().size());
            assertEquals("get_order_details", m.toolCalls().getFirst().name());
            assertEquals(PyDict.of("order_id", "#W42"), m.toolCalls().getFirst().arguments());
            assertEquals(10, m.usage().inputTokens());

            var call = turn.calls().getFirst();
            assertEquals("claude-code", call.provider());
            assertEquals(200, call.status());
            PyDict request = Json.parse(call.requestBody()).asDict();
            assertTrue(request.get("stdin").asStr().contains("Where is order #W42?"));
            assertTrue(request.get("system_prompt").asStr().startsWith("You are a retail agent."));
            assertTrue(request.get("system_prompt").asStr().endsWith(ClaudeCodePrompt.DEFAULT_HOST_NOTE));
            assertTrue(request.get("argv").toString().contains("--max-turns"), request.toString());
            assertTrue(request.get("env").toString().contains("ANTHROPIC_API_KEY"), "the variable's name is recorded");
            for (String recorded : List.of(call.requestBody(), call.responseBody()))
                assertFalse(recorded.contains("fake-key-for-tests"), "the key never reaches a record");
            assertTrue(call.responseBody().contains("\"total_cost_usd\""), "the CLI's cost estimate is recorded");
            var sent = server.messageRequests().getFirst();
            assertTrue(sent.systemText().contains("You are a retail agent."));
            assertEquals(0, sent.json().get("tools").asList().size(), "Claude Code's own tools are off");
            assertTrue(
                    Files.list(tmp.resolve("configs"))
                            .findFirst()
                            .map(d -> {
                                try (var s = Files.list(d)) {
                                    return s.findAny().isEmpty();
                                } catch (java.io.IOException e) {
                                    throw new AssertionError(e);
                                }
                            })
                            .orElseThrow(),
                    "each call's own config directory is removed after it");
        }
    }

    @Test
    void theProvidersCandidateIsWhatHarnessClaudeCodeLaunches() throws Exception {
        ClaudeCodeFixture.cli();
        var candidate = models(
                        Map.of("ANTHROPIC_API_KEY", "fake-key-for-tests", "ANTHROPIC_BASE_URL", "http://127.0.0.1:9"))
                .create(new ModelRef("claude-code", "claude-sonnet-4-5"));
        // harness: claude-code finds the CLI under the run's wrappers as a ClaudeCodeCli; the provider's own
        // candidate must be one, or the harness refuses every real claude-code: model.
        assertTrue(candidate instanceof ClaudeCodeCli, candidate.getClass().getName());
        var cli = (ClaudeCodeCli) candidate;
        assertEquals("claude-sonnet-4-5", cli.model());
        ClaudeLaunch first = cli.launch().build(), second = cli.launch().build();
        int m = first.argv().indexOf("--model");
        assertTrue(
                m >= 0 && first.argv().get(m + 1).equals("claude-sonnet-4-5"),
                first.argv().toString());
        assertTrue(
                first.configDir().startsWith(tmp.resolve("configs")),
                first.configDir().toString());
        assertFalse(first.configDir().equals(second.configDir()), "each session has a config directory of its own");
        assertEquals("http://127.0.0.1:9", first.environment().get("ANTHROPIC_BASE_URL"));
    }

    @Test
    void anErrorIsAnInfrastructureFailureRetriedWhenItCanPass() throws Exception {
        ClaudeCodeFixture.cli();
        try (var server = FakeAnthropicServer.sequence(Reply.overloaded(), Reply.text("Fine."), Reply.unauthorized())) {
            var candidate = models(server.apiKeyEnv()).create(new ModelRef("claude-code", "claude-sonnet-4-5"));
            var turn = candidate.next(List.of(new Message.User("Hi")), List.of());
            assertEquals("Fine.", turn.message().content());
            assertEquals(2, turn.calls().size(), "the 529 attempt is recorded too");
            assertEquals(529, turn.calls().getFirst().status());
            assertTrue(
                    turn.calls().getFirst().error().startsWith("overloaded"),
                    turn.calls().getFirst().error());

            var failure = assertThrows(
                    InfrastructureFailure.class, () -> candidate.next(List.of(new Message.User("Hi")), List.of()));
            assertEquals(1, failure.attempts().size(), "a 401 is not retried");
            assertEquals(401, failure.attempts().getFirst().status());
            assertTrue(failure.getMessage().contains("authentication"), failure.getMessage());
        }
    }

    @Test
    void theCliVersionAndTheNotesDigestArePartOfTheCandidatesId() throws Exception {
        var real = ClaudeCodeFixture.cli();
        // A copied binary of another version: a script that answers --version as the CLI does.
        Path other = tmp.resolve("claude-9.9.9");
        Files.writeString(other, "#!/bin/sh\necho '9.9.9 (Claude Code)'\n");
        Files.setPosixFilePermissions(other, PosixFilePermissions.fromString("rwxr-xr-x"));
        var f = models(Map.of("ANTHROPIC_API_KEY", "sk-ant-api03-unused-key"));
        ModelRef base = new ModelRef(
                "claude-code",
                "claude-sonnet-4-5",
                PyDict.of("claude_cli", real.binary().toString()));
        ModelRef same = f.pinned(new ModelRef(
                "claude-code",
                "claude-sonnet-4-5",
                PyDict.of("claude_cli", real.binary().toString(), "timeout_seconds", 30)));
        ModelRef otherCli =
                f.pinned(new ModelRef("claude-code", "claude-sonnet-4-5", PyDict.of("claude_cli", other.toString())));
        ModelRef otherNote = f.pinned(new ModelRef(
                "claude-code",
                "claude-sonnet-4-5",
                PyDict.of("claude_cli", real.binary().toString(), "host_note", "Dates here are the operator's.")));
        ModelRef noNote = f.pinned(new ModelRef(
                "claude-code",
                "claude-sonnet-4-5",
                PyDict.of("claude_cli", real.binary().toString(), "host_note", PyBool.FALSE)));
        String id = id(f.pinned(base));
        assertEquals(
                ClaudeCli.PINNED_VERSION + " (Claude Code)",
                f.pinned(base).options().get("cli_version").asStr());
        assertEquals(id, id(same), "an operational option changes nothing");
        assertNotEquals(id, id(otherCli), "another CLI version starts fresh cells");
        assertNotEquals(id, id(otherNote), "another note starts fresh cells");
        assertNotEquals(id, id(noNote));
        assertNotEquals(id(otherNote), id(noNote));
    }

    static String id(ModelRef ref) {
        return AgentDef.of(ref, "tools", null).id();
    }

    /**
     * The e-mail probe. The CLI puts the signed-in account's e-mail into every call's context when its config
     * directory holds an account profile ({@code oauthAccount.emailAddress} in {@code .claude.json}) and the
     * credential is a subscription's: with the provider's isolated config directories no request carries it;
     * with a config directory that has the profile, one does (so this test can fail).
     */
    @Test
    void noRequestCarriesTheAccountsEmailWhileANonIsolatedConfigWouldSendIt() throws Exception {
        var cli = ClaudeCodeFixture.cli();
        String email = "probe.account@example.com";
        try (var server = FakeAnthropicServer.start(r -> Reply.text("ok"))) {
            var candidate = models(server.oauthEnv()).create(new ModelRef("claude-code", "claude-sonnet-4-5"));
            candidate.next(List.of(new Message.User("Hello")), List.of());
            assertEquals(1, server.messageRequests().size());
            for (var r : server.requests())
                assertFalse(r.body().contains(email) || r.headers().toString().contains(email));
            // the CLI tells the model its working directory: the neutral one, never a path under the config
            // root (for runs, the experiment directory, which may name the user or the project)
            String body = server.messageRequests().getFirst().body();
            assertTrue(
                    body.contains(ClaudeLaunch.NEUTRAL_WORK_DIR.toString()),
                    "the neutral working directory is the one the model sees");
            assertFalse(
                    body.contains(tmp.resolve("configs").toString()),
                    "no path under the config root reaches the model");

            Path profiled = tmp.resolve("profiled");
            Files.createDirectories(profiled);
            Files.writeString(
                    profiled.resolve(".claude.json"),
                    "{\"oauthAccount\": {\"accountUuid\":"
                            + " \"11111111-1111-4111-8111-111111111111\", \"emailAddress\": \"" + email + "\","
                            + " \"organizationUuid\": \"22222222-2222-4222-8222-222222222222\"}}");
            ClaudeLaunch.builder(cli, profiled)
                    .env(server.oauthEnv())
                    .model("claude-sonnet-4-5")
                    .systemPrompt("probe")
                    .build()
                    .run("Hello", java.time.Duration.ofSeconds(60));
            var leaked = server.messageRequests().getLast();
            assertTrue(leaked.body().contains(email), "the non-isolated config sends the e-mail: the probe can fail");
        }
    }
}
