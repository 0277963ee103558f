package brokkr.domains.tau2.conformance;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An imported results file is read within limits: JSON nested 100,000 deep and a gzip bomb are errors
 * naming the file (they were a StackOverflowError and an OutOfMemoryError), nothing more is read.
 */
class UpstreamRecordsLimitsTest {
    @TempDir
    Path tmp;

    static final String DEEP = "[".repeat(100_000) + "]".repeat(100_000);

    @Test
    void jsonNestedTooDeepIsAnErrorNamingTheFile() throws Exception {
        Path results = tmp.resolve("results.json");
        Files.writeString(
                results,
                "{\"info\": {\"environment_info\": {\"domain_name\": \"retail\"}},\n \"simulations\": [{\"task_id\": \"0\","
                        + " \"termination_reason\": \"user_stop\", \"messages\": " + DEEP + "}]}\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UpstreamRecords.read(results));
        assertTrue(e.getMessage().startsWith("results.json: JSON nested deeper than 1000 levels"), e.getMessage());

        Path corpus = tmp.resolve("graded.jsonl");
        Files.writeString(
                corpus,
                "{\"domain\": \"retail\", \"task_id\": \"0\", \"termination_reason\": \"user_stop\", \"messages\": []}\n{\"domain\": \"retail\", \"task_id\": \"0\", \"deep\": "
                        + DEEP + "}\n");
        e = assertThrows(IllegalArgumentException.class, () -> UpstreamRecords.read(corpus));
        assertTrue(e.getMessage().startsWith("graded.jsonl:2: JSON nested deeper than 1000 levels"), e.getMessage());
    }

    @Test
    void aGzipBombIsRefusedOnceItPassesTheLimit() throws Exception {
        Path bomb = tmp.resolve("bomb.json.gz");
        // One gzip member of 1 MiB of zeros, repeated: readers take concatenated members as one stream.
        ByteArrayOutputStream member = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(member)) {
            out.write(new byte[1 << 20]);
        }
        try (OutputStream out = Files.newOutputStream(bomb)) {
            for (int i = 0; i <= UpstreamRecords.MAX_TEXT_BYTES >> 20; i++) member.writeTo(out);
        }
        assertTrue(Files.size(bomb) < 4 << 20, "a small file: " + Files.size(bomb));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UpstreamRecords.read(bomb));
        assertTrue(
                e.getMessage().endsWith("bomb.json.gz: decompresses to more than 512 MiB, the most a results file may"),
                e.getMessage());
    }
}
