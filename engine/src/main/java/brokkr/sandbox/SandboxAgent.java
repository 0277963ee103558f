package brokkr.sandbox;

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jshell.execution.LocalExecutionControl;
import jdk.jshell.spi.ExecutionControl;

/**
 * The main class of a sandbox JVM (started by {@link Sandbox}, never in the harness's JVM): JShell's
 * execution side. The harness compiles each snippet (its JShell, warm, in its own JVM) and sends the
 * class files here over JShell's execution protocol; this JVM defines and runs them, so the snippets'
 * state (variables, classes) lives here, for one episode. What runs here is small: the JDK's execution
 * engine, this class, {@link SandboxWire}, {@link SandboxBridge} and {@link MiniJson} — a JVM that starts
 * in tens of milliseconds (from an AOT cache where the JDK makes one), not one that warms up a compiler.
 *
 * <p>Everything crosses {@link SandboxWire} frames on the original stdin/stdout; snippets'
 * {@code System.out} and {@code System.err} are the output channel. The first {@value
 * SandboxWire#KEY_BYTES} bytes on stdin are this JVM's frame key, read before any snippet runs; every
 * frame sent is tagged with it. This class runs in a named module that exports its package and opens
 * nothing ({@link SandboxImage}), so snippet code (in JShell's unnamed module) cannot reach its private
 * fields by reflection: not the framer, not the key.
 */
public final class SandboxAgent {
    private static SandboxWire.Framer framer;
    private static PrintStream output;
    private static SandboxWire.ChannelOut outputChannel;
    private static final BlockingQueue<Map<String, Object>> returns = new LinkedBlockingQueue<>();
    private static final AtomicLong callIds = new AtomicLong();
    /** main runs once: a snippet calling it again would read the harness's commands as a key, never the key. */
    private static final java.util.concurrent.atomic.AtomicBoolean started =
            new java.util.concurrent.atomic.AtomicBoolean();

    private SandboxAgent() {}

