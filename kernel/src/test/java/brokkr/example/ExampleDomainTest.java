package brokkr.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.cli.Main;
import brokkr.magics.DomainSummary;
import brokkr.magics.MagicCompletion;
import brokkr.magics.MagicUsageException;
import brokkr.magics.Session;
import brokkr.magics.view.CallOutcome;
import brokkr.magics.view.ForkView;
import brokkr.magics.view.RunView;
import brokkr.magics.view.TaskView;
import brokkr.value.Value;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * A new domain needs one package and one services line: {@link ExampleDomain}, registered only in
 * this module's test {@code META-INF/services/brokkr.eval.BenchmarkProvider}, is listed and loaded by
 * {@code %domain load}, explored, run by {@code %run} and by {@code ./brokkr experiment run}.
 */
class ExampleDomainTest {
    @TempDir
    Path tmp;

    private final Session session = new Session();

    @Test
    void domainLoadListsAndLoadsIt() throws Exception {
        String unknown = assertThrows(MagicUsageException.class, () -> session.magic("%domain load atlantis"))
                .getMessage();
        assertTrue(unknown.contains("example"), unknown);
        assertEquals(
                List.of("example"),
                MagicCompletion.complete(session, "%domain load exa", 15).matches());
        DomainSummary s = (DomainSummary) session.magic("%domain load example");
        assertEquals("example", s.name());
        assertEquals(3, s.tasks());
        assertEquals(List.of("add"), s.tools());
        // a registered benchmark without an exploration runs in experiments only
        String agree = assertThrows(MagicUsageException.class, () -> session.magic("%domain load agree"))
                .getMessage();
        assertTrue(agree.contains("offers no exploration"), agree);
        assertFalse(unknown.contains("agree"), unknown);
    }

    @Test
    void itIsExploredLikeEveryDomain() throws Exception {
        session.magic("%domain load example");
        assertEquals(
                List.of("2"),
                ((Table) session.magic("%tasks 2")).stringColumn("id").asList());
        TaskView t = (TaskView) session.magic("%task 3");
        assertEquals(List.of("add(amount=1)", "add(amount=1)", "add(amount=1)"), t.goldActions());
        ForkView f = (ForkView) session.magic("%fork 2");
        assertEquals(t.initialWorldHash(), f.worldHash());
        CallOutcome add = (CallOutcome) session.magic("%call add {\"amount\": 2}");
        assertEquals("counter=2", add.content());
        assertEquals(Value.of(2), add.changes().getFirst().after());
        assertEquals("counter=4", session.call("add", "{\"amount\": 2}").content()); // the fork moved on
        session.fork("2");
        assertEquals("counter=1", session.call("add", "{\"amount\": 1}").content()); // a new fork starts afresh
        assertTrue(assertThrows(MagicUsageException.class, () -> session.magic("%task 9"))
                .getMessage()
                .contains("no example task '9'"));
    }

    @Test
    void runGoesThroughTheEvaluationPath() throws Exception {
        session.magic("%domain load example");
        RunView counter = (RunView) session.magic("%run --candidate counter --task 3");
        assertEquals(1.0, counter.reward(), counter.text());
        assertTrue(counter.passed(), counter.text());
        assertEquals("answered", counter.stop());
        assertEquals(3, counter.transcript().toolCalls().size());
        assertEquals(
                List.of("counter_reached_target", "said_done"),
                counter.checks().stream().map(RunView.Check::name).toList());
        RunView idle = session.run("idle", "3");
        assertEquals(0.0, idle.reward());
        assertFalse(idle.checks().getFirst().passed(), idle.text());
        assertTrue(idle.attempt().completed());
        assertTrue(assertThrows(MagicUsageException.class, () -> session.run("genius", "1"))
                .getMessage()
                .contains("one of counter, idle"));
    }

