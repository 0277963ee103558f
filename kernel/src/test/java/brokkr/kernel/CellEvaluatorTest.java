package brokkr.kernel;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.magics.Display;
import brokkr.magics.DomainSummary;
import brokkr.magics.Session;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.dflib.jjava.jupyter.kernel.display.mime.MIMEType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

class CellEvaluatorTest {
    static JShellEvaluator java;
    static CellEvaluator cells;

    @BeforeAll
    static void start() {
        java = new JShellEvaluator(List.of("static brokkr.kernel.Notebook.*"));
        cells = new CellEvaluator(java, new Session());
    }

    @AfterAll
    static void stop() {
        java.close();
    }

    static Object value(String code) {
        JShellEvaluator.Value v = cells.eval(code, o -> {});
        assertTrue(v.present(), "no value for " + code);
        return v.object();
    }

    @Test
    void expressionValueIsTheLiveObject() {
        assertEquals(3, value("1 + 2"));
        cells.eval("var sb = new StringBuilder(\"ab\");", o -> {});
        Object sb = value("sb");
        assertInstanceOf(StringBuilder.class, sb);
        assertSame(sb, value("sb"));
    }

    @Test
    void aTrailingSemicolonHidesTheValue() {
        assertFalse(cells.eval("System.out.printf(\"\");", o -> {}).present());
        assertFalse(cells.eval("Math.max(1, 2);", o -> {}).present());
        assertEquals(2, value("Math.max(1, 2)"));
    }

    @Test
    void declarationsHaveNoValue() {
        assertFalse(cells.eval("int declared = 4;", o -> {}).present());
        assertEquals(5, value("declared + 1"));
    }

    @Test
    void magicResultBindsToATypedVariableUsableInTheNextCell() {
        cells.eval("var d = %domain load loop", o -> {});
        assertEquals(7, value("d.tasks()")); // the loop benchmark's splits smoke, test and standard: 7 depths
        assertEquals("brokkr.magics.DomainSummary", value("d.getClass().getName()"));
        cells.eval("DomainSummary d2 = %domain load parallel", o -> {});
        assertEquals("parallel", value("d2.name()"));
        assertInstanceOf(DomainSummary.class, value("d2"));
    }

    @Test
    void magicsAndJavaRunInOrderAndEarlierValuesAreShown() {
        List<Object> shown = new ArrayList<>();
        Object last =
                cells.eval("%domain load loop\nint n = 2;\nn * 21", shown::add).object();
        assertEquals(42, last);
        assertEquals(1, shown.size());
        assertInstanceOf(DomainSummary.class, shown.getFirst());
        assertEquals(7, value("10 % 3 + 6"));
    }

    /** jupyter console sends exit and quit as code: a hint how to leave, never a compile error; the session lives on. */
    @Test
    void exitAndQuitAnswerHowToLeave() {
        for (String word : List.of("exit", "quit", " exit() ")) {
            CellException e = assertThrows(CellException.class, () -> cells.eval(word, v -> {}));
            assertEquals(CellException.Kind.USAGE, e.kind(), word);
            assertTrue(e.getMessage().contains("Ctrl-D") && e.getMessage().contains("Kernel menu"), e.getMessage());
        }
        assertEquals(3, cells.eval("1 + 2", v -> {}).object());
    }

    /** An interrupted cell says so once (its head and its one traceback line were both printed). */
    @Test
    void anInterruptSaysInterruptedOnce() {
        List<String> lines = CellException.lines(JShellEvaluator.interrupted());
        assertEquals(1, lines.stream().filter(l -> l.contains("Interrupted")).count(), lines.toString());
    }

    @Test
    void compileErrorNamesTheLine() {
        CellException e = assertThrows(CellException.class, () -> cells.eval("int a = 1;\nString s = a;", o -> {}));
        assertEquals(CellException.Kind.COMPILE, e.kind());
        assertTrue(
                e.traceback().getFirst().startsWith("line 2: "), e.traceback().toString());
        assertTrue(e.evalue().contains("incompatible types"), e.evalue());
    }

