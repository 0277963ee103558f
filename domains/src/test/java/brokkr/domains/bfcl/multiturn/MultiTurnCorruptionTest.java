package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.conformance.Corpus;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recorded field flipped in a copy of a shared corpus is reported as a mismatch at its record, whether the records
 * are checked on one thread or several (the report is the same text, in file order): a call result, a per-turn
 * state hash (with the recorded full state or state changes, which are only read for the message), the initial
 * state hash, and a verdict's {@code valid} and {@code error_message}. A line that is not JSON stops the check
 * with an error at that line after the mismatches before it.
 */
class MultiTurnCorruptionTest {
    @TempDir
    Path dir;

    private static final MultiTurnData DATA = MultiTurnData.load();

    @Test
    void flippedResultAndStateHashesAreReported() throws IOException {
        List<String> lines = head("fuzz-seed11.jsonl.gz", 60);
        lines.set(3, first(lines.get(3), "\"result\": \"", m -> "\"result\": \"flipped "));
        lines.set(17, flipHash(lines.get(17), "\"state_sha\": \\{\"\\w+\": \""));
        lines.set(41, flipHash(lines.get(41), "\"initial_state_sha\": \\{\"\\w+\": \""));
        Path corpus = write("fuzz-part.jsonl.gz", lines);
        String printed = checkBothWays(corpus, 3, false);
        List<String> reports =
                printed.lines().filter(l -> l.contains(".jsonl.gz:")).toList();
        assertEquals(3, reports.size(), printed);
        assertTrue(
                reports.get(0).startsWith("fuzz-part.jsonl.gz:4 ")
                        && reports.get(0).contains("got \""),
                printed);
        assertTrue(
                reports.get(1).startsWith("fuzz-part.jsonl.gz:18 ")
                        && reports.get(1).contains("state after turn")
                        && reports.get(1).contains("recorded changes"),
                printed);
        assertTrue(
                reports.get(2).startsWith("fuzz-part.jsonl.gz:42 ")
                        && reports.get(2).contains("initial state"),
                printed);
    }

    @Test
    void flippedStateHashOfAFullStateRecordIsReportedAgainstTheRecordedState() throws IOException {
        List<String> lines = head("gold-exec.jsonl.gz", 12);
        lines.set(5, flipHash(lines.get(5), "\"state_sha\": \\{\"\\w+\": \""));
        // the recorded full state of another record changed as well as its hash: the message names the attribute
        String changed = first(lines.get(9), "\"state\": \\{\"\\w+\": \\{\"", m -> m.group() + "flipped_");
        lines.set(9, flipHash(changed, "\"state_sha\": \\{\"\\w+\": \""));
        Path corpus = write("gold-part.jsonl.gz", lines);
        String printed = checkBothWays(corpus, 2, false);
        assertTrue(printed.contains("gold-part.jsonl.gz:6 ") && printed.contains("no attribute differs"), printed);
        assertTrue(printed.contains("gold-part.jsonl.gz:10 ") && printed.contains("attribute flipped_"), printed);
    }

    @Test
    void flippedVerdictFieldsAreReported() throws IOException {
        List<String> lines = head("verdicts-seed7.jsonl.gz", 40);
        int valid = indexOf(lines, "\"valid\": true", 0), invalid = indexOf(lines, "\"valid\": false", 0);
        lines.set(valid, lines.get(valid).replace("\"valid\": true", "\"valid\": false"));
        lines.set(invalid, first(lines.get(invalid), "\"error_message\": \"", m -> "\"error_message\": \"flipped "));
        Path corpus = write("verdicts-part.jsonl.gz", lines);
        String printed = checkBothWays(corpus, 2, true);
        assertTrue(
                printed.contains("verdicts-part.jsonl.gz:" + (valid + 1) + " ")
                        && printed.contains("valid: expected false, got true"),
                printed);
        assertTrue(
                printed.contains("verdicts-part.jsonl.gz:" + (invalid + 1) + " ")
                        && printed.contains("error_message: expected \"flipped "),
                printed);
    }

    @Test
    void aLineThatIsNotJsonIsAnErrorAtItsLineOnEveryThreadCount() throws IOException {
        List<String> lines = head("fuzz-seed11.jsonl.gz", 40);
        lines.set(30, lines.get(30).substring(0, 200));
        Path corpus = write("fuzz-broken.jsonl.gz", lines);
        for (int threads : new int[] {1, 2, 4}) {
            Corpus.CorpusException e = assertThrows(
                    Corpus.CorpusException.class,
                    () -> MultiTurnConformance.run(
                            DATA, corpus, new PrintStream(OutputStream.nullOutputStream()), threads));
            assertTrue(e.getMessage().contains("fuzz-broken.jsonl.gz:31: not JSON"), e.getMessage());
        }
    }

    /** The report on 1, 2 and 4 threads (the same text); {@code mismatches} records reported. */
    private static String checkBothWays(Path corpus, int mismatches, boolean verdicts) {
        String first = null;
        for (int threads : new int[] {1, 2, 4}) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
            MultiTurnConformance.Report r = verdicts
                    ? MultiTurnVerdicts.run(DATA, corpus, out, threads)
                    : MultiTurnConformance.run(DATA, corpus, out, threads);
            String printed = buf.toString(StandardCharsets.UTF_8);
            assertEquals(mismatches, r.mismatches(), threads + " threads: " + printed);
            if (first == null) first = printed;
            else assertEquals(first, printed, threads + " threads report differently");
        }
        return first;
    }

    private static String flipHash(String line, String before) {
        return first(line, before + "([0-9a-f])", m -> {
            String hex = m.group(1);
            return m.group().substring(0, m.group().length() - 1) + (hex.equals("0") ? "1" : "0");
        });
    }

    private static String first(String line, String regex, Function<Matcher, String> with) {
        Matcher m = Pattern.compile(regex).matcher(line);
        assertTrue(m.find(), "no " + regex + " in " + line.substring(0, Math.min(200, line.length())));
        return line.substring(0, m.start()) + with.apply(m) + line.substring(m.end());
    }

    private static int indexOf(List<String> lines, String text, int from) {
        for (int i = from; i < lines.size(); i++) if (lines.get(i).contains(text)) return i;
        throw new AssertionError("no line with " + text);
    }

    private static List<String> head(String file, int n) throws IOException {
        List<String> out = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(MultiTurnConformanceTest.shared(file))),
                StandardCharsets.UTF_8))) {
            for (String l = in.readLine(); l != null && out.size() < n; l = in.readLine()) out.add(l);
        }
        return out;
    }

    private Path write(String name, List<String> lines) throws IOException {
        Path p = dir.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            for (String l : lines) out.write((l + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }
}
