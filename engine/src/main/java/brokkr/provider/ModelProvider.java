package brokkr.provider;

import brokkr.conversation.Candidate;

/**
 * A model behind some API, usable wherever a {@link Candidate} is: {@code next} returns the assistant
 * message and every attempt's {@link brokkr.conversation.ModelCall} with the exact request body.
 * Implementations: {@link HttpProvider} (OpenAI-compatible, OpenAI Responses, Anthropic) and {@link ScriptedCandidate}.
 */
public interface ModelProvider extends Candidate {
    /** The provider name recorded in each ModelCall ({@code openai}, {@code openai-responses}, {@code anthropic}, {@code scripted}). */
    String provider();

    String model();
}