    @Test
    void runtimeErrorShowsUserFramesOnly() {
        CellException e = assertThrows(CellException.class, () -> cells.eval("int z = 0;\nint q = 1 / z;", o -> {}));
        assertEquals("java.lang.ArithmeticException", e.ename());
        assertEquals("/ by zero", e.evalue());
        String tb = String.join("\n", e.traceback());
        assertFalse(tb.contains("jdk.jshell"), tb);
        assertFalse(tb.contains("brokkr.kernel"), tb);
        assertTrue(tb.contains("at cell: top level (snippet #"), tb);
    }

    @Test
    void wrongMagicArgumentsGiveUsageNotStackTrace() {
        cells.eval("%domain load loop", o -> {});
        CellException e = assertThrows(CellException.class, () -> cells.eval("%tasks --bogus x", o -> {}));
        assertEquals(CellException.Kind.USAGE, e.kind());
        assertTrue(e.evalue().contains("usage: %tasks [--split S] [TEXT]"), e.evalue());
        assertFalse(String.join("\n", e.traceback()).contains("\tat "));
        CellException u = assertThrows(CellException.class, () -> cells.eval("%nosuchmagic", o -> {}));
        assertTrue(u.evalue().contains("no line magic %nosuchmagic"), u.evalue());
    }

    @Test
    void endlessLoopIsInterruptedAndTheSessionSurvives() throws Exception {
        cells.eval("int kept = 41;", o -> {});
        CompletableFuture<Throwable> f = CompletableFuture.supplyAsync(() -> {
            try {
                cells.eval("while (true) { }", o -> {});
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        Thread.sleep(700);
        assertFalse(f.isDone());
        cells.interrupt();
        Throwable t = f.get(10, TimeUnit.SECONDS);
        assertInstanceOf(CellException.class, t);
        assertEquals(CellException.Kind.INTERRUPTED, ((CellException) t).kind());
        assertEquals(42, value("kept + 1"));
    }

    /**
     * An interrupt that comes after the execute request but before the cell's code runs (the cell thread not
     * started yet, JShell still compiling) ends the cell: it was lost, JShell ignoring a stop while no user
     * code runs and the magic thread not known yet. The next cell is not affected.
     */
    @Test
    void anInterruptBeforeTheCellRunsEndsIt(@TempDir Path dir) throws Exception {
        cells.eval("int before = 1;", o -> {});
        for (String cell : List.of(
                "while (true) { }",
                "int a = 1;\nwhile (true) { }",
                "%%experiment --dir " + dir.resolve("exp") + " --name early\n"
                        + "domain: loop\nsplit: smoke\ncandidates: [{id: ideal, provider: scripted, model: ideal}]\n"
                        + "repetitions: 50\nparallelism: 2\n")) {
            cells.beginCell();
            cells.interrupt();
            CompletableFuture<Throwable> f = CompletableFuture.supplyAsync(() -> {
                try {
                    cells.eval(cell, o -> {});
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            Throwable t = f.get(30, TimeUnit.SECONDS);
            assertInstanceOf(CellException.class, t, cell);
            assertEquals(CellException.Kind.INTERRUPTED, ((CellException) t).kind(), cell);
            assertEquals(2, value("before + 1"), "the next cell runs: " + cell);
        }
        // the second cell's first statement did not run either: the stop held for the cell's later snippets
        CellException e = assertThrows(CellException.class, () -> cells.eval("a", o -> {}));
        assertNotEquals(CellException.Kind.INTERRUPTED, e.kind());
    }

    @Test
    void completionInspectionAndCompleteness() {
        JShellEvaluator.Completion c = java.complete("Strin", 5);
        assertTrue(c.matches().contains("String"), c.matches().toString());
        assertEquals(0, c.start());
        JShellEvaluator.Inspection doc = java.inspect("Math.max(1, 2)", 6);
        assertNotNull(doc);
        assertTrue(doc.text().contains("max("), doc.text());
        assertEquals(
                "incomplete", java.isComplete("for (int i = 0; i < 3; i++) {").status());
        assertEquals("complete", java.isComplete("int x = 3;").status());
    }

    @Test
    void inspectionAtTheEndOfAnIdentifierShowsRenderedJavadoc() {
        for (String code : List.of("Math.max", "int m = Math.max")) {
            JShellEvaluator.Inspection doc = java.inspect(code, code.length());
            assertNotNull(doc, "nothing for the cursor at the end of " + code);
            assertTrue(doc.text().startsWith("int Math.max(int a, int b)"), doc.text());
            assertTrue(doc.text().contains("Returns the greater of two int values."), doc.text());
            assertTrue(doc.text().contains("Parameters:\n  a – an argument."), doc.text());
            assertTrue(doc.markdown().contains("Returns the greater of two `int` values."), doc.markdown());
            assertTrue(doc.markdown().contains("**Parameters:**\n- `a` – an argument."), doc.markdown());
            for (String raw : List.of("{@code", "{@link", "<p>", "@param", "@return")) {
                assertFalse(
                        doc.text().contains(raw) || doc.markdown().contains(raw), raw + " left in:\n" + doc.markdown());
            }
        }
        assertNotNull(java.inspect("List.of", 3), "in the middle of a type name");
        assertNull(java.inspect("noSuchThingAnywhere", 19));
    }

    @Test
    void errorsNameCellCodeAsWrittenWithoutJShellInternals() {
        cells.eval("class Boom extends RuntimeException { Boom() { super(\"boom\"); } }", o -> {});
        cells.eval("class Widget {}", o -> {});
        List<String> texts = new ArrayList<>();
        CellException thrown = assertThrows(CellException.class, () -> cells.eval("throw new Boom();", o -> {}));
        assertEquals("Boom", thrown.ename());
        texts.add(String.join("\n", CellException.lines(thrown)));
        CellException npe =
                assertThrows(CellException.class, () -> cells.eval("Widget w = null;\nw.hashCode()", o -> {}));
        assertTrue(npe.evalue().contains("because \"w\" is null"), npe.evalue());
        texts.add(String.join("\n", CellException.lines(npe)));
        CellException cast = assertThrows(
                CellException.class, () -> cells.eval("Object o = new Widget();\nString s = (String) o;", o -> {}));
        assertTrue(cast.evalue().startsWith("class Widget cannot be cast to class java.lang.String"), cast.evalue());
        texts.add(String.join("\n", CellException.lines(cast)));
        CellException missing = assertThrows(CellException.class, () -> cells.eval("undefinedThing + 1", o -> {}));
        texts.add(String.join("\n", CellException.lines(missing)));
        cells.eval("int down(int n) { return down(n + 1); }", o -> {});
        CellException deep = assertThrows(CellException.class, () -> cells.eval("down(0)", o -> {}));
        assertEquals("java.lang.StackOverflowError", deep.ename());
        List<String> deepLines = CellException.lines(deep);
        assertTrue(deepLines.size() < 10, "a runaway recursion is a few lines: " + deepLines);
        assertTrue(
                deepLines.stream().anyMatch(l -> l.matches("\t\\.\\.\\. the frame above \\d+ more times")),
                deepLines.toString());
        assertEquals("java.lang.StackOverflowError", deepLines.getFirst(), "no ': ' after a name without a message");
        texts.add(String.join("\n", deepLines));
        for (String t : texts) {
            assertFalse(
                    t.contains("REPL.")
                            || t.contains("$JShell$")
                            || t.contains("$Cancel$")
                            || t.contains("stopCheck")
                            || t.contains("RemoteClassLoader")
                            || t.matches("(?s).*location: class\\s*(\n.*)?$"),
                    t);
            assertFalse(t.lines().anyMatch(l -> l.strip().equals("location: class")), t);
        }
    }

    @Test
    void arraysRecordsAndCellObjectsPrintReadably() {
        var text = (Function<Object, String>)
                o -> String.valueOf(ReadableValues.renderer().render(o).getData(MIMEType.TEXT_PLAIN));
        assertEquals("[1, 2, 3]", text.apply(value("new int[]{1, 2, 3}")));
        assertEquals("[[1], [2, 3]]", text.apply(value("new int[][]{{1}, {2, 3}}")));
        assertEquals("[a, null]", text.apply(value("new String[]{\"a\", null}")));
        cells.eval("record Pt(int x, double[] ys, List<int[]> more) {}", o -> {});
        assertEquals(
                "Pt[x=1, ys=[0.5], more=[[7]]]",
                text.apply(value("new Pt(1, new double[]{0.5}, List.of(new int[]{7}))")));
        cells.eval("record Named(int x) { public String toString() { return \"named \" + x; } }", o -> {});
        assertEquals("named 3", text.apply(value("new Named(3)")), "a record's own toString is kept");
        cells.eval("class Plain {}", o -> {});
        assertTrue(text.apply(value("new Plain()")).matches("Plain@[0-9a-f]+"), text.apply(value("new Plain()")));
        assertEquals("hello", text.apply(value("\"hello\"")));
        String big = text.apply(value("new long[250]"));
        assertTrue(big.endsWith(", ... (150 more)]"), big);
        assertEquals("[[...]]", text.apply(value("Object[] self = new Object[1]; self[0] = self; self")));
        // what a magic's table or a rich value renders is unchanged
        assertTrue(text.apply(value("%help run")).contains("%run --task ID --candidate C|PROVIDER:MODEL"));
    }

    @Test
    void displayShowsTheValueOnceAndItsHandleIsNoValueOfTheCell() {
        Session s = cells.session();
        List<Object> shown = new ArrayList<>();
        List<String> updated = new ArrayList<>();
        Display before = s.display();
        s.display(new Display() {
            @Override
            public String show(Object value) {
                shown.add(value);
                return "id-" + shown.size();
            }

            @Override
            public void update(String id, Object value) {
                updated.add(id + "=" + value);
            }
        });
        Session.publish(s);
        try {
            assertFalse(cells.eval("display(\"first\")", o -> {}).present(), "display(x) has no value of its own");
            assertEquals(List.of("first"), shown);
            cells.eval(
                    "var handle = display(\"again\");\nhandle.update(\"third\");\nupdate(handle, \"fourth\");",
                    o -> {});
            assertEquals(List.of("id-2=third", "id-2=fourth"), updated);
            assertEquals("id-2", value("handle.id()"));
        } finally {
            s.display(before);
        }
    }

    @Test
    void timeReportsWallTimeAndKeepsTheValue() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            assertEquals(6, value("%time 1 + 5"));
            List<Object> shown = new ArrayList<>();
            Object last = cells.eval(
                            "%%time\nThread.sleep(30);\n%domain load loop\nint timed = 7;\ntimed * 6", shown::add)
                    .object();
            assertEquals(42, last);
            assertEquals(1, shown.size(), "the domain summary inside %%time is shown as in any cell");
            assertFalse(cells.eval("%time int declaredInTime = 3;", o -> {}).present());
            assertEquals(4, value("declaredInTime + 1"));
            var bound = cells.eval("var sum = %time 20 + 22", o -> {});
            assertFalse(bound.present());
            assertEquals(42, value("sum"));
        } finally {
            System.setOut(out);
        }
        List<String> lines = bytes.toString(StandardCharsets.UTF_8)
                .lines()
                .filter(l -> l.startsWith("Wall time: "))
                .toList();
        assertEquals(4, lines.size(), lines.toString());
        assertTrue(lines.get(1).matches("Wall time: \\d+(\\.\\d)? ms|Wall time: \\d\\.\\d\\d s"), lines.get(1));
        assertEquals("850 µs", KernelMagics.duration(850_000));
        assertEquals("12.3 ms", KernelMagics.duration(12_340_000));
        assertEquals("1.24 s", KernelMagics.duration(1_240_000_000));
        assertEquals("2 min 5.0 s", KernelMagics.duration(125_000_000_000L));
        CellException e = assertThrows(CellException.class, () -> cells.eval("%time", o -> {}));
        assertEquals(CellException.Kind.USAGE, e.kind());
    }

    @Test
    void varsListsTheSessionsVariablesWithTypeAndShortValue() {
        cells.eval("int counted = 12;\nString label = \"x\".repeat(200);\nint[] arr = {4, 5};\n1 + 1", o -> {});
        Table t = (Table) value("%vars");
        List<String> names = t.stringColumn("name").asList();
        assertTrue(names.containsAll(List.of("counted", "label", "arr")), names.toString());
        assertTrue(names.stream().noneMatch(n -> n.startsWith("$")), "JShell's temporaries are left out: " + names);
        int i = names.indexOf("counted");
        assertEquals("int", t.stringColumn("type").get(i));
        assertEquals("12", t.stringColumn("value").get(i));
        int a = names.indexOf("arr");
        assertEquals("int[]", t.stringColumn("type").get(a));
        assertEquals("[4, 5]", t.stringColumn("value").get(a));
        String label = t.stringColumn("value").get(names.indexOf("label"));
        assertEquals(80, label.length());
        assertTrue(label.endsWith("..."), label);
    }
}
