package brokkr.kernel;

import java.util.regex.Pattern;

/**
 * JShell's names for cell code, as the user wrote them: JShell compiles each snippet into a wrapper class
 * {@code REPL.$JShell$N}, so a class {@code Foo} declared in a cell is {@code REPL.$JShell$16$Foo}, a
 * variable {@code f} is {@code REPL.$JShell$24.f}, cell classes live in JShell's
 * {@code DefaultLoaderDelegate$RemoteClassLoader}, and javac's diagnostics end with an empty
 * {@code location: class} where it scrubbed the wrapper itself. Messages, exception names and values
 * shown to the user go through {@link #scrub}.
 */
final class JShellNames {
    private JShellNames() {}

    private static final Pattern MEMBER = Pattern.compile("REPL\\.\\$JShell\\$\\d+[.$]");
    private static final Pattern WRAPPER = Pattern.compile("REPL\\.\\$JShell\\$\\d+");
    private static final Pattern LOADER = Pattern.compile(
            "(?:of )?loader jdk\\.jshell\\.execution\\.DefaultLoaderDelegate\\$RemoteClassLoader @[0-9a-f]+");
    private static final Pattern EMPTY_LOCATION = Pattern.compile("(?m)^\\s*location: class\\s*$\\n?");

    /** The text with cell classes and members under their own names and JShell's empty locations dropped. */
    static String scrub(String s) {
        if (s == null || (s.indexOf("REPL.") < 0 && s.indexOf("location:") < 0 && s.indexOf("jdk.jshell") < 0))
            return s;
        String t = MEMBER.matcher(s).replaceAll("");
        t = WRAPPER.matcher(t).replaceAll("cell");
        t = LOADER.matcher(t).replaceAll("of the cells' class loader");
        t = EMPTY_LOCATION.matcher(t).replaceAll("");
        return t.stripTrailing();
    }

    /** Whether a stack frame's class is JShell's machinery around cell code (the stop check it weaves in). */
    static boolean machinery(String className) {
        return className.startsWith("REPL.$Cancel$");
    }
}
