package brokkr.eval;

import brokkr.conversation.Candidate;

/**
 * Makes a {@link Candidate} for a model of one provider ({@code openai}, {@code anthropic}, a scripted
 * policy). Found by {@link #provider()} through {@code ServiceLoader<ModelFactory>} or an explicit
 * registry. A candidate may be used from several threads at once and must be safe for that.
 */
public interface ModelFactory {
    String provider();

    Candidate create(ModelRef model);
}
