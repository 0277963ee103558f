package brokkr.kernel;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.magics.Session;
import com.sun.net.httpserver.HttpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code %maven}, {@code %jars} and {@code %classpath} against a Maven repository made by the test
 * ({@link MavenFixture}); the settings point at it as the only repository or mirror, so nothing reaches
 * the network.
 */
class MavenMagicTest {
    @TempDir
    Path tmp;

    static Supplier<MavenDependencies> settings(Path file) {
        return () -> new MavenDependencies(new MavenDependencies.SettingsFiles(file, null, null, null));
    }

    record Cells(JShellEvaluator java, CellEvaluator cells) implements AutoCloseable {
        Object value(String code) {
            JShellEvaluator.Value v = cells.eval(code, o -> {});
            assertTrue(v.present(), "no value for " + code);
            return v.object();
        }

        @Override
        public void close() {
            java.close();
        }
    }

    static Cells cells(Supplier<MavenDependencies> maven) {
        JShellEvaluator java = new JShellEvaluator();
        return new Cells(java, new CellEvaluator(java, new Session(), maven));
    }

    @Test
    void mavenResolvesTransitivelyThroughTheSettingsMirrorAndTheNextCellUsesTheJars() throws Exception {
        MavenFixture repo = MavenFixture.create(tmp.resolve("fixture"));
        Path local = tmp.resolve("local");
        Path settings = MavenFixture.settings(tmp.resolve("settings.xml"), local, """
                <mirrors><mirror><id>fixture</id><mirrorOf>*</mirrorOf><url>%s</url></mirror></mirrors>""".formatted(repo.remote.toUri()));
        try (Cells c = cells(settings(settings))) {
            Object added = c.value("%maven " + MavenFixture.LIB);
            String text = ((KernelMagics.ClassPathChange) added).text();
            assertTrue(text.startsWith("added 2 jars to the class path"), text);
            assertTrue(text.contains("tiny-lib-1.0.jar  (dev.brokkr.fixture:tiny-lib:jar:1.0)"), text);
            assertTrue(text.contains("tiny-dep-2.0.jar  (dev.brokkr.fixture:tiny-dep:jar:2.0, a dependency)"), text);
            // the settings' local repository holds the downloads; the test-scoped dependency was never asked for
            List<String> cached = MavenFixture.files(local);
            assertTrue(cached.contains("dev/brokkr/fixture/tiny-lib/1.0/tiny-lib-1.0.jar"), cached.toString());
            assertTrue(cached.contains("dev/brokkr/fixture/tiny-dep/2.0/tiny-dep-2.0.jar"), cached.toString());
            assertTrue(cached.stream().noneMatch(f -> f.contains("test-only")), cached.toString());

            assertEquals(MavenFixture.HELLO, c.value("fixture.Tiny.hello()"));
            c.cells.eval("import fixture.dep.TinyDep;", o -> {});
            assertEquals("2.0", c.value("TinyDep.version()"));

            // again: nothing new; %classpath lists both, in order, with what brought them
            assertTrue(((KernelMagics.ClassPathChange) c.value("%maven " + MavenFixture.LIB))
                    .text()
                    .startsWith("nothing new"));
            String cp = ((KernelMagics.ClassPathChange) c.value("%classpath")).text();
            assertTrue(cp.startsWith("2 class path entries added"), cp);
            assertTrue(cp.indexOf("tiny-lib-1.0.jar") < cp.indexOf("tiny-dep-2.0.jar"), cp);
        }
    }

    @Test
    void magicsFindTheAddedJarsThroughTheirContextClassLoader() throws Exception {
        MavenFixture repo = MavenFixture.create(tmp.resolve("fixture"));
        Path settings = MavenFixture.settings(
                tmp.resolve("settings.xml"), tmp.resolve("local"), """
                <mirrors><mirror><id>fixture</id><mirrorOf>*</mirrorOf><url>%s</url></mirror></mirrors>""".formatted(repo.remote.toUri()));
        try (Cells c = cells(settings(settings))) {
            c.cells
                    .session()
                    .magics()
                    .line(
                            "probe",
                            "%probe",
                            "test: calls fixture.Tiny.hello through the context class loader",
                            (session, a) -> Class.forName(
                                            "fixture.Tiny",
                                            true,
                                            Thread.currentThread().getContextClassLoader())
                                    .getMethod("hello")
                                    .invoke(null));
            c.value("%maven " + MavenFixture.LIB);
            assertEquals(MavenFixture.HELLO, c.value("%probe"));
        }
    }

