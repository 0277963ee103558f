package brokkr.bench;

import brokkr.cli.Main;
import brokkr.conversation.Candidate;
import brokkr.conversation.Turn;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.PostgresLocation;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.python.PyJson;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./brokkr bench fleet --store URL}: a fleet's throughput and the store's cost per cell. An
 * experiment of {@code --cells} cells (loop depth 1 against an OpenAI-compatible model on loopback that
 * answers after {@code --latency-ms}; two calls per cell) is queued in a fresh schema for each worker
 * count and run by that many {@code brokkr worker} processes of {@code --slots} slots, under a fleet-wide
 * cap of {@code --cap} cells calling the model. Cells per second are taken from the store (first attempt's
 * start to last attempt's end, so JVM start-up is not counted), against the ideal
 * {@code min(cap, workers x slots) / (2 x latency)}. The store's cost per cell is the time the workers
 * spent in the store's transactions (claims, records, heartbeats) per recorded cell, against SQLite's
 * writer time per attempt for the same cells in one process ({@code experiment run} on a directory, at
 * zero model latency: the store's cost does not depend on it).
 */
final class FleetBench {
    private FleetBench() {}

    static int run(List<String> args, PrintStream out) throws Exception {
        String store = null;
        int cells = 10_000, latency = 200, cap = 64, slots = 64;
        List<Integer> counts = List.of(1, 2, 4);
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String v = i + 1 < args.size() ? args.get(i + 1) : null;
            if (v == null) throw new IllegalArgumentException(a + " needs a value");
            i++;
            switch (a) {
                case "--store" -> store = v;
                case "--cells" -> cells = positive(a, v);
                case "--latency-ms" -> latency = positive(a, v);
                case "--cap" -> cap = positive(a, v);
                case "--slots" -> slots = positive(a, v);
                case "--workers" -> {
                    List<Integer> l = new ArrayList<>();
                    for (String x : v.split(",")) l.add(positive(a, x));
                    counts = l;
                }
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (store == null)
            throw new IllegalArgumentException("--store postgresql://HOST[:PORT]/DB is required (the bench makes and"
                    + " drops its own schemas brokkr_bench_fleet_*)");
        if (cells > ExperimentSpec.MAX_REPETITIONS)
            throw new IllegalArgumentException("--cells is at most " + ExperimentSpec.MAX_REPETITIONS);
        PostgresLocation base = PostgresLocation.parse(store);
        Path tmp = Files.createTempDirectory("brokkr-bench-fleet-");
        try (LatencyModel model = new LatencyModel(latency)) {
            Path spec = spec(tmp, cells, slots);
            double ideal = Math.min(cap, slots * 1.0) * 1000.0 / (2.0 * latency);
            out.printf(
                    Locale.ROOT,
                    "fleet: %d cells (loop depth 1: 2 model calls each), model latency %d ms, fleet cap %d, %d slots"
                            + " per worker; load average %s%n",
                    cells,
                    latency,
                    cap,
                    slots,
                    loadAverage());
            out.println("workers  cells/s  ideal/s  ratio  wall_s  store_ms_per_cell (claim + record + heartbeat)");
            double lastStoreMs = 0;
            for (int n : counts) {
                PostgresLocation at = base.withSchema("brokkr_bench_fleet_w" + n);
                drop(at);
                Run reg = cli(
                        "experiment",
                        "run",
                        spec.toString(),
                        "--store",
                        at.display(),
                        "--workers",
                        "0",
                        "--provider-limit",
                        "openai=" + cap);
                if (reg.code != 0) throw new IllegalStateException("registration failed: " + reg.err + reg.out);
                List<Process> workers = new ArrayList<>();
                List<Path> logs = new ArrayList<>();
                for (int w = 0; w < n; w++) {
                    Path log = tmp.resolve("w" + n + "-" + w + ".log");
                    logs.add(log);
                    workers.add(worker(at.display(), log, model.baseUrl(), slots));
                }
                for (Process p : workers) {
                    if (!p.waitFor(30, TimeUnit.MINUTES)) p.destroyForcibly();
                    if (p.exitValue() != 0)
                        throw new IllegalStateException(
                                "a worker failed: " + Files.readString(logs.get(workers.indexOf(p))));
                }
                double[] span = span(at);
                double rate = cells / span[0];
                double storeMs = 0;
                int measured = 0;
                for (Path log : logs) {
                    Matcher m = PROFILE.matcher(Files.readString(log));
                    if (m.find()) {
                        storeMs += Double.parseDouble(m.group(1));
                        measured++;
                    }
                }
                storeMs = measured == 0 ? Double.NaN : storeMs / measured;
                lastStoreMs = storeMs;
                out.printf(
                        Locale.ROOT,
                        "%7d  %7.1f  %7.1f  %5.2f  %6.1f  %.3f%n",
                        n,
                        rate,
                        ideal,
                        rate / ideal,
                        span[0],
                        storeMs);
                drop(at);
            }
            // SQLite in one process (experiment run --verbose in a JVM of its own), the same cells at zero latency:
            // the store's time per attempt (rendering its JSON plus the writer's share of the commits).
            double serialize, writer;
            try (LatencyModel fast = new LatencyModel(0)) {
                Path log = tmp.resolve("sqlite.log");
                Process p = process(
                        List.of(
                                "experiment",
                                "run",
                                spec.toString(),
                                "--dir",
                                tmp.resolve("sqlite").toString(),
                                "--no-progress",
                                "--verbose"),
                        log,
                        fast.baseUrl());
                if (!p.waitFor(30, TimeUnit.MINUTES)) p.destroyForcibly();
                Matcher m = SQLITE_PROFILE.matcher(Files.readString(log));
                if (p.exitValue() != 0 || !m.find())
                    throw new IllegalStateException("the SQLite run failed: " + Files.readString(log));
                serialize = Double.parseDouble(m.group(1));
                writer = Double.parseDouble(m.group(2));
            }
            double sqliteMs = serialize + writer;
            out.printf(
                    Locale.ROOT,
                    "store cost per cell: PostgreSQL fleet %.3f ms (claim + record + heartbeat, %d workers) against"
                            + " SQLite %.3f ms (serialize %.3f + writer %.3f) in one process: %.1fx; load average %s%n",
                    lastStoreMs,
                    counts.getLast(),
                    sqliteMs,
                    serialize,
                    writer,
                    lastStoreMs / sqliteMs,
                    loadAverage());
        } finally {
            delete(tmp);
        }
        return 0;
    }

    private static final Pattern PROFILE = Pattern.compile("store per cell: .*\\(total ([0-9.]+) ms\\)");

    private static final Pattern SQLITE_PROFILE =
            Pattern.compile("store per attempt: serialize ([0-9.]+) ms, writer ([0-9.]+) ms");

    private static Path spec(Path dir, int cells, int slots) throws IOException {
        Path f = dir.resolve("fleet-bench.yaml");
        Files.writeString(
                f,
                "name: fleet-bench\ndomain: loop\ntasks: [\"1\"]\ncandidates:\n"
                        + "  - {id: model, provider: openai, model: loop-model}\nrepetitions: " + cells
                        + "\nparallelism: " + slots + "\nmax_infra_retries: 0\nprogress: false\n");
        return f;
    }

    /** Seconds from the first attempt's start to the last attempt's end, as the store recorded them. */
    private static double[] span(PostgresLocation at) throws Exception {
        try (Connection c = connect(at);
                Statement s = c.createStatement();
                ResultSet r =
                        s.executeQuery("SELECT (max(started_at + duration_ms) - min(started_at)) / 1000.0, count(*)"
                                + " FROM " + at.schema() + ".attempt")) {
            r.next();
            return new double[] {r.getDouble(1), r.getDouble(2)};
        }
    }

    private static void drop(PostgresLocation at) throws Exception {
        try (Connection c = connect(at);
                Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + at.schema() + " CASCADE");
        }
    }

    private static Connection connect(PostgresLocation at) throws Exception {
        Properties p = new Properties();
        String user = at.user() != null ? at.user() : System.getenv("PGUSER");
        if (user != null) p.setProperty("user", user);
        if (System.getenv("PGPASSWORD") != null) p.setProperty("password", System.getenv("PGPASSWORD"));
        return DriverManager.getConnection("jdbc:postgresql://" + at.host() + ":" + at.port() + "/" + at.database(), p);
    }

    private static Process worker(String store, Path log, String baseUrl, int slots) throws IOException {
        return process(List.of("worker", "--store", store, "--slots", Integer.toString(slots)), log, baseUrl);
    }

    /** {@code brokkr ARGS} in a JVM of its own (this class path), reaching the model at {@code baseUrl}. */
    private static Process process(List<String> args, Path log, String baseUrl) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Xmx1g",
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("OPENAI_BASE_URL", baseUrl);
        pb.environment().putIfAbsent("OPENAI_API_KEY", "sk-bench");
        return pb.start();
    }

    private record Run(int code, String out, String err) {}

    private static Run cli(String... argv) {
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int code = Main.run(
                List.of(argv),
                new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
        return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    private static String loadAverage() {
        try {
            String[] l = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return l[0] + " " + l[1] + " " + l[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static int positive(String flag, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 0) return n;
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(flag + " takes a whole number, not '" + v + "'");
    }

    private static void delete(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is harmless
        }
    }

    /** An OpenAI-compatible model on loopback: the loop benchmark's ideal follower, answering after {@code latencyMs}. */
    static final class LatencyModel implements AutoCloseable {
        private final HttpServer server;
        final AtomicInteger peak = new AtomicInteger();
        private final AtomicInteger inFlight = new AtomicInteger();

        LatencyModel(int latencyMs) throws IOException {
            Candidate ideal = LoopFollower.ideal();
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            AtomicInteger ids = new AtomicInteger();
            server.createContext("/", ex -> {
                try (ex) {
                    peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    byte[] reply;
                    int status = 200;
                    try {
                        if (latencyMs > 0) Thread.sleep(latencyMs);
                        DecodedRequest req = OpenAiChat.decodeRequest(body);
                        Turn t = ideal.next(req.history(), req.tools());
                        reply = PyJson.dumps(OpenAiChat.encodeResponse(
                                        t.message(),
                                        req.model() == null ? "m" : req.model(),
                                        "chatcmpl-" + ids.incrementAndGet()))
                                .getBytes(StandardCharsets.UTF_8);
                    } catch (Exception e) {
                        status = 500;
                        reply = ("{\"error\": {\"message\": \"" + e.getClass().getSimpleName() + "\"}}")
                                .getBytes(StandardCharsets.UTF_8);
                    } finally {
                        inFlight.decrementAndGet();
                    }
                    ex.getResponseHeaders().add("Content-Type", "application/json");
                    ex.sendResponseHeaders(status, reply.length);
                    try (OutputStream os = ex.getResponseBody()) {
                        os.write(reply);
                    }
                }
            });
            server.start();
        }

        String baseUrl() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
