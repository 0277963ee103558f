package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Every record of the shared BFCL multi-turn execution corpora (all four categories, long-context tasks through
 * the transcribed {@link LongContextData}) replays with 0 mismatches, none skipped, as {@code ./brokkr conformance
 * bfcl-multi-turn} replays them.
 */
class MultiTurnConformanceTest {
    @Test
    void goldExecEveryRecord() {
        replay("gold-exec.jsonl.gz", 800);
    }

    @Test
    void fuzzSeed11EveryRecord() {
        replay("fuzz-seed11.jsonl.gz", 12_000);
    }

    private static void replay(String corpus, int records) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        MultiTurnConformance.Report r = MultiTurnConformance.run(
                MultiTurnData.load(), shared(corpus), new PrintStream(buf, true, StandardCharsets.UTF_8));
        String printed = buf.toString(StandardCharsets.UTF_8);
        System.out.println("[bfcl-multi-turn] " + corpus + ": " + r.summary());
        assertEquals(0, r.skipped(), printed);
        assertEquals(records, r.records(), printed);
        assertEquals(0, r.mismatches(), printed);
    }

    static Path shared(String file) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("shared/conformance/bfcl/multi_turn").resolve(file);
            if (Files.isRegularFile(s)) return s;
        }
        throw new IllegalStateException("no shared/conformance/bfcl/multi_turn/" + file + " above "
                + Path.of("").toAbsolutePath());
    }
}
