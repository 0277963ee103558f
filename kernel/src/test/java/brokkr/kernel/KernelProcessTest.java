package brokkr.kernel;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.value.Json;
import brokkr.value.PyDict;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.zeromq.SocketType;
import org.zeromq.ZMQ;

/**
 * The kernel as Jupyter runs it, a process of its own: it exits when the client that started it dies
 * (its parent, or the process JPY_PARENT_PID names), and on a control-channel shutdown_request even
 * while a cell ignores interrupts. Orphans are killed at the end of each test, so a failure leaves none.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KernelProcessTest {
    static final String KEY = "5c1d8a4e-2f0b-4a7e-9d3c-b6e1f0a2c4d8";
    static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    Path tmp;

    final List<ProcessHandle> started = new ArrayList<>();
    final List<ZMQ.Socket> sockets = new ArrayList<>();
    ZMQ.Context ctx;

    @AfterEach
    void killLeftovers() {
        for (ProcessHandle p : started) p.destroyForcibly();
        sockets.forEach(ZMQ.Socket::close);
        if (ctx != null) ctx.close();
    }

    record Ports(int shell, int iopub, int stdin, int control, int hb) {}

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    Path connectionFile(Ports p) throws IOException {
        Path f = tmp.resolve("kernel-" + UUID.randomUUID() + ".json");
        Files.writeString(
                f,
                "{\"shell_port\":" + p.shell() + ",\"iopub_port\":" + p.iopub() + ",\"stdin_port\":" + p.stdin()
                        + ",\"control_port\":" + p.control() + ",\"hb_port\":" + p.hb()
                        + ",\"ip\":\"127.0.0.1\",\"key\":\"" + KEY
                        + "\",\"transport\":\"tcp\",\"signature_scheme\":\"hmac-sha256\",\"kernel_name\":\"brokkr\"}");
        return f;
    }

    static List<String> kernelCommand(String mainClass, Path connectionFile) {
        List<String> cmd = new ArrayList<>(List.of(
                JAVA,
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Djava.awt.headless=true",
                "-cp",
                System.getProperty("java.class.path"),
                mainClass));
        if (mainClass.equals("brokkr.cli.Main")) cmd.addAll(List.of("kernel", "run"));
        cmd.addAll(List.of("--connection-file", connectionFile.toString()));
        return cmd;
    }

    static String shellQuote(List<String> words) {
        return String.join(
                " ",
                words.stream().map(w -> "'" + w.replace("'", "'\\''") + "'").toList());
    }

    /** A signed request on a DEALER socket; returns its msg_id. */
    static String send(ZMQ.Socket socket, String type, String content) throws Exception {
        String id = UUID.randomUUID().toString();
        String header = "{\"msg_id\":\"" + id
                + "\",\"username\":\"test\",\"session\":\"p1\",\"date\":\"2026-01-01T00:00:00.000Z\","
                + "\"msg_type\":\"" + type + "\",\"version\":\"5.3\"}";
        List<String> parts = List.of(header, "{}", "{}", content);
        socket.sendMore("<IDS|MSG>");
        socket.sendMore(KernelProtocolTest.sign(KEY, parts));
        for (int i = 0; i < 3; i++) socket.sendMore(parts.get(i));
        socket.send(parts.get(3));
        return id;
    }

    /** The msg_type of the next message on the socket within the timeout, or null. */
    String next(ZMQ.Socket socket, int timeoutMs, String wantedType) {
        long end = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < end) {
            ZMQ.Poller poller = ctx.poller(1);
            poller.register(socket, ZMQ.Poller.POLLIN);
            if (poller.poll(Math.max(1, end - System.currentTimeMillis())) <= 0) return null;
            List<String> frames = new ArrayList<>();
            do frames.add(socket.recvStr());
            while (socket.hasReceiveMore());
            int d = frames.indexOf("<IDS|MSG>");
            PyDict header = Json.parse(frames.get(d + 2)).asDict();
            String type = header.get("msg_type").asStr();
            if (wantedType == null || type.equals(wantedType)) return type + " " + frames.get(d + 5);
        }
        return null;
    }

    ZMQ.Socket connect(SocketType type, int port) {
        if (ctx == null) ctx = ZMQ.context(1);
        ZMQ.Socket s = ctx.socket(type);
        s.setLinger(0);
        if (type == SocketType.SUB) s.subscribe(new byte[0]);
        s.connect("tcp://127.0.0.1:" + port);
        sockets.add(s);
        return s;
    }

    /** Waits until the kernel answers a kernel_info_request on shell. */
    void awaitReady(ZMQ.Socket shell) throws Exception {
        send(shell, "kernel_info_request", "{}");
        assertNotNull(next(shell, 120_000, "kernel_info_reply"), "the kernel never answered kernel_info_request");
    }

    static boolean exitsWithin(ProcessHandle p, long ms) throws InterruptedException {
        long end = System.currentTimeMillis() + ms;
        while (p.isAlive() && System.currentTimeMillis() < end) Thread.sleep(100);
        return !p.isAlive();
    }

    /** A kernel started by a bash client (its parent, or with {@code named} its grandparent that JPY_PARENT_PID names). */
    record Launched(Process client, ProcessHandle kernel) {}

    Launched launchUnderBash(Ports ports, Path log, boolean named) throws Exception {
        String launch = shellQuote(kernelCommand("brokkr.cli.Main", connectionFile(ports))) + " >'" + log
                + "' 2>&1 & echo $!; wait";
        List<String> cmd = named
                ? List.of("bash", "-c", "JPY_PARENT_PID=$$ bash -c " + shellQuote(List.of(launch)) + " & wait")
                : List.of("bash", "-c", launch);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().remove("JPY_PARENT_PID");
        Process client = pb.start();
        started.add(client.toHandle());
        long kernelPid = Long.parseLong(
                new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))
                        .readLine()
                        .strip());
        ProcessHandle kernel = ProcessHandle.of(kernelPid).orElseThrow();
        started.add(kernel);
        kernel.parent().ifPresent(started::add);
        return new Launched(client, kernel);
    }

    /**
     * {@code direct}: the kernel's parent is killed. {@code named}: the client is the grandparent that
     * JPY_PARENT_PID names; only it is killed, the shell in between lives on, as a launcher script would.
     */
    @ParameterizedTest(name = "client killed: {0}")
    @ValueSource(strings = {"direct", "named"})
    void theKernelExitsWhenItsClientDies(String which) throws Exception {
        Ports ports = new Ports(freePort(), freePort(), freePort(), freePort(), freePort());
        Path log = tmp.resolve("kernel.log");
        Launched l = launchUnderBash(ports, log, which.equals("named"));
        Process client = l.client();
        ProcessHandle kernel = l.kernel();

        awaitReady(connect(SocketType.DEALER, ports.shell()));
        if (which.equals("named"))
            assertNotEquals(client.pid(), kernel.parent().orElseThrow().pid(), "the client must be a grandparent");
        else assertEquals(client.pid(), kernel.parent().orElseThrow().pid());
        client.destroyForcibly();
        client.waitFor();
        assertTrue(
                exitsWithin(kernel, 30_000), "the kernel outlived its client by 30 s; log:\n" + Files.readString(log));
        assertTrue(Files.readString(log).contains("exited; shutting down"), Files.readString(log));
    }

    @Test
    void aShutdownRequestEndsTheProcessEvenWhileACellIgnoresInterrupts() throws Exception {
        Ports ports = new Ports(freePort(), freePort(), freePort(), freePort(), freePort());
        Path log = tmp.resolve("kernel.log");
        Process kernel = new ProcessBuilder(kernelCommand(StubbornKernelMain.class.getName(), connectionFile(ports)))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        started.add(kernel.toHandle());
        ZMQ.Socket shell = connect(SocketType.DEALER, ports.shell());
        ZMQ.Socket iopub = connect(SocketType.SUB, ports.iopub());
        ZMQ.Socket control = connect(SocketType.DEALER, ports.control());
        awaitReady(shell);

        send(shell, "execute_request", KernelProtocolTest.executeContent("%stubborn"));
        String started = next(iopub, 60_000, "stream");
        assertNotNull(started, "the stubborn magic never started");
        assertTrue(started.contains(StubbornKernelMain.STARTED), started);
        send(control, "shutdown_request", "{\"restart\":false}");
        assertNotNull(next(control, 30_000, "shutdown_reply"), "no shutdown_reply");
        assertTrue(
                exitsWithin(kernel.toHandle(), 30_000),
                "the kernel ignored shutdown_request for 30 s; log:\n" + Files.readString(log));
        assertEquals(0, kernel.exitValue());
    }

    /**
     * A hook that really never ends: it waits on a lock the cell holds, and {@code ReentrantLock.lock()}
     * ignores interrupts. (A hook that sleeps and returns when interrupted is ended by the kernel's own
     * shutdown: {@code onShutdown} interrupts the cells' threads, and under load that can come after
     * {@code System.exit} began the hooks, so the JVM then ended cleanly before the watchdog's grace.)
     * The hook is a method reference to the JDK's {@code lock}, so it runs no snippet code: JShell's
     * {@code LocalExecutionControl} weaves a stop check into every snippet method, and a shutdown that
     * stops a cell still running sets its {@code allStop} flag until the next cell; a lambda's body would
     * then throw at its first line and the hook end at once (CI stop 36 saw this, the kernel exiting
     * cleanly with no halt).
     */
    static final String ENDLESS_HOOK = "var held = new java.util.concurrent.locks.ReentrantLock(); held.lock();"
            + " Runtime.getRuntime().addShutdownHook(new Thread(held::lock));"
            + " System.out.println(\"hook registered\");";

    /**
     * A shutdown hook a cell registered that never ends does not keep the kernel alive: after a
     * shutdown_request, or its client's death, the process halts once the hooks had their grace period.
     */
    @ParameterizedTest(name = "ended by: {0}")
    @ValueSource(strings = {"shutdown_request", "client killed"})
    void aShutdownHookThatNeverEndsDoesNotKeepTheKernelAlive(String how) throws Exception {
        Ports ports = new Ports(freePort(), freePort(), freePort(), freePort(), freePort());
        Path log = tmp.resolve("kernel.log");
        Launched l = launchUnderBash(ports, log, false);
        Process client = l.client();
        ProcessHandle kernel = l.kernel();
        ZMQ.Socket shell = connect(SocketType.DEALER, ports.shell());
        ZMQ.Socket iopub = connect(SocketType.SUB, ports.iopub());
        ZMQ.Socket control = connect(SocketType.DEALER, ports.control());
        awaitReady(shell);
        send(shell, "execute_request", KernelProtocolTest.executeContent(ENDLESS_HOOK));
        String printed = next(iopub, 60_000, "stream");
        assertNotNull(printed, "the cell never ran");
        assertTrue(printed.contains("hook registered"), printed);
        assertNotNull(next(shell, 60_000, "execute_reply"), "the cell never ended");
        if (how.equals("shutdown_request")) {
            send(control, "shutdown_request", "{\"restart\":false}");
            assertNotNull(next(control, 30_000, "shutdown_reply"), "no shutdown_reply");
        } else {
            client.destroyForcibly();
            client.waitFor();
        }
        assertTrue(
                exitsWithin(kernel, 30_000),
                "a cell's endless shutdown hook kept the kernel alive for 30 s; log:\n" + Files.readString(log));
        assertTrue(
                Files.readString(log).contains("shutdown hooks did not end"),
                "the kernel ended, but not by the watchdog's halt; log:\n" + Files.readString(log));
    }

    /**
     * The kernel as Jupyter starts it from an installed kernelspec (its argv, its own copy of the class path):
     * a cell that loads sqlite's native library and Tablesaw (whose classgraph calls sun.misc.Unsafe) prints
     * its result and no JDK warning, neither in the cell nor in the kernel's log.
     */
    @Test
    void theInstalledKernelspecStartsFromItsCopyAndCellsShowNoJdkWarnings() throws Exception {
        Path spec = KernelSpec.install(new KernelSpec.Prefix(tmp.resolve("prefix")), Map.of());
        Ports ports = new Ports(freePort(), freePort(), freePort(), freePort(), freePort());
        Path connection = connectionFile(ports);
        List<String> argv = new ArrayList<>(
                Json.parse(Files.readString(spec.resolve("kernel.json"))).asDict().get("argv").asList().stream()
                        .map(v -> v.asStr().replace("{connection_file}", connection.toString()))
                        .toList());
        argv.add(1, "-Dorg.sqlite.tmpdir=" + Files.createDirectories(tmp.resolve("sqlite-native")));
        Path log = tmp.resolve("kernel.log");
        Process kernel = new ProcessBuilder(argv)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        started.add(kernel.toHandle());
        ZMQ.Socket shell = connect(SocketType.DEALER, ports.shell());
        ZMQ.Socket iopub = connect(SocketType.SUB, ports.iopub());
        awaitReady(shell);
        send(
                shell,
                "execute_request",
                KernelProtocolTest.executeContent(
                        "Table t = Table.create(\"t\", tech.tablesaw.api.IntColumn.create(\"n\", 1, 2));\n"
                                + "try (var c = java.sql.DriverManager.getConnection(\"jdbc:sqlite::memory:\")) { c.createStatement().execute(\"select 1\"); }\n"
                                + "System.out.println(\"rows \" + t.rowCount());"));
        StringBuilder streams = new StringBuilder();
        for (String m; (m = next(iopub, 60_000, null)) != null; ) {
            if (m.startsWith("stream ") || m.startsWith("error "))
                streams.append(m).append('\n');
            if (m.startsWith("status ") && m.contains("idle") && !streams.isEmpty()) break;
        }
        assertTrue(streams.toString().contains("rows 2"), streams + "\nlog:\n" + Files.readString(log));
        assertFalse(streams.toString().contains("WARNING"), streams.toString());
        assertFalse(Files.readString(log).contains("WARNING"), Files.readString(log));
    }

    @Test
    void theWatchedClientsAreTheParentAndTheAncestorJpyParentPidNames() {
        ProcessHandle self = ProcessHandle.current();
        ProcessHandle parent = self.parent().orElseThrow();
        ProcessHandle grandparent = parent.parent().orElseThrow();
        assertEquals(List.of(parent), KernelServer.clients(self, null));
        assertEquals(List.of(parent), KernelServer.clients(self, "not a pid"));
        assertEquals(List.of(parent), KernelServer.clients(self, String.valueOf(parent.pid())));
        assertEquals(List.of(parent, grandparent), KernelServer.clients(self, " " + grandparent.pid() + " "));
        assertEquals(List.of(parent), KernelServer.clients(self, String.valueOf(self.pid())), "itself is no ancestor");
    }
}
