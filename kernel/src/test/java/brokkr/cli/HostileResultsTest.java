package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream results files that must be refused by {@code experiment import} and {@code tau2 evaluate} (a reward
 * outside [0, 1], NaN, a string reward, trials out of range, no simulations, a candidate name no spec could
 * have), and candidates whose ids differ only where a file name cannot show it, exported to distinct files.
 */
class HostileResultsTest {
    @TempDir
    Path tmp;

    private static final Path MIXED = Tau2EvaluateCommandTest.shared("results/airline/results-mixed.json");

    /** results-mixed.json with its third simulation changed by {@code change}. */
    private Path withThirdSimulation(String name, UnaryOperator<PyDict> change) throws Exception {
        PyDict results = Json.read(MIXED).asDict();
        PyList sims = results.get("simulations").asList();
        return write(
                name,
                results.with(
                        "simulations", sims.with(2, change.apply(sims.get(2).asDict()))));
    }

    private Path write(String name, PyDict results) throws Exception {
        Path f = tmp.resolve(name);
        Files.writeString(f, PyJson.dumps(results));
        return f;
    }

    private static PyDict reward(PyDict sim, Value reward) {
        return sim.with("reward_info", sim.get("reward_info").asDict().with("reward", reward));
    }

    /** Both commands refuse the file with exit 2, the message naming the simulation and the field, and store nothing. */
    private void assertRefused(Path file, String... parts) {
        Path dir = tmp.resolve("store-" + file.getFileName());
        var imp = ConformanceCommandTest.main("experiment", "import", file.toString(), "--dir", dir.toString());
        var eval = ConformanceCommandTest.main("tau2", "evaluate", file.toString());
        for (var r : List.of(imp, eval)) {
            assertEquals(2, r.code(), r.out() + r.err());
            assertFalse(r.err().contains("Exception"), r.err());
            assertFalse(r.out().contains("mismatches"), "no result for a file that cannot be read: " + r.out());
            for (String p : parts) assertTrue(r.err().contains(p), "'" + p + "' missing from: " + r.err());
        }
        assertFalse(Files.exists(dir.resolve("experiment.db")), "nothing stored");
    }

    @Test
    void rewardsOutsideZeroToOneNanAndStringsAreRefused() throws Exception {
        assertRefused(withThirdSimulation("big.json", s -> reward(s, Value.of(7.5))), "#2", "reward", "7.5");
        assertRefused(withThirdSimulation("neg.json", s -> reward(s, Value.of(-0.5))), "#2", "reward");
        assertRefused(withThirdSimulation("nan.json", s -> reward(s, Value.of(Double.NaN))), "#2", "reward", "NaN");
        assertRefused(withThirdSimulation("str.json", s -> reward(s, new PyStr("1.0"))), "#2", "reward", "string");
    }

    @Test
    void trialsOutOfRangeAreRefused() throws Exception {
        assertRefused(withThirdSimulation("minus.json", s -> s.with("trial", Value.of(-1))), "#2", "trial", "-1");
        assertRefused(
                withThirdSimulation("huge.json", s -> s.with("trial", Value.of(1_000_000_000_000L))),
                "#2",
                "trial",
                "1000000000000");
        assertRefused(withThirdSimulation("text.json", s -> s.with("trial", new PyStr("0"))), "#2", "trial");
    }

    @Test
    void aResultsFileWithoutSimulationsIsAnErrorNotZeroMismatches() throws Exception {
        PyDict results = Json.read(MIXED).asDict();
        assertRefused(write("empty.json", results.with("simulations", PyList.of())), "simulations", "empty");
    }

    @Test
    void anImportedCandidateNameIsValidatedLikeASpecId() throws Exception {
        PyDict results = Json.read(MIXED).asDict();
        PyDict info = results.get("info").asDict();
        PyDict agent = info.get("agent_info").asDict();
        Path file = write(
                "bidi.json",
                results.with("info", info.with("agent_info", agent.with("llm", new PyStr("gpt\u202e-4\nx")))));
        Path dir = tmp.resolve("bidi-store");
        var imp = ConformanceCommandTest.main("experiment", "import", file.toString(), "--dir", dir.toString());
        assertEquals(2, imp.code(), imp.out() + imp.err());
        assertTrue(imp.err().contains("candidate"), imp.err());
        assertTrue(imp.err().contains("U+"), imp.err());
        assertFalse(Files.exists(dir.resolve("experiment.db")));
    }

    @Test
    void candidatesWhoseIdsShareAFileNameExportToDistinctFiles() throws Exception {
        Path spec = tmp.resolve("x.yaml");
        Files.writeString(spec, """
                name: clash
                domain: tau2-retail
                tasks: ["0", "1"]
                candidates:
                  - {id: "gold/a", provider: scripted, model: gold}
                  - {id: "gold a", provider: scripted, model: stop}
                """);
        Path dir = tmp.resolve("run");
        var run = ConformanceCommandTest.main(
                "experiment", "run", spec.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(0, run.code(), run.out() + run.err());
        Path out = tmp.resolve("exported");
        Files.createDirectories(out);
        var exp = ConformanceCommandTest.main(
                "experiment", "export", dir.toString(), "--format", "tau2", "--out", out.toString());
        assertEquals(0, exp.code(), exp.out() + exp.err());
        List<Path> files;
        try (Stream<Path> s = Files.list(out)) {
            files = s.sorted().toList();
        }
        assertEquals(2, files.size(), "one file per candidate: " + files);
        List<String> agents = new ArrayList<>();
        for (Path f : files) {
            PyDict results = Json.read(f).asDict();
            assertEquals(2, results.get("simulations").asList().size(), f.toString());
            agents.add(PyJson.dumps(results.get("info").asDict().get("agent_info")));
        }
        assertNotEquals(agents.get(0), agents.get(1), "each file holds its own candidate's results");
    }
}