    @Test
    void activeProfileRepositoriesAndServerCredentialsAreUsed() throws Exception {
        MavenFixture repo = MavenFixture.create(tmp.resolve("fixture"));
        HttpServer server = repo.serve("reader", "s3cret");
        try {
            String central = "<mirrors><mirror><id>no-central</id><mirrorOf>central</mirrorOf><url>"
                    + tmp.resolve("empty").toUri() + "</url></mirror></mirrors>";
            String profile = """
                    <profiles><profile><id>fixture</id>
                      <repositories><repository><id>fixture-http</id><url>%s</url></repository></repositories>
                    </profile></profiles>
                    <activeProfiles><activeProfile>fixture</activeProfile></activeProfiles>""".formatted(MavenFixture.url(server));
            Path good = MavenFixture.settings(
                    tmp.resolve("good.xml"),
                    tmp.resolve("local-good"),
                    central + profile
                            + "<servers><server><id>fixture-http</id><username>reader</username><password>s3cret</password></server></servers>");
            try (Cells c = cells(settings(good))) {
                assertEquals(
                        List.of("fixture-http", "central"),
                        settings(good).get().repositories().stream()
                                .map(r -> r.getId())
                                .toList());
                c.value("%maven " + MavenFixture.LIB);
                assertEquals(MavenFixture.HELLO, c.value("fixture.Tiny.hello()"));
            }
            Path bad = MavenFixture.settings(
                    tmp.resolve("bad.xml"),
                    tmp.resolve("local-bad"),
                    central + profile
                            + "<servers><server><id>fixture-http</id><username>reader</username><password>wrong</password></server></servers>");
            try (Cells c = cells(settings(bad))) {
                CellException e =
                        assertThrows(CellException.class, () -> c.cells.eval("%maven " + MavenFixture.LIB, o -> {}));
                assertEquals("DependencyResolutionError", e.ename());
                assertTrue(
                        e.evalue().contains("dev.brokkr.fixture:tiny-lib")
                                && e.evalue().contains("fixture-http"),
                        e.evalue());
                assertFalse(e.evalue().contains("wrong"), "a password is never shown: " + e.evalue());
                assertFalse(
                        String.join("\n", e.traceback()).contains("\tat "), "no stack trace for a resolution error");
            }
        } finally {
            server.stop(0);
        }
    }

    @Test
    void jarsAddsFilesAndGlobsAndBadArgumentsAreUsageErrors() throws Exception {
        MavenFixture repo = MavenFixture.create(tmp.resolve("fixture"));
        Path libs = Files.createDirectories(tmp.resolve("libs/nested"));
        Path group = repo.remote.resolve("dev/brokkr/fixture");
        Files.copy(group.resolve("tiny-lib/1.0/tiny-lib-1.0.jar"), tmp.resolve("libs/tiny-lib-1.0.jar"));
        Files.copy(group.resolve("tiny-dep/2.0/tiny-dep-2.0.jar"), libs.resolve("tiny-dep-2.0.jar"));
        Files.writeString(tmp.resolve("libs/readme.txt"), "not a jar");
        try (Cells c = cells(settings(tmp.resolve("none.xml")))) {
            String one = ((KernelMagics.ClassPathChange) c.value("%jars " + tmp.resolve("libs") + "/*.jar")).text();
            assertTrue(one.startsWith("added 1 entry") && one.contains("tiny-lib-1.0.jar"), one);
            String deep = ((KernelMagics.ClassPathChange) c.value("%jars " + tmp.resolve("libs") + "/**.jar")).text();
            assertTrue(deep.startsWith("added 1 entry") && deep.contains("tiny-dep-2.0.jar"), deep);
            assertEquals(MavenFixture.HELLO, c.value("fixture.Tiny.hello()"));
            List<String> errors = new ArrayList<>();
            for (String bad : List.of(
                    "%jars",
                    "%jars " + tmp.resolve("libs/readme.txt"),
                    "%jars " + tmp.resolve("nope") + "/*.jar",
                    "%jars " + tmp.resolve("missing.jar"),
                    "%maven",
                    "%maven not-coordinates")) {
                CellException e = assertThrows(CellException.class, () -> c.cells.eval(bad, o -> {}), bad);
                assertEquals(CellException.Kind.USAGE, e.kind(), bad);
                errors.add(e.evalue());
            }
            assertTrue(errors.get(1).contains("not a jar"), errors.get(1));
            assertTrue(errors.get(2).contains("no jar matches"), errors.get(2));
            assertTrue(errors.get(3).contains("no such file"), errors.get(3));
            assertTrue(errors.get(5).contains("'not-coordinates' is not Maven coordinates"), errors.get(5));
        }
    }

