package brokkr.bench;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./brokkr bench} through the CLI's own entry point: the command comes from this module's
 * {@link BenchCommands} service (the kernel names no benchmark), with the CLI's usage and input errors.
 */
class BenchCommandTest {
    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {}

    static Run main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void benchIsListedAndExplainsItself() {
        assertTrue(main("--help").out().lines().anyMatch(l -> l.startsWith("  bench ")), "listed in --help");
        Run help = main("bench", "--help");
        assertEquals(0, help.code());
        assertTrue(help.out().startsWith("usage: ./brokkr bench world"), help.out());
    }

    @Test
    void benchArgumentsAreUsageErrors() {
        // bench world's arguments (a flag without its value was an array index error).
        Run world = main("bench", "world", "--db");
        assertEquals(2, world.code(), world.err());
        assertTrue(world.err().startsWith("brokkr bench: --db needs a value"), world.err());
        Run multiTurn = main("bench", "multi-turn", "--tasks", "multi_turn_base_9999");
        assertEquals(2, multiTurn.code(), multiTurn.err());
        assertTrue(
                multiTurn.err().startsWith("brokkr bench: unknown BFCL multi-turn task 'multi_turn_base_9999'"),
                multiTurn.err());
    }

    /** As conformance: a corpus that cannot be replayed names the file and line, exit 2, and no table was started. */
    @Test
    void benchReplayOfABadCorpusIsAnInputError() throws IOException {
        Path corpus = Files.writeString(tmp.resolve("bad.jsonl"), "garbage\n");
        Run r = main(
                "bench",
                "replay",
                "--domain",
                "retail",
                "--corpus",
                corpus.toString(),
                "--repeat",
                "1",
                "--threads",
                "1");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("brokkr bench: " + corpus + ":1: not JSON"), r.err());
        assertFalse(r.err().contains("usage:"), r.err());
        assertEquals("", r.out());
    }
}
