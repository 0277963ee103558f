package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.command.Command;
import brokkr.domains.bfcl.cli.BfclCommand;
import brokkr.experiment.Registry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class BfclMultiTurnRunTest {
    @Test
    void goldSampleOfAMultiTurnCategory() {
        ConformanceCommandTest.Run r = BfclCommandTest.main(
                "bfcl",
                "run",
                "--agent",
                "gold",
                "--categories",
                "multi_turn_miss_param",
                "--sample",
                "4",
                "--seed",
                "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("multi-turn: 4 tasks (sample 4 per category, seed 1)"), r.out());
        // Every graded task passes (tasks of a class without a backend on this build have no verdict and are not
        // counted).
        Matcher m = Pattern.compile("\nmulti_turn_miss_param +(\\d+) +(\\d+) +100\\.00%\n")
                .matcher(r.out());
        assertTrue(m.find(), r.out());
        assertEquals(m.group(1), m.group(2));
        assertTrue(
                r.out().contains("multi-turn overall (mean of the four categories): N/A (not all four were run)\n"),
                r.out());
        assertEquals(
                r.out(),
                BfclCommandTest.main(
                                "bfcl",
                                "run",
                                "--agent",
                                "gold",
                                "--categories",
                                "multi_turn_miss_param",
                                "--sample",
                                "4",
                                "--seed",
                                "1")
                        .out());
    }

    /** The ground truth through Brokkr's loop (batched JSON tools) and through the REPL (Java) prints the reference gold's table. */
    @Test
    void goldThroughTheLoopHarnessesPrintsTheReferenceGoldsTable() {
        List<String> common = List.of("--categories", "multi_turn_miss_func", "--sample", "2", "--seed", "3");
        String reference = run("gold", common).out();
        assertTrue(
                Pattern.compile("\nmulti_turn_miss_func +2 +2 +100\\.00%\n")
                        .matcher(reference)
                        .find(),
                reference);
        for (String agent : List.of("gold-loop", "gold-repl")) {
            ConformanceCommandTest.Run r = run(agent, common);
            assertEquals(0, r.code(), r.err());
            assertEquals(reference, r.out(), agent);
        }
    }

    @Test
    void theLoopAgentIsForMultiTurnCategoriesOnly() {
        ConformanceCommandTest.Run r = BfclCommandTest.main(
                "bfcl", "run", "--agent", "gold-loop", "--categories", "simple_python,multi_turn_base");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--agent gold-loop runs multi-turn and memory categories only"), r.err());
    }

    private static ConformanceCommandTest.Run run(String agent, List<String> rest) {
        List<String> args = new java.util.ArrayList<>(List.of("bfcl", "run", "--agent", agent));
        args.addAll(rest);
        return BfclCommandTest.main(args.toArray(String[]::new));
    }

    @Test
    void toolsAgentIsAUsageError() {
        BfclCommand cmd = new BfclCommand(Registry.process(), Map.of("OPENAI_API_KEY", "not-used"));
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        Command.UsageException e = assertThrows(
                Command.UsageException.class,
                () -> cmd.run(
                        List.of(
                                "run",
                                "--agent",
                                "tools",
                                "--provider",
                                "openai",
                                "--model",
                                "x",
                                "--categories",
                                "multi_turn_base"),
                        sink,
                        sink));
        assertTrue(e.getMessage().contains("multi-turn categories take --agent gold or reference"), e.getMessage());
    }
}
