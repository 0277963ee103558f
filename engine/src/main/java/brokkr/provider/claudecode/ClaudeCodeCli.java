package brokkr.provider.claudecode;

/**
 * A candidate that is the Claude Code CLI with a model ({@code claude-code:MODEL}), as {@code harness: claude-code}
 * needs it: how to launch it for an agent session. {@link ClaudeCodeProvider} is one; the harness adds the session's
 * own flags (MCP config, stream-json input, its system prompt, the turn limit).
 */
public interface ClaudeCodeCli {
    String provider();

    String model();

    /** A launch of the CLI with its model, credential, base URL and a config directory of its own set. */
    ClaudeLaunch.Builder launch();

    /**
     * What one turn of a session read: every usage window its {@code rate_limit_event}s reported goes to the run's
     * {@link brokkr.run.UsageWindows} (so the runner pauses before its next cell), and a turn the subscription's
     * window refused ({@link StreamJson.ErrorKind#USAGE_LIMIT}) is reported as refused; then the failure's text holds
     * {@link brokkr.run.UsageWindows#REFUSED} (the runner re-runs the cell after the reset, scoring nothing of it).
     * Returns that text, or null when the turn was not refused.
     */
    default String usageWindows(StreamJson.Reader turn) {
        return null;
    }
}
