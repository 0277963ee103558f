package brokkr.example;

import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.data.UpstreamData;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.ToolWorld;
import brokkr.experiment.Registry;
import brokkr.family.BenchmarkFamily;
import brokkr.family.ConformanceSuite;
import brokkr.family.ResultCell;
import brokkr.family.ResultFormat;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.Value;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The smallest complete family, beside the smallest domain ({@link ExampleDomain}), registered by one line of
 * {@code META-INF/services/brokkr.family.BenchmarkFamily} in this module's test resources and nothing else: an
 * upstream data source of one pinned file ({@code data fetch example-upstream}), a conformance corpus of counter
 * runs ({@code conformance example}), a result format ({@code experiment export --format example-csv}) and a
 * command of its own ({@code example-tasks}). {@code ExampleFamilyTest} drives each through {@code Main.run}.
 */
public final class ExampleFamily implements BenchmarkFamily {
    /** The one pinned upstream file: a corpus of counter runs, one JSON object per line. */
    static final String PINNED_FILE = "counters.jsonl";

    static final String PINNED_TEXT = "{\"adds\": [1, 2], \"counter\": 3}\n{\"adds\": [], \"counter\": 0}\n";
    static final String PINNED_SHA256 = "ab4a05d27629ecc00852971996484b1169a2f04f0e12dc77bc9ad194a7e1a4fb";
    /** The commit the family says it was proven against (a fixture's; a fetch names its own with --commit). */
    static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";

    @Override
    public String name() {
        return "example";
    }

    @Override
    public List<UpstreamData> upstreamData(Registry registry) {
        return List.of(new UpstreamData(
                "example-upstream",
                "https://example.invalid/example-upstream.git",
                COMMIT,
                "",
                "BROKKR_EXAMPLE_DATA",
                "brokkr.example.data",
                Map.of(PINNED_FILE, UpstreamData.Pin.of(PINNED_SHA256))));
    }

    @Override
    public List<ConformanceSuite> conformance(Registry registry) {
        return List.of(new Counters());
    }

    @Override
    public List<ResultFormat> resultFormats(Registry registry) {
        return List.of(new Csv());
    }

    @Override
    public List<Command> commands(CommandContext context) {
        return List.of(new Tasks(context.registry()));
    }

    /**
     * {@code conformance example --corpus FILE}: each line {@code {"adds": [a, ...], "counter": n}} replayed on a fresh
     * fork of the example world, one {@code add} call per amount; a mismatch is a final counter other than the
     * recorded one.
     */
    private record Counters() implements ConformanceSuite {
        @Override
        public String name() {
            return "example";
        }

        @Override
        public String synopsis() {
            return "--corpus FILE";
        }

        @Override
        public String help() {
            return "example: replays counter runs (one {\"adds\": [...], \"counter\": N} per line) on the example world.";
        }

        @Override
        public Replay replay(Path corpus, Map<String, String> options, PrintStream out, PrintStream err) {
            List<String> lines;
            try {
                lines = Files.readAllLines(corpus).stream()
                        .filter(l -> !l.isBlank())
                        .toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (lines.isEmpty()) throw new Command.InputException(corpus + ": no records");
            int mismatches = 0;
            for (int i = 0; i < lines.size(); i++) {
                PyDict record = Json.parse(lines.get(i)).asDict();
                ToolWorld world = new ExampleDomain().fork(null);
                for (Value amount : record.get("adds").asList())
                    world = world.call(ExampleDomain.TOOL, PyDict.of("amount", amount))
                            .after();
                long counter = ((PyInt) world.state().asDict().get("counter")).longValue(),
                        recorded = ((PyInt) record.get("counter")).longValue();
                if (counter != recorded) {
                    mismatches++;
                    out.println(corpus + ":" + (i + 1) + ": counter " + counter + ", recorded " + recorded);
                }
            }
            out.println(lines.size() + " records, " + mismatches + " mismatches");
            return new Replay(mismatches, 0);
        }
    }

    /** {@code --format example-csv}: one line per example cell that ran (task, candidate, repetition, reward). */
    private record Csv() implements ResultFormat {
        @Override
        public String name() {
            return "example-csv";
        }

        @Override
        public String exportHelp() {
            return "example-csv: the example cells as CSV (task, candidate, repetition, reward)";
        }

        @Override
        public Exported export(List<ResultCell> cells, Registry registry) {
            StringBuilder csv = new StringBuilder("task,candidate,repetition,reward\n");
            int n = 0;
            for (ResultCell c : cells) {
                if (!c.benchmark().equals("example") || c.attempt() == null) continue;
                csv.append(String.format(
                        Locale.ROOT,
                        "%s,%s,%d,%.1f%n",
                        c.taskId(),
                        c.candidate(),
                        c.repetition(),
                        c.attempt().reward()));
                n++;
            }
            return new Exported(
                    n == 0
                            ? List.of()
                            : List.of(new ExportedFile(
                                    "example.csv", csv.toString().strip(), "example, " + n + " cells", List.of())),
                    null);
        }
    }

    /** {@code ./brokkr example-tasks}: the example benchmark's tasks, as the process's registry holds it. */
    private record Tasks(Registry registry) implements Command {
        @Override
        public String name() {
            return "example-tasks";
        }

        @Override
        public String summary() {
            return "list the example domain's tasks (a test family's command)";
        }

        @Override
        public String usage() {
            return "usage: ./brokkr example-tasks\n\nLists the example domain's test tasks.";
        }

        @Override
        public int run(List<String> args, PrintStream out, PrintStream err) {
            if (!args.isEmpty()) throw new UsageException("example-tasks takes no arguments");
            BenchmarkProvider example = registry.benchmark("example");
            out.println("example: " + String.join(", ", example.tasks("test")) + " (" + System.identityHashCode(example)
                    + ")");
            return 0;
        }
    }
}
