package brokkr.provider;

import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * One provider's HTTP dialect: where to POST, which headers authenticate, how a conversation becomes
 * a request body and how a response body becomes the next assistant message. Encoding is a pure,
 * deterministic function (same history, tools and options give the same bytes), because request
 * bodies are recorded and hashed.
 */
public interface WireFormat {

    /** The provider name recorded in every {@link brokkr.conversation.ModelCall}. */
    String name();

    /** The endpoint for a base URL as configured (e.g. {@code https://api.openai.com/v1}). */
    URI endpoint(String baseUrl);

    /** Headers besides {@code Content-Type}; the only place a key is revealed. */
    Map<String, String> headers(Secret key);

    String encodeRequest(List<Message> history, List<ToolSpec> tools, ProviderOptions options);

    /**
     * The assistant message in a successful (2xx) response body. Problems local to one tool call
     * (arguments that are not a JSON object, a missing name) do not throw: they become a
     * {@link brokkr.conversation.ToolCall#malformed() malformed} call, an agent error the episode
     * records. A body that is not the documented shape at all throws {@link MalformedResponse}.
     */
    Message.Assistant decodeResponse(String body) throws MalformedResponse;

    /**
     * For a status that is not retried (a 400), what in the request the server most likely refused, in terms of
     * the model options that asked for it (for example {@code parallel_tool_calls}, which some backends refuse in
     * some request shapes), or null when nothing points at one. Only appended to the recorded error: the request
     * is never silently re-sent without the option.
     */
    default String refusalHint(int status, String responseBody, ProviderOptions options) {
        return null;
    }

    /**
     * A 2xx body that is not a response of this API (not JSON, truncated, a proxy's HTML page, no
     * {@code choices}/{@code content}). It says nothing about the model, so the provider retries it and
     * finally reports an infrastructure failure.
     */
    final class MalformedResponse extends Exception {
        public MalformedResponse(String message) {
            super(message);
        }
    }
}
