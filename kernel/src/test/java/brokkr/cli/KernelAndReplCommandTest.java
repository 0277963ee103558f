package brokkr.cli;

import brokkr.kernel.MavenFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

class KernelAndReplCommandTest {
    static { System.setProperty("java.awt.headless", "true"); }

    @TempDir Path tmp;

    record Run(int code, String out, String err) {}

    static Run main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test void kernelAndReplAreCommands() {
        String help = main("--help").out();
        assertTrue(help.contains("kernel") && help.contains("repl"), help);
    }

    @Test void kernelInstallUninstallAndUsageErrors() {
        Run install = main("kernel", "install", "--prefix", tmp.toString());
        assertEquals(0, install.code(), install.err());
        assertTrue(Files.isRegularFile(tmp.resolve("share/jupyter/kernels/brokkr/kernel.json")));
        Run uninstall = main("kernel", "uninstall", "--prefix", tmp.toString());
        assertEquals(0, uninstall.code());
        assertFalse(Files.exists(tmp.resolve("share/jupyter/kernels/brokkr")));
        Run bad = main("kernel", "install", "--everywhere");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("unknown option '--everywhere'") && bad.err().contains("usage: ./brokkr kernel install"), bad.err());
        assertEquals(2, main("kernel", "run").code());
        assertEquals(2, main("kernel").code());
    }

    @Test void replRunsJavaAndMagicsFromPipedStdin() throws Exception {
        String script = String.join("\n",
                "%domain load loop",
                "var r = %run --candidate ideal --task 7",
                "r.reward() * 2",
                "for (int i = 0; i < 2; i++) {",
                "  System.out.println(\"line \" + i);",
                "}",
                "var t = Sweeps.sweep(\"loop\", \"depth\", List.of(5, 10), List.of(\"ideal\"));",
                "Sweeps.chart(t, \"tool calls\")",
                "%tasks --bogus",
                "int z = 1 / 0;",
                "%help run",
                "/exit",
                "") ;
        InputStream in = System.in;
        Run run;
        try {
            System.setIn(new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8)));
            run = main("repl", "--charts", tmp.resolve("charts").toString());
        } finally {
            System.setIn(in);
        }
        assertEquals(0, run.code(), run.err());
        String out = run.out();
        assertTrue(out.contains("split standard"), out);
        assertTrue(out.contains("2.0"), out);
        assertTrue(out.contains("line 0") && out.contains("line 1"), out);
        Matcher m = Pattern.compile("chart written to (\\S+\\.png)").matcher(out);
        assertTrue(m.find(), out);
        assertTrue(Files.size(Path.of(m.group(1))) > 1000);
        assertTrue(out.contains("chart written to " + tmp.resolve("charts").toAbsolutePath() + "/chart-1.svg"), out);
        assertTrue(out.contains("%run --candidate C --task ID"), out);
        String err = run.err();
        assertTrue(err.contains("%tasks: unknown option --bogus") && err.contains("usage: %tasks [--split S] [TEXT]"), err);
        assertTrue(err.contains("java.lang.ArithmeticException: / by zero"), err);
        assertFalse(err.contains("\tat jdk.") || err.contains("brokkr.kernel."), err);
    }

    /** %maven in the REPL, with the settings named by -Dbrokkr.maven.settings (as mvn -s): the next line uses the jar. */
    @Test void replAddsMavenArtifactsForTheFollowingLines() throws Exception {
        MavenFixture repo = MavenFixture.create(tmp.resolve("fixture"));
        Path settings = MavenFixture.settings(tmp.resolve("settings.xml"), tmp.resolve("local"), """
                <mirrors><mirror><id>fixture</id><mirrorOf>*</mirrorOf><url>%s</url></mirror></mirrors>"""
                .formatted(repo.remote.toUri()));
        String script = String.join("\n", "%maven " + MavenFixture.LIB, "fixture.Tiny.hello()", "%classpath", "/exit", "");
        InputStream in = System.in;
        String before = System.getProperty("brokkr.maven.settings"), repoLocal = System.getProperty("maven.repo.local");
        Run run;
        try {
            System.setProperty("brokkr.maven.settings", settings.toString());
            System.clearProperty("maven.repo.local");
            System.setIn(new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8)));
            run = main("repl", "--charts", tmp.resolve("charts").toString());
        } finally {
            System.setIn(in);
            restore("brokkr.maven.settings", before);
            restore("maven.repo.local", repoLocal);
        }
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("added 2 jars to the class path"), run.out());
        assertTrue(run.out().contains(MavenFixture.HELLO), run.out());
        assertTrue(run.out().contains("2 class path entries added"), run.out());
        assertTrue(Files.isRegularFile(tmp.resolve("local/dev/brokkr/fixture/tiny-dep/2.0/tiny-dep-2.0.jar")));
        assertEquals("", run.err());
    }

    private static void restore(String property, String value) {
        if (value == null) System.clearProperty(property);
        else System.setProperty(property, value);
    }
}
