package brokkr.kernel;

import brokkr.magics.MagicUsageException;
import brokkr.magics.Session;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One cell as the kernel and the REPL run it: a {@code %%name args} first line hands the whole body to
 * a cell magic; otherwise lines starting with {@code %} are line magics and the Java between them goes to
 * JShell, in order. A line {@code [TYPE] NAME = %magic args} binds the magic's result to a Java variable
 * (with {@code var}, typed as the result's public class). Every value but the last is shown as it comes
 * ({@code show}); the last is the cell's result.
 */
public final class CellEvaluator {
    private static final Pattern BIND = Pattern.compile(
            "^\\s*((?:final\\s+)?[A-Za-z_$][\\w$.<>\\[\\], ?]*\\s+)?([A-Za-z_$][\\w$]*)\\s*=\\s*%([A-Za-z][\\w-]*)(.*?);?\\s*$");
    private static final Pattern LINE = Pattern.compile("^\\s*%([A-Za-z][\\w-]*)(.*)$");

    private final JShellEvaluator java;
    private final Session session;
    private volatile Thread magicThread;
    /** An interrupt asked for in the running cell's window (from {@link #beginCell()} on). */
    private volatile boolean interruptRequested;
    /** The next cell's window was opened by {@link #beginCell()} and its {@link #eval} has not begun. */
    private volatile boolean cellBegun;

    private Consumer<Object> show = o -> {};

    /** With the session magics ({@link KernelMagics}) added to the session's registry; {@code %maven} reads the user's Maven settings. */
    public CellEvaluator(JShellEvaluator java, Session session) {
        this(java, session, () -> MavenDependencies.fromEnvironment(System.getenv(), System.getProperties()));
    }

    /** With {@code %maven} resolving through {@code maven} (made at the first {@code %maven}). */
    public CellEvaluator(JShellEvaluator java, Session session, Supplier<MavenDependencies> maven) {
        this.java = java;
        this.session = session;
        KernelMagics.install(this, session.magics(), maven);
    }

    public JShellEvaluator java() {
        return java;
    }

    public Session session() {
        return session;
    }

    /**
     * Opens the next cell's interrupt window: an interrupt from now on ends that cell, even one that comes
     * before the cell's thread starts it or while JShell compiles it (both were lost: the magic thread was
     * not known yet, and JShell ignores a stop while no user code runs). The kernel calls this when the
     * execute request arrives; {@link #eval} opens the window itself when nobody did.
     */
    public void beginCell() {
        interruptRequested = false;
        java.beginCell();
        cellBegun = true;
    }

    /** The cell's value (present false when it has none); intermediate values go to {@code show}. */
    public JShellEvaluator.Value eval(String cell, Consumer<Object> show) {
        if (!cellBegun) beginCell();
        cellBegun = false;
        Consumer<Object> outer = this.show;
        this.show = show;
        try {
            return evalCell(cell, show);
        } finally {
            this.show = outer;
        }
    }

    /** A cell inside the running one ({@code %time CODE}, {@code %%time}): its values are shown where the running cell's are. */
    JShellEvaluator.Value evalNested(String code) {
        return evalCell(code, show);
    }

    /** What a person types to leave a shell; in a cell (jupyter console sends it as code) they are not Java. */
    static final Set<String> LEAVE_WORDS = Set.of("exit", "quit", "exit()", "quit()", "/exit");

    /** The answer to a word of {@link #LEAVE_WORDS}: how to leave each front end, instead of a compile error. */
    static final String LEAVE_HINT = "this is a Java kernel: to leave jupyter console press Ctrl-D (or type 'exit' at"
            + " the ./brokkr repl prompt); in a notebook, shut the kernel down from the Kernel menu";

    private JShellEvaluator.Value evalCell(String cell, Consumer<Object> show) {
        if (LEAVE_WORDS.contains(cell.strip()))
            throw new CellException(
                    CellException.Kind.USAGE, "UsageError", cell.strip() + ": " + LEAVE_HINT, List.of());
        String code = cell.stripLeading();
        if (code.startsWith("%%")) {
            int nl = code.indexOf('\n');
            String first = nl < 0 ? code : code.substring(0, nl);
            String body = nl < 0 ? "" : code.substring(nl + 1);
            String head = first.substring(2).strip();
            int sp = head.indexOf(' ');
            String name = sp < 0 ? head : head.substring(0, sp);
            String args = sp < 0 ? "" : head.substring(sp + 1);
            return value(magic(() -> session.magics().evalCell(session, name, args, body)));
        }
        List<String> lines = cell.lines().toList();
        StringBuilder javaBuf = new StringBuilder();
        JShellEvaluator.Value last = JShellEvaluator.Value.NONE;
        for (String line : lines) {
            Matcher bind = BIND.matcher(line);
            Matcher magic = LINE.matcher(line);
            boolean isBind = bind.matches() && javaBlank(javaBuf);
            boolean isMagic = !isBind && magic.matches() && javaComplete(javaBuf);
            if (!isBind && !isMagic) {
                javaBuf.append(line).append('\n');
                continue;
            }
            last = flush(javaBuf, last, show);
            if (isMagic) {
                String name = magic.group(1), args = magic.group(2).strip();
                show(last, show);
                last = value(magic(() -> session.magics().evalLine(session, name, args)));
            } else {
                show(last, show);
                last = JShellEvaluator.Value.NONE;
                String type = bind.group(1),
                        var = bind.group(2),
                        name = bind.group(3),
                        args = bind.group(4).strip();
                Object result = magic(() -> session.magics().evalLine(session, name, args));
                if (result instanceof JShellEvaluator.Value v) result = v.object();
                long id = MagicResults.park(result);
                String declared = type == null ? null : type.strip();
                String src;
                if (declared == null) src = var + " = brokkr.kernel.MagicResults.take(" + id + "L);";
                else if (declared.equals("var") || declared.equals("final var")) {
                    src = declared + " " + var + " = (" + publicType(result) + ") brokkr.kernel.MagicResults.take(" + id
                            + "L);";
                } else src = declared + " " + var + " = brokkr.kernel.MagicResults.take(" + id + "L);";
                java.eval(src);
            }
        }
        last = flush(javaBuf, last, show);
        return last;
    }

    /** A magic's result as the cell's value: none for null; a magic that ran code ({@code %time}) gives that code's value. */
    private static JShellEvaluator.Value value(Object result) {
        if (result instanceof JShellEvaluator.Value v) return v;
        return result == null ? JShellEvaluator.Value.NONE : new JShellEvaluator.Value(true, result);
    }

    private static void show(JShellEvaluator.Value v, Consumer<Object> show) {
        if (v.present() && v.object() != null) show.accept(v.object());
    }

    private JShellEvaluator.Value flush(StringBuilder buf, JShellEvaluator.Value last, Consumer<Object> show) {
        if (javaBlank(buf)) return last;
        show(last, show);
        String src = buf.toString();
        buf.setLength(0);
        JShellEvaluator.Value v = java.eval(src);
        // display(x) has shown x already; its handle is no value of the cell
        return v.object() instanceof Notebook.Displayed ? JShellEvaluator.Value.NONE : v;
    }

    private static boolean javaBlank(StringBuilder buf) {
        return buf.toString().isBlank();
    }

    /** A magic line may only start where no Java statement is open (a {@code %} inside an expression is the operator). */
    private boolean javaComplete(StringBuilder buf) {
        return javaBlank(buf) || java.isComplete(buf.toString()).status().equals("complete");
    }

    /** The most specific public class or interface of a result that JShell code can name. */
    static String publicType(Object o) {
        if (o == null) return "Object";
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            if (Modifier.isPublic(c.getModifiers()) && c.getCanonicalName() != null && accessible(c))
                return c.getCanonicalName();
            for (Class<?> i : c.getInterfaces()) {
                if (Modifier.isPublic(i.getModifiers()) && i.getCanonicalName() != null && accessible(i))
                    return i.getCanonicalName();
            }
        }
        return "Object";
    }

    private static boolean accessible(Class<?> c) {
        for (Class<?> e = c; e != null; e = e.getEnclosingClass())
            if (!Modifier.isPublic(e.getModifiers())) return false;
        Module m = c.getModule();
        return !m.isNamed() || m.isExported(c.getPackageName());
    }

    private interface MagicBody {
        Object run() throws Exception;
    }

    /**
     * Runs a magic on this thread, interruptible by {@link #interrupt()}; a usage error stays a short message.
     * The thread's context class loader is the cells' meanwhile, so what a magic finds through it (services,
     * resources) includes the jars {@code %maven} and {@code %jars} added.
     */
    private Object magic(MagicBody body) {
        Thread outer = magicThread;
        Thread self = Thread.currentThread();
        ClassLoader loader = self.getContextClassLoader();
        magicThread = self;
        // an interrupt that came before this thread was known (interrupt() read magicThread as null)
        if (interruptRequested) self.interrupt();
        self.setContextClassLoader(java.classLoader());
        try {
            return body.run();
        } catch (MagicUsageException e) {
            throw new CellException(
                    CellException.Kind.USAGE,
                    "UsageError",
                    e.getMessage(),
                    e.getMessage().lines().toList());
        } catch (InterruptedException e) {
            throw JShellEvaluator.interrupted();
        } catch (CellException e) {
            throw e;
        } catch (Exception e) {
            if (Thread.interrupted()) throw JShellEvaluator.interrupted();
            List<String> tb = new ArrayList<>();
            tb.add(e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
            for (StackTraceElement f : e.getStackTrace()) {
                if (!JShellEvaluator.internal(f.getClassName())) tb.add("\tat " + f);
            }
            throw new CellException(
                    CellException.Kind.RUNTIME, e.getClass().getName(), String.valueOf(e.getMessage()), tb);
        } finally {
            self.setContextClassLoader(loader);
            magicThread = outer;
            if (outer == null) Thread.interrupted();
        }
    }

    /** Interrupts the running cell: the JShell snippet stops at its next loop edge, a magic gets a thread interrupt. */
    public void interrupt() {
        interruptRequested = true;
        java.stop();
        Thread t = magicThread;
        if (t != null) t.interrupt();
    }
}
