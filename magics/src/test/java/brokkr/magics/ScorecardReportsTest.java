package brokkr.magics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.magics.builtin.ExperimentMagics;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** %scorecard shows a benchmark's own report beside the scorecard (BFCL's per category), as the CLI does; a benchmark without one adds nothing. */
class ScorecardReportsTest {
    @TempDir
    Path tmp;

    @Test
    void theBfclScorecardCarriesItsPerCategoryReport() throws Exception {
        Path file = tmp.resolve("b.yaml");
        Files.writeString(file, """
                name: bfcl-nb
                domain: bfcl
                tasks: [simple_python_1, irrelevance_0, live_irrelevance_0-0-0]
                candidates:
                  - {id: gold, provider: scripted, model: gold, action_space: reference}
                """);
        Path dir = tmp.resolve("run");
        Experiments.run(ExperimentSpec.read(file), dir, Registry.load());
        ExperimentMagics.ScorecardView view = ExperimentMagics.scorecard(dir);
        assertEquals(1, view.reports().size());
        // Cells carry alignment styles; the assertions read the cells' contents.
        String html = view.html().replaceAll("<td [^>]*>", "<td>");
        assertTrue(
                html.contains(
                        "<p>bfcl / gold: per category</p><table class=\"brokkr-table\"><caption>per category</caption>"),
                html);
        assertTrue(html.contains("<td>live_irrelevance</td><td>1</td><td>1</td>"), html);
        assertTrue(html.matches("(?s).*<td>irrelevance detection \\(unweighted\\)</td><td>1(\\.0+)?</td>.*"), html);
        assertTrue(
                html.contains("<td>live overall (weighted)</td><td>\u2013</td>"),
                "not computable without the live categories: " + html);
        assertTrue(html.contains("<li>accuracy = passed / graded"), html);
        String text = view.text();
        assertTrue(
                text.matches(
                        "(?s).*bfcl / gold: per category\\n.*irrelevance detection \\(unweighted\\)\\s+1\\.00\\n.*"),
                text);
    }

    @Test
    void aBenchmarkWithoutAReportAddsNothing() throws Exception {
        Path file = tmp.resolve("l.yaml");
        Files.writeString(
                file,
                "name: loop-nb\ndomain: loop\nsplit: smoke\ncandidates: [{id: ideal, provider: scripted, model: ideal}]\n");
        Path dir = tmp.resolve("loop");
        Experiments.run(ExperimentSpec.read(file), dir, Registry.load());
        ExperimentMagics.ScorecardView view = ExperimentMagics.scorecard(dir);
        assertEquals(0, view.reports().size());
        assertTrue(!view.html().contains("per category"));
    }
}
