package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A headless command loads none of the notebook's or the benchmarks' libraries, though they sit on the
 * class path (this module's test class path is the product's: kernel, magics, render and all their
 * dependencies): each command runs in a child JVM logging every class it loads ({@code -Xlog:class+load}).
 * The report still draws its chart, so there XChart does load. (The child runs in this JVM's directory, where the
 * upstream data is found as every test finds it.)
 */
class HeadlessClassLoadingTest {
    /** The packages of Tablesaw, XChart (and PDFBox, its dependency), jjava, JMH and JShell. */
    static final List<String> NOTEBOOK_LIBRARIES = List.of(
            "tech.tablesaw.",
            "org.knowm.xchart.",
            "org.apache.pdfbox.",
            "org.dflib.jjava.",
            "org.openjdk.jmh.",
            "jdk.jshell.");

    @TempDir
    Path tmp;

    record Loaded(int code, String out, Set<String> classes) {
        Set<String> of(List<String> packages) {
            Set<String> hit = new TreeSet<>();
            for (String c : classes) for (String p : packages) if (c.startsWith(p)) hit.add(c);
            return hit;
        }
    }

    Loaded run(String name, String... args) throws IOException, InterruptedException {
        Path log = tmp.resolve(name + ".classes"), out = tmp.resolve(name + ".out");
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:file=" + log,
                // C1 and the serial collector, as the kernel runs: a short command needs neither C2 nor G1's threads
                // (compilers and collectors load no application class, so the log is the same)
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-Djava.awt.headless=true",
                "-cp",
                System.getProperty("java.class.path"),
                "brokkr.cli.Main"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        int code = p.waitFor();
        Set<String> classes = new TreeSet<>();
        // a line: "[0.012s][info][class,load] java.lang.Object source: shared objects file"
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            int at = line.indexOf("[class,load] ");
            if (at < 0) continue;
            String rest = line.substring(at + "[class,load] ".length());
            classes.add(rest.contains(" ") ? rest.substring(0, rest.indexOf(' ')) : rest);
        }
        return new Loaded(code, Files.readString(out, StandardCharsets.UTF_8), classes);
    }

    @Test
    void headlessCommandsLoadNoNotebookLibraryAndTheReportStillDrawsItsChart() throws Exception {
        assertTrue(
                System.getProperty("java.class.path").contains("tablesaw")
                        && System.getProperty("java.class.path").contains("xchart"),
                "the libraries are on the class path, so their absence below is the CLI's doing");
        Path spec = Files.writeString(tmp.resolve("loop.yaml"), """
                name: loop-headless
                domain: loop
                tasks: ["7", "8"]
                candidates: [{id: ideal, provider: scripted, model: ideal}]
                repetitions: 2
                """);
        Path dir = tmp.resolve("exp");
        Loaded run = run("run", "experiment", "run", spec.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(0, run.code(), run.out());
        assertTrue(run.out().contains("loop       ideal"), run.out());
        assertEquals(Set.of(), run.of(NOTEBOOK_LIBRARIES), "experiment run");
        assertTrue(
                run.classes().contains("brokkr.render.experiment.ScorecardTables"),
                "the log does list what was loaded");

        Loaded show = run("show", "experiment", "show", dir.toString());
        assertEquals(0, show.code(), show.out());
        assertTrue(show.out().contains("pass^2"), show.out());
        assertEquals(Set.of(), show.of(NOTEBOOK_LIBRARIES), "experiment show");

        for (String format : List.of("csv", "json")) {
            Loaded formatted =
                    run("show-" + format, "experiment", "show", dir.toString(), "--tasks", "--format", format);
            assertEquals(0, formatted.code(), formatted.out());
            assertEquals(Set.of(), formatted.of(NOTEBOOK_LIBRARIES), "experiment show --format " + format);
        }

        Loaded tau2 = run("tau2", "tau2", "run", "--domain", "retail", "--agent", "gold", "--task", "0");
        assertEquals(0, tau2.code(), tau2.out());
        assertEquals(Set.of(), tau2.of(NOTEBOOK_LIBRARIES), "tau2 run");

        Loaded bfcl = run("bfcl", "bfcl", "run", "--agent", "gold", "--sample", "1", "--categories", "simple_python");
        assertEquals(0, bfcl.code(), bfcl.out());
        assertEquals(Set.of(), bfcl.of(NOTEBOOK_LIBRARIES), "bfcl run");

        Loaded help = run("help", "--help");
        assertTrue(help.out().contains("  kernel ") && help.out().contains("  repl "), help.out());
        assertEquals(Set.of(), help.of(NOTEBOOK_LIBRARIES), "--help lists kernel and repl without loading them");

        Loaded report = run("report", "report", dir.toString());
        assertEquals(0, report.code(), report.out());
        String html = Files.readString(dir.resolve("report.html"), StandardCharsets.UTF_8);
        assertTrue(html.contains("<section id=\"passk\">") && html.contains("<svg"), "the pass^k chart, inline SVG");
        assertTrue(report.classes().contains("org.knowm.xchart.XYChart"), "the report draws its chart with XChart");
        assertEquals(
                Set.of(),
                report.of(List.of("tech.tablesaw.", "org.dflib.jjava.", "org.openjdk.jmh.", "jdk.jshell.")),
                "report");
    }
}
