package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.ExperimentSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31 item 13: what the README and {@code help experiment} show works as shown. Before: the
 * {@code loop.yaml} example failed as pasted (a missing prompt file, a key not set), and the key list of
 * {@code help experiment} left out the harness keys.
 */
class ReadmeExamplesTest {
    @TempDir
    Path tmp;

    static final Path README = Path.of("..", "README.md");

    /** The lines of the README's fenced block that starts with {@code firstLine}. */
    static String block(String firstLine) throws Exception {
        List<String> lines = Files.readAllLines(README);
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String l : lines) {
            if (!in && l.equals(firstLine)) in = true;
            else if (in && l.startsWith("```")) break;
            if (in) out.add(l);
        }
        assertTrue(!out.isEmpty(), "no block " + firstLine + " in the README");
        return String.join("\n", out) + "\n";
    }

    @Test
    void theLoopYamlExampleRunsAsPasted() throws Exception {
        Path file = Files.writeString(tmp.resolve("loop.yaml"), block("# loop.yaml"));
        var r = ExitsAndOutputsTest.main(
                "experiment", "run", file.toString(), "--dir", tmp.resolve("d").toString(), "--no-progress");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("16 cells"), r.err()); // 2 candidates x smoke's 2 tasks x 4 repetitions
    }

    @Test
    void helpExperimentNamesEveryKeyAnExperimentFileTakes() {
        String help = ExitsAndOutputsTest.main("help", "experiment").out();
        String keys = help.substring(help.indexOf("experiment file keys:"));
        for (String k : ExperimentSpec.TOP) assertTrue(keys.contains(k), k + " in: " + keys);
        for (String k : ExperimentSpec.CANDIDATE_KEYS) assertTrue(keys.contains(k), k + " in: " + keys);
        for (String k : List.of("max_turn_steps", "output_limit", "eval_timeout_seconds", "heap_mb", "timeout_seconds"))
            assertTrue(keys.contains(k), k + " in: " + keys);
    }

    /** Before: ./test hard-coded /usr/lib/jvm/temurin-25-jdk-amd64; now it asks the launcher's search. */
    @Test
    void testFindsJavaAsTheLauncherDoes() throws Exception {
        ProcessBuilder b = new ProcessBuilder(Path.of("..", "brokkr").toString(), "--print-java-home");
        b.environment().put("JAVA_HOME", "/nonexistent");
        Process p = b.redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals(0, p.waitFor(), out);
        assertTrue(Files.isExecutable(Path.of(out, "bin", "java")), out);
        String test = Files.readString(Path.of("..", "test"));
        assertTrue(test.contains("brokkr\" --print-java-home"), "./test asks the launcher");
        assertTrue(!test.contains("export JAVA_HOME=/usr/lib/jvm"), "no hard-coded JDK");
    }
}
