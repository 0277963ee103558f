package brokkr.kernel;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A cell that would end the JVM (System.exit, Runtime.exit, Runtime.halt, however the call is spelled in
 * cell code) gets an error and the session lives on with its variables. Before the fix each of these
 * ended this very test JVM.
 */
class CellExitTest {
    static JShellEvaluator java;

    @BeforeAll
    static void start() {
        java = new JShellEvaluator();
        java.eval("int kept = 41;");
    }

    @AfterAll
    static void stop() {
        java.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "System.exit(3);                                                   | System.exit(3)",
                "Runtime.getRuntime().exit(4);                                     | Runtime.exit(4)",
                "Runtime.getRuntime().halt(5);                                     | Runtime.halt(5)",
                "java.util.function.IntConsumer q = System::exit; q.accept(6);     | System.exit(6)",
                "Runtime rt = Runtime.getRuntime(); java.util.function.IntConsumer h = rt::halt; h.accept(7); | Runtime.halt(7)",
                "void quit(int s) { System.exit(s); }\\nquit(8);                    | System.exit(8)",
                "class Main { static void main(String[] a) { System.exit(9); } }\\nMain.main(new String[0]); | System.exit(9)",
                "try { System.exit(10); } catch (Exception e) { kept = -1; }       | System.exit(10)",
            })
    void anExitInCellCodeIsRefusedAndTheSessionLives(String cell, String call) {
        CellException e = assertThrows(CellException.class, () -> java.eval(cell.replace("\\n", "\n")));
        assertEquals(CellException.Kind.RUNTIME, e.kind());
        assertEquals(ExitRefused.class.getName(), e.ename());
        assertTrue(e.evalue().startsWith(call + " refused"), e.evalue());
        String tb = String.join("\n", e.traceback());
        assertTrue(tb.contains("at cell:"), tb);
        assertFalse(tb.contains("brokkr.kernel.ExitGuard"), tb);
        assertEquals(42, java.eval("kept + 1").object(), "the session and its variables survive");
    }

    @Test
    void anExitInAThreadStartedByACellEndsThatThreadOnly() {
        List<Object> seen = new ArrayList<>();
        java.eval("Throwable[] died = new Throwable[1];");
        java.eval(
                "Thread t = new Thread(() -> System.exit(11)); t.setUncaughtExceptionHandler((th, x) -> died[0] = x); t.start(); t.join();");
        seen.add(java.eval("died[0].getClass().getName()").object());
        seen.add(java.eval("died[0].getMessage().startsWith(\"System.exit(11) refused\")")
                .object());
        assertEquals(List.of(ExitRefused.class.getName(), true), seen);
        assertEquals(42, java.eval("kept + 1").object());
    }

    @Test
    void codeThatDoesNotExitIsLoadedUnchanged() {
        byte[] plain = classBytes(CellExitTest.class);
        assertSame(plain, ExitGuard.redirect(plain), "a class without exit calls is not rewritten");
        assertEquals(6, java.eval("Math.max(2, 6)").object());
    }

    static byte[] classBytes(Class<?> c) {
        try (var in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
