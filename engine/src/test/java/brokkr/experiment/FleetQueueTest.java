package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.experiment.testing.PostgresServer;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The lease protocol on a real PostgreSQL server, step by step: a claim within a provider's cap, a lease
 * that expires and is claimed again with the next epoch, the late result of the old lease refused (nothing
 * written), the new one recorded once (a retried record finds its own), a heartbeat that no longer extends a
 * lease claimed elsewhere, and a cell out of infrastructure retries.
 */
class FleetQueueTest {
    @Test
    void claimExpireReclaimFenceRecordOnce() throws Exception {
        try (PostgresServer.Database db = PostgresServer.shared().createDatabase();
                Connection c = db.connect()) {
            try (Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS scratch CASCADE");
                s.execute("CREATE SCHEMA scratch");
                s.execute("SET search_path TO scratch");
                FleetQueue.createTables(s);
                s.execute("INSERT INTO fleet_cell(env_id, agent_id, repetition, experiment, ordinal, providers, state)"
                        + " VALUES('e','a',0,'x',0,'{openai}','pending'), ('e','a',1,'x',1,'{openai}','pending')");
                s.execute("INSERT INTO fleet_limit VALUES('openai', 1)");
                s.execute(
                        "INSERT INTO fleet_worker(id, host, pid, slots, started_at, heartbeat_at) VALUES('w1','h',1,1,now(),now()),('w2','h',2,1,now(),now())");
            }
            c.setAutoCommit(false);
            var a = FleetQueue.claim(c, List.of("x"), "w1", Duration.ofMillis(300), 1);
            c.commit();
            assertEquals(1, a.leases().size());
            var b = FleetQueue.claim(c, List.of("x"), "w2", Duration.ofMillis(300), 1);
            c.commit();
            assertTrue(b.leases().isEmpty(), "capped at 1");
            assertTrue(b.open());
            Thread.sleep(400);
            var again = FleetQueue.claim(c, List.of("x"), "w2", Duration.ofSeconds(30), 1);
            c.commit();
            assertEquals(a.leases().getFirst().cell(), again.leases().getFirst().cell());
            assertEquals(
                    a.leases().getFirst().epoch() + 1, again.leases().getFirst().epoch());
            assertEquals(
                    FleetQueue.Recorded.REFUSED,
                    FleetQueue.record(
                            c,
                            "w1",
                            new FleetQueue.Result(a.leases().getFirst(), true, 3, null),
                            (w, batch) -> fail("written")));
            c.commit();
            int[] writes = {0};
            assertEquals(
                    FleetQueue.Recorded.RECORDED,
                    FleetQueue.record(
                            c,
                            "w2",
                            new FleetQueue.Result(again.leases().getFirst(), true, 3, null),
                            (w, batch) -> writes[0]++));
            c.commit();
            assertEquals(
                    FleetQueue.Recorded.ALREADY,
                    FleetQueue.record(
                            c,
                            "w2",
                            new FleetQueue.Result(again.leases().getFirst(), true, 3, null),
                            (w, batch) -> writes[0]++));
            c.commit();
            assertEquals(1, writes[0]);
            var hb = FleetQueue.heartbeat(c, "w2", Duration.ofSeconds(30));
            assertTrue(hb.isEmpty());
            var last = FleetQueue.claim(c, List.of("x"), "w1", Duration.ofSeconds(30), 1);
            c.commit();
            assertEquals(new CellKey("e", "a", 1), last.leases().getFirst().cell());
            assertEquals(
                    FleetQueue.Recorded.RECORDED,
                    FleetQueue.record(
                            c,
                            "w1",
                            new FleetQueue.Result(last.leases().getFirst(), false, 0, null),
                            (w, batch) -> {}));
            c.commit();
            var fin = FleetQueue.claim(c, List.of("x"), "w1", Duration.ofSeconds(30), 1);
            c.commit();
            assertFalse(fin.open(), "exhausted after 1 infra failure with max_infra_retries 0");
        }
    }
}
