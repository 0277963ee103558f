package brokkr.sandbox;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

/**
 * The Java runtime sandbox JVMs run on: this JDK linked ({@code jlink}, once per JDK, into the sandbox
 * cache folder) down to the modules a snippet may use, without {@code jdk.management} and the JDK's
 * other diagnostic modules. With them, a snippet could dump its JVM's heap into its scratch folder
 * ({@code HotSpotDiagnosticMXBean.dumpHeap}, which the JDK binds in whenever {@code java.management} is
 * resolved) and read the frame key out of it; {@code --limit-modules} would keep them out too, but the
 * JDK makes no AOT cache with that option.
 *
 * <p>The sandbox agent's own module ({@link SandboxImage#MODULE}) is linked in as well, so a sandbox JVM starts
 * from a boot layer {@code jlink} resolved ahead ({@link SandboxImage#launch}): a runtime per JDK and agent build
 * (its classes are part of the key).
 *
 * <p>A JDK that cannot link (no {@code jlink}, a failure) means sandboxes run on the JDK itself, with
 * the reason in {@link #note()} and a warning once per harness process.
 *
 * @param home the runtime's {@code java.home}
 * @param note why sandboxes run on the full JDK (null when they run on the linked runtime)
 */
record SandboxRuntime(Path home, String note) {
    /**
     * The Java SE modules and the JDK's API and service modules a snippet on the class path used to
     * see (locale data, charsets, the zip file system, an HTTP server...), without the diagnostic ones
     * ({@code jdk.management}, {@code jdk.jfr}, {@code jdk.jcmd}, {@code jdk.attach}'s tools).
     */
    static final List<String> MODULES = List.of(
            "java.se",
            "jdk.jshell",
            "jdk.charsets",
            "jdk.localedata",
            "jdk.zipfs",
            "jdk.unsupported",
            "jdk.net",
            "jdk.httpserver",
            "jdk.xml.dom",
            "jdk.naming.dns");

    private static SandboxRuntime runtime;

    /** The runtime for this JDK, linked on the first call of any harness process on this machine. */
    static synchronized SandboxRuntime get() {
        if (runtime == null) {
            runtime = make();
            if (runtime.note() != null)
                System.getLogger("brokkr.sandbox")
                        .log(
                                System.Logger.Level.WARNING,
                                "sandboxes run on the full JDK (" + runtime.note()
                                        + "): a snippet can dump its JVM's heap, and the frame key with it");
        }
        return runtime;
    }

    /** Whether this runtime holds the agent's module (else it is the JDK itself, and the agent's jar is the module path). */
    boolean linksAgent() {
        return note == null;
    }

    /** The runtime's java launcher. */
    Path java() {
        return home.resolve("bin").resolve("java");
    }

    private static SandboxRuntime make() {
        Path jdk = Path.of(System.getProperty("java.home"));
        ToolProvider jlink = ToolProvider.findFirst("jlink").orElse(null);
        if (jlink == null) return new SandboxRuntime(jdk, "this JDK has no jlink");
        byte[] agent = SandboxImage.agentJar();
        Path dir = SandboxImage.cacheRoot().resolve("runtime-" + key(jdk, agent));
        try {
            Files.createDirectories(dir.getParent());
            try (FileChannel lockFile = FileChannel.open(
                            dir.resolveSibling(dir.getFileName() + ".lock"),
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE);
                    FileLock lock = lockFile.lock()) { // another harness process may be linking the same runtime
                // Moved into place whole, so a runtime folder that exists is complete.
                if (Files.isExecutable(dir.resolve("bin/java"))) return new SandboxRuntime(dir, null);
                Path tmp = dir.resolveSibling(dir.getFileName() + ".tmp");
                delete(tmp);
                Path agentJar = dir.resolveSibling(dir.getFileName() + ".agent.jar");
                Files.write(agentJar, agent);
                StringWriter log = new StringWriter();
                PrintWriter pw = new PrintWriter(log);
                int status = jlink.run(
                        pw,
                        pw,
                        "--module-path",
                        agentJar.toString(),
                        "--add-modules",
                        String.join(",", MODULES) + "," + SandboxImage.MODULE,
                        "--output",
                        tmp.toString(),
                        "--no-header-files",
                        "--no-man-pages",
                        // The JDK's default CDS archive, which a linked runtime lacks otherwise: a sandbox without the
                        // AOT cache (and the AOT training run) started some 50 ms of CPU slower.
                        "--generate-cds-archive");
                pw.flush();
                Files.deleteIfExists(agentJar);
                if (status != 0) {
                    delete(tmp);
                    String why = log.toString().strip();
                    return new SandboxRuntime(jdk, "jlink failed: " + why.substring(0, Math.min(500, why.length())));
                }
                Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
                return new SandboxRuntime(dir, null);
            }
        } catch (IOException | RuntimeException e) {
            return new SandboxRuntime(jdk, "could not link a runtime in " + dir + ": " + e.getMessage());
        }
    }

    private static String key(Path jdk, byte[] agent) {
        try {
            String what =
                    jdk + "\n" + System.getProperty("java.vm.version") + "\n" + String.join(",", MODULES) + "\ncds";
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(what.getBytes(StandardCharsets.UTF_8));
            d.update(agent);
            return HexFormat.of().formatHex(d.digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void delete(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path f : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(f);
        }
    }
}
