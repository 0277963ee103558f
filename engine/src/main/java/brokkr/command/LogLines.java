package brokkr.command;

import java.util.function.Consumer;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The process's log records (a provider's retry warnings, through {@code System.Logger}) as one line each,
 * {@code brokkr: warning: MESSAGE}, handed to whoever shows output now: plain stderr by default, a progress
 * display while one is drawn (it clears its bar before the line, so the line and the bar never share one).
 * Java logging's default prints two lines per record (a timestamp and class line, then the message), which
 * broke the progress bar and the tables printed after it.
 */
public final class LogLines {
    private LogLines() {}

    private static final Consumer<String> STDERR = line -> System.err.println(line);
    private static volatile Consumer<String> sink = STDERR;

    /** Replaces the root logger's handlers with one that prints a record as one line to the current sink. */
    public static void install() {
        Logger root = LogManager.getLogManager().getLogger("");
        for (Handler h : root.getHandlers()) root.removeHandler(h);
        Handler one = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (isLoggable(r)) sink.accept(getFormatter().format(r));
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        one.setLevel(Level.INFO);
        one.setFormatter(FORMAT);
        root.addHandler(one);
    }

    /** One line: the level as a word, the message with its parameters, a thrown exception's own line. */
    static final Formatter FORMAT = new Formatter() {
        @Override
        public String format(LogRecord r) {
            String level = r.getLevel().intValue() >= Level.SEVERE.intValue()
                    ? "error"
                    : r.getLevel().intValue() >= Level.WARNING.intValue() ? "warning" : "note";
            String message = formatMessage(r);
            if (r.getThrown() != null) message += ": " + r.getThrown();
            return "brokkr: " + level + ": " + message.replaceAll("\\s*[\\r\\n]+\\s*", " ");
        }
    };

    /**
     * Routes the lines to {@code display} until the returned handle is closed (a progress bar: it clears
     * its line first); closing it restores plain stderr.
     */
    public static AutoCloseable through(Consumer<String> display) {
        sink = display;
        return () -> sink = STDERR;
    }

    /** The line a record gives (for tests and displays that print it themselves). */
    public static String format(LogRecord r) {
        return FORMAT.format(r);
    }
}
