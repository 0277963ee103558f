package brokkr.kernel;

import brokkr.data.UpstreamData;
import brokkr.experiment.Registry;
import brokkr.family.BenchmarkFamily;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.imageio.ImageIO;

/**
 * The Jupyter kernelspec: a directory {@code <data dir>/kernels/brokkr} with {@code kernel.json} (argv
 * starting this JVM's java with the launcher's flags on a copy of this class path with {@code
 * {connection_file}}, display name, language, message-mode interrupts, the located data of every benchmark family
 * directories in its environment, since Jupyter starts kernels in the notebook's directory), the class
 * path's jars in {@code lib/} and two logos drawn here, so nothing binary is committed. The copy is what
 * lets the kernel start after {@code mvn clean} or with the Maven cache cleared: kernel.json names no file
 * outside its own directory but java itself (and the data directories).
 */
public final class KernelSpec {
    private KernelSpec() {}

    public static final String NAME = "brokkr";
    public static final String DISPLAY_NAME = "Brokkr (Java 25)";

    /** Where a kernelspec goes: {@code --user}, {@code --sys-prefix} or {@code --prefix DIR}. */
    public sealed interface Location permits User, SysPrefix, Prefix {}

    public record User() implements Location {}

    public record SysPrefix() implements Location {}

    public record Prefix(Path dir) implements Location {}

    /** The kernels directory of a location, as {@code jupyter kernelspec install} resolves it. */
    public static Path kernelsDir(Location where, Map<String, String> env) throws IOException {
        return switch (where) {
            case Prefix p -> p.dir().toAbsolutePath().resolve("share/jupyter/kernels");
            case SysPrefix s -> sysPrefix(env).resolve("share/jupyter/kernels");
            case User u -> userDataDir(env).resolve("kernels");
        };
    }

    static Path userDataDir(Map<String, String> env) {
        if (env.get("JUPYTER_DATA_DIR") != null) return Path.of(env.get("JUPYTER_DATA_DIR"));
        Path home = home(env);
        if (System.getProperty("os.name", "").toLowerCase().contains("mac")) return home.resolve("Library/Jupyter");
        String xdg = env.get("XDG_DATA_HOME");
        return (xdg != null && !xdg.isBlank() ? Path.of(xdg) : home.resolve(".local/share")).resolve("jupyter");
    }

    /**
     * The home directory as Jupyter (and every Python tool) sees it: {@code $HOME} when set, else Java's
     * {@code user.home} (which comes from the password database and ignores {@code HOME}: the two differ
     * under sudo, in containers and wherever HOME is set for a run).
     */
    public static Path home(Map<String, String> env) {
        String h = env.get("HOME");
        return h != null && !h.isBlank() ? Path.of(h) : Path.of(System.getProperty("user.home"));
    }

