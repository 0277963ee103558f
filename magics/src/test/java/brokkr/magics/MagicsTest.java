package brokkr.magics;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.eval.Exploration;
import brokkr.magics.view.CallOutcome;
import brokkr.magics.view.ForkView;
import brokkr.magics.view.RunView;
import brokkr.magics.view.TaskView;
import brokkr.value.Json;
import brokkr.value.Value;
import brokkr.world.WorldDiff;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

class MagicsTest {
    private final Session session = new Session();

    private Object magic(String line) throws Exception {
        return session.magic(line);
    }

    @Test
    void argsSplitLikeAShellAndParseOptions() {
        MagicArgs a = MagicArgs.of("--split test \"two words\" --candidate=gold it\\'s");
        assertEquals(List.of("--split", "test", "two words", "--candidate=gold", "it's"), a.words());
        MagicArgs.Parsed p = a.parse(Set.of("split", "candidate"), 5);
        assertEquals("test", p.option("split"));
        assertEquals("gold", p.option("candidate"));
        assertEquals(List.of("two words", "it's"), p.positionals());
        assertThrows(MagicUsageException.class, () -> MagicArgs.of("--nope 1").parse(Set.of("split"), 1));
        assertThrows(MagicUsageException.class, () -> MagicArgs.of("--split").parse(Set.of("split"), 1));
        assertThrows(MagicUsageException.class, () -> MagicArgs.of("a b").parse(Set.of(), 1));
        assertThrows(MagicUsageException.class, () -> MagicArgs.of("\"open"));
    }

    @Test
    void helpListsEveryMagicAndExplainsOne() throws Exception {
        StandardMagics.Help all = (StandardMagics.Help) magic("%help");
        // the built-ins, then the experiment, regrade, comparison and probe magics plugged in through ServiceLoader
        assertEquals(
                List.of(
                        "%branch",
                        "%call",
                        "%checkpoint",
                        "%compare",
                        "%diff",
                        "%domain",
                        "%experiment",
                        "%fork",
                        "%help",
                        "%passk",
                        "%probe",
                        "%regrade",
                        "%run",
                        "%scorecard",
                        "%scorecost",
                        "%task",
                        "%tasks",
                        "%%experiment"),
                all.magics().stream().map(MagicInfo::prefixed).toList());
        StandardMagics.Help one = (StandardMagics.Help) magic("%help %tasks");
        assertEquals("%tasks [--split S] [TEXT]", one.magics().getFirst().synopsis());
        MagicUsageException e = assertThrows(MagicUsageException.class, () -> magic("%help nosuch"));
        assertTrue(e.getMessage().contains("no magic named 'nosuch'"), e.getMessage());
    }

    @Test
    void usageErrorsCarryTheSynopsis() {
        MagicUsageException e = assertThrows(MagicUsageException.class, () -> magic("%domain open loop"));
        assertTrue(e.getMessage().startsWith("%domain: expected 'load NAME'"), e.getMessage());
        assertTrue(e.getMessage().endsWith("usage: %domain load NAME"), e.getMessage());
        assertTrue(
                assertThrows(MagicUsageException.class, () -> magic("%domain load atlantis"))
                        .getMessage()
                        .contains(
                                "unknown domain 'atlantis' (one of loop, parallel, tau2-retail, tau2-airline, tau2-telecom, tau2-banking_knowledge, bfcl, bfcl-multi-turn, wiki)"));
        assertTrue(assertThrows(MagicUsageException.class, () -> magic("%tasks"))
                .getMessage()
                .contains("no domain loaded"));
        assertTrue(assertThrows(MagicUsageException.class, () -> magic("%run --candidate ideal"))
                .getMessage()
                .contains("--candidate and --task are required"));
    }

    @Test
    void loopDomainSummaryTasksTaskAndRun() throws Exception {
        DomainSummary s = (DomainSummary) magic("%domain load loop");
        assertEquals(7, s.tasks(), "the sizes of smoke, test and standard (issue 31 item 12)");
        assertEquals(
                List.of("5", "10"),
                ((Table) magic("%tasks --split smoke")).stringColumn("id").asList());
        assertEquals(List.of("follow_pointer"), s.tools());
        assertTrue(s.html().contains("<table") && s.text().contains("none: worlds are generated from a seed"));
        Table t = (Table) magic("%tasks 20");
        assertEquals(List.of("20", "200"), t.stringColumn("id").asList());
        TaskView task = (TaskView) magic("%task 3");
        assertEquals(3, task.goldActions().size());
        assertTrue(task.goldActions().getFirst().startsWith("follow_pointer(key=\"k"));
        RunView ideal = (RunView) magic("%run --candidate ideal --task 12");
        assertEquals(1.0, ideal.reward());
        assertEquals("PASS depth=12 toolCalls=12/12", ideal.resultLine());
        RunView retry = session.run("retry", "12");
        assertEquals(0.0, retry.reward());
        assertFalse(retry.checks().get(1).passed());
        assertTrue(
                retry.html()
                        .contains(
                                "<span style=\"color:#cf222e;font-weight:600\">✗ FAIL</span> one call per hop: 13/12 calls"),
                retry.html());
        assertTrue(retry.markdown().contains("- ✓ pass answer is the secret"), retry.markdown());
        // Pass and fail differ in words and colour, never only in an emoji's glyph (boxes without an emoji font).
        for (String out : List.of(retry.html(), retry.markdown(), retry.text(), ideal.html(), ideal.markdown()))
            assertTrue(out.codePoints().noneMatch(Character::isEmojiPresentation), out);
        assertTrue(retry.markdown().startsWith("**loop** task `12`"));
        assertThrows(MagicUsageException.class, () -> magic("%run --candidate ideal --task -3"));
        assertThrows(MagicUsageException.class, () -> magic("%run --candidate genius --task 3"));
    }

