package brokkr.sandbox;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
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
 * The main class of a sandbox JVM (started by {@link Sandbox}, never in the harness's JVM). It hosts
 * one JShell with local execution, so snippets run in this JVM and their state (variables, classes)
 * lasts as long as it does: one episode. It speaks JSON lines on its original stdin/stdout; snippets'
 * {@code System.out} and {@code System.err} go to a capped capture instead.
 *
 * <p>Messages in: {@code eval {code, output_cap}}, {@code stop} (JShell's stop of the running
 * evaluation), {@code return {value | error}} (the harness's answer to a tool call). Out: {@code ready},
 * {@code call {name, args}} (from {@link SandboxBridge}), {@code done {output, output_chars, value, error,
 * leftover_threads}}.
 */
public final class SandboxAgent {
    private static PrintStream wire;
    private static final BlockingQueue<Map<String, Object>> returns = new SynchronousQueue<>();
    private static final BlockingQueue<Map<String, Object>> evals = new LinkedBlockingQueue<>();
    private static final Capture capture = new Capture();

    private SandboxAgent() {}

    public static void main(String[] args) throws Exception {
        wire = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8));
        PrintStream captured = new PrintStream(capture, true, StandardCharsets.UTF_8);
        System.setOut(captured);
        System.setErr(captured);
        System.setIn(new java.io.ByteArrayInputStream(new byte[0]));
        lockProcessLauncher();
        JShell js = JShell.builder().executionEngine("local").out(captured).err(captured).build();
        js.addToClasspath(System.getProperty("java.class.path"));
        Thread reader = new Thread(() -> read(in, js), "sandbox-wire");
        reader.setDaemon(true);
        reader.start();
        // The imports JShell's own tool starts with; then the compiler's first use, its slowest, before the first evaluation.
        evaluate(js, "import java.util.*; import java.util.function.*; import java.util.stream.*; import java.math.*; "
                + "import java.util.regex.*; import java.time.*; 1 + 1", 0);
        send(Map.of("op", "ready"));
        while (true) {
            Map<String, Object> m = evals.take();
            if (m.get("code") == null) return;
            Object cap = m.get("output_cap");
            send(evaluate(js, (String) m.get("code"), cap instanceof Number n ? n.intValue() : 65536));
        }
    }

    /**
     * Initializes the JDK's process launcher while the launch mechanism is the one the harness set on
     * the command line ({@code -Djdk.lang.Process.launchMechanism}): it is read once, into a static
     * final field, so a snippet setting the property later changes nothing. The harness sets a value
     * the JDK rejects, so the launcher's class fails to initialize and no snippet can start a process.
     */
    private static void lockProcessLauncher() {
        try {
            new ProcessBuilder("/brokkr-sandbox-no-such-program").start().destroy();
        } catch (IOException | Error | RuntimeException expected) {
            // The launcher is now initialized (or permanently failed to): what we wanted.
        }
    }

    private static void read(BufferedReader in, JShell js) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                @SuppressWarnings("unchecked") Map<String, Object> m = (Map<String, Object>) MiniJson.parse(line);
                switch (String.valueOf(m.get("op"))) {
                    case "eval" -> evals.put(m);
                    case "stop" -> js.stop();
                    case "return" -> returns.put(m);
                    default -> { }
                }
            }
        } catch (Exception e) {
            // the harness went away: end
        }
        Runtime.getRuntime().halt(0);
    }

    static synchronized void send(Map<String, ?> m) {
        wire.print(MiniJson.write(m));
        wire.print('\n');
        wire.flush();
    }

    /** A tool call to the harness; blocks until it answers. */
    static String call(String name, Map<String, Object> args) {
        synchronized (SandboxAgent.class) {
            if (wire == null) throw new IllegalStateException("not in a sandbox");
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("op", "call");
            m.put("name", name);
            m.put("args", args);
            send(m);
            Map<String, Object> r;
            try {
                r = returns.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + name);
            }
            if (r.get("error") != null) throw new IllegalArgumentException(String.valueOf(r.get("error")));
            return (String) r.get("value");
        }
    }

    static Map<String, Object> evaluate(JShell js, String code, int outputCap) {
        capture.begin(outputCap);
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        Map<String, Object> done = new LinkedHashMap<>();
        done.put("op", "done");
        String value = null;
        Map<String, Object> error = null;
        SourceCodeAnalysis sca = js.sourceCodeAnalysis();
        String rest = code;
        try {
            while (error == null && !rest.isBlank()) {
                SourceCodeAnalysis.CompletionInfo ci = sca.analyzeCompletion(rest);
                String source;
                switch (ci.completeness()) {
                    case COMPLETE, COMPLETE_WITH_SEMI -> { source = ci.source(); rest = ci.remaining(); }
                    case EMPTY -> { source = null; rest = ""; }
                    default -> { source = rest; rest = ""; }
                }
                if (source == null) break;
                value = null;
                for (SnippetEvent e : js.eval(source)) {
                    if (e.causeSnippet() != null) continue; // a dependent snippet's update, not this one
                    Snippet s = e.snippet();
                    if (e.status() == Snippet.Status.REJECTED) {
                        error = compileError(js, s);
                    } else if (e.exception() != null) {
                        error = exception(e.exception());
                    } else if (e.value() != null && (s instanceof ExpressionSnippet || s instanceof VarSnippet)) {
                        value = e.value();
                    }
                    if (e.status() == Snippet.Status.RECOVERABLE_DEFINED || e.status() == Snippet.Status.RECOVERABLE_NOT_DEFINED) {
                        List<String> missing = js.unresolvedDependencies((jdk.jshell.DeclarationSnippet) s).toList();
                        capture.note("(declared; it refers to " + String.join(", ", missing) + ", which is not defined yet)\n");
                    }
                }
            }
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            error = Map.of("kind", "internal", "message", String.valueOf(e));
        }
        List<String> leftover = leftoverThreads(before);
        done.put("output", capture.text());
        done.put("output_chars", capture.total());
        done.put("value", value);
        done.put("error", error);
        done.put("leftover_threads", leftover);
        return done;
    }

    /** Threads a snippet started that are still alive shortly after it returned. */
    private static List<String> leftoverThreads(Set<Thread> before) {
        List<String> out = new ArrayList<>();
        for (int attempt = 0; attempt < 5; attempt++) {
            out.clear();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (!before.contains(t) && t.isAlive() && !t.getName().startsWith("JShell") && !isJdkThread(t)) out.add(t.getName());
            }
            if (out.isEmpty()) return out;
            try { Thread.sleep(20); } catch (InterruptedException e) { break; }
        }
        return out;
    }

    private static boolean isJdkThread(Thread t) {
        ThreadGroup g = t.getThreadGroup();
        return g != null && g.getName().equals("system") && t.isDaemon() && !t.getName().startsWith("Thread-");
    }

    private static Map<String, Object> compileError(JShell js, Snippet s) {
        StringBuilder b = new StringBuilder();
        String src = s.source();
        for (Diag d : js.diagnostics(s).toList()) {
            if (!d.isError()) continue;
            long pos = d.getStartPosition();
            int line = 1;
            for (int i = 0; i < pos && i < src.length(); i++) if (src.charAt(i) == '\n') line++;
            b.append("line ").append(line).append(": ").append(d.getMessage(null)).append('\n');
            String[] lines = src.split("\n", -1);
            if (line - 1 < lines.length) b.append("    ").append(lines[line - 1].strip()).append('\n');
        }
        if (b.isEmpty()) b.append("the snippet was rejected: ").append(src.strip());
        return Map.of("kind", "compile", "message", b.toString().strip());
    }

    private static Map<String, Object> exception(Exception e) {
        StringBuilder b = new StringBuilder();
        if (e instanceof EvalException ee) {
            b.append(ee.getExceptionClassName());
            if (ee.getMessage() != null) b.append(": ").append(ee.getMessage());
            int shown = 0;
            for (StackTraceElement el : ee.getStackTrace()) {
                if (shown++ >= 4) { b.append("\n    ..."); break; }
                b.append("\n    at ").append(el);
            }
            return Map.of("kind", "exception", "message", b.toString());
        }
        if (e instanceof UnresolvedReferenceException ure) {
            return Map.of("kind", "unresolved", "message", "the snippet uses " + ure.getSnippet().source().strip() + ", which refers to something not defined");
        }
        return Map.of("kind", "exception", "message", String.valueOf(e));
    }

    /** Snippets' output: kept up to the cap, counted beyond it (so 100 MB of output costs no memory). */
    static final class Capture extends OutputStream {
        private byte[] buf = new byte[8192];
        private int len;
        private long total;
        private int cap = 65536;

        synchronized void begin(int cap) { this.cap = cap; len = 0; total = 0; }

        synchronized void note(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            write(b, 0, b.length);
        }

        @Override public synchronized void write(int b) {
            total++;
            if (len < cap) { ensure(1); buf[len++] = (byte) b; }
        }

        @Override public synchronized void write(byte[] b, int off, int n) {
            total += n;
            int keep = (int) Math.min(n, Math.max(0, cap - len));
            if (keep > 0) { ensure(keep); System.arraycopy(b, off, buf, len, keep); len += keep; }
        }

        private void ensure(int more) {
            if (len + more > buf.length) buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }

        synchronized String text() { return new String(buf, 0, len, StandardCharsets.UTF_8); }
        synchronized long total() { return total; }
    }
}
