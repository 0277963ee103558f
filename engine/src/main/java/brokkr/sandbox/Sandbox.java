package brokkr.sandbox;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One sandbox JVM for one episode: Java snippets are evaluated in a separate JVM ({@link SandboxAgent}
 * hosting JShell), contained as {@link SandboxConfig.Isolation} says, with the limits of its
 * {@link SandboxConfig}. State (variables, methods, classes) persists across the evaluations of this
 * sandbox and dies with it; a sandbox is never shared by two episodes.
 *
 * <p>Nothing a snippet does fails the harness: a compile error, an exception, an allocation beyond the
 * heap, a timeout, output beyond the cap, {@code System.exit}, a thread left running, garbage on the
 * wire are each an {@link EvalResult} with an error. Where the JVM cannot go on (it ended, it did not
 * stop within a grace period after a timeout, a thread of the snippet outlived it) the sandbox is reset:
 * a fresh JVM, the prelude evaluated again, and the result says that the snippet's state was lost.
 *
 * <p>Not thread-safe: one episode drives it from one thread.
 */
public final class Sandbox implements AutoCloseable {

    /** The harness's side of a tool call made by a snippet; what it throws is the snippet's exception. */
    @FunctionalInterface
    public interface CallHandler {
        String call(String name, Map<String, Object> args);

        CallHandler NONE = (name, args) -> { throw new IllegalArgumentException("no tool named " + name); };
    }

    /**
     * What one evaluation gave: its printed output (up to the cap) and how many characters it printed,
     * the last expression's value (JShell's rendering; null when none), and the error (null when none).
     *
     * @param reset whether the sandbox JVM was replaced after this evaluation (its state is gone)
     */
    public record EvalResult(String output, long outputChars, String value, Error error, boolean reset) {
        public boolean ok() { return error == null; }
    }

    /** Why an evaluation failed: a compile error, an exception, the time limit, the JVM ending, a leftover thread, a broken wire. */
    public record Error(Kind kind, String message) {}

    public enum Kind { COMPILE, EXCEPTION, TIMEOUT, EXITED, LEFTOVER_THREAD, PROTOCOL }

