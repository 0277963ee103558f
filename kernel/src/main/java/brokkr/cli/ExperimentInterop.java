package brokkr.cli;

import brokkr.command.Command.InputException;
import brokkr.command.Command.UsageException;
import brokkr.command.OwnerOnlyFile;
import brokkr.experiment.Registry;
import brokkr.experiment.StoreLocation;
import brokkr.family.BenchmarkFamily;
import brokkr.family.EveryEvalEver;
import brokkr.family.ResultCell;
import brokkr.family.ResultFormat;
import brokkr.family.StoredResults;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code experiment export} and {@code experiment import}: an experiment in a family's result format (upstream's
 * own files), and such files as an experiment store. The formats are the families' ({@link ResultFormat}) and
 * those of every benchmark ({@link EveryEvalEver}); this
 * class reads and writes the store and the files ({@link StoredResults}), the formats only convert.
 */
public final class ExperimentInterop {
    private final Registry registry;
    private final Map<String, ResultFormat> formats;

    /** The result formats of {@code families}, by name; a name two formats take is an IllegalStateException. */
    public ExperimentInterop(Registry registry, List<BenchmarkFamily> families) {
        this.registry = registry;
        Map<String, ResultFormat> m = new LinkedHashMap<>();
        for (BenchmarkFamily f : families) {
            for (ResultFormat r : f.resultFormats(registry)) {
                if (m.putIfAbsent(r.name(), r) != null)
                    throw new IllegalStateException(
                            "two result formats named '" + r.name() + "' (the second from family " + f.name() + ")");
            }
        }
        // The formats of every benchmark, whatever its family: after the families' own.
        for (ResultFormat r : List.<ResultFormat>of(new EveryEvalEver()))
            if (m.putIfAbsent(r.name(), r) != null)
                throw new IllegalStateException("two result formats named '" + r.name() + "'");
        this.formats = m;
    }

    private List<ResultFormat> exporters() {
        return formats.values().stream().filter(f -> f.exportHelp() != null).toList();
    }

    private List<ResultFormat> importers() {
        return formats.values().stream().filter(f -> f.importHelp() != null).toList();
    }

    /** {@code experiment}'s usage text with export and import added after verify-world's synopsis and before --format's help. */
    String withUsage(String usage) {
        List<ResultFormat> importers = importers();
        String synopses = "       ./brokkr experiment export DIR --format " + String.join("|", names(exporters()))
                + " [--out PATH] [the format's options]\n" + "       ./brokkr experiment import FILE --dir DIR"
                + (importers.size() > 1 ? " --format " + String.join("|", names(importers)) : "") + "\n";
        StringBuilder help = new StringBuilder();
        paragraph(
                help,
                "export",
                exporters().stream().map(ExperimentInterop::exportHelp).toList());
        paragraph(
                help, "import", importers.stream().map(ResultFormat::importHelp).toList());
        String synopsis = "./brokkr experiment verify-world DIR [ATTEMPT_ID]\n";
        String formatHelp = "  --format    text (aligned";
        return usage.replace(synopsis, synopsis + synopses).replace(formatHelp, help + formatHelp);
    }

    /** A format's export help followed by its own options, one line each ({@code "  --name VALUE  help"}). */
    private static String exportHelp(ResultFormat f) {
        StringBuilder t = new StringBuilder(f.exportHelp().strip());
        for (ResultFormat.ExportOption o : f.exportOptions())
            t.append("\n  ")
                    .append(o.name())
                    .append(' ')
                    .append(o.value())
                    .append("  ")
                    .append(o.help())
                    .append(o.required() ? " (required)" : "");
        return t.toString();
    }

    /** {@code "  NAME        "} before the first line of the texts, their other lines indented as far. */
    private static void paragraph(StringBuilder sb, String name, List<String> texts) {
        if (texts.isEmpty()) return;
        String indent = " ".repeat(14);
        boolean first = true;
        for (String text : texts) {
            for (String line : text.strip().split("\n")) {
                sb.append(first ? String.format("  %-12s", name) : indent)
                        .append(line)
                        .append('\n');
                first = false;
            }
        }
    }

    private static List<String> names(List<ResultFormat> fs) {
        return fs.stream().map(ResultFormat::name).toList();
    }

    /** {@code a}, {@code a or b}, {@code a, b or c}. */
    private static String either(List<String> words) {
        if (words.size() <= 1) return String.join("", words);
        return String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.getLast();
    }

