package brokkr.cli;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.command.Command;
import brokkr.command.ModelSource;
import brokkr.conversation.InfrastructureFailure;
import brokkr.domains.synthetic.cli.LoopCommand;
import brokkr.domains.synthetic.cli.ParallelCommand;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.domains.synthetic.loop.PointerChain;
import brokkr.experiment.Registry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SyntheticCommandsTest {
    record Run(int code, String out, String err) {}

    static Run main(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(
                List.of(argv),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Run command(Command c, String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        try {
            int code = c.run(
                    List.of(argv),
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void demoRunsBothSyntheticBenchmarksOnEmbeddedDefaults() {
        assertEquals(
                new Run(
                        0,
                        "PASS depth=50 toolCalls=50/50\n"
                                + "pd tasks=8 calls=8 turns=1 maxConcurrency=8 efficiency=8.0 correct=yes\n",
                        ""),
                main("demo"));
        assertEquals(2, main("demo", "extra").code());
    }

    @Test
    void loopRunsTheIdealFollowerByDefault() {
        assertEquals(new Run(0, "PASS depth=50 toolCalls=50/50\n", ""), main("loop"));
        assertEquals(new Run(0, "PASS depth=10 toolCalls=10/10\n", ""), main("loop", "10"));
        assertEquals(new Run(0, "PASS depth=10 toolCalls=10/10\n", ""), main("loop", "--candidate", "ideal", "10"));
    }

    @Test
    void loopCandidatesPickScriptedFollowers() {
        String s = PointerChain.of(50).secret();
        assertEquals(
                new Run(0, "FAIL depth=50 toolCalls=25/50 expected=" + s + " actual=" + s.substring(0, 100) + "\n", ""),
                main("loop", "--candidate", "early-stop"));
        String s10 = PointerChain.of(10).secret();
        assertEquals(
                new Run(0, "FAIL depth=10 toolCalls=11/10 expected=" + s10 + " actual=" + s10 + "\n", ""),
                main("loop", "10", "--candidate=retry"));
    }

    @Test
    void parallelRunsTheBatcherByDefault() {
        assertEquals(
                new Run(0, "pd tasks=8 calls=8 turns=1 maxConcurrency=8 efficiency=8.0 correct=yes\n", ""),
                main("parallel"));
        assertEquals(
                new Run(0, "pd tasks=4 calls=4 turns=4 maxConcurrency=1 efficiency=1.0 correct=yes\n", ""),
                main("parallel", "4", "--candidate", "serial"));
        assertEquals(
                new Run(0, "pd tasks=16 calls=16 turns=1 maxConcurrency=16 efficiency=16.0 correct=yes\n", ""),
                main("parallel", "--candidate", "batch", "16"));
    }

    @Test
    void wrongArgumentsAreUsageErrors() {
        for (String[] argv : List.of(
                new String[] {"loop", "abc"},
                new String[] {"loop", "0"},
                new String[] {"loop", "-3"},
                new String[] {"loop", "--frob"},
                new String[] {"loop", "5", "6"},
                new String[] {"loop", "--candidate", "batch"},
                new String[] {"loop", "--candidate"},
                new String[] {"loop", "--provider", "openai"},
                new String[] {"loop", "--model", "m", "--candidate", "ideal"},
                new String[] {"loop", "2.5"},
                new String[] {"parallel", "x"},
                new String[] {"parallel", "0"},
                new String[] {"parallel", "--candidate", "retry"},
                new String[] {"parallel", "--model", "a", "--model", "b"},
                new String[] {"parallel", "-v"})) {
            Run r = main(argv);
            assertEquals(2, r.code(), String.join(" ", argv));
            assertEquals("", r.out(), String.join(" ", argv));
            assertTrue(r.err().startsWith("brokkr " + argv[0] + ": "), r.err());
            assertTrue(r.err().contains("usage: ./brokkr " + argv[0]), r.err());
        }
        assertEquals(
                "brokkr loop: depth must be an integer, got 'abc'",
                main("loop", "abc").err().lines().findFirst().orElseThrow());
        assertEquals(
                "brokkr loop: depth must be at least 1, got 0",
                main("loop", "0").err().lines().findFirst().orElseThrow());
        assertEquals(
                "brokkr loop: unknown option '--frob'",
                main("loop", "--frob").err().lines().findFirst().orElseThrow());
        assertEquals(
                "brokkr parallel: unknown candidate 'retry' (one of batch, serial)",
                main("parallel", "--candidate", "retry")
                        .err()
                        .lines()
                        .findFirst()
                        .orElseThrow());
    }

    @Test
    void helpListsAndDescribesTheCommands() {
        Run help = main("--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("  loop "), help.out());
        assertTrue(help.out().contains("  parallel "), help.out());
        assertTrue(main("help", "loop").out().startsWith("usage: ./brokkr loop [DEPTH]"));
        assertTrue(main("parallel", "--help").out().startsWith("usage: ./brokkr parallel [TASKS]"));
    }

    @Test
    void modelFlagsOpenTheModelSource() {
        List<String> opened = new ArrayList<>();
        ModelSource source = (provider, model) -> {
            opened.add(provider + "/" + model);
            return LoopFollower.earlyStop(1);
        };
        Run r = command(new LoopCommand(Registry.process(), source), "3", "--model", "gpt-x");
        String s = PointerChain.of(3).secret();
        assertEquals("FAIL depth=3 toolCalls=1/3 expected=" + s + " actual=" + s.substring(0, 4) + "\n", r.out());
        assertEquals("steps=2 modelCalls=0 inputTokens=0 outputTokens=0 stop=answered\n", r.err());
        command(new LoopCommand(Registry.process(), source), "--provider", "anthropic", "--model=claude-y");
        assertEquals(List.of("openai/gpt-x", "anthropic/claude-y"), opened);
    }

    @Test
    void anInfrastructureFailureIsReportedNotScored() {
        ModelSource down = (provider, model) -> (history, tools) -> {
            throw new InfrastructureFailure("5 attempts failed: connection refused", List.of(), null);
        };
        Run r = command(new ParallelCommand(Registry.process(), down), "--model", "m");
        assertEquals(1, r.code());
        assertEquals("", r.out());
        assertEquals(
                "brokkr parallel: infrastructure failure, run not scored: 5 attempts failed: connection refused (0 model call attempts)\n",
                r.err());
    }
}
