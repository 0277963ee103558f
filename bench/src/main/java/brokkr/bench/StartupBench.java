package brokkr.bench;

import brokkr.value.Json;
import brokkr.value.PyDict;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.zeromq.SocketType;
import org.zeromq.ZMQ;

/**
 * {@code ./brokkr bench startup}: how long the launcher takes to answer, each run a new process from
 * {@code ./brokkr} (bash, the JVM, the CLI) as a user starts it, with the launcher's AOT cache and
 * without it ({@code BROKKR_AOT=0}), the two alternating run by run so both see the same machine:
 * <ul>
 *   <li>{@code --version} and {@code experiment show DIR}: time to the first byte on stdout, and to exit;</li>
 *   <li>the kernel ({@code ./brokkr kernel run --connection-file F}): time to its first reply (the
 *       {@code kernel_info_reply} to a request sent as it starts), then {@code %domain load tau2-retail}
 *       in that fresh process (its data read and verified: the first time in the process), and the same
 *       cell again (the data already loaded: once per process).</li>
 * </ul>
 * Median and best of {@code --runs} (default 5) per row and mode. The files the commands read are in the
 * OS's cache after the first run; "cold" is the JVM's: a new process, nothing loaded or compiled.
 */
public final class StartupBench {
    private StartupBench() {}

    /** One measured quantity of one run, in milliseconds. */
    record Sample(String row, boolean aot, double millis) {}

    public static int run(List<String> args, PrintStream out) throws Exception {
        int runs = 5;
        Path experiment = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String v = i + 1 < args.size() ? args.get(i + 1) : null;
            switch (a) {
                case "--runs" -> runs = ReplayBench.positive(a, ReplayBench.need(a, v));
                case "--experiment" -> experiment = Path.of(ReplayBench.need(a, v));
                default -> throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
            i++;
        }
        Path home = Path.of(System.getProperty("brokkr.home", "."));
        Path launcher = home.resolve("brokkr");
        if (!Files.isExecutable(launcher))
            throw new IllegalArgumentException("no launcher at " + launcher + " (run through ./brokkr)");
        if (experiment != null && !Files.isDirectory(experiment))
            throw new IllegalArgumentException("no such experiment directory: " + experiment);
        out.println("each row: a new ./brokkr process per run; aot = the launcher's AOT cache, none = BROKKR_AOT=0");
        List<Sample> samples = new ArrayList<>();
        for (int r = 0; r <= runs; r++) {
            for (boolean aot : r % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                // Run 0 is unmeasured: the launcher's build check and the OS's file cache settle.
                List<Sample> mine = new ArrayList<>();
                cli(launcher, aot, "--version", List.of("--version"), mine);
                if (experiment != null)
                    cli(launcher, aot, "experiment show", List.of("experiment", "show", experiment.toString()), mine);
                kernel(launcher, aot, mine);
                if (r > 0) samples.addAll(mine);
            }
        }
        out.print(table(samples));
        return 0;
    }

