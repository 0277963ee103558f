package brokkr.cli;

import static brokkr.cli.ConformanceCommandTest.bfclCorpus;
import static brokkr.cli.ConformanceCommandTest.corpus;
import static brokkr.cli.ConformanceCommandTest.main;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.cli.ConformanceCommandTest.Run;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
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
    /** A corpus with its expected values deleted proves nothing: each missing expected field fails at its line. */
    @Test
    void aDeletedExpectedTau2FieldIsACorpusErrorNeverASkippedComparison() throws Exception {
        List<String> gold = Files.readAllLines(corpus("gold.jsonl")).subList(0, 3);
        List<String> noGrader = new ArrayList<>(gold);
        noGrader.set(1, noGrader.get(1).replaceFirst("\"grader_gold_db_hash\": \"[0-9a-f]*\", ", ""));
        Path f = write("no-grader.jsonl", noGrader);
        assertCorpusError(tau2(f), f + ":2:", "'grader_gold_db_hash' is missing");

        List<String> noCallHash = new ArrayList<>(gold);
        noCallHash.set(2, noCallHash.get(2).replaceFirst("\"db_hash\": \"[0-9a-f]*\", ", ""));
        Path h = write("no-call-hash.jsonl", noCallHash);
        assertCorpusError(tau2(h), h + ":3:", "'actions[0].db_hash' is missing");

        List<String> fuzz =
                new ArrayList<>(Files.readAllLines(corpus("fuzz-seed11.jsonl")).subList(0, 2));
        fuzz.set(1, fuzz.get(1).replaceFirst("\"user_db_hash\": (null|\"[0-9a-f]*\")", "\"user_db_hsh\": $1"));
        Path z = write("no-fuzz-hash.jsonl", fuzz);
        assertCorpusError(tau2(z), z + ":2:", "user_db_hash' is missing");

        Path telecomGold =
                corpus("gold.jsonl").getParent().resolveSibling("telecom").resolve("gold.jsonl");
        List<String> telecom = new ArrayList<>(Files.readAllLines(telecomGold).subList(0, 2));
        PyDict rec = Json.parse(telecom.get(1)).asDict();
        telecom.set(
                1,
                PyJson.dumps(rec.without("env_assertions")
                        .without("db_hash_after_env_assertions")
                        .without("user_db_hash_after_env_assertions")));
        Path t = write("no-assertions.jsonl", telecom);
        assertCorpusError(
                main("conformance", "tau2", "--domain", "telecom", "--corpus", t.toString()),
                t + ":2:",
                "'env_assertions' is missing");
    }

    @Test
    void aDeletedExpectedBfclFieldIsACorpusErrorNeverASkippedComparison() throws Exception {
        List<String> lines = new ArrayList<>(
                Files.readAllLines(bfclCorpus("verdicts-seed7.jsonl")).subList(0, 200));
        int valid = -1;
        for (int i = 0; i < lines.size() && valid < 0; i++)
            if (Json.parse(lines.get(i)).asDict().containsKey("checker_return")) valid = i;
        lines.set(valid, PyJson.dumps(Json.parse(lines.get(valid)).asDict().without("checker_return")));
        Path f = write("no-checker-return.jsonl", lines);
        assertCorpusError(bfcl(f), f + ":" + (valid + 1) + ":", "'checker_return' is missing");

        List<String> verdicts =
                new ArrayList<>(Tau2EvaluateCommandTest.lines(bfclCorpus("multi_turn/verdicts-seed7.jsonl.gz"))
                        .subList(0, 3));
        verdicts.set(1, PyJson.dumps(Json.parse(verdicts.get(1)).asDict().without("error_details")));
        Path v = write("mt-verdicts.jsonl", verdicts);
        assertCorpusError(
                main("conformance", "bfcl-multi-turn", "--corpus", v.toString()),
                v + ":2:",
                "'error_details' is missing");

        List<String> exec = new ArrayList<>(Tau2EvaluateCommandTest.lines(bfclCorpus("multi_turn/gold-exec.jsonl.gz"))
                .subList(0, 2));
        PyDict rec = Json.parse(exec.get(1)).asDict();
        PyDict sha = rec.get("initial_state_sha").asDict();
        exec.set(
                1,
                PyJson.dumps(rec.with(
                        "initial_state_sha", sha.without(sha.keys().iterator().next()))));
        Path e = write("mt-exec.jsonl", exec);
        assertCorpusError(main("conformance", "bfcl-multi-turn", "--corpus", e.toString()), e + ":2:", "is missing");
    }
}
