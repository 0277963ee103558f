package brokkr.magics;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.ExperimentStore;
import brokkr.experiment.Fleet;
import brokkr.experiment.FleetWorker;
import brokkr.experiment.PostgresLocation;
import brokkr.experiment.Registry;
import brokkr.experiment.testing.PostgresServer;
import brokkr.magics.builtin.ExperimentMagics;
import brokkr.magics.display.Rendering;
import brokkr.run.Cancellation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;
import org.dflib.jjava.jupyter.kernel.display.Renderer;
import org.dflib.jjava.jupyter.kernel.display.mime.MIMEType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentMagicsTest {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    @TempDir
    Path tmp;

    /**
     * Records what a magic shows and updates, as the kernel's display would publish it, and which
     * threads did (the kernel interrupts the cell's thread; a publish it interrupts fails).
     */
    static final class Recording implements Display {
        final List<Object> shown = new ArrayList<>();
        final List<Object> updates = new ArrayList<>();
        final Set<Thread> threads = new HashSet<>();

        @Override
        public synchronized String show(Object value) {
            threads.add(Thread.currentThread());
            shown.add(value);
            return "d1";
        }

        @Override
        public synchronized void update(String id, Object value) {
            threads.add(Thread.currentThread());
            assertEquals("d1", id);
            updates.add(value);
        }

        synchronized Object last() {
            return updates.getLast();
        }
    }

    private static final String SPEC = """
            name: loop-kernel-test
            domain: loop
            split: smoke
            candidates:
              - {id: ideal, provider: scripted, model: ideal}
              - {id: early, provider: scripted, model: early-stop}
            repetitions: 3
            parallelism: 4
            """;

    @Test
    void statusShowsAFleetRefreshedUntilItsCellsAreDone() throws Exception {
        try (PostgresServer.Database db = PostgresServer.shared().createDatabase()) {
            String url = db.url("fleetview");
            PostgresLocation store = PostgresLocation.parse(url);
            ExperimentSpec spec = ExperimentSpec.parse(SPEC, true, "test", "fleetview", null);
            Fleet.register(spec, store, Registry.process(), Map.of());
            Session s = new Session();
            Recording d = new Recording();
            s.display(d);
            CompletableFuture<Object> watch = new CompletableFuture<>();
            Thread.ofPlatform().start(() -> {
                try {
                    watch.complete(s.magics().evalLine(s, "experiment", "status --store " + url + " --every 0.2"));
                } catch (Throwable t) {
                    watch.completeExceptionally(t);
                }
            });
            Thread.sleep(700); // the view shows the queued cells, refreshed, before a worker starts
            var r = Fleet.work(
                    store, Registry.process(), FleetWorker.Options.defaults(null, 2), System.err, new Cancellation());
            assertEquals(12, r.completed());
            var view = (ExperimentMagics.FleetStatusView) watch.get(60, TimeUnit.SECONDS);
            assertTrue(view.settled());
            assertTrue(view.text().contains("12 cells: 12 done, 0 running, 0 pending"), view.text());
            assertEquals(1, d.shown.size());
            assertTrue(((ExperimentMagics.FleetStatusView) d.shown.getFirst())
                    .text()
                    .contains("0 done"));
            assertTrue(d.updates.size() >= 2, "refreshed in place: " + d.updates.size());
            assertThrows(MagicUsageException.class, () -> s.magics().evalLine(s, "experiment", "status"), "no --store");
        }
    }

    @Test
    void cellMagicRunsShowsProgressAndScores() throws Exception {
        Session s = new Session();
        Recording d = new Recording();
        s.display(d);
        Path dir = tmp.resolve("exp");
        var view = (ExperimentMagics.ExperimentView) s.magics().evalCell(s, "experiment", "--dir " + dir, SPEC);
        assertEquals(12, view.result().cells());
        assertEquals(12, view.result().completed());
        assertEquals(1, d.shown.size());
        var last = (ExperimentMagics.ProgressView) d.updates.getLast();
        assertTrue(last.finished());
        assertEquals(12, last.done());
        assertEquals(12, last.total());
        var rows = view.scorecard().scorecard().rows();
        assertEquals(
                List.of("early", "ideal"),
                rows.stream().map(r -> r.candidate()).sorted().toList());
        var ideal = rows.stream()
                .filter(r -> r.candidate().equals("ideal"))
                .findFirst()
                .orElseThrow();
        assertEquals(1.0, ideal.avgReward());
        assertEquals(List.of(1.0, 1.0, 1.0), ideal.passHatK());
        assertTrue(view.html().contains("<table") && view.html().contains("pass^3"));
        // tables and text drawn from the run's scorecard (the engine keeps the numbers; ExperimentTables draws them)
        var summary = view.scorecard().summary();
        assertEquals(2, summary.rowCount());
        assertEquals(
                1.0,
                summary.where(summary.stringColumn("candidate").isEqualTo("ideal"))
                        .doubleColumn("pass^3")
                        .get(0));
        assertEquals(4, view.scorecard().tasks().rowCount());
        assertTrue(view.text().contains("pass^3") && view.text().contains("early"), view.text());

        // resuming: nothing left to run
        var again = (ExperimentMagics.ExperimentView) s.magics().evalCell(s, "experiment", "--dir " + dir, SPEC);
        assertEquals(12, again.result().skipped());
        assertEquals(0, again.result().ran());

        var card = (ExperimentMagics.ScorecardView) s.magic("%scorecard " + dir);
        assertEquals(2, card.summary().rowCount());
        assertTrue(card.html().contains("Checks (failed of evaluated)"), card.html());

        var pk = (ExperimentMagics.PassKView) s.magic("%passk " + dir + " --by candidate");
        assertEquals(6, pk.table().rowCount());
        assertEquals(
                2,
                pk.chart().getSeriesMap().values().stream()
                        .filter(x -> x.isShowInLegend())
                        .count(),
                "the legend names the two candidates");
        // Every point has its 95% interval as a bar: deterministic candidates have se 0, but the Wilson-type
        // interval (2 tasks, rates 0 and 1) keeps a width.
        assertEquals(
                6,
                pk.chart().getSeriesMap().values().stream()
                        .filter(x -> !x.isShowInLegend())
                        .count());
        assertEquals(0.0, pk.table().doubleColumn("se").get(0));
        assertEquals("wilson", pk.table().stringColumn("read").get(0));
        assertEquals(2, pk.table().intColumn("tasks").get(0));
        DisplayData out = Rendering.registerAll(new Renderer()).render(pk);
        assertTrue(((String) out.getData(MIMEType.TEXT_HTML)).contains("data:image/png;base64,"));
        assertTrue(out.hasDataForType(MIMEType.IMAGE_PNG) && out.hasDataForType(MIMEType.IMAGE_SVG));
    }

    private static final String SLOW = """
            name: slow-kernel-test
            domain: slow
            split: all
            candidates: [{id: sleepy, provider: scripted, model: sleepy}]
            repetitions: 4
            parallelism: 4
            """;

    private static int stored(Path dir) {
        if (!Files.exists(ExperimentStore.file(dir))) return 0;
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            return q.attempts(false).size();
        } catch (IllegalArgumentException e) {
            return 0; // created, not written yet
        }
    }

    /**
     * The kernel interrupts the thread running the cell: the run is cancelled (nothing keeps running or
     * holds the lock), the display says Interrupted with what was kept, and the next run resumes.
     */
    @Test
    void interruptingTheCellCancelsTheRunAndTheNextOneResumes() throws Exception {
        Session s = new Session();
        Recording d = new Recording();
        s.display(d);
        Path dir = tmp.resolve("slow");
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread cell = Thread.ofPlatform().name("brokkr-cell").start(() -> {
            try {
                s.magics().evalCell(s, "experiment", "--dir " + dir, SLOW);
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (stored(dir) < 6 && System.nanoTime() < deadline) Thread.sleep(20);
        cell.interrupt();
        Throwable t = outcome.get(10, TimeUnit.SECONDS);
        assertInstanceOf(InterruptedException.class, t);
        int kept = stored(dir);
        assertTrue(kept >= 6 && kept < 40, "kept " + kept);
        int calls = SlowBench.CALLS.get();
        Thread.sleep(500);
        assertEquals(calls, SlowBench.CALLS.get(), "cells kept running after the interrupt");
        assertEquals(kept, stored(dir));
        ExperimentStore.openForRun(dir).close(); // the run lock is free: no "another process"
        assertFalse(d.threads.contains(cell), "the display was touched from the interruptible cell thread");
        var last = (ExperimentMagics.ProgressView) d.last();
        assertTrue(last.interrupted() && last.finished(), last.text());
        assertEquals(kept, last.done());
        assertTrue(last.text().contains("Interrupted: the " + kept + " done are kept"), last.text());
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            assertTrue(q.attempts(false).stream().allMatch(a -> a.completed()), "an abandoned cell leaves no attempt");
        }

        var again = (ExperimentMagics.ExperimentView) s.magics().evalCell(s, "experiment", "--dir " + dir, SLOW);
        assertEquals(kept, again.result().skipped());
        assertEquals(40 - kept, again.result().completed());
        assertEquals(40, stored(dir));
        assertTrue(again.result().complete());
    }

    @Test
    void lineMagicReadsAFile() throws Exception {
        Path file = tmp.resolve("par.yaml");
        Files.writeString(file, """
                name: par
                domain: parallel
                tasks: ["4"]
                candidates: [{id: batch, provider: scripted, model: batch}]
                repetitions: 2
                """);
        Session s = new Session();
        var view = (ExperimentMagics.ExperimentView) s.magic("%experiment " + file + " --dir " + tmp.resolve("par"));
        assertEquals(2, view.result().completed());
        assertEquals(1.0, view.scorecard().scorecard().rows().getFirst().avgReward());
    }

    @Test
    void wrongArgumentsAreUsageErrors() {
        Session s = new Session();
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%experiment"))
                .getMessage()
                .contains("which experiment file?"));
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%experiment " + tmp.resolve("none.yaml")))
                .getMessage()
                .contains("no experiment file"));
        assertTrue(assertThrows(
                        MagicUsageException.class,
                        () -> s.magics().evalCell(s, "experiment", "", "name: x\ncolour: red\n"))
                .getMessage()
                .contains("usage: %%experiment"));
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magics().evalCell(s, "experiment", "", "a: [1,"))
                .getMessage()
                .contains("not YAML"));
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%scorecard " + tmp))
                .getMessage()
                .contains("holds no experiment"));
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%passk " + tmp + " --by task"))
                .getMessage()
                .contains("--by takes 'candidate'"));
        String unknownDomain =
                "domain: atlantis\nsplit: smoke\ncandidates: [{id: a, provider: scripted, model: ideal}]\n";
        MagicUsageException e = assertThrows(
                MagicUsageException.class,
                () -> s.magics().evalCell(s, "experiment", "--dir " + tmp.resolve("x"), unknownDomain));
        assertTrue(e.getMessage().contains("atlantis"), e.getMessage());
    }
}
