package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.Scorecard;
import brokkr.magics.view.ExperimentTables;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * The inspection commands as a researcher uses them: show's sections and formats, the benchmark's own
 * report (BFCL's, equal to bfcl run's), attempts filters, transcripts as dialogue, trials counted from
 * 1 everywhere, list, bfcl run --out, no profiling without --verbose, every column explained in --help.
 */
class ExperimentInspectionTest {
    @TempDir
    Path tmp;

    static ExperimentCommandTest.Out cli(String... args) {
        return ExperimentCommandTest.cli(args);
    }

    /** agree: {agreeable, contrary} x 3 tasks x 2 repetitions (12 cells), and optionally a broken candidate. */
    private String agree(String name, boolean broken) throws Exception {
        Path file = tmp.resolve(name + ".yaml");
        Files.writeString(
                file,
                "name: " + name + "\ndomain: agree\nsplit: test\ncandidates:\n"
                        + "  - {id: agreeable, provider: say, model: \"yes\"}\n  - {id: contrary, provider: say, model: \"no\"}\n"
                        + (broken ? "  - {id: broken, provider: say, model: down}\n" : "")
                        + "repetitions: 2\nmax_infra_retries: 0\n");
        String dir = tmp.resolve("exps").resolve(name).toString();
        var run = cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress");
        assertEquals(broken ? 3 : 0, run.code(), run.err());
        return dir;
    }

    @Test
    void runSummariesShowNoProfilingUnlessVerbose() throws Exception {
        Path file = tmp.resolve("v.yaml");
        Files.writeString(
                file, "name: v\ndomain: agree\nsplit: test\ncandidates: [{id: a, provider: say, model: \"yes\"}]\n");
        var plain = cli(
                "experiment", "run", file.toString(), "--dir", tmp.resolve("v").toString(), "--no-progress");
        assertEquals(0, plain.code(), plain.err());
        assertTrue(plain.err().contains("3 cells: 0 already done, 3 run (3 completed"), plain.err());
        assertFalse(
                plain.err().contains("store per attempt")
                        || plain.err().contains("serialize")
                        || plain.err().contains("writer"),
                plain.err());
        var verbose = cli(
                "experiment",
                "run",
                file.toString(),
                "--dir",
                tmp.resolve("v2").toString(),
                "--no-progress",
                "--verbose");
        assertTrue(
                verbose.err()
                        .matches(
                                "(?s).*cells \\d+\\.\\d s; store per attempt: serialize \\d+\\.\\d{3} ms, writer \\d+\\.\\d{3} ms \\(\\d+ commits\\).*"),
                verbose.err());
    }

