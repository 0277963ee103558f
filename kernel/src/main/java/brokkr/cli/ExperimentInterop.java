package brokkr.cli;

import brokkr.command.Command;
import brokkr.command.Command.InputException;
import brokkr.command.Command.UsageException;
import brokkr.domains.bfcl.BfclResultsExport;
import brokkr.domains.tau2.runner.Tau2ResultsExport;
import brokkr.domains.tau2.runner.Tau2ResultsImport;
import brokkr.experiment.ExperimentStore;
import brokkr.experiment.Registry;
import brokkr.python.PyJson;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code experiment export} and {@code experiment import}: an experiment in upstream's own result formats, and
 * upstream's results as an experiment store.
 */
final class ExperimentInterop {
    private ExperimentInterop() {}

    private static final String USAGE = """
                   ./brokkr experiment export DIR --format tau2|bfcl [--out PATH]
                   ./brokkr experiment import FILE --dir DIR
            """;

    private static final String HELP = """
                  export      tau2: per tau2 domain and candidate, upstream's Results JSON as its runner writes
                              results.json (upstream's viewer and metrics read it); one file goes to --out FILE (or
                              to stdout), several into the directory --out DIR as BENCHMARK.CANDIDATE.json.
                              bfcl: upstream's result/MODEL/GROUP/BFCL_v4_CATEGORY_result.json files per candidate
                              and score/data_overall.csv, data_non_live.csv, data_live.csv with upstream's columns,
                              under --out DIR (required)
                  import      an upstream tau2 results file or graded corpus (.json, .jsonl, .jsonl.gz) as a new
                              experiment store in DIR: scorecards, pass^k, transcripts and report of upstream's runs
                """;

    /** {@code experiment}'s usage text with export and import added after verify-world's synopsis and before --format's help. */
    static String withUsage(String usage) {
        String synopsis = "./brokkr experiment verify-world DIR [ATTEMPT_ID]\n";
        String help = "  --format    text (aligned";
        return usage.replace(synopsis, synopsis + USAGE).replace(help, HELP + help);
    }

    static int export(List<String> args, PrintStream out, PrintStream err) throws IOException {
        String format = null;
        Path outPath = null;
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--format", "--out" -> {
                    if (i + 1 >= args.size()) throw new UsageException(a + " needs a value");
                    if (a.equals("--format")) format = args.get(++i); else outPath = Path.of(args.get(++i));
                }
                default -> {
                    if (a.startsWith("-")) throw new UsageException("unknown option " + a);
                    positional.add(a);
                }
            }
        }
        if (positional.size() != 1) throw new UsageException("export needs exactly one experiment DIR");
        if (format == null) throw new UsageException("export needs --format tau2 or --format bfcl");
        Path dir = Path.of(positional.getFirst());
        if (!Files.isRegularFile(ExperimentStore.file(dir))) throw new UsageException(dir + " holds no experiment (no " + ExperimentStore.FILE + ")");
        return switch (format) {
            case "tau2" -> exportTau2(dir, outPath, out, err);
            case "bfcl" -> exportBfcl(dir, outPath, out, err);
            default -> throw new UsageException("--format must be tau2 or bfcl, not '" + format + "'");
        };
    }

    private static int exportTau2(Path dir, Path outPath, PrintStream out, PrintStream err) throws IOException {
        List<Tau2ResultsExport.Export> exports = Tau2ResultsExport.export(dir, Registry.load());
        if (exports.isEmpty()) throw new InputException(dir + " has no tau2 attempts to export");
        for (Tau2ResultsExport.Export e : exports) for (String w : e.warnings()) err.println("brokkr experiment export: " + e.fileName() + ": " + w);
        // Upstream's runner writes results.json with json.dump(indent=2): ASCII, 2-space indent.
        PyJson.DumpOptions upstream = PyJson.DumpOptions.DEFAULT.withIndent(2);
        if (exports.size() == 1 && (outPath == null || !Files.isDirectory(outPath))) {
            String text = PyJson.dumps(exports.getFirst().results(), upstream);
            if (outPath == null) {
                out.println(text);
            } else {
                write(outPath, text);
                err.println("wrote " + outPath + " (" + exports.getFirst().benchmark() + ", " + exports.getFirst().candidate() + ")");
            }
            return 0;
        }
        if (outPath == null || (!Files.isDirectory(outPath) && outPath.getFileName().toString().endsWith(".json"))) {
            throw new UsageException(exports.size() + " results files (" + String.join(", ", exports.stream().map(Tau2ResultsExport.Export::fileName).toList())
                    + "): give --out DIR");
        }
        for (Tau2ResultsExport.Export e : exports) {
            Path f = outPath.resolve(e.fileName());
            write(f, PyJson.dumps(e.results(), upstream));
            err.println("wrote " + f);
        }
        return 0;
    }

    private static int exportBfcl(Path dir, Path outPath, PrintStream out, PrintStream err) {
        if (outPath == null) throw new UsageException("--format bfcl writes a directory tree (result/, score/): give --out DIR");
        BfclResultsExport.Export e = BfclResultsExport.export(dir, Registry.load());
        if (e.candidates().isEmpty()) throw new InputException(dir + " has no bfcl attempts to export");
        for (var f : e.files().entrySet()) write(outPath.resolve(f.getKey()), f.getValue());
        out.println("wrote " + (e.files().size() - 3) + " result files of " + e.candidates().size() + " candidate(s) and score/data_overall.csv, "
                + "data_non_live.csv, data_live.csv under " + outPath);
        return 0;
    }

    static int importFile(List<String> args, PrintStream out, PrintStream err) {
        Path dir = null;
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--dir")) {
                if (i + 1 >= args.size()) throw new UsageException("--dir needs a directory");
                dir = Path.of(args.get(++i));
            } else if (a.startsWith("-")) {
                throw new UsageException("unknown option " + a);
            } else {
                positional.add(a);
            }
        }
        if (positional.size() != 1) throw new UsageException("import needs exactly one FILE");
        if (dir == null) throw new UsageException("import needs --dir DIR (a new experiment directory)");
        Path file = Path.of(positional.getFirst());
        if (!Files.isRegularFile(file)) throw new InputException("cannot read " + file + ": no such file");
        Tau2ResultsImport.Imported r;
        try {
            r = Tau2ResultsImport.importFile(file, dir, Registry.load());
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        } catch (UncheckedIOException e) {
            throw new InputException(e.getMessage());
        }
        out.println("imported " + r.attempts() + " simulations of " + r.benchmark() + " by " + r.candidate() + " into " + r.dir()
                + (r.infrastructureFailures() > 0 ? " (" + r.infrastructureFailures() + " infrastructure errors, not scored)" : "")
                + "; experiment show " + r.dir());
        return 0;
    }

    private static void write(Path file, String text) {
        try {
            if (file.getParent() != null) Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new InputException("cannot write " + file + ": " + e.getMessage());
        }
    }
}
