package brokkr.cli;

import java.io.PrintStream;
import java.util.List;

/**
 * One CLI command ({@code ./brokkr NAME ...}). {@link #run} returns the process exit code; a bad
 * argument throws {@link UsageException}, which the launcher turns into the usage text and exit 2.
 */
public interface Command {
    String name();
    /** One line for {@code --help}. */
    String summary();
    /** Full usage text. */
    String usage();
    int run(List<String> args, PrintStream out, PrintStream err) throws Exception;

    final class UsageException extends RuntimeException {
        public UsageException(String message) { super(message); }
    }
}