    int export(List<String> args, PrintStream out, PrintStream err) throws IOException {
        String format = null;
        Path outPath = null;
        List<String> positional = new ArrayList<>();
        Map<String, String> given = new LinkedHashMap<>(); // a format's own options, checked once it is known
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.startsWith("-")) {
                positional.add(a);
                continue;
            }
            if (!a.startsWith("--") || a.equals("--")) throw new UsageException("unknown option " + a);
            if (i + 1 >= args.size()) throw new UsageException(a + " needs a value");
            String v = args.get(++i);
            switch (a) {
                case "--format" -> format = v;
                case "--out" -> outPath = Path.of(v);
                default -> {
                    if (given.put(a, v) != null) throw new UsageException(a + " given twice");
                }
            }
        }
        List<String> names = names(exporters());
        if (positional.size() != 1) throw new UsageException("export needs exactly one experiment DIR");
        if (format == null)
            throw new UsageException("export needs "
                    + either(names.stream().map(n -> "--format " + n).toList()));
        StoreLocation dir = ExperimentCommand.storeArg(positional.getFirst());
        ResultFormat f = formats.get(format);
        if (f == null || f.exportHelp() == null)
            throw new UsageException("--format must be " + either(names) + ", not '" + format + "'");
        Map<String, ResultFormat.ExportOption> own = new LinkedHashMap<>();
        for (ResultFormat.ExportOption o : f.exportOptions()) own.put(o.name(), o);
        for (String a : given.keySet())
            if (!own.containsKey(a))
                throw new UsageException("unknown option " + a + " for --format " + f.name()
                        + (own.isEmpty()
                                ? " (it takes only --out)"
                                : " (its options: " + String.join(", ", own.keySet()) + ")"));
        for (ResultFormat.ExportOption o : own.values())
            if (o.required() && !given.containsKey(o.name()))
                throw new UsageException(
                        "--format " + f.name() + " needs " + o.name() + " " + o.value() + " (" + o.help() + ")");
        if (f.directoryTree() != null && outPath == null)
            throw new UsageException("--format " + f.name() + " writes " + f.directoryTree() + ": give --out DIR");
        List<ResultCell> cells = StoredResults.read(dir);
        ResultFormat.ExportContext context = new ResultFormat.ExportContext(registry, StoredResults.prices(dir), given);
        ResultFormat.Exported e;
        try {
            e = f.export(cells, context);
        } catch (
                IllegalArgumentException refused) { // the experiment breaks a rule of the format (e.g. a leaderboard's)
            throw new InputException(
                    "cannot export " + dir.display() + " as " + f.name() + ": " + refused.getMessage());
        }
        if (e.files().isEmpty())
            throw new InputException(dir.display() + " has no " + f.name() + " attempts to export");
        // Two files of one path would leave only the last one's results: a format's bug, never written.
        Set<String> paths = new HashSet<>();
        for (ResultFormat.ExportedFile x : e.files())
            if (!paths.add(x.path()))
                throw new IllegalStateException(f.name() + " export wrote " + x.path() + " twice");
        for (ResultFormat.ExportedFile x : e.files())
            for (String w : x.warnings()) err.println("brokkr experiment export: " + x.path() + ": " + w);
        if (f.directoryTree() != null) {
            for (ResultFormat.ExportedFile x : e.files()) write(outPath.resolve(x.path()), x.content());
            out.println(e.summary() + " under " + outPath);
            return 0;
        }
        if (e.files().size() == 1 && (outPath == null || !Files.isDirectory(outPath))) {
            ResultFormat.ExportedFile only = e.files().getFirst();
            if (outPath == null) {
                out.println(only.content());
            } else {
                write(outPath, only.content());
                err.println("wrote " + outPath + (only.label() == null ? "" : " (" + only.label() + ")"));
            }
            return 0;
        }
        if (outPath == null
                || (!Files.isDirectory(outPath)
                        && outPath.getFileName().toString().endsWith(".json"))) {
            throw new UsageException(e.files().size() + " results files ("
                    + String.join(
                            ", ",
                            e.files().stream()
                                    .map(ResultFormat.ExportedFile::path)
                                    .toList()) + "): give --out DIR");
        }
        for (ResultFormat.ExportedFile x : e.files()) {
            Path file = outPath.resolve(x.path());
            write(file, x.content());
            err.println("wrote " + file);
        }
        return 0;
    }

    int importFile(List<String> args, PrintStream out, PrintStream err) {
        Path dir = null;
        String format = null;
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--dir") || a.equals("--format")) {
                if (i + 1 >= args.size())
                    throw new UsageException(a.equals("--dir") ? "--dir needs a directory" : "--format needs a value");
                if (a.equals("--dir")) dir = Path.of(args.get(++i));
                else format = args.get(++i);
            } else if (a.startsWith("-")) {
                throw new UsageException("unknown option " + a);
            } else {
                positional.add(a);
            }
        }
        if (positional.size() != 1) throw new UsageException("import needs exactly one FILE");
        if (dir == null) throw new UsageException("import needs --dir DIR (a new experiment directory)");
        List<ResultFormat> importers = importers();
        ResultFormat f;
        if (format != null) {
            f = formats.get(format);
            if (f == null || f.importHelp() == null)
                throw new UsageException("--format must be " + either(names(importers)) + ", not '" + format + "'");
        } else if (importers.size() == 1) {
            f = importers.getFirst();
        } else {
            throw new UsageException(
                    importers.isEmpty()
                            ? "no result format imports"
                            : "import needs "
                                    + either(names(importers).stream()
                                            .map(n -> "--format " + n)
                                            .toList()));
        }
        Path file = Path.of(positional.getFirst());
        if (!Files.isRegularFile(file)) throw new InputException("cannot read " + file + ": no such file");
        ResultFormat.Imported r;
        try {
            StoredResults.refuseExisting(dir);
            r = f.importFile(file, registry);
            StoredResults.write(dir, r);
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new InputException(e.getMessage());
        }
        out.println("imported " + r.summary() + " into " + dir
                + (r.remarks().isEmpty() ? "" : " (" + String.join("; ", r.remarks()) + ")") + "; experiment show "
                + dir);
        return 0;
    }

    private static void write(Path file, String text) {
        try {
            if (file.getParent() != null) Files.createDirectories(file.getParent());
            try (var w = OwnerOnlyFile.create(file)) { // full transcripts: owner-only (0600), as the store is
                w.write(text);
            }
        } catch (IOException e) {
            throw new InputException("cannot write " + file + ": " + e.getMessage());
        }
    }
}
