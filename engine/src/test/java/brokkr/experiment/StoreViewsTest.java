package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.eval.Check;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store is self-explanatory to SQL tools: the writer's views say what Brokkr's own reading says
 * (attempts with candidate names, trials from 1, readable times and flattened checks; checks; cells;
 * the scorecard's first columns), through JDBC and Debian's sqlite3; only the writer creates them, and
 * an older store is read as it is; the README documents every table and view with all its columns.
 */
class StoreViewsTest {
    @TempDir
    Path tmp;

    /** gold, stop and flaky on 3 tasks x 3 repetitions; q2 always fails on infrastructure (no retries). */
    private Path run() {
        var spec = ExperimentTest.spec(
                "all",
                3,
                4,
                0,
                List.of(
                        ExperimentTest.candidate("gold", "gold", null),
                        ExperimentTest.candidate("stop", "stop", null),
                        ExperimentTest.candidate("flaky", "flaky", null)));
        Path dir = tmp.resolve("x");
        Experiments.run(spec, dir, ExperimentTest.registry(3, new QuizBench.Models(p -> p.startsWith("task q2 "))));
        return dir;
    }

    /** A plain read-only JDBC connection, as any tool would open the file. */
    private static Connection sql(Path dir) throws SQLException {
        return DriverManager.getConnection(
                "jdbc:sqlite:file:" + ExperimentStore.file(dir).toAbsolutePath() + "?mode=ro");
    }

    private static List<Map<String, Object>> rows(Connection c, String query) throws SQLException {
        List<Map<String, Object>> out = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery(query)) {
            ResultSetMetaData m = r.getMetaData();
            while (r.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= m.getColumnCount(); i++) row.put(m.getColumnLabel(i), r.getObject(i));
                out.add(row);
            }
        }
        return out;
    }

    @Test
    void theViewsSayWhatBrokkrReads() throws Exception {
        Path dir = run();
        try (ExperimentQuery q = ExperimentQuery.open(dir);
                Connection c = sql(dir)) {
            Map<Long, Inspect.AttemptRow> byId = new HashMap<>();
            for (Inspect.AttemptRow r : Inspect.attempts(q, true))
                byId.put(r.attempt().id(), r);
            List<Map<String, Object>> attempts = rows(c, "SELECT * FROM attempts_v ORDER BY attempt_id");
            assertEquals(27, attempts.size());
            assertEquals(byId.size(), attempts.size());
            for (Map<String, Object> v : attempts) {
                Inspect.AttemptRow row = byId.get(((Number) v.get("attempt_id")).longValue());
                Attempt a = row.attempt();
                assertEquals(row.candidate(), v.get("candidate"));
                assertEquals("quiz", v.get("benchmark"));
                assertEquals(a.taskId(), v.get("task_id"));
                assertEquals(a.repetition(), ((Number) v.get("repetition")).intValue());
                assertEquals(a.repetition() + 1, ((Number) v.get("trial")).intValue());
                assertEquals(a.status().wire(), v.get("status"));
                assertEquals(
                        a.completed() ? a.reward() : null,
                        v.get("reward") == null ? null : ((Number) v.get("reward")).doubleValue());
                assertEquals(
                        a.completed() ? (a.success() ? 1 : 0) : null,
                        v.get("success") == null ? null : ((Number) v.get("success")).intValue());
                assertEquals(
                        a.checks().stream()
                                .map(x -> x.name() + "=" + (x.passed() ? "pass" : "fail"))
                                .collect(Collectors.joining(", ")),
                        v.get("checks") == null ? "" : v.get("checks"));
                assertEquals(
                        a.completed()
                                ? a.checks().stream()
                                        .filter(x -> !x.passed())
                                        .map(Check::name)
                                        .collect(Collectors.joining(","))
                                : null,
                        v.get("failed_checks"));
                assertEquals(
                        java.time.Instant.ofEpochMilli(a.startedAtMillis())
                                .toString()
                                .replaceFirst("(\\d\\d:\\d\\d:\\d\\d)Z$", "$1.000Z"),
                        v.get("started_at"));
                assertEquals(
                        java.time.Instant.ofEpochMilli(a.startedAtMillis() + a.durationMillis())
                                .toString()
                                .replaceFirst("(\\d\\d:\\d\\d:\\d\\d)Z$", "$1.000Z"),
                        v.get("finished_at"));
                assertTrue(
                        ((String) v.get("started_at")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"),
                        (String) v.get("started_at"));
                assertEquals(a.trust() == null ? null : a.trust().name().toLowerCase(), v.get("trust"));
                assertEquals("fake", v.get("provider"));
                assertEquals(a.error(), v.get("error"));
            }

            int checks = byId.values().stream()
                    .mapToInt(r -> r.attempt().checks().size())
                    .sum();
            List<Map<String, Object>> checkRows = rows(c, "SELECT * FROM checks_v ORDER BY attempt_id, position");
            assertEquals(checks, checkRows.size());
            for (Map<String, Object> v : checkRows) {
                Attempt a = byId.get(((Number) v.get("attempt_id")).longValue()).attempt();
                Check expected = a.checks().get(((Number) v.get("position")).intValue() - 1);
                assertEquals(expected.name(), v.get("check_name"));
                assertEquals(expected.passed() ? 1 : 0, ((Number) v.get("passed")).intValue());
            }

            List<Map<String, Object>> cells = rows(c, "SELECT * FROM cells_v");
            assertEquals(27, cells.size());
            Map<String, Long> byStatus =
                    cells.stream().collect(Collectors.groupingBy(v -> (String) v.get("status"), Collectors.counting()));
            assertEquals(Map.of("completed", 18L, "infrastructure_failure", 9L), byStatus);
            assertTrue(cells.stream()
                    .allMatch(v ->
                            ((Number) v.get("trial")).intValue() == ((Number) v.get("repetition")).intValue() + 1));

            Scorecard card = Scorecard.of(q);
            List<Map<String, Object>> scores = rows(c, "SELECT * FROM scores_v");
            assertEquals(card.rows().size(), scores.size());
            for (int i = 0; i < scores.size(); i++) {
                Map<String, Object> v = scores.get(i);
                Scorecard.CandidateScore r = card.rows().get(i);
                assertEquals(r.candidate(), v.get("candidate"));
                assertEquals(r.tasks(), ((Number) v.get("tasks")).intValue());
                assertEquals(r.attempts(), ((Number) v.get("attempts")).intValue());
                assertEquals(r.infrastructureFailures(), ((Number) v.get("infra_failures")).intValue());
                assertEquals(r.avgReward(), ((Number) v.get("avg_reward")).doubleValue(), 1e-12);
                assertEquals(r.passHatK().getFirst(), ((Number) v.get("pass_1")).doubleValue(), 1e-12);
                assertEquals(r.cost().inputTokens(), ((Number) v.get("input_tokens")).longValue());
                assertEquals(r.cost().outputTokens(), ((Number) v.get("output_tokens")).longValue());
                assertEquals(r.cost().meanDurationMs(), ((Number) v.get("mean_duration_ms")).doubleValue(), 1e-9);
            }
            assertTrue(
                    card.rows().stream().anyMatch(r -> r.avgReward() > 0 && r.avgReward() < 1),
                    "flaky is between: " + card.rows());

            List<Map<String, Object>> agents =
                    rows(c, "SELECT candidates, provider, model, action_space FROM agents_v ORDER BY candidates");
            assertEquals(
                    List.of(
                            Arrays.asList("flaky", "fake", "flaky", "tools"),
                            Arrays.asList("gold", "fake", "gold", "tools"),
                            Arrays.asList("stop", "fake", "stop", "tools")),
                    agents.stream().map(m -> List.copyOf(m.values())).toList());
            assertEquals(
                    3,
                    rows(c, "SELECT * FROM environments_v WHERE upstream_revision = 'quiz-v1'")
                            .size());
        }
    }

    /** Debian's sqlite3 (installed by .ci/run) reads the views: the tool a researcher reaches for first. */
    @Test
    void theSqlite3CommandLineQueriesTheViews() throws Exception {
        Assumptions.assumeTrue(onPath("sqlite3"), "sqlite3 is not installed here (.ci/run installs it)");
        Path dir = run();
        String out = sqlite3(
                dir,
                "SELECT candidate, count(*), sum(status = 'completed'), min(trial), max(trial) FROM attempts_v GROUP BY candidate ORDER BY candidate;"
                        + "SELECT count(*) FROM checks_v WHERE NOT passed;"
                        + "SELECT status, count(*) FROM cells_v GROUP BY status ORDER BY status;"
                        + "SELECT candidate, avg_reward FROM scores_v WHERE candidate = 'gold';");
        assertEquals(
                List.of(
                        "flaky|9|6|1|3",
                        "gold|9|6|1|3",
                        "stop|9|6|1|3",
                        String.valueOf(failedChecks(dir)),
                        "completed|18",
                        "infrastructure_failure|9",
                        "gold|1.0"),
                out.lines().toList());
    }

    private static long failedChecks(Path dir) {
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            return q.attempts(true, false).stream()
                    .flatMap(a -> a.checks().stream())
                    .filter(c -> !c.passed())
                    .count();
        }
    }

    private static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":"))
            if (Files.isExecutable(Path.of(d, tool))) return true;
        return false;
    }

    private static String sqlite3(Path dir, String sql) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(
                        "sqlite3",
                        "-readonly",
                        "-batch",
                        ExperimentStore.file(dir).toString(),
                        sql)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    /**
     * Views are the writer's: a store of schema version 2 (as an earlier Brokkr left it: no views) is
     * read as it is, inspection adds nothing, and the next run upgrades it to version 3 with its views;
     * a writer that finds the views as it would make them leaves the schema alone.
     */
    @Test
    void onlyTheWriterCreatesViewsAndAnOlderStoreIsReadAsItIs() throws Exception {
        Path dir = run();
        Path db = ExperimentStore.file(dir);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
                Statement s = c.createStatement()) {
            for (String v : StoreViews.VIEWS.keySet()) s.execute("DROP VIEW " + v);
            s.execute("PRAGMA user_version=2");
            s.execute("PRAGMA journal_mode=DELETE"); // as a closed writer leaves it: one file
        }
        byte[] before = Files.readAllBytes(db);
        Scorecard card;
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            card = Scorecard.of(q);
            assertEquals(27, Inspect.attempts(q, true).size());
        }
        assertEquals(
                9,
                card.rows().stream()
                        .mapToInt(Scorecard.CandidateScore::infrastructureFailures)
                        .sum());
        assertTrue(Arrays.equals(before, Files.readAllBytes(db)), "reading a version-2 store changed it");
        assertEquals(List.of(), views(dir));
        assertEquals(2, pragma(dir, "user_version"));

        run(); // the writer opens it again: upgraded, with its views
        assertEquals(List.copyOf(StoreViews.VIEWS.keySet()), views(dir));
        assertEquals(ExperimentStore.SCHEMA_VERSION, pragma(dir, "user_version"));
        long schema = pragma(dir, "schema_version");
        run();
        assertEquals(schema, pragma(dir, "schema_version"), "views already as they should be are not recreated");
    }

    private static List<String> views(Path dir) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = sql(dir);
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY rowid")) {
            while (r.next()) out.add(r.getString(1));
        }
        return out;
    }

    private static long pragma(Path dir, String name) throws SQLException {
        try (Connection c = sql(dir);
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("PRAGMA " + name)) {
            return r.getLong(1);
        }
    }

    /** README's store schema lists every table and view of a store with each of its columns. */
    @Test
    void theReadmeDocumentsEveryTableAndViewWithItsColumns() throws Exception {
        Path readme = null;
        for (Path d = Path.of("").toAbsolutePath(); d != null && readme == null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("README.md")) && Files.isDirectory(d.resolve("engine")))
                readme = d.resolve("README.md");
        }
        assertTrue(readme != null, "README.md not found above " + Path.of("").toAbsolutePath());
        List<String> lines = Files.readAllLines(readme);
        Path dir = run();
        Map<String, List<String>> schema = new LinkedHashMap<>();
        try (Connection c = sql(dir);
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(
                        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY type, name")) {
            while (r.next()) schema.put(r.getString(1), new ArrayList<>());
        }
        try (Connection c = sql(dir);
                Statement s = c.createStatement()) {
            for (var e : schema.entrySet()) {
                try (ResultSet r = s.executeQuery("SELECT name FROM pragma_table_info('" + e.getKey() + "')")) {
                    while (r.next()) e.getValue().add(r.getString(1));
                }
            }
        }
        assertEquals(
                13,
                schema.size(),
                schema.toString()); // seven tables (probe included), six views (sqlite_sequence is SQLite's)
        for (var e : schema.entrySet()) {
            String row = lines.stream()
                    .filter(l -> l.startsWith("| `" + e.getKey() + "` |"))
                    .findFirst()
                    .orElse(null);
            assertTrue(row != null, "README has no row for " + e.getKey());
            for (String col : e.getValue())
                assertTrue(
                        row.contains("`" + col + "`"),
                        "README's row for " + e.getKey() + " does not name column " + col + ": " + row);
        }
    }
}
