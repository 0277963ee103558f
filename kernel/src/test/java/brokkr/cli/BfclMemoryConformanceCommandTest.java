package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./brokkr conformance bfcl-memory --corpus FILE}: the closing line, the first difference, the exit code. */
class BfclMemoryConformanceCommandTest {
    private static Path corpus() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path p = d.resolve("shared/conformance/bfcl/memory/exec-seed11.jsonl.gz");
            if (Files.isRegularFile(p)) return p;
        }
        throw new IllegalStateException("no shared/conformance/bfcl/memory above the working directory");
    }

    private static List<String> records(int n) throws Exception {
        List<String> out = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(corpus())), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null && out.size() < n; line = in.readLine()) out.add(line);
        }
        return out;
    }

    @Test
    void recordsReplayWithNoMismatch(@TempDir Path tmp) throws Exception {
        Path p = tmp.resolve("m.jsonl");
        Files.write(p, records(3));
        ConformanceCommandTest.Run r =
                ConformanceCommandTest.main("conformance", "bfcl-memory", "--corpus", p.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().matches("3 records, \\d+ calls, 0 mismatches\n"), r.out());
    }

    @Test
    void aTamperedStateHashIsTheFirstDifferenceAndFails(@TempDir Path tmp) throws Exception {
        List<String> lines = records(2);
        lines.set(
                1, lines.get(1).replaceFirst("\"state_sha\": \"[0-9a-f]{16}\"", "\"state_sha\": \"0000000000000000\""));
        Path p = tmp.resolve("m.jsonl");
        Files.write(p, lines);
        ConformanceCommandTest.Run r =
                ConformanceCommandTest.main("conformance", "bfcl-memory", "--corpus", p.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith("m.jsonl:2 "), r.out());
        assertTrue(r.out().contains("expected 0000000000000000"), r.out());
        assertTrue(
                r.out()
                        .endsWith("2 records, " + r.out().replaceAll("(?s).*2 records, (\\d+) calls.*", "$1")
                                + " calls, 1 mismatches\n"),
                r.out());
    }
}
