package brokkr.kernel;

import brokkr.magics.DomainSummary;
import brokkr.magics.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

class CellEvaluatorTest {
    static JShellEvaluator java;
    static CellEvaluator cells;

    @BeforeAll static void start() {
        java = new JShellEvaluator();
        cells = new CellEvaluator(java, new Session());
    }

    @AfterAll static void stop() { java.close(); }

    static Object value(String code) {
        JShellEvaluator.Value v = cells.eval(code, o -> {});
        assertTrue(v.present(), "no value for " + code);
        return v.object();
    }

    @Test void expressionValueIsTheLiveObject() {
        assertEquals(3, value("1 + 2"));
        cells.eval("var sb = new StringBuilder(\"ab\");", o -> {});
        Object sb = value("sb");
        assertInstanceOf(StringBuilder.class, sb);
        assertSame(sb, value("sb"));
    }

    @Test void aTrailingSemicolonHidesTheValue() {
        assertFalse(cells.eval("System.out.printf(\"\");", o -> {}).present());
        assertFalse(cells.eval("Math.max(1, 2);", o -> {}).present());
        assertEquals(2, value("Math.max(1, 2)"));
    }

    @Test void declarationsHaveNoValue() {
        assertFalse(cells.eval("int declared = 4;", o -> {}).present());
        assertEquals(5, value("declared + 1"));
    }

    @Test void magicResultBindsToATypedVariableUsableInTheNextCell() {
        cells.eval("var d = %domain load loop", o -> {});
        assertEquals(5, value("d.tasks()"));
        assertEquals("brokkr.magics.DomainSummary", value("d.getClass().getName()"));
        cells.eval("DomainSummary d2 = %domain load parallel", o -> {});
        assertEquals("parallel", value("d2.name()"));
        assertInstanceOf(DomainSummary.class, value("d2"));
    }

    @Test void magicsAndJavaRunInOrderAndEarlierValuesAreShown() {
        List<Object> shown = new ArrayList<>();
        Object last = cells.eval("%domain load loop\nint n = 2;\nn * 21", shown::add).object();
        assertEquals(42, last);
        assertEquals(1, shown.size());
        assertInstanceOf(DomainSummary.class, shown.getFirst());
        assertEquals(7, value("10 % 3 + 6"));
    }

    @Test void compileErrorNamesTheLine() {
        CellException e = assertThrows(CellException.class, () -> cells.eval("int a = 1;\nString s = a;", o -> {}));
        assertEquals(CellException.Kind.COMPILE, e.kind());
        assertTrue(e.traceback().getFirst().startsWith("line 2: "), e.traceback().toString());
        assertTrue(e.evalue().contains("incompatible types"), e.evalue());
    }

    @Test void runtimeErrorShowsUserFramesOnly() {
        CellException e = assertThrows(CellException.class, () -> cells.eval("int z = 0;\nint q = 1 / z;", o -> {}));
        assertEquals("java.lang.ArithmeticException", e.ename());
        assertEquals("/ by zero", e.evalue());
        String tb = String.join("\n", e.traceback());
        assertFalse(tb.contains("jdk.jshell"), tb);
        assertFalse(tb.contains("brokkr.kernel"), tb);
        assertTrue(tb.contains("at cell: top level (snippet #"), tb);
    }

    @Test void wrongMagicArgumentsGiveUsageNotStackTrace() {
        cells.eval("%domain load loop", o -> {});
        CellException e = assertThrows(CellException.class, () -> cells.eval("%tasks --bogus x", o -> {}));
        assertEquals(CellException.Kind.USAGE, e.kind());
        assertTrue(e.evalue().contains("usage: %tasks [--split S] [TEXT]"), e.evalue());
        assertFalse(String.join("\n", e.traceback()).contains("\tat "));
        CellException u = assertThrows(CellException.class, () -> cells.eval("%nosuchmagic", o -> {}));
        assertTrue(u.evalue().contains("no line magic %nosuchmagic"), u.evalue());
    }

    @Test void endlessLoopIsInterruptedAndTheSessionSurvives() throws Exception {
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

    @Test void completionInspectionAndCompleteness() {
        JShellEvaluator.Completion c = java.complete("Strin", 5);
        assertTrue(c.matches().contains("String"), c.matches().toString());
        assertEquals(0, c.start());
        String doc = java.inspect("Math.max(1, 2)", 6);
        assertNotNull(doc);
        assertTrue(doc.contains("max("), doc);
        assertEquals("incomplete", java.isComplete("for (int i = 0; i < 3; i++) {").status());
        assertEquals("complete", java.isComplete("int x = 3;").status());
    }
}
