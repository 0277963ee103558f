package brokkr.command;

import java.io.PrintStream;
import java.util.List;

/**
 * One CLI command ({@code ./brokkr NAME ...}). {@link #run} returns the process exit code; a bad
 * argument throws {@link UsageException}, which {@link Main} turns into its message, the command's
 * synopsis and exit 2; a bad input that is not about the command line's shape (a file that cannot be
 * read or written, a model provider that is not configured) throws {@link InputException}: its message
 * and exit 2. Any other exception is a runtime error: its message (with its causes), exit 1.
 */
public interface Command {
    /** Exit status of a run in which some episodes (cells) have no verdict: infrastructure failures, harness errors. */
    int EXIT_NO_VERDICT = 3;

    String name();
    /** One line for {@code --help}. */
    String summary();
    /** Full usage text. */
    String usage();

    int run(List<String> args, PrintStream out, PrintStream err) throws Exception;

    class UsageException extends RuntimeException {
        public UsageException(String message) {
            super(message);
        }
    }

    /** Exit 2 without the synopsis: the command line was well formed, but what it names is not usable. */
    final class InputException extends UsageException {
        public InputException(String message) {
            super(message);
        }
    }
}
