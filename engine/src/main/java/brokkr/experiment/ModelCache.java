package brokkr.experiment;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.eval.ContentHash;
import brokkr.provider.HttpProvider;
import brokkr.provider.WireFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * The model-call cache of experiments whose spec says {@code cache: true} for a candidate or a role:
 * a response recorded for the same provider, model, exact request body and trial is served again
 * instead of sending the request. Kept in the experiment's store ({@code model_cache} table of
 * {@code experiment.db}) or in a shared cache file the spec names ({@code cache_file}, an SQLite file
 * with the same table, made readable by its owner only), so that an experiment re-run elsewhere can be
 * served from it. Only successful responses are kept (never an error), as recorded: request and
 * response bodies with the key scrubbed, so the cache holds no credential. A request that differs in
 * any byte is a miss. A hit is recorded on the attempt like any call, with its exact request and
 * {@link ModelCall#cacheHit()} set: never hidden.
 *
 * <p>One connection of its own, under this object's lock; each write is its own transaction, so what
 * was cached before a crash stays cached.
 */
final class ModelCache implements AutoCloseable {
    static final String TABLE = "model_cache";

    /** The SQLite file, or the PostgreSQL store's URL, as messages name it. */
    private final String file;

    private final Connection conn;

    private ModelCache(String file, Connection conn) {
        this.file = file;
        this.conn = conn;
    }

    /** {@code PRAGMA application_id} of a shared model-call cache file: "BRKC" (a store is "BRKR"). */
    static final int CACHE_APPLICATION_ID = 0x42524b43;

    private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    /** Opens (creating when absent) the cache in the experiment store {@code store}, which the runner has opened. */
    static ModelCache inStore(Path store) {
        return open(store, false);
    }

    /**
     * The cache in the store at {@code location}, which the runner has opened: a directory's {@code experiment.db},
     * or the PostgreSQL store's {@code model_cache} table (made when the store was set up), on a connection of its
     * own in autocommit: every worker reaching that store shares it.
     */
    static ModelCache inStore(StoreLocation location) {
        return switch (location) {
            case StoreLocation.Directory d -> open(ExperimentStore.file(d.dir()), false);
            case PostgresLocation pg -> new ModelCache(pg.display(), pg.connect(System.getenv()));
        };
    }

    /** The model_cache table, in {@code d}. */
    static String createTable(StoreDialect d) {
        return d.ddl("""
                CREATE TABLE IF NOT EXISTS model_cache(
                  key TEXT PRIMARY KEY, provider TEXT NOT NULL, model TEXT NOT NULL, trial INTEGER NOT NULL,
                  status INTEGER NOT NULL, response TEXT NOT NULL, created_at ${BIGINT} NOT NULL)${WITHOUT_ROWID}""");
    }

    /**
     * Opens (creating when absent or empty) the shared cache file {@code file} ({@code cache_file}). A file that is
     * not a Brokkr cache (not SQLite, another application's database, an experiment store) is refused by name
     * and left byte for byte as it was: nothing is written to it, its journal mode is not changed.
     */
    static ModelCache sharedFile(Path file) {
        checkCacheFile(file);
        return open(file, true);
    }

    /** Refuses {@code file} unless it is absent, empty or a Brokkr cache (see {@link #sharedFile}); reads only. */
    static void checkCacheFile(Path file) {
        if (!Files.exists(file) || size(file) == 0) return; // a new cache
        if (!Files.isRegularFile(file)) throw refused(file, "not a regular file");
        int app = applicationId(file);
        if (app == CACHE_APPLICATION_ID) return;
        if (app == StoreConnection.APPLICATION_ID)
            throw refused(
                    file, "an experiment store; leave cache_file out to keep the cache in the experiment's own store");
        if (app != 0)
            throw refused(file, "an SQLite database of another application (id " + Integer.toHexString(app) + ")");
        // Application id 0: a cache made before caches had an id holds exactly the model_cache table.
        List<String> tables = tables(file);
        if (!tables.equals(List.of(TABLE)))
            throw refused(file, "an SQLite database with " + (tables.isEmpty() ? "no tables" : "the tables " + tables));
    }

    private static ExperimentStore.StoreException refused(Path file, String what) {
        return new ExperimentStore.StoreException(
                file + " is not a Brokkr model-call cache (" + what + "); it is left as it is", null);
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the model-call cache " + file, e);
        }
    }

    /** The database header's application id (offset 68, big-endian); a file that is not SQLite is refused. */
    private static int applicationId(Path file) {
        byte[] head = new byte[100];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the model-call cache " + file, e);
        }
        if (n < head.length || !Arrays.equals(Arrays.copyOf(head, SQLITE_MAGIC.length), SQLITE_MAGIC))
            throw refused(file, "not an SQLite database");
        return ByteBuffer.wrap(head, 68, 4).getInt();
    }

    /** The tables of {@code file}, read immutable and read-only: no journal, WAL or index file is created. */
    private static List<String> tables(Path file) {
        SqliteLibrary.prepare();
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);
        String url = "jdbc:sqlite:" + file.toAbsolutePath().toUri() + "?mode=ro&immutable=1";
        List<String> tables = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, config.toProperties());
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
            while (r.next()) tables.add(r.getString(1));
        } catch (SQLException e) {
            throw refused(file, "unreadable as SQLite: " + e.getMessage());
        }
        return tables;
    }

    private static ModelCache open(Path file, boolean shared) {
        try {
            if (file.getParent() != null)
                Files.createDirectories(file.toAbsolutePath().getParent());
            ExperimentStore.createOwnerOnly(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the model-call cache " + file, e);
        }
        SqliteLibrary.prepare();
        try {
            Connection c = DriverManager.getConnection(
                    "jdbc:sqlite:" + file.toAbsolutePath(), new SQLiteConfig().toProperties());
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout=10000");
                if (shared) s.execute("PRAGMA application_id=" + CACHE_APPLICATION_ID);
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=NORMAL");
                s.execute(createTable(StoreDialect.SQLITE));
            }
            return new ModelCache(file.toString(), c);
        } catch (SQLException e) {
            throw new ExperimentStore.StoreException(
                    "cannot open the model-call cache " + file + ": " + e.getMessage(), e);
        }
    }

    String file() {
        return file;
    }

    /**
     * The cache key: the sha256 of provider, model, trial (from 1) and the exact request body, each
     * length-prefixed so that no two different requests share a key text.
     */
    static String key(String provider, String model, int trial, String requestBody) {
        StringBuilder sb = new StringBuilder();
        for (String part : List.of(provider, model, Integer.toString(trial), requestBody))
            sb.append(part.length()).append(':').append(part);
        return ContentHash.sha256(sb.toString());
    }

    /** A recorded response: its status and body. */
    record Entry(int status, String response) {}

    synchronized Optional<Entry> get(String key) {
        try (PreparedStatement p = conn.prepareStatement("SELECT status, response FROM model_cache WHERE key = ?")) {
            p.setString(1, key);
            try (ResultSet r = p.executeQuery()) {
                return r.next() ? Optional.of(new Entry(r.getInt(1), r.getString(2))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new ExperimentStore.StoreException("model-call cache " + file + ": " + e.getMessage(), e);
        }
    }

    synchronized void put(String key, String provider, String model, int trial, Entry entry) {
        try (PreparedStatement p = conn.prepareStatement(
                "INSERT INTO model_cache(key, provider, model, trial, status, response, created_at) VALUES(?,?,?,?,?,?,?)"
                        + " ON CONFLICT DO NOTHING")) {
            p.setString(1, key);
            p.setString(2, provider);
            p.setString(3, model);
            p.setInt(4, trial);
            p.setInt(5, entry.status());
            p.setString(6, entry.response());
            p.setLong(7, System.currentTimeMillis());
            p.executeUpdate();
        } catch (SQLException e) {
            throw new ExperimentStore.StoreException("model-call cache " + file + ": " + e.getMessage(), e);
        }
    }

    /** How many responses are kept. */
    synchronized int size() {
        try (Statement s = conn.createStatement();
                ResultSet r = s.executeQuery("SELECT COUNT(*) FROM model_cache")) {
            return r.next() ? r.getInt(1) : 0;
        } catch (SQLException e) {
            throw new ExperimentStore.StoreException("model-call cache " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code model} (sending through {@code send}, which carries the provider's limits) with this cache
     * in front, for calls of trial {@code trial}: a hit skips the provider and its limits.
     */
    Candidate around(HttpProvider model, Candidate send, int trial) {
        return new Cached(this, model, send, trial);
    }

    private record Cached(ModelCache cache, HttpProvider model, Candidate send, int trial) implements Candidate {
        @Override
        public String baseUrl() {
            return model.baseUrl();
        }

        @Override
        public Turn next(List<Message> history, List<ToolSpec> tools) throws InfrastructureFailure {
            long startedAt = System.currentTimeMillis();
            long t0 = System.nanoTime();
            String request = model.recordedRequest(history, tools);
            String key = key(model.provider(), model.model(), trial, request);
            Optional<Entry> hit = cache.get(key);
            if (hit.isPresent()) {
                try {
                    Message.Assistant m = model.replay(hit.get().response());
                    return new Turn(
                            m,
                            List.of(new ModelCall(
                                    model.provider(),
                                    model.model(),
                                    1,
                                    request,
                                    hit.get().status(),
                                    hit.get().response(),
                                    null,
                                    startedAt,
                                    (System.nanoTime() - t0) / 1_000_000,
                                    true)));
                } catch (WireFormat.MalformedResponse e) {
                    // Not a response this provider reads (a cache file written by another version): sent again, as a
                    // miss.
                }
            }
            Turn t = send.next(history, tools);
            ModelCall answered = t.calls().isEmpty() ? null : t.calls().getLast();
            if (answered != null
                    && answered.error() == null
                    && answered.responseBody() != null
                    && answered.requestBody().equals(request)) {
                cache.put(
                        key,
                        model.provider(),
                        model.model(),
                        trial,
                        new Entry(answered.status(), answered.responseBody()));
            }
            return t;
        }
    }

    @Override
    public synchronized void close() {
        try {
            conn.close();
        } catch (SQLException e) {
            throw new ExperimentStore.StoreException("model-call cache " + file + ": " + e.getMessage(), e);
        }
    }
}
