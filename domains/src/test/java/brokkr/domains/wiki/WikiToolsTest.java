package brokkr.domains.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.value.PyDict;
import brokkr.world.WorldDiff;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The workspace is a value (fork = the value, diff between two) and the file tools are functions on it. */
class WikiToolsTest {
    final Workspace seeded = Workspace.seeded(WikiWorld.generate(WikiWorld.PUBLIC_SEED));

    WikiTools.Step call(Workspace w, String tool, Object... kv) {
        return WikiTools.call(w, tool, PyDict.of(kv));
    }

    @Test
    void writeEditReadListSearch() {
        WikiTools.Step s = call(
                seeded,
                "write_file",
                "path",
                "/wiki/index.md",
                "content",
                "# Index\n\nSee [charter](/docs/charter.md).\n");
        assertEquals("wrote /wiki/index.md", s.result().content());
        Workspace w = s.after();
        s = call(w, "edit_file", "path", "/wiki/index.md", "old_text", "# Index", "new_text", "# The index");
        assertFalse(s.result().error(), s.result().content());
        w = s.after();
        assertTrue(call(w, "read_file", "path", "/wiki/index.md")
                .result()
                .content()
                .startsWith("# The index\n"));
        assertEquals(
                "/wiki/index.md",
                call(w, "list_files", "path", "/wiki").result().content());
        assertEquals(
                12,
                call(w, "list_files", "path", "/docs")
                        .result()
                        .content()
                        .lines()
                        .count());
        assertEquals(13, call(w, "list_files").result().content().lines().count());
        String hits = call(w, "search", "query", "DROUGHT NOTICE", "path", "/docs")
                .result()
                .content();
        assertTrue(
                hits.lines()
                        .allMatch(l -> l.startsWith("/docs/") && l.toLowerCase().contains("drought notice")),
                hits);
        assertTrue(hits.lines().count() >= 3, hits);
        assertEquals(
                "(no matches)", call(w, "search", "query", "zebra").result().content());
    }

    @Test
    void failedCallsAreErrorsAndChangeNothing() {
        Workspace w = call(seeded, "write_file", "path", "/wiki/a.md", "content", "x x")
                .after();
        for (WikiTools.Step s : List.of(
                call(w, "write_file", "path", "/docs/charter.md", "content", "forged"),
                call(w, "read_file", "path", "/wiki/missing.md"),
                call(w, "edit_file", "path", "/wiki/a.md", "old_text", "x", "new_text", "y"),
                call(w, "edit_file", "path", "/wiki/a.md", "old_text", "z", "new_text", "y"),
                call(w, "write_file", "path", "/wiki/../docs/charter.md", "content", "forged"),
                call(w, "write_file", "path", "/wiki/a.md"),
                call(w, "delete_file", "path", "/wiki/a.md"))) {
            assertTrue(s.result().error(), s.result().content());
            assertTrue(s.result().content().startsWith("ERROR: "), s.result().content());
            assertSame(w, s.after());
        }
        assertTrue(call(w, "edit_file", "path", "/wiki/a.md", "old_text", "x", "new_text", "y")
                .result()
                .content()
                .contains("occurs 2 times"));
    }

    @Test
    void aForkIsTheValueAndTwoWorkspacesDiffByFile() {
        Workspace a = call(seeded, "write_file", "path", "/wiki/a.md", "content", "one")
                .after();
        Workspace b =
                call(a, "write_file", "path", "/wiki/b.md", "content", "two").after();
        Workspace c = call(a, "edit_file", "path", "/wiki/a.md", "old_text", "one", "new_text", "uno")
                .after();
        // Forks share: the branches left a as it was and share every untouched file with it.
        assertEquals("one", a.read("/wiki/a.md"));
        assertSame(a.files().get("/docs/charter.md"), c.files().get("/docs/charter.md"));
        assertEquals(
                List.of("+ [\"/wiki/b.md\"] = \"two\""),
                b.diff(a).stream().map(WorldDiff.Change::line).toList());
        assertEquals(
                List.of("~ [\"/wiki/a.md\"]: \"one\" -> \"uno\""),
                c.diff(a).stream().map(WorldDiff.Change::line).toList());
        assertEquals(List.of(), a.diff(a));
    }

    @Test
    void aFileDiffSaysWhichFilesWereAddedChangedAndRemovedWithTheirUnifiedDiffs() {
        Workspace a = Workspace.of(java.util.Map.of(
                "/wiki/a.md", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten", "/wiki/gone.md", "bye"));
        Workspace b = Workspace.of(java.util.Map.of(
                "/wiki/a.md", "one\ntwo\n3\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven", "/wiki/new.md", "hi"));
        var changes = b.fileDiff(a);
        assertEquals(
                List.of("~ /wiki/a.md (changed, +2 -1)", "- /wiki/gone.md (removed, -1)", "+ /wiki/new.md (added, +1)"),
                changes.stream().map(brokkr.world.FileDiff.Change::line).toList());
        // two hunks: the changes are seven lines apart, more than twice the context
        assertEquals(
                "--- /wiki/a.md\n+++ /wiki/a.md\n@@ -1,6 +1,6 @@\n one\n two\n-three\n+3\n four\n five\n six\n"
                        + "@@ -8,3 +8,4 @@\n eight\n nine\n ten\n+eleven\n",
                changes.get(0).unified());
        assertEquals(
                "--- /wiki/gone.md\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye\n",
                changes.get(1).unified());
        assertEquals(List.of(), a.fileDiff(a));
    }
}
