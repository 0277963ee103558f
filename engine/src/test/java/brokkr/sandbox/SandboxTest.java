package brokkr.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The attacks the sandbox must contain, each an error result while the sandbox (the episode) goes on
 * and the harness (this JVM) survives. One sandbox for the class: the resets some attacks cause are
 * part of what is tested (a fresh JVM, the prelude again).
 */
class SandboxTest {
    private static Sandbox sandbox;
    private static final List<String> calls = new ArrayList<>();
    private static final Sandbox.CallHandler ECHO = (name, args) -> {
        calls.add(name + args);
        if (name.equals("refuse")) throw new IllegalArgumentException("no tool named refuse");
        return "result of " + name + " " + args;
    };

    @BeforeAll
    static void start() {
        sandbox = Sandbox.start(
                SandboxConfig.DEFAULT.withEvalTimeout(Duration.ofSeconds(2)).withHeapMb(128));
        sandbox.prelude("int preludeValue = 7;", Sandbox.CallHandler.NONE);
    }

    @AfterAll
    static void stop() {
        sandbox.close();
    }

    private static Sandbox.EvalResult eval(String code) {
        return sandbox.evaluate(code, ECHO);
    }

    /** After an attack: the sandbox still evaluates, and (unless it was reset) keeps its state. */
    private static void stillWorks() {
        Sandbox.EvalResult r = eval("preludeValue * 6");
        assertTrue(r.ok(), String.valueOf(r.error()));
        assertEquals("42", r.value());
    }

    private static boolean bwrap() {
        return sandbox.config().isolation() == SandboxConfig.Isolation.BWRAP;
    }

    @Test
    void stateLastsAcrossEvaluationsAndOutputAndValueAreReturned() {
        assertTrue(eval("int counter = 1; String hello() { return \"hi\"; }").ok());
        Sandbox.EvalResult r = eval("counter++; System.out.println(hello()); counter");
        assertEquals("hi\n", r.output());
        assertEquals("2", r.value());
        assertNotOnHarnessJvm();
    }

    private static void assertNotOnHarnessJvm() {
        Sandbox.EvalResult r = eval("ProcessHandle.current().pid()");
        assertFalse(
                r.value().equals(String.valueOf(ProcessHandle.current().pid())),
                "snippets must not run in the harness JVM");
    }

    @Test
    void toolCallsReachTheHarnessAndRefusalsAreExceptions() {
        Sandbox.EvalResult r = eval("brokkr.sandbox.SandboxBridge.call(\"lookup\", Map.of(\"id\", 5, \"x\", 1.5))");
        assertTrue(r.ok(), String.valueOf(r.error()));
        assertTrue(r.value().startsWith("\"result of lookup"), r.value());
        assertTrue(
                calls.stream().anyMatch(c -> c.startsWith("lookup{") && c.contains("id=5") && c.contains("x=1.5")),
                calls.toString());
        Sandbox.EvalResult refused = eval("brokkr.sandbox.SandboxBridge.call(\"refuse\", Map.of())");
        assertEquals(Sandbox.Kind.EXCEPTION, refused.error().kind());
        assertTrue(
                refused.error().message().contains("no tool named refuse"),
                refused.error().message());
    }

    @Test
    void compileErrorIsAResultNamingTheLine() {
        Sandbox.EvalResult r = eval("int a = 1;\nint b = ;");
        assertEquals(Sandbox.Kind.COMPILE, r.error().kind());
        assertTrue(r.error().message().startsWith("line 2: "), r.error().message());
        stillWorks();
    }

