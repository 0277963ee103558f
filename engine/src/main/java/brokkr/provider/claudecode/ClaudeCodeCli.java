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
}
