package brokkr.experiment;

import brokkr.conversation.Usage;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evidence;
import brokkr.eval.TrustTier;
import brokkr.experiment.ExperimentStore.Cell;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.experiment.ExperimentStore.CellState;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The read side of an experiment directory's store: its cells, their attempts and definitions, for
 * scorecards, inspection and resuming. Opened on its own ({@link #open}) it holds a connection that
 * cannot write and reads beside a running writer; {@link ExperimentStore#query()} reads through the
 * writer's own connection instead.
 */
public final class ExperimentQuery implements AutoCloseable {
    private final StoreConnection db;
    private final boolean owned;

    ExperimentQuery(StoreConnection db, boolean owned) {
        this.db = db;
        this.owned = owned;
    }

    /**
     * Opens the store at {@code location} for reading: a directory's as {@link #open(Path)}, a PostgreSQL schema in a
     * read-only session (StoreException when it holds no Brokkr store: nothing is created).
     */
    public static ExperimentQuery open(StoreLocation location) {
        return switch (location) {
            case StoreLocation.Directory d -> open(d.dir());
            case PostgresLocation pg -> new ExperimentQuery(StoreConnection.forReading(pg), true);
        };
    }

    /** Where this store is (a directory, or a PostgreSQL URL without password). */
    public StoreLocation location() {
        return db.location();
    }

    /** Opens the store of {@code dir} for reading; IllegalArgumentException when {@code dir} holds none. */
    public static ExperimentQuery open(Path dir) {
        Path file = ExperimentStore.file(dir);
        if (!Files.isRegularFile(file))
            throw new IllegalArgumentException(dir + " holds no experiment (no " + ExperimentStore.FILE + ")");
        // A runner creates the file empty and writes its header a moment later.
        if (isEmpty(file))
            throw new IllegalArgumentException(
                    dir + " holds no experiment yet (" + ExperimentStore.FILE + " is empty)");
        return new ExperimentQuery(StoreConnection.forReading(file), true);
    }

    private static boolean isEmpty(Path file) {
        try {
            return Files.size(file) == 0;
        } catch (IOException e) {
            return false; // reading it will say what is wrong
        }
    }

    /** Per cell: completed attempts and infrastructure failures so far. */
    public Map<CellKey, CellState> cellStates() {
        return db.read(() -> {
            Map<CellKey, CellState> out = new LinkedHashMap<>();
            try (Statement s = db.connection().createStatement();
                    ResultSet r = s.executeQuery("""
                    SELECT c.env_id, c.agent_id, c.repetition,
                      SUM(CASE WHEN a.status = 'completed' THEN 1 ELSE 0 END),
                      SUM(CASE WHEN a.status = 'infrastructure_failure' THEN 1 ELSE 0 END)
                    FROM cell c LEFT JOIN attempt a
                      ON a.env_id = c.env_id AND a.agent_id = c.agent_id AND a.repetition = c.repetition
                    GROUP BY c.env_id, c.agent_id, c.repetition""")) {
                while (r.next())
                    out.put(
                            new CellKey(r.getString(1), r.getString(2), r.getInt(3)),
                            new CellState(r.getInt(4), r.getInt(5)));
            }
            return out;
        });
    }

    /**
     * The endpoints the stored attempts were made against, by cell: each distinct {@code endpoints}
     * record (role to base URL) of its attempts. Attempts stored before endpoints were recorded, and
     * those of scripted models, have none and are not listed; nor has a damaged record (not valid JSON: the
     * inspection commands name it), which must not stop a resume.
     */
    public Map<CellKey, List<Map<String, String>>> endpointsByCell() {
        return db.read(() -> {
            Map<CellKey, List<Map<String, String>>> out = new LinkedHashMap<>();
            try (Statement s = db.connection().createStatement();
                    ResultSet r = s.executeQuery("""
                    SELECT DISTINCT env_id, agent_id, repetition, endpoints FROM (
                      SELECT env_id, agent_id, repetition, %s AS endpoints
                      FROM attempt) x
                    WHERE endpoints IS NOT NULL""".formatted(endpoints(db.dialect())))) {
                while (r.next()) {
                    Map<String, String> e = new java.util.TreeMap<>();
                    Json.parse(r.getString(4))
                            .asDict()
                            .entries()
                            .forEach(x -> e.put(x.getKey(), x.getValue().asStr()));
                    out.computeIfAbsent(
                                    new CellKey(r.getString(1), r.getString(2), r.getInt(3)), k -> new ArrayList<>())
                            .add(e);
                }
            }
            return out;
        });
    }

    /** An attempt's recorded endpoints as JSON text, NULL when it has none or its record is not valid JSON. */
    private static String endpoints(StoreDialect d) {
        return d == StoreDialect.SQLITE
                ? "CASE WHEN json_valid(evidence_json) THEN json_extract(evidence_json, '$.endpoints') END"
                : "(brokkr_try_jsonb(evidence_json) -> 'endpoints')::text";
    }

    /** The cells, active ones first in the spec's order. */
    public List<Cell> cells() {
        return db.read(() -> {
            List<Cell> out = new ArrayList<>();
            try (Statement s = db.connection().createStatement();
                    ResultSet r = s.executeQuery(
                            "SELECT env_id, agent_id, repetition, candidate, benchmark, task_id, active FROM cell ORDER BY active DESC, ordinal")) {
                while (r.next()) {
                    out.add(new Cell(
                            new CellKey(r.getString(1), r.getString(2), r.getInt(3)),
                            r.getString(4),
                            r.getString(5),
                            r.getString(6),
                            r.getInt(7) == 1));
                }
            }
            return out;
        });
    }

    /** The name and spec JSON of the experiment last run in this directory. */
    public Optional<Map.Entry<String, String>> experiment() {
        return db.read(() -> {
            try (Statement s = db.connection().createStatement();
                    ResultSet r =
                            s.executeQuery("SELECT name, spec_json FROM experiment ORDER BY updated_at DESC LIMIT 1")) {
                return r.next() ? Optional.of(Map.entry(r.getString(1), r.getString(2))) : Optional.empty();
            }
        });
    }

    /** Every attempt, oldest first; with {@code activeOnly}, only those of the current spec's cells. */
    public List<Attempt> attempts(boolean activeOnly) {
        return attempts(activeOnly, true);
    }

    /**
     * Attempts as {@link #attempts(boolean)}; without {@code evidence} the evidence JSON is not read and
     * each attempt's evidence holds only the candidate's usage (what scoring needs, much cheaper).
     */
    public List<Attempt> attempts(boolean activeOnly, boolean evidence) {
        String where = activeOnly
                ? " JOIN cell c ON c.env_id = a.env_id AND c.agent_id = a.agent_id AND c.repetition = a.repetition WHERE c.active = 1"
                : "";
        return queryAttempts(
                "SELECT " + (evidence ? "a.*" : LIGHT_COLUMNS) + " FROM attempt a" + where + " ORDER BY a.id",
                null,
                evidence);
    }

    /**
     * What each completed attempt's episode cost ({@link EpisodeCost#of} of its evidence), by attempt id;
     * with {@code activeOnly}, of the current spec's cells only. The evidence is read and let go one
     * attempt at a time, so a large store is never held whole.
     */
    public Map<Long, EpisodeCost> episodeCosts(boolean activeOnly) {
        String sql = "SELECT a.id, a.evidence_json FROM attempt a"
                + (activeOnly
                        ? " JOIN cell c ON c.env_id = a.env_id AND c.agent_id = a.agent_id AND c.repetition = a.repetition WHERE c.active = 1 AND"
                        : " WHERE")
                + " a.status = '" + Attempt.Status.COMPLETED.wire() + "' ORDER BY a.id";
        return db.read(() -> {
            Map<Long, EpisodeCost> out = new LinkedHashMap<>();
            try (Statement s = db.connection().createStatement();
                    ResultSet r = s.executeQuery(sql)) {
                while (r.next()) {
                    long id = r.getLong(1);
                    try {
                        out.put(id, EpisodeCost.of(decodeEvidence(r.getString(2))));
                    } catch (ExperimentStore.StoreException e) {
                        throw e;
                    } catch (RuntimeException e) {
                        // A damaged record has no cost to show; flagged, and the other attempts' costs stand.
                        damaged.putIfAbsent(id, unreadable(id, e));
                    }
                }
            }
            return out;
        });
    }

    private static final String LIGHT_COLUMNS =
            "a.id, a.env_id, a.agent_id, a.repetition, a.task_id, a.status, a.reward, a.trust, "
                    + "a.checks_json, a.error, a.started_at, a.duration_ms, a.input_tokens, a.output_tokens";

    public Optional<Attempt> attempt(long id) {
        List<Attempt> l = queryAttempts("SELECT a.* FROM attempt a WHERE a.id = ?", id, true);
        return l.isEmpty() ? Optional.empty() : Optional.of(l.getFirst());
    }

    public Optional<EnvironmentDef> environment(String id) {
        return db.read(() -> {
            try (PreparedStatement p =
                    db.connection().prepareStatement("SELECT json FROM environment_def WHERE id = ?")) {
                p.setString(1, id);
                try (ResultSet r = p.executeQuery()) {
                    return r.next()
                            ? Optional.of(EnvironmentDef.fromValue(Json.parse(r.getString(1))))
                            : Optional.empty();
                }
            }
        });
    }

    /** Every environment definition of the store, by id. */
    public Map<String, EnvironmentDef> environments() {
        return db.read(() -> {
            Map<String, EnvironmentDef> out = new LinkedHashMap<>();
            try (Statement s = db.connection().createStatement();
                    ResultSet r = s.executeQuery("SELECT id, json FROM environment_def")) {
                while (r.next()) out.put(r.getString(1), EnvironmentDef.fromValue(Json.parse(r.getString(2))));
            }
            return out;
        });
    }

    /**
     * An experiment directory at a glance, as {@code experiment list} shows it: the experiment last run
     * in it, the benchmarks and candidates of its current cells (in the spec's order), how many of those
     * cells have a completed attempt, and when it last ran (the later of its last registration and its
     * last attempt's end; epoch milliseconds, 0 when never).
     */
    public record Overview(
            String name,
            List<String> benchmarks,
            List<String> candidates,
            int cellsDone,
            int cells,
            long lastRunMillis) {}

    public Overview overview() {
        return db.read(() -> {
            String name = "";
            long last = 0;
            try (Statement s = db.connection().createStatement()) {
                try (ResultSet r =
                        s.executeQuery("SELECT name, updated_at FROM experiment ORDER BY updated_at DESC LIMIT 1")) {
                    if (r.next()) {
                        name = r.getString(1);
                        last = r.getLong(2);
                    }
                }
                try (ResultSet r = s.executeQuery("SELECT MAX(started_at + duration_ms) FROM attempt")) {
                    if (r.next()) last = Math.max(last, r.getLong(1));
                }
                List<String> benchmarks = new ArrayList<>(), candidates = new ArrayList<>();
                try (ResultSet r = s.executeQuery(
                        "SELECT benchmark, candidate FROM cell WHERE active = 1 GROUP BY benchmark, candidate ORDER BY MIN(ordinal)")) {
                    while (r.next()) {
                        if (!benchmarks.contains(r.getString(1))) benchmarks.add(r.getString(1));
                        if (!candidates.contains(r.getString(2))) candidates.add(r.getString(2));
                    }
                }
                int cells = 0, done = 0;
                try (ResultSet r = s.executeQuery("""
                        SELECT COUNT(*), COALESCE(SUM(CASE WHEN EXISTS(SELECT 1 FROM attempt a WHERE a.env_id = c.env_id AND a.agent_id = c.agent_id
                          AND a.repetition = c.repetition AND a.status = 'completed') THEN 1 ELSE 0 END), 0)
                        FROM cell c WHERE c.active = 1""")) {
                    if (r.next()) {
                        cells = r.getInt(1);
                        done = r.getInt(2);
                    }
                }
                return new Overview(name, List.copyOf(benchmarks), List.copyOf(candidates), done, cells, last);
            }
        });
    }

    public Optional<AgentDef> agent(String id) {
        return db.read(() -> {
            try (PreparedStatement p = db.connection().prepareStatement("SELECT json FROM agent_def WHERE id = ?")) {
                p.setString(1, id);
                try (ResultSet r = p.executeQuery()) {
                    return r.next() ? Optional.of(AgentDef.fromValue(Json.parse(r.getString(1)))) : Optional.empty();
                }
            }
        });
    }

    /**
     * An attempt whose stored record cannot be read back (a damaged byte inside its JSON, which SQLite's
     * {@code quick_check} does not look into): the store's file, the attempt and what could not be read.
     */
    public record DamagedAttempt(String store, long attemptId, String reason) {
        public String message() {
            return store + ": attempt " + attemptId + " is damaged (" + reason + ")";
        }
    }

    /** A damaged attempt met where its whole record is needed (its transcript, its world, an export). */
    public static final class DamagedRecordException extends ExperimentStore.StoreException {
        private final DamagedAttempt damaged;

        public DamagedRecordException(DamagedAttempt damaged, Throwable cause) {
            super(damaged.message(), cause);
            this.damaged = damaged;
        }

        public DamagedAttempt damaged() {
            return damaged;
        }
    }

    private final Map<Long, DamagedAttempt> damaged = new LinkedHashMap<>();

    /**
     * The damaged attempts the listings of this query met so far, by id. A listing ({@link #attempts}) goes on past
     * them: such an attempt keeps its row's columns (status, reward, timing, usage) with no checks and no evidence,
     * so inspection shows everything else and flags these; a single attempt ({@link #attempt}) that is damaged is a
     * {@link DamagedRecordException}.
     */
    public List<DamagedAttempt> damaged() {
        return List.copyOf(damaged.values());
    }

    private DamagedAttempt unreadable(long id, RuntimeException e) {
        return new DamagedAttempt(
                db.where(),
                id,
                "its stored record cannot be read: "
                        + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }

    /**
     * Reads every attempt's record once, one at a time (nothing is kept), and returns the damaged ones, as
     * {@link #damaged} then holds them: for commands that read the store through other means and must still flag them.
     */
    public List<DamagedAttempt> scanForDamage() {
        db.read(() -> {
            try (Statement s = db.connection().createStatement();
                    ResultSet r = s.executeQuery("SELECT id, checks_json, evidence_json FROM attempt ORDER BY id")) {
                while (r.next()) {
                    long id = r.getLong(1);
                    try {
                        checksFrom(Json.parse(r.getString(2)));
                        decodeEvidence(r.getString(3));
                    } catch (ExperimentStore.StoreException e) {
                        throw e;
                    } catch (RuntimeException e) {
                        damaged.putIfAbsent(id, unreadable(id, e));
                    }
                }
            }
            return null;
        });
        return damaged();
    }

    /** Fails with a {@link DamagedRecordException} naming the first damaged attempt met, if any. */
    public void requireIntact() {
        if (!damaged.isEmpty())
            throw new DamagedRecordException(damaged.values().iterator().next(), null);
    }

    private List<Attempt> queryAttempts(String sql, Long param, boolean withEvidence) {
        boolean listing = param == null;
        return db.read(() -> {
            List<Attempt> out = new ArrayList<>();
            try (PreparedStatement p = db.connection().prepareStatement(sql)) {
                if (param != null) p.setLong(1, param);
                try (ResultSet r = p.executeQuery()) {
                    while (r.next()) {
                        long id = r.getLong("id");
                        String trust = r.getString("trust");
                        double reward = r.getDouble("reward");
                        Evidence usage = usageOnly(r.getLong("input_tokens"), r.getLong("output_tokens"));
                        List<Check> checks;
                        Evidence evidence;
                        try {
                            checks = checksFrom(Json.parse(r.getString("checks_json")));
                            evidence = withEvidence
                                    ? EvidenceCodec.decode(r.getString("evidence_json"), this::blobs)
                                    : usage;
                        } catch (ExperimentStore.StoreException e) {
                            throw e;
                        } catch (RuntimeException e) {
                            DamagedAttempt d = unreadable(id, e);
                            if (!listing) throw new DamagedRecordException(d, e);
                            damaged.putIfAbsent(id, d);
                            checks = List.of();
                            evidence = usage;
                        }
                        out.add(new Attempt(
                                id,
                                r.getString("env_id"),
                                r.getString("agent_id"),
                                r.getInt("repetition"),
                                r.getString("task_id"),
                                Attempt.Status.fromWire(r.getString("status")),
                                checks,
                                reward,
                                trust == null ? null : TrustTier.valueOf(trust),
                                evidence,
                                r.getString("error"),
                                r.getLong("started_at"),
                                r.getLong("duration_ms")));
                    }
                }
            }
            return out;
        });
    }

    /** This query's connection, for tables kept beside the attempts by other parts of this package ({@link Regrade}). */
    StoreConnection connection() {
        return db;
    }

    /** Evidence JSON as the store keeps it ({@link EvidenceCodec}), decoded with its texts (called within a read). */
    Evidence decodeEvidence(String json) {
        return EvidenceCodec.decode(json, this::blobs);
    }

    /** Texts of the {@code blob} table by sha256 (called within a read, on this connection). */
    private Map<String, String> blobs(Set<String> shas) {
        Map<String, String> out = new HashMap<>();
        try (PreparedStatement p = db.connection().prepareStatement("SELECT text FROM blob WHERE sha256 = ?")) {
            for (String sha : shas) {
                p.setString(1, sha);
                try (ResultSet r = p.executeQuery()) {
                    if (r.next()) out.put(sha, db.dialect().getAnyText(r, 1));
                }
            }
        } catch (SQLException e) {
            throw new ExperimentStore.StoreException(e.getMessage(), e);
        }
        return out;
    }

    private static Evidence usageOnly(long in, long out) {
        return new Evidence(
                null, null, null, null, null, List.of(), Map.of(Evidence.AGENT, new Usage(in, out)), null, null);
    }

    /** Checks as {@link ExperimentStore} writes them: {@code [[name, passed], ...]}. */
    private static List<Check> checksFrom(Value v) {
        List<Check> out = new ArrayList<>();
        for (Value x : v.asList())
            out.add(new Check(x.asList().get(0).asStr(), ((PyBool) x.asList().get(1)).value()));
        return out;
    }

    /** The store's probe records (diagnostics, not attempts), oldest first; none for a store made before probes. */
    public List<ProbeStore.ProbeRecord> probes() {
        return ProbeStore.list(db);
    }

    /** Closes the connection this query opened; a writer's query leaves the writer's connection to it. */
    @Override
    public void close() {
        if (owned) db.close();
    }
}
