package brokkr.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** bench sandbox's report: every measured line is there, with and without the AOT cache when there is one (never timings). */
class SandboxBenchTest {
    @Test
    void reportsEpisodeCostsSideBySideAndEvaluations() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertEquals(
                0,
                SandboxBench.run(
                        List.of("--runs", "1", "--warmup", "0"), new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        String out = bytes.toString(StandardCharsets.UTF_8);
        boolean aot = !out.contains("AOT cache: none");
        for (String label :
                aot ? List.of("-- with AOT cache", "-- without AOT cache") : List.of("-- without AOT cache")) {
            int at = out.indexOf(label);
            assertTrue(at >= 0, out);
            String section = out.substring(at);
            for (String line : List.of(
                    "episode: wall",
                    "episode: CPU, harness + sandbox",
                    "episode: CPU, sandbox JVM only",
                    "cold start (launch to ready)")) {
                assertTrue(section.contains(line + " "), line + " in " + out);
            }
        }
        for (String line : List.of(
                "warm acquire from the pool",
                "evaluation: 1 + 1",
                "evaluation: declare a method",
                "evaluation: 10 tool calls")) {
            assertTrue(out.contains(line), line + " in " + out);
        }
    }

    @Test
    void badArgumentsAreRefused() {
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThrows(IllegalArgumentException.class, () -> SandboxBench.run(List.of("--fast"), out));
        assertThrows(IllegalArgumentException.class, () -> SandboxBench.run(List.of("--runs", "0"), out));
    }
}