    /** Time to the first byte of stdout and to exit of {@code ./brokkr ARGS}. */
    static void cli(Path launcher, boolean aot, String row, List<String> args, List<Sample> into)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("BROKKR_AOT", aot ? "1" : "0");
        long t0 = System.nanoTime();
        Process p = pb.start();
        try (InputStream in = p.getInputStream()) {
            if (in.read() < 0) throw new IllegalStateException(row + " printed nothing");
            long first = System.nanoTime();
            in.transferTo(OutputNull.INSTANCE);
            int rc = p.waitFor();
            long exit = System.nanoTime();
            if (rc != 0) throw new IllegalStateException(row + " exited with " + rc);
            into.add(new Sample(row + ": first output", aot, (first - t0) / 1e6));
            into.add(new Sample(row + ": exit", aot, (exit - t0) / 1e6));
        } finally {
            p.destroyForcibly();
        }
    }

    /** A sink for the rest of a command's output. */
    private static final class OutputNull extends java.io.OutputStream {
        static final OutputNull INSTANCE = new OutputNull();

        @Override
        public void write(int b) {}

        @Override
        public void write(byte[] b, int off, int len) {}
    }

    /** The kernel's first reply, then {@code %domain load tau2-retail} twice, in one new kernel process. */
    static void kernel(Path launcher, boolean aot, List<Sample> into) throws Exception {
        Path dir = Files.createTempDirectory("brokkr-startup");
        String key = UUID.randomUUID().toString();
        int shellPort = freePort(), iopub = freePort(), stdin = freePort(), control = freePort(), hb = freePort();
        Path conn = dir.resolve("kernel.json");
        Files.writeString(
                conn,
                "{\"shell_port\":" + shellPort + ",\"iopub_port\":" + iopub + ",\"stdin_port\":" + stdin
                        + ",\"control_port\":" + control + ",\"hb_port\":" + hb
                        + ",\"ip\":\"127.0.0.1\",\"key\":\"" + key
                        + "\",\"transport\":\"tcp\",\"signature_scheme\":\"hmac-sha256\",\"kernel_name\":\"brokkr\"}");
        ProcessBuilder pb = new ProcessBuilder(
                        launcher.toString(), "kernel", "run", "--connection-file", conn.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("BROKKR_AOT", aot ? "1" : "0");
        try (ZMQ.Context ctx = ZMQ.context(1)) {
            ZMQ.Socket shell = ctx.socket(SocketType.DEALER);
            ZMQ.Socket ctl = ctx.socket(SocketType.DEALER);
            shell.setLinger(0);
            ctl.setLinger(0);
            long t0 = System.nanoTime();
            Process p = pb.start();
            try {
                // ZeroMQ connects (and reconnects) until the kernel binds; the request waits in the queue.
                shell.connect("tcp://127.0.0.1:" + shellPort);
                ctl.connect("tcp://127.0.0.1:" + control);
                send(shell, key, "kernel_info_request", "{}");
                reply(ctx, shell, p, "kernel_info_reply");
                long ready = System.nanoTime();
                into.add(new Sample("kernel: first reply", aot, (ready - t0) / 1e6));
                for (String row : List.of("%domain load tau2-retail: first", "%domain load tau2-retail: again")) {
                    long c0 = System.nanoTime();
                    send(
                            shell,
                            key,
                            "execute_request",
                            "{\"code\":\"%domain load tau2-retail\",\"silent\":false,\"store_history\":true,"
                                    + "\"user_expressions\":{},\"allow_stdin\":false,\"stop_on_error\":true}");
                    PyDict content = reply(ctx, shell, p, "execute_reply");
                    if (!content.get("status").asStr().equals("ok"))
                        throw new IllegalStateException("%domain load tau2-retail failed: " + content);
                    into.add(new Sample(row, aot, (System.nanoTime() - c0) / 1e6));
                }
                send(ctl, key, "shutdown_request", "{\"restart\":false}");
                if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
            } finally {
                p.destroyForcibly();
                shell.close();
                ctl.close();
                try (var files = Files.list(dir)) {
                    for (Path f : files.toList()) Files.deleteIfExists(f);
                }
                Files.deleteIfExists(dir);
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** A signed Jupyter request (wire protocol 5.3) on a DEALER socket. */
    static void send(ZMQ.Socket socket, String key, String type, String content) throws GeneralSecurityException {
        String header = "{\"msg_id\":\"" + UUID.randomUUID() + "\",\"username\":\"bench\",\"session\":\"startup\","
                + "\"date\":\"2026-01-01T00:00:00.000Z\",\"msg_type\":\"" + type + "\",\"version\":\"5.3\"}";
        List<String> parts = List.of(header, "{}", "{}", content);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        for (String part : parts) mac.update(part.getBytes(StandardCharsets.UTF_8));
        socket.sendMore("<IDS|MSG>");
        socket.sendMore(HexFormat.of().formatHex(mac.doFinal()));
        for (int i = 0; i < 3; i++) socket.sendMore(parts.get(i));
        socket.send(parts.get(3));
    }

    /** The content of the next message of {@code type} on {@code socket}; the kernel's exit or two minutes: an error. */
    static PyDict reply(ZMQ.Context ctx, ZMQ.Socket socket, Process kernel, String type) {
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        ZMQ.Poller poller = ctx.poller(1);
        poller.register(socket, ZMQ.Poller.POLLIN);
        while (System.nanoTime() < end) {
            if (!kernel.isAlive()) throw new IllegalStateException("the kernel exited with " + kernel.exitValue());
            if (poller.poll(100) <= 0) continue;
            List<String> frames = new ArrayList<>();
            do frames.add(socket.recvStr());
            while (socket.hasReceiveMore());
            int d = frames.indexOf("<IDS|MSG>");
            if (d < 0 || frames.size() < d + 6) continue;
            PyDict header = Json.parse(frames.get(d + 2)).asDict();
            if (header.get("msg_type").asStr().equals(type))
                return Json.parse(frames.get(d + 5)).asDict();
        }
        throw new IllegalStateException("no " + type + " from the kernel within two minutes");
    }

    /** Per row, median and best with the cache and without, and their ratio (median none / median aot). */
    static String table(List<Sample> samples) {
        Map<String, List<Sample>> rows = new LinkedHashMap<>();
        for (Sample s : samples)
            rows.computeIfAbsent(s.row(), k -> new ArrayList<>()).add(s);
        StringBuilder t = new StringBuilder();
        t.append(String.format(
                Locale.ROOT,
                "%-36s %12s %10s %12s %10s %8s%n",
                "",
                "aot median",
                "aot best",
                "none median",
                "none best",
                "x"));
        for (var e : rows.entrySet()) {
            double[] with = millis(e.getValue(), true), without = millis(e.getValue(), false);
            t.append(String.format(
                    Locale.ROOT,
                    "%-36s %9.0f ms %7.0f ms %9.0f ms %7.0f ms %8.2f%n",
                    e.getKey(),
                    median(with),
                    with[0],
                    median(without),
                    without[0],
                    median(without) / median(with)));
        }
        return t.toString();
    }

    private static double[] millis(List<Sample> samples, boolean aot) {
        double[] m = samples.stream()
                .filter(s -> s.aot() == aot)
                .mapToDouble(Sample::millis)
                .toArray();
        Arrays.sort(m);
        return m;
    }

    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
