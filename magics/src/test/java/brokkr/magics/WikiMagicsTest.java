package brokkr.magics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.magics.builtin.ProbeMagics;
import brokkr.magics.view.CallOutcome;
import brokkr.magics.view.ForkView;
import brokkr.magics.view.RunView;
import brokkr.magics.view.TaskView;
import brokkr.world.FileDiff;
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

    @Test
    void callsOnAForkShowTheWorkspacesFileDiff() throws Exception {
        magic("%domain load wiki");
        magic("%fork catalog");
        CallOutcome write = (CallOutcome)
                magic("%call write_file {\"path\": \"/wiki/index.md\", \"content\": \"# Index\\nline two\\nthree\"}");
        assertEquals(
                List.of("+ /wiki/index.md (added, +3)"),
                write.files().stream().map(FileDiff.Change::line).toList());
        assertTrue(
                write.text()
                        .endsWith(
                                "files changed (1):\n  + /wiki/index.md (added, +3)\n--- /dev/null\n+++ /wiki/index.md\n"
                                        + "@@ -0,0 +1,3 @@\n+# Index\n+line two\n+three"),
                write.text());
        // the fork moved on: the next call's diff is against the workspace the write left
        CallOutcome edit = (CallOutcome) magic(
                "%call edit_file {\"path\": \"/wiki/index.md\", \"old_text\": \"line two\", \"new_text\": \"line 2\"}");
        assertEquals(
                List.of("~ /wiki/index.md (changed, +1 -1)"),
                edit.files().stream().map(FileDiff.Change::line).toList());
        assertTrue(
                edit.text()
                        .endsWith(
                                "--- /wiki/index.md\n+++ /wiki/index.md\n@@ -1,3 +1,3 @@\n # Index\n-line two\n+line 2\n"
                                        + " three"),
                edit.text());
        String html = edit.html();
        assertTrue(
                html.contains("<span style=\"color:#b00\">-line two</span>")
                        && html.contains("<span style=\"color:#070\">+line 2</span>"),
                html);
        // a read changes nothing; a refused write neither
        CallOutcome read = (CallOutcome) magic("%call read_file {\"path\": \"/wiki/index.md\"}");
        assertEquals("# Index\nline 2\nthree", read.content());
        assertTrue(read.files().isEmpty() && read.text().endsWith("world unchanged"), read.text());
        CallOutcome refused = (CallOutcome) magic("%call write_file {\"path\": \"/docs/x.md\", \"content\": \"x\"}");
        assertTrue(refused.error() && refused.files().isEmpty());
        // %diff: the fork against its parent, the workspace %fork made, after the four calls: one file added in all
        var diff = (brokkr.magics.view.ForkDiff) magic("%diff");
        assertEquals(4, diff.calls());
        assertEquals(
                List.of("+ /wiki/index.md (added, +3)"),
                diff.files().stream().map(FileDiff.Change::line).toList());
        assertTrue(
                diff.text()
                        .equals("fork of wiki world of task catalog after 4 calls: files changed (1):\n"
                                + "  + /wiki/index.md (added, +3)\n--- /dev/null\n+++ /wiki/index.md\n@@ -0,0 +1,3 @@\n"
                                + "+# Index\n+line 2\n+three"),
                diff.text());
        magic("%fork catalog");
        assertEquals(
                "fork of wiki world of task catalog after 0 calls: unchanged",
                ((brokkr.magics.view.ForkDiff) magic("%diff")).text());
    }

    @Test
    void checkpointsAfterAToolCallBranchAndProbeOnTheWiki() throws Exception {
        magic("%domain load wiki");
        var cp = (ProbeMagics.CheckpointView) magic("%checkpoint catalog --at 3");
        assertTrue(cp.text().startsWith("cp1: wiki task catalog held at tool call 3 (scripted/reference,"), cp.text());
        var b = (ProbeMagics.BranchesView) magic("%branch cp1 -n 2 --candidate reference,empty");
        assertEquals(
                List.of("agent=scripted/reference", "agent=scripted/empty"),
                List.copyOf(b.byVariant().keySet()));
        assertTrue(b.byVariant().get("agent=scripted/reference").stream().allMatch(a -> a.reward() == 1.0));
        List<Double> empty = b.byVariant().get("agent=scripted/empty").stream()
                .map(a -> a.reward())
                .toList();
        assertTrue(empty.size() == 2 && empty.get(0) < 1.0 && empty.get(0).equals(empty.get(1)), empty.toString());
        assertTrue(b.chart().getTitle().contains("tool call 3"), b.chart().getTitle());

        var probe = (ProbeMagics.ProbeView) magic("%probe catalog 3 --candidate reference -n 4");
        assertEquals(4, probe.result().matchesGold());
        assertEquals("tool call", probe.result().cutUnit());
        assertTrue(
                probe.chart().getTitle().contains("tool call 3: reference (4 samples)"),
                probe.chart().getTitle());
        assertTrue(
                probe.html().contains("tool call 3: &quot;wrote /wiki/")
                        || probe.html().contains("tool call 3: \"wrote /wiki/"),
                probe.html());
        var vs = (ProbeMagics.ComparisonView) magic("%probe catalog 3 --candidate reference --vs empty -n 4");
        assertEquals(4, vs.comparison().first().matchesGold());
        assertEquals(0, vs.comparison().second().matchesGold());
        // a cut inside the record is refused as a usage error, saying why
        MagicUsageException far = org.junit.jupiter.api.Assertions.assertThrows(
                MagicUsageException.class, () -> magic("%probe catalog 11 --candidate reference"));
        assertTrue(far.getMessage().contains("has 10 tool call(s), not 11"), far.getMessage());
    }
}