    /** An experiment file of the example domain's test split with both scripted candidates, written into {@code dir}. */
    static Path experimentFile(Path dir) throws IOException {
        return Files.writeString(dir.resolve("example.yaml"), """
                name: example
                domain: example
                split: test
                candidates:
                  - {id: counter, provider: scripted, model: counter}
                  - {id: idle, provider: scripted, model: idle}
                """);
    }

    @Test
    void experimentRunRunsIt() throws Exception {
        Path file = experimentFile(tmp);
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int code = Main.run(
                List.of(
                        "experiment",
                        "run",
                        file.toString(),
                        "--dir",
                        tmp.resolve("run").toString(),
                        "--no-progress"),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8), e = err.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, e);
        assertTrue(e.contains("6 cells: 0 already done, 6 run (6 completed"), e);
        assertTrue(
                o.matches("(?s).*example\\s+counter\\s+3\\s+1\\s+3\\s+0\\s+1\\.00\\s+0\\s+1\\.00\\s+1\\.00\\s.*"), o);
        assertTrue(o.matches("(?s).*example\\s+idle\\s+3\\s+1\\s+3\\s+0\\s+0\\s+0\\s+0\\s+0\\s.*"), o);
    }

    /**
     * The harness is an axis the domain declares: the example domain hosts only its reference agent with
     * JSON tools, so a candidate asking for Brokkr's loop with the Java REPL is refused before any cell runs,
     * with the supported combination named: exit 2 from {@code experiment run} (nothing stored), a usage
     * error from {@code %run}. (Before, such a candidate ran the reference protocol, scored and was labelled
     * as a REPL candidate.)
     */
    @Test
    void aHarnessTheDomainDoesNotHostIsRefusedBeforeAnyCellRuns() throws Exception {
        Path file = Files.writeString(tmp.resolve("repl.yaml"), """
                name: example-repl
                domain: example
                split: test
                candidates:
                  - {id: counter, provider: scripted, model: counter}
                  - {id: counter-repl, provider: scripted, model: counter, harness: loop, action_space: repl}
                """);
        Path dir = tmp.resolve("repl-run");
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int code = Main.run(
                List.of("experiment", "run", file.toString(), "--dir", dir.toString(), "--no-progress"),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, code, e);
        assertTrue(
                e.contains(
                        "domain example: candidate counter-repl asks for harness loop with action space repl, which example does not support"
                                + " (supported: harness reference with action space tools)"),
                e);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertFalse(Files.exists(dir), "no cell ran, nothing was stored");
        session.magic("%domain load example");
        MagicUsageException m = assertThrows(
                MagicUsageException.class,
                () -> session.magic("%run --candidate counter --task 1 --harness loop --action-space repl"));
        assertTrue(m.getMessage().contains("(supported: harness reference with action space tools)"), m.getMessage());
    }

    /**
     * One registry per process: a command and the magics in one JVM see the same provider object (so its
     * data is loaded and verified once), the one {@code Registry.process()} holds; no face builds its own.
     */
    @Test
    void aCommandAndAMagicInOneJvmSeeTheSameProviderInstance() throws Exception {
        int before = ExampleDomain.INSTANCES.get();
        var out = new ByteArrayOutputStream();
        int code = Main.run(
                List.of(
                        "experiment",
                        "run",
                        experimentFile(tmp).toString(),
                        "--dir",
                        tmp.resolve("one").toString(),
                        "--no-progress"),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(0, code);
        Session current = Session.current();
        current.magic("%domain load example");
        RunView run = (RunView) current.magic("%run --candidate counter --task 2");
        assertEquals(1.0, run.reward());
        assertTrue(
                ExampleDomain.INSTANCES.get() - before <= 1,
                "at most the process registry's own instance was made: " + (ExampleDomain.INSTANCES.get() - before));
        assertSame(brokkr.experiment.Registry.process(), current.registry());
        assertSame(
                brokkr.experiment.Registry.process().benchmark("example"),
                current.domain().provider());
        assertSame(
                brokkr.command.CommandContext.process().registry(),
                current.registry(),
                "the commands' context holds the same registry");
    }
}