    @Test
    void parallelRunCountsTurns() throws Exception {
        magic("%domain load parallel");
        RunView batch = session.run("batch", "8");
        assertEquals("pd tasks=8 calls=8 turns=1 maxConcurrency=8 efficiency=8.0 correct=yes", batch.resultLine());
        RunView serial = session.run("serial", "4");
        assertEquals(1.0, serial.reward());
        assertEquals(
                4,
                serial.transcript().assistantMessages().stream()
                        .filter(m -> m.hasToolCalls())
                        .count());
    }

    @Test
    void syntheticForkCallsAreReadOnly() throws Exception {
        magic("%domain load loop");
        ForkView f = (ForkView) magic("%fork 5");
        assertEquals("5", f.taskId());
        String start = brokkr.domains.synthetic.loop.PointerChain.of(5).start();
        CallOutcome ok = (CallOutcome) magic("%call follow_pointer {\"key\": \"" + start + "\"}");
        assertFalse(ok.error());
        assertTrue(ok.content().startsWith("fragment="), ok.content());
        assertTrue(ok.changes().isEmpty());
        CallOutcome bad = (CallOutcome) magic("%call follow_pointer {\"key\": \"nowhere\"}");
        assertTrue(bad.error());
        assertTrue(assertThrows(MagicUsageException.class, () -> magic("%call follow_pointer [1]"))
                .getMessage()
                .contains("arguments must be a JSON object, got list"));
        assertTrue(assertThrows(MagicUsageException.class, () -> magic("%call follow_pointer {oops"))
                .getMessage()
                .contains("not valid JSON"));
        assertTrue(assertThrows(MagicUsageException.class, () -> magic("%call teleport {}"))
                .getMessage()
                .contains("no tool 'teleport'"));
    }

    @Test
    void retailForksAreIndependentAndDiffsShowWhatChanged() throws Exception {
        DomainSummary s = (DomainSummary) magic("%domain load tau2-retail");
        assertEquals(114, s.tasks());
        assertEquals(40, s.tasksPerSplit().get("test"));
        assertEquals(74, s.tasksPerSplit().get("train"));
        assertEquals(16, s.tools().size());
        assertEquals(4, s.files().size());
        assertTrue(s.files().stream().allMatch(Exploration.DataFile::verified));
        Table test = session.tasks("test", null);
        assertEquals(40, test.rowCount());
        assertTrue(assertThrows(MagicUsageException.class, () -> session.tasks("dev", null))
                .getMessage()
                .contains("no split 'dev'"));
        TaskView t0 = session.task("0");
        assertEquals("DB, NL_ASSERTION", t0.rewardBasis());
        assertEquals(5, t0.goldActions().size());
        assertTrue(t0.scenario().contains("#W2378156"));
        assertThrows(MagicUsageException.class, () -> session.task("no-such-task"));

        ForkView f = session.fork("0");
        assertEquals(t0.initialWorldHash(), f.worldHash());
        CallOutcome cancel =
                session.call("cancel_pending_order", "{\"order_id\": \"#W5918442\", \"reason\": \"no longer needed\"}");
        assertFalse(cancel.error(), cancel.content());
        List<String> paths =
                cancel.changes().stream().map(WorldDiff.Change::path).toList();
        assertTrue(paths.contains("[\"orders\"][\"#W5918442\"][\"status\"]"), paths.toString());
        WorldDiff.Change status = cancel.changes().stream()
                .filter(c -> c.path().endsWith("[\"status\"]"))
                .findFirst()
                .orElseThrow();
        assertEquals(Value.str("pending"), status.before());
        assertEquals(Value.str("cancelled"), status.after());
        // the fork moved on: cancelling again fails; a new fork is pristine again
        assertTrue(
                session.call("cancel_pending_order", "{\"order_id\": \"#W5918442\", \"reason\": \"no longer needed\"}")
                        .error());
        session.fork("0");
        CallOutcome fresh = session.call("get_order_details", "{\"order_id\": \"#W5918442\"}");
        assertEquals(
                "pending", Json.parse(fresh.content()).asDict().get("status").asStr());
        assertTrue(fresh.changes().isEmpty());
        RunView gold = session.run("gold", "0");
        assertEquals(1.0, gold.reward(), gold.text());
        assertTrue(gold.checks().stream().allMatch(RunView.Check::passed), gold.text());
        assertTrue(
                gold.checks().stream()
                        .anyMatch(c -> c.name().equals("DB") && c.detail().equals("in the reward basis")),
                gold.text());
        assertTrue(
                gold.dialogue().stream().anyMatch(l -> l.text().contains("→ exchange_delivered_order_items(")),
                gold.text());
        assertEquals("reward 1.0, agent_stop, 12 steps, 0 tool errors", gold.resultLine());
        RunView stop = session.run("stop", "0");
        assertEquals(0.0, stop.reward());
        assertTrue(stop.html().contains("✗ FAIL</span> DB: in the reward basis"), stop.html());
        assertTrue(assertThrows(MagicUsageException.class, () -> session.run("llm", "0"))
                .getMessage()
                .contains("one of gold, stop"));
        assertTrue(assertThrows(MagicUsageException.class, () -> session.run("gold", "9999"))
                .getMessage()
                .contains("no tau2-retail task '9999'"));
    }

