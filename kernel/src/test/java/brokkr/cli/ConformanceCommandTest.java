package brokkr.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConformanceCommandTest {
    record Run(int code, String out, String err) {}

    static Run main(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(
                List.of(argv),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Path corpus(String file) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path p = d.resolve("shared/conformance/tau2/retail").resolve(file);
            if (Files.isRegularFile(p)) return p;
        }
        throw new IllegalStateException("no shared/conformance above the working directory");
    }

    @Test
    void retailGoldCorpusReplaysWithNoMismatch() {
        Run r = main(
                "conformance",
                "tau2",
                "--domain",
                "retail",
                "--corpus",
                corpus("gold.jsonl").toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals("114 sequences, 550 calls, 0 mismatches\n", r.out());
    }

    @Test
    void aTamperedCorpusIsReportedAndFails(@TempDir Path tmp) throws Exception {
        List<String> lines = Files.readAllLines(corpus("gold.jsonl"));
        String first = lines.get(0);
        int at = first.indexOf("\"content\": \"") + "\"content\": \"".length();
        lines.set(0, first.substring(0, at) + "TAMPERED " + first.substring(at));
        Path bad = tmp.resolve("bad.jsonl");
        Files.write(bad, lines.subList(0, 3));
        Run r = main("conformance", "tau2", "--domain", "retail", "--corpus", bad.toString());
        assertEquals(1, r.code());
        assertTrue(r.out().matches("(?s).*\n3 sequences, \\d+ calls, 1 mismatches\n"), r.out());
        assertTrue(r.out().contains("TAMPERED"), "the first difference is printed: " + r.out());
    }

    static Path bfclCorpus(String file) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path p = d.resolve("shared/conformance/bfcl").resolve(file);
            if (Files.isRegularFile(p)) return p;
        }
        throw new IllegalStateException("no shared/conformance/bfcl above the working directory");
    }

    @Test
    void bfclSeed7CorpusHasNoMismatch() {
        Run r = main(
                "conformance",
                "bfcl",
                "--corpus",
                bfclCorpus("verdicts-seed7.jsonl").toString());
        assertEquals(0, r.code(), r.out() + r.err());
        // the tool specs against the corpus's tools.jsonl first, then the verdicts' closing line
        assertEquals(
                "3491 tool specs checked against tools.jsonl, 0 mismatches\n58044 checked, 0 mismatches\n", r.out());
    }

    /** simple_java / simple_javascript (issue 26): the verdicts and the specs of tools.jsonl.gz beside them. */
    @Test
    void bfclJavaJsCorpusHasNoMismatchAndItsSpecsAreChecked() {
        Run r = main(
                "conformance",
                "bfcl",
                "--corpus",
                bfclCorpus("java-js/verdicts-seed7.jsonl.gz").toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals(
                "150 tool specs checked against tools.jsonl.gz, 0 mismatches\n2490 checked, 0 mismatches\n", r.out());
    }

    @Test
    void bfclTamperedVerdictsAreReportedAndFail(@TempDir Path tmp) throws Exception {
        List<String> lines =
                Files.readAllLines(bfclCorpus("verdicts-seed7.jsonl")).subList(0, 200);
        List<String> edited = new java.util.ArrayList<>(lines);
        int flipped = 0;
        for (int i = 0; i < edited.size() && flipped < 2; i++) {
            String l = edited.get(i);
            if (l.contains("\"error\": [\"Unexpected parameter: ")) {
                edited.set(
                        i, l.replace("\"error\": [\"Unexpected parameter: ", "\"error\": [\"Unexpected parameterX: "));
                flipped++;
            } else if (flipped == 0 && l.contains("\"valid\": true, \"error_type\": null")) {
                edited.set(
                        i,
                        l.replace(
                                "\"valid\": true, \"error_type\": null, \"error\": null",
                                "\"valid\": false, \"error_type\": \"value_error:others\", \"error\": [\"x\"]"));
                flipped++;
            }
        }
        assertEquals(2, flipped);
        Path bad = tmp.resolve("bad.jsonl");
        Files.write(bad, edited);
        Run r = main("conformance", "bfcl", "--corpus", bad.toString());
        assertEquals(1, r.code());
        assertTrue(r.out().endsWith("\n200 checked, 2 mismatches\n"), r.out());
    }

    @Test
    void badArgumentsPrintUsageAndExit2() {
        assertEquals(2, main("conformance", "bfcl").code());
        assertEquals(2, main("conformance", "bfcl", "--corpus", "/no/such/file").code());
        assertEquals(2, main("conformance").code());
        assertEquals(2, main("conformance", "tau3").code());
        assertEquals(2, main("conformance", "tau2", "--domain", "retail").code());
        assertEquals(
                2,
                main(
                                "conformance",
                                "tau2",
                                "--domain",
                                "nowhere",
                                "--corpus",
                                corpus("gold.jsonl").toString())
                        .code());
        Run r = main("conformance", "tau2", "--domain", "retail", "--corpus", "/no/such/file");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("usage: ./brokkr conformance"), r.err());
    }
}
