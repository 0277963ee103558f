package brokkr.magics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.magics.view.CallOutcome;
import brokkr.magics.view.ForkView;
import brokkr.magics.view.RunView;
import brokkr.magics.view.TaskView;
import brokkr.world.WorldDiff;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The wiki benchmark in the notebook: %domain load, %task, %fork + %call with a workspace diff, %run of a scripted author,
 * its pages rendered. */
class WikiMagicsTest {
    private final Session session = new Session();

    private Object magic(String line) throws Exception {
        return session.magic(line);
    }

    @Test
    void loadTaskForkCallAndRun() throws Exception {
        DomainSummary s = (DomainSummary) magic("%domain load wiki");
        assertEquals(List.of("list_files", "read_file", "write_file", "edit_file", "search"), s.tools());
        TaskView task = (TaskView) magic("%task catalog");
        assertEquals(10, task.goldActions().size(), task.goldActions().toString());
        assertTrue(task.goldActions().contains("write_file(path=\"/wiki/index.md\", content=...)"));
        assertTrue(task.scenario().contains("/wiki/index.md"));

        ForkView f = (ForkView) magic("%fork catalog@17");
        assertEquals("catalog@17", f.taskId());
        CallOutcome write =
                (CallOutcome) magic("%call write_file {\"path\": \"/wiki/index.md\", \"content\": \"# Index\"}");
        assertFalse(write.error(), write.content());
        assertEquals(
                List.of("+ [\"/wiki/index.md\"] = \"# Index\""),
                write.changes().stream().map(WorldDiff.Change::line).toList());
        CallOutcome forged =
                (CallOutcome) magic("%call write_file {\"path\": \"/docs/charter.md\", \"content\": \"x\"}");
        assertTrue(forged.error() && forged.changes().isEmpty(), forged.content());

        RunView reference = (RunView) magic("%run --candidate reference --task catalog");
        assertEquals(1.0, reference.reward());
        assertEquals(
                "score 1.0: 24/24 facts counted, 9/9 entity pages, 0/30 numbers unsupported", reference.resultLine());
        // The pages it left, rendered below the grade as the report renders them: the index's links reach the pages
        // of this view, and the text form names them.
        assertEquals(10, reference.files().made().size());
        String html = reference.html();
        assertTrue(html.contains("<h3>the wiki: 10 pages under /wiki</h3>")
                && html.contains("<h1>Rushmere River Trust wiki</h1>"));
        java.util.Set<String> ids = new java.util.HashSet<>();
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile(" id=\"([^\"]+)\"").matcher(html);
        while (m.find()) ids.add(m.group(1));
        m = java.util.regex.Pattern.compile("href=\"#([^\"]+)\"").matcher(html);
        int links = 0;
        while (m.find()) {
            links++;
            assertTrue(ids.contains(m.group(1)) && m.group(1).startsWith("brokkr-run-"), m.group());
        }
        assertTrue(links > 40, "links between pages and citations: " + links);
        assertTrue(reference.text().contains("the wiki: 10 pages under /wiki: /wiki/index.md ("), reference.text());
        RunView dump = session.run("dump", "catalog@17");
        assertEquals(0.05, dump.reward());
        assertFalse(dump.checks().stream()
                .filter(c -> c.name().equals("original_prose"))
                .findFirst()
                .orElseThrow()
                .passed());
    }
}