    public static void main(String[] args) throws Exception {
        if (!started.compareAndSet(false, true)) throw new IllegalStateException("the sandbox agent runs once");
        FileInputStream stdin = new FileInputStream(FileDescriptor.in);
        byte[] key = stdin.readNBytes(SandboxWire.KEY_BYTES);
        byte[] cap = stdin.readNBytes(4);
        if (key.length != SandboxWire.KEY_BYTES || cap.length != 4) return; // the harness went away first
        framer = new SandboxWire.Framer(
                new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                new SandboxWire.FrameKey(key));
        java.util.Arrays.fill(key, (byte) 0);
        long outputCap = new SandboxWire.Reader(cap).integer();
        outputChannel = new SandboxWire.ChannelOut(framer, SandboxWire.OUTPUT, 1 << 13, outputCap);
        output = new PrintStream(outputChannel, false, StandardCharsets.UTF_8);
        System.setOut(output);
        System.setErr(output);
        System.setIn(new ByteArrayInputStream(new byte[0]));
        lockProcessLauncher();
        Execution ec = new Execution();
        BlockingQueue<byte[]> commands = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> read(stdin, commands, ec), "sandbox-wire");
        reader.setDaemon(true);
        reader.start();
        // Returns when the harness closes its JShell (an orderly exit, which also lets the JDK write an AOT training
        // record).
        while (true) {
            SandboxWire.Reader command = new SandboxWire.Reader(commands.take());
            int sequence = command.integer();
            byte op = command.small();
            if (op == SandboxWire.OP_CLOSE) break;
            byte[] response = execute(ec, sequence, op, command);
            output.flush(); // what the snippet printed comes before its result
            framer.send(SandboxWire.COMMAND, response);
        }
        output.flush();
    }

    /** One command of the execution protocol, run on the JDK's local engine; its response as plain data. */
    private static byte[] execute(Execution ec, int sequence, byte op, SandboxWire.Reader command) {
        try {
            return switch (op) {
                case SandboxWire.OP_LOAD, SandboxWire.OP_REDEFINE -> {
                    int n = command.integer();
                    if (n < 0 || n > 1 << 16) throw new IllegalArgumentException(n + " classes");
                    ExecutionControl.ClassBytecodes[] classes = new ExecutionControl.ClassBytecodes[n];
                    for (int i = 0; i < n; i++)
                        classes[i] = new ExecutionControl.ClassBytecodes(command.text(), command.bytes());
                    command.end();
                    if (op == SandboxWire.OP_LOAD) ec.load(classes);
                    else ec.redefine(classes);
                    yield new SandboxWire.Data(sequence, SandboxWire.OK).toBytes();
                }
                case SandboxWire.OP_INVOKE, SandboxWire.OP_VAR_VALUE -> {
                    String className = command.text(), member = command.text();
                    command.end();
                    String value =
                            op == SandboxWire.OP_INVOKE ? ec.invoke(className, member) : ec.varValue(className, member);
                    yield new SandboxWire.Data(sequence, SandboxWire.OK_VALUE)
                            .text(value)
                            .toBytes();
                }
                case SandboxWire.OP_ADD_CLASSPATH -> {
                    String path = command.text();
                    command.end();
                    ec.addToClasspath(path);
                    yield new SandboxWire.Data(sequence, SandboxWire.OK).toBytes();
                }
                default ->
                    new SandboxWire.Data(sequence, SandboxWire.NOT_IMPLEMENTED)
                            .text("command " + op)
                            .toBytes();
            };
        } catch (ExecutionControl.UserException e) {
            return new SandboxWire.Data(sequence, SandboxWire.USER_EXCEPTION)
                    .text(e.getMessage())
                    .text(e.causeExceptionClass())
                    .stack(e.getStackTrace())
                    .toBytes();
        } catch (ExecutionControl.ResolutionException e) {
            return new SandboxWire.Data(sequence, SandboxWire.RESOLUTION_EXCEPTION)
                    .integer(e.id())
                    .stack(e.getStackTrace())
                    .toBytes();
        } catch (ExecutionControl.StoppedException e) {
            return new SandboxWire.Data(sequence, SandboxWire.STOPPED).toBytes();
        } catch (ExecutionControl.ClassInstallException e) {
            return new SandboxWire.Data(sequence, SandboxWire.CLASS_INSTALL_EXCEPTION)
                    .text(e.getMessage())
                    .booleans(e.installed())
                    .toBytes();
        } catch (ExecutionControl.NotImplementedException e) {
            return new SandboxWire.Data(sequence, SandboxWire.NOT_IMPLEMENTED)
                    .text(e.getMessage())
                    .toBytes();
        } catch (ExecutionControl.EngineTerminationException e) {
            return new SandboxWire.Data(sequence, SandboxWire.ENGINE_TERMINATION)
                    .text(e.getMessage())
                    .toBytes();
        } catch (ExecutionControl.ExecutionControlException | RuntimeException e) {
            return new SandboxWire.Data(sequence, SandboxWire.INTERNAL_EXCEPTION)
                    .text(String.valueOf(e))
                    .toBytes();
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

    private static void read(FileInputStream stdin, BlockingQueue<byte[]> commands, Execution ec) {
        try {
            SandboxWire.readFrames(stdin, SandboxWire.TO_SANDBOX_MAX, null, (channel, bytes) -> {
                switch (channel) {
                    case SandboxWire.COMMAND -> commands.add(bytes);
                    case SandboxWire.STOP -> stop(ec);
                    case SandboxWire.RETURN -> {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> m =
                                (Map<String, Object>) MiniJson.parse(new String(bytes, StandardCharsets.UTF_8));
                        returns.add(m);
                    }
                    default -> {}
                }
            });
        } catch (IOException | RuntimeException e) {
            // the harness went away or sent something else: end
        }
        Runtime.getRuntime().halt(0);
    }

    private static void stop(Execution ec) {
        try {
            ec.stop();
        } catch (Exception e) {
            // nothing running
        }
    }

    /** A tool call to the harness; blocks until it answers. */
    static String call(String name, Map<String, Object> args) {
        synchronized (SandboxAgent.class) {
            if (framer == null) throw new IllegalStateException("not in a sandbox");
            long id = callIds.incrementAndGet();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", id);
            m.put("name", name);
            m.put("args", args);
            try {
                output.flush(); // what the snippet printed before the call comes first
                framer.send(SandboxWire.CALL, MiniJson.write(m).getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new IllegalStateException("the harness went away");
            }
            while (true) {
                Map<String, Object> r;
                try {
                    r = returns.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for " + name);
                }
                // An answer to a call whose snippet was stopped while it waited is not this call's.
                if (!(r.get("id") instanceof Number n) || n.longValue() != id) continue;
                if (r.get("error") != null) throw new IllegalArgumentException(String.valueOf(r.get("error")));
                return (String) r.get("value");
            }
        }
    }

    /**
     * The JDK's local execution engine (snippets' loops check a stop flag, so a stop ends them), which
     * also reports the threads an invocation left running: before its response, so the harness knows of
     * them when the evaluation's result arrives.
     */
    static final class Execution extends LocalExecutionControl {
        @Override
        protected String invoke(Method doit) throws Exception {
            Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
            output.flush();
            outputChannel.renew();
            try {
                return super.invoke(doit);
            } finally {
                output.flush();
                List<String> left = leftoverThreads(before);
                if (!left.isEmpty())
                    framer.send(SandboxWire.LEFTOVER, MiniJson.write(left).getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    /**
     * Threads a snippet started that are still alive shortly after it returned: every live thread that
     * was not alive before the invocation, whatever its name or thread group (a snippet may name its
     * thread like JShell's own or start it in the system group; an earlier check trusted both). The one
     * exception is the JDK's common fork-join pool when it is quiescent: its idle workers outlive a
     * parallel stream by design, and a task of the snippet still in it makes the pool busy, so it is
     * reported.
     */
    static List<String> leftoverThreads(Set<Thread> before) {
        List<String> out = new ArrayList<>();
        for (int attempt = 0; attempt < 5; attempt++) {
            out.clear();
            boolean poolIdle = ForkJoinPool.commonPool().isQuiescent();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (before.contains(t) || !t.isAlive()) continue;
                if (poolIdle && t instanceof ForkJoinWorkerThread w && w.getPool() == ForkJoinPool.commonPool())
                    continue;
                out.add(t.getName());
            }
            if (out.isEmpty()) return out;
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                break;
            }
        }
        return out;
    }
}
