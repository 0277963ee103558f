package brokkr.family;

import brokkr.cost.PriceTable;
import brokkr.experiment.Registry;
import brokkr.value.PyStr;
import brokkr.world.ContentId;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A family's result format ({@code ./brokkr experiment export DIR --format NAME}, {@code experiment import FILE
 * --format NAME}): an experiment in upstream's own files, and upstream's files as an experiment. A format
 * receives and returns values; the CLI reads the store, writes the files, and writes imported attempts
 * into a new store. A format may export, import or both ({@link #exportHelp}, {@link #importHelp} null for
 * what it does not do).
 */
public interface ResultFormat {
    /** The {@code --format} value ({@code tau2}), unique over all families. */
    String name();

    /**
     * Its part of {@code experiment --help} under {@code export}, starting with its name ({@code "tau2: ..."}),
     * lines of the help's width without indentation; null when the format does not export.
     */
    String exportHelp();

    /**
     * What it writes when that is always a directory tree ({@code "a directory tree (result/, score/)"}): then
     * {@code --out DIR} is required. Null (the default): one file goes to {@code --out FILE} or stdout, several
     * into {@code --out DIR}.
     */
    default String directoryTree() {
        return null;
    }

    /**
     * The experiment's files in this format, from its active cells in the spec's order (each with the attempt
     * that stands for it, null when not run). The format picks the cells of its own benchmarks; none there is an
     * export with no files. Only called when {@link #exportHelp} is not null.
     */
    default Exported export(List<ResultCell> cells, Registry registry) {
        throw new UnsupportedOperationException(name() + " does not export");
    }

    /**
     * {@link #export(List, Registry)} with what the store knows besides its cells (the prices its costs are read at)
     * and the values of the format's own {@link #exportOptions} given on the command line. A format that needs
     * neither keeps the default. IllegalArgumentException: the experiment cannot be exported in this format (the
     * message says why, e.g. a leaderboard rule it breaks); the CLI exits 2 with it.
     */
    default Exported export(List<ResultCell> cells, ExportContext context) {
        return export(cells, context.registry());
    }

    /** The options of its own {@code experiment export --format NAME} takes, each with a value; none by default. */
    default List<ExportOption> exportOptions() {
        return List.of();
    }

    /**
     * An option of a format's export: its name ({@code --model-organization}), the value's name in the synopsis
     * ({@code ORG}), whether it must be given (its absence is a usage error naming it) and its help line.
     */
    record ExportOption(String name, String value, boolean required, String help) {
        public ExportOption {
            if (!name.startsWith("--")) throw new IllegalArgumentException("an option's name starts with --: " + name);
        }
    }

    /**
     * What an export receives besides the cells: the registry, the price table the store's costs are read at (its
     * experiment file's {@code prices:} over the standard table, as the scorecard prices them) and the format's own
     * options that were given, by name ({@code --model-organization} to its value).
     */
    record ExportContext(Registry registry, PriceTable prices, Map<String, String> options) {
        public ExportContext {
            Objects.requireNonNull(registry, "registry");
            Objects.requireNonNull(prices, "prices");
            options = Map.copyOf(options);
        }
    }

    /** Its part of {@code experiment --help} under {@code import} (as {@link #exportHelp}); null when it does not import. */
    default String importHelp() {
        return null;
    }

    /**
     * Reads an upstream file as an experiment: its cells, each with its attempt (id 0; the store numbers them),
     * which the caller stores in a new experiment directory. IllegalArgumentException (or UncheckedIOException)
     * for a file that cannot be read or is not of this format, with a message naming it. Only called when
     * {@link #importHelp} is not null.
     */
    default Imported importFile(Path file, Registry registry) {
        throw new UnsupportedOperationException(name() + " does not import");
    }

    /**
     * A file-name part for each label (a candidate's id), in the labels' order: the label with every character
     * outside {@code [A-Za-z0-9._-]} replaced by {@code _}, and where two labels would get the same part
     * ({@code gold/a}, {@code gold a}, {@code gold_a}) each of them followed by {@code -} and 8 hex digits of its
     * SHA-256, so no two candidates' results ever go to one file (whatever the order or the other labels).
     */
    static Map<String, String> fileNames(Collection<String> labels) {
        Map<String, Integer> uses = new HashMap<>();
        for (String l : new LinkedHashSet<>(labels)) uses.merge(sanitized(l), 1, Integer::sum);
        Map<String, String> out = new LinkedHashMap<>();
        for (String l : labels) {
            String s = sanitized(l);
            out.put(
                    l,
                    uses.get(s) == 1
                            ? s
                            : s + "-" + ContentId.of(new PyStr(l)).hex().substring(0, 8));
        }
        return out;
    }

    private static String sanitized(String label) {
        return label.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /**
     * One file of an export: its path (relative: a file name, or a path under the output directory of a
     * directory tree), its text, a label saying what it holds ({@code "tau2-retail, gold"}) and warnings about
     * it (printed on stderr, each prefixed with the path).
     */
    record ExportedFile(String path, String content, String label, List<String> warnings) {
        public ExportedFile {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(content, "content");
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * An export: its files, in writing order (none: nothing of this format in the experiment), and for a
     * directory tree the line the CLI prints after writing them, which it ends with {@code " under DIR"}.
     */
    record Exported(List<ExportedFile> files, String summary) {
        public Exported {
            files = List.copyOf(files);
        }
    }

    /**
     * An import: the experiment's name and spec JSON (what it was imported from), its cells with their
     * attempts, what was imported ({@code "40 simulations of tau2-airline by upstream:..."}, the CLI prints
     * {@code "imported " + summary + " into DIR"}) and remarks it adds in parentheses.
     */
    record Imported(String name, String specJson, List<ResultCell> cells, String summary, List<String> remarks) {
        public Imported {
            cells = List.copyOf(cells);
            remarks = List.copyOf(remarks);
            for (ResultCell c : cells)
                if (c.attempt() == null) throw new IllegalArgumentException("an imported cell has its attempt");
        }
    }
}
