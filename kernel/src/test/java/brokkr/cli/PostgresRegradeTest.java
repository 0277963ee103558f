package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.experiment.Regrade;
import brokkr.experiment.StoreLocation;
import brokkr.experiment.testing.PostgresServer;
import brokkr.provider.testing.ScriptedModelServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code experiment regrade URL} on a PostgreSQL store (a real server): the same report as on the same experiment
 * in a directory, the verdicts stored in the store's {@code regrade} table, and with {@code --cache} the judge's
 * calls served again from the store's {@code model_cache} (nothing sent the second time).
 */
class PostgresRegradeTest {
    @TempDir
    Path tmp;

    @Test
    void regradeAndItsCacheWorkOnAPostgresqlStoreAsOnADirectory() throws Exception {
        try (var db = PostgresServer.shared().createDatabase();
                ScriptedModelServer server = ExperimentRegradeTest.judge("water bottle")) {
            ExperimentSpec spec = ExperimentSpec.parse("""
                    name: regrade-pg
                    domain: tau2-retail
                    tasks: ["19", "62", "5"]
                    candidates: [{id: gold, provider: scripted, model: gold}]
                    progress: false
                    """, true, "test", "x", tmp);
            Path dir = tmp.resolve("exp");
            StoreLocation pg = StoreLocation.parse(db.url());
            assertEquals(3, Experiments.run(spec, dir).completed());
            assertEquals(3, Experiments.run(spec, pg, Registry.load()).completed());

            var lite = ExperimentRegradeTest.regrade(server, dir.toString(), "--judge", "openai:j");
            var post = ExperimentRegradeTest.regrade(server, db.url(), "--judge", "openai:j");
            assertEquals(0, post.code(), post.err());
            assertEquals(
                    lite.out()
                            .lines()
                            .skip(1)
                            .map(l -> l.replaceAll("attempt \\d+", "attempt N"))
                            .toList(),
                    post.out()
                            .lines()
                            .skip(1)
                            .map(l -> l.replaceAll("attempt \\d+", "attempt N"))
                            .toList());
            assertTrue(post.out().contains("episode verdicts agreeing: 1/2 (50.0%)"), post.out());

            int sent = server.requestCount();
            ExperimentRegradeTest.regrade(server, db.url(), "--judge", "openai:cached", "--cache");
            assertEquals(sent + 2, server.requestCount());
            ExperimentRegradeTest.regrade(server, db.url(), "--judge", "openai:cached", "--cache");
            assertEquals(sent + 2, server.requestCount(), "the second time the store's cache answers");
            try (ExperimentQuery q = ExperimentQuery.open(pg)) {
                assertEquals(6, Regrade.stored(q).size());
                assertTrue(Regrade.stored(q)
                        .getLast()
                        .evidence()
                        .modelCalls()
                        .getFirst()
                        .call()
                        .cacheHit());
            }
        }
    }
}