    /**
     * The prefix of the Python environment whose Jupyter will run the kernel: an active virtualenv or conda
     * env; else {@code sys.prefix} of the interpreter of the {@code jupyter} executable on PATH (its
     * {@code #!} line), which is where {@code jupyter kernelspec install --sys-prefix} installs; else what
     * {@code python3} reports. The first {@code python3} on PATH may be another one (a pyenv shim beside
     * Debian's Jupyter), whose prefix that Jupyter never reads.
     */
    static Path sysPrefix(Map<String, String> env) throws IOException {
        for (String k : List.of("VIRTUAL_ENV", "CONDA_PREFIX"))
            if (env.get(k) != null && !env.get(k).isBlank()) return Path.of(env.get(k));
        List<String> python = jupyterInterpreter(env).orElse(List.of(onPath(env, "python3")));
        List<String> argv = new ArrayList<>(python);
        argv.addAll(List.of("-c", "import sys; print(sys.prefix)"));
        String who = String.join(" ", python);
        try {
            ProcessBuilder b = new ProcessBuilder(argv).redirectErrorStream(true);
            if (env.get("PATH") != null) b.environment().put("PATH", env.get("PATH"));
            Process p = b.start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            if (p.waitFor() == 0 && !out.isEmpty()) return Path.of(out);
            throw new IOException(who + " could not report sys.prefix: " + out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted asking " + who + " for sys.prefix", e);
        }
    }

    /** {@code name} as found on {@code env}'s PATH (the environment given, not this process's), else the bare name. */
    private static String onPath(Map<String, String> env, String name) {
        String path = env.get("PATH");
        if (path != null)
            for (String dir : path.split(java.io.File.pathSeparator))
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name)))
                    return Path.of(dir, name).toString();
        return name;
    }

    /** The interpreter command of the {@code jupyter} executable on {@code env}'s PATH, from its {@code #!} line. */
    static java.util.Optional<List<String>> jupyterInterpreter(Map<String, String> env) {
        String path = env.get("PATH");
        if (path == null) return java.util.Optional.empty();
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path jupyter = Path.of(dir, "jupyter");
            if (!Files.isRegularFile(jupyter) || !Files.isExecutable(jupyter)) continue;
            try (var in = Files.newBufferedReader(jupyter, java.nio.charset.StandardCharsets.ISO_8859_1)) {
                String first = in.readLine();
                if (first == null || !first.startsWith("#!")) return java.util.Optional.empty();
                List<String> words = List.of(first.substring(2).trim().split("\\s+"));
                return words.isEmpty() || words.getFirst().isEmpty()
                        ? java.util.Optional.empty()
                        : java.util.Optional.of(words);
            } catch (IOException e) {
                return java.util.Optional.empty();
            }
        }
        return java.util.Optional.empty();
    }

    /** The project root when running from a source checkout ({@code <root>/kernel/target/classes}), else null. */
    static Path projectRoot() {
        try {
            Path here = Path.of(KernelSpec.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            if (here.endsWith(Path.of("kernel", "target", "classes")))
                return here.getParent().getParent().getParent();
            if (here.getParent() != null && here.getParent().endsWith(Path.of("kernel", "target")))
                return here.getParent().getParent().getParent();
        } catch (Exception ignored) {
            // a jar outside a checkout: no project root
        }
        return null;
    }

    /**
     * The JVM flags the launcher ({@code ./brokkr}) passes as well: sqlite-jdbc loads its native library (JDK 24+
     * warns without native access) and Tablesaw's classgraph calls {@code sun.misc.Unsafe} (JDK 24+ warns unless
     * allowed); without them the warnings land in the first cell that touches either.
     */
    public static final List<String> LAUNCHER_FLAGS =
            List.of("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow");

    /** kernel.json's fields, in Jupyter's order; {@code home} (the checkout, for data lookup) may be null. */
    public static Map<String, Object> kernelJson(
            String javaBin, String classPath, Path cdsArchive, Path home, Map<String, String> env) {
        // C1 only (TieredStopAtLevel=1): a session's first seconds are javac warming up, and C2's compiler threads
        // compete with it for the cores; interactive cells and scripted episodes do not need C2's peak speed
        List<String> argv = new ArrayList<>(
                List.of(javaBin, "-Djava.awt.headless=true", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        argv.addAll(LAUNCHER_FLAGS);
        if (home != null) argv.add("-Dbrokkr.home=" + home);
        if (cdsArchive != null) {
            // start-up: the JVM dumps the classes a session loaded (javac's above all) at its first exit and maps
            // them on later starts; a changed jar invalidates the archive, which is then dumped anew
            argv.addAll(List.of(
                    "-XX:SharedArchiveFile=" + cdsArchive,
                    "-XX:+AutoCreateSharedArchive",
                    "-Xlog:cds*=off",
                    "-Xlog:aot*=off"));
        }
        argv.addAll(List.of(
                "-cp", classPath, "brokkr.cli.Main", "kernel", "run", "--connection-file", "{connection_file}"));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("argv", argv);
        m.put("display_name", DISPLAY_NAME);
        m.put("language", "java");
        m.put("interrupt_mode", "message");
        if (!env.isEmpty()) m.put("env", env);
        m.put("metadata", Map.of("debugger", false));
        return m;
    }

    /** Writes the kernelspec for this JVM and a copy of its class path; returns its directory. */
    public static Path install(Location where, Map<String, String> processEnv) throws IOException {
        Path dir = kernelsDir(where, processEnv).resolve(NAME);
        Files.createDirectories(dir);
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> entries =
                jarClassPath(Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                        .filter(e -> !e.isBlank())
                        .map(e -> Path.of(e).toAbsolutePath())
                        .toList());
        List<Path> copied = copyClassPath(entries.stream().map(Path::of).toList(), dir.resolve(LIB));
        String cp = String.join(
                File.pathSeparator, copied.stream().map(Path::toString).toList());
        Map<String, String> env = new LinkedHashMap<>();
        Path root = projectRoot();
        // Each family's upstream data: its variable as the installing shell has it, else the checkout's ../shared copy.
        for (BenchmarkFamily family : BenchmarkFamily.load()) {
            for (UpstreamData data : family.upstreamData(Registry.process())) {
                String given = processEnv.get(data.envVar());
                Path shared = root == null
                        ? null
                        : root.resolveSibling("shared")
                                .resolve("upstream")
                                .resolve(data.name())
                                .resolve(data.dataRoot());
                if (given != null)
                    env.put(data.envVar(), Path.of(given).toAbsolutePath().toString());
                else if (shared != null && Files.isDirectory(shared))
                    env.put(data.envVar(), shared.normalize().toString());
            }
        }
        Files.deleteIfExists(dir.resolve(CDS_ARCHIVE));
        Files.writeString(
                dir.resolve("kernel.json"),
                Jsonish.write(kernelJson(javaBin, cp, dir.resolve(CDS_ARCHIVE).toAbsolutePath(), root, env)) + "\n");
        Files.write(dir.resolve("logo-32x32.png"), logo(32));
        Files.write(dir.resolve("logo-64x64.png"), logo(64));
        return dir;
    }

    static final String CDS_ARCHIVE = "brokkr-cds.jsa";
    static final String LIB = "lib";

    /**
     * Copies the class path into {@code lib} (emptied first, so a reinstall leaves no stale jar): each jar as
     * it is, each classes directory packed into a jar (class data sharing archives only jars). Returns the
     * copies' absolute paths in class-path order; entries that do not exist are left out, as the JVM ignores them.
     */
    static List<Path> copyClassPath(List<Path> entries, Path lib) throws IOException {
        if (Files.exists(lib)) deleteTree(lib);
        Files.createDirectories(lib);
        List<Path> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Path e : entries) {
            if (Files.isRegularFile(e)) {
                Path to = lib.resolve(unique(names, e.getFileName().toString()));
                Files.copy(e, to, StandardCopyOption.COPY_ATTRIBUTES);
                out.add(to.toAbsolutePath());
            } else if (Files.isDirectory(e)) {
                Path to = lib.resolve(unique(names, directoryJarName(e)));
                jar(e, to);
                out.add(to.toAbsolutePath());
            }
        }
        return out;
    }

    /** {@code <module>/target/classes} is {@code <module>-classes.jar}; any other directory its own name. */
    private static String directoryJarName(Path dir) {
        Path parent = dir.getParent();
        if (parent != null
                && parent.getFileName() != null
                && parent.getFileName().toString().equals("target")
                && parent.getParent() != null) {
            return parent.getParent().getFileName() + "-" + dir.getFileName() + ".jar";
        }
        return dir.getFileName() + ".jar";
    }

    private static String unique(Set<String> taken, String name) {
        String n = name;
        for (int i = 2; !taken.add(n); i++) n = i + "-" + name;
        return n;
    }

    /** A directory's files as a jar, entries in a stable order. */
    private static void jar(Path dir, Path jar) throws IOException {
        try (Stream<Path> s = Files.walk(dir);
                JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Path p : s.filter(x -> !x.equals(dir)).sorted().toList()) {
                String name = dir.relativize(p).toString().replace(File.separatorChar, '/');
                if (Files.isDirectory(p)) {
                    out.putNextEntry(new JarEntry(name + "/"));
                } else {
                    JarEntry entry = new JarEntry(name);
                    entry.setLastModifiedTime(Files.getLastModifiedTime(p));
                    out.putNextEntry(entry);
                    Files.copy(p, out);
                }
                out.closeEntry();
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    /**
     * The class path with each module's {@code target/classes} directory replaced by that module's jar
     * when the build made one: class data sharing archives only jars.
     */
    static List<String> jarClassPath(List<Path> entries) throws IOException {
        List<String> out = new ArrayList<>();
        for (Path e : entries) {
            Path use = e;
            if (Files.isDirectory(e) && e.endsWith(Path.of("target", "classes"))) {
                Path target = e.getParent();
                try (Stream<Path> s = Files.list(target)) {
                    List<Path> jars = s.filter(p -> p.getFileName().toString().matches("brokkr-.*\\.jar")
                                    && !p.getFileName().toString().endsWith("-tests.jar"))
                            .toList();
                    if (jars.size() == 1
                            && Files.getLastModifiedTime(jars.getFirst()).compareTo(newest(e)) >= 0)
                        use = jars.getFirst();
                }
            }
            if (!out.contains(use.toString())) out.add(use.toString());
        }
        return out;
    }

    private static FileTime newest(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .map(p -> {
                        try {
                            return Files.getLastModifiedTime(p);
                        } catch (IOException ex) {
                            throw new UncheckedIOException(ex);
                        }
                    })
                    .max(Comparator.naturalOrder())
                    .orElse(FileTime.fromMillis(0));
        }
    }

    /** Removes the kernelspec; false when there was none. */
    public static boolean uninstall(Location where, Map<String, String> env) throws IOException {
        Path dir = kernelsDir(where, env).resolve(NAME);
        if (!Files.isDirectory(dir)) return false;
        deleteTree(dir);
        return true;
    }

    /** An anvil-dark rounded square with a forge-orange "B": Brokkr, the smith. */
    static byte[] logo(int size) {
        BufferedImage img = new BufferedImage(size, size, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        float arc = size / 4f;
        g.setColor(new Color(0x2B, 0x2D, 0x31));
        g.fill(new RoundRectangle2D.Float(0, 0, size, size, arc, arc));
        g.setColor(new Color(0xF2, 0x8C, 0x28));
        g.setStroke(new BasicStroke(Math.max(1f, size / 24f)));
        g.draw(new RoundRectangle2D.Float(size / 16f, size / 16f, size - size / 8f, size - size / 8f, arc, arc));
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, (int) (size * 0.66)));
        var fm = g.getFontMetrics();
        g.drawString("B", (size - fm.stringWidth("B")) / 2, (size - fm.getHeight()) / 2 + fm.getAscent());
        g.dispose();
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(img, "png", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Minimal JSON writing for kernel.json (strings, lists, maps, booleans): no JSON library on this path. */
    static final class Jsonish {
        static String write(Object o) {
            StringBuilder sb = new StringBuilder();
            write(o, sb, "");
            return sb.toString();
        }

        private static void write(Object o, StringBuilder sb, String indent) {
            switch (o) {
                case String s -> quote(s, sb);
                case Boolean b -> sb.append(b);
                case Number n -> sb.append(n);
                case List<?> l -> {
                    sb.append("[");
                    for (int i = 0; i < l.size(); i++) {
                        sb.append(i == 0 ? "\n" : ",\n").append(indent).append("  ");
                        write(l.get(i), sb, indent + "  ");
                    }
                    sb.append(l.isEmpty() ? "" : "\n" + indent).append("]");
                }
                case Map<?, ?> m -> {
                    sb.append("{");
                    int i = 0;
                    for (var e : m.entrySet()) {
                        sb.append(i++ == 0 ? "\n" : ",\n").append(indent).append("  ");
                        quote(String.valueOf(e.getKey()), sb);
                        sb.append(": ");
                        write(e.getValue(), sb, indent + "  ");
                    }
                    sb.append(m.isEmpty() ? "" : "\n" + indent).append("}");
                }
                default -> throw new IllegalArgumentException("not JSON: " + o);
            }
        }

        private static void quote(String s, StringBuilder sb) {
            sb.append('"');
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    case '\t' -> sb.append("\\t");
                    default -> {
                        if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
                        else sb.append(c);
                    }
                }
            }
            sb.append('"');
        }
    }
}
