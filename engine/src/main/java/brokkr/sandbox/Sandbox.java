package brokkr.sandbox;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import jdk.jshell.JShell;
import jdk.jshell.spi.ExecutionControl;
import jdk.jshell.spi.ExecutionControlProvider;
import jdk.jshell.spi.ExecutionEnv;

/**
 * One sandbox JVM for one episode: Java snippets are executed in a separate JVM ({@link SandboxAgent},
 * JShell's execution side), contained as {@link SandboxConfig.Isolation} says, with the limits of its
 * {@link SandboxConfig}. JShell's remote execution: the snippets are compiled here, in the harness, by a
 * JShell of this sandbox's own (compiling runs none of the snippet's code), and their classes are
 * defined and run in the sandbox JVM. State (variables, methods, classes) persists across the
 * evaluations of this sandbox and dies with it; a sandbox is never shared by two episodes.
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

        CallHandler NONE = (name, args) -> {
            throw new IllegalArgumentException("no tool named " + name);
        };
    }

    /**
     * What one evaluation gave: its printed output (up to the cap) and how many characters it printed,
     * the last expression's value (JShell's rendering; null when none), and the error (null when none).
     *
     * @param reset whether the sandbox JVM was replaced after this evaluation (its state is gone)
     */
    public record EvalResult(String output, long outputChars, String value, Error error, boolean reset) {
        public boolean ok() {
            return error == null;
        }
    }

    /** Why an evaluation failed: a compile error, an exception, the time limit, the JVM ending, a leftover thread, a broken wire. */
    public record Error(Kind kind, String message) {}

    public enum Kind {
        COMPILE,
        EXCEPTION,
        TIMEOUT,
        EXITED,
        LEFTOVER_THREAD,
        PROTOCOL
    }

    /** The imports JShell's own tool starts with: what a model writing Java expects in scope. */
    static final String IMPORTS =
            "import java.util.*; import java.util.function.*; import java.util.stream.*; import java.math.*; "
                    + "import java.util.regex.*; import java.time.*;";

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

    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sandbox-start-watchdog");
        t.setDaemon(true);
        return t;
    });
    /** The frame keys, one per sandbox JVM. */
    private static final java.security.SecureRandom KEYS = new java.security.SecureRandom();

    private static final long STOP_GRACE_MS = 2000;
    private static final long START_LIMIT_S = 60;
    private static final Object EOF = new Object();
    /** The end of a JVM's responses (compared by identity). */
    private static final byte[] END = new byte[0];

    private final SandboxConfig config;
    private final SandboxImage image;
    private final List<String> extraFlags;
    /** The preludes, in order, to evaluate again after a reset. */
    private final List<Prelude> prelude = new ArrayList<>();

    private Path dir;
    private Jvm jvm;
    private long startMillis;
    private int resets;
    private boolean closed;

    private Sandbox(SandboxConfig config, SandboxImage image, List<String> extraFlags) {
        this.config = config;
        this.image = image;
        this.extraFlags = extraFlags;
    }

    /**
     * Starts a sandbox JVM and waits until it is ready to evaluate. IllegalStateException when it should be
     * contained by bubblewrap and bubblewrap does not work here (never a silent fallback to a plain
     * process); a plain process, when asked for, is warned about once per harness process.
     */
    public static Sandbox start(SandboxConfig config) {
        return start(config, SandboxImage.get());
    }

    /** Starts a sandbox JVM from {@code image} (e.g. {@link SandboxImage#withoutAotCache()}, to measure what the cache saves). */
    public static Sandbox start(SandboxConfig config, SandboxImage image) {
        if (config.isolation() == SandboxConfig.Isolation.BWRAP && !SandboxConfig.Isolation.bwrapWorks())
            throw new IllegalStateException("bubblewrap (" + SandboxConfig.Isolation.bwrapPath()
                    + ") does not work here, and snippets are never run uncontained without being asked: install"
                    + " bubblewrap, or ask for a plain process with harness_options {sandbox: process} (JVM limits"
                    + " only: no file-system, network or process-table containment)");
        if (config.isolation() == SandboxConfig.Isolation.PROCESS) {
            // A plain process shares the harness's /proc: the harness's own files there become unreadable to it (the
            // AOT training run, the harness's own code, is started without this).
            Uncontained.warnOnce(SandboxLimits.hideHarness());
        }
        return start(config, image, List.of());
    }

    /** The warning for sandboxes run as plain processes, once per harness process (each attempt records the option). */
    private static final class Uncontained {
        private static final java.util.concurrent.atomic.AtomicBoolean WARNED =
                new java.util.concurrent.atomic.AtomicBoolean();

        static void warnOnce(String notHidden) {
            if (WARNED.compareAndSet(false, true))
                System.getLogger("brokkr.sandbox")
                        .log(
                                System.Logger.Level.WARNING,
                                "sandbox: process: snippets run in a plain JVM process without bubblewrap (no"
                                        + " file-system, network or process-table containment; JVM limits only)"
                                        + (notHidden == null
                                                ? ""
                                                : "; the harness's /proc files stay readable to them: " + notHidden));
        }
    }

    /** Starts a sandbox; a start that fails leaves nothing behind (its JVM, its temporary folder, its task group). */
    static Sandbox start(SandboxConfig config, SandboxImage image, List<String> extraFlags) {
        Sandbox s = new Sandbox(config, image, extraFlags);
        try {
            s.launch();
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    public SandboxConfig config() {
        return config;
    }

    /** How long the last JVM took from launch to ready (the imports evaluated and its first command answered), in milliseconds. */
    public long startMillis() {
        return startMillis;
    }

    /** How many times this sandbox was reset. */
    public int resets() {
        return resets;
    }

    /**
     * The episode's scratch folder: the only place a snippet may write. Under bubblewrap the snippet sees a
     * tmpfs of {@value SandboxLimits#SCRATCH_BYTES} bytes at this path, and the harness's folder of that name
     * stays empty; in a plain process it is this folder.
     */
    public Path scratch() {
        return dir.resolve("scratch");
    }

    /** The JVM's process id (of bubblewrap, when contained by it). */
    public long pid() {
        return jvm.process.pid();
    }

    /** CPU time the current sandbox JVM (with bubblewrap, when contained by it) has used so far, in milliseconds. */
    public long cpuMillis() {
        Process p = jvm.process;
        return Stream.concat(Stream.of(p.toHandle()), p.descendants())
                .mapToLong(
                        h -> h.info().totalCpuDuration().map(Duration::toMillis).orElse(0L))
                .sum();
    }

    /**
     * Evaluates setup code (e.g. a domain's tool classes) and keeps it to evaluate again after a reset.
     * IllegalStateException when it does not evaluate cleanly: a harness bug, not a snippet's.
     */
    public void prelude(String code, CallHandler calls) {
        if (closed) throw new IllegalStateException("sandbox closed");
        Prelude p = new Prelude(
                code,
                (precompiling()
                                ? PreludeClass.of(code, image.jar())
                                : java.util.Optional.<PreludeClass.Compiled>empty())
                        .filter(c -> !jvm.preludes.contains(c.className()))
                        .orElse(null));
        EvalResult r = install(p, calls);
        if (!r.ok())
            throw new IllegalStateException("sandbox prelude failed: "
                    + r.error().kind() + ": " + r.error().message());
        prelude.add(p);
    }

    /**
     * Whether preludes are compiled as one class ({@link PreludeClass}); {@code -Dbrokkr.sandbox.precompile=false}
     * evaluates them as JShell snippets, one compile per declaration (what {@code bench sandbox} compares).
     */
    static boolean precompiling() {
        return !"false".equals(System.getProperty("brokkr.sandbox.precompile"));
    }

    /** A prelude's source and, when it compiled as one class ({@link PreludeClass}), that class (else null: JShell snippets). */
    private record Prelude(String code, PreludeClass.Compiled compiled) {}

    /**
     * Evaluates a prelude in the current JVM: its JShell snippets, or its precompiled class loaded, imported and
     * initialized (its static initializers run now, as a JShell prelude's variables were initialized at once).
     */
    private EvalResult install(Prelude p, CallHandler calls) {
        if (p.compiled() == null) return evaluate(p.code(), calls);
        PreludeClass.Compiled c = p.compiled();
        Jvm j = jvm;
        Run r = run(
                j,
                () -> {
                    j.classPath.add(c);
                    j.preludes.add(c.className());
                    ExecutionControl.ClassBytecodes[] classes = c.classes().entrySet().stream()
                            .map(e -> new ExecutionControl.ClassBytecodes(e.getKey(), e.getValue()))
                            .toArray(ExecutionControl.ClassBytecodes[]::new);
                    try {
                        j.control.load(classes);
                    } catch (ExecutionControl.ClassInstallException e) {
                        return new Snippets.Outcome(
                                null,
                                Snippets.Outcome.Kind.EXCEPTION,
                                "the prelude's classes did not load: " + e.getMessage());
                    } catch (ExecutionControl.ExecutionControlException e) {
                        return Snippets.Outcome.internal(e);
                    }
                    Snippets.Outcome imported = Snippets.evaluate(j.js, c.importSnippet(), j.capture);
                    if (imported.kind() != null) return imported;
                    try {
                        j.control.invoke(c.className(), PreludeClass.INIT);
                    } catch (ExecutionControl.UserException e) {
                        return new Snippets.Outcome(
                                null, Snippets.Outcome.Kind.EXCEPTION, e.causeExceptionClass() + ": " + e.getMessage());
                    } catch (ExecutionControl.RunException e) {
                        return new Snippets.Outcome(null, Snippets.Outcome.Kind.EXCEPTION, String.valueOf(e));
                    } catch (ExecutionControl.ExecutionControlException e) {
                        return Snippets.Outcome.internal(e);
                    }
                    return new Snippets.Outcome(null, null, null);
                },
                calls,
                config.evalTimeout());
        return r.fatal() == null ? r.result() : resetAfter(r.fatal(), r.output(), r.chars());
    }

    /** Evaluates a snippet (one or several statements and declarations), tool calls answered by {@code calls}. */
    public EvalResult evaluate(String code, CallHandler calls) {
        if (closed) throw new IllegalStateException("sandbox closed");
        Run r = run(jvm, code, calls);
        return r.fatal() == null ? r.result() : resetAfter(r.fatal(), r.output(), r.chars());
    }

    /** An evaluation's result, or the error after which its JVM cannot go on (with what it printed). */
    private record Run(EvalResult result, Error fatal, String output, long chars) {
        static Run of(EvalResult r) {
            return new Run(r, null, null, 0);
        }

        static Run fatal(Error e, String output, long chars) {
            return new Run(null, e, output, chars);
        }
    }

    private Run run(Jvm j, String code, CallHandler calls) {
        return run(j, code, calls, config.evalTimeout());
    }

    private Run run(Jvm j, String code, CallHandler calls, Duration limit) {
        return run(j, () -> Snippets.evaluate(j.js, code, j.capture), calls, limit);
    }

    /** Runs {@code work} (compiling and executing on {@code j}) on its JShell's thread, answering tool calls and watching the time. */
    private Run run(Jvm j, java.util.function.Supplier<Snippets.Outcome> work, CallHandler calls, Duration limit) {
        j.capture.begin(config.outputCapChars());
        j.worker.execute(() -> {
            Snippets.Outcome o;
            try {
                o = work.get();
            } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
                o = Snippets.Outcome.internal(e);
            }
            j.events.add(o);
        });
        long budget = TimeUnit.MILLISECONDS.toNanos(limit.toMillis());
        boolean stopped = false;
        List<?> leftover = List.of();
        while (true) {
            long t0 = System.nanoTime();
            Object msg;
            try {
                msg = j.events.poll(Math.max(budget, 0), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                kill();
                throw new IllegalStateException("interrupted while a snippet ran");
            }
            budget -= System.nanoTime() - t0;
            switch (msg) {
                case null -> {
                    if (stopped) {
                        return Run.fatal(
                                new Error(
                                        Kind.TIMEOUT,
                                        timeoutNote() + "; it did not stop within " + STOP_GRACE_MS / 1000
                                                + " s, so the sandbox JVM was replaced"),
                                "",
                                0);
                    }
                    // JShell's stop: the snippet's thread is stopped at its next loop check; the JVM and its state
                    // stay.
                    stopped = true;
                    j.js.stop();
                    budget = TimeUnit.MILLISECONDS.toNanos(STOP_GRACE_MS);
                }
                case ToolCall c -> answer(j, c, calls);
                case Leftover l -> leftover = l.threads();
                case Broken b -> {
                    return Run.fatal(brokenWire(), "", 0);
                }
                case Snippets.Outcome o
                when j.broken != null || o.kind() == Snippets.Outcome.Kind.INTERNAL -> {
                    // The harness's JShell is out of step with its JVM (or closed): never evaluate on it again.
                    return Run.fatal(brokenWire(), j.capture.text(), j.capture.total());
                }
                case Snippets.Outcome o -> {
                    String output = j.capture.text();
                    long chars = j.capture.total();
                    if (stopped)
                        return Run.of(
                                new EvalResult(output, chars, null, new Error(Kind.TIMEOUT, timeoutNote()), false));
                    if (!leftover.isEmpty()) {
                        return Run.fatal(
                                new Error(
                                        Kind.LEFTOVER_THREAD,
                                        "the snippet left thread(s) running after it returned: " + leftover
                                                + "; a thread may not outlive its evaluation, so the sandbox JVM was replaced"),
                                output,
                                chars);
                    }
                    Error error = o.kind() == null
                            ? null
                            : new Error(
                                    o.kind() == Snippets.Outcome.Kind.COMPILE ? Kind.COMPILE : Kind.EXCEPTION,
                                    o.message());
                    return Run.of(new EvalResult(output, chars, o.value(), error, false));
                }
                default -> {
                    return Run.fatal(new Error(Kind.EXITED, exitNote()), "", 0);
                } // EOF
            }
        }
    }

    private static Error brokenWire() {
        return new Error(
                Kind.PROTOCOL,
                "the sandbox sent something that is not a protocol message"
                        + " (did the snippet write to the JVM's own standard output?)");
    }

    private static void answer(Jvm j, ToolCall c, CallHandler calls) {
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("id", c.id());
        try {
            ret.put("value", calls.call(c.name(), c.args()));
        } catch (RuntimeException e) {
            ret.put("error", e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
        j.send(SandboxWire.RETURN, MiniJson.write(ret).getBytes(StandardCharsets.UTF_8));
    }

    private String timeoutNote() {
        return "the evaluation was stopped after the wall-time limit of "
                + config.evalTimeout().toMillis() / 1000.0 + " s";
    }

    private String exitNote() {
        Process p = jvm.process;
        try {
            p.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String status = p.isAlive() ? "" : " (exit status " + p.exitValue() + ")";
        return "the sandbox JVM ended during the evaluation" + status
                + ", e.g. by System.exit or a crash; it was replaced";
    }

    private EvalResult resetAfter(Error error, String output, long chars) {
        kill();
        resets++;
        launch();
        for (Prelude p : prelude) {
            EvalResult r = install(p, CallHandler.NONE);
            if (!r.ok())
                throw new IllegalStateException(
                        "sandbox prelude failed after a reset: " + r.error().message());
        }
        return new EvalResult(
                output,
                chars,
                null,
                new Error(
                        error.kind(),
                        error.message() + " (variables, methods and classes of earlier snippets are lost)"),
                true);
    }

    // ------------------------------------------------------------------ the child process

    /** A tool call a snippet made, waiting for the episode's answer. */
    private record ToolCall(long id, String name, Map<String, Object> args) {}

    /** Threads an invocation left running, as the sandbox reported them. */
    private record Leftover(List<?> threads) {}

    /** The sandbox sent bytes that are not a frame. */
    private record Broken(String why) {}

    /** One sandbox JVM and the JShell that compiles for it. */
    private static final class Jvm {
        final Process process;
        final SandboxWire.Framer framer;
        final LinkedBlockingQueue<byte[]> responses = new LinkedBlockingQueue<>();
        final Snippets.Capture capture = new Snippets.Capture();
        final LinkedBlockingQueue<Object> events = new LinkedBlockingQueue<>();
        final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sandbox-compile");
            t.setDaemon(true);
            return t;
        });
        JShell js;
        /** The compile side's class path (where precompiled preludes go) and the execution side (where their classes are loaded). */
        SandboxClassPath classPath;

        WireControl control;
        /** The precompiled prelude classes loaded into this JVM. */
        final java.util.Set<String> preludes = java.util.concurrent.ConcurrentHashMap.newKeySet();
        /** Why this JVM's protocol cannot be trusted any more (a response out of order or malformed), or null. */
        volatile String broken;

        final SandboxLimits.StderrTail stderr;
        /** The task limit of its process tree, or null where this machine offers none. */
        final SandboxLimits.TaskGroup group;

        /** Checks the tags of what this JVM sends: its key, which only this harness and the agent hold. */
        private final SandboxWire.FrameKey key;

        Jvm(Process process, SandboxLimits.TaskGroup group, byte[] key, int outputCap) {
            this.process = process;
            this.group = group;
            this.stderr = new SandboxLimits.StderrTail(process.getErrorStream(), "sandbox-stderr-" + process.pid());
            this.key = new SandboxWire.FrameKey(key);
            BufferedOutputStream toSandbox = new BufferedOutputStream(process.getOutputStream(), 1 << 16);
            try {
                // The first bytes it reads (flushed with the first command): its key, and the output an invocation
                // sends.
                toSandbox.write(key);
                toSandbox.write(
                        java.nio.ByteBuffer.allocate(4).putInt(outputCap).array());
            } catch (IOException e) {
                // the JVM ended at once: the reader reports it
            }
            this.framer = new SandboxWire.Framer(toSandbox, null);
            Thread reader = new Thread(this::read, "sandbox-reader-" + process.pid());
            reader.setDaemon(true);
            reader.start();
        }

        private void read() {
            try {
                SandboxWire.readFrames(
                        process.getInputStream(), SandboxWire.FROM_SANDBOX_MAX, key, (channel, bytes) -> {
                            switch (channel) {
                                case SandboxWire.COMMAND -> responses.add(bytes);
                                case SandboxWire.OUTPUT -> capture.write(bytes, 0, bytes.length);
                                case SandboxWire.SKIPPED -> {
                                    SandboxWire.Reader r = new SandboxWire.Reader(bytes);
                                    long n = ((long) r.integer() << 32) | (r.integer() & 0xffffffffL);
                                    r.end();
                                    if (n < 0) throw new IllegalArgumentException("a negative count of output");
                                    capture.skipped(n);
                                }
                                case SandboxWire.CALL -> {
                                    @SuppressWarnings("unchecked")
                                    Map<String, Object> m = (Map<String, Object>)
                                            MiniJson.parse(new String(bytes, StandardCharsets.UTF_8));
                                    @SuppressWarnings("unchecked")
                                    Map<String, Object> args =
                                            m.get("args") instanceof Map<?, ?> a ? (Map<String, Object>) a : Map.of();
                                    events.add(new ToolCall(
                                            ((Number) m.get("id")).longValue(), String.valueOf(m.get("name")), args));
                                }
                                case SandboxWire.LEFTOVER ->
                                    events.add(new Leftover(
                                            (List<?>) MiniJson.parse(new String(bytes, StandardCharsets.UTF_8))));
                                default ->
                                    throw new IllegalArgumentException("unexpected channel " + (char) (byte) channel);
                            }
                        });
            } catch (IOException | RuntimeException | StackOverflowError e) {
                // Whatever the sandbox sent that is not a well-formed message ends this JVM's trust: never decoded
                // further, the sandbox is replaced.
                if (process.isAlive()) {
                    broken = String.valueOf(e.getMessage());
                    events.add(new Broken(broken));
                }
            }
            // The end goes into the queue before the responses end: the evaluation then fails after the episode knows
            // why.
            events.add(EOF);
            responses.add(END);
        }

        void send(byte channel, byte[] bytes) {
            try {
                framer.send(channel, bytes);
            } catch (IOException e) {
                // the JVM ended: the reader reports it
            }
        }
    }

    /** JShell's execution engine for a started sandbox JVM: its protocol over the wire's command channel, its stop a frame of its own. */
    private static final class Engine implements ExecutionControlProvider {
        private final Jvm jvm;

        Engine(Jvm jvm) {
            this.jvm = jvm;
        }

        @Override
        public String name() {
            return "brokkr-sandbox";
        }

        @Override
        public ExecutionControl generate(ExecutionEnv env, Map<String, String> parameters) {
            WireControl c = new WireControl(jvm);
            jvm.control = c;
            return c;
        }
    }

    /**
     * JShell's execution control over the wire's plain-data protocol ({@link SandboxWire}): each command
     * waits for the response with its own sequence number. A response out of order, malformed or of an
     * unknown kind marks the JVM {@link Jvm#broken} and ends the engine (JShell then closes), and the
     * sandbox is replaced before anything else is evaluated: a harness JShell out of step with its JVM
     * is never reused.
     */
    private static final class WireControl implements ExecutionControl {
        private final Jvm jvm;
        private final AtomicInteger sequence = new AtomicInteger();

        WireControl(Jvm jvm) {
            this.jvm = jvm;
        }

        private SandboxWire.Reader request(byte op, UnaryOperator<SandboxWire.Data> operands)
                throws EngineTerminationException {
            int seq = sequence.incrementAndGet();
            jvm.send(
                    SandboxWire.COMMAND,
                    operands.apply(new SandboxWire.Data(seq, op)).toBytes());
            byte[] response;
            try {
                response = jvm.responses.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new EngineTerminationException("interrupted");
            }
            if (response == END) throw new EngineTerminationException("the sandbox JVM ended");
            SandboxWire.Reader r = new SandboxWire.Reader(response);
            try {
                if (r.integer() != seq) throw new IllegalArgumentException("a response out of order");
            } catch (IllegalArgumentException e) {
                throw broken(e);
            }
            return r;
        }

        private EngineTerminationException broken(IllegalArgumentException e) {
            jvm.broken = e.getMessage();
            jvm.events.add(new Broken(e.getMessage()));
            return new EngineTerminationException("the sandbox sent a malformed response: " + e.getMessage());
        }

        /**
         * A response's status and payload: the value (null for none) or the exception it stands for, not
         * thrown, so each command throws the kinds it may.
         */
        private Object decode(SandboxWire.Reader r) throws EngineTerminationException {
            try {
                byte status = r.small();
                Object out = switch (status) {
                    case SandboxWire.OK -> null;
                    case SandboxWire.OK_VALUE -> r.text();
                    case SandboxWire.USER_EXCEPTION -> {
                        String message = r.text(), cause = r.text();
                        yield new UserException(message, String.valueOf(cause), r.stack());
                    }
                    case SandboxWire.RESOLUTION_EXCEPTION -> {
                        int id = r.integer();
                        yield new ResolutionException(id, r.stack());
                    }
                    case SandboxWire.STOPPED -> new StoppedException();
                    case SandboxWire.CLASS_INSTALL_EXCEPTION -> {
                        String message = r.text();
                        yield new ClassInstallException(message, r.booleans());
                    }
                    case SandboxWire.NOT_IMPLEMENTED -> new NotImplementedException(r.text());
                    case SandboxWire.ENGINE_TERMINATION -> new EngineTerminationException(r.text());
                    case SandboxWire.INTERNAL_EXCEPTION -> new InternalException(r.text());
                    default -> throw new IllegalArgumentException("a response of unknown kind " + status);
                };
                r.end();
                return out;
            } catch (IllegalArgumentException e) {
                throw broken(e);
            }
        }

        private String value(Object decoded) throws RunException, EngineTerminationException, InternalException {
            return switch (decoded) {
                case null -> null;
                case String v -> v;
                case RunException e -> throw e;
                case EngineTerminationException e -> throw e;
                case InternalException e -> throw e;
                default -> throw broken(new IllegalArgumentException("a response of the wrong kind"));
            };
        }

        private void classes(byte op, ClassBytecodes[] cbcs)
                throws ClassInstallException, NotImplementedException, EngineTerminationException {
            Object decoded = decode(request(op, d -> {
                d.integer(cbcs.length);
                for (ClassBytecodes c : cbcs) d.text(c.name()).bytes(c.bytecodes());
                return d;
            }));
            switch (decoded) {
                case null -> {}
                case ClassInstallException e -> throw e;
                case NotImplementedException e -> throw e;
                case EngineTerminationException e -> throw e;
                default -> throw broken(new IllegalArgumentException("a response of the wrong kind"));
            }
        }

        @Override
        public void load(ClassBytecodes[] cbcs)
                throws ClassInstallException, NotImplementedException, EngineTerminationException {
            classes(SandboxWire.OP_LOAD, cbcs);
        }

        @Override
        public void redefine(ClassBytecodes[] cbcs)
                throws ClassInstallException, NotImplementedException, EngineTerminationException {
            classes(SandboxWire.OP_REDEFINE, cbcs);
        }

        @Override
        public String invoke(String className, String methodName)
                throws RunException, EngineTerminationException, InternalException {
            return value(
                    decode(request(SandboxWire.OP_INVOKE, d -> d.text(className).text(methodName))));
        }

        @Override
        public String varValue(String className, String varName)
                throws RunException, EngineTerminationException, InternalException {
            return value(decode(
                    request(SandboxWire.OP_VAR_VALUE, d -> d.text(className).text(varName))));
        }

        @Override
        public void addToClasspath(String path) throws EngineTerminationException, InternalException {
            try {
                value(decode(request(SandboxWire.OP_ADD_CLASSPATH, d -> d.text(path))));
            } catch (RunException e) {
                throw new InternalException(e.getMessage());
            }
        }

        @Override
        public void stop() {
            // A stop of its own channel: a command would wait behind the running invocation.
            jvm.send(SandboxWire.STOP, new byte[0]);
        }

        @Override
        public Object extensionCommand(String command, Object arg) throws NotImplementedException {
            throw new NotImplementedException("no extension commands");
        }

        @Override
        public void close() {
            jvm.send(
                    SandboxWire.COMMAND,
                    new SandboxWire.Data(sequence.incrementAndGet(), SandboxWire.OP_CLOSE).toBytes());
        }
    }

    private void launch() {
        long t0 = System.nanoTime();
        Process process;
        SandboxLimits.TaskGroup group = SandboxLimits.TaskGroup.create();
        try {
            // Named after the harness process, so a leftover one names its owner.
            if (dir == null)
                dir = Files.createTempDirectory(
                        "brokkr-sandbox-" + ProcessHandle.current().pid() + "-");
            Files.createDirectories(scratch());
            List<String> command = command(config, image, extraFlags, scratch());
            ProcessBuilder pb = new ProcessBuilder(group == null ? command : group.wrap(command));
            pb.environment().clear(); // API keys and the like stay in the harness
            pb.environment().put("LANG", "C.UTF-8");
            // The java launcher finds its libraries relative to itself ($ORIGIN), which the dynamic loader reads
            // from /proc/self/exe; a contained sandbox has no /proc, so it is told where the launcher is.
            pb.environment()
                    .put(
                            "LD_ORIGIN_PATH",
                            SandboxRuntime.get().java().getParent().toString());
            pb.directory(scratch().toFile());
            process = LAUNCHER.submit(pb::start).get();
        } catch (IOException e) {
            if (group != null) group.remove();
            throw new UncheckedIOException("could not start a sandbox JVM: " + e.getMessage(), e);
        } catch (ExecutionException e) {
            if (group != null) group.remove();
            throw new UncheckedIOException(
                    "could not start a sandbox JVM: " + e.getCause().getMessage(),
                    e.getCause() instanceof IOException io ? io : new IOException(e.getCause()));
        } catch (InterruptedException e) {
            if (group != null) group.remove();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting a sandbox JVM");
        }
        byte[] key = new byte[SandboxWire.KEY_BYTES];
        KEYS.nextBytes(key);
        Jvm j = new Jvm(process, group, key, config.outputCapChars());
        java.util.Arrays.fill(key, (byte) 0);
        jvm = j;
        ScheduledFuture<?> limit = WATCHDOG.schedule(process::destroyForcibly, START_LIMIT_S, TimeUnit.SECONDS);
        try {
            PrintStream sink = new PrintStream(j.capture, true, StandardCharsets.UTF_8);
            j.js = JShell.builder()
                    .executionEngine(new Engine(j), Map.of())
                    // Compiles against the sandbox JVM's class path, not the harness's (SandboxClassPath says why).
                    .fileManager(m -> j.classPath = SandboxClassPath.of(m, image.jar()))
                    .out(sink)
                    .err(sink)
                    .build();
            j.js.addToClasspath(image.jar().toString());
            // The imports, then a round trip (an empty load: the sandbox JVM reads its key and answers a command).
            // No warm-up snippet: an evaluation of `1 + 1` here cost every episode ~10 ms of harness CPU (bench
            // sandbox; the compiler's first compile moves to the episode's first snippet, which pays much of it
            // anyway).
            // Its limit is the start's, not a snippet's: it includes the JVM's start and the harness compiler's first
            // analysis, which a loaded machine makes slow.
            Run warm = run(
                    j,
                    () -> {
                        Snippets.Outcome imported = Snippets.evaluate(j.js, IMPORTS, j.capture);
                        if (imported.kind() != null) return imported;
                        try {
                            j.control.load(new ExecutionControl.ClassBytecodes[0]);
                        } catch (ExecutionControl.ExecutionControlException e) {
                            return Snippets.Outcome.internal(e);
                        }
                        return imported;
                    },
                    CallHandler.NONE,
                    Duration.ofSeconds(START_LIMIT_S));
            if (warm.fatal() != null || !warm.result().ok()) {
                Error why = warm.fatal() != null ? warm.fatal() : warm.result().error();
                throw new IllegalStateException("its first evaluation failed: " + why.kind() + ": " + why.message());
            }
        } catch (RuntimeException e) {
            kill();
            throw new IllegalStateException(
                    "the sandbox JVM did not start (" + e.getMessage() + "): " + stderrTail(), e);
        } finally {
            limit.cancel(false);
        }
        startMillis = (System.nanoTime() - t0) / 1_000_000;
    }

    private String stderrTail() {
        String s = jvm == null ? "" : jvm.stderr.text();
        return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
    }

    /** Bytes the current sandbox JVM wrote to its standard error (only the last {@value SandboxLimits#STDERR_TAIL} are kept). */
    long stderrBytes() {
        return jvm.stderr.total();
    }

    /** The highest number of tasks the current sandbox's process tree had, or -1 when it has no task limit. */
    long peakTasks() {
        return jvm.group == null ? -1 : jvm.group.peak();
    }

    /**
     * The child JVM's options: limits, the locked process launcher, the AOT cache when there is one, and
     * the JVM's own log on stderr (by default it writes to stdout, which is the wire).
     */
    static List<String> jvmFlags(SandboxConfig config, Path scratch) {
        List<String> flags = new ArrayList<>(List.of(
                "-Xmx" + config.heapMb() + "m",
                "-Xss1m",
                "-XX:MaxMetaspaceSize=192m",
                // A sandbox JVM lives for one episode, and most of what it runs runs a few times (defining classes,
                // reading the protocol): C1 only, at ten times the usual thresholds, leaves that interpreted and still
                // compiles a snippet's hot loop (bench sandbox, alternating runs: its CPU per episode 110-120 ms at the
                // usual ones, 90 here).
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-XX:CompileThresholdScaling=10",
                "-XX:ActiveProcessorCount=1",
                "-XX:-UsePerfData",
                "-Xlog:disable",
                "-Xlog:all=warning:stderr",
                // A launch mechanism the JDK rejects: its process launcher cannot initialize, so no snippet starts a
                // process.
                "-Djdk.lang.Process.launchMechanism=BROKKR_SANDBOX_NO_PROCESSES",
                "--sun-misc-unsafe-memory-access=deny",
                "--illegal-native-access=deny",
                // No attaching to this JVM (jdk.jshell's debugger interface brings jdk.attach along).
                "-XX:+DisableAttachMechanism"));
        if (scratch != null)
            flags.addAll(List.of("-Djava.io.tmpdir=" + scratch, "-Duser.home=" + scratch, "-Duser.dir=" + scratch));
        return flags;
    }

    /** The command line of the child JVM, inside bubblewrap when the config says so. */
    static List<String> command(SandboxConfig config, SandboxImage image, List<String> extraFlags, Path scratch) {
        Path javaHome = SandboxRuntime.get().home();
        List<String> jvm = new ArrayList<>();
        jvm.add(javaHome.resolve("bin/java").toString());
        jvm.addAll(jvmFlags(config, scratch));
        if (image.aotCache() != null) jvm.add("-XX:AOTCache=" + image.aotCache());
        jvm.addAll(extraFlags);
        jvm.addAll(SandboxImage.launch(image.jar()));
        if (config.isolation() != SandboxConfig.Isolation.BWRAP) return SandboxLimits.withoutCapabilities(jvm);
        List<String> cmd = new ArrayList<>(List.of(
                SandboxConfig.Isolation.bwrapPath().toString(),
                "--unshare-all",
                "--die-with-parent",
                "--new-session",
                "--cap-drop",
                "ALL"));
        // The dynamic loader and the C library (Debian: /usr/lib, /lib -> usr/lib), the JDK and the sandbox image,
        // read-only.
        for (String sys : List.of("/usr/lib", "/usr/lib64", "/usr/lib32")) bindIfPresent(cmd, Path.of(sys));
        for (String link : List.of("/lib", "/lib64")) {
            Path p = Path.of(link);
            try {
                if (Files.isSymbolicLink(p))
                    cmd.addAll(List.of("--symlink", Files.readSymbolicLink(p).toString(), link));
                else bindIfPresent(cmd, p);
            } catch (IOException e) {
                // not there: nothing to mount
            }
        }
        if (!javaHome.startsWith("/usr/lib")) bindIfPresent(cmd, javaHome);
        bindIfPresent(cmd, image.dir());
        Path spawnHelper = javaHome.resolve("lib/jspawnhelper");
        if (Files.exists(spawnHelper)) cmd.addAll(List.of("--ro-bind", "/dev/null", spawnHelper.toString()));
        // /dev read-only (its /dev/shm with it: both were RAM without a size limit), the scratch folder a tmpfs of
        // SCRATCH_BYTES (a bound folder of the host's had none).
        // No /proc: through /proc/self/mem a snippet read its JVM's memory (the frame key in it), through
        // /proc/self/fd/1 the frames on the wire.
        cmd.addAll(List.of(
                "--dev",
                "/dev",
                "--remount-ro",
                "/dev",
                "--size",
                Long.toString(SandboxLimits.SCRATCH_BYTES),
                "--tmpfs",
                scratch.toString(),
                "--remount-ro",
                "/",
                "--chdir",
                scratch.toString()));
        cmd.addAll(jvm);
        return cmd;
    }

    private static void bindIfPresent(List<String> cmd, Path p) {
        if (Files.exists(p)) cmd.addAll(List.of("--ro-bind", p.toString(), p.toString()));
    }

    private void kill() {
        Jvm j = jvm;
        if (j == null) return;
        j.process.descendants().forEach(ProcessHandle::destroyForcibly);
        j.process.destroyForcibly();
        try {
            j.process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        j.worker.shutdownNow();
        if (j.group != null) j.group.remove();
        try {
            if (j.js != null) j.js.close();
        } catch (RuntimeException e) {
            // a JShell whose engine is gone may fail to close: nothing is left to close
        }
    }

    /**
     * Closes the JShell, which ends the sandbox JVM in order (an AOT training run needs an orderly exit),
     * and waits for it; true when it ended within {@code limit}.
     */
    boolean closeInOrder(Duration limit) {
        Jvm j = jvm;
        j.js.close();
        try {
            return j.process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Ends the JVM and deletes the scratch folder. */
    @Override
    public void close() {
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
