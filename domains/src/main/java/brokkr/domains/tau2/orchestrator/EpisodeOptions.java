package brokkr.domains.tau2.orchestrator;

/**
 * Orchestrator settings, upstream's defaults ({@code src/tau2/config.py}): 200 steps, 10 tool errors,
 * {@code enforce_communication_protocol} off.
 *
 * @param enforceCommunicationProtocol upstream's {@code validate_communication}: after every step a
 *        message with both text and tool calls, or neither, ends the episode as an agent (user) error.
 *        Off, a message with both goes to the environment and the user never sees its text.
 */
public record EpisodeOptions(int maxSteps, int maxErrors, boolean enforceCommunicationProtocol) {
    public static final EpisodeOptions DEFAULT = new EpisodeOptions(200, 10, false);

    public EpisodeOptions {
        if (maxSteps < 1) throw new IllegalArgumentException("maxSteps must be at least 1");
        if (maxErrors < 1) throw new IllegalArgumentException("maxErrors must be at least 1");
    }

    public EpisodeOptions withEnforcedProtocol(boolean on) {
        return new EpisodeOptions(maxSteps, maxErrors, on);
    }

    public EpisodeOptions withMaxSteps(int n) {
        return new EpisodeOptions(n, maxErrors, enforceCommunicationProtocol);
    }

    public EpisodeOptions withMaxErrors(int n) {
        return new EpisodeOptions(maxSteps, n, enforceCommunicationProtocol);
    }
}
