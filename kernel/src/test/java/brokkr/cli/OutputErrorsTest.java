package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** README: an output that cannot be written (a full disk, {@code /dev/full}) is exit 2, never a silent 0 or a 1. */
class OutputErrorsTest {
    @TempDir
    Path tmp;

    /** Standing for stdout redirected to {@code /dev/full}: every write fails as ENOSPC does. */
    private static final OutputStream FULL = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            throw new IOException("No space left on device");
        }
    };

    @Test
    void aStandardOutputThatCannotBeWrittenExitsTwo() {
        var err = new ByteArrayOutputStream();
        int code = Main.run(
                List.of("loop", "3"), new PrintStream(FULL, true), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("cannot write the output"), err.toString());
    }

    @Test
    void aReportToDevFullExitsTwo() throws Exception {
        Path full = Path.of("/dev/full");
        Assumptions.assumeTrue(Files.exists(full), "no /dev/full on this system");
        Path spec = tmp.resolve("x.yaml");
        Files.writeString(
                spec, "domain: loop\ntasks: [\"3\"]\ncandidates: [{id: ideal, provider: scripted, model: ideal}]\n");
        Path dir = tmp.resolve("run");
        var run = ConformanceCommandTest.main(
                "experiment", "run", spec.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(0, run.code(), run.err());
        var report = ConformanceCommandTest.main("report", dir.toString(), "--out", full.toString());
        assertEquals(2, report.code(), report.out() + report.err());
        assertTrue(report.err().contains("No space left"), report.err());
    }
}
