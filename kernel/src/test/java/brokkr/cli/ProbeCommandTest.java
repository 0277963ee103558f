package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.Experiments;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./brokkr probe}: the outcome table of a store's attempt or a task's gold run, stored as a diagnostic; bad arguments exit 2. */
class ProbeCommandTest {
    @TempDir
    Path tmp;

    @Test
    void probesAStoresAttemptAndKeepsItOutOfTheScorecard() throws Exception {
        Path file = tmp.resolve("exp.yaml");
        Files.writeString(file, """
                name: probe-cli
                domain: tau2-airline
                split: test
                candidates:
                  - {id: gold, provider: scripted, model: gold}
                repetitions: 1
                parallelism: 4
                """);
        Path dir = tmp.resolve("run");
        var run = ExperimentCommandTest.cli(
                "experiment", "run", file.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(0, run.code(), run.err());
        var before = Experiments.scorecard(dir);
        long id;
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            id = q.attempts(false).stream()
                    .filter(a -> a.evidence().transcript().asList().size() > 4)
                    .findFirst()
                    .orElseThrow()
                    .id();
        }
        Path png = tmp.resolve("chart.png");
        var r = ExperimentCommandTest.cli(
                "probe",
                dir.toString(),
                String.valueOf(id),
                "--at",
                "1",
                "--candidate",
                "gold",
                "-n",
                "6",
                "--vs",
                "stop",
                "--chart",
                png.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("matches gold: 6/6 (1.00)"), r.out());
        assertTrue(r.out().contains("matches gold: 0/6 (0.00)"), r.out());
        // [[6, 0], [0, 6]]: p = 2 / C(12, 6) = 2/924
        assertTrue(r.out().contains("p = 0.002165"), r.out());
        assertTrue(r.out().contains("stored in " + dir + " as diagnostic probe record(s) #1, #2"), r.out());
        // Beside a running experiment (which holds the store) the probe is measured but not stored: exit 1.
        try (var running = brokkr.experiment.ExperimentStore.openForRun(dir)) {
            var busy = ExperimentCommandTest.cli(
                    "probe", dir.toString(), String.valueOf(id), "--at", "1", "--candidate", "gold", "-n", "2");
            assertEquals(1, busy.code(), busy.out() + busy.err());
            assertTrue(busy.err().contains("not stored"), busy.err());
        }
        assertTrue(Files.size(png) > 10_000);
        assertEquals(before, Experiments.scorecard(dir));
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            assertEquals(2, q.probes().size());
        }
    }

    @Test
    void probesATasksGoldRunOfTelecom() throws Exception {
        var r = ExperimentCommandTest.cli(
                "probe",
                "--domain",
                "tau2-telecom",
                "--task",
                firstTelecomTask(),
                "--at",
                "1",
                "--candidate",
                "gold-50",
                "-n",
                "10",
                "--seed",
                "4");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("outcome class") && r.out().contains("/10 ("), r.out());
    }

    static String firstTelecomTask() {
        return Tau2Domains.benchmark("telecom").tasks("test").getFirst();
    }

    @Test
    void badArgumentsGetTheUsageAndExitTwo() throws Exception {
        for (String[] args : new String[][] {
            {"probe"},
            {"probe", "--domain", "tau2-retail", "--task", "5", "--at", "1"},
            {"probe", "--domain", "tau2-retail", "--task", "5", "--at", "0", "--candidate", "gold"},
            {"probe", "--domain", "tau2-retail", "--task", "5", "--at", "1", "--candidate", "gold", "-n", "many"},
            {"probe", "--domain", "tau2-retail", "--task", "5", "--at", "1", "--candidate", "gold", "--bogus", "1"},
            {"probe", "somewhere", "--at", "1", "--candidate", "gold"}
        }) {
            var r = ExperimentCommandTest.cli(args);
            assertEquals(2, r.code(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().contains("usage: ./brokkr probe"), r.err());
        }
        var cut = ExperimentCommandTest.cli(
                "probe", "--domain", "tau2-retail", "--task", "5", "--at", "9", "--candidate", "gold");
        assertEquals(2, cut.code());
        assertTrue(cut.err().contains("has 1 customer message(s) the agent answered, not 9"), cut.err());
        var domain = ExperimentCommandTest.cli(
                "probe", "--domain", "tau2-nowhere", "--task", "5", "--at", "1", "--candidate", "gold");
        assertEquals(2, domain.code());
        assertTrue(domain.err().contains("unknown domain 'tau2-nowhere'"), domain.err());
        var missing = ExperimentCommandTest.cli("probe", tmp.toString(), "1", "--at", "1", "--candidate", "gold");
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("holds no experiment"), missing.err());
    }
}
