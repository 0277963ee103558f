package brokkr.kernel;

import brokkr.magics.MagicArgs;
import brokkr.magics.MagicRegistry;
import brokkr.magics.MagicUsageException;
import brokkr.magics.view.Rich;
import brokkr.magics.view.Tables;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The magics that work on the Java session itself rather than on a domain, so they live beside the
 * evaluator (the kernel and the REPL install them into their session's registry):
 * <ul>
 *   <li>{@code %maven G:A:V ...}, {@code %jars PATH...}, {@code %classpath}: jars added to the session's class
 *       path ({@link MavenDependencies} resolves coordinates with their dependencies);</li>
 *   <li>{@code %time CODE} and {@code %%time}: a statement's or a cell's wall time;</li>
 *   <li>{@code %vars}: the session's variables with their type and a short value.</li>
 * </ul>
 */
final class KernelMagics {
    private final CellEvaluator cells;
    private final Supplier<MavenDependencies> maven;
    private MavenDependencies resolver;
    private final List<ClassPathEntry> added = new ArrayList<>();
    /** The version of each artifact {@code %maven} put on the class path ({@code G:A:EXT[:CLASSIFIER]} to its coordinates). */
    private final java.util.Map<String, String> mavenArtifacts = new java.util.LinkedHashMap<>();

    private KernelMagics(CellEvaluator cells, Supplier<MavenDependencies> maven) {
        this.cells = cells;
        this.maven = maven;
    }

    static void install(CellEvaluator cells, MagicRegistry r, Supplier<MavenDependencies> maven) {
        KernelMagics k = new KernelMagics(cells, maven);
        r.line(
                        "maven",
                        "%maven G:A:V [G:A:V ...]",
                        "Adds Maven artifacts and their runtime dependencies to the class path of the following cells, resolved"
                                + " with your Maven settings (~/.m2/settings.xml: local repository, mirrors, servers, profile repositories).",
                        (s, a) -> k.maven(a))
                .line(
                        "jars",
                        "%jars PATH...",
                        "Adds jar files (or classes directories) to the class path; a PATH may be a glob"
                                + " (lib/*.jar, libs/**.jar).",
                        (s, a) -> k.jars(a))
                .line(
                        "classpath",
                        "%classpath",
                        "Lists what %maven and %jars added to the class path, in order.",
                        (s, a) -> k.classpath(a))
                .line(
                        "time",
                        "%time CODE",
                        "Runs the rest of the line (Java or a magic) and prints its wall time; the value is the code's.",
                        (s, a) -> k.time(a.raw()))
                .cell(
                        "time",
                        "%%time",
                        "Runs the cell (Java and magics) and prints its wall time; the value is the cell's.",
                        (s, a, body) -> k.time(body))
                .line("vars", "%vars", "The session's variables: name, type and a short value.", (s, a) -> k.vars(a));
    }

    // ---- class path ----

    /** One addition to the class path: the file and what brought it. */
    public record ClassPathEntry(Path file, String origin) {}

    /** What a class path magic did: the entries added, and those it left out saying why. */
    public record ClassPathChange(String title, List<ClassPathEntry> entries, List<String> notes) implements Rich {
        public ClassPathChange {
            entries = List.copyOf(entries);
            notes = List.copyOf(notes);
        }

        public Table table() {
            return Table.create(
                    title,
                    StringColumn.create(
                            "jar",
                            entries.stream()
                                    .map(e -> e.file().getFileName().toString())
                                    .toList()),
                    StringColumn.create(
                            "from", entries.stream().map(ClassPathEntry::origin).toList()),
                    StringColumn.create(
                            "path",
                            entries.stream().map(e -> e.file().toString()).toList()));
        }

        @Override
        public String text() {
            StringBuilder sb = new StringBuilder(title);
            for (ClassPathEntry e : entries)
                sb.append("\n  ")
                        .append(e.file().getFileName())
                        .append("  (")
                        .append(e.origin())
                        .append(")");
            for (String n : notes) sb.append("\n  ").append(n);
            return sb.toString();
        }

        @Override
        public String html() {
            StringBuilder sb =
                    new StringBuilder(entries.isEmpty() ? "<p>" + Tables.esc(title) + "</p>" : Tables.html(table()));
            for (String n : notes) sb.append("<p>").append(Tables.esc(n)).append("</p>");
            return sb.toString();
        }
    }

    private static final Pattern COORDINATES = Pattern.compile("[^:\\s]+(:[^:\\s]+){2,4}");

    private Object maven(MagicArgs a) {
        var p = a.parse(Set.of(), Integer.MAX_VALUE);
        if (p.positionals().isEmpty()) throw new MagicUsageException("which artifacts? give GROUP:ARTIFACT:VERSION");
        for (String c : p.positionals()) {
            if (!COORDINATES.matcher(c).matches()) {
                throw new MagicUsageException("'" + c + "' is not Maven coordinates: GROUP:ARTIFACT:VERSION"
                        + " (or G:A:EXTENSION:VERSION, G:A:EXTENSION:CLASSIFIER:VERSION)");
            }
        }
        List<MavenDependencies.Resolved> resolved;
        try {
            resolved = resolver().resolve(p.positionals(), System.out);
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new CellException(
                    CellException.Kind.RUNTIME, "DependencyResolutionError", e.getMessage(), List.of(e.getMessage()));
        }
        // Every jar is checked before any is added: one that is no zip would break every later cell.
        for (MavenDependencies.Resolved r : resolved) {
            String bad = notAJar(r.file());
            if (bad != null)
                throw new CellException(
                        CellException.Kind.RUNTIME,
                        "DependencyResolutionError",
                        r.coordinates() + ": " + bad + "; nothing was added",
                        List.of(r.coordinates() + ": " + bad));
        }
        List<ClassPathEntry> entries = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (MavenDependencies.Resolved r : resolved) {
            String origin = r.coordinates() + (r.requested() ? "" : ", a dependency");
            String kernelCopy = onKernelClassPath(r.file());
            if (kernelCopy != null) {
                notes.add(r.coordinates() + ": the kernel's own " + kernelCopy
                        + " is used (the kernel's classes come first)");
                continue;
            }
            // One version per artifact: the class loader finds the first jar of a class, so a second version beside
            // it would only mix classes of the two. The one already there stays, and the conflict is said.
            String artifact = artifactKey(r.coordinates());
            String present;
            synchronized (this) {
                present = mavenArtifacts.get(artifact);
            }
            if (present != null && !present.equals(r.coordinates())) {
                notes.add("version conflict: " + r.coordinates() + (r.requested() ? "" : " (a dependency)")
                        + " not added, " + present + " is on the class path already (one version per artifact;"
                        + " restart the kernel to choose another)");
                continue;
            }
            if (add(r.file(), origin)) {
                entries.add(new ClassPathEntry(r.file(), origin));
                synchronized (this) {
                    mavenArtifacts.put(artifact, r.coordinates());
                }
            }
        }
        return new ClassPathChange(
                entries.isEmpty()
                        ? "nothing new on the class path"
                        : "added " + entries.size() + " jar" + (entries.size() == 1 ? "" : "s") + " to the class path",
                entries,
                notes);
    }

    private synchronized MavenDependencies resolver() {
        if (resolver == null) resolver = maven.get();
        return resolver;
    }

    private Object jars(MagicArgs a) {
        var p = a.parse(Set.of(), Integer.MAX_VALUE);
        if (p.positionals().isEmpty()) throw new MagicUsageException("which jars? give paths or globs");
        List<Path> files = new ArrayList<>();
        for (String arg : p.positionals()) {
            List<Path> matched = expand(arg);
            if (matched.isEmpty()) throw new MagicUsageException("no jar matches '" + arg + "'");
            files.addAll(matched);
        }
        for (Path f : files) {
            String bad = notAJar(f);
            if (bad != null) throw new MagicUsageException(f + ": " + bad + "; nothing was added");
        }
        List<ClassPathEntry> entries = new ArrayList<>();
        for (Path f : files) if (add(f, "%jars")) entries.add(new ClassPathEntry(f, "%jars"));
        return new ClassPathChange(
                entries.isEmpty()
                        ? "nothing new on the class path"
                        : "added " + entries.size() + " entr" + (entries.size() == 1 ? "y" : "ies")
                                + " to the class path",
                entries,
                List.of());
    }

    /**
     * A path ({@code ~} for the home directory, {@code $HOME} first as a shell resolves it: {@link KernelSpec#home};
     * relative to the working directory) or a glob of jar files.
     */
    static List<Path> expand(String arg) {
        String s = arg.startsWith("~/") ? KernelSpec.home(System.getenv()) + arg.substring(1) : arg;
        int glob = indexOfGlob(s);
        if (glob < 0) {
            Path f = Path.of(s).toAbsolutePath().normalize();
            if (Files.isDirectory(f)) return List.of(f);
            if (!Files.isRegularFile(f)) throw new MagicUsageException("no such file: " + f);
            if (!f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jar"))
                throw new MagicUsageException("not a jar: " + f);
            return List.of(f);
        }
        int sep = s.lastIndexOf('/', glob);
        Path base = Path.of(sep < 0 ? "." : sep == 0 ? "/" : s.substring(0, sep))
                .toAbsolutePath()
                .normalize();
        String pattern = sep < 0 ? s : s.substring(sep + 1);
        PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        if (!Files.isDirectory(base)) return List.of();
        try (Stream<Path> walk =
                Files.walk(base, pattern.contains("**") || pattern.contains("/") ? Integer.MAX_VALUE : 1)) {
            return walk.filter(Files::isRegularFile)
                    .filter(f ->
                            f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jar"))
                    .filter(f ->
                            m.matches(base.relativize(f)) || (pattern.startsWith("**") && m.matches(f.getFileName())))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Why {@code file} cannot go on the class path, or null: it must open as a zip (a jar that is not one was
     * added before and made every later cell fail in the compiler, {@code starImportScope}, and crashed the REPL).
     */
    static String notAJar(Path file) {
        if (Files.isDirectory(file)) return null;
        try (java.util.zip.ZipFile z = new java.util.zip.ZipFile(file.toFile())) {
            z.size();
            return null;
        } catch (IOException e) {
            return "not a jar (not a valid zip file: " + e.getMessage() + ")";
        }
    }

    /** {@code G:A:EXT[:CLASSIFIER]} of resolved coordinates {@code G:A:EXT[:CLASSIFIER]:VERSION}: the artifact, any version. */
    static String artifactKey(String coordinates) {
        int last = coordinates.lastIndexOf(':');
        return last < 0 ? coordinates : coordinates.substring(0, last);
    }

    private static int indexOfGlob(String s) {
        for (int i = 0; i < s.length(); i++) if ("*?[{".indexOf(s.charAt(i)) >= 0) return i;
        return -1;
    }

    /** Adds one entry to the session (compiler and cells' class loader); false when it was there already. */
    private synchronized boolean add(Path file, String origin) {
        Path f = file.toAbsolutePath().normalize();
        if (added.stream().anyMatch(e -> e.file().equals(f))) return false;
        cells.java().addToClasspath(f);
        added.add(new ClassPathEntry(f, origin));
        return true;
    }

    /**
     * The kernel's own jar of the same artifact, when there is one: the kernel's class loader is the cells'
     * parent, so its copy (perhaps another version) is what cells would see, and adding a second is only confusing.
     */
    private static String onKernelClassPath(Path jar) {
        String name = jar.getFileName().toString();
        int dash = artifactEnd(name);
        if (dash < 0) return null;
        String artifact = name.substring(0, dash + 1);
        for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (e.isBlank()) continue;
            String n = Path.of(e).getFileName().toString();
            if (n.startsWith(artifact) && artifactEnd(n) == dash) return n;
        }
        return null;
    }

    /** The index of the dash before the version in {@code artifact-1.2.3.jar}, or -1. */
    private static int artifactEnd(String jarName) {
        for (int i = 0; i + 1 < jarName.length(); i++) {
            if (jarName.charAt(i) == '-' && Character.isDigit(jarName.charAt(i + 1))) return i;
        }
        return -1;
    }

    private Object classpath(MagicArgs a) {
        a.parse(Set.of(), 0);
        synchronized (this) {
            return new ClassPathChange(
                    added.isEmpty()
                            ? "nothing added to the class path (%maven, %jars)"
                            : added.size() + " class path entr" + (added.size() == 1 ? "y" : "ies") + " added",
                    added,
                    List.of());
        }
    }

    // ---- time and variables ----

    private Object time(String code) {
        if (code.isBlank())
            throw new MagicUsageException("what should be timed? %time CODE, or %%time on a cell's first line");
        long start = System.nanoTime();
        JShellEvaluator.Value v = cells.evalNested(code);
        long nanos = System.nanoTime() - start;
        System.out.println("Wall time: " + duration(nanos));
        return v;
    }

    /** A duration as people read it: 850 µs, 12.3 ms, 1.24 s, 2 min 5.0 s. */
    static String duration(long nanos) {
        double us = nanos / 1e3;
        if (us < 1000) return String.format(Locale.ROOT, "%.0f µs", us);
        double ms = us / 1e3;
        if (ms < 100) return String.format(Locale.ROOT, "%.1f ms", ms);
        if (ms < 1000) return String.format(Locale.ROOT, "%.0f ms", ms);
        double s = ms / 1e3;
        if (s < 60) return String.format(Locale.ROOT, "%.2f s", s);
        long min = (long) (s / 60);
        return String.format(Locale.ROOT, "%d min %.1f s", min, s - 60 * min);
    }

    /** {@code %vars}: one row per variable, in declaration order. */
    private Object vars(MagicArgs a) {
        a.parse(Set.of(), 0);
        List<JShellEvaluator.Variable> vars = cells.java().userVariables();
        return Table.create(
                "variables",
                StringColumn.create(
                        "name",
                        vars.stream().map(JShellEvaluator.Variable::name).toList()),
                StringColumn.create(
                        "type",
                        vars.stream().map(JShellEvaluator.Variable::type).toList()),
                StringColumn.create(
                        "value", vars.stream().map(v -> shortValue(v.value())).toList()));
    }

    static String shortValue(Object v) {
        String s = ReadableValues.text(v).replaceAll("\\s+", " ").strip();
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
