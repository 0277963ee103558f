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
    /**
     * Values that only the sandbox, a provider or the environment would check are spec errors up front (exit 2,
     * named as the spec names them), never a spec that passes and then fails every cell.
     */
    @Test
    void sandboxAndProviderLimitsAreCheckedBeforeAnyCell() throws Exception {
        String repl = "domain: tau2-retail\ntasks: [\"0\"]\ncandidates: [{id: r, provider: scripted, model: gold,"
                + " harness: loop, action_space: repl, harness_options: {heap_mb: %d}}]\n";
        rejected("heap-low.yaml", repl.formatted(10), "heap_mb");
        rejected("heap-high.yaml", repl.formatted(100_000), "heap_mb");
        String http =
                "domain: loop\ntasks: [\"3\"]\ncandidates: [{id: m, provider: openai, model: x, options: {%s}}]\n";
        for (String option : List.of(
                "max_response_bytes: -5",
                "max_response_bytes: 1000000000000000",
                "max_tokens: 1e12",
                "max_attempts: 0",
                "timeout_seconds: -1")) {
            String name = option.substring(0, option.indexOf(':'));
            Path file = tmp.resolve(name + option.hashCode() + ".yaml");
            Files.writeString(file, http.formatted(option));
            Out o = cli(
                    "experiment",
                    "run",
                    file.toString(),
                    "--dir",
                    tmp.resolve("d").toString(),
                    "--no-progress");
            assertEquals(2, o.code(), option + ": " + o.out() + o.err());
            assertTrue(o.err().contains("model option " + name), option + ": " + o.err());
            assertFalse(o.err().contains("maxResponseBytes"), "an internal name: " + o.err());
            assertFalse(Files.exists(tmp.resolve("d")));
        }
        rejected(
                "id.yaml",
                "domain: loop\nsplit: smoke\ncandidates: [{id: \"a\\u202eb\", provider: scripted,"
                        + " model: ideal}]\n",
                "U+202E");
    }

    /** README: a provider that has no key is an input error, exit 2 with the message only. */
    @Test
    void aMissingKeyExitsTwo() throws Exception {
        if (System.getenv("ANTHROPIC_API_KEY") != null || System.getenv("ANTHROPIC_BASE_URL") != null) return;
        rejected(
                "nokey.yaml",
                "domain: loop\ntasks: [\"3\"]\ncandidates: [{id: m, provider: anthropic, model: x}]\n",
                "ANTHROPIC_API_KEY is not set");
    }
}
