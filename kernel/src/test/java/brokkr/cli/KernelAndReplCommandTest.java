package brokkr.cli;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.kernel.MavenFixture;
import brokkr.kernel.ReplCommand;
import brokkr.kernel.TerminalTable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class KernelAndReplCommandTest {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {}

    static Run main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void kernelAndReplAreCommands() {
        String help = main("--help").out();
        assertTrue(help.contains("kernel") && help.contains("repl"), help);
    }

    @Test
    void kernelInstallUninstallAndUsageErrors() {
        Run install = main("kernel", "install", "--prefix", tmp.toString());
        assertEquals(0, install.code(), install.err());
        assertTrue(Files.isRegularFile(tmp.resolve("share/jupyter/kernels/brokkr/kernel.json")));
        Run uninstall = main("kernel", "uninstall", "--prefix", tmp.toString());
        assertEquals(0, uninstall.code());
        assertFalse(Files.exists(tmp.resolve("share/jupyter/kernels/brokkr")));
        Run bad = main("kernel", "install", "--everywhere");
        assertEquals(2, bad.code());
        assertTrue(
                bad.err().contains("unknown option '--everywhere'")
                        && bad.err().contains("usage: ./brokkr kernel install"),
                bad.err());
        assertEquals(2, main("kernel", "run").code());
        assertEquals(2, main("kernel").code());
    }

    @Test
    void replRunsJavaAndMagicsFromPipedStdin() throws Exception {
        String script = String.join(
                "\n",
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
                "");
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
        Path svg = tmp.resolve("charts").toAbsolutePath().resolve("loop-sweep-tool-calls-by-depth-1.svg");
        assertTrue(out.contains("chart written to " + svg), out);
        assertTrue(out.contains("%run --task ID --candidate C|PROVIDER:MODEL"), out);
        String err = run.err();
        assertTrue(
                err.contains("%tasks: unknown option --bogus") && err.contains("usage: %tasks [--split S] [TEXT]"),
                err);
        assertTrue(err.contains("java.lang.ArithmeticException: / by zero"), err);
        assertFalse(err.contains("\tat jdk.") || err.contains("brokkr.kernel."), err);
    }

    /** %maven in the REPL, with the settings named by -Dbrokkr.maven.settings (as mvn -s): the next line uses the jar. */
    @Test
    void replAddsMavenArtifactsForTheFollowingLines() throws Exception {
        MavenFixture repo = MavenFixture.create(tmp.resolve("fixture"));
        Path settings = MavenFixture.settings(
                tmp.resolve("settings.xml"), tmp.resolve("local"), """
                <mirrors><mirror><id>fixture</id><mirrorOf>*</mirrorOf><url>%s</url></mirror></mirrors>""".formatted(repo.remote.toUri()));
        String script =
                String.join("\n", "%maven " + MavenFixture.LIB, "fixture.Tiny.hello()", "%classpath", "/exit", "");
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

    /** Runs the REPL on piped lines with the given environment. */
    Run repl(Map<String, String> env, String script, String... args) throws Exception {
        InputStream in = System.in;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        try {
            System.setIn(new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8)));
            int code = new ReplCommand(env)
                    .run(
                            List.of(args),
                            new PrintStream(out, true, StandardCharsets.UTF_8),
                            new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setIn(in);
        }
    }

    @Test
    void chartFilesAreNeverOverwrittenAcrossSessions() throws Exception {
        String script =
                "var t = Sweeps.sweep(\"loop\", \"depth\", List.of(5, 10), List.of(\"ideal\"));\nSweeps.chart(t, \"tool calls\")\n"
                        + "Sweeps.chart(t, \"tool calls\")\n/exit\n";
        Path charts = tmp.resolve("charts");
        Run first = repl(Map.of(), script, "--charts", charts.toString());
        assertEquals(0, first.code(), first.err());
        Path one = charts.toAbsolutePath().resolve("loop-sweep-tool-calls-by-depth-1.png");
        assertTrue(first.out().contains("chart written to " + one), first.out());
        assertTrue(
                first.out()
                        .contains("chart written to "
                                + charts.toAbsolutePath().resolve("loop-sweep-tool-calls-by-depth-2.svg")),
                first.out());
        byte[] before = Files.readAllBytes(one);
        Files.setLastModifiedTime(one, FileTime.fromMillis(0));
        Run second = repl(Map.of(), script, "--charts", charts.toString());
        assertEquals(0, second.code(), second.err());
        assertTrue(
                second.out().contains("loop-sweep-tool-calls-by-depth-3.png")
                        && second.out().contains("loop-sweep-tool-calls-by-depth-4.svg"),
                second.out());
        assertArrayEquals(before, Files.readAllBytes(one));
        assertEquals(0, Files.getLastModifiedTime(one).toMillis(), "the first session's chart was rewritten");
        assertEquals(
                8, MavenFixture.files(charts).size(), MavenFixture.files(charts).toString());
    }

    /** Lines typed in one session are in the next one's history (what /history lists; Ctrl-P and Ctrl-R use it on a terminal). */
    @Test
    void historyIsKeptAcrossSessions() throws Exception {
        Path history = tmp.resolve("state/repl-history");
        Run first = repl(Map.of(), "int fromTheFirstSession = 41;\n/exit\n", "--history", history.toString());
        assertEquals(0, first.code(), first.err());
        assertTrue(Files.readString(history).contains("int fromTheFirstSession = 41;"), Files.readString(history));
        assertFalse(Files.readString(history).contains("/exit"), "leaving is not worth remembering");
        Run second = repl(Map.of(), "String inTheSecond = \"2\";\n/history\n/exit\n", "--history", history.toString());
        assertEquals(0, second.code(), second.err());
        assertTrue(
                second.out().contains("    1  int fromTheFirstSession = 41;\n    2  String inTheSecond = \"2\";\n"),
                second.out());
        List<String> lines = Files.readAllLines(history);
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(
                lines.get(0).endsWith("int fromTheFirstSession = 41;")
                        && lines.get(1).endsWith("String inTheSecond = \"2\";"),
                lines.toString());
        Run piped = repl(Map.of(), "int notRecorded = 1;\n/exit\n");
        assertEquals(0, piped.code(), piped.err());
        assertEquals(
                lines,
                Files.readAllLines(history),
                "piped input without --history is not recorded (and not in this file)");
        Path xdg = ReplCommand.defaultHistory(Map.of("XDG_CACHE_HOME", "/x/cache"));
        assertEquals(Path.of("/x/cache/brokkr/repl-history"), xdg);
        assertEquals(
                Path.of(System.getProperty("user.home"), ".cache/brokkr/repl-history"),
                ReplCommand.defaultHistory(Map.of()));
    }

    /** A cell magic's indented lines are history like any other (JLine leaves out lines starting with a space by default); exit and quit leave. */
    @Test
    void indentedLinesAreKeptInHistoryAndExitOrQuitLeave() throws Exception {
        Path history = tmp.resolve("indent-history");
        String script = "%%time\n  int indented = 1;\n\nquit\nint never = 2;\n";
        Run run = repl(Map.of(), script, "--history", history.toString());
        assertEquals(0, run.code(), run.err());
        List<String> lines = Files.readAllLines(history);
        assertTrue(lines.stream().anyMatch(l -> l.endsWith("  int indented = 1;")), lines.toString());
        assertFalse(lines.stream().anyMatch(l -> l.contains("never") || l.endsWith("quit")), lines.toString());
        Run exit = repl(Map.of(), "exit\nint never = 2;\nnever\n");
        assertEquals(0, exit.code(), exit.err());
        assertFalse(exit.out().contains("2"), "exit left before the next line: " + exit.out());
    }

    @Test
    void tablesFitTheTerminalWidth() throws Exception {
        String script = "%domain load tau2-retail\n%tasks --split test\n/exit\n";
        Run narrow = repl(Map.of("COLUMNS", "72"), script);
        assertEquals(0, narrow.code(), narrow.err());
        List<String> lines = narrow.out().lines().toList();
        assertTrue(
                lines.stream().allMatch(l -> l.length() <= 72),
                lines.stream().filter(l -> l.length() > 72).toList().toString());
        assertTrue(
                lines.stream()
                        .anyMatch(l -> l.startsWith("5    test,base  You want") && l.contains("…") && l.endsWith("5")),
                narrow.out());
        assertTrue(lines.contains("tau2-retail tasks"), narrow.out());
        Run wide = repl(Map.of(), script);
        assertTrue(
                wide.out().lines().anyMatch(l -> l.length() > 120)
                        && !wide.out().contains("…"),
                "no terminal: nothing is cut");
        String cut = TerminalTable.text(
                Table.create(
                        "t",
                        StringColumn.create("a", "x".repeat(30)),
                        StringColumn.create("b", "y".repeat(30)),
                        IntColumn.create("n", new int[] {7})),
                12);
        assertTrue(cut.lines().allMatch(l -> l.length() <= 12), cut);
        assertTrue(cut.replace('\n', ' ').endsWith("(2 more columns than the terminal is wide: b, n)"), cut);
        assertTrue(cut.lines().skip(1).findFirst().orElseThrow().startsWith("a"), cut);
    }

    /**
     * %scorecard fits the terminal as the README says tables do (stacked column groups that repeat benchmark and
     * candidate, nothing cut), %passk's numbers are formatted as every text table's (not raw doubles), and its
     * chart file is named after the chart's title.
     */
    @Test
    void scorecardAndPasskFitTheTerminalAndChartFilesAreNamedAfterTheirTitle() throws Exception {
        Path dir = tmp.resolve("fit");
        Path charts = tmp.resolve("fit-charts");
        String script = "%%experiment --dir " + dir + "\n"
                + "name: fit\n"
                + "domain: loop\n"
                + "split: test\n"
                + "candidates:\n"
                + "  - {id: ideal, provider: scripted, model: ideal}\n"
                + "  - {id: early-stop, provider: scripted, model: early-stop}\n"
                + "repetitions: 3\n"
                + "\n"
                + "%scorecard " + dir + "\n"
                + "%passk " + dir + "\n"
                + "/exit\n";
        Run run = repl(Map.of("COLUMNS", "100"), script, "--charts", charts.toString());
        assertEquals(0, run.code(), run.err());
        // the tables and their notes (not the run's one-line summary or a chart file's path)
        List<String> lines = run.out()
                .lines()
                .filter(l -> !l.startsWith("chart written to ") && !l.contains("already done"))
                .toList();
        assertTrue(
                lines.stream().allMatch(l -> l.length() <= 100),
                lines.stream().filter(l -> l.length() > 100).toList().toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("benchmark") && l.contains("trust")), run.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("loop") && l.contains("deterministic:")), "trust whole");
        assertFalse(run.out().contains("…"), "nothing cut: " + run.out());
        assertFalse(
                java.util.regex.Pattern.compile("\\d\\.\\d{5,}")
                        .matcher(run.out())
                        .find(),
                "no raw doubles: " + run.out());
        assertTrue(run.out().contains("0.283") && run.out().contains("0.717"), "the Wilson bounds, three digits");
        assertTrue(
                run.out().contains("chart written to " + charts.toAbsolutePath().resolve("fit-passk-by-candidate")),
                run.out());
    }

    @Test
    void runListsEveryRewardBasisComponent() throws Exception {
        Run run = repl(Map.of(), "%domain load tau2-retail\n%run --candidate gold --task 5\n/exit\n");
        assertEquals(0, run.code(), run.err());
        String out = run.out();
        assertTrue(
                out.contains(
                        "PASS DB: in the reward basis\n  PASS NL_ASSERTION: in the reward basis: no NL assertions in this task, scored 1.0"),
                out);
        assertTrue(out.indexOf("NL_ASSERTION") < out.indexOf("ACTION:5_0"), "basis components before the diagnostics");
    }
}
