/**
 * Model providers: a model behind an HTTP API, or a script, as a {@link brokkr.conversation.Candidate}.
 *
 * <p>Pieces: {@link brokkr.provider.WireFormat} (pure encode/decode of one API:
 * {@link brokkr.provider.OpenAiChat} for OpenAI Chat Completions and compatible servers,
 * {@link brokkr.provider.OpenAiResponses} for the OpenAI Responses API (plain or streamed; reasoning items carried
 * between steps on {@link brokkr.conversation.Message.Assistant#reasoning()}),
 * {@link brokkr.provider.AnthropicMessages} for Anthropic Messages), {@link brokkr.provider.HttpProvider}
 * (sending, timeouts, retries, recording), {@link brokkr.provider.RetryPolicy} (pure backoff and
 * {@code Retry-After} arithmetic), {@link brokkr.provider.Effects} (clock, sleeper, jitter: injected in
 * tests), {@link brokkr.provider.Secret} (the key, never printed), {@link brokkr.provider.Providers}
 * (configuration from environment variables), {@link brokkr.provider.ScriptedCandidate} (a policy
 * function for tests and gold replays) and {@link brokkr.provider.testing.ScriptedModelServer} (a
 * loopback OpenAI-compatible server for end-to-end tests).
 *
 * <p><b>Records.</b> Each attempt yields a {@link brokkr.conversation.ModelCall} with the exact request
 * body (deterministic: insertion-ordered values serialized like CPython's {@code json.dumps}), the status
 * (0 when no response arrived), the response body and an error text. Credentials live only in request
 * headers; the key is scrubbed from everything recorded, logged or thrown, in its literal, JSON-escaped
 * and URL-encoded forms ({@link brokkr.provider.Secret#redact}), and from the decoded message (text,
 * tool-call arguments) of a response that echoes it, so it cannot reach a transcript, an answer or a
 * tool. A key that is not printable ASCII (which no HTTP header can carry) is refused up front.
 *
 * <p><b>Failure policy.</b>
 * <ul>
 *   <li>Connection errors, timeouts, 408, 409, 429 and 5xx: retried with backoff (full jitter) or the
 *       server's {@code Retry-After} (seconds or HTTP date, capped); after the last attempt an
 *       {@link brokkr.conversation.InfrastructureFailure} carries every attempt.</li>
 *   <li>Other statuses (400, 401, 403, 404, ...): an infrastructure failure at once; retrying cannot help. The
 *       wire may name the model option the server refused ({@link brokkr.provider.WireFormat#refusalHint}).</li>
 *   <li>A 2xx body that is not the API's response shape (not JSON, a proxy's page, an error object, no
 *       {@code choices} / {@code content} / {@code output}, a stream cut before its {@code response.completed}):
 *       retried like a 5xx, because it says nothing about the model.</li>
 *   <li>A well-formed response with a bad tool call (arguments that are not JSON or not an object, no
 *       function name, no arguments): not retried. The call is returned with
 *       {@link brokkr.conversation.ToolCall#malformed()} set: the model's own error, which the episode
 *       answers with an error tool result as upstream benchmarks do. Blank argument text is {@code {}}
 *       and object-valued arguments are accepted (deviations of compatible servers, not of models).</li>
 * </ul>
 */
package brokkr.provider;
