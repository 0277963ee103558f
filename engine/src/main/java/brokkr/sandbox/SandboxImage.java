package brokkr.sandbox;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a sandbox JVM starts from: a jar of just the classes it runs ({@link SandboxAgent} and what it
 * uses), so a snippet sees none of the harness's classes, and the JDK's ahead-of-time cache for that jar
 * (JEP 483/514: its classes loaded and linked once, here, instead of in every episode's JVM), made on
 * first use by a training run and kept in a cache folder keyed by the jar's content and the JDK.
 *
 * <p>The cache folder is {@code -Dbrokkr.sandbox.cache}, else {@code $XDG_CACHE_HOME/brokkr/sandbox},
 * else {@code ~/.cache/brokkr/sandbox}. {@code -Dbrokkr.sandbox.aot=false} starts sandboxes without the
 * AOT cache; a JDK that cannot make one (or a failed training run) means the same, with the reason kept
 * in {@link #aotNote()}.
 */
public final class SandboxImage {
    private static final List<String> CLASSES =
            List.of("SandboxAgent", "SandboxWire", "SandboxBridge", "MiniJson", "TypeCheck", "TypeText");
    private static final Pattern OWN =
            Pattern.compile("brokkr/sandbox/(" + String.join("|", CLASSES) + ")(\\$[^/]*)?\\.class");
    private static final SandboxConfig TRAINING =
            new SandboxConfig(256, Duration.ofSeconds(60), 1 << 16, SandboxConfig.Isolation.PROCESS);
    private static SandboxImage image;
    /** The sandbox JVM's module: the agent's classes, their package exported (for the bridge), opened to no one. */
    static final String MODULE = "brokkr.sandbox.agent";

    private final Path dir;
    private final Path jar;
    private final Path aotCache;
    private final String aotNote;

    private SandboxImage(Path dir, Path jar, Path aotCache, String aotNote) {
        this.dir = dir;
        this.jar = jar;
        this.aotCache = aotCache;
        this.aotNote = aotNote;
    }

    /** The folder holding the jar and the cache (mounted read-only into a contained sandbox). */
    public Path dir() {
        return dir;
    }

    /** The sandbox JVM's whole class path. */
    public Path jar() {
        return jar;
    }

    /** The AOT cache, or null when sandboxes start without one. */
    public Path aotCache() {
        return aotCache;
    }

    /** Why there is no AOT cache (null when there is one). */
    public String aotNote() {
        return aotNote;
    }

    /** This image without its AOT cache: sandboxes that load and link their classes themselves. */
    public SandboxImage withoutAotCache() {
        return new SandboxImage(dir, jar, null, "left out on purpose");
    }

    /** The image of this harness's sandbox classes and JDK, made (jar, then AOT cache) on the first call. */
    public static synchronized SandboxImage get() {
        if (image == null) image = make();
        return image;
    }

    private static SandboxImage make() {
        Map<String, byte[]> classes = ownClasses();
        String key = key(classes);
        try {
            return make(cacheRoot().resolve(key), classes);
        } catch (IOException e) {
            // A cache folder that cannot be written (a read-only home): this process's own temporary one.
            try {
                return make(Files.createTempDirectory("brokkr-sandbox-image-").resolve(key), classes);
            } catch (IOException again) {
                throw new UncheckedIOException(
                        "could not write the sandbox image (" + cacheRoot() + ": " + e.getMessage()
                                + "; a temporary folder: " + again.getMessage() + ")",
                        again);
            }
        }
    }

    private static SandboxImage make(Path dir, Map<String, byte[]> classes) throws IOException {
        Files.createDirectories(dir);
        Path jar = dir.resolve("sandbox.jar");
        Path aot = dir.resolve("sandbox.aot");
        try (FileChannel lockFile =
                        FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = lockFile.lock()) { // another harness process may be making the same image
            // The cached jar is compared with the one these classes make (byte for byte: it is small and written
            // deterministically), not trusted for existing: a damaged one failed every episode's sandbox. Rewritten,
            // its AOT cache goes with it (the JDK ties a cache to the jar it was made from).
            byte[] expected = jarBytes(classes);
            if (!Files.exists(jar) || !java.util.Arrays.equals(Files.readAllBytes(jar), expected)) {
                Files.deleteIfExists(aot);
                writeJar(expected, jar);
            }
            if (!Boolean.parseBoolean(System.getProperty("brokkr.sandbox.aot", "true"))) {
                return new SandboxImage(dir, jar, null, "disabled by -Dbrokkr.sandbox.aot=false");
            }
            if (Files.exists(aot)) return new SandboxImage(dir, jar, aot, null);
            String why = train(dir, jar, aot);
            return why == null ? new SandboxImage(dir, jar, aot, null) : new SandboxImage(dir, jar, null, why);
        }
    }

    /**
     * Makes the AOT cache: a sandbox started with {@code -XX:AOTMode=record} evaluates a training script
     * that loads what an episode loads (definitions, tool calls, output, an exception), ends in order, and
     * the JDK then assembles the cache from the record ({@code -XX:AOTMode=create}). Null when it worked,
     * else why not.
     */
    private static String train(Path dir, Path jar, Path aot) {
        Path config = dir.resolve("sandbox.aotconf");
        Path tmp = dir.resolve("sandbox.aot.tmp");
        SandboxImage plain = new SandboxImage(dir, jar, null, "training");
        try {
            List<String> record = List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=" + config);
            try (Sandbox s = Sandbox.start(TRAINING, plain, record)) {
                s.prelude(
                        "class Tools { static String lookup(java.util.Map<String, Object> args) { return brokkr.sandbox.SandboxBridge.call(\"lookup\", args); } }",
                        (name, args) -> "{\"id\": 1, \"items\": [1, 2.5, \"x\", true, null]}");
                Sandbox.CallHandler calls = (name, args) -> "{\"id\": 1, \"items\": [1, 2.5, \"x\", true, null]}";
                for (String code : List.of(
                        "var r = Tools.lookup(brokkr.sandbox.SandboxBridge.map(\"id\", 1)); System.out.println(brokkr.sandbox.SandboxBridge.shape(r)); r.length()",
                        "Object parsed = brokkr.sandbox.SandboxBridge.parse(r); brokkr.sandbox.SandboxBridge.json(parsed)",
                        "int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; } f(1000)",
                        "java.util.List<Integer> xs = new java.util.ArrayList<>(java.util.List.of(3, 1, 2)); java.util.Collections.sort(xs); xs.stream().map(x -> x * 2).toList()",
                        "String.format(\"%s %d\", \"x\", 1) + java.util.Map.of(\"a\", 1)",
                        "Integer.parseInt(\"not a number\")")) {
                    s.evaluate(code, calls);
                }
                if (!s.closeInOrder(Duration.ofSeconds(60))) return "the AOT training run did not end";
            }
            if (!Files.exists(config)) return "the JDK wrote no AOT training record";
            List<String> create = new ArrayList<>(Sandbox.jvmFlags(TRAINING, null));
            create.addAll(List.of("-XX:AOTMode=create", "-XX:AOTConfiguration=" + config, "-XX:AOTCache=" + tmp));
            create.addAll(launch(jar));
            create.addFirst(SandboxRuntime.get().java().toString());
            Process p = new ProcessBuilder(create)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("aot-create.log").toFile())
                    .start();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "making the AOT cache took over 300 s";
            }
            if (p.exitValue() != 0 || !Files.exists(tmp))
                return "the JDK could not make an AOT cache (see " + dir.resolve("aot-create.log") + ")";
            Files.move(tmp, aot, StandardCopyOption.ATOMIC_MOVE);
            return null;
        } catch (IOException | RuntimeException e) {
            return "the AOT training run failed: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while making the AOT cache";
        } finally {
            try {
                Files.deleteIfExists(config);
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                // leftovers of a failed attempt: the next one overwrites them
            }
        }
    }

    static Path cacheRoot() {
        String explicit = System.getProperty("brokkr.sandbox.cache");
        if (explicit != null && !explicit.isBlank()) return Path.of(explicit);
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("brokkr").resolve("sandbox");
    }

    /** The sandbox classes' files by entry name, read from wherever this class was loaded (a jar or a classes folder). */
    private static Map<String, byte[]> ownClasses() {
        Map<String, byte[]> out = new TreeMap<>();
        try {
            Path source = Path.of(SandboxImage.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            if (Files.isDirectory(source)) {
                try (Stream<Path> files = Files.list(source.resolve("brokkr/sandbox"))) {
                    for (Path f : files.toList()) {
                        String name = "brokkr/sandbox/" + f.getFileName();
                        if (OWN.matcher(name).matches()) out.put(name, Files.readAllBytes(f));
                    }
                }
            } else {
                try (JarFile jf = new JarFile(source.toFile())) {
                    for (JarEntry e : jf.stream().toList()) {
                        if (!OWN.matcher(e.getName()).matches()) continue;
                        try (InputStream in = jf.getInputStream(e)) {
                            out.put(e.getName(), in.readAllBytes());
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the sandbox classes: " + e.getMessage(), e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        for (String c : CLASSES) {
            if (!out.containsKey("brokkr/sandbox/" + c + ".class"))
                throw new IllegalStateException("sandbox class " + c + " not found beside " + SandboxImage.class);
        }
        out.put("module-info.class", moduleInfo());
        return out;
    }

    /**
     * The descriptor of {@link #MODULE}, made here (the engine itself is not a module): it exports
     * {@code brokkr.sandbox}, so snippets call {@link SandboxBridge}'s public methods, and opens nothing,
     * so the JDK's strong encapsulation refuses snippet code (JShell's unnamed module) every
     * {@code setAccessible} on the agent's private state (its framer and frame key) and every access to
     * its package-private classes ({@code SandboxWire}).
     *
     * <p>It requires every module {@code --add-modules ALL-DEFAULT} resolves on the sandbox's runtime ({@link
     * #defaultRoots()}), and names its main class: {@link SandboxRuntime} links it into the runtime, whose
     * {@code jlink} then pre-resolves the boot layer for it, so a sandbox JVM started with {@code -m} and no module
     * path skips module resolution (22 ms of its start's CPU, the most of any step: the JDK's archived module graph
     * that would skip it too is off under {@code --illegal-native-access=deny}). The boot layer is the one
     * {@code --add-modules ALL-DEFAULT} made (SandboxTest checks the module names a snippet sees).
     */
    private static byte[] moduleInfo() {
        var pkg = java.lang.constant.PackageDesc.of("brokkr.sandbox");
        return java.lang.classfile.ClassFile.of()
                .buildModule(
                        java.lang.classfile.attribute.ModuleAttribute.of(
                                java.lang.constant.ModuleDesc.of(MODULE), m -> {
                                    m.requires(
                                            java.lang.constant.ModuleDesc.of("java.base"),
                                            java.lang.classfile.ClassFile.ACC_MANDATED,
                                            null);
                                    for (String r : defaultRoots())
                                        if (!r.equals("java.base"))
                                            m.requires(java.lang.constant.ModuleDesc.of(r), 0, null);
                                    m.exports(pkg, 0);
                                }),
                        b -> b.with(java.lang.classfile.attribute.ModulePackagesAttribute.ofNames(pkg))
                                .with(java.lang.classfile.attribute.ModuleMainClassAttribute.of(
                                        java.lang.constant.ClassDesc.of(SandboxAgent.class.getName()))));
    }

    /**
     * The modules {@code --add-modules ALL-DEFAULT} roots on the sandbox's runtime (the JDK's rule, {@code
     * jdk.internal.module.DefaultRoots}): of the runtime's modules ({@link SandboxRuntime#MODULES} and what they
     * require, as {@code jlink} links them), each that exports a package to all (no incubator module is among them),
     * in name order.
     */
    static java.util.SortedSet<String> defaultRoots() {
        var runtime = java.lang.module.Configuration.empty()
                .resolve(
                        java.lang.module.ModuleFinder.ofSystem(),
                        java.lang.module.ModuleFinder.of(),
                        SandboxRuntime.MODULES);
        java.util.SortedSet<String> roots = new java.util.TreeSet<>();
        for (var m : runtime.modules()) {
            var d = m.reference().descriptor();
            if (!d.name().startsWith("jdk.incubator.") && d.exports().stream().anyMatch(e -> !e.isQualified()))
                roots.add(d.name());
        }
        return roots;
    }

    /**
     * How a JVM runs the image: on a runtime that links the agent's module ({@link SandboxRuntime}), that module
     * ({@code -m}); on the JDK itself (it could not link one), the image's jar as the module path and the JDK's
     * default root modules as well (a snippet on the class path saw every API module, {@code java.sql} or {@code
     * java.net.http}).
     */
    static List<String> launch(Path jar) {
        if (SandboxRuntime.get().linksAgent()) return List.of("-m", MODULE);
        return List.of(
                "--module-path",
                jar.toString(),
                "--add-modules",
                "ALL-DEFAULT",
                "-m",
                MODULE + "/" + SandboxAgent.class.getName());
    }

    /** The agent's jar: its classes and {@link #moduleInfo()}, the same bytes every time. */
    static byte[] agentJar() {
        try {
            return jarBytes(ownClasses());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String key(Map<String, byte[]> classes) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (var e : classes.entrySet()) {
                d.update(e.getKey().getBytes(StandardCharsets.UTF_8));
                d.update(e.getValue());
            }
            // The JDK and the sandbox JVM's options (an AOT cache is made for both) are part of the key.
            // (the runtime too: an AOT cache belongs to the runtime it was made on).
            String jvm = System.getProperty("java.home") + "\n" + System.getProperty("java.vm.version") + "\n"
                    + SandboxRuntime.get().home() + "\n"
                    + String.join(" ", Sandbox.jvmFlags(TRAINING, null));
            d.update(jvm.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d.digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The image in {@code dir} (made or repaired there): for tests, which damage a cached image of their own. */
    static SandboxImage makeIn(Path dir) throws IOException {
        return make(dir, ownClasses());
    }

    private static void writeJar(byte[] bytes, Path jar) throws IOException {
        Path tmp = jar.resolveSibling(jar.getFileName() + ".tmp");
        Files.write(tmp, bytes);
        Files.move(tmp, jar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The jar of {@code classes}, the same bytes every time (entries in name order, their times zero). */
    private static byte[] jarBytes(Map<String, byte[]> classes) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream out = new JarOutputStream(bytes)) {
            for (var e : classes.entrySet()) {
                JarEntry entry = new JarEntry(e.getKey());
                entry.setTime(0);
                out.putNextEntry(entry);
                out.write(e.getValue());
                out.closeEntry();
            }
        }
        return bytes.toByteArray();
    }
}