    @Test
    void showPrintsTheSummaryByDefaultAndOtherSectionsOnRequest() throws Exception {
        String dir = agree("sections", false);
        var show = cli("experiment", "show", dir);
        assertEquals(0, show.code(), show.err());
        String s = show.out();
        assertTrue(s.startsWith("experiment sections in " + dir + ": 12 cells, 0 without a completed attempt"), s);
        assertTrue(
                s.matches(
                        "(?s).*agree\\s+agreeable\\s+3\\s+2\\s+6\\s+0\\s+1\\.00\\s+0\\s+1\\.00\\s+1\\.00\\s+1\\.00\\s+1\\.00.*"),
                s);
        // 3 tasks all passing: the Wilson-type interval [0.139, 1] (n = 3 tasks, t 2 df: 4.303 for z), the one to read
        assertTrue(
                s.matches(
                        "(?s).*statistics: 95% intervals over tasks.*agree\\s+agreeable\\s+avg_reward\\s+1\\.00\\s+0\\s+1\\.00\\s+1\\.00\\s+0\\.139\\s+1\\.00\\s+wilson\\s+3\\s+2\\s+6\\s+0\\n.*"),
                s);
        assertFalse(s.contains("said_yes"), "no checks by default: " + s);
        assertFalse(s.contains("\nper task\n"), "no per-task table by default: " + s);
        assertTrue(s.contains("--tasks: per task; --checks: failures by check"), s);

        String tasks = cli("experiment", "show", dir, "--tasks").out();
        assertTrue(tasks.matches("(?s).*per task\\n.*agree\\s+contrary\\s+t2\\s+2\\s+0\\s+0.*"), tasks);
        assertFalse(tasks.contains("infra_failures"), "no summary with --tasks alone: " + tasks);
        String checks = cli("experiment", "show", dir, "--checks").out();
        assertTrue(checks.matches("(?s).*contrary\\s+said_yes\\s+6\\s+6\\s+1\\.00.*"), checks);
        String all = cli("experiment", "show", dir, "--summary", "--tasks", "--checks")
                .out();
        assertTrue(all.contains("infra_failures") && all.contains("\nper task\n") && all.contains("said_yes"), all);
        assertFalse(all.contains("--tasks: per task"), "nothing left to point at: " + all);

        String limited =
                cli("experiment", "show", dir, "--tasks", "--limit", "2").out();
        assertEquals(2, limited.lines().filter(l -> l.startsWith("agree ")).count(), limited);
        assertTrue(limited.contains("(4 more rows; --limit 2)"), limited);

        var csv = cli("experiment", "show", dir, "--tasks", "--format", "csv");
        List<String> lines = csv.out().lines().toList();
        assertEquals("benchmark,candidate,task,trials,successes,avg_reward,pass^1,pass^2", lines.getFirst());
        assertEquals(7, lines.size(), csv.out());
        assertTrue(lines.contains("agree,agreeable,t0,2,2,1.0,1.0,1.0"), csv.out());
        var twoTables = cli("experiment", "show", dir, "--tasks", "--checks", "--format", "csv")
                .out();
        assertTrue(
                twoTables.startsWith("# per task\r\n")
                        && twoTables.contains("\r\n\r\n# checks (failed of evaluated)\r\n"),
                twoTables);

        var json = cli("experiment", "show", dir, "--summary", "--checks", "--format", "json");
        PyDict d = Json.parse(json.out()).asDict();
        assertEquals("sections", d.get("experiment").asStr());
        assertEquals(12L, num(d.get("cells")));
        PyList summary = (PyList) d.get("summary");
        assertEquals(2, summary.size());
        assertEquals(1.0, ((brokkr.value.PyFloat) summary.get(0).asDict().get("avg_reward")).value());
        assertEquals("contrary", summary.get(1).asDict().get("candidate").asStr());
        assertEquals(6L, num(((PyList) d.get("checks")).get(1).asDict().get("failed")));
        assertEquals(0.0, ((brokkr.value.PyFloat) summary.get(0).asDict().get("se")).value());
        PyList statistics = (PyList) d.get("statistics");
        assertEquals(6, statistics.size(), "avg_reward, pass^1, pass^2 for each of the two candidates");
        assertEquals("wilson", statistics.get(0).asDict().get("read").asStr());
        assertFalse(d.containsKey("tasks"));

        assertEquals(2, cli("experiment", "show", dir, "--format", "xml").code());
        assertEquals(2, cli("experiment", "show", dir, "--limit", "0").code());
        assertEquals(2, cli("experiment", "show", dir, "--bogus").code());
    }

    /** A missing value is "–" in text, empty in CSV and null in JSON, never 0. */
    @Test
    void aCandidateWithoutAScoreIsMissingInEveryFormat() throws Exception {
        String dir = agree("missing", true);
        assertTrue(cli("experiment", "show", dir)
                .out()
                .matches("(?s).*agree\\s+broken\\s+0\\s+–\\s+0\\s+6\\s+–\\s+–\\s+–\\s+–.*"));
        String csv = cli("experiment", "show", dir, "--format", "csv").out();
        assertTrue(
                csv.contains("agree,broken,0,,0,6" + ",".repeat(16) + "\r\n"),
                "no reward, pass^k, costs per episode, duration or trust: " + csv);
        PyList summary = (PyList)
                Json.parse(cli("experiment", "show", dir, "--format", "json").out())
                        .asDict()
                        .get("summary");
        assertTrue(summary.get(2).asDict().get("avg_reward").isNone());
        assertTrue(summary.get(2).asDict().get("se").isNone()
                && summary.get(2).asDict().get("t95_lo").isNone());
    }

    /**
     * The BFCL experiment path reports what bfcl run reports: the same slice (split all:sample=5:seed=7)
     * gives the same tasks, passes and accuracy per category and the same two aggregates.
     */
    @Test
    void theBfclExperimentReportsWhatBfclRunReports() throws Exception {
        Path file = tmp.resolve("bfcl.yaml");
        Files.writeString(file, """
                name: bfcl-sample
                domain: bfcl
                split: "all:sample=5:seed=7"
                candidates:
                  - {id: gold, provider: scripted, model: gold, action_space: reference}
                """);
        String dir = tmp.resolve("bfcl").toString();
        var run = cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("bfcl / gold: per category"), run.out());
        var bfclRun = cli("bfcl", "run", "--agent", "gold", "--sample", "5", "--seed", "7");
        assertEquals(0, bfclRun.code(), bfclRun.err());

