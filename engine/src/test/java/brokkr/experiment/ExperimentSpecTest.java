package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Experiment files are read strictly: what is written is what runs, or a clear error says why not. */
class ExperimentSpecTest {
    @TempDir
    Path tmp;

    private static final String BASE = "domain: quiz\nsplit: all\ncandidates: [{id: g, provider: fake, model: gold}]\n";

    private String rejected(String file, String text) throws Exception {
        Path f = tmp.resolve(file);
        Files.writeString(f, text);
        return assertThrows(ExperimentSpec.SpecException.class, () -> ExperimentSpec.read(f))
                .getMessage();
    }

    private ExperimentSpec read(String file, String text) throws Exception {
        Path f = tmp.resolve(file);
        Files.writeString(f, text);
        return ExperimentSpec.read(f);
    }

    /** The base spec as data, with one more key. */
    private static PyDict spec(String key, Value value) {
        return PyDict.builder()
                .put("domain", "quiz")
                .put("split", "all")
                .put("candidates", PyList.of(PyDict.of("id", "g", "provider", "fake", "model", "gold")))
                .put(key, value)
                .build();
    }

    private static void assertMentions(String message, String... parts) {
        for (String p : parts) assertTrue(message.contains(p), "'" + p + "' missing from: " + message);
    }

    @Test
    void duplicateKeysAreRejectedInYamlAndJson() throws Exception {
        assertMentions(rejected("dup.yaml", BASE + "repetitions: 2\nrepetitions: 3\n"), "duplicate", "repetitions");
        assertMentions(
                rejected(
                        "dup-nested.yaml",
                        "domain: quiz\nsplit: all\n"
                                + "candidates: [{id: g, provider: fake, model: gold, model: silver}]\n"),
                "duplicate",
                "model");
        assertMentions(rejected("dup.json", """
                {"domain": "quiz", "split": "all", "split": "test", "candidates": [{"id": "g", "provider": "fake", "model": "gold"}]}
                """), "duplicate", "split");
    }

    @Test
    void textFromElsewhereIsParsedAsStrictly() {
        var e = assertThrows(
                ExperimentSpec.SpecException.class,
                () -> ExperimentSpec.parse(BASE + "repetitions: 2\nrepetitions: 3\n", true, "cell", "notebook", tmp));
        assertMentions(e.getMessage(), "cell:5:", "duplicate key 'repetitions'");
        assertMentions(
                assertThrows(
                                ExperimentSpec.SpecException.class,
                                () -> ExperimentSpec.parse(BASE + "---\nx: 1\n", true, "cell", "notebook", tmp))
                        .getMessage(),
                "cell:",
                "trailing");
        assertEquals(
                "notebook",
                ExperimentSpec.parse(BASE, true, "cell", "notebook", tmp).name());
    }

    @Test
    void trailingContentAfterTheSpecIsRejected() throws Exception {
        String json =
                "{\"domain\": \"quiz\", \"split\": \"all\", \"candidates\": [{\"id\": \"g\", \"provider\": \"fake\", \"model\": \"gold\"}]}";
        assertMentions(rejected("garbage.json", json + " trailing garbage\n"), "garbage.json", "trailing");
        assertMentions(rejected("two.json", json + "\n{}\n"), "trailing");
        assertMentions(rejected("two.yaml", BASE + "---\nrepetitions: 3\n"), "trailing");
        assertEquals(1, read("ok.json", json + "\n\n").repetitions(), "trailing whitespace is fine");
    }

