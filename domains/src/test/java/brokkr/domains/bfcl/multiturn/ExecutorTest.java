package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.bfcl.BfclData;
import brokkr.python.source.PyLiterals;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * multi_turn_utils.execute_multi_turn_func_call semantics on small worlds built from literal configs: the
 * rewrite, forbidden names, CPython argument binding, result rendering, live results, process-global lists
 * and O(1) forks.
 */
class ExecutorTest {
    private static final String MODEL = "gpt-4.1-2025-04-14-FC";

    @SuppressWarnings("unchecked")
    private static TaskSetup task(String id, String config, String... classes) {
        return new TaskSetup(
                id, List.of(classes), (Map<Object, Object>) PyLiterals.eval(config, BfclData.PYTHON), false);
    }

    private static final TaskSetup FS = task(
            "multi_turn_base_0",
            "{'GorillaFileSystem': {'root': {'alex': {'type': 'directory', 'contents': {'d': {'type': 'directory', 'contents': "
                    + "{'g.txt': {'type': 'file', 'content': 'one\\ntwo'}}}}}}}, 'TicketAPI': {'current_user': 'ann'}}",
            "GorillaFileSystem",
            "TicketAPI");

    private static List<String> run(World w, TaskSetup t, String... calls) {
        return Executor.execute(w, t, MODEL, true, List.of(calls)).results();
    }

    @Test
    void variableNamesAndRewriteInsideStrings() {
        assertEquals(
                "gpt_4_1_2025_04_14_FC_eval_multi_turn_base_0_GorillaFileSystem_instance",
                Executor.variable(MODEL, true, "multi_turn_base_0", "GorillaFileSystem"));
        // the rewrite also touches method-call patterns inside string literals, dropping the space before '('
        assertEquals(
                List.of(
                        "{\"error\": \"cd: 'gpt_4_1_2025_04_14_FC_eval_multi_turn_base_0_GorillaFileSystem_instance.ls() now': "
                                + "No such file or directory\"}"),
                run(World.EMPTY, FS, "cd(folder='ls () now')"));
    }

    @Test
    void errorsAsUpstream() {
        assertEquals(
                List.of(
                        "Error during execution: Function call remove is not allowed.",
                        "Error during execution: Function call exit is not allowed.",
                        "Error during execution: name 'nope' is not defined",
                        "Error during execution: GorillaFileSystem.cd() got an unexpected keyword argument 'x'",
                        "Error during execution: GorillaFileSystem.diff() missing 2 required positional arguments: 'file_name1' and 'file_name2'",
                        "Error during execution: GorillaFileSystem.pwd() takes 1 positional argument but 2 were given",
                        "Error during execution: GorillaFileSystem.tail() takes from 2 to 3 positional arguments but 4 were given",
                        "Error during execution: GorillaFileSystem.cd() got multiple values for argument 'folder'",
                        "Error during execution: 'dict' object is not callable",
                        "Error during execution: 'dict' object has no attribute 'rstrip'",
                        "Error during execution: '(' was never closed (<string>, line 1)"),
                run(
                        World.EMPTY,
                        FS,
                        "os.remove('x')",
                        "exit()",
                        "nope(1)",
                        "cd(x=1)",
                        "diff()",
                        "pwd(1)",
                        "tail('a', 1, 2)",
                        "cd('d', folder='d')",
                        "ls()()",
                        "cd(folder=ls())",
                        "cd(folder='d'"));
    }

    @Test
    void renderingJsonForDictsStrOtherwise() {
        assertEquals(
                List.of(
                        "{\"current_working_directory\": \"d\"}",
                        "None",
                        "2",
                        "({'count': 2, 'type': 'lines'}, None)",
                        "[{'current_directory_content': ['g.txt', 'n.txt', 'm']}]",
                        "{\"terminal_output\": \"caf\\u00e9\"}"),
                run(
                        World.EMPTY,
                        FS,
                        "cd(folder='d')",
                        "touch(file_name='n.txt')",
                        "len('ab')",
                        "wc(file_name='g.txt'), touch('m')",
                        "[ls()]",
                        "echo(content='café')"));
    }

    @Test
    void aTupleOfCallsShowsLaterInPlaceChanges() {
        TaskSetup t = task("multi_turn_base_1", "{'TicketAPI': {'current_user': 'ann'}}", "TicketAPI");
        assertEquals(
                List.of(
                        "({'id': 1, 'title': 'x', 'description': '', 'status': 'Closed', 'priority': 1, 'created_by': 'ann'}, "
                                + "{'status': 'Ticket 1 has been closed successfully.'})"),
                run(World.EMPTY, t, "create_ticket(title='x'), close_ticket(1)"));
    }

    @Test
    void sharedDefaultMentionsListAcrossInstances() {
        TaskSetup t = task("multi_turn_base_2", "{'TwitterAPI': {'authenticated': True}}", "TwitterAPI");
        World w = Executor.execute(World.EMPTY, t, MODEL, true, List.of("post_tweet(content='a')"))
                .world();
        // the ground truth's instance posts too, then the model's mentions someone on its tweet
        w = Executor.execute(w, t, MODEL + "_ground_truth", true, List.of("post_tweet(content='b')"))
                .world();
        w = Executor.execute(w, t, MODEL, true, List.of("mention(tweet_id=0, mentioned_usernames=['@z'])"))
                .world();
        assertEquals(
                List.of(
                        "{\"id\": 0, \"username\": \"john\", \"content\": \"b\", \"tags\": [], \"mentions\": [\"@z\"]}"),
                Executor.execute(w, t, MODEL + "_ground_truth", true, List.of("get_tweet(0)"))
                        .results());
    }

