package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bad experiment file is exit 2 with the reason, and nothing is created on disk. */
class ExperimentSpecErrorsTest {
    @TempDir
    Path tmp;

    record Out(int code, String out, String err) {}

    static Out cli(String... args) {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int code = Main.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Out(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static final String LOOP =
            "domain: loop\nsplit: smoke\ncandidates: [{id: ideal, provider: scripted, model: ideal}]\n";

    private void rejected(String fileName, String text, String reason) throws Exception {
        Path file = tmp.resolve(fileName);
        Files.writeString(file, text);
        Path dir = tmp.resolve("run-" + fileName);
        Out o = cli("experiment", "run", file.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(2, o.code(), fileName + ": " + o.out() + o.err());
        assertTrue(o.err().contains(reason), fileName + ": '" + reason + "' missing from " + o.err());
        assertFalse(Files.exists(dir), fileName + ": the experiment directory was created");
    }

    @Test
    void badSpecsExitTwoBeforeAnythingIsCreated() throws Exception {
        rejected("dup.yaml", LOOP + "repetitions: 1\nrepetitions: 2\n", "duplicate");
        rejected("frac.yaml", LOOP + "repetitions: 2.9\n", "whole number");
        rejected("huge.yaml", LOOP + "repetitions: 1e12\n", "at most");
        rejected("timeout.yaml", LOOP + "cell_timeout_seconds: 1e12\n", "at most");
        rejected(
                "garbage.json",
                "{\"domain\": \"loop\", \"split\": \"smoke\", "
                        + "\"candidates\": [{\"id\": \"ideal\", \"provider\": \"scripted\", \"model\": \"ideal\"}]} }}",
                "trailing");
    }

    @Test
    void aNameCannotLeaveTheExperimentsFolder() throws Exception {
        String escape = "brokkr-escape-" + UUID.randomUUID();
        Path file = tmp.resolve("escape.yaml");
        // Without --dir the directory is .brokkr/experiments/NAME under the working directory.
        Files.writeString(file, "name: ../../" + escape + "\n" + LOOP);
        Out o = cli("experiment", "run", file.toString(), "--no-progress");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("name"), o.err());
        assertFalse(Files.exists(Path.of(escape)), "the run escaped .brokkr/experiments");
    }
}
