package brokkr.provider;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ProvidersTest {
    private static final ProviderOptions O = ProviderOptions.defaults("placeholder");

    @Test
    void openAiNeedsAKeyOnlyForTheOfficialEndpoint() {
        var e = assertThrows(
                IllegalArgumentException.class, () -> Providers.fromEnvironment(Map.of(), "openai", "gpt-4o", O));
        assertTrue(e.getMessage().contains("OPENAI_API_KEY"));
        HttpProvider official =
                (HttpProvider) Providers.fromEnvironment(Map.of("OPENAI_API_KEY", "k"), "openai", "gpt-4o", O);
        assertEquals(
                "https://api.openai.com/v1/chat/completions",
                official.endpoint().toString());
        assertEquals("gpt-4o", official.model());
        HttpProvider local = (HttpProvider) Providers.fromEnvironment(
                Map.of("OPENAI_BASE_URL", "http://localhost:11434/v1"), "ollama", "qwen3:8b", O);
        assertEquals(
                "http://localhost:11434/v1/chat/completions", local.endpoint().toString());
        assertEquals("openai", local.provider());
    }

    @Test
    void everyOpenAiCompatibleNameSpeaksTheOpenAiWire() {
        for (String name : Providers.OPENAI_COMPATIBLE) {
            assertTrue(Providers.openAiCompatible(name.toUpperCase(java.util.Locale.ROOT)), name);
            HttpProvider p = (HttpProvider)
                    Providers.fromEnvironment(Map.of("OPENAI_BASE_URL", "http://localhost:8000/v1"), name, "m", O);
            assertEquals("openai", p.provider(), name);
        }
        assertFalse(Providers.openAiCompatible("anthropic"));
    }

    @Test
    void anthropicReadsItsOwnVariables() {
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> Providers.fromEnvironment(Map.of("OPENAI_API_KEY", "k"), "anthropic", "claude", O));
        assertEquals("ANTHROPIC_API_KEY is not set", e.getMessage());
        HttpProvider p = (HttpProvider)
                Providers.fromEnvironment(Map.of("ANTHROPIC_API_KEY", "k"), "Anthropic", "claude-sonnet-4-5", O);
        assertEquals("https://api.anthropic.com/v1/messages", p.endpoint().toString());
        assertEquals("anthropic", p.provider());
        HttpProvider proxied = (HttpProvider)
                Providers.fromEnvironment(Map.of("ANTHROPIC_BASE_URL", "http://127.0.0.1:9/"), "anthropic", "c", O);
        assertEquals("http://127.0.0.1:9/v1/messages", proxied.endpoint().toString());
    }

    @Test
    void unknownProviderAndBadOptionsAreRejected() {
        var e = assertThrows(
                IllegalArgumentException.class, () -> Providers.fromEnvironment(Map.of(), "gemini", "m", O));
        assertTrue(e.getMessage().contains("unknown provider 'gemini'"));
        assertTrue(
                e.getMessage()
                        .contains(
                                "(known: openai, openai-compatible, vllm, llamacpp, ollama, openai-responses, anthropic)"),
                e.getMessage());
        HttpProvider responses = (HttpProvider) Providers.fromEnvironment(
                Map.of("OPENAI_BASE_URL", "http://127.0.0.1:9/v1/"), "OpenAI-Responses", "gpt-5", O);
        assertEquals("openai-responses", responses.provider());
        assertEquals("http://127.0.0.1:9/v1/responses", responses.endpoint().toString());
        assertThrows(IllegalArgumentException.class, () -> O.withMaxAttempts(0));
        assertThrows(IllegalArgumentException.class, () -> O.withTimeout(java.time.Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> O.withMaxTokens(0));
    }

    @Test
    void secretsHideThemselves() {
        Secret s = Secret.of("  abc123  ");
        assertEquals("Secret[[REDACTED]]", s.toString());
        assertEquals(
                "abc123", s.redact("abc123"), "a six-character value is a local server's placeholder, not a secret");
        Secret real = Secret.of("sk-abcdefgh");
        assertEquals("key=[REDACTED];", real.redact("key=sk-abcdefgh;"));
        assertEquals("Secret[[REDACTED]]", real.toString());
        assertFalse(Secret.of(" ").isPresent());
        assertEquals("Secret[none]", Secret.none().toString());
        assertEquals("abc123", Secret.none().redact("abc123"));
    }
}
