package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31 items 8 and 9: exit codes as the README promises them (2 for what the user gave: a missing
 * key, a file that is not there, a command that does not exist), input errors as their message only
 * (no synopsis), and output files that refuse to mix two runs.
 */
class ExitsAndOutputsTest {
    @TempDir
    Path tmp;

    /** Main.run with captured streams (the CLI tests' one helper). */
    static CliErrorsTest.Run main(String... args) {
        return CliErrorsTest.main(args);
    }

    /** Before: exit 0 and the command list on stdout. */
    @Test
    void helpForACommandThatDoesNotExistIsAUsageError() {
        CliErrorsTest.Run r = main("help", "NOSUCHCOMMAND");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("brokkr help: unknown command 'NOSUCHCOMMAND'\n"), r.err());
        assertEquals("", r.out());
        assertEquals(0, main("help", "tau2").code());
    }

    /** Before: exit 1 ("OPENAI_API_KEY is not set" as a runtime error). */
    @Test
    void anExperimentWhoseKeyIsNotSetExitsTwoWithTheMessageOnly() throws Exception {
        assumeTrue(System.getenv("OPENAI_API_KEY") == null && System.getenv("OPENAI_BASE_URL") == null);
        Path file = Files.writeString(tmp.resolve("nokey.yaml"), """
                name: nokey
                domain: loop
                split: smoke
                candidates:
                  - {id: m, provider: openai, model: gpt-x}
                progress: false
                """);
        CliErrorsTest.Run r = main(
                "experiment", "run", file.toString(), "--dir", tmp.resolve("d").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("OPENAI_API_KEY is not set"), r.err());
        assertFalse(r.err().contains("usage:"), "the message only: " + r.err());
    }

    /** Before: the message, then the whole synopsis of experiment. */
    @Test
    void inputErrorsPrintTheMessageOnly() throws Exception {
        CliErrorsTest.Run show = main("experiment", "show", "/nonexistent");
        assertEquals(2, show.code());
        assertEquals(
                "brokkr experiment: /nonexistent holds no experiment (no experiment.db)",
                show.err().strip());
        Path file = Files.writeString(tmp.resolve("prompt.yaml"), """
                name: prompt
                domain: loop
                split: smoke
                candidates:
                  - {id: m, provider: scripted, model: gold, system_prompt_file: missing.txt}
                progress: false
                """);
        CliErrorsTest.Run run = main(
                "experiment", "run", file.toString(), "--dir", tmp.resolve("d").toString());
        assertEquals(2, run.code());
        assertTrue(
                run.err().startsWith("brokkr experiment: candidate m: cannot read system_prompt_file missing.txt"),
                run.err());
        assertFalse(run.err().contains("usage:"), run.err());
        CliErrorsTest.Run noFile =
                main("experiment", "run", tmp.resolve("none.yaml").toString());
        assertEquals(2, noFile.code());
        assertFalse(noFile.err().contains("usage:"), noFile.err());
        // A malformed command line still shows the synopsis.
        assertTrue(main("experiment", "run").err().contains("usage:"));
    }

    /** Before: bfcl run --out overwrote an existing file while tau2 run appended to it; now both refuse it. */
    @Test
    void bfclRunOutRefusesAnExistingFileUnlessAppendOrForce() throws Exception {
        Path log = tmp.resolve("bfcl.jsonl");
        String[] run = {
            "bfcl", "run", "--agent", "gold", "--categories", "simple_python", "--sample", "2", "--out", log.toString()
        };
        CliErrorsTest.Run first = main(run);
        assertEquals(0, first.code(), first.err());
        String before = Files.readString(log);
        assertEquals(2, before.lines().count());
        CliErrorsTest.Run refused = main(run);
        assertEquals(2, refused.code());
        assertTrue(refused.err().contains("--out " + log + " exists; give --append"), refused.err());
        assertEquals("", refused.out(), "refused before anything ran");
        assertEquals(before, Files.readString(log));
        String[] append = java.util.Arrays.copyOf(run, run.length + 1);
        append[run.length] = "--append";
        assertEquals(0, main(append).code());
        assertEquals(4, Files.readString(log).lines().count());
        append[run.length] = "--force";
        assertEquals(0, main(append).code());
        assertEquals(before, Files.readString(log));
    }

    /**
     * Issue 31 items 9 and 15: report.html and exported files are owner-only as the store is (before: 0644),
     * and a BFCL export of a few categories scores its overall over those (before: 28.33%-like figures with the
     * categories never run as 0, and 0.00% for multi-turn).
     */
    @Test
    void reportAndExportFilesAreOwnerOnlyAndAnOverallIsOverWhatWasRun() throws Exception {
        Path spec = Files.writeString(tmp.resolve("few.yaml"), """
                name: few
                domain: bfcl
                split: simple_python,live_simple:sample=2:seed=7
                candidates:
                  - {id: gold, provider: scripted, model: gold}
                progress: false
                """);
        Path dir = tmp.resolve("run");
        assertEquals(
                0,
                main("experiment", "run", spec.toString(), "--dir", dir.toString())
                        .code());
        var ownerOnly = java.nio.file.attribute.PosixFilePermissions.fromString("rw-------");
        CliErrorsTest.Run report = main("report", dir.toString());
        assertEquals(0, report.code(), report.err());
        assertEquals(ownerOnly, Files.getPosixFilePermissions(dir.resolve("report.html")));
        Path out = tmp.resolve("export");
        CliErrorsTest.Run export =
                main("experiment", "export", dir.toString(), "--format", "bfcl", "--out", out.toString());
        assertEquals(0, export.code(), export.err());
        try (var files = Files.walk(out)) {
            for (Path f : files.filter(Files::isRegularFile).toList())
                assertEquals(ownerOnly, Files.getPosixFilePermissions(f), f.toString());
        }
        List<String> overall = Files.readAllLines(out.resolve("score/data_overall.csv"));
        List<String> header = List.of(overall.get(0).split(","));
        List<String> row = List.of(overall.get(1).split(","));
        assertEquals("N/A", row.get(header.indexOf("Overall Acc")), "not every segment was run: " + overall.get(1));
        assertEquals("N/A", row.get(header.indexOf("Multi Turn Acc")), overall.get(1));
        assertEquals("N/A", row.get(header.indexOf("Live Multiple AST")), "not run: " + overall.get(1));
        assertEquals("100.00%", row.get(header.indexOf("Live Simple AST")));
    }
}
