package brokkr.cli;

import static brokkr.cli.ConformanceCommandTest.bfclCorpus;
import static brokkr.cli.ConformanceCommandTest.corpus;
import static brokkr.cli.ConformanceCommandTest.main;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.cli.ConformanceCommandTest.Run;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A corpus that proves nothing is not a pass: an empty or unreadable corpus, a line that is not a JSON
 * object and a record of the wrong shape are errors (exit 2) naming the file, the line and the field.
 */
class ConformanceCorpusErrorsTest {
    @TempDir
    Path tmp;

    private Run tau2(Path file) {
        return main("conformance", "tau2", "--domain", "retail", "--corpus", file.toString());
    }

    private Run bfcl(Path file) {
        return main("conformance", "bfcl", "--corpus", file.toString());
    }

    private Path write(String name, List<String> lines) throws Exception {
        Path f = tmp.resolve(name);
        Files.write(f, lines, StandardCharsets.UTF_8);
        return f;
    }

    /** Exit 2, nothing that looks like a result, and an error containing every part. */
    private static void assertCorpusError(Run r, String... parts) {
        assertEquals(2, r.code(), r.out() + r.err());
        assertFalse(r.out().contains("mismatches"), "no result line for a corpus that cannot be read: " + r.out());
        assertFalse(r.err().contains("Cannot invoke"), r.err());
        assertFalse(r.err().contains("usage:"), "a bad corpus is not a usage error: " + r.err());
        for (String p : parts) assertTrue(r.err().contains(p), "'" + p + "' missing from: " + r.err());
    }

    @Test
    void emptyCorporaAreErrors() throws Exception {
        Path empty = write("empty.jsonl", List.of());
        assertCorpusError(tau2(empty), empty.toString(), "no records");
        assertCorpusError(bfcl(empty), empty.toString(), "no records");
        Path blank = write("blank.jsonl", List.of("", "   ", ""));
        assertCorpusError(tau2(blank), blank.toString(), "no records");
        assertCorpusError(bfcl(blank), blank.toString(), "no records");
    }

    @Test
    void unreadableCorporaAreErrors() throws Exception {
        Path latin1 = tmp.resolve("latin1.jsonl");
        List<String> gold = Files.readAllLines(corpus("gold.jsonl")).subList(0, 2);
        Files.write(
                latin1,
                (gold.get(0) + "\n" + gold.get(1).replace("\"task_id\"", "\"t\u00e4sk_id\"") + "\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
        assertCorpusError(tau2(latin1), latin1 + ":2:", "UTF-8");
        Path garbage = write("garbage.jsonl", List.of(gold.get(0), "{\"task_id\": \"0\", ", gold.get(1)));
        assertCorpusError(tau2(garbage), garbage + ":2:", "not JSON");
        Path array = write("array.jsonl", List.of("[1, 2]"));
        assertCorpusError(tau2(array), array + ":1:", "JSON object");
        assertCorpusError(bfcl(array), array + ":1:", "JSON object");
    }

    @Test
    void aWrongShapeTau2RecordNamesTheMissingField() throws Exception {
        List<String> gold =
                new ArrayList<>(Files.readAllLines(corpus("gold.jsonl")).subList(0, 3));
        gold.set(2, gold.get(2).replaceFirst("\"arguments\": ", "\"argumentz\": "));
        Path f = write("shape.jsonl", gold);
        assertCorpusError(tau2(f), f + ":3:", "'actions[0].arguments' is missing");

        Path notSeq = write("fields.jsonl", List.of("{\"kind\": \"wellformed\"}"));
        assertCorpusError(tau2(notSeq), notSeq + ":1:", "'calls'");
        Path wrongType =
                write("type.jsonl", List.of(gold.get(0).replace("\"actions\": [", "\"actions\": 7, \"was\": [")));
        assertCorpusError(tau2(wrongType), wrongType + ":1:", "'actions'", "list", "number");
    }

    @Test
    void anUnknownTau2TaskNamesTheLine() throws Exception {
        List<String> gold =
                new ArrayList<>(Files.readAllLines(corpus("gold.jsonl")).subList(0, 2));
        gold.set(1, gold.get(1).replaceFirst("\"task_id\": \"[^\"]*\"", "\"task_id\": \"no-such-task\""));
        Path f = write("task.jsonl", gold);
        assertCorpusError(tau2(f), f + ":2:", "no-such-task");
    }

    @Test
    void aWrongShapeBfclLineNamesTheMissingField() throws Exception {
        List<String> lines = new ArrayList<>(
                Files.readAllLines(bfclCorpus("verdicts-seed7.jsonl")).subList(0, 5));
        lines.set(3, lines.get(3).replace("\"valid\": ", "\"validity\": "));
        Path f = write("bfcl-shape.jsonl", lines);
        assertCorpusError(bfcl(f), f + ":4:", "'valid' is missing");

        lines = new ArrayList<>(
                Files.readAllLines(bfclCorpus("verdicts-seed7.jsonl")).subList(0, 5));
        lines.set(1, lines.get(1).replaceFirst("\"task_id\": \"[^\"]*\"", "\"task_id\": \"no_such_task_7\""));
        Path unknown = write("bfcl-task.jsonl", lines);
        assertCorpusError(bfcl(unknown), unknown + ":2:", "no_such_task_7");
    }
}
