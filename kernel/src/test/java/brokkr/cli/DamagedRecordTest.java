package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.ExperimentStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One byte flipped inside a stored record (which SQLite's {@code quick_check} does not read into): every command
 * names the store and the attempt instead of a raw parser message; inspection goes on past it, flagged (exit 1);
 * what needs the record whole (its transcript, an export) fails, naming both; resuming still works.
 */
class DamagedRecordTest {
    @TempDir
    Path tmp;

    @Test
    void aDamagedAttemptIsNamedWithItsStoreAndInspectionGoesOnPastIt() throws Exception {
        Path spec = tmp.resolve("x.yaml");
        Files.writeString(spec, """
                name: damaged
                domain: tau2-retail
                tasks: ["0", "1"]
                candidates:
                  - {id: gold, provider: scripted, model: gold}
                """);
        Path dir = tmp.resolve("run");
        var run = ConformanceCommandTest.main(
                "experiment", "run", spec.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(0, run.code(), run.out() + run.err());
        Path db = ExperimentStore.file(dir);
        assertFalse(Files.exists(Path.of(db + "-wal")) && Files.size(Path.of(db + "-wal")) > 0, "checkpointed");
        byte[] bytes = Files.readAllBytes(db);
        int at = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("{\"setup\": ");
        assertTrue(at > 0, "an evidence record in the file");
        bytes[at + "{\"setup\"".length()] = ';'; // "setup"; {...}: one byte, no longer JSON
        Files.write(db, bytes);

        var show = ConformanceCommandTest.main("experiment", "show", dir.toString());
        assertEquals(1, show.code(), show.out() + show.err());
        Matcher m = Pattern.compile(Pattern.quote(db.toString()) + ": attempt (\\d+) is damaged")
                .matcher(show.err());
        assertTrue(m.find(), "the store and the attempt are named: " + show.err());
        assertFalse(show.err().contains("[Source:"), "the parser's own location text is not shown: " + show.err());
        assertTrue(show.out().contains("tau2-retail"), "the scorecard is still shown: " + show.out());
        String damaged = m.group(1), intact = damaged.equals("1") ? "2" : "1";

        var bad = ConformanceCommandTest.main("experiment", "transcript", dir.toString(), damaged);
        assertEquals(1, bad.code());
        assertTrue(bad.err().contains(db + ": attempt " + damaged + " is damaged"), bad.err());
        var good = ConformanceCommandTest.main("experiment", "transcript", dir.toString(), intact);
        assertEquals(0, good.code(), good.err());

        var verify = ConformanceCommandTest.main("experiment", "verify-world", dir.toString());
        assertEquals(1, verify.code(), verify.out() + verify.err());
        assertTrue(verify.out().contains("DAMAGED attempt " + damaged), verify.out());
        assertTrue(verify.out().contains("1 attempts verified, 1 mismatches"), verify.out());

        var export = ConformanceCommandTest.main("experiment", "export", dir.toString(), "--format", "tau2");
        assertEquals(1, export.code(), export.out() + export.err());
        assertTrue(export.err().contains(db + ": attempt " + damaged + " is damaged"), export.err());

        Path html = tmp.resolve("r.html");
        var report = ConformanceCommandTest.main("report", dir.toString(), "--out", html.toString());
        assertEquals(1, report.code(), report.out() + report.err());
        assertTrue(Files.exists(html), "the report is written");
        assertTrue(report.err().contains(db + ": attempt " + damaged + " is damaged"), report.err());

        var resume = ConformanceCommandTest.main(
                "experiment", "run", spec.toString(), "--dir", dir.toString(), "--no-progress");
        // The run reads the cells' states, not the records: the damaged attempt's cell is done, nothing runs again.
        assertEquals(0, resume.code(), resume.out() + resume.err());
        assertTrue(resume.err().contains("2 already done, 0 run"), resume.err());
    }
}
