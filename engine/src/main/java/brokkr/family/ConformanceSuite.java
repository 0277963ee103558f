package brokkr.family;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One kind of oracle corpus a family replays: {@code ./brokkr conformance NAME [OPTION VALUE]... --corpus FILE}.
 * The CLI parses the command line (each of {@link #options} and {@code --corpus}, as {@code --flag value} or
 * {@code --flag=value}, all required), checks that the corpus file exists, and calls {@link #replay}; the exit
 * status is 0 iff the replay {@link Replay#passed passed}, 1 otherwise.
 */
public interface ConformanceSuite {
    /** The word after {@code conformance} ({@code tau2}, {@code bfcl-multi-turn}), unique over all families. */
    String name();

    /** The options it needs besides {@code --corpus} ({@code --domain}), each with a value, in the order "missing" errors name them. */
    default List<String> options() {
        return List.of();
    }

    /** Its synopsis after {@code ./brokkr conformance NAME}: {@code --domain DOMAIN --corpus FILE}. */
    String synopsis();

    /** Its paragraph of {@code conformance --help}: what it replays, compares and prints (lines of the help's width). */
    String help();

    /**
     * Replays {@code corpus}: prints what it finds (each mismatch's first difference, a summary line) on
     * {@code out} and timings on {@code err}, and returns the counts. {@code options} holds a value for each of
     * {@link #options}. A bad option value (an unknown domain) is a {@link brokkr.command.Command.UsageException};
     * a corpus that proves nothing (empty, a line that is not a record of the format) is a
     * {@link brokkr.command.Command.InputException} naming the file and line: never a pass.
     */
    Replay replay(Path corpus, Map<String, String> options, PrintStream out, PrintStream err);

    /** What a replay counted: records that differ from upstream's, and records it could not replay at all (skipped). */
    record Replay(long mismatches, long unreplayed) {
        /** No mismatch and nothing skipped. */
        public boolean passed() {
            return mismatches == 0 && unreplayed == 0;
        }
    }
}
