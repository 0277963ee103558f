package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentCommandTest {
    @TempDir Path tmp;

    record Out(int code, String out, String err) {}

    static Out cli(String... args) {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int code = Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Out(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test void runShowAttemptsAndTranscriptFromTheCommandLine() throws Exception {
        Path file = tmp.resolve("exp.yaml");
        Files.writeString(file, """
                name: yes-test
                domain: agree
                split: test
                candidates:
                  - {id: agreeable, provider: say, model: "yes"}
                  - {id: contrary, provider: say, model: "no"}
                repetitions: 2
                """);
        String dir = tmp.resolve("run").toString();
        Out run = cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.err().contains("12 cells: 0 already done, 12 run (12 completed"), run.err());
        Out again = cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress");
        assertTrue(again.err().contains("12 cells: 12 already done, 0 run"), again.err());

        Out show = cli("experiment", "show", dir);
        assertEquals(0, show.code());
        assertTrue(show.out().matches("(?s).*agree\\s+agreeable\\s+3\\s+6\\s+0\\s+1\\.00\\s+1\\.00\\s+1\\.00\\s.*"), show.out());
        assertTrue(show.out().matches("(?s).*agree\\s+contrary\\s+3\\s+6\\s+0\\s+0\\s+0\\s+0\\s.*"), show.out());

        Out attempts = cli("experiment", "attempts", dir);
        assertEquals(13, attempts.out().lines().count(), attempts.out());
        Out checks = cli("experiment", "checks", dir);
        assertTrue(checks.out().matches("(?s).*contrary\\s+said_yes\\s+6\\s+6.*"), checks.out());
        Out t = cli("experiment", "transcript", dir, "1");
        assertTrue(t.out().contains("[user] say yes"), t.out());
        Out v = cli("experiment", "verify-world", dir, "1");
        assertEquals(2, v.code());
        assertTrue(v.err().contains("brings no world replay"), v.err());
        assertEquals(2, cli("experiment", "transcript", dir, "x").code());
    }

    @Test void theSyntheticLoopBenchmarkRunsFromAnExperimentFile() throws Exception {
        Path file = tmp.resolve("loop.json");
        Files.writeString(file, """
                {"name": "loop-smoke", "domain": "loop", "split": "smoke", "repetitions": 2, "parallelism": 4,
                 "candidates": [{"id": "ideal", "provider": "scripted", "model": "ideal"},
                                {"id": "early", "provider": "scripted", "model": "early-stop"}]}
                """);
        String dir = tmp.resolve("loop").toString();
        Out run = cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().matches("(?s).*loop\\s+ideal\\s+2\\s+4\\s+0\\s+1\\.00\\s+1\\.00\\s+1\\.00\\s.*"), run.out());
        assertTrue(run.out().matches("(?s).*loop\\s+early\\s+secret_correct\\s+4\\s+4.*"), run.out());
        Out v = cli("experiment", "verify-world", dir, "1");
        assertEquals(0, v.code(), v.err());
        assertTrue(v.out().contains("verified"), v.out());
        Out all = cli("experiment", "verify-world", dir);
        assertEquals(0, all.code(), all.err());
        assertTrue(all.out().contains("8 attempts verified, 0 mismatches"), all.out());
    }

    @Test void badArgumentsAreUsageErrors() throws Exception {
        assertEquals(2, cli("experiment").code());
        assertEquals(2, cli("experiment", "fly").code());
        assertEquals(2, cli("experiment", "run").code());
        assertEquals(2, cli("experiment", "run", tmp.resolve("missing.yaml").toString()).code());
        assertEquals(2, cli("experiment", "show", tmp.toString()).code());
        assertEquals(2, cli("experiment", "run", "a.yaml", "--bogus").code());
        Path bad = tmp.resolve("bad.yaml");
        Files.writeString(bad, "domain: nowhere\nsplit: test\ncandidates: [{id: a, provider: say, model: x}]\n");
        Out o = cli("experiment", "run", bad.toString(), "--dir", tmp.resolve("d").toString(), "--no-progress");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("unknown domain 'nowhere'"), o.err());
        Files.writeString(bad, "domain: agree\nsplit: test\ncandidates: [{id: a, provider: say, model: x}]\nrepetitons: 2\n");
        assertTrue(cli("experiment", "run", bad.toString()).err().contains("unknown key 'repetitons'"));
    }
}
