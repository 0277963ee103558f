package brokkr.kernel;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A Maven repository made on disk for a test, laid out as Maven lays one out (poms, jars, SHA-1 files):
 * {@code dev.brokkr.fixture:tiny-lib:1.0} (class {@code fixture.Tiny}) depends on
 * {@code dev.brokkr.fixture:tiny-dep:2.0} (class {@code fixture.dep.TinyDep}) at compile scope, and on
 * {@code dev.brokkr.fixture:test-only:9} at test scope, which the repository does not have: resolving
 * the runtime class path must not ask for it. Optionally served over loopback HTTP with Basic
 * authentication, to check that the settings' server credentials are used.
 */
public final class MavenFixture {
    public static final String GROUP = "dev.brokkr.fixture";
    public static final String LIB = GROUP + ":tiny-lib:1.0";
    public static final String HELLO = "hello from tiny-lib and tiny-dep 2.0";

    public final Path remote;

    private MavenFixture(Path remote) {
        this.remote = remote;
    }

    public static MavenFixture create(Path dir) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.createDirectories(src.resolve("fixture/dep"));
        Files.writeString(
                src.resolve("fixture/dep/TinyDep.java"),
                "package fixture.dep; public final class TinyDep { public static String version() { return \"2.0\"; } }");
        Files.writeString(
                src.resolve("fixture/Tiny.java"),
                "package fixture; public final class Tiny { public static String hello() {"
                        + " return \"hello from tiny-lib and tiny-dep \" + fixture.dep.TinyDep.version(); } }");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diag = new ByteArrayOutputStream();
        int rc = javac.run(
                null,
                diag,
                diag,
                "-d",
                classes.toString(),
                src.resolve("fixture/dep/TinyDep.java").toString(),
                src.resolve("fixture/Tiny.java").toString());
        if (rc != 0) throw new IllegalStateException("fixture does not compile: " + diag);

        Path remote = Files.createDirectories(dir.resolve("remote"));
        publish(remote, "tiny-dep", "2.0", pom("tiny-dep", "2.0", ""), classes, "fixture/dep/TinyDep.class");
        publish(remote, "tiny-lib", "1.0", pom("tiny-lib", "1.0", """
                <dependencies>
                  <dependency><groupId>dev.brokkr.fixture</groupId><artifactId>tiny-dep</artifactId><version>2.0</version></dependency>
                  <dependency><groupId>dev.brokkr.fixture</groupId><artifactId>test-only</artifactId><version>9</version><scope>test</scope></dependency>
                </dependencies>"""), classes, "fixture/Tiny.class");
        return new MavenFixture(remote);
    }

    private static String pom(String artifact, String version, String dependencies) {
        return """
               <?xml version="1.0" encoding="UTF-8"?>
               <project xmlns="http://maven.apache.org/POM/4.0.0">
                 <modelVersion>4.0.0</modelVersion>
                 <groupId>dev.brokkr.fixture</groupId><artifactId>%s</artifactId><version>%s</version>
                 %s
               </project>
               """.formatted(artifact, version, dependencies);
    }

    private static void publish(Path repo, String artifact, String version, String pom, Path classes, String classFile)
            throws IOException {
        Path dir = Files.createDirectories(
                repo.resolve(GROUP.replace('.', '/')).resolve(artifact).resolve(version));
        String base = artifact + "-" + version;
        writeWithSha1(dir.resolve(base + ".pom"), pom.getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream jar = new ByteArrayOutputStream();
        try (JarOutputStream out = new JarOutputStream(jar)) {
            out.putNextEntry(new JarEntry(classFile));
            out.write(Files.readAllBytes(classes.resolve(classFile)));
            out.closeEntry();
        }
        writeWithSha1(dir.resolve(base + ".jar"), jar.toByteArray());
    }

    /**
     * Publishes {@code artifact:version} of the fixture's group into this repository with a jar of the given
     * bytes and the POM's {@code dependencies}; {@code sha1} the checksum file's text, null for the right one.
     */
    public void publish(String artifact, String version, String dependencies, byte[] jar, String sha1)
            throws IOException {
        Path dir = Files.createDirectories(
                remote.resolve(GROUP.replace('.', '/')).resolve(artifact).resolve(version));
        String base = artifact + "-" + version;
        writeWithSha1(
                dir.resolve(base + ".pom"), pom(artifact, version, dependencies).getBytes(StandardCharsets.UTF_8));
        writeWithSha1(dir.resolve(base + ".jar"), jar);
        if (sha1 != null) Files.writeString(dir.resolve(base + ".jar.sha1"), sha1);
    }

    /** A jar (a valid zip) holding one text entry. */
    public static byte[] jar(String entry) throws IOException {
        ByteArrayOutputStream jar = new ByteArrayOutputStream();
        try (JarOutputStream out = new JarOutputStream(jar)) {
            out.putNextEntry(new JarEntry(entry));
            out.write(entry.getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar.toByteArray();
    }

    private static void writeWithSha1(Path file, byte[] bytes) throws IOException {
        Files.write(file, bytes);
        try {
            String sha1 =
                    HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
            Files.writeString(file.resolveSibling(file.getFileName() + ".sha1"), sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A settings.xml with the local repository {@code local} and {@code body} (mirrors, servers, profiles). */
    public static Path settings(Path file, Path local, String body) throws IOException {
        Files.writeString(file, """
                <settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">
                  <localRepository>%s</localRepository>
                  %s
                </settings>
                """.formatted(local, body));
        return file;
    }

    /** The repository over HTTP on loopback, answering 401 without {@code user:password} Basic credentials. */
    public HttpServer serve(String user, String password) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        String expected =
                "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        server.createContext("/repo/", exchange -> {
            try (exchange) {
                if (!expected.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                    exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"fixture\"");
                    exchange.sendResponseHeaders(401, -1);
                    return;
                }
                Path f = remote.resolve(exchange.getRequestURI().getPath().substring("/repo/".length()))
                        .normalize();
                if (!f.startsWith(remote) || !Files.isRegularFile(f)) {
                    exchange.sendResponseHeaders(404, -1);
                    return;
                }
                byte[] body = Files.readAllBytes(f);
                boolean head = exchange.getRequestMethod().equals("HEAD");
                exchange.sendResponseHeaders(200, head ? -1 : body.length);
                if (!head)
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(body);
                    }
            }
        });
        server.start();
        return server;
    }

    public static String url(HttpServer server) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/repo/";
    }

    /** Files under {@code dir}, relative, sorted. */
    public static List<String> files(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .map(p -> dir.relativize(p).toString())
                    .sorted()
                    .toList();
        }
    }
}