    @Test
    void socketToLoopbackFails() throws Exception {
        assumeTrue(bwrap(), "network isolation needs bubblewrap");
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Sandbox.EvalResult r = eval("new java.net.Socket(\"127.0.0.1\", " + server.getLocalPort() + ")");
            assertEquals(Sandbox.Kind.EXCEPTION, r.error().kind());
            assertTrue(
                    r.error().message().contains("ConnectException"), r.error().message());
        }
        stillWorks();
    }

    @Test
    void readingAndWritingOutsideTheScratchFolderFail() throws Exception {
        assumeTrue(bwrap(), "file system isolation needs bubblewrap");
        Path secret = Files.createTempFile("brokkr-harness-secret", ".txt");
        Path target = secret.resolveSibling(
                "brokkr-sandbox-escape-" + ProcessHandle.current().pid() + ".txt");
        try {
            Files.writeString(secret, "the gold answers");
            Sandbox.EvalResult read = eval("java.nio.file.Files.readString(java.nio.file.Path.of(\"" + secret + "\"))");
            assertEquals(Sandbox.Kind.EXCEPTION, read.error().kind());
            assertTrue(
                    read.error().message().contains("NoSuchFileException"),
                    read.error().message());
            Sandbox.EvalResult write =
                    eval("java.nio.file.Files.writeString(java.nio.file.Path.of(\"" + target + "\"), \"x\")");
            assertEquals(Sandbox.Kind.EXCEPTION, write.error().kind());
            assertFalse(Files.exists(target));
            Sandbox.EvalResult home =
                    eval("java.nio.file.Files.writeString(java.nio.file.Path.of(\"/root-owned.txt\"), \"x\")");
            assertEquals(Sandbox.Kind.EXCEPTION, home.error().kind());
            Sandbox.EvalResult scratch =
                    eval("java.nio.file.Files.writeString(java.nio.file.Path.of(\"notes.txt\"), \"ok\"); "
                            + "java.nio.file.Files.readString(java.nio.file.Path.of(\"notes.txt\"))");
            assertTrue(scratch.ok(), String.valueOf(scratch.error()));
            assertEquals("\"ok\"", scratch.value());
            assertFalse(
                    Files.exists(sandbox.scratch().resolve("notes.txt")), "the scratch folder is the sandbox's tmpfs");
        } finally {
            Files.deleteIfExists(secret);
            Files.deleteIfExists(target);
        }
        stillWorks();
    }

    @Test
    void processBuilderAndRuntimeExecFail() {
        Sandbox.EvalResult r = eval("new ProcessBuilder(\"ls\").start()");
        assertEquals(Sandbox.Kind.EXCEPTION, r.error().kind());
        assertTrue(r.error().message().contains("ProcessImpl"), r.error().message());
        Sandbox.EvalResult fork = eval("System.setProperty(\"jdk.lang.Process.launchMechanism\", \"FORK\"); "
                + "Runtime.getRuntime().exec(new String[] {\"" + Path.of(System.getProperty("java.home"), "bin/java")
                + "\", \"-version\"})");
        assertEquals(Sandbox.Kind.EXCEPTION, fork.error().kind());
        stillWorks();
    }

    @Test
    void systemExitIsAnErrorAndTheSandboxComesBack() {
        Sandbox.EvalResult r = eval("System.exit(3)");
        assertEquals(Sandbox.Kind.EXITED, r.error().kind());
        assertTrue(r.reset());
        assertTrue(r.error().message().contains("exit status 3"), r.error().message());
        stillWorks(); // the prelude was evaluated again in the new JVM
    }

    @Test
    void endlessLoopIsStoppedAndStateKept() {
        assertTrue(eval("int kept = 5;").ok());
        Sandbox.EvalResult r = eval("while (true) { }");
        assertEquals(Sandbox.Kind.TIMEOUT, r.error().kind());
        assertFalse(r.reset());
        assertEquals("5", eval("kept").value());
    }

    @Test
    void tenGigabyteAllocationIsAnOutOfMemoryError() {
        Sandbox.EvalResult r = eval("long[] big = new long[1_250_000_000];");
        assertEquals(Sandbox.Kind.EXCEPTION, r.error().kind());
        assertTrue(r.error().message().contains("OutOfMemoryError"), r.error().message());
        Sandbox.EvalResult gradual =
                eval("List<long[]> hoard = new ArrayList<>(); while (true) hoard.add(new long[1 << 20]);");
        assertNotNull(gradual.error());
        assertTrue(
                gradual.error().message().contains("OutOfMemoryError"),
                gradual.error().message());
        stillWorks();
    }

    @Test
    void hundredMegabytesOfOutputAreCappedAndCounted() {
        Sandbox.EvalResult r =
                eval("String line = \"x\".repeat(1000); for (int i = 0; i < 100_000; i++) System.out.print(line);");
        assertTrue(r.ok(), String.valueOf(r.error()));
        assertEquals(100_000_000L, r.outputChars());
        assertEquals(sandbox.config().outputCapChars(), r.output().length());
        stillWorks();
    }

    @Test
    void threadLeftRunningIsAnErrorAndTheSandboxIsReplaced() {
        Sandbox.EvalResult r = eval("new Thread(() -> { while (true) { } }).start();");
        assertEquals(Sandbox.Kind.LEFTOVER_THREAD, r.error().kind());
        assertTrue(r.reset());
        stillWorks();
        Sandbox.EvalResult joined =
                eval("Thread t = new Thread(() -> System.out.print(\"done\")); t.start(); t.join();");
        assertTrue(joined.ok(), "a thread that ends with its snippet is fine: " + joined.error());
        assertEquals("done", joined.output());
    }

    @Test
    void garbageOnTheWireIsAProtocolError() {
        Sandbox.EvalResult r = eval(
                "var w = new java.io.PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out)); w.println(\"not json\"); w.flush();");
        assertEquals(Sandbox.Kind.PROTOCOL, r.error().kind());
        stillWorks();
    }

    /** Java that writes one frame {@code channel, length, payload} straight onto the sandbox JVM's standard output. */
    private static String rawFrame(char channel, String payloadExpression) {
        return "byte[] payload = " + payloadExpression + "; "
                + "var raw = new java.io.DataOutputStream(new java.io.FileOutputStream(java.io.FileDescriptor.out)); "
                + "raw.writeByte('" + channel + "'); raw.writeInt(payload.length); raw.write(payload); raw.flush();";
    }

    /** A well-formed response of the execution protocol (sequence 0, which the harness never sends): "forged". */
    private static final String FORGED_RESPONSE = "java.nio.ByteBuffer.allocate(4 + 1 + 4 + 8).putInt(0).put((byte) 1)"
            + ".putInt(8).put(\"\\\"forged\\\"\".getBytes()).array()";

    /** Every later evaluation works (the symptom was "JShell has been closed" for each, System.exit too). */
    private static void replacedAndInStep(Sandbox.EvalResult attacked) {
        assertTrue(attacked.reset(), "a sandbox whose wire was forged is replaced: " + attacked);
        assertNotNull(attacked.error(), "the forged value is never the result");
        assertFalse(attacked.output().contains("forged")
                || String.valueOf(attacked.value()).contains("forged"));
        stillWorks();
        Sandbox.EvalResult exit = eval("System.exit(4)");
        assertEquals(Sandbox.Kind.EXITED, exit.error().kind(), String.valueOf(exit.error()));
        stillWorks();
    }

    /** An attack that JVM refuses in the snippet itself: an exception naming {@code expected}, the sandbox and its state kept. */
    private static void refusedInTheSnippet(Sandbox.EvalResult r, String expected) {
        assertNotNull(r.error(), "the attack was refused: " + r);
        assertEquals(Sandbox.Kind.EXCEPTION, r.error().kind(), String.valueOf(r.error()));
        assertTrue(r.error().message().contains(expected), r.error().message());
        assertFalse(r.reset());
        assertFalse(r.output().contains("forged") || String.valueOf(r.value()).contains("forged"));
        stillWorks();
    }

    @Test
    void aForgedFrameWrittenByReflectionOnTheAgentsFrameWriterIsRefused() {
        // The agent runs in a named module that opens nothing: setAccessible on its framer fails in the snippet (the
        // issue's attack wrote a forged response through it), so no frame is sent at all.
        Sandbox.EvalResult r =
                eval("var f = Class.forName(\"brokkr.sandbox.SandboxAgent\").getDeclaredField(\"framer\"); "
                        + "f.setAccessible(true); Object framer = f.get(null); "
                        + "var send = framer.getClass().getDeclaredMethod(\"send\", byte.class, byte[].class); "
                        + "send.setAccessible(true); send.invoke(framer, (byte) 'C', " + FORGED_RESPONSE + "); "
                        + "Thread.sleep(500);");
        refusedInTheSnippet(r, "InaccessibleObjectException");
    }

    @Test
    void theAgentsFrameKeyIsUnreachableByReflectionOrAPrivateLookup() {
        // The framer's key field, the wire's package-private classes, a private lookup in the agent's class: each is
        // refused by the module's strong encapsulation (the classes load: their package is exported for the bridge).
        refusedInTheSnippet(
                eval(
                        "Class.forName(\"brokkr.sandbox.SandboxWire$Framer\").getDeclaredField(\"key\").setAccessible(true)"),
                "InaccessibleObjectException");
        refusedInTheSnippet(
                eval("Class.forName(\"brokkr.sandbox.SandboxWire$FrameKey\").getDeclaredConstructor(byte[].class)"
                        + ".newInstance(new byte[32])"),
                "IllegalAccessException");
        refusedInTheSnippet(
                eval("java.lang.invoke.MethodHandles.privateLookupIn(Class.forName(\"brokkr.sandbox.SandboxAgent\"), "
                        + "java.lang.invoke.MethodHandles.lookup())"),
                "IllegalAccessException");
        assertEquals(
                "brokkr.sandbox.agent false",
                eval("var m = Class.forName(\"brokkr.sandbox.SandboxAgent\").getModule(); m.getName() + \" \" + "
                                + "m.isOpen(\"brokkr.sandbox\")")
                        .value()
                        .replace("\"", ""));
    }

    @Test
    void startingTheAgentAgainFromASnippetIsRefused() {
        // Its main is public (the launcher calls it): a second run would read the harness's commands as its key.
        refusedInTheSnippet(eval("brokkr.sandbox.SandboxAgent.main(new String[0])"), "runs once");
    }

    @Test
    void unsafeMemoryAccessIsRefused() {
        // sun.misc.Unsafe's theUnsafe is reachable (jdk.unsupported opens it), but its memory access is denied
        // (--sun-misc-unsafe-memory-access=deny): no reading the agent's fields by offset.
        refusedInTheSnippet(
                eval(
                        "var uf = Class.forName(\"sun.misc.Unsafe\").getDeclaredField(\"theUnsafe\"); uf.setAccessible(true);"
                                + " var u = (sun.misc.Unsafe) uf.get(null); int[] a = {1}; u.getInt(a, (long) u.arrayBaseOffset(int[].class))"),
                "UnsupportedOperationException");
    }

    @Test
    void nativeCodeIsRefused() {
        // A downcall through the foreign-function API is a restricted method (--illegal-native-access=deny).
        refusedInTheSnippet(
                eval(
                        "java.lang.foreign.Linker.nativeLinker().defaultLookup().find(\"getpid\").map(a -> "
                                + "java.lang.foreign.Linker.nativeLinker().downcallHandle(a, "
                                + "java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_INT))).isPresent()"),
                "IllegalCallerException");
    }

    @Test
    void aContainedSnippetCannotReadItsJvmsMemoryOrTheWireThroughProc() {
        // /proc/self/mem gave the JVM's whole memory (the frame key in it), /proc/self/fd/1 opened for reading the
        // wire's pipe (the agent's frames): a contained sandbox mounts no /proc.
        assumeTrue(bwrap());
        for (String path : List.of("/proc/self/mem", "/proc/self/fd/1", "/proc/self/maps")) {
            refusedInTheSnippet(
                    eval("new java.io.RandomAccessFile(\"" + path + "\", \"r\").read()"), "FileNotFoundException");
        }
    }

    @Test
    void aHeapDumpThatWouldHoldTheFrameKeyCannotBeMade() {
        // jdk.management's diagnostics wrote the sandbox JVM's heap (its frame key in it) into the scratch folder: the
        // sandbox's runtime is linked without that module (SandboxRuntime).
        assumeTrue(SandboxRuntime.get().note() == null, "this JDK could not link the sandbox runtime");
        Sandbox.EvalResult bean = eval("java.lang.management.ManagementFactory.getPlatformMXBean("
                + "com.sun.management.HotSpotDiagnosticMXBean.class).dumpHeap(System.getProperty(\"java.io.tmpdir\")"
                + " + \"/heap.hprof\", true)");
        assertNotNull(bean.error(), "no heap dump: " + bean);
        assertFalse(bean.reset());
        Sandbox.EvalResult command = eval("java.lang.management.ManagementFactory.getPlatformMBeanServer().invoke("
                + "new javax.management.ObjectName(\"com.sun.management:type=DiagnosticCommand\"), \"gcHeapDump\", "
                + "new Object[] {new String[] {System.getProperty(\"java.io.tmpdir\") + \"/heap2.hprof\"}}, "
                + "new String[] {String[].class.getName()})");
        assertNotNull(command.error(), "no heap dump: " + command);
        assertEquals(
                "false false",
                eval("new java.io.File(System.getProperty(\"java.io.tmpdir\"), \"heap.hprof\").exists() + \" \" + "
                                + "new java.io.File(System.getProperty(\"java.io.tmpdir\"), \"heap2.hprof\").exists()")
                        .value()
                        .replace("\"", ""));
        stillWorks();
    }

    @Test
    void aWellFormedFrameWrittenToFileDescriptorOneIsRefusedForItsMissingKey() {
        // Before the frame key, a raw output frame was taken as the snippet's output (and a raw tool call or response
        // as the agent's): without the JVM's key its tag is wrong, so the wire is distrusted and the sandbox replaced.
        Sandbox.EvalResult r = eval(rawFrame('O', "\"forged output\".getBytes()") + " Thread.sleep(500);");
        assertEquals(Sandbox.Kind.PROTOCOL, r.error().kind(), String.valueOf(r.error()));
        replacedAndInStep(r);
    }

    @Test
    void harnessOutOfStepWithItsJvmIsReplacedNeverReused() {
        // A response the harness did not ask for, written on the raw standard output; then the snippet's own
        // response arrives as well: two answers to one command.
        Sandbox.EvalResult r = eval(rawFrame('C', FORGED_RESPONSE) + " Thread.sleep(500);");
        assertEquals(Sandbox.Kind.PROTOCOL, r.error().kind(), String.valueOf(r.error()));
        replacedAndInStep(r);
    }

    @Test
    void aDeserializationPayloadIsNeverDeserialized() {
        // The nested-HashSet payload: deserializing it hashes 2^depth sets (it pinned a harness core for good).
        String payload = "java.util.Set<Object> root = new java.util.HashSet<>(); java.util.Set<Object> s1 = root, "
                + "s2 = new java.util.HashSet<>(); for (int i = 0; i < 100; i++) { java.util.Set<Object> t1 = new "
                + "java.util.HashSet<>(), t2 = new java.util.HashSet<>(); t1.add(\"a\"); s1.add(t1); s1.add(t2); "
                + "s2.add(t1); s2.add(t2); s1 = t1; s2 = t2; } var bytes = new java.io.ByteArrayOutputStream(); "
                + "new java.io.ObjectOutputStream(bytes).writeObject(root); ";
        Sandbox.EvalResult r = assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> eval(payload + rawFrame('C', "bytes.toByteArray()") + " Thread.sleep(500);"));
        assertEquals(Sandbox.Kind.PROTOCOL, r.error().kind(), String.valueOf(r.error()));
        for (var e : Thread.getAllStackTraces().entrySet()) {
            for (StackTraceElement f : e.getValue()) {
                assertFalse(
                        f.getClassName().equals("java.io.ObjectInputStream")
                                || f.getMethodName().equals("hashCode")
                                        && f.getClassName().contains("Set"),
                        "no harness thread deserializes what the sandbox sent: " + e.getKey());
            }
        }
        replacedAndInStep(r);
    }

    @Test
    void aFrameOverTheSizeCapIsRefusedBeforeItIsBuffered() {
        // The header announces 32 MiB (over the 1 MiB cap of what the harness reads; the old cap was 64 MiB, and the
        // harness waited for bytes that never came): refused on its length, the bytes are never read or allocated.
        Sandbox.EvalResult r = eval(
                "var raw = new java.io.DataOutputStream(new java.io.FileOutputStream("
                        + "java.io.FileDescriptor.out)); raw.writeByte('O'); raw.writeInt(32 << 20); raw.flush(); Thread.sleep(500);");
        assertEquals(Sandbox.Kind.PROTOCOL, r.error().kind(), String.valueOf(r.error()));
        assertTrue(r.reset());
        stillWorks();
    }

    @Test
    void aToolCallNestedTenThousandDeepIsAProtocolErrorNotAStackOverflow() {
        Sandbox.EvalResult r = eval(rawFrame(
                        'T',
                        "(\"{\\\"id\\\": 1, \\\"name\\\": \\\"x\\\", \\\"args\\\": {\\\"a\\\": \" + \"[\".repeat(10_000) + \"]\".repeat(10_000) + \"}}\").getBytes()")
                + " Thread.sleep(500);");
        assertEquals(Sandbox.Kind.PROTOCOL, r.error().kind(), String.valueOf(r.error()));
        stillWorks();
    }

    private static final String LINGER =
            "() -> { while (true) { try { Thread.sleep(50); } catch (InterruptedException e) { } } }";

    @Test
    void aLeftoverThreadNamedLikeJShellsOwnIsStillFound() {
        Sandbox.EvalResult r =
                eval("Thread t = new Thread(" + LINGER + ", \"JShell-exec\"); t.setDaemon(true); t.start();");
        assertEquals(Sandbox.Kind.LEFTOVER_THREAD, r.error().kind(), String.valueOf(r.error()));
        assertTrue(r.reset());
        stillWorks();
    }

    @Test
    void aLeftoverDaemonThreadInTheSystemGroupIsStillFound() {
        Sandbox.EvalResult r = eval("ThreadGroup g = Thread.currentThread().getThreadGroup(); "
                + "while (g.getParent() != null) g = g.getParent(); "
                + "Thread t = new Thread(g, " + LINGER + ", \"Common-Cleaner-2\"); t.setDaemon(true); t.start();");
        assertEquals(Sandbox.Kind.LEFTOVER_THREAD, r.error().kind(), String.valueOf(r.error()));
        assertTrue(r.reset());
        stillWorks();
    }

    @Test
    void aParallelStreamLeavesNoThreadBehind() {
        Sandbox.EvalResult r = eval("java.util.stream.IntStream.range(0, 100_000).parallel().map(x -> x % 7).sum()");
        assertTrue(r.ok(), String.valueOf(r.error()));
        assertFalse(r.reset(), "the common pool's idle workers are the JDK's, not a leftover");
    }

    @Test
    void devAndDevShmAreNotWritable() {
        assumeTrue(bwrap(), "/dev is bubblewrap's");
        for (String path : List.of("/dev/shm/fill", "/dev/fill")) {
            Sandbox.EvalResult r = eval(
                    "java.nio.file.Files.write(java.nio.file.Path.of(\"" + path + "\"), new byte[1 << 20]).toString()");
            assertEquals(Sandbox.Kind.EXCEPTION, r.error().kind(), path + ": " + r);
            assertTrue(
                    r.error().message().contains("Read-only file system"),
                    r.error().message());
        }
        stillWorks();
    }

    @Test
    void theScratchFolderIsSizeLimited() {
        assumeTrue(bwrap(), "the scratch tmpfs is bubblewrap's");
        // A sandbox of its own with time to spare: 64 MiB take a while on a loaded machine.
        try (Sandbox s = Sandbox.start(sandbox.config().withEvalTimeout(Duration.ofSeconds(60)))) {
            Sandbox.EvalResult r = s.evaluate(
                    "byte[] mb = new byte[1 << 20]; int written = 0; try (var o = new java.io.FileOutputStream("
                            + "\"fill.bin\")) { for (; written < 1024; written++) o.write(mb); } "
                            + "finally { System.out.print(\"written=\" + written); }",
                    Sandbox.CallHandler.NONE);
            assertEquals(Sandbox.Kind.EXCEPTION, r.error().kind(), String.valueOf(r));
            assertTrue(
                    r.error().message().contains("No space left on device"),
                    r.error().message());
            assertEquals(
                    "written=" + (SandboxLimits.SCRATCH_BYTES >> 20), r.output().strip());
        }
    }

    @Test
    void writesToFileDescriptorTwoAreCountedNotKept() throws Exception {
        // A sandbox of its own with time to spare: a pipe is slow on a loaded machine.
        try (Sandbox s = Sandbox.start(sandbox.config().withEvalTimeout(Duration.ofSeconds(60)))) {
            long before = s.stderrBytes();
            Sandbox.EvalResult r = s.evaluate(
                    "var e = new java.io.FileOutputStream(java.io.FileDescriptor.err); "
                            + "byte[] mb = new byte[1 << 20]; for (int i = 0; i < 64; i++) e.write(mb);",
                    Sandbox.CallHandler.NONE);
            assertTrue(r.ok(), String.valueOf(r.error()));
            long deadline = System.currentTimeMillis() + 20_000;
            while (s.stderrBytes() - before < 64L << 20 && System.currentTimeMillis() < deadline) Thread.sleep(50);
            assertEquals(64L << 20, s.stderrBytes() - before, "every byte read and counted");
            try (var files = Files.walk(s.scratch().getParent())) {
                long stored = files.filter(Files::isRegularFile)
                        .mapToLong(f -> f.toFile().length())
                        .sum();
                assertTrue(stored < 1 << 20, "nothing of it on disk: " + stored + " bytes");
            }
        }
    }

    @Test
    void aThreadBombIsBoundedByTheTaskLimit() {
        assumeTrue(SandboxLimits.taskLimitAvailable(), "a pids cgroup is what bounds tasks here");
        // A sandbox of its own with time to spare: threads start slowly on a loaded machine.
        try (Sandbox s = Sandbox.start(sandbox.config().withEvalTimeout(Duration.ofSeconds(30)))) {
            Sandbox.EvalResult r = s.evaluate(
                    "int made = 0; try { for (; made < 5000; made++) { Thread t = new Thread(" + LINGER
                            + "); t.setDaemon(true); t.start(); } } catch (Throwable e) { System.out.print(e.getClass()"
                            + ".getSimpleName() + \" \"); } System.out.print(\"made=\" + made);",
                    Sandbox.CallHandler.NONE);
            assertTrue(r.output().startsWith("OutOfMemoryError"), String.valueOf(r));
            int made = Integer.parseInt(r.output().replaceAll("(?s).*made=(\\d+).*", "$1"));
            assertTrue(made < SandboxLimits.MAX_TASKS, "made " + made);
            assertEquals(Sandbox.Kind.LEFTOVER_THREAD, r.error().kind(), String.valueOf(r.error()));
            assertTrue(r.reset());
            assertEquals("2", s.evaluate("1 + 1", Sandbox.CallHandler.NONE).value());
        }
    }

    /**
     * Java that reads everything environment-like a snippet can reach: its own variables (System.getenv fails in the
     * sandbox: the JDK reads the environment through the process launcher, which cannot initialize there) and every
     * /proc/N/environ.
     */
    private static final String READ_ENVIRONMENTS = "StringBuilder seen = new StringBuilder(); "
            + "try { seen.append(System.getenv()); } catch (Throwable e) { seen.append(e); } "
            + "try (var ps = java.nio.file.Files.list(java.nio.file.Path.of(\"/proc\"))) { for (var p : ps.toList()) { "
            + "try { seen.append(new String(java.nio.file.Files.readAllBytes(p.resolve(\"environ\")))); } "
            + "catch (Exception e) { } } } catch (Exception e) { seen.append(e); } seen.toString()";

    private static void noKeyVisible(Sandbox s) {
        String[] keys = {System.getenv("BROKKR_TEST_OPENAI_API_KEY"), System.getenv("BROKKR_TEST_ANTHROPIC_API_KEY")};
        assumeTrue(keys[0] != null && keys[1] != null, "the fake keys are set by engine/pom.xml");
        Sandbox.EvalResult r = s.evaluate(READ_ENVIRONMENTS, Sandbox.CallHandler.NONE);
        assertTrue(r.ok(), String.valueOf(r.error()));
        for (String k : keys) assertFalse(r.value().contains(k), "a harness key reached the snippet");
        Sandbox.EvalResult parent = s.evaluate(
                "String ppid = java.nio.file.Files.readString(java.nio.file.Path.of(\"/proc/self/stat\")).split(\" \")[3]; "
                        + "new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of(\"/proc/\" + ppid + \"/environ\")))"
                        + ".replace('\\0', ' ').strip()",
                Sandbox.CallHandler.NONE);
        // As a plain process its parent is the harness: unreadable. In bubblewrap it is bubblewrap's own init, whose
        // environment is the one the harness gave it.
        assertTrue(
                parent.error() != null || parent.value().matches("\"(LANG=C\\.UTF-8)?( PWD=\\S+)?\""),
                "the parent's environment is unreadable or the sandbox's own: " + parent);
    }

    @Test
    void harnessKeysAreNotVisibleInBubblewrap() {
        assumeTrue(bwrap());
        noKeyVisible(sandbox);
    }

    @Test
    void harnessKeysAreNotVisibleToAPlainProcessSandbox() {
        SandboxConfig plain = new SandboxConfig(128, Duration.ofSeconds(5), 1 << 16, SandboxConfig.Isolation.PROCESS);
        try (Sandbox s = Sandbox.start(plain)) {
            noKeyVisible(s);
        }
    }

    @Test
    void withoutBubblewrapASandboxDoesNotStartUnlessAPlainProcessIsAskedFor() throws Exception {
        String old = System.getProperty("brokkr.sandbox.bwrap");
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        long dirsBefore = sandboxDirs(tmp);
        System.setProperty("brokkr.sandbox.bwrap", "/nonexistent/bwrap");
        try {
            IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalStateException.class, () -> Sandbox.start(sandbox.config()));
            assertTrue(e.getMessage().contains("sandbox: process"), e.getMessage());
        } finally {
            if (old == null) System.clearProperty("brokkr.sandbox.bwrap");
            else System.setProperty("brokkr.sandbox.bwrap", old);
        }
        assertEquals(dirsBefore, sandboxDirs(tmp));
    }

    @Test
    void aFailedStartLeavesNoTemporaryFolder() throws Exception {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        long before = sandboxDirs(tmp);
        for (int i = 0; i < 3; i++) {
            org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalStateException.class,
                    () -> Sandbox.start(sandbox.config(), SandboxImage.get(), List.of("-XX:+BrokkrNoSuchFlag")));
        }
        assertEquals(before, sandboxDirs(tmp), "each failed start removes its folder");
    }

    private static long sandboxDirs(Path tmp) throws Exception {
        try (var l = Files.list(tmp)) {
            // Only this JVM's (other test JVMs on the machine make their own at the same time).
            String own = "brokkr-sandbox-" + ProcessHandle.current().pid() + "-";
            return l.filter(p -> p.getFileName().toString().startsWith(own)).count();
        }
    }

    @Test
    void environmentVariablesOfTheHarnessAreNotVisible() {
        if (bwrap()) {
            // A contained sandbox has no /proc at all (nor a process launcher, through which System.getenv reads).
            Sandbox.EvalResult r =
                    eval("java.nio.file.Files.readString(java.nio.file.Path.of(\"/proc/self/environ\"))");
            assertTrue(r.error().message().contains("NoSuchFileException"), String.valueOf(r.error()));
            return;
        }
        Sandbox.EvalResult r = eval(
                "java.nio.file.Files.readString(java.nio.file.Path.of(\"/proc/self/environ\")).replace('\\0', ' ').strip()");
        assertNotNull(r.value(), String.valueOf(r.error()));
        assertTrue(r.value().matches("\"LANG=C\\.UTF-8( PWD=\\S+)?\""), "only what the sandbox sets: " + r.value());
    }

    @Test
    void poolHandsOutWarmSandboxesOnce() throws Exception {
        try (SandboxPool pool = new SandboxPool(sandbox.config(), 1)) {
            pool.refill();
            long deadline = System.currentTimeMillis() + 60_000;
            while (pool.readyCount() == 0 && System.currentTimeMillis() < deadline) Thread.sleep(50);
            assertEquals(1, pool.readyCount());
            try (Sandbox a = pool.acquire()) {
                Sandbox.EvalResult r = a.evaluate("int only = 1;", Sandbox.CallHandler.NONE);
                assertTrue(r.ok(), String.valueOf(r.error()));
            }
            try (Sandbox b = pool.acquire()) {
                assertEquals(
                        Sandbox.Kind.COMPILE,
                        b.evaluate("only", Sandbox.CallHandler.NONE).error().kind(),
                        "no state across sandboxes");
            }
        }
    }
}
