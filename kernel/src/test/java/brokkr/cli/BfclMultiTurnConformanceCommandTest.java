package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./brokkr conformance bfcl-multi-turn --corpus FILE}: .jsonl and .jsonl.gz, the first difference, the exit code. */
class BfclMultiTurnConformanceCommandTest {
    private static Path goldExec() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path p = d.resolve("shared/conformance/bfcl/multi_turn/gold-exec.jsonl.gz");
            if (Files.isRegularFile(p)) return p;
        }
        throw new IllegalStateException("no shared/conformance/bfcl/multi_turn above the working directory");
    }

    /** The first n records that are not long-context (long_context.py need not be present). */
    private static List<String> firstRecords(int n) throws Exception {
        List<String> out = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(goldExec())), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null && out.size() < n; line = in.readLine()) {
                if (!line.contains("\"long_context\": true")) out.add(line);
            }
        }
        return out;
    }

    @Test
    void plainAndGzipCorporaReplayWithNoMismatch(@TempDir Path tmp) throws Exception {
        List<String> lines = firstRecords(12);
        Path plain = tmp.resolve("g.jsonl");
        Files.write(plain, lines);
        Path gz = tmp.resolve("g.jsonl.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        for (Path p : List.of(plain, gz)) {
            ConformanceCommandTest.Run r =
                    ConformanceCommandTest.main("conformance", "bfcl-multi-turn", "--corpus", p.toString());
            assertEquals(0, r.code(), r.out() + r.err());
            assertTrue(r.out().matches("12 records, \\d+ calls, 0 mismatches\n"), r.out());
        }
    }

    @Test
    void aTamperedResultIsTheFirstDifferenceAndFails(@TempDir Path tmp) throws Exception {
        List<String> lines = firstRecords(3);
        String first = lines.get(0);
        int at = first.indexOf("\"result\": \"") + "\"result\": \"".length();
        lines.set(0, first.substring(0, at) + "TAMPERED " + first.substring(at));
        Path bad = tmp.resolve("bad.jsonl");
        Files.write(bad, lines);
        ConformanceCommandTest.Run r =
                ConformanceCommandTest.main("conformance", "bfcl-multi-turn", "--corpus", bad.toString());
        assertEquals(1, r.code());
        assertTrue(
                r.out()
                        .matches(
                                "(?s)bad.jsonl:1 multi_turn_base_0: turn 0 call 0 .*TAMPERED.*\n3 records, \\d+ calls, 1 mismatches\n"),
                r.out());
    }

    @Test
    void badArgumentsAreUsageErrors(@TempDir Path tmp) throws Exception {
        assertEquals(
                2, ConformanceCommandTest.main("conformance", "bfcl-multi-turn").code());
        assertEquals(
                2,
                ConformanceCommandTest.main(
                                "conformance",
                                "bfcl-multi-turn",
                                "--corpus",
                                tmp.resolve("none.jsonl").toString())
                        .code());
        Path corrupt = tmp.resolve("c.jsonl.gz");
        Files.write(corrupt, new byte[] {0x1f, (byte) 0x8b, 8, 0, 0});
        ConformanceCommandTest.Run r =
                ConformanceCommandTest.main("conformance", "bfcl-multi-turn", "--corpus", corrupt.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("c.jsonl.gz: corrupt gzip data"), r.err());
    }
}
