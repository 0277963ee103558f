package brokkr.experiment.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for tests, never a mock: {@code initdb} into a fresh temporary directory, then
 * {@code pg_ctl start} listening on 127.0.0.1 only, on a free port, with its Unix socket inside that directory
 * (nothing of the machine's own clusters is touched). When the JVM runs as root the server runs as the
 * {@code postgres} user ({@code runuser}), as PostgreSQL refuses to run as root.
 *
 * <p>The superuser is named after the JVM's user ({@code user.name}), so a connection without {@code PGUSER}
 * (the driver's default user is {@code user.name}) reaches it, from this JVM and from child processes alike;
 * it is trusted on loopback (no password). Every other role must give its password (scram-sha-256), which is
 * what tests of wrong credentials create ({@link #createRole}).
 *
 * <p>{@link #shared()} is one server per test JVM, shared by the test classes and stopped at the JVM's exit;
 * each test makes and drops its own database ({@link #createDatabase()}). {@link #start()} is a server of
 * one's own (to stop and restart it mid-run). If the server cannot start the test fails, never skips:
 * {@code .ci/run} installs Debian's {@code postgresql} package where it is missing. The binaries are found
 * in {@code $BROKKR_PG_BIN}, else on the PATH ({@code initdb}), else in the newest
 * {@code /usr/lib/postgresql/N/bin}.
 *
 * <p>By default the server trades durability for speed ({@code fsync=off}: a test's data need not survive a
 * power cut); {@link #start(boolean) start(true)} keeps PostgreSQL's durable defaults, for measurements.
 */
public final class PostgresServer implements AutoCloseable {
    private static PostgresServer shared;
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private final Path root;
    private final Path data;
    private final int port;
    private final boolean durable;
    private final String user = System.getProperty("user.name");
    private final Path bin;
    private volatile boolean running;

    private PostgresServer(Path root, int port, boolean durable, Path bin) {
        this.root = root;
        this.data = root.resolve("data");
        this.port = port;
        this.durable = durable;
        this.bin = bin;
    }

    /** The server of this test JVM, started at the first call and stopped when the JVM exits. */
    public static synchronized PostgresServer shared() {
        if (shared == null) {
            shared = start(false);
            PostgresServer s = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(s::close, "postgres-stop"));
        }
        return shared;
    }

    /** A server of the caller's own (fast, not durable); close it to stop it and delete its directory. */
    public static PostgresServer start() {
        return start(false);
    }

    /** A server of the caller's own; {@code durable}: PostgreSQL's defaults (fsync on), else fsync off. */
    public static PostgresServer start(boolean durable) {
        Path bin = binaries();
        try {
            Path root = Files.createTempDirectory("brokkr-pg-");
            handOver(root);
            PostgresServer s = new PostgresServer(root, freePort(), durable, bin);
            s.initdb();
            s.startServer();
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start PostgreSQL for the tests", e);
        }
    }

    /** The port it listens on (127.0.0.1 only). */
    public int port() {
        return port;
    }

    /** The superuser's name (trusted on loopback). */
    public String user() {
        return user;
    }

    /** A store URL for {@code database} (and a schema, when not null): {@code postgresql://127.0.0.1:PORT/DB[?schema=S]}. */
    public String url(String database, String schema) {
        return "postgresql://127.0.0.1:" + port + "/" + database + (schema == null ? "" : "?schema=" + schema);
    }

    /** The JDBC URL of {@code database}. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** A superuser connection to {@code database}. */
    public Connection connect(String database) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        return DriverManager.getConnection(jdbcUrl(database), p);
    }

    /** A fresh, empty database; closing it drops it (with every connection to it). */
    public Database createDatabase() {
        String name = "t" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        sql("CREATE DATABASE " + name);
        return new Database(this, name);
    }

    /** A login role with a password (scram-sha-256 on loopback), for tests of credentials. */
    public void createRole(String name, String password) {
        sql("CREATE ROLE " + name + " LOGIN PASSWORD '" + password.replace("'", "''") + "'");
    }

    /** Runs {@code sql} on the {@code postgres} database as the superuser. */
    public void sql(String sql) {
        try (Connection c = connect("postgres");
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** A database of this server, dropped on close. */
    public record Database(PostgresServer server, String name) implements AutoCloseable {
        /** The store URL of this database (default schema). */
        public String url() {
            return server.url(name, null);
        }

        /** The store URL of a schema of this database. */
        public String url(String schema) {
            return server.url(name, schema);
        }

        public Connection connect() throws SQLException {
            return server.connect(name);
        }

        @Override
        public void close() {
            if (server.running) server.sql("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
    }

    /** Stops the server ({@code pg_ctl stop -m fast}); {@link #restart()} starts it again on the same port. */
    public void stop() {
        if (!running) return;
        run(List.of(bin.resolve("pg_ctl").toString(), "stop", "-D", data.toString(), "-m", "fast", "-w"), 60);
        running = false;
    }

    /** Starts the stopped server again, on the same port with the same data. */
    public void restart() {
        if (!running) startServer();
    }

    public boolean running() {
        return running;
    }

    /** Stops the server and deletes its directory. */
    @Override
    public void close() {
        try {
            stop();
        } finally {
            delete(root);
        }
    }

    private void initdb() {
        run(
                List.of(
                        bin.resolve("initdb").toString(),
                        "-D",
                        data.toString(),
                        "-U",
                        user,
                        "-E",
                        "UTF8",
                        "--locale=C",
                        "--auth=trust",
                        "--no-instructions"),
                120);
        // The superuser is trusted on loopback; any other role gives its password.
        String hba = "local all all trust\n"
                + "host all " + user + " 127.0.0.1/32 trust\n"
                + "host all all 127.0.0.1/32 scram-sha-256\n";
        try {
            Files.writeString(data.resolve("pg_hba.conf"), hba, StandardCharsets.UTF_8);
            StringBuilder conf = new StringBuilder("\n# brokkr tests\n")
                    .append("listen_addresses = '127.0.0.1'\n")
                    .append("port = ")
                    .append(port)
                    .append('\n')
                    .append("unix_socket_directories = '")
                    .append(root)
                    .append("'\n")
                    .append("max_connections = 200\n")
                    .append("shared_buffers = 32MB\n");
            if (!durable) conf.append("fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n");
            Files.writeString(
                    data.resolve("postgresql.conf"),
                    conf.toString(),
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void startServer() {
        run(
                List.of(
                        bin.resolve("pg_ctl").toString(),
                        "start",
                        "-D",
                        data.toString(),
                        "-l",
                        root.resolve("server.log").toString(),
                        "-w",
                        "-t",
                        "60"),
                90);
        running = true;
    }

    /** Runs a PostgreSQL tool (as {@code postgres} when this JVM is root); fails with its output when it fails. */
    private void run(List<String> command, int timeoutSeconds) {
        List<String> cmd = new ArrayList<>();
        if (isRoot()) cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        cmd.addAll(command);
        try {
            Path log = Files.createTempFile("brokkr-pg-tool", ".log");
            try {
                ProcessBuilder pb =
                        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
                pb.directory(root.toFile());
                Map<String, String> env = pb.environment();
                env.keySet().removeIf(k -> k.startsWith("PG"));
                env.put("LC_ALL", "C");
                Process p = pb.start();
                if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException(String.join(" ", cmd) + " did not finish in " + timeoutSeconds
                            + " s: " + Files.readString(log) + serverLog());
                }
                if (p.exitValue() != 0)
                    throw new IllegalStateException("PostgreSQL for the tests: " + String.join(" ", cmd)
                            + " failed (exit " + p.exitValue() + "): " + Files.readString(log) + serverLog());
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL for the tests: cannot run " + cmd, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private String serverLog() {
        try {
            Path log = root.resolve("server.log");
            return Files.exists(log) ? "\nserver.log:\n" + Files.readString(log) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** The directory is the server's: owned by {@code postgres} when the server runs as that user. */
    private static void handOver(Path root) throws IOException {
        if (!isRoot()) return;
        UserPrincipalLookupService users = root.getFileSystem().getUserPrincipalLookupService();
        UserPrincipal pg = users.lookupPrincipalByName("postgres");
        GroupPrincipal group = users.lookupPrincipalByGroupName("postgres");
        PosixFileAttributeView view = Files.getFileAttributeView(root, PosixFileAttributeView.class);
        view.setOwner(pg);
        view.setGroup(group);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Where initdb and pg_ctl are. */
    static Path binaries() {
        String own = System.getenv("BROKKR_PG_BIN");
        if (own != null && !own.isBlank()) return Path.of(own);
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty()
                    && Files.isExecutable(Path.of(dir, "initdb"))
                    && Files.isExecutable(Path.of(dir, "pg_ctl"))) {
                try {
                    return Path.of(dir).resolve("initdb").toRealPath().getParent();
                } catch (IOException e) {
                    return Path.of(dir);
                }
            }
        }
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparingInt(b -> Integer.parseInt(
                            b.getParent().getFileName().toString().replaceAll("\\D", "0"))))
                    .orElseThrow(PostgresServer::missing);
        } catch (IOException e) {
            throw missing();
        }
    }

    private static IllegalStateException missing() {
        return new IllegalStateException("PostgreSQL is not installed (no initdb on the PATH, in $BROKKR_PG_BIN or"
                + " /usr/lib/postgresql/N/bin): the PostgreSQL tests need a real server; apt-get install postgresql");
    }

    private static void delete(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: a temporary directory
                }
            });
        } catch (IOException ignored) {
            // best effort
        }
    }
}
