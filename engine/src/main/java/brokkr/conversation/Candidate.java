package brokkr.conversation;

import java.util.List;

/**
 * Anything that answers a conversation: a model behind a provider, or a scripted policy. Given the
 * history (system prompt first) and the tools on offer, it produces the next assistant message.
 * Providers that exhaust their retries throw {@link InfrastructureFailure}: an infrastructure fault,
 * recorded and excluded from scores, never a model failure.
 */
@FunctionalInterface
public interface Candidate {
    Turn next(List<Message> history, List<ToolSpec> tools) throws InfrastructureFailure;

    /**
     * The base URL this model is reached at, for the record of every attempt (scheme, host, port and
     * path only: never credentials, a query or a fragment); null for a model reached at no URL (a
     * scripted one). A wrapper (a gate, a cache) answers its model's.
     */
    default String baseUrl() {
        return null;
    }

    /**
     * The model under any wrappers (a gate, a recorder): what a harness that runs the model's own program rather
     * than calling {@link #next} (the Claude Code CLI's loop) starts. A wrapper answers its model's.
     */
    default Candidate unwrapped() {
        return this;
    }

    /**
     * Notes model calls made on this candidate's behalf outside {@link #next} (a turn of the Claude Code CLI's own
     * loop), as if {@code next} had made them: a recorder records them and their usage with the attempt. A wrapper
     * passes them on; a model itself has nothing to note.
     */
    default void noteCalls(List<ModelCall> calls, Usage usage) {}

    /**
     * Takes what a call of this model made outside {@link #next} holds while it runs (a permit of its provider's
     * concurrency gate, its rate-limit slot): a harness that runs the model's own program (a turn of the Claude Code
     * CLI's loop) holds it for the turn, so the run's provider limits bind it as they bind {@code next}. A wrapper
     * passes it on; a model without limits gives a permit that holds nothing.
     */
    default Permit acquire() {
        return Permit.NONE;
    }

    /** What {@link #acquire} took, given back by {@link #close}. */
    @FunctionalInterface
    interface Permit extends AutoCloseable {
        Permit NONE = () -> {};

        @Override
        void close();
    }
}
