package brokkr.provider;

import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.value.PyDict;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Shared test fixtures: documented response bodies, fake effects, short timeouts. */
final class Fixtures {
    private Fixtures() {}

    static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    static final String KEY = "sk-test-7f3a9c1e5b2d4f6a8c0e";

    /** Records every requested sleep instead of sleeping; jitter is fixed at 0.5. */
    static final class FakeEffects {
        final List<Duration> sleeps = new CopyOnWriteArrayList<>();
        final Effects effects = new Effects(InstantSource.fixed(NOW), sleeps::add, () -> 0.5);
    }

    /** Generous per-attempt timeout: a cold JVM's first loopback exchange can take a few hundred ms on a busy machine. */
    static ProviderOptions fast(String model) {
        return ProviderOptions.defaults(model)
                .withTimeout(Duration.ofSeconds(5))
                .withMaxAttempts(3)
                .withBackoff(Duration.ofMillis(100), Duration.ofMillis(1000))
                .withRetryAfterCap(Duration.ofSeconds(30));
    }

    /** For tests where the server never answers: every attempt ends at its 200 ms timeout. */
    static ProviderOptions stalling() {
        return fast("m").withTimeout(Duration.ofMillis(200));
    }

    static HttpProvider openai(String baseUrl, ProviderOptions o, FakeEffects fx) {
        return new HttpProvider(
                OpenAiChat.INSTANCE, baseUrl, Secret.of(KEY), o, Effects.httpClient(o.timeout()), fx.effects);
    }

    static HttpProvider openai(ScriptedModelServer s, ProviderOptions o, FakeEffects fx) {
        return openai(s.baseUrl(), o, fx);
    }

    static HttpProvider anthropic(ScriptedModelServer s, ProviderOptions o, FakeEffects fx) {
        return new HttpProvider(
                AnthropicMessages.INSTANCE, s.url(), Secret.of(KEY), o, Effects.httpClient(o.timeout()), fx.effects);
    }

    static final ToolSpec WEATHER = new ToolSpec(
            "get_weather",
            "Get the current weather in a given location",
            PyDict.of(
                    "type",
                    "object",
                    "properties",
                    PyDict.of(
                            "location",
                            PyDict.of("type", "string", "description", "The city and state, e.g. San Francisco, CA"),
                            "unit",
                            PyDict.of("type", "string", "enum", List.of("celsius", "fahrenheit"))),
                    "required",
                    List.of("location")));

    static final List<Message> ASK = List.of(
            new Message.System("You are a weather assistant."),
            new Message.User("What's the weather like in Boston and Paris today?"));

    // ---- OpenAI Chat Completions, shaped as in OpenAI's API reference (function calling) ----

    static final String OPENAI_ONE_CALL = """
            {
              "id": "chatcmpl-abc123",
              "object": "chat.completion",
              "created": 1699896916,
              "model": "gpt-4o-mini",
              "choices": [
                {
                  "index": 0,
                  "message": {
                    "role": "assistant",
                    "content": null,
                    "tool_calls": [
                      {
                        "id": "call_abc123",
                        "type": "function",
                        "function": {
                          "name": "get_weather",
                          "arguments": "{\\n\\"location\\": \\"Boston, MA\\"\\n}"
                        }
                      }
                    ]
                  },
                  "logprobs": null,
                  "finish_reason": "tool_calls"
                }
              ],
              "usage": {
                "prompt_tokens": 82,
                "completion_tokens": 17,
                "total_tokens": 99,
                "completion_tokens_details": {"reasoning_tokens": 0}
              }
            }
            """;

    static final String OPENAI_TWO_CALLS = """
            {
              "id": "chatcmpl-def456",
              "object": "chat.completion",
              "created": 1699896917,
              "model": "gpt-4o-mini",
              "choices": [{
                "index": 0,
                "message": {
                  "role": "assistant",
                  "content": null,
                  "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"location\\": \\"Boston, MA\\"}"}},
                    {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"location\\": \\"Paris, France\\", \\"unit\\": \\"celsius\\"}"}}
                  ]
                },
                "logprobs": null,
                "finish_reason": "tool_calls"
              }],
              "usage": {"prompt_tokens": 90, "completion_tokens": 40, "total_tokens": 130}
            }
            """;

    static final String OPENAI_TEXT = """
            {
              "id": "chatcmpl-123",
              "object": "chat.completion",
              "created": 1677652288,
              "model": "gpt-4o-mini",
              "system_fingerprint": "fp_44709d6fcb",
              "choices": [{
                "index": 0,
                "message": {
                  "role": "assistant",
                  "content": "\\n\\nHello there, how may I assist you today?"
                },
                "logprobs": null,
                "finish_reason": "stop"
              }],
              "usage": {"prompt_tokens": 9, "completion_tokens": 12, "total_tokens": 21}
            }
            """;

    /** A Chat Completions response whose single call carries {@code arguments} (a JSON string literal body). */
    static String openAiWithArguments(String argumentsJsonLiteral) {
        return """
                {"id": "chatcmpl-x", "object": "chat.completion", "created": 1, "model": "m",
                 "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
                   "tool_calls": [{"id": "call_x", "type": "function", "function": {"name": "get_weather", "arguments": %s}}]},
                   "finish_reason": "tool_calls"}],
                 "usage": {"prompt_tokens": 5, "completion_tokens": 6, "total_tokens": 11}}
                """.formatted(argumentsJsonLiteral);
    }

    // ---- Anthropic Messages, shaped as in Anthropic's tool-use documentation ----

    static final String ANTHROPIC_ONE_CALL = """
            {
              "id": "msg_01Aq9w938a90dw8q",
              "type": "message",
              "role": "assistant",
              "model": "claude-sonnet-4-5",
              "content": [
                {"type": "text", "text": "I'll check the current weather in Boston for you."},
                {
                  "type": "tool_use",
                  "id": "toolu_01A09q90qw90lq917835lq9",
                  "name": "get_weather",
                  "input": {"location": "Boston, MA", "unit": "fahrenheit"}
                }
              ],
              "stop_reason": "tool_use",
              "stop_sequence": null,
              "usage": {"input_tokens": 478, "output_tokens": 71, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
            }
            """;

    static final String ANTHROPIC_TWO_CALLS = """
            {
              "id": "msg_02",
              "type": "message",
              "role": "assistant",
              "model": "claude-sonnet-4-5",
              "content": [
                {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"location": "Boston, MA"}},
                {"type": "tool_use", "id": "toolu_02", "name": "get_weather", "input": {"location": "Paris, France", "unit": "celsius"}}
              ],
              "stop_reason": "tool_use",
              "stop_sequence": null,
              "usage": {"input_tokens": 500, "output_tokens": 90, "cache_creation_input_tokens": 10, "cache_read_input_tokens": 20}
            }
            """;

    static final String ANTHROPIC_TEXT = """
            {
              "id": "msg_03",
              "type": "message",
              "role": "assistant",
              "model": "claude-sonnet-4-5",
              "content": [{"type": "text", "text": "Hi! My name is Claude."}],
              "stop_reason": "end_turn",
              "stop_sequence": null,
              "usage": {"input_tokens": 2095, "output_tokens": 503}
            }
            """;
}
