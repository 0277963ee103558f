package brokkr.sandbox;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import jdk.jshell.DeclarationSnippet;
import jdk.jshell.Diag;
import jdk.jshell.EvalException;
import jdk.jshell.ExpressionSnippet;
import jdk.jshell.JShell;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.UnresolvedReferenceException;
import jdk.jshell.VarSnippet;

/**
 * The harness's side of one evaluation: the code is cut into JShell snippets and each compiled here,
 * by the sandbox's JShell, and executed in the sandbox JVM; the result is the last expression's value
 * or the first error, in the words a model is shown.
 */
final class Snippets {
    private Snippets() {}

    /** An evaluation's value (JShell's rendering, null when none) or error (null when none). */
    record Outcome(String value, Kind kind, String message) {
        enum Kind {
            COMPILE,
            EXCEPTION,
            INTERNAL
        }

        static Outcome internal(Throwable t) {
            return new Outcome(null, Kind.INTERNAL, String.valueOf(t));
        }
    }

    static Outcome evaluate(JShell js, String code, Capture capture) {
        String value = null;
        SourceCodeAnalysis sca = js.sourceCodeAnalysis();
        String rest = code;
        while (!rest.isBlank()) {
            SourceCodeAnalysis.CompletionInfo ci = sca.analyzeCompletion(rest);
            String source;
            switch (ci.completeness()) {
                case COMPLETE, COMPLETE_WITH_SEMI -> {
                    source = ci.source();
                    rest = ci.remaining();
                }
                case EMPTY -> {
                    source = null;
                    rest = "";
                }
                default -> {
                    source = rest;
                    rest = "";
                }
            }
            if (source == null) break;
            value = null;
            for (SnippetEvent e : js.eval(source)) {
                if (e.causeSnippet() != null) continue; // a dependent snippet's update, not this one
                Snippet s = e.snippet();
                if (e.status() == Snippet.Status.REJECTED) return compileError(js, s);
                if (e.exception() != null) return exception(e.exception());
                if (e.value() != null && (s instanceof ExpressionSnippet || s instanceof VarSnippet)) value = e.value();
                if (e.status() == Snippet.Status.RECOVERABLE_DEFINED
                        || e.status() == Snippet.Status.RECOVERABLE_NOT_DEFINED) {
                    List<String> missing =
                            js.unresolvedDependencies((DeclarationSnippet) s).toList();
                    capture.note(
                            "(declared; it refers to " + String.join(", ", missing) + ", which is not defined yet)\n");
                }
            }
        }
        return new Outcome(value, null, null);
    }

    private static Outcome compileError(JShell js, Snippet s) {
        StringBuilder b = new StringBuilder();
        String src = s.source();
        for (Diag d : js.diagnostics(s).toList()) {
            if (!d.isError()) continue;
            long pos = d.getStartPosition();
            int line = 1;
            for (int i = 0; i < pos && i < src.length(); i++) if (src.charAt(i) == '\n') line++;
            b.append("line ")
                    .append(line)
                    .append(": ")
                    .append(d.getMessage(null))
                    .append('\n');
            String[] lines = src.split("\n", -1);
            if (line - 1 < lines.length)
                b.append("    ").append(lines[line - 1].strip()).append('\n');
        }
        if (b.isEmpty()) b.append("the snippet was rejected: ").append(src.strip());
        return new Outcome(null, Outcome.Kind.COMPILE, b.toString().strip());
    }

    private static Outcome exception(Exception e) {
        if (e instanceof EvalException ee) {
            StringBuilder b = new StringBuilder(ee.getExceptionClassName());
            if (ee.getMessage() != null) b.append(": ").append(ee.getMessage());
            int shown = 0;
            for (StackTraceElement el : ee.getStackTrace()) {
                if (shown++ >= 4) {
                    b.append("\n    ...");
                    break;
                }
                b.append("\n    at ").append(el);
            }
            return new Outcome(null, Outcome.Kind.EXCEPTION, b.toString());
        }
        if (e instanceof UnresolvedReferenceException ure) {
            return new Outcome(
                    null,
                    Outcome.Kind.EXCEPTION,
                    "the snippet uses " + ure.getSnippet().source().strip()
                            + ", which refers to something not defined");
        }
        return new Outcome(null, Outcome.Kind.EXCEPTION, String.valueOf(e));
    }

    /** Snippets' output: kept up to the cap, counted beyond it (so 100 MB of output costs no memory). */
    static final class Capture extends OutputStream {
        private byte[] buf = new byte[8192];
        private int len;
        private long total;
        private int cap = 65536;

        synchronized void begin(int cap) {
            this.cap = cap;
            len = 0;
            total = 0;
        }

        synchronized void note(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            write(b, 0, b.length);
        }

        @Override
        public synchronized void write(int b) {
            total++;
            if (len < cap) {
                ensure(1);
                buf[len++] = (byte) b;
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int n) {
            total += n;
            int keep = (int) Math.min(n, Math.max(0, cap - len));
            if (keep > 0) {
                ensure(keep);
                System.arraycopy(b, off, buf, len, keep);
                len += keep;
            }
        }

        /** Output the sandbox counted but did not send (beyond the cap). */
        synchronized void skipped(long n) {
            total += n;
        }

        private void ensure(int more) {
            if (len + more > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }

        synchronized String text() {
            return new String(buf, 0, len, StandardCharsets.UTF_8);
        }

        synchronized long total() {
            return total;
        }
    }
}
