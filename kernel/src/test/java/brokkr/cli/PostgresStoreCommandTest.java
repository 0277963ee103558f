package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.testing.PostgresServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL store through the real command line: {@code ./brokkr} as a separate JVM process (its classpath
 * and registry are this test's), against a real server ({@link PostgresServer}). Runs into PostgreSQL read the same
 * as into SQLite with every reader; {@code experiment copy} moves an experiment both ways byte for byte; bad
 * input (an unreachable server, refused credentials, a database without the store, another schema version, a
 * password in the URL) is one clear message and exit 2 or 1, with nothing created.
 */
class PostgresStoreCommandTest {
    private static final PostgresServer PG = PostgresServer.shared();

    @TempDir
    Path tmp;

    record Out(int code, String out, String err) {
        String all() {
            return out + err;
        }
    }

    /** {@code ./brokkr ARGS} as its own process, with {@code env} added to (and PG* variables removed from) ours. */
    static Out brokkr(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-Djava.awt.headless=true",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                "brokkr.cli.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("PG"));
        pb.environment().putAll(env);
        Path out = Files.createTempFile("brokkr-out", ".txt"), err = Files.createTempFile("brokkr-err", ".txt");
        try {
            Process p =
                    pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("brokkr " + String.join(" ", args) + " did not finish");
            }
            return new Out(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    static Out brokkr(String... args) throws IOException, InterruptedException {
        return brokkr(Map.of(), args);
    }

    private Path experiment(String extra) throws IOException {
        Path file = tmp.resolve("exp.yaml");
        Files.writeString(file, """
                name: yes-pg
                domain: agree
                split: test
                candidates:
                  - {id: agreeable, provider: say, model: "yes"}
                  - {id: contrary, provider: say, model: "no"}
                repetitions: 2
                """ + extra);
        return file;
    }

    private static boolean schemaExists(PostgresServer.Database db, String schema) throws Exception {
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM pg_namespace WHERE nspname = '" + schema + "'")) {
            r.next();
            return r.getInt(1) == 1;
        }
    }

    @Test
    void everyReaderReadsAPostgresqlStoreAsItReadsTheSameRunInSqlite() throws Exception {
        try (var db = PG.createDatabase()) {
            Path file = experiment("");
            String dir = tmp.resolve("lite").toString(), url = db.url("evals");
            Out lite = brokkr("experiment", "run", file.toString(), "--dir", dir, "--no-progress");
            assertEquals(0, lite.code(), lite.all());
            Out run = brokkr("experiment", "run", file.toString(), "--store", url, "--no-progress");
            assertEquals(0, run.code(), run.all());
            assertTrue(run.err().contains("12 cells: 0 already done, 12 run (12 completed"), run.err());
            Out again = brokkr("experiment", "run", file.toString(), "--store", url, "--no-progress");
            assertTrue(again.err().contains("12 cells: 12 already done, 0 run"), again.all());

            // The same scorecard, per task and by check; the same attempts (times apart) and transcripts.
            for (List<String> reader : List.of(
                    List.of("show", "--tasks", "--checks", "--format", "csv"), List.of("checks", "--format", "csv"))) {
                List<String> a = new ArrayList<>(List.of("experiment", reader.getFirst(), dir));
                a.addAll(reader.subList(1, reader.size()));
                List<String> b = new ArrayList<>(List.of("experiment", reader.getFirst(), url));
                b.addAll(reader.subList(1, reader.size()));
                Out x = brokkr(a.toArray(String[]::new)), y = brokkr(b.toArray(String[]::new));
                assertEquals(0, y.code(), y.all());
                assertEquals(withoutDurations(x.out()), withoutDurations(y.out()), reader.toString());
            }
            Out attempts = Main2.cli("experiment", "attempts", url, "--format", "json");
            assertEquals(0, attempts.code(), attempts.all());
            assertTrue(attempts.out().contains("\"candidate\": \"contrary\""), attempts.out());
            Out t = Main2.cli("experiment", "transcript", url, "1");
            assertEquals(0, t.code(), t.all());
            assertTrue(t.out().contains("[user] say yes"), t.out());
            Out compare = Main2.cli("experiment", "compare", url, dir, "--a", "agreeable", "--b", "agreeable");
            assertEquals(0, compare.code(), compare.all());
            Out report = Main2.cli("report", url, "--out", tmp.resolve("r.html").toString());
            assertEquals(0, report.code(), report.all());
            assertTrue(Files.readString(tmp.resolve("r.html")).contains("yes-pg"));
            Out list = Main2.cli("experiment", "list", dir, url, "--format", "csv");
            assertEquals(0, list.code(), list.all());
            assertTrue(list.out().contains(url + ",yes-pg,agree"), list.out());
            Out noOut = Main2.cli("report", url);
            assertEquals(2, noOut.code(), noOut.all());
            assertTrue(noOut.err().contains("give --out FILE"), noOut.err());
        }
    }

    /** Tables' text with the duration columns' values blanked (two runs take different times). */
    static String withoutDurations(String csv) {
        return csv.replaceAll("(?m)(,)[0-9.]+(?=,|$)", "$1#");
    }

    @Test
    void theExperimentFilesStoreKeySelectsThePostgresqlStore() throws Exception {
        try (var db = PG.createDatabase()) {
            Path file = experiment("store: " + db.url("from_file") + "\n");
            Out run = brokkr("experiment", "run", file.toString(), "--no-progress");
            assertEquals(0, run.code(), run.all());
            assertTrue(run.out().contains("in " + db.url("from_file")), run.out());
            assertTrue(schemaExists(db, "from_file"));
            assertFalse(Files.exists(tmp.resolve(".brokkr")));
        }
    }

    @Test
    void copyMovesAnExperimentToPostgresqlAndBackByteForByte() throws Exception {
        try (var db = PG.createDatabase()) {
            Path file = experiment("");
            Path lite = tmp.resolve("lite"), back = tmp.resolve("back");
            assertEquals(
                    0,
                    brokkr("experiment", "run", file.toString(), "--dir", lite.toString(), "--no-progress")
                            .code());
            String url = db.url("copied");
            Out there = brokkr("experiment", "copy", lite.toString(), url);
            assertEquals(0, there.code(), there.all());
            assertTrue(there.out().contains("12 cells, 12 attempts"), there.out());
            Out home = brokkr("experiment", "copy", url, back.toString());
            assertEquals(0, home.code(), home.all());
            // Every row of every table as SQLite dumps it: the round trip changed no byte.
            for (String table : List.of("experiment", "environment_def", "agent_def", "cell", "attempt", "blob")) {
                assertEquals(dump(lite, table), dump(back, table), table);
                // (this domain's texts are short: no blob rows; PostgresStoreTest copies long texts and U+0000)
                if (!table.equals("blob")) assertFalse(dump(lite, table).isBlank(), table);
            }
            // And the PostgreSQL copy reads as the source: each attempt's whole record.
            for (int id = 1; id <= 12; id++) {
                Out a = Main2.cli("experiment", "transcript", lite.toString(), "" + id, "--json");
                Out b = Main2.cli("experiment", "transcript", url, "" + id, "--json");
                assertEquals(0, b.code(), b.all());
                assertEquals(a.out(), b.out(), "attempt " + id);
            }
            // A store that already holds an experiment is never copied into.
            Out twice = brokkr("experiment", "copy", lite.toString(), url);
            assertEquals(2, twice.code(), twice.all());
            assertTrue(twice.err().contains("already holds an experiment"), twice.err());
            // A resume into the copy runs nothing: the cells are the same cells.
            Out resume = brokkr("experiment", "run", file.toString(), "--store", url, "--no-progress");
            assertTrue(resume.err().contains("12 cells: 12 already done, 0 run"), resume.all());
        }
    }

    /** {@code sqlite3 DIR/experiment.db} rows of {@code table} as SQL text. */
    static String dump(Path dir, String table) throws Exception {
        Process p = new ProcessBuilder(
                        "sqlite3",
                        "-readonly",
                        "-cmd",
                        ".mode quote",
                        dir.resolve("experiment.db").toString(),
                        "SELECT * FROM " + table + " ORDER BY 1")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    @Test
    void badStoresAreOneClearMessageAndCreateNothing() throws Exception {
        try (var db = PG.createDatabase()) {
            Path file = experiment("");
            // Unreachable: no server listens on port 1.
            Out unreachable = brokkr("experiment", "show", "postgresql://127.0.0.1:1/" + db.name());
            assertEquals(1, unreachable.code(), unreachable.all());
            assertTrue(unreachable.err().contains("cannot reach PostgreSQL"), unreachable.err());
            assertEquals(1, unreachable.err().lines().count(), unreachable.err());

            // Wrong credentials: a password role, the wrong password in PGPASSWORD; never printed.
            String role = "alice_" + db.name();
            PG.createRole(role, "right-password");
            PG.sql("GRANT ALL ON DATABASE " + db.name() + " TO " + role);
            String asAlice = "postgresql://" + role + "@127.0.0.1:" + PG.port() + "/" + db.name();
            Out refused = brokkr(
                    Map.of("PGPASSWORD", "wrong-password"),
                    "experiment",
                    "run",
                    file.toString(),
                    "--store",
                    asAlice,
                    "--no-progress");
            assertEquals(1, refused.code(), refused.all());
            assertTrue(refused.err().contains("refused user '" + role + "'"), refused.err());
            assertFalse(refused.all().contains("wrong-password"), refused.all());
            assertFalse(schemaExists(db, "brokkr"), "nothing created");
            // The right one, from the environment only, works.
            Out right = brokkr(
                    Map.of("PGPASSWORD", "right-password"),
                    "experiment",
                    "run",
                    file.toString(),
                    "--store",
                    asAlice,
                    "--no-progress");
            assertEquals(0, right.code(), right.all());
            assertFalse(right.all().contains("right-password"), right.all());

            // A database without the store: readers refuse it and create nothing.
            Out none = brokkr("experiment", "show", db.url("nothing_here"));
            assertEquals(1, none.code(), none.all());
            assertTrue(none.err().contains("holds no experiment store"), none.err());
            assertFalse(schemaExists(db, "nothing_here"));

            // Another schema version: refused by readers and writers, by name.
            try (Connection c = db.connect();
                    Statement s = c.createStatement()) {
                s.execute("UPDATE brokkr.brokkr_store SET schema_version = 99");
            }
            Out newer = brokkr("experiment", "show", db.url());
            assertEquals(1, newer.code(), newer.all());
            assertTrue(newer.err().contains("has schema version 99"), newer.err());
            Out newerRun = brokkr("experiment", "run", file.toString(), "--store", db.url(), "--no-progress");
            assertEquals(1, newerRun.code(), newerRun.all());
            assertTrue(newerRun.err().contains("has schema version 99"), newerRun.err());

            // A password in the URL: refused before anything is reached, never echoed; exit 2.
            String withPassword =
                    "postgresql://" + role + ":hunter2@127.0.0.1:" + PG.port() + "/" + db.name() + "?schema=pw";
            for (Out o : List.of(
                    brokkr("experiment", "show", withPassword),
                    brokkr("experiment", "run", file.toString(), "--store", withPassword, "--no-progress"),
                    brokkr("experiment", "copy", tmp.toString(), withPassword))) {
                assertEquals(2, o.code(), o.all());
                assertTrue(o.err().contains("carries a password"), o.err());
                assertFalse(o.all().contains("hunter2"), o.all());
            }
            Path spec = experiment("store: " + withPassword + "\n");
            Out inSpec = brokkr("experiment", "run", spec.toString(), "--no-progress");
            assertEquals(2, inSpec.code(), inSpec.all());
            assertFalse(inSpec.all().contains("hunter2"), inSpec.all());
            assertFalse(schemaExists(db, "pw"));
        }
    }

    /** The CLI in this JVM (the same code as the process; for the many read-only calls). */
    static final class Main2 {
        static Out cli(String... args) {
            var r = ExperimentCommandTest.cli(args);
            return new Out(r.code(), r.out(), r.err());
        }
    }

    static Map<String, String> env(String k, String v) {
        Map<String, String> m = new HashMap<>();
        m.put(k, v);
        return m;
    }
}
