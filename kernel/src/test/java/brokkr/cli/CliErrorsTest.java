package brokkr.cli;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.command.ErrorMessages;
import brokkr.command.ModelSource;
import brokkr.domains.bfcl.cli.BfclCommand;
import brokkr.domains.synthetic.cli.LoopCommand;
import brokkr.domains.tau2.cli.Tau2Command;
import brokkr.experiment.Registry;
import brokkr.kernel.ConnectionFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10 item 18, surveyed over every command: messages say what is wrong (never a bare path, an
 * exception class or a null pointer), runtime errors do not print the usage text, a usage error prints
 * the synopsis only, and a provider that is unknown or not configured is an input error, exit 2.
 */
class CliErrorsTest {
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

    private Run kernel(String connectionFileText) throws IOException {
        Path f = tmp.resolve("kernel-" + System.nanoTime() + ".json");
        Files.writeString(f, connectionFileText);
        return main("kernel", "run", "--connection-file", f.toString());
    }

    private static final String GOOD = """
            {"transport": "tcp", "ip": "127.0.0.1", "shell_port": 5001, "iopub_port": 5002, "stdin_port": 5003,
             "control_port": 5004, "hb_port": 5005, "key": "k", "signature_scheme": "hmac-sha256"}""";

    /** Before: "brokkr kernel: /x/conn.json", "Is a directory", a gson trace, a null pointer, "Errno 43". */
    @Test
    void kernelRunSaysWhatIsWrongWithTheConnectionFile() throws IOException {
        Path missing = tmp.resolve("nowhere").resolve("conn.json");
        Run r = main("kernel", "run", "--connection-file", missing.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(
                "brokkr kernel: connection file " + missing + " does not exist",
                r.err().strip());
        r = main("kernel", "run", "--connection-file", tmp.toString());
        assertEquals(
                "brokkr kernel: connection file " + tmp + " is not a regular file",
                r.err().strip());
        Map<String, String> cases = Map.of(
                "",
                "is empty",
                "garbage",
                "is not JSON: ",
                "[1, 2]",
                "is not a JSON object",
                "{}",
                "transport must be a string (missing)",
                GOOD.replace("\"tcp\"", "\"udp\""),
                "transport must be tcp or ipc, not 'udp'",
                GOOD.replace("5003", "\"5003\""),
                "stdin_port must be a port number (1-65535), got \"5003\"",
                GOOD.replace(", \"hb_port\": 5005", ""),
                "hb_port must be a port number (1-65535), got nothing",
                GOOD.replace("\"key\": \"k\"", "\"key\": 7"),
                "key must be a string",
                GOOD.replace("hmac-sha256", "none"),
                "signature_scheme must be hmac-<digest>, not 'none'");
        for (var c : cases.entrySet()) {
            r = kernel(c.getKey());
            assertEquals(2, r.code(), c.getKey() + ": " + r.err());
            assertTrue(
                    r.err().startsWith("brokkr kernel: connection file ")
                            && r.err().contains(c.getValue()),
                    c.getKey() + ": " + r.err());
            assertFalse(
                    r.err().contains("usage:")
                            || r.err().contains("Exception")
                            || r.err().contains("is null"),
                    r.err());
        }
        assertSame(
                org.dflib.jjava.jupyter.kernel.KernelConnectionProperties.class,
                ConnectionFile.read(Files.writeString(tmp.resolve("good.json"), GOOD))
                        .getClass());
        assertEquals(5001, ConnectionFile.read(tmp.resolve("good.json")).getShellPort());
    }

    /** Before: exit 1 for loop, parallel and bfcl, and tau2's whole usage text after the message. */
    @Test
    void anUnknownOrUnconfiguredProviderIsAnInputError() {
        List<String[]> commands = List.of(
                new String[] {"loop", "--model", "m", "--provider", "nope"},
                new String[] {"parallel", "--model", "m", "--provider", "nope"},
                new String[] {
                    "bfcl", "run", "--agent", "reference", "--provider", "nope", "--model", "m", "--sample", "1"
                },
                new String[] {
                    "tau2",
                    "run",
                    "--domain",
                    "retail",
                    "--agent",
                    "llm",
                    "--model",
                    "m",
                    "--user-model",
                    "u",
                    "--judge-model",
                    "j",
                    "--provider",
                    "nope",
                    "--task",
                    "0"
                });
        for (String[] argv : commands) {
            Run r = main(argv);
            assertEquals(2, r.code(), String.join(" ", argv) + ": " + r.err());
            // The registry's one resolver says it for every face alike (experiment files, commands, magics).
            assertEquals(
                    "brokkr " + argv[0]
                            + ": unknown model provider 'nope' (registered: anthropic, claude-code, openai, openai-responses, say; openai also as llamacpp, ollama,"
                            + " openai-compatible, vllm)",
                    r.err().strip(),
                    String.join(" ", argv));
        }
        // A key that is not set: the same kind of error, through the same path (the commands' ModelSource / env).
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        Command loop = new LoopCommand(Registry.process(), ModelSource.fromEnvironment(Map.of()));
        Command.UsageException ex =
                assertThrows(Command.InputException.class, () -> loop.run(List.of("--model", "m"), e, e));
        assertTrue(ex.getMessage().contains("OPENAI_API_KEY is not set"), ex.getMessage());
        assertThrows(
                Command.InputException.class,
                () -> new BfclCommand(Registry.process(), Map.of())
                        .run(
                                List.of(
                                        "run",
                                        "--agent",
                                        "tools",
                                        "--provider",
                                        "anthropic",
                                        "--model",
                                        "m",
                                        "--sample",
                                        "1"),
                                e,
                                e));
    }

    /** A usage error shows the synopsis (the usage: lines), not the whole help; --help still shows all of it. */
    @Test
    void aUsageErrorShowsTheSynopsisOnly() {
        Run r = main("tau2", "run", "--domain", "retail", "--agent", "gold", "--bogus");
        assertEquals(2, r.code());
        String help = new Tau2Command(CommandContext.process()).usage();
        assertTrue(
                r.err().startsWith("brokkr tau2: unknown argument '--bogus'\nusage: ./brokkr tau2 run --domain DOMAIN"),
                r.err());
        assertTrue(
                r.err().contains("[--max-steps N] [--max-errors N] [--timeout-seconds N] [--max-attempts N]"),
                "the whole synopsis: " + r.err());
        assertTrue(r.err().strip().endsWith("(./brokkr help tau2 for details)"), r.err());
        assertFalse(r.err().contains("--enforce-protocol  upstream's"), "not the option descriptions: " + r.err());
        assertTrue(main("help", "tau2").out().contains("--enforce-protocol  upstream's"));
        assertEquals(help.substring(0, help.indexOf("\n\n")), Main.synopsis(help));
        assertEquals("usage: x", Main.synopsis("usage: x\n"));
    }

    /** Runtime errors name the file and say what is wrong with it, with the cause a wrapper carried. */
    @Test
    void runtimeErrorsSayWhatIsWrong() throws IOException {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        Path spec = Files.writeString(tmp.resolve("loop.yaml"), """
                name: loop-errors
                domain: loop
                split: smoke
                candidates: [{id: ideal, provider: scripted, model: ideal}]
                """);
        Run r = main("experiment", "run", spec.toString(), "--dir", file.toString(), "--no-progress");
        assertNotEquals(0, r.code());
        assertEquals(
                "brokkr experiment: " + file + ": already exists and is not a directory",
                r.err().strip(),
                "was: java.nio.file.FileAlreadyExistsException: F");
        assertFalse(r.err().contains("usage:") || r.err().contains("java.nio"), r.err());
        Path notAStore = Files.createDirectories(tmp.resolve("not-a-store"));
        Files.writeString(notAStore.resolve("experiment.db"), "hello, not SQLite ".repeat(100));
        r = main("experiment", "show", notAStore.toString());
        assertNotEquals(0, r.code());
        String db = notAStore.resolve("experiment.db").toString();
        assertTrue(r.err().contains(db), r.err());
        assertNotEquals("brokkr experiment: cannot open " + db, r.err().strip(), "the cause is not dropped");

        assertEquals("/x/y: no such file or directory", ErrorMessages.describe(new NoSuchFileException("/x/y")));
        assertEquals("/x: permission denied", ErrorMessages.describe(new AccessDeniedException("/x")));
        assertEquals(
                file + ": already exists and is not a directory",
                ErrorMessages.describe(new FileAlreadyExistsException(file.toString())));
        assertEquals(
                "cannot open f.db: [SQLITE_NOTADB] file is not a database",
                ErrorMessages.describe(new IllegalStateException(
                        "cannot open f.db", new SQLException("[SQLITE_NOTADB] file is not a database"))));
        assertEquals(
                "cannot read x: /x: no such file or directory",
                ErrorMessages.describe(new UncheckedIOException("cannot read x", new NoSuchFileException("/x"))));
        assertEquals(
                "cannot read data file /d/f.json: no such file or directory",
                ErrorMessages.describe(new UncheckedIOException(
                        "cannot read data file /d/f.json", new NoSuchFileException("/d/f.json"))),
                "the path once");
        Path emptyData = Files.createDirectories(tmp.resolve("no-bfcl-data"));
        RuntimeException bfcl = assertThrows(
                brokkr.domains.bfcl.BfclData.BfclDataException.class,
                () -> brokkr.domains.bfcl.BfclData.load(emptyData));
        assertTrue(
                ErrorMessages.describe(bfcl)
                        .matches("cannot read BFCL data file " + java.util.regex.Pattern.quote(emptyData.toString())
                                + "/\\S+\\.json: no such file or directory"),
                "was: ...: PATH: PATH; " + ErrorMessages.describe(bfcl));
        Run repl = main("repl", "--charts", file.toString());
        assertEquals(2, repl.code());
        assertEquals(
                "brokkr repl: --charts " + file + " is not a directory",
                repl.err().strip());
        assertEquals(
                "bad thing", ErrorMessages.describe(new RuntimeException(new IllegalArgumentException("bad thing"))));
        assertEquals(
                "bad thing",
                ErrorMessages.describe(new RuntimeException(null, new IllegalArgumentException("bad thing"))));
        assertEquals("null pointer exception", ErrorMessages.describe(new NullPointerException()));
    }
}
