package brokkr.cli;

import brokkr.command.Command;
import brokkr.command.OwnerOnlyFile;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.Registry;
import brokkr.experiment.StoreLocation;
import brokkr.render.report.ExperimentReport;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code ./brokkr report DIR [--out FILE]}: an experiment as one self-contained HTML file ({@link ExperimentReport}). */
public final class ReportCommand implements Command {
    /** The process's registry: the benchmarks whose reports the page draws. */
    private final Registry registry;

    public ReportCommand(Registry registry) {
        this.registry = registry;
    }

    @Override
    public String name() {
        return "report";
    }

    @Override
    public String summary() {
        return "write an experiment's shareable report: one self-contained HTML file";
    }

    @Override
    public String usage() {
        return """
                usage: ./brokkr report DIR [--out FILE]

                  Writes the experiment in DIR as one HTML file (default DIR/report.html) to attach to a paper
                  or a pull request: the scorecard, the pass^k chart, the per-task table and the checks, and
                  every attempt with its grade breakdown and transcript (dialogue, tool calls and results),
                  folded; "failed only" hides what passed. Self-contained: no server, no network (inline CSS,
                  script and SVG). The store is only read.""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        List<String> positionals = new ArrayList<>();
        Path file = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--out")) {
                if (i + 1 >= args.size()) throw new UsageException("--out needs a file");
                file = Path.of(args.get(++i));
            } else if (a.startsWith("--out=")) {
                file = Path.of(a.substring("--out=".length()));
            } else if (a.startsWith("-")) {
                throw new UsageException("unknown option " + a);
            } else {
                positionals.add(a);
            }
        }
        if (positionals.size() != 1)
            throw new UsageException(
                    positionals.isEmpty()
                            ? "which experiment directory?"
                            : "one experiment directory, not " + positionals);
        StoreLocation dir = ExperimentCommand.storeArg(positionals.getFirst());
        if (file == null) {
            if (!(dir instanceof StoreLocation.Directory d))
                throw new UsageException("a PostgreSQL store has no directory to put report.html in: give --out FILE");
            file = d.dir().resolve("report.html");
        }
        // The store is opened before the page is created: a store that cannot be read leaves no file behind.
        try (ExperimentQuery check = ExperimentQuery.open(dir)) {
            check.experiment();
        }
        if (file.toAbsolutePath().getParent() != null)
            Files.createDirectories(file.toAbsolutePath().getParent());
        // Transcripts and requests are in it: owner-only (0600), as the store and --out files are. Streamed: the
        // page is never whole in memory (a store of any size reports in a small heap).
        try (Writer w = OwnerOnlyFile.create(file)) {
            ExperimentReport.write(dir, registry, w);
        }
        out.println("wrote " + file + " (" + (Files.size(file) + 1023) / 1024 + " KiB)");
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            List<ExperimentQuery.DamagedAttempt> damaged = store.scanForDamage();
            for (ExperimentQuery.DamagedAttempt d : damaged)
                err.println("brokkr report: " + d.message() + "; the report shows it without its record");
            return damaged.isEmpty() ? 0 : 1;
        }
    }
}
