package brokkr.magics;

import org.dflib.jjava.jupyter.kernel.display.DisplayData;
import org.dflib.jjava.jupyter.kernel.display.Renderer;
import org.dflib.jjava.jupyter.kernel.display.mime.MIMEType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class ExperimentMagicsTest {
    static { System.setProperty("java.awt.headless", "true"); }

    @TempDir Path tmp;

    /** Records what a magic shows and updates, as the kernel's display would publish it. */
    static final class Recording implements Display {
        final List<Object> shown = new ArrayList<>();
        final List<Object> updates = new ArrayList<>();
        @Override public synchronized String show(Object value) { shown.add(value); return "d1"; }
        @Override public synchronized void update(String id, Object value) { assertEquals("d1", id); updates.add(value); }
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

    @Test void cellMagicRunsShowsProgressAndScores() throws Exception {
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
        assertEquals(List.of("early", "ideal"), rows.stream().map(r -> r.candidate()).sorted().toList());
        var ideal = rows.stream().filter(r -> r.candidate().equals("ideal")).findFirst().orElseThrow();
        assertEquals(1.0, ideal.avgReward());
        assertEquals(List.of(1.0, 1.0, 1.0), ideal.passHatK());
        assertTrue(view.html().contains("<table") && view.html().contains("pass^3"));
        // tables and text drawn from the run's scorecard (the engine keeps the numbers; ExperimentTables draws them)
        var summary = view.scorecard().summary();
        assertEquals(2, summary.rowCount());
        assertEquals(1.0, summary.where(summary.stringColumn("candidate").isEqualTo("ideal")).doubleColumn("pass^3").get(0));
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
        assertEquals(2, pk.chart().getSeriesMap().size());
        DisplayData out = Rendering.registerAll(new Renderer()).render(pk);
        assertTrue(((String) out.getData(MIMEType.TEXT_HTML)).contains("data:image/png;base64,"));
        assertTrue(out.hasDataForType(MIMEType.IMAGE_PNG) && out.hasDataForType(MIMEType.IMAGE_SVG));
    }

    @Test void lineMagicReadsAFile() throws Exception {
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

    @Test void wrongArgumentsAreUsageErrors() {
        Session s = new Session();
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%experiment")).getMessage().contains("which experiment file?"));
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%experiment " + tmp.resolve("none.yaml"))).getMessage()
                .contains("no experiment file"));
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magics().evalCell(s, "experiment", "", "name: x\ncolour: red\n"))
                .getMessage().contains("usage: %%experiment"));
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magics().evalCell(s, "experiment", "", "a: [1,")).getMessage()
                .contains("not YAML"));
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%scorecard " + tmp)).getMessage().contains("holds no experiment"));
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%passk " + tmp + " --by task")).getMessage()
                .contains("--by takes 'candidate'"));
        String unknownDomain = "domain: atlantis\nsplit: smoke\ncandidates: [{id: a, provider: scripted, model: ideal}]\n";
        MagicUsageException e = assertThrows(MagicUsageException.class,
                () -> s.magics().evalCell(s, "experiment", "--dir " + tmp.resolve("x"), unknownDomain));
        assertTrue(e.getMessage().contains("atlantis"), e.getMessage());
    }
}
