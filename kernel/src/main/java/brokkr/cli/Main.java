package brokkr.cli;

import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.command.CommandSet;
import brokkr.command.ErrorMessages;
import brokkr.command.LogLines;
import brokkr.eval.ModelFactory;
import brokkr.experiment.Registry;
import brokkr.family.BenchmarkFamily;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;

/**
 * Brokkr's command line: {@code ./brokkr COMMAND [ARGS]}. Commands register in {@link #builtins}, through the
 * benchmark families ({@code ServiceLoader<BenchmarkFamily>}: their commands, data pins, conformance suites,
 * result formats and upstream revisions) and through {@code ServiceLoader<CommandSet>} (a module's commands),
 * all made with the process's one registry; the CLI names no family. Exit status, the same for every command: 0 done, 1 a runtime
 * error (or what a command documents, e.g. conformance mismatches), 2 a usage or input error
 * ({@link Command.UsageException}), {@value #EXIT_NO_VERDICT} a run that finished with some
 * episodes or cells without a verdict.
 */
public final class Main {
    /** Exit status of a run in which some episodes (cells) have no verdict: infrastructure failures, harness errors. */
    public static final int EXIT_NO_VERDICT = Command.EXIT_NO_VERDICT;

    /** The built-in commands, in the order {@code --help} lists them; the generic ones take what the families declare. */
    static List<Command> builtins(CommandContext context, List<BenchmarkFamily> families) {
        Registry registry = context.registry();
        return List.of(
                new ConformanceCommand(registry, families),
                new ExperimentCommand(registry, new ExperimentInterop(registry, families), context.env()),
                new DataCommand(context.env(), registry, families),
                new ReportCommand(registry),
                new ProbeCommand(registry),
                new WorkerCommand(registry));
    }

    static Map<String, Command> commands() {
        return commands(CommandContext.process(), BenchmarkFamily.load());
    }

    /**
     * The built-in commands, then the families' (in the families' order), then those of every {@link CommandSet}
     * service; a name taken twice is an error.
     */
    static Map<String, Command> commands(CommandContext context, List<BenchmarkFamily> families) {
        Map<String, Command> map = new LinkedHashMap<>();
        for (Command c : builtins(context, families)) map.put(c.name(), c);
        for (BenchmarkFamily f : families) {
            for (Command c : f.commands(context)) {
                if (map.putIfAbsent(c.name(), c) != null) {
                    throw new IllegalStateException(
                            "two commands named '" + c.name() + "' (the second from family " + f.name() + ")");
                }
            }
        }
        for (CommandSet set : ServiceLoader.load(CommandSet.class)) {
            for (Command c : set.commands(context)) {
                if (map.putIfAbsent(c.name(), c) != null) {
                    throw new IllegalStateException("two commands named '" + c.name() + "' (the second from "
                            + set.getClass().getName() + ")");
                }
            }
        }
        return map;
    }

    public static void main(String[] argv) {
        LogLines.install(); // retry warnings and other records one line each, never Java logging's two
        System.exit(run(Arrays.asList(argv), System.out, System.err));
    }

    public static int run(List<String> argv, PrintStream out, PrintStream err) {
        CommandContext context = CommandContext.process();
        List<BenchmarkFamily> families = BenchmarkFamily.load();
        Map<String, Command> commands = commands(context, families);
        if (argv.isEmpty()
                || argv.get(0).equals("--help")
                || argv.get(0).equals("-h")
                || argv.get(0).equals("help")) {
            if (argv.size() > 1 && commands.containsKey(argv.get(1))) {
                out.println(commands.get(argv.get(1)).usage());
                return 0;
            }
            if (argv.size() > 1) { // help for a command there is none of: a usage error, as the command itself would be
                err.println("brokkr help: unknown command '" + argv.get(1) + "'");
                printHelp(commands, context.registry(), err);
                return 2;
            }
            printHelp(commands, context.registry(), argv.isEmpty() ? err : out);
            return argv.isEmpty() ? 2 : 0;
        }
        if (argv.get(0).equals("--version") || argv.get(0).equals("version")) {
            out.println(version(context.registry(), families));
            return 0;
        }
        Command c = commands.get(argv.get(0));
        if (c == null) {
            err.println("brokkr: unknown command '" + argv.get(0) + "'");
            printHelp(commands, context.registry(), err);
            return 2;
        }
        List<String> rest = new ArrayList<>(argv.subList(1, argv.size()));
        if (rest.contains("--help") || rest.contains("-h")) {
            out.println(c.usage());
            return 0;
        }
        try {
            int code = c.run(rest, out, err);
            // A PrintStream keeps its write errors to itself (stdout on a full disk, /dev/full): the output a
            // command exists for was not written, an output error (README: exit 2), never a silent 0.
            if (out.checkError()) {
                err.println("brokkr " + c.name() + ": cannot write the output (a full or closed file?)");
                return 2;
            }
            return code;
        } catch (IOException e) {
            // A file the command writes (--out FILE) that cannot be written: an input/output error, exit 2.
            err.println("brokkr " + c.name() + ": " + ErrorMessages.describe(e));
            return 2;
        } catch (Command.UsageException e) {
            err.println("brokkr " + c.name() + ": " + e.getMessage());
            if (!(e instanceof Command.InputException)) {
                err.println(synopsis(c.usage()));
                err.println("(./brokkr help " + c.name() + " for details)");
            }
            return 2;
        } catch (Exception e) {
            err.println("brokkr " + c.name() + ": " + ErrorMessages.describe(e));
            return 1;
        }
    }

    /** The usage text's first paragraph (its {@code usage:} lines): an error shows that, not the whole text. */
    static String synopsis(String usage) {
        int blank = usage.indexOf("\n\n");
        return (blank < 0 ? usage : usage.substring(0, blank)).stripTrailing();
    }

    /** This build's version, the upstream commits its families report they were proven against, and the Java running it. */
    static String version(Registry registry, List<BenchmarkFamily> families) {
        Properties p = new Properties();
        try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
            if (in != null) p.load(in);
        } catch (IOException e) {
            // an unreadable version file leaves the version unknown; the rest of the line still holds
        }
        List<String> upstream = new ArrayList<>();
        for (BenchmarkFamily f : families) upstream.addAll(f.upstreamRevisions(registry));
        return "brokkr " + p.getProperty("version", "unknown") + " ("
                + (upstream.isEmpty() ? "" : String.join(", ", upstream) + "; ") + "Java " + Runtime.version() + ")";
    }

    static void printHelp(Map<String, Command> commands, Registry registry, PrintStream s) {
        s.println("usage: ./brokkr COMMAND [ARGS]   (./brokkr help COMMAND for details, ./brokkr --version)");
        s.println();
        s.println("commands:");
        for (Command c : commands.values()) s.printf("  %-14s %s%n", c.name(), c.summary());
        s.println();
        // The registry's own list, so that a provider a jar adds is shown as surely as it resolves.
        s.println(
                "model providers (provider: in an experiment file, --provider PROVIDER or PROVIDER:MODEL elsewhere):");
        for (ModelFactory f : registry.factories()) {
            String also = f.aliases().isEmpty() ? "" : " (also " + String.join(", ", f.aliases()) + ")";
            String line = (f.summary() + also).strip();
            s.printf("  %-18s %s%n", f.provider(), line);
        }
    }
}
