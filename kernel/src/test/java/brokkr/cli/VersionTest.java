package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class VersionTest {
    @Test
    void versionNamesTheBuildTheUpstreamCommitsAndTheJava() {
        for (String flag : List.of("--version", "version")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            int code = Main.run(
                    List.of(flag),
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            String line = out.toString(StandardCharsets.UTF_8).strip();
            assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
            // The version comes from the build (a filtered resource), never the literal placeholder.
            // The revisions are the families' (brokkr.family.BenchmarkFamily): this class path's test family
            // (brokkr.example.ExampleFamily) comes first, then tau2-bench's and gorilla's from domains/.
            assertTrue(
                    line.matches(
                            "brokkr \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(example-upstream 0123456, tau2-bench a2c0247, gorilla 6ea5797; Java 25.*\\)"),
                    line);
        }
    }
}
