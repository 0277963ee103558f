package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.Value;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code experiment export --format tau2} and {@code experiment import}: upstream's results file loaded as a store
 * scores as upstream's own metrics recorded; a Brokkr run exported, re-graded and imported again keeps its scores.
 */
class ExperimentInteropCommandTest {

    static PyDict summaryRow(String dir) {
        var r = ConformanceCommandTest.main("experiment", "show", dir, "--format", "json");
        assertEquals(0, r.code(), r.out() + r.err());
        return Json.parse(r.out()).asDict().get("summary").asList().get(0).asDict();
    }

    static double num(Value v) {
        return ((PyFloat) v).value();
    }

    @Test
    void upstreamsResultsFileImportsAsAStoreThatScoresAsUpstreamsMetrics(@TempDir Path tmp) {
        Path results = Tau2EvaluateCommandTest.shared("results/airline/results-mixed.json");
        PyDict recorded = null;
        for (Value f : Json.read(Tau2EvaluateCommandTest.shared("results/results-metrics.json"))
                .asDict()
                .get("files")
                .asList()) {
            if (f.asDict().get("domain").asStr().equals("airline")
                    && f.asDict().get("file").asStr().equals("results-mixed.json"))
                recorded = f.asDict().get("metrics").asDict();
        }
        Path dir = tmp.resolve("imported");
        var r = ConformanceCommandTest.main("experiment", "import", results.toString(), "--dir", dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(
                r.out()
                        .startsWith(
                                "imported 40 simulations of tau2-airline by upstream:oracle_scripted_agent:oracle-scripted"),
                r.out());
        PyDict row = summaryRow(dir.toString());
        assertEquals(num(recorded.get("avg_reward")), num(row.get("avg_reward")), 1e-12);
        assertEquals(num(recorded.get("pass_hat_ks").asDict().get("1")), num(row.get("pass^1")), 1e-12);
        assertEquals(num(recorded.get("pass_hat_ks").asDict().get("2")), num(row.get("pass^2")), 1e-12);
        assertEquals(20L, ((brokkr.value.PyInt) row.get("tasks")).longValue());
        var transcript = ConformanceCommandTest.main("experiment", "transcript", dir.toString(), "1");
        assertEquals(0, transcript.code(), transcript.err());
        assertTrue(transcript.out().contains("upstream_reward_info"), transcript.out());
        // A second import into the same directory is refused: it would mix two runs.
        var again = ConformanceCommandTest.main("experiment", "import", results.toString(), "--dir", dir.toString());
        assertEquals(2, again.code());
        assertTrue(again.err().contains("already holds an experiment"), again.err());
    }

    @Test
    void aBrokkrRunExportsReGradesAndImportsWithItsScores(@TempDir Path tmp) throws Exception {
        Path spec = tmp.resolve("x.yaml");
        Files.writeString(spec, """
                name: interop
                domain: tau2-retail
                tasks: ["0", "1", "5", "9"]
                candidates:
                  - {id: gold, provider: scripted, model: gold}
                  - {id: stop, provider: scripted, model: stop}
                repetitions: 2
                """);
        Path dir = tmp.resolve("run");
        var run = ConformanceCommandTest.main(
                "experiment", "run", spec.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(0, run.code(), run.out() + run.err());

        var noOut = ConformanceCommandTest.main("experiment", "export", dir.toString(), "--format", "tau2");
        assertEquals(2, noOut.code(), "two candidates need --out DIR");
        assertTrue(noOut.err().contains("tau2-retail.gold.json, tau2-retail.stop.json"), noOut.err());
        Path out = tmp.resolve("exported");
        Files.createDirectories(out);
        var exp = ConformanceCommandTest.main(
                "experiment", "export", dir.toString(), "--format", "tau2", "--out", out.toString());
        assertEquals(0, exp.code(), exp.out() + exp.err());
        for (String c : new String[] {"gold", "stop"}) {
            Path f = out.resolve("tau2-retail." + c + ".json");
            PyDict results = Json.read(f).asDict();
            assertEquals(8, results.get("simulations").asList().size());
            assertTrue(Files.readString(f).startsWith("{\n  \"timestamp\": "), "upstream's json.dump(indent=2) layout");

            var regrade = ConformanceCommandTest.main("tau2", "evaluate", f.toString());
            assertEquals(0, regrade.code(), regrade.out() + regrade.err());
            assertEquals("8 simulations, 0 mismatches\n", regrade.out());

            Path back = tmp.resolve("back-" + c);
            var imp = ConformanceCommandTest.main("experiment", "import", f.toString(), "--dir", back.toString());
            assertEquals(0, imp.code(), imp.out() + imp.err());
            PyDict original = null;
            var show = ConformanceCommandTest.main("experiment", "show", dir.toString(), "--format", "json");
            for (Value v : Json.parse(show.out()).asDict().get("summary").asList())
                if (v.asDict().get("candidate").asStr().equals(c)) original = v.asDict();
            PyDict imported = summaryRow(back.toString());
            for (String k : new String[] {"avg_reward", "pass^1", "pass^2"})
                assertEquals(num(original.get(k)), num(imported.get(k)), 1e-12, c + " " + k);
        }
        var one = ConformanceCommandTest.main(
                "experiment",
                "export",
                dir.toString(),
                "--format",
                "tau2",
                "--out",
                tmp.resolve("x/one.json").toString());
        assertEquals(2, one.code(), "a FILE for two results files is a usage error");
        assertEquals(
                2,
                ConformanceCommandTest.main("experiment", "export", dir.toString())
                        .code());
        assertEquals(
                2,
                ConformanceCommandTest.main("experiment", "export", dir.toString(), "--format", "csv")
                        .code());
        assertEquals(
                2,
                ConformanceCommandTest.main(
                                "experiment", "export", tmp.resolve("none").toString(), "--format", "tau2")
                        .code());
    }

    /**
     * {@code experiment export --format tau2-submission}: what the experiment does not know is an option, its absence
     * or a bad value a usage error (exit 2) naming it; a run of 3 trials of 2 tasks is refused (exit 2) with every
     * leaderboard rule it breaks, and nothing is written.
     */
    @Test
    void aTau2SubmissionNeedsItsNamesAndIsRefusedForThreeTrialsOfTwoTasks(@TempDir Path tmp) throws Exception {
        Path spec = tmp.resolve("x.yaml");
        Files.writeString(spec, """
                name: three
                domain: tau2-retail
                tasks: ["0", "1"]
                candidates:
                  - {id: gold, provider: scripted, model: gold}
                repetitions: 3
                """);
        Path dir = tmp.resolve("run");
        var run = ConformanceCommandTest.main(
                "experiment", "run", spec.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(0, run.code(), run.out() + run.err());
        String out = tmp.resolve("submission").toString();
        String[] names = {"--model-organization", "Example Lab", "--contact-email", "research@example.org"};

        var noOut = ConformanceCommandTest.main(
                "experiment",
                "export",
                dir.toString(),
                "--format",
                "tau2-submission",
                names[0],
                names[1],
                names[2],
                names[3]);
        assertEquals(2, noOut.code());
        assertTrue(
                noOut.err()
                        .contains("--format tau2-submission writes submission.json and trajectories/: give --out DIR"),
                noOut.err());
        var noOrg = ConformanceCommandTest.main(
                "experiment",
                "export",
                dir.toString(),
                "--format",
                "tau2-submission",
                "--out",
                out,
                names[2],
                names[3]);
        assertEquals(2, noOrg.code());
        assertTrue(
                noOrg.err()
                        .contains("--format tau2-submission needs --model-organization ORG (who developed the model)"),
                noOrg.err());
        var badDate = ConformanceCommandTest.main(
                "experiment",
                "export",
                dir.toString(),
                "--format",
                "tau2-submission",
                "--out",
                out,
                names[0],
                names[1],
                names[2],
                names[3],
                "--submission-date",
                "2 Dec");
        assertEquals(2, badDate.code());
        assertTrue(badDate.err().contains("--submission-date must be a date YYYY-MM-DD, not '2 Dec'"), badDate.err());
        var foreign = ConformanceCommandTest.main(
                "experiment", "export", dir.toString(), "--format", "tau2", "--contact-email", "a@b.c");
        assertEquals(2, foreign.code());
        assertTrue(
                foreign.err().contains("unknown option --contact-email for --format tau2 (it takes only --out)"),
                foreign.err());

        var refused = ConformanceCommandTest.main(
                "experiment",
                "export",
                dir.toString(),
                "--format",
                "tau2-submission",
                "--out",
                out,
                names[0],
                names[1],
                names[2],
                names[3]);
        assertEquals(2, refused.code(), refused.out() + refused.err());
        assertTrue(
                refused.err()
                        .contains("tau2-retail: the leaderboard takes every task of the base split (114); the"
                                + " experiment has 2 of them (missing 112: "),
                refused.err());
        assertTrue(
                refused.err()
                        .contains("tau2-retail: 3 trials per task; the leaderboard takes at least 4 (repetitions: 4)"),
                refused.err());
        assertTrue(Files.notExists(Path.of(out)), "a refused submission writes nothing");

        // The same run as Every Eval Ever records: no leaderboard rule, one record and its samples.
        Path eee = tmp.resolve("eee");
        var records = ConformanceCommandTest.main(
                "experiment", "export", dir.toString(), "--format", "every-eval-ever", "--out", eee.toString());
        assertEquals(0, records.code(), records.out() + records.err());
        assertEquals("wrote 1 Every Eval Ever record (6 samples) under " + eee + "\n", records.out());
        try (var files = Files.walk(eee.resolve("data/tau2-retail/scripted/gold"))) {
            assertEquals(2, files.filter(Files::isRegularFile).count());
        }
    }
}