    @Test
    void aTasksPristineWorldAndItsStateHashesAreWorkedOutOncePerProcess() {
        Executor.forgetMemos();
        World first = Executor.execute(World.EMPTY, FS, MODEL, true, List.of()).world();
        World again = Executor.execute(World.EMPTY, FS, MODEL, true, List.of()).world();
        assertSame(first, again, "the pristine world is made once");
        String v = Executor.variable(MODEL, true, FS.taskId(), "GorillaFileSystem");
        assertEquals(StateDump.sha(StateDump.renderState(first.state(v))), StateDump.stateSha(again, v));
        // a call that changes the instance gives a new hash; one that only reads keeps the instance (and its hash)
        World changed = Executor.execute(first, FS, MODEL, true, List.of("mkdir(dir_name='x')"))
                .world();
        assertNotEquals(StateDump.stateSha(first, v), StateDump.stateSha(changed, v));
        assertEquals(StateDump.sha(StateDump.renderState(changed.state(v))), StateDump.stateSha(changed, v));
        World read = Executor.execute(changed, FS, MODEL, true, List.of("ls()")).world();
        assertSame(changed.instance(v), read.instance(v));
        // the ground truth's instances are made on the model's world from the same globals: the same values
        World both = Executor.execute(first, FS, MODEL + "_ground_truth", true, List.of())
                .world();
        String gt = Executor.variable(MODEL + "_ground_truth", true, FS.taskId(), "GorillaFileSystem");
        assertEquals(StateDump.stateSha(first, v), StateDump.stateSha(both, gt));
        Executor.forgetMemos();
        assertNotSame(
                first, Executor.execute(World.EMPTY, FS, MODEL, true, List.of()).world(), "memos forgotten");
    }

    @Test
    void eachCallStringIsParsedOnce() {
        Executor.forgetMemos();
        String call = "x_instance.cd(folder='d')";
        assertSame(Executor.parsed(call), Executor.parsed(call));
    }

    @Test
    void theAsciiRewriteIsTheRegexRewrite() {
        Map<String, String> owner = Map.of("cd", "fs_instance", "ls", "fs_instance", "post_tweet", "tw_instance");
        for (String call : List.of(
                "cd(folder='d')",
                "ls ()",
                "ls\t\n(a=1)",
                "xcd(1)",
                "cd_x(1)",
                "1cd(2)",
                "a.cd(3)",
                "post_tweet(content='cd(x) and ls ( y', tags=['#a'])",
                "[cd(folder='a'), ls(a=True)]",
                "cd",
                "cd(",
                "_cd(1)",
                "cd9(1) ls",
                "",
                "ls()ls()")) {
            assertEquals(Executor.rewriteByRegex(call, owner), Executor.rewriteAscii(call, owner), call);
            assertEquals(Executor.rewriteByRegex(call, owner), Executor.rewrite(call, owner), call);
        }
        // beyond ASCII the regex (Unicode-aware \w and \b) decides
        assertEquals("éls(1)", Executor.rewrite("éls(1)", owner));
        assertEquals("é fs_instance.ls(1)", Executor.rewrite("é ls(1)", owner));
    }

    @Test
    void forkingIsKeepingAReference() {
        World base = Executor.execute(World.EMPTY, FS, MODEL, true, List.of("cd(folder='d')"))
                .world();
        World fork = Executor.execute(base, FS, MODEL, true, List.of("rm(file_name='g.txt')"))
                .world();
        String v = Executor.variable(MODEL, true, FS.taskId(), "GorillaFileSystem");
        assertNotEquals(StateDump.renderState(base.state(v)), StateDump.renderState(fork.state(v)));
        assertEquals(List.of("{\"file_content\": \"one\\ntwo\"}"), run(base, FS, "cat(file_name='g.txt')"));
        assertEquals(
                List.of("{\"error\": \"cat: 'g.txt': No such file or directory\"}"),
                run(fork, FS, "cat(file_name='g.txt')"));
    }

    @Test
    void copiedDirectoriesShareTheirFiles() {
        // cp gives the copy a shallow copy of the contents dict: writing through the copy changes the original
        World w = Executor.execute(
                        World.EMPTY,
                        FS,
                        MODEL,
                        true,
                        List.of(
                                "cp(source='d', destination='e')",
                                "cd(folder='e')",
                                "echo(content='new', file_name='g.txt')",
                                "cd(folder='..')",
                                "cd(folder='d')"))
                .world();
        assertEquals(
                List.of("{\"file_content\": \"new\"}", "{\"current_working_directory\": \"/alex/d\"}"),
                run(w, FS, "cat(file_name='g.txt')", "pwd()"));
        String v = Executor.variable(MODEL, true, FS.taskId(), "GorillaFileSystem");
        assertTrue(StateDump.canonical(StateDump.renderState(w.state(v))).contains("\"e\":{\"$dir\""));
    }
}
