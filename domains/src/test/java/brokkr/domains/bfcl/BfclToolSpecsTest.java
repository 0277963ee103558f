package brokkr.domains.bfcl;

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
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance command's tool-spec check ({@link BfclToolSpecs}): the Java/JS corpus's tools.jsonl.gz is found
 * beside its verdicts and equals Brokkr's specs; the same file with one spec changed (a description, a parameter
 * type) is a mismatch naming the task.
 */
class BfclToolSpecsTest {
    private static final Path CORPUS = Shared.conformance("java-js/verdicts-seed7.jsonl.gz");

    private static List<String> lines() throws IOException {
        try (var in = new GZIPInputStream(Files.newInputStream(Shared.conformance("java-js/tools.jsonl.gz")))) {
            return new ArrayList<>(new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .toList());
        }
    }

    private static void write(Path f, List<String> lines) throws IOException {
        try (var out = new GZIPOutputStream(Files.newOutputStream(f))) {
            out.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void javaJsSpecsEqualTheCorpus() {
        Path tools = BfclToolSpecs.besides(CORPUS);
        assertEquals("tools.jsonl.gz", tools.getFileName().toString());
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        BfclToolSpecs.Report r = BfclToolSpecs.check(Shared.data(), tools, new PrintStream(b, true), 5);
        assertEquals(new BfclToolSpecs.Report(150, 0), r);
        assertEquals("150 tool specs checked against tools.jsonl.gz, 0 mismatches\n", b.toString());
    }

    @Test
    void aChangedSpecIsAMismatch(@TempDir Path dir) throws IOException {
        List<String> lines = lines();
        // one description of simple_java_3 changed, one parameter type of the first JS task's compiled spec
        int java = 3, js = 100;
        assertTrue(lines.get(java).contains("\"id\": \"simple_java_3\""));
        lines.set(java, lines.get(java).replaceFirst("\"description\": \"", "\"description\": \"X"));
        assertTrue(lines.get(js).contains("\"id\": \"simple_javascript_0\""));
        lines.set(js, lines.get(js).replaceFirst("\"type\": \"string\"", "\"type\": \"integer\""));
        Path tools = dir.resolve("tools.jsonl.gz");
        write(tools, lines);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        BfclToolSpecs.Report r = BfclToolSpecs.check(Shared.data(), tools, new PrintStream(b, true), 5);
        assertEquals(new BfclToolSpecs.Report(150, 2), r);
        String out = b.toString();
        assertTrue(out.contains("line 4 (simple_java_3): a different spec"), out);
        assertTrue(out.contains("line 101 (simple_javascript_0): a different spec"), out);
        assertTrue(out.endsWith("150 tool specs checked against tools.jsonl.gz, 2 mismatches\n"), out);
    }

    /** The same value written otherwise (key order kept, separators changed) is a mismatch too: the text is compared. */
    @Test
    void theSameValueWrittenOtherwiseIsAMismatch(@TempDir Path dir) throws IOException {
        List<String> lines = lines();
        lines.set(0, lines.get(0).replace("\", \"", "\",\""));
        Path tools = dir.resolve("tools.jsonl.gz");
        write(tools, lines);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        BfclToolSpecs.Report r = BfclToolSpecs.check(Shared.data(), tools, new PrintStream(b, true), 5);
        assertEquals(1, r.mismatches());
        assertTrue(b.toString().contains("the same value written differently"), b.toString());
    }
}
