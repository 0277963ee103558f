package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.command.CommandContext;
import brokkr.domains.bfcl.cli.BfclCommand;
import brokkr.experiment.Registry;
import brokkr.provider.testing.ScriptedModelServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BfclCommandTest {
    static ConformanceCommandTest.Run main(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(
                List.of(argv),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new ConformanceCommandTest.Run(
                code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void goldSamplePassesEveryTaskPerCategory() {
        ConformanceCommandTest.Run r = main("bfcl", "run", "--agent", "gold", "--sample", "5", "--seed", "7");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("agent gold, 65 tasks (sample 5 per category, seed 7)\n"), r.out());
        assertTrue(r.out().contains("\nsimple_python                 5      5    1.0000      0      0\n"), r.out());
        // the seed-7 sample holds one of the two unsatisfiable simple_java tasks
        assertTrue(r.out().contains("\nsimple_java                   5      4    0.8000      1      0\n"), r.out());
        assertTrue(r.out().contains("\ntotal                        65     64\n"), r.out());
        assertTrue(r.out().contains("live overall (weighted): 1.0000\n"), r.out());
        // the same seed gives the same slice
        assertEquals(
                r.out(),
                main("bfcl", "run", "--agent", "gold", "--sample", "5", "--seed", "7")
                        .out());
    }

    @Test
    void fullGoldRunOfOneCategoryShowsItsUnsatisfiableTasks() {
        ConformanceCommandTest.Run r = main("bfcl", "run", "--agent", "gold", "--categories", "live_simple");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("\nlive_simple                 258    256    0.9922      2      0\n"), r.out());
        assertTrue(r.out().contains("live overall (weighted): N/A\n"), r.out());
    }

    @Test
    void goldThroughTheExperimentCommand(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("bfcl.yaml");
        Files.writeString(file, """
                name: bfcl-gold
                domain: bfcl
                tasks: [simple_python_1, parallel_0, irrelevance_0, live_relevance_0-0-0, live_simple_106-63-0]
                candidates:
                  - {id: gold, provider: scripted, model: gold, action_space: tools}
                  - {id: gold-ref, provider: scripted, model: gold, action_space: reference, options: {parallel_tool_calls: true}}
                """);
        ConformanceCommandTest.Run r = main(
                "experiment",
                "run",
                file.toString(),
                "--dir",
                tmp.resolve("run").toString(),
                "--no-progress");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("10 cells: 0 already done, 10 run (10 completed"), r.err());
        // four of five pass: live_simple_106-63-0 is unsatisfiable
        assertTrue(r.out().matches("(?s).*bfcl\\s+gold\\s+5\\s+1\\s+5\\s+0\\s+0\\.800\\s+0\\.200\\s.*"), r.out());
        assertTrue(r.out().matches("(?s).*bfcl\\s+gold-ref\\s+5\\s+1\\s+5\\s+0\\s+0\\.800\\s+0\\.200\\s.*"), r.out());
    }

    /** bfcl run's slice and candidate as an experiment file: the split names the same 55 tasks, all passing. */
    @Test
    void theSampleAsAnExperimentSplit(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("sample.yaml");
        Files.writeString(file, """
                name: bfcl-sample
                domain: bfcl
                split: "all:sample=5:seed=7"
                candidates:
                  - {id: gold, provider: scripted, model: gold, action_space: reference}
                """);
        ConformanceCommandTest.Run r = main(
                "experiment",
                "run",
                file.toString(),
                "--dir",
                tmp.resolve("run").toString(),
                "--no-progress");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("65 cells: 0 already done, 65 run (65 completed"), r.err());
        assertTrue(
                // 64 of 65: the seed-7 sample holds one unsatisfiable simple_java task (36 or 65)
                r.out()
                        .matches(
                                "(?s).*bfcl\\s+gold\\s+65\\s+1\\s+65\\s+0\\s+0\\.985\\s+0\\.0154\\s+0\\.954\\s+1\\.00\\s.*"),
                r.out());
        assertTrue(main("bfcl", "run", "--agent", "gold", "--sample", "5", "--seed", "7")
                .out()
                .contains("\ntotal                        65     64\n"));
    }

    @Test
    void badArguments() {
        assertEquals(2, main("bfcl").code());
        assertEquals(2, main("bfcl", "run").code());
        assertEquals(2, main("bfcl", "run", "--agent", "nobody").code());
        assertEquals(2, main("bfcl", "run", "--agent", "reference").code());
        assertEquals(2, main("bfcl", "run", "--agent", "gold", "--sample", "x").code());
        assertEquals(
                2,
                main("bfcl", "run", "--agent", "gold", "--categories", "java").code());
    }
    /** A run in which every call failed scored nothing: exit 1 saying what failed, single- and multi-turn alike. */
    @Test
    void aRunWhoseEveryCallFailedExitsNonZero() throws Exception {
        try (var server =
                ScriptedModelServer.start(req -> ScriptedModelServer.Reply.json(400, "{\"error\": \"no\"}"))) {
            var command = new BfclCommand(new CommandContext(Registry.process(), server.openAiEnv()));
            for (String category : List.of("simple_python", "multi_turn_base")) {
                var out = new ByteArrayOutputStream();
                var err = new ByteArrayOutputStream();
                int code = command.run(
                        List.of(
                                "run",
                                "--agent",
                                "reference",
                                "--provider",
                                "openai",
                                "--model",
                                "m",
                                "--sample",
                                "1",
                                "--categories",
                                category),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
                assertEquals(1, code, category + ": " + out + err);
                assertTrue(err.toString().contains("nothing was scored"), category + ": " + err);
            }
        }
    }

    /** {@code --out} writes single-turn answers; with multi-turn categories it is refused, never silently unwritten. */
    @Test
    void outWithMultiTurnCategoriesIsRefused(@TempDir Path tmp) {
        Path file = tmp.resolve("answers.jsonl");
        ConformanceCommandTest.Run r = main(
                "bfcl",
                "run",
                "--agent",
                "gold",
                "--sample",
                "1",
                "--categories",
                "multi_turn_base",
                "--out",
                file.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("--out"), r.err());
        assertFalse(Files.exists(file));
    }
}