    @Test
    void magicLinesComplete() throws Exception {
        Session s = new Session();
        assertEquals(new MagicCompletion.Result(List.of("task", "tasks"), 1), MagicCompletion.complete(s, "%ta", 3));
        assertEquals(
                List.of("experiment"), MagicCompletion.complete(s, "%%ex", 4).matches());
        assertEquals(
                List.of("loop"),
                MagicCompletion.complete(s, "%domain load lo", 15).matches());
        assertEquals(13, MagicCompletion.complete(s, "%domain load lo", 15).start());
        assertEquals(List.of(), MagicCompletion.complete(s, "%task ", 6).matches());
        assertNull(MagicCompletion.complete(s, "int x = 1;", 3));
        s.domain("loop");
        assertEquals(
                List.of("10", "100"), MagicCompletion.complete(s, "%task 10", 8).matches());
        assertEquals(
                List.of("early-stop"),
                MagicCompletion.complete(s, "%run --candidate e", 18).matches());
        assertEquals(
                List.of("--task"),
                MagicCompletion.complete(s, "%run --candidate ideal --t", 26).matches());
        assertEquals(
                List.of("smoke", "test", "standard"),
                MagicCompletion.complete(s, "%tasks --split ", 15).matches());
        assertEquals(
                List.of("follow_pointer"),
                MagicCompletion.complete(s, "%call f", 7).matches());
    }

    @Test
    void bfclSummaryTasksAndTask() throws Exception {
        DomainSummary s = session.domain("bfcl");
        assertEquals(
                s.tasksPerSplit().values().stream().mapToInt(Integer::intValue).sum(), s.tasks());
        assertTrue(
                s.tasksPerSplit().containsKey("simple_python"),
                s.tasksPerSplit().toString());
        assertTrue(s.files().size() >= 10 && s.files().stream().allMatch(Exploration.DataFile::verified));
        Table simple = session.tasks("simple_python", null);
        assertEquals(s.tasksPerSplit().get("simple_python"), simple.rowCount());
        String id = simple.stringColumn("id").get(0);
        TaskView t = session.task(id);
        assertTrue(t.scenario().contains("functions: "), t.scenario());
        assertEquals("AST match of the call(s)", t.rewardBasis());
        assertFalse(t.goldActions().isEmpty());
        assertTrue(assertThrows(MagicUsageException.class, () -> session.fork(id))
                .getMessage()
                .contains("no world to fork"));
        assertTrue(assertThrows(MagicUsageException.class, () -> session.run("gold", id))
                .getMessage()
                .contains("%%experiment"));
    }

    @Test
    void worldDiffReportsAddedRemovedAndChangedPaths() {
        Value a = Json.parse("{\"x\": 1, \"l\": [1, 2], \"d\": {\"k\": \"v\"}}");
        Value b = Json.parse("{\"x\": 2, \"l\": [1], \"d\": {\"k\": \"v\", \"n\": null}}");
        List<String> lines =
                WorldDiff.diff(a, b).stream().map(WorldDiff.Change::line).toList();
        assertEquals(List.of("~ [\"x\"]: 1 -> 2", "- [\"l\"][1] (was 2)", "+ [\"d\"][\"n\"] = null"), lines);
        assertTrue(WorldDiff.diff(a, a).isEmpty());
    }
}