    private static final Object EOF = new Object();
    /**
     * Every sandbox JVM is launched from this one thread, which never ends: bubblewrap's
     * {@code --die-with-parent} (Linux's parent-death signal) fires when the launching <em>thread</em>
     * exits, and an episode's or a pool's thread may end long before its sandbox should.
     */
    private static final ExecutorService LAUNCHER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "sandbox-launcher");
        t.setDaemon(true);
        return t;
    });
    private static final int MAX_LINE = 64 << 20;
    private static final long STOP_GRACE_MS = 2000;

    private final SandboxConfig config;
    private final List<String> prelude = new ArrayList<>();
    private Path dir;
    private Process process;
    private OutputStream toChild;
    private LinkedBlockingQueue<Object> fromChild;
    private long startMillis;
    private int resets;
    private boolean closed;

    private Sandbox(SandboxConfig config) { this.config = config; }

    /** Starts a sandbox JVM and waits until it is ready to evaluate. */
    public static Sandbox start(SandboxConfig config) {
        Sandbox s = new Sandbox(config);
        s.launch();
        return s;
    }

    public SandboxConfig config() { return config; }

    /** How long the last JVM took from launch to ready, in milliseconds. */
    public long startMillis() { return startMillis; }

    /** How many times this sandbox was reset. */
    public int resets() { return resets; }

    /** The episode's scratch folder: the only place a snippet may write (under bubblewrap). */
    public Path scratch() { return dir.resolve("scratch"); }

    /** The JVM's process id (of bubblewrap, when contained by it). */
    public long pid() { return process.pid(); }

    /**
     * Evaluates setup code (e.g. a domain's tool classes) and keeps it to evaluate again after a reset.
     * IllegalStateException when it does not evaluate cleanly: a harness bug, not a snippet's.
     */
    public void prelude(String code, CallHandler calls) {
        EvalResult r = evaluate(code, calls);
        if (!r.ok()) throw new IllegalStateException("sandbox prelude failed: " + r.error().kind() + ": " + r.error().message());
        prelude.add(code);
    }

    /** Evaluates a snippet (one or several statements and declarations), tool calls answered by {@code calls}. */
    public EvalResult evaluate(String code, CallHandler calls) {
        if (closed) throw new IllegalStateException("sandbox closed");
        Map<String, Object> req = new LinkedHashMap<>();
        req.put("op", "eval");
        req.put("code", code);
        req.put("output_cap", config.outputCapChars());
        if (!send(req)) return resetAfter(new Error(Kind.EXITED, exitNote()), "", 0);
        long budget = TimeUnit.MILLISECONDS.toNanos(config.evalTimeout().toMillis());
        boolean stopped = false;
        while (true) {
            long t0 = System.nanoTime();
            Object msg;
            try {
                msg = fromChild.poll(Math.max(budget, 0), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                kill();
                throw new IllegalStateException("interrupted while a snippet ran");
            }
            budget -= System.nanoTime() - t0;
            if (msg == null) {
                if (!stopped) {
                    // JShell's stop: the snippet's thread is stopped at its next safepoint check; the JVM and its state stay.
                    stopped = true;
                    send(Map.of("op", "stop"));
                    budget = TimeUnit.MILLISECONDS.toNanos(STOP_GRACE_MS);
                    continue;
                }
                return resetAfter(new Error(Kind.TIMEOUT, timeoutNote() + "; it did not stop within "
                        + STOP_GRACE_MS / 1000 + " s, so the sandbox JVM was replaced"), "", 0);
            }
            if (msg == EOF) return resetAfter(new Error(Kind.EXITED, exitNote()), "", 0);
            Map<String, Object> m;
            try {
                @SuppressWarnings("unchecked") Map<String, Object> parsed = (Map<String, Object>) MiniJson.parse((String) msg);
                m = parsed;
            } catch (RuntimeException e) {
                return resetAfter(new Error(Kind.PROTOCOL, "the sandbox sent something that is not a protocol message"
                        + " (did the snippet write to the JVM's own standard output?)"), "", 0);
            }
            switch (String.valueOf(m.get("op"))) {
                case "call" -> {
                    Map<String, Object> ret = new LinkedHashMap<>();
                    ret.put("op", "return");
                    try {
                        @SuppressWarnings("unchecked") Map<String, Object> args = m.get("args") instanceof Map<?, ?> a ? (Map<String, Object>) a : Map.of();
                        ret.put("value", calls.call(String.valueOf(m.get("name")), args));
                    } catch (RuntimeException e) {
                        ret.put("error", e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
                    }
                    send(ret);
                }
                case "done" -> {
                    String output = (String) m.get("output");
                    long chars = m.get("output_chars") instanceof Number n ? n.longValue() : 0;
                    String value = (String) m.get("value");
                    if (stopped) return new EvalResult(output, chars, null, new Error(Kind.TIMEOUT, timeoutNote()), false);
                    if (m.get("leftover_threads") instanceof List<?> l && !l.isEmpty()) {
                        return resetAfter(new Error(Kind.LEFTOVER_THREAD, "the snippet left thread(s) running after it returned: " + l
                                + "; a thread may not outlive its evaluation, so the sandbox JVM was replaced"), output, chars);
                    }
                    Error error = null;
                    if (m.get("error") instanceof Map<?, ?> e) {
                        String kind = String.valueOf(e.get("kind"));
                        error = new Error(kind.equals("compile") ? Kind.COMPILE : Kind.EXCEPTION, String.valueOf(e.get("message")));
                    }
                    return new EvalResult(output, chars, value, error, false);
                }
                default -> { return resetAfter(new Error(Kind.PROTOCOL, "unexpected message from the sandbox: " + m.get("op")), "", 0); }
            }
        }
    }

    private String timeoutNote() {
        return "the evaluation was stopped after the wall-time limit of " + config.evalTimeout().toMillis() / 1000.0 + " s";
    }

    private String exitNote() {
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String status = process.isAlive() ? "" : " (exit status " + process.exitValue() + ")";
        return "the sandbox JVM ended during the evaluation" + status + ", e.g. by System.exit or a crash; it was replaced";
    }

    private EvalResult resetAfter(Error error, String output, long chars) {
        kill();
        resets++;
        launch();
        for (String p : prelude) {
            EvalResult r = evaluate(p, CallHandler.NONE);
            if (!r.ok()) throw new IllegalStateException("sandbox prelude failed after a reset: " + r.error().message());
        }
        return new EvalResult(output, chars, null, new Error(error.kind(), error.message()
                + " (variables, methods and classes of earlier snippets are lost)"), true);
    }

    private boolean send(Map<String, ?> m) {
        try {
            toChild.write((MiniJson.write(m) + "\n").getBytes(StandardCharsets.UTF_8));
            toChild.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    // ------------------------------------------------------------------ the child process

    private void launch() {
        long t0 = System.nanoTime();
        try {
            if (dir == null) dir = Files.createTempDirectory("brokkr-sandbox-");
            Files.createDirectories(scratch());
            ProcessBuilder pb = new ProcessBuilder(command(config, scratch()));
            pb.environment().clear(); // API keys and the like stay in the harness
            pb.environment().put("LANG", "C.UTF-8");
            pb.directory(scratch().toFile());
            pb.redirectError(dir.resolve("stderr.log").toFile());
            process = LAUNCHER.submit(pb::start).get();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start a sandbox JVM: " + e.getMessage(), e);
        } catch (ExecutionException e) {
            throw new UncheckedIOException("could not start a sandbox JVM: " + e.getCause().getMessage(),
                    e.getCause() instanceof IOException io ? io : new IOException(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting a sandbox JVM");
        }
        toChild = process.getOutputStream();
        fromChild = new LinkedBlockingQueue<>();
        InputStream in = process.getInputStream();
        LinkedBlockingQueue<Object> q = fromChild;
        Thread reader = new Thread(() -> readLines(in, q), "sandbox-reader-" + process.pid());
        reader.setDaemon(true);
        reader.start();
        Object first;
        try {
            first = q.poll(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
            throw new IllegalStateException("interrupted while starting a sandbox JVM");
        }
        if (!(first instanceof String s) || !s.contains("\"ready\"")) {
            kill();
            throw new IllegalStateException("the sandbox JVM did not start: " + stderrTail());
        }
        startMillis = (System.nanoTime() - t0) / 1_000_000;
    }

    private String stderrTail() {
        try {
            String s = Files.readString(dir.resolve("stderr.log"));
            return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
        } catch (IOException e) {
            return "(no stderr)";
        }
    }

    private static void readLines(InputStream in, LinkedBlockingQueue<Object> q) {
        try (in) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            byte[] buf = new byte[65536];
            int n;
            boolean overlong = false;
            while ((n = in.read(buf)) > 0) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buf[i] != '\n') continue;
                    line.write(buf, start, i - start);
                    q.add(overlong ? "(overlong line)" : line.toString(StandardCharsets.UTF_8));
                    line.reset();
                    overlong = false;
                    start = i + 1;
                }
                if (!overlong) line.write(buf, start, n - start);
                if (line.size() > MAX_LINE) { overlong = true; line.reset(); }
            }
        } catch (IOException e) {
            // the process ended
        }
        q.add(EOF);
    }

    /** The command line of the child JVM, inside bubblewrap when the config says so. */
    static List<String> command(SandboxConfig config, Path scratch) {
        Path javaHome = Path.of(System.getProperty("java.home"));
        Path classes = ownClasses();
        List<String> jvm = new ArrayList<>(List.of(
                javaHome.resolve("bin/java").toString(),
                "-Xmx" + config.heapMb() + "m", "-Xss1m", "-XX:MaxMetaspaceSize=192m",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:ActiveProcessorCount=1", "-XX:-UsePerfData",
                "-Xshare:auto", "-XX:TieredStopAtLevel=1",
                // A launch mechanism the JDK rejects: its process launcher cannot initialize, so no snippet starts a process.
                "-Djdk.lang.Process.launchMechanism=BROKKR_SANDBOX_NO_PROCESSES",
                "--sun-misc-unsafe-memory-access=deny", "--illegal-native-access=deny",
                "-Djava.io.tmpdir=" + scratch, "-Duser.home=" + scratch, "-Duser.dir=" + scratch,
                "-cp", classes.toString(), SandboxAgent.class.getName()));
        if (config.isolation() != SandboxConfig.Isolation.BWRAP) return jvm;
        List<String> cmd = new ArrayList<>(List.of(SandboxConfig.Isolation.BWRAP_PATH.toString(),
                "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"));
        // The dynamic loader and the C library (Debian: /usr/lib, /lib -> usr/lib), the JDK and our classes, read-only.
        for (String sys : List.of("/usr/lib", "/usr/lib64", "/usr/lib32")) bindIfPresent(cmd, Path.of(sys));
        for (String link : List.of("/lib", "/lib64")) {
            Path p = Path.of(link);
            try {
                if (Files.isSymbolicLink(p)) cmd.addAll(List.of("--symlink", Files.readSymbolicLink(p).toString(), link));
                else bindIfPresent(cmd, p);
            } catch (IOException e) {
                // not there: nothing to mount
            }
        }
        if (!javaHome.startsWith("/usr/lib")) bindIfPresent(cmd, javaHome);
        bindIfPresent(cmd, classes);
        Path spawnHelper = javaHome.resolve("lib/jspawnhelper");
        if (Files.exists(spawnHelper)) cmd.addAll(List.of("--ro-bind", "/dev/null", spawnHelper.toString()));
        cmd.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--bind", scratch.toString(), scratch.toString(),
                "--remount-ro", "/", "--chdir", scratch.toString()));
        cmd.addAll(jvm);
        return cmd;
    }

    private static void bindIfPresent(List<String> cmd, Path p) {
        if (Files.exists(p)) cmd.addAll(List.of("--ro-bind", p.toString(), p.toString()));
    }

    /** Where {@link SandboxAgent} is loaded from (the engine's jar or classes folder): the child's whole class path. */
    static Path ownClasses() {
        try {
            return Path.of(SandboxAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private void kill() {
        if (process == null) return;
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the JVM and deletes the scratch folder. */
    @Override public void close() {
        if (closed) return;
        closed = true;
        kill();
        if (dir != null) {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // best effort: a temp folder
            }
        }
    }
}
