package brokkr.magics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Exploration;
import brokkr.magics.view.CallOutcome;
import brokkr.magics.view.ForkView;
import brokkr.magics.view.RunView;
import brokkr.magics.view.TaskView;
import brokkr.world.WorldDiff;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/**
 * tau2 banking_knowledge in the notebook face: loaded by name, its tasks browsed, a task's world forked,
 * KB_search and the unlock / call mechanics of discoverable tools called on the fork, and the gold
 * candidate run on a task.
 */
class BankingMagicsTest {
    private final Session session = new Session();

    @Test
    void bankingLoadsBrowsesForksCallsAndRuns() throws Exception {
        DomainSummary s = (DomainSummary) session.magic("%domain load tau2-banking_knowledge");
        assertEquals(97, s.tasks());
        assertEquals(97, s.tasksPerSplit().get("base"));
        assertEquals(15, s.tools().size());
        assertTrue(s.tools().contains("KB_search"), s.tools().toString());
        assertTrue(
                s.files().size() > 698,
                "db.json, the 698 documents, the task files and the prompts: "
                        + s.files().size());
        assertTrue(s.files().stream().allMatch(Exploration.DataFile::verified));

        Table base = session.tasks("base", null);
        assertEquals(97, base.rowCount());
        TaskView t = session.task("task_036");
        assertFalse(t.goldActions().isEmpty());
        assertTrue(
                t.goldActions().stream().anyMatch(a -> a.contains("call_discoverable_agent_tool")),
                t.goldActions().toString());

        ForkView f = session.fork("task_036");
        // task_036 starts from db.json as it is (upstream's recorded initial_db_hash); the fork's world also holds the
        // session
        assertEquals("af324a7d72aced5889daf6cc044e573ad94ffa3bfe7cf65114fd3cfed5daaa48", t.initialWorldHash());
        assertEquals(64, f.worldHash().length());
        CallOutcome search = session.call("KB_search", "{\"query\": \"annual fee\"}");
        assertFalse(search.error(), search.content());
        assertTrue(search.content().startsWith("1. "), search.content());
        assertTrue(
                search.content().endsWith("\n\n[Timing: retrieval=0ms, reranking=0ms, total=0ms]"), search.content());
        assertTrue(search.changes().isEmpty(), "KB_search reads");

        String tool = "get_all_user_accounts_by_user_id_3847";
        CallOutcome locked = session.call(
                "call_discoverable_agent_tool", "{\"agent_tool_name\": \"" + tool + "\", \"arguments\": \"{}\"}");
        assertTrue(locked.content().contains("has not been unlocked"), locked.content());
        CallOutcome unlock = session.call("unlock_discoverable_agent_tool", "{\"agent_tool_name\": \"" + tool + "\"}");
        assertTrue(unlock.content().startsWith("Tool unlocked: " + tool), unlock.content());
        // unlocking is toolkit instance state (the session), not the hashed DB
        assertEquals(
                List.of("[\"session\"][\"unlocked\"][\"" + tool + "\"]"),
                unlock.changes().stream().map(WorldDiff.Change::path).toList());
        CallOutcome call = session.call(
                "call_discoverable_agent_tool", "{\"agent_tool_name\": \"" + tool + "\", \"arguments\": \"{}\"}");
        assertEquals(
                "Error: Invalid arguments: KnowledgeTools.get_all_user_accounts_by_user_id_3847() missing 1 required positional argument: 'user_id'",
                call.content());
        CallOutcome read = session.call(
                "call_discoverable_agent_tool",
                "{\"agent_tool_name\": \"" + tool + "\", \"arguments\": \"{\\\"user_id\\\": \\\"890389b165\\\"}\"}");
        assertTrue(read.content().startsWith("User accounts retrieved successfully."), read.content());
        assertTrue(
                read.changes().isEmpty(),
                "a read outside the task's read-log allowlist is not logged: " + read.changes());
        // a write: unlocked, then called; its record and the call's log entry land in the DB
        session.call("unlock_discoverable_agent_tool", "{\"agent_tool_name\": \"order_replacement_credit_card_7291\"}");
        CallOutcome order = session.call(
                "call_discoverable_agent_tool",
                "{\"agent_tool_name\": \"order_replacement_credit_card_7291\", "
                        + "\"arguments\": \"{\\\"credit_card_account_id\\\": \\\"cc_890389b165_silver\\\", \\\"user_id\\\": \\\"890389b165\\\", "
                        + "\\\"shipping_address\\\": \\\"1 Main St\\\", \\\"reason\\\": \\\"lost\\\"}\"}");
        assertTrue(order.content().startsWith("Order ID: ccord_"), order.content());
        List<String> paths =
                order.changes().stream().map(WorldDiff.Change::path).toList();
        assertTrue(paths.stream().anyMatch(p -> p.contains("credit_card_orders")), paths.toString());
        assertTrue(paths.stream().anyMatch(p -> p.contains("agent_discoverable_tools")), paths.toString());

        RunView gold = session.run("gold", "task_036");
        assertEquals(1.0, gold.reward(), gold.text());
        assertTrue(gold.checks().stream().allMatch(RunView.Check::passed), gold.text());
        RunView stop = session.run("stop", "task_036");
        assertEquals(0.0, stop.reward(), stop.text());
        assertEquals(List.of("base"), List.copyOf(s.tasksPerSplit().keySet()));
    }
}