        Map<String, List<String>> fromRun = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^([a-z_]+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d\\.\\d{4})\\s+(\\d+)\\s+(\\d+)$")
                .matcher(bfclRun.out());
        while (m.find()) fromRun.put(m.group(1), List.of(m.group(2), m.group(3), m.group(4), m.group(5), m.group(6)));
        assertEquals(13, fromRun.size(), bfclRun.out());

        PyDict show = Json.parse(
                        cli("experiment", "show", dir, "--format", "json").out())
                .asDict();
        PyList reports = (PyList) show.get("reports");
        assertEquals(1, reports.size());
        PyDict report = reports.get(0).asDict();
        assertEquals("gold", report.get("candidate").asStr());
        Map<String, List<String>> fromExperiment = new LinkedHashMap<>();
        for (Value row : (PyList) report.get("rows")) {
            PyDict r = row.asDict();
            if (r.get("category").asStr().equals("total")) {
                assertEquals(65L, num(r.get("tasks")));
                continue;
            }
            fromExperiment.put(
                    r.get("category").asStr(),
                    List.of(
                            String.valueOf(num(r.get("tasks"))),
                            String.valueOf(num(r.get("passed"))),
                            String.format(
                                    java.util.Locale.ROOT, "%.4f", ((brokkr.value.PyFloat) r.get("accuracy")).value()),
                            String.valueOf(num(r.get("unsat"))),
                            String.valueOf(num(r.get("infra")))));
        }
        assertEquals(fromRun, fromExperiment);
        PyDict figures = report.get("figures").asDict();
        for (String aggregate : List.of("live overall (weighted)", "irrelevance detection (unweighted)")) {
            Matcher a = Pattern.compile(Pattern.quote(aggregate) + ": (\\d\\.\\d{4})")
                    .matcher(bfclRun.out());
            assertTrue(a.find(), bfclRun.out());
            assertEquals(
                    a.group(1),
                    String.format(
                            java.util.Locale.ROOT, "%.4f", ((brokkr.value.PyFloat) figures.get(aggregate)).value()));
        }
        // The text report has the same rows, a total, the aggregates and how they are computed.
        String text = cli("experiment", "show", dir).out();
        assertTrue(
                text.matches("(?s).*bfcl / gold: per category\\n.*simple_python\\s+5\\s+5\\s+1\\.00\\s+0\\s+0\\n.*"),
                text);
        assertTrue(text.matches("(?s).*total\\s+65\\s+64\\s+–\\s+1\\s+0\\n.*"), text);
        assertTrue(text.matches("(?s).*live overall \\(weighted\\)\\s+1\\.00\\n.*"), text);
        assertTrue(text.contains("the mean of irrelevance and live_irrelevance"), text);
    }

    /** An aggregate whose categories were not all run is missing (bfcl run's N/A), and an unsatisfiable task is counted. */
    @Test
    void aBfclAggregateWithoutItsCategoriesIsMissing() throws Exception {
        Path file = tmp.resolve("few.yaml");
        Files.writeString(file, """
                name: bfcl-few
                domain: bfcl
                tasks: [simple_python_1, irrelevance_0, live_simple_106-63-0]
                candidates:
                  - {id: gold, provider: scripted, model: gold, action_space: tools}
                """);
        String dir = tmp.resolve("few").toString();
        assertEquals(
                0,
                cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress")
                        .code());
        String text = cli("experiment", "show", dir).out();
        assertTrue(text.matches("(?s).*live_simple\\s+1\\s+0\\s+0\\s+1\\s+0\\n.*"), text);
        assertTrue(text.matches("(?s).*live overall \\(weighted\\)\\s+–\\n.*"), text);
        assertTrue(text.matches("(?s).*irrelevance detection \\(unweighted\\)\\s+–\\n.*"), text);
        PyDict figures = ((PyList) Json.parse(cli("experiment", "show", dir, "--format", "json")
                                .out())
                        .asDict()
                        .get("reports"))
                .get(0)
                .asDict()
                .get("figures")
                .asDict();
        assertTrue(figures.get("live overall (weighted)").isNone());
    }

    @Test
    void attemptsAreFilteredByTaskCandidateAndFailure() throws Exception {
        String dir = agree("filters", true);
        assertEquals(19, cli("experiment", "attempts", dir).out().lines().count(), "a header and 18 attempts");
        String contrary =
                cli("experiment", "attempts", dir, "--candidate", "contrary").out();
        assertEquals(7, contrary.lines().count(), contrary);
        assertTrue(contrary.lines().skip(1).allMatch(l -> l.contains(" contrary ")), contrary);
        String t1 = cli(
                        "experiment",
                        "attempts",
                        dir,
                        "--task",
                        "t1",
                        "--candidate",
                        "agreeable",
                        "--candidate",
                        "broken")
                .out();
        assertEquals(5, t1.lines().count(), t1);
        assertTrue(t1.lines().skip(1).allMatch(l -> l.contains(" t1 ")), t1);
        String failed = cli("experiment", "attempts", dir, "--failed").out();
        assertEquals(13, failed.lines().count(), "contrary's 6 and broken's 6: " + failed);
        assertFalse(failed.contains("agreeable"), failed);
        assertTrue(failed.contains("infrastructure_failure") && failed.contains("say down: HTTP 503"), failed);
        var none = cli("experiment", "attempts", dir, "--failed", "--candidate", "agreeable");
        assertEquals(0, none.code());
        assertTrue(none.out().contains("(no attempt matches)"), none.out());
        var unknown = cli("experiment", "attempts", dir, "--candidate", "nobody");
        assertEquals(2, unknown.code());
        assertTrue(
                unknown.err()
                        .contains("no candidate 'nobody' in " + dir + " (candidates: agreeable, contrary, broken)"),
                unknown.err());
        assertEquals(2, cli("experiment", "attempts", dir, "--task", "t9").code());
        assertEquals(2, cli("experiment", "attempts", dir, "--task").code());
        PyList rows =
                (PyList) Json.parse(cli("experiment", "attempts", dir, "--candidate", "broken", "--format", "json")
                                .out())
                        .asDict()
                        .get("attempts");
        assertEquals(6, rows.size());
        assertTrue(rows.stream().allMatch(r -> r.asDict().get("reward").isNone()));
    }

    /** The store keeps repetitions from 0; every listing a person reads counts trials from 1, as tau2 run does. */
    @Test
    void trialsAreCountedFromOneEverywhere() throws Exception {
        Path file = tmp.resolve("retail.yaml");
        Files.writeString(file, """
                name: retail-trials
                domain: tau2-retail
                tasks: ["0"]
                candidates:
                  - {id: gold, provider: scripted, model: gold}
                repetitions: 2
                """);
        String dir = tmp.resolve("trials").toString();
        assertEquals(
                0,
                cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress")
                        .code());
        PyList rows = (PyList) Json.parse(
                        cli("experiment", "attempts", dir, "--format", "json").out())
                .asDict()
                .get("attempts");
        Set<String> fromExperiment = new TreeSet<>();
        for (Value r : rows)
            fromExperiment.add(
                    r.asDict().get("task").asStr() + "/" + num(r.asDict().get("trial")));
        var tau2 = cli("tau2", "run", "--domain", "retail", "--agent", "gold", "--task", "0", "--trials", "2");
        assertEquals(0, tau2.code(), tau2.err());
        Set<String> fromTau2 = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^(0)\\s+(\\d+)\\s+1\\.0\\s").matcher(tau2.out());
        while (m.find()) fromTau2.add(m.group(1) + "/" + m.group(2));
        assertEquals(Set.of("0/1", "0/2"), fromTau2, tau2.out());
        assertEquals(fromTau2, fromExperiment);
        try (ExperimentQuery q = ExperimentQuery.open(Path.of(dir))) {
            var second = q.attempts(true, false).stream()
                    .filter(a -> a.repetition() == 1)
                    .findFirst()
                    .orElseThrow();
            String t = cli("experiment", "transcript", dir, String.valueOf(second.id()))
                    .out();
            assertTrue(
                    t.startsWith(
                            "attempt " + second.id() + ": tau2-retail, candidate gold, task 0, trial 2, completed\n"),
                    t);
            PyDict record = Json.parse(cli("experiment", "transcript", dir, String.valueOf(second.id()), "--json")
                            .out())
                    .asDict();
            assertEquals(1L, num(record.get("repetition")));
            assertEquals(2L, num(record.get("trial")));
        }
    }

    @Test
    void aTranscriptIsTheDialogueAndJsonIsTheRecord() throws Exception {
        Path file = tmp.resolve("loop.yaml");
        Files.writeString(
                file,
                "name: loop-t\ndomain: loop\nsplit: smoke\ncandidates: [{id: ideal, provider: scripted, model: ideal}]\n");
        String dir = tmp.resolve("loop").toString();
        assertEquals(
                0,
                cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress")
                        .code());
        var t = cli("experiment", "transcript", dir, "1");
        assertEquals(0, t.code(), t.err());
        String s = t.out();
        assertTrue(s.startsWith("attempt 1: loop, candidate ideal, task "), s);
        assertTrue(s.contains("\ngrade: reward 1.000, success, trust "), s);
        assertTrue(s.contains("\n  pass secret_correct\n"), s);
        assertTrue(s.matches("(?s).*\\ndialogue: \\d+ messages\\n\\[system\\] .*"), s);
        assertTrue(s.matches("(?s).*\\n\\[assistant\\] .*\\n    -> [a-z_]+\\(\\{.*\\}\\) #\\S+\\n.*"), s);
        assertTrue(s.matches("(?s).*\\n\\[tool [a-z_]+ #\\S+\\] .*"), s);
        assertFalse(s.contains("\"role\""), "not raw JSON: " + s);
        PyDict record = Json.parse(
                        cli("experiment", "transcript", dir, "1", "--json").out())
                .asDict();
        assertEquals(1L, num(record.get("id")));
        assertEquals("ideal", record.get("candidate").asStr());
        assertEquals("completed", record.get("status").asStr());
        PyList transcript = (PyList) record.get("evidence").asDict().get("transcript");
        assertTrue(
                transcript.stream().anyMatch(x -> x.asDict().get("role").asStr().equals("tool")));
        assertEquals(2, cli("experiment", "transcript", dir, "999").code());
    }

    @Test
    void listShowsEveryExperimentDirectoryUnderTheGivenOnes() throws Exception {
        String a = agree("first", false);
        String b = agree("second", true);
        Path nested = tmp.resolve("exps").resolve("deeper");
        Files.createDirectories(nested);
        Path file = tmp.resolve("nested.yaml");
        Files.writeString(
                file,
                "name: third\ndomain: loop\nsplit: smoke\ncandidates: [{id: ideal, provider: scripted, model: ideal}]\n");
        String c = nested.resolve("third").toString();
        assertEquals(
                0,
                cli("experiment", "run", file.toString(), "--dir", c, "--no-progress")
                        .code());
        var list = cli("experiment", "list", tmp.resolve("exps").toString());
        assertEquals(0, list.code(), list.err());
        List<String> lines = list.out().lines().toList();
        assertEquals("dir", lines.getFirst().split("\\s+")[0]);
        assertEquals(4, lines.size(), list.out());
        assertTrue(
                lines.get(1)
                        .matches(
                                Pattern.quote(c)
                                        + "\\s+third\\s+loop\\s+ideal\\s+\\d+\\s+\\d+\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d"),
                lines.get(1));
        assertTrue(
                lines.get(2)
                        .matches(
                                Pattern.quote(a) + "\\s+first\\s+agree\\s+agreeable,contrary\\s+12\\s+12\\s+\\S+ \\S+"),
                lines.get(2));
        assertTrue(
                lines.get(3)
                        .matches(Pattern.quote(b)
                                + "\\s+second\\s+agree\\s+agreeable,contrary,broken\\s+12\\s+18\\s+\\S+ \\S+"),
                lines.get(3));

        PyList json = (PyList)
                Json.parse(cli("experiment", "list", a, b, "--format", "json").out())
                        .asDict()
                        .get("experiments");
        assertEquals(
                List.of("first", "second"),
                json.stream().map(r -> r.asDict().get("name").asStr()).toList());
        assertEquals(18L, num(json.get(1).asDict().get("cells")));

        // A directory whose store cannot be read is named on stderr; the others are still listed; exit 1.
        Path foreign = Files.createDirectories(tmp.resolve("exps").resolve("foreign"));
        Files.writeString(foreign.resolve("experiment.db"), "not a database");
        var mixed = cli("experiment", "list", tmp.resolve("exps").toString());
        assertEquals(1, mixed.code());
        assertTrue(
                mixed.err()
                        .contains(foreign + ": " + foreign.resolve("experiment.db")
                                + " is not a Brokkr experiment store"),
                mixed.err());
        assertEquals(4, mixed.out().lines().count(), mixed.out());
        assertEquals(
                2, cli("experiment", "list", tmp.resolve("nowhere").toString()).code());
        var empty = cli(
                "experiment",
                "list",
                Files.createDirectories(tmp.resolve("empty")).toString());
        assertEquals(0, empty.code());
        assertTrue(empty.out().startsWith("no experiment directories in "), empty.out());
    }

    @Test
    void bfclRunOutWritesOneJsonLinePerTaskReadableByItsOwnerOnly() throws Exception {
        Path out = tmp.resolve("bfcl.jsonl");
        Files.writeString(out, "an older run's lines\n");
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rw-r--r--"));
        var r = cli(
                "bfcl",
                "run",
                "--agent",
                "gold",
                "--sample",
                "2",
                "--seed",
                "7",
                "--categories",
                "simple_python,irrelevance,live_simple",
                "--out",
                out.toString(),
                "--force"); // an existing file is replaced only when asked to (issue 31 item 9)
        assertEquals(0, r.code(), r.err());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
        List<String> lines = Files.readAllLines(out);
        assertEquals(6, lines.size(), "written anew, one line per task: " + lines);
        List<String> ids = new ArrayList<>();
        for (String line : lines) {
            PyDict d = Json.parse(line).asDict();
            ids.add(d.get("id").asStr());
            assertTrue(d.get("id").asStr().startsWith(d.get("category").asStr() + "_"), line);
            assertEquals("completed", d.get("status").asStr());
            PyDict output = d.get("model_output").asDict();
            assertNotNull(output.get("assistant"), line);
            PyDict verdict = d.get("verdict").asDict();
            boolean unsat = ((brokkr.value.PyBool) verdict.get("unsatisfiable")).value();
            assertEquals(!unsat, ((brokkr.value.PyBool) verdict.get("valid")).value(), line);
            if (d.get("category").asStr().equals("irrelevance"))
                assertTrue(output.get("answer").isNone(), line);
            else assertFalse(output.get("answer").isNone(), line);
        }
        assertEquals(6, new TreeSet<>(ids).size());
        Path fresh = tmp.resolve("fresh.jsonl");
        assertEquals(
                0,
                cli(
                                "bfcl",
                                "run",
                                "--agent",
                                "gold",
                                "--sample",
                                "1",
                                "--categories",
                                "simple_python",
                                "--out",
                                fresh.toString())
                        .code());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)));
        var bad = cli(
                "bfcl",
                "run",
                "--agent",
                "gold",
                "--sample",
                "1",
                "--out",
                tmp.resolve("no/such/dir/x.jsonl").toString());
        assertEquals(2, bad.code(), "an --out that cannot be written is an input error, as tau2 run's");
        assertTrue(bad.err().contains("no directory"), bad.err());
    }

    /** Every column any inspection table prints is explained in experiment --help. */
    @Test
    void helpExplainsEveryColumn() throws Exception {
        String help = cli("experiment", "--help").out();
        String dir = agree("columns", false);
        Set<String> columns = new TreeSet<>();
        try (ExperimentQuery q = ExperimentQuery.open(Path.of(dir))) {
            Scorecard card = Scorecard.of(q);
            for (Table t : List.of(
                    ExperimentTables.summary(card),
                    ExperimentTables.tasks(card),
                    ExperimentTables.checks(card),
                    ExperimentTables.attempts(brokkr.experiment.Inspect.attempts(q, false)),
                    ExperimentTables.experiments(Map.of(dir, q.overview())))) {
                columns.addAll(t.columnNames());
            }
        }
        for (String c : columns) {
            String name = c.startsWith("pass^") ? "pass^k" : c;
            assertTrue(
                    Pattern.compile("(?m)^  (.*[ ,(])?" + Pattern.quote(name) + "[ ,)]")
                            .matcher(help)
                            .find(),
                    "column " + c + " is not explained:\n" + help);
        }
        assertTrue(
                help.contains("trust       completed attempts by how far their verdict can be trusted: deterministic"),
                help);
    }

    private static long num(Value v) {
        return ((brokkr.value.PyInt) v).longValue();
    }
}
