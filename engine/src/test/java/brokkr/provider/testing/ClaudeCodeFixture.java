package brokkr.provider.testing;

import brokkr.provider.claudecode.ClaudeCli;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The pinned Claude Code CLI for tests ({@code tools/claude-code/install.sh} puts it in the project). Missing:
 * the test fails under CI (the {@code CI} variable set: {@code .ci/run} installs it, so its absence is a
 * broken build) and is skipped elsewhere.
 */
public final class ClaudeCodeFixture {
    private ClaudeCodeFixture() {}

    public static ClaudeCli cli() {
        var found = ClaudeCli.find();
        if (found.isEmpty()) {
            String why = "the Claude Code CLI is not installed: run tools/claude-code/install.sh";
            String ci = System.getenv("CI");
            if (ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false")) Assertions.fail(why);
            Assumptions.abort(why);
        }
        return found.get();
    }
}
