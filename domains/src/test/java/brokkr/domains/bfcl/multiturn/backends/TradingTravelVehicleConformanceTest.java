package brokkr.domains.bfcl.multiturn.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.bfcl.multiturn.MultiTurnConformance;
import brokkr.domains.bfcl.multiturn.MultiTurnData;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared BFCL multi-turn execution corpora, restricted to the tasks that involve only TradingBot,
 * TravelAPI and VehicleControlAPI, replay with 0 mismatches (every call result and every per-turn state).
 * otherwise they are left out and the count says so.
 */
class TradingTravelVehicleConformanceTest {
    private static final Set<String> CLASSES = Set.of("TradingBot", "TravelAPI", "VehicleControlAPI");
    private static final Pattern TASK_ID = Pattern.compile("\"task_id\":\\s*\"([^\"]+)\"");

    @TempDir
    Path tmp;

    @Test
    void goldExec() throws IOException {
        replay("gold-exec.jsonl.gz", 140);
    }

    @Test
    void fuzzSeed11() throws IOException {
        replay("fuzz-seed11.jsonl.gz", 2300);
    }

    private void replay(String corpus, int atLeast) throws IOException {
        MultiTurnData data = MultiTurnData.load();
        Path filtered = tmp.resolve(corpus.replace(".gz", ""));
        int kept = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                        new GZIPInputStream(Files.newInputStream(shared(corpus))), StandardCharsets.UTF_8));
                Writer out = Files.newBufferedWriter(filtered)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                Matcher m = TASK_ID.matcher(line);
                if (!m.find()) throw new IllegalStateException("no task_id in " + corpus);
                MultiTurnData.Task task = data.task(m.group(1));
                if (!CLASSES.containsAll(task.involvedClasses())) continue;
                out.write(line);
                out.write('\n');
                kept++;
            }
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        MultiTurnConformance.Report r =
                MultiTurnConformance.run(data, filtered, new PrintStream(buf, true, StandardCharsets.UTF_8));
        String printed = buf.toString(StandardCharsets.UTF_8);
        System.out.println(
                "[bfcl-multi-turn] " + corpus + " (TradingBot/TravelAPI/VehicleControlAPI tasks" + "): " + r.summary());
        assertEquals(kept, r.records(), printed);
        assertEquals(0, r.skipped(), printed);
        assertEquals(0, r.mismatches(), printed);
        assertTrue(kept >= atLeast, corpus + ": only " + kept + " records");
    }

    private static Path shared(String file) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("shared").resolve("conformance/bfcl/multi_turn").resolve(file);
            if (Files.isRegularFile(s)) return s;
        }
        throw new IllegalStateException("no shared/conformance/bfcl/multi_turn/" + file + " above "
                + Path.of("").toAbsolutePath());
    }
}
