package brokkr.domains.bfcl.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared memory-backend execution corpus replays with 0 mismatches over all 90 records and 3,668 calls, as
 * {@code ./brokkr conformance bfcl-memory} replays it; and the replay is not vacuous: one call result, one snapshot
 * text or one state hash changed in a copy of the corpus is a mismatch of exactly that record.
 */
class MemoryConformanceTest {
    @Test
    void seed11EveryRecord() {
        MemoryConformance.Report r = replay(shared("exec-seed11.jsonl.gz"));
        assertEquals(90, r.records());
        assertEquals(3668, r.calls());
        assertEquals(0, r.mismatches());
    }

    @Test
    void aPerturbedResultIsAMismatch(@TempDir Path tmp) throws IOException {
        // the first record's first call: archival_memory_add answers {"status": "Key added."}
        assertPerturbed(tmp, "Key added.", "Key  added.", "call 0");
    }

    @Test
    void aPerturbedSnapshotTextIsAMismatch(@TempDir Path tmp) throws IOException {
        assertPerturbed(
                tmp,
                "\"text\": \"{\\n    \\\"core_memory\\\"",
                "\"text\": \"{\\n   \\\"core_memory\\\"",
                "final snapshot");
    }

    @Test
    void aPerturbedStateHashIsAMismatch(@TempDir Path tmp) throws IOException {
        assertPerturbed(tmp, "\"state_sha\": \"a035a7be6afd1ad9\"", "\"state_sha\": \"a035a7be6afd1ad8\"", "state sha");
    }

    /** The corpus with the first occurrence of {@code from} in its first line replaced: one mismatch, naming {@code where}. */
    private static void assertPerturbed(Path tmp, String from, String to, String where) throws IOException {
        List<String> lines = new ArrayList<>();
        try (var in = new GZIPInputStream(Files.newInputStream(shared("exec-seed11.jsonl.gz")))) {
            new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().forEach(lines::add);
        }
        String first = lines.getFirst();
        assertTrue(first.contains(from), "the first record holds " + from);
        lines.set(
                0,
                first.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to)));
        Path copy = tmp.resolve("perturbed.jsonl");
        Files.write(copy, lines, StandardCharsets.UTF_8);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        MemoryConformance.Report r =
                MemoryConformance.run(MemoryData.load(), copy, new PrintStream(buf, true, StandardCharsets.UTF_8));
        String printed = buf.toString(StandardCharsets.UTF_8);
        assertEquals(1, r.mismatches(), printed);
        assertTrue(printed.lines().findFirst().orElse("").contains(where), printed);
        assertTrue(printed.strip().endsWith("90 records, " + r.calls() + " calls, 1 mismatches"), printed);
    }

    private static MemoryConformance.Report replay(Path corpus) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        MemoryConformance.Report r =
                MemoryConformance.run(MemoryData.load(), corpus, new PrintStream(buf, true, StandardCharsets.UTF_8));
        System.out.println("[bfcl-memory] " + corpus.getFileName() + ": " + r.summary());
        assertEquals(0, r.mismatches(), buf.toString(StandardCharsets.UTF_8));
        return r;
    }

    static Path shared(String file) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("shared/conformance/bfcl/memory").resolve(file);
            if (Files.isRegularFile(s)) return s;
        }
        throw new IllegalStateException("no shared/conformance/bfcl/memory/" + file + " above "
                + Path.of("").toAbsolutePath());
    }
}
