package brokkr.magics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.testing.PostgresServer;
import brokkr.magics.builtin.CompareMagics;
import brokkr.magics.builtin.ExperimentMagics;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The notebook magics run into and read a PostgreSQL store (a real server) as they do a directory's. */
class PostgresMagicsTest {
    private static final PostgresServer PG = PostgresServer.shared();

    @TempDir
    Path tmp;

    private static final String SPEC = """
            name: cmp
            domain: loop
            split: smoke
            candidates:
              - {id: ideal, provider: scripted, model: ideal}
              - {id: early, provider: scripted, model: early-stop}
            repetitions: 2
            """;

    @Test
    void experimentScorecardPasskAndCompareOnAPostgresqlStore() throws Exception {
        try (var db = PG.createDatabase()) {
            Session s = new Session();
            String url = db.url("nb");
            Path dir = tmp.resolve("exp");
            s.magics().evalCell(s, "experiment", "--dir " + url, SPEC);
            s.magics().evalCell(s, "experiment", "--dir " + dir, SPEC);
            var pg = (ExperimentMagics.ScorecardView) s.magic("%scorecard " + url);
            var lite = (ExperimentMagics.ScorecardView) s.magic("%scorecard " + dir);
            for (String c : new String[] {"candidate", "tasks", "attempts", "avg_reward", "pass^1", "pass^2", "trust"})
                assertEquals(
                        lite.summary().column(c).asList(),
                        pg.summary().column(c).asList(),
                        c);
            assertTrue(pg.html().contains(url), pg.html());
            var passk = (ExperimentMagics.PassKView) s.magic("%passk " + url);
            assertTrue(passk.table().rowCount() > 0);
            var cmp = (CompareMagics.CompareView) s.magic("%compare " + url);
            assertEquals(1.0, cmp.metrics().doubleColumn("diff").get(0));
            var across = (CompareMagics.CompareView) s.magic("%compare " + url + " " + dir + " --a ideal --b ideal");
            assertEquals(0.0, across.metrics().doubleColumn("diff").get(0));
            var refused = assertThrows(
                    MagicUsageException.class,
                    () -> s.magic("%scorecard postgresql://u:hunter2@127.0.0.1:" + PG.port() + "/" + db.name()));
            assertTrue(refused.getMessage().contains("carries a password"), refused.getMessage());
            assertFalse(refused.getMessage().contains("hunter2"));
        }
    }
}
