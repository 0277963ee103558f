package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import brokkr.domains.bfcl.BfclData;
import brokkr.python.PyObjects;
import brokkr.python.PySet;
import brokkr.python.PyTuple;
import brokkr.python.source.PyLiterals;
import brokkr.value.PyNone;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The canonical text written straight from Python objects ({@link StateDump#canonicalText}, remembered per persistent
 * container) is the text of the rendering ({@code canonical(render(x))}) for every kind of value, and a remembered
 * text never outlives a change: the file system's directory texts follow a write anywhere below them.
 */
class StateDumpTest {
    private static final String MODEL = "gpt-4.1-2025-04-14-FC";

    private static void same(Object o) {
        assertEquals(StateDump.canonical(StateDump.render(o)), StateDump.canonicalText(o), PyObjects.repr(o));
        // a second time: from the remembered texts
        assertEquals(StateDump.canonical(StateDump.render(o)), StateDump.canonicalText(o), PyObjects.repr(o));
    }

    @Test
    void everyKindOfValueWritesItsRenderingsText() {
        for (String literal : List.of(
                "None",
                "True",
                "-12345678901234567890123",
                "0.1",
                "-0.0",
                "1e300",
                "'caf\\xe9 \"q\" \\\\ \\n \\U0001f600'",
                "[1, 2.5, 'x', None, [], {}]",
                "{'b': 1, 'a': [1, 2], 'B': {'z': (), 'y': (1,)}, 'é': 'x', '\\U0001f600': 1, '\\uffff': 2}",
                "{1: 'a', 'b': 2, (1, 'x'): 3, 2.5: None}",
                "{3: 'c', 1: 'a'}",
                "(1, [2, (3,)], {'k': 'v'})",
                "{'a': {1, 'x', (2, 3)}, 'b': set()}",
                "'" + "long text ".repeat(60) + "'",
                "['" + "long text ".repeat(60) + "', {'k': '" + "é".repeat(300) + "'}]")) {
            same(PyLiterals.eval(literal, BfclData.PYTHON));
        }
        same(Double.NaN);
        same(Double.POSITIVE_INFINITY);
        same(PyObjects.list(Double.NEGATIVE_INFINITY, PyObjects.dict("x", Double.NaN)));
        same(PyObjects.ELLIPSIS);
        // mutable Java containers (never remembered) and a set with members of several kinds
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put("z", new ArrayList<>(List.of(BigInteger.ONE, "s")));
        m.put("a", PyNone.NONE);
        same(m);
        same(new PySet(new LinkedHashSet<>(List.of(BigInteger.TWO, "b", PyTuple.of("t"))), false));
        same(new PySet(new LinkedHashSet<>(List.of("q", "p")), true));
    }

    @SuppressWarnings("unchecked")
    private static final TaskSetup FS = new TaskSetup(
            "multi_turn_base_0",
            List.of("GorillaFileSystem"),
            (Map<Object, Object>) PyLiterals.eval(
                    "{'GorillaFileSystem': {'root': {'alex': {'type': 'directory', 'contents': {"
                            + "'d': {'type': 'directory', 'contents': {'g.txt': {'type': 'file', 'content': 'one'}}},"
                            + "'e': {'type': 'directory', 'contents': {'h.txt': {'type': 'file', 'content': 'two'}}}}}}}}",
                    BfclData.PYTHON),
            false);

    @Test
    void aFileSystemsTextFollowsEveryChangeBelowADirectory() {
        String v = Executor.variable(MODEL, true, FS.taskId(), "GorillaFileSystem");
        World w = Executor.execute(World.EMPTY, FS, MODEL, true, List.of()).world();
        List<String> seen = new ArrayList<>();
        for (String call : List.of(
                "cd(folder='d')",
                "echo(content='changed', file_name='g.txt')",
                "touch(file_name='new.txt')",
                "cd(folder='..')",
                "cp(source='d', destination='e')",
                "mv(source='e', destination='f')",
                "rm(file_name='f')",
                "cd(folder='d')",
                "echo(content='again', file_name='g.txt')")) {
            w = Executor.execute(w, FS, MODEL, true, List.of(call)).world();
            String text = StateDump.stateText(w.state(v));
            assertEquals(StateDump.canonical(StateDump.renderState(w.state(v))), text, call);
            assertEquals(StateDump.sha(StateDump.renderState(w.state(v))), StateDump.stateSha(w, v), call);
            seen.add(text);
        }
        assertNotEquals(seen.get(0), seen.get(1), "a write two levels down changes the root's text");
        assertNotEquals(seen.get(7), seen.get(8), "a write in a copied directory changes the text");
    }
}
