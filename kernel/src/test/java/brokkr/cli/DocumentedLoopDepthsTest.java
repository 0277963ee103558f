package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every depth RELIABILITY.md and README.md say {@code ./brokkr loop} runs is one the command accepts. */
class DocumentedLoopDepthsTest {
    /** {@code ./brokkr loop 10000} or "100,000 hops of `./brokkr loop`". */
    private static final Pattern CLAIM =
            Pattern.compile("\\./brokkr loop (\\d[\\d,]*)|(\\d[\\d,]*) hops of `\\./brokkr loop`");

    static Path doc(String name) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent())
            if (Files.isRegularFile(d.resolve(name)) && Files.isDirectory(d.resolve("kernel"))) return d.resolve(name);
        throw new IllegalStateException("no " + name + " above the working directory");
    }

    @Test
    void everyDocumentedLoopDepthIsAccepted() throws Exception {
        List<Integer> depths = new ArrayList<>();
        for (String name : List.of("RELIABILITY.md", "README.md")) {
            Matcher m = CLAIM.matcher(Files.readString(doc(name)));
            while (m.find())
                depths.add(Integer.parseInt((m.group(1) != null ? m.group(1) : m.group(2)).replace(",", "")));
        }
        assertFalse(depths.isEmpty(), "RELIABILITY.md gives ./brokkr loop a depth");
        for (int depth : depths.stream().distinct().toList()) {
            var r = ConformanceCommandTest.main("loop", Integer.toString(depth));
            assertEquals(0, r.code(), "./brokkr loop " + depth + ": " + r.err());
            assertTrue(r.out().startsWith("PASS depth=" + depth), r.out());
        }
    }
}