    @Test
    void countsMustBeWholeNumbersInRange() throws Exception {
        assertMentions(rejected("a.yaml", BASE + "repetitions: 2.9\n"), "'repetitions'", "whole number", "2.9");
        assertMentions(rejected("b.yaml", BASE + "repetitions: 1e12\n"), "'repetitions'", "at most");
        assertMentions(rejected("c.yaml", BASE + "repetitions: 99999999999999999999999\n"), "'repetitions'", "at most");
        assertMentions(rejected("d.yaml", BASE + "repetitions: 0\n"), "'repetitions'", "at least 1");
        assertMentions(rejected("e.yaml", BASE + "parallelism: 1.5\n"), "'parallelism'", "whole number");
        assertMentions(rejected("f.yaml", BASE + "max_infra_retries: -1\n"), "'max_infra_retries'", "at least 0");
        // Jackson's YAML reader refuses .inf itself, naming the file, line and value.
        assertMentions(rejected("g.yaml", BASE + "max_infra_retries: .inf\n"), "g.yaml:4", ".inf");
        assertMentions(
                assertThrows(
                                ExperimentSpec.SpecException.class,
                                () -> ExperimentSpec.fromValue(
                                        spec("max_infra_retries", new PyFloat(Double.POSITIVE_INFINITY)), "x", null))
                        .getMessage(),
                "'max_infra_retries'",
                "whole number");
        assertMentions(
                rejected("h.yaml", BASE + "providers: {fake: {concurrency: 2.5}}\n"),
                "'providers.fake.concurrency'",
                "whole number");
        assertMentions(rejected("i.yaml", BASE + "repetitions: \"3\"\n"), "'repetitions'", "number");
        assertEquals(4, read("ok.yaml", BASE + "repetitions: 4.0\n").repetitions(), "an integral float is a count");
    }

    @Test
    void durationsAndRatesMustBeFiniteAndInRange() throws Exception {
        assertMentions(rejected("a.yaml", BASE + "cell_timeout_seconds: 1e12\n"), "'cell_timeout_seconds'", "at most");
        assertMentions(rejected("b.yaml", BASE + "cell_timeout_seconds: .nan\n"), "b.yaml:4", ".nan");
        assertMentions(
                assertThrows(
                                ExperimentSpec.SpecException.class,
                                () -> ExperimentSpec.fromValue(
                                        spec("cell_timeout_seconds", new PyFloat(Double.NaN)), "x", null))
                        .getMessage(),
                "'cell_timeout_seconds'",
                "finite");
        assertMentions(
                rejected("c.yaml", BASE + "cell_timeout_seconds: 0\n"), "'cell_timeout_seconds'", "greater than 0");
        assertMentions(rejected("d.yaml", BASE + "cell_timeout_seconds: 0.0001\n"), "'cell_timeout_seconds'");
        assertMentions(
                rejected("e.yaml", BASE + "providers: {fake: {rate_per_second: -1}}\n"),
                "'providers.fake.rate_per_second'",
                "at least 0");
        assertMentions(
                assertThrows(
                                ExperimentSpec.SpecException.class,
                                () -> ExperimentSpec.fromValue(
                                        spec(
                                                "providers",
                                                PyDict.of(
                                                        "fake",
                                                        PyDict.of(
                                                                "rate_per_second",
                                                                new PyFloat(Double.POSITIVE_INFINITY)))),
                                        "x",
                                        null))
                        .getMessage(),
                "'providers.fake.rate_per_second'",
                "finite");
        assertEquals(
                Duration.ofMillis(2500),
                read("ok.yaml", BASE + "cell_timeout_seconds: 2.5\n").cellTimeout());
    }

    @Test
    void aNameMustBeOneSafeDirectoryName() throws Exception {
        for (String name : new String[] {"../escape", "..", "a/b", "a\\\\b", "/abs", "x/../../y", "tab\\there", ""}) {
            String msg = rejected("n.yaml", "name: \"" + name + "\"\n" + BASE);
            assertMentions(msg, "name");
        }
        assertMentions(rejected("n.yaml", "name: \"../../etc\"\n" + BASE), "'../../etc'");
        assertEquals(
                "retail gold-vs-stop_2.1",
                read("ok.yaml", "name: retail gold-vs-stop_2.1\n" + BASE).name());
        assertEquals("stem", read("stem.yaml", BASE).name(), "the default name is the file's stem");
        assertMentions(rejected("..yaml", BASE), "name");
    }
}