    @Test
    void settingsFilesFollowMavensConventions() {
        Properties p = new Properties();
        p.setProperty("user.home", "/home/u");
        MavenDependencies.SettingsFiles f = MavenDependencies.settingsFiles(Map.of("MAVEN_HOME", "/opt/maven"), p);
        assertEquals(Path.of("/home/u/.m2/settings.xml"), f.user());
        assertEquals(Path.of("/opt/maven/conf/settings.xml"), f.global());
        assertEquals(Path.of("/home/u/.m2/settings-security.xml"), f.security());
        assertNull(f.localRepositoryOverride());
        p.setProperty("brokkr.maven.settings", "/tmp/s.xml");
        p.setProperty("maven.repo.local", "/tmp/repo");
        f = MavenDependencies.settingsFiles(Map.of(), p);
        assertEquals(Path.of("/tmp/s.xml"), f.user());
        assertNull(f.global());
        assertEquals("/tmp/repo", f.localRepositoryOverride());
        // no settings file at all: ~/.m2/repository and Maven Central, as mvn
        MavenDependencies none = new MavenDependencies(
                new MavenDependencies.SettingsFiles(Path.of("/nonexistent/settings.xml"), null, null, null));
        assertEquals(Path.of(System.getProperty("user.home"), ".m2", "repository"), none.localRepository());
        assertEquals(
                List.of(MavenDependencies.CENTRAL_URL),
                none.repositories().stream().map(r -> r.getUrl()).toList());
    }

    /**
     * Issue 31 item 11: a second version of an artifact on the class path (before: commons-text after lang3
     * 3.17.0 silently added lang3 3.14.0 beside it) is not added, and the conflict is said.
     */
    @Test
    void oneVersionPerArtifactAndTheConflictIsReported() throws Exception {
        MavenFixture repo = MavenFixture.create(tmp.resolve("fixture"));
        repo.publish("tiny-dep", "1.0", "", MavenFixture.jar("old-dep.txt"), null);
        repo.publish("tiny-other", "1.0", """
                <dependencies>
                  <dependency><groupId>dev.brokkr.fixture</groupId><artifactId>tiny-dep</artifactId><version>1.0</version></dependency>
                </dependencies>""", MavenFixture.jar("other.txt"), null);
        Path settings = MavenFixture.settings(
                tmp.resolve("settings.xml"), tmp.resolve("local"), """
                <mirrors><mirror><id>fixture</id><mirrorOf>*</mirrorOf><url>%s</url></mirror></mirrors>""".formatted(repo.remote.toUri()));
        try (Cells c = cells(settings(settings))) {
            c.value("%maven " + MavenFixture.LIB); // tiny-dep 2.0 comes with it
            String text =
                    ((KernelMagics.ClassPathChange) c.value("%maven " + MavenFixture.GROUP + ":tiny-other:1.0")).text();
            assertTrue(text.startsWith("added 1 jar to the class path"), text);
            assertTrue(
                    text.contains("version conflict: dev.brokkr.fixture:tiny-dep:jar:1.0 (a dependency) not added,"
                            + " dev.brokkr.fixture:tiny-dep:jar:2.0 is on the class path already"),
                    text);
            String cp = ((KernelMagics.ClassPathChange) c.value("%classpath")).text();
            assertFalse(cp.contains("tiny-dep-1.0.jar"), cp);
            assertTrue(cp.contains("tiny-dep-2.0.jar"), cp);
        }
    }

    /**
     * Issue 30 item 11: a jar that is not a valid zip is refused before anything is added (before: added, and
     * every later cell failed in the compiler); a download whose checksum does not match is said (before: silent).
     */
    @Test
    void aJarThatIsNoZipIsRefusedAndAChecksumMismatchIsSaid() throws Exception {
        MavenFixture repo = MavenFixture.create(tmp.resolve("fixture"));
        repo.publish("not-a-zip", "1.0", "", "this is no zip".getBytes(java.nio.charset.StandardCharsets.UTF_8), null);
        repo.publish("tampered", "1.0", "", MavenFixture.jar("t.txt"), "0000000000000000000000000000000000000000");
        Path settings = MavenFixture.settings(
                tmp.resolve("settings.xml"), tmp.resolve("local"), """
                <mirrors><mirror><id>fixture</id><mirrorOf>*</mirrorOf><url>%s</url></mirror></mirrors>""".formatted(repo.remote.toUri()));
        Path bogus = Files.writeString(tmp.resolve("bogus.jar"), "not a zip either");
        try (Cells c = cells(settings(settings))) {
            CellException jars = assertThrows(CellException.class, () -> c.cells.eval("%jars " + bogus, o -> {}));
            assertTrue(jars.getMessage().contains("not a jar (not a valid zip file"), jars.getMessage());
            CellException maven = assertThrows(
                    CellException.class,
                    () -> c.cells.eval("%maven " + MavenFixture.GROUP + ":not-a-zip:1.0", o -> {}));
            assertTrue(maven.getMessage().contains("not-a-zip:jar:1.0: not a jar"), maven.getMessage());
            assertTrue(((KernelMagics.ClassPathChange) c.value("%classpath"))
                    .text()
                    .startsWith("nothing added"));
            // The session still works.
            assertEquals(3, c.value("1 + 2"));
            java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
            java.io.PrintStream was = System.out;
            System.setOut(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8));
            try {
                c.value("%maven " + MavenFixture.GROUP + ":tampered:1.0");
            } finally {
                System.setOut(was);
            }
            String said = log.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(said.contains("warning: checksum mismatch for tampered-1.0.jar"), said);
        }
    }
}
