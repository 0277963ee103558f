package brokkr.kernel;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jshell.Diag;
import jdk.jshell.EvalException;
import jdk.jshell.ExpressionSnippet;
import jdk.jshell.JShell;
import jdk.jshell.JShellException;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.UnresolvedReferenceException;
import jdk.jshell.VarSnippet;

/**
 * Java evaluation with the JShell API on the local execution engine: snippets run in this JVM, on
 * the kernel's class path. A cell's value is the live object of its last expression (not JShell's
 * string), so the renderer registry can show tables and charts.
 */
public final class JShellEvaluator implements AutoCloseable {
    /** Imports every session starts with: the magics' Java API and the libraries it returns. */
    public static final List<String> DEFAULT_IMPORTS = List.of(
            "java.util.*",
            "java.util.stream.*",
            "java.nio.file.*",
            "brokkr.magics.*",
            "brokkr.magics.view.*",
            "brokkr.magics.builtin.*",
            "brokkr.magics.display.*",
            "brokkr.render.chart.*",
            "brokkr.value.*",
            "tech.tablesaw.api.*",
            "org.knowm.xchart.*");

    /** The value of an evaluation: {@code present} false when the last snippet was a declaration or statement. */
    public record Value(boolean present, Object object) {
        static final Value NONE = new Value(false, null);
    }

    private final JShell shell;
    private final CapturingExecutionControl control;
    private final SourceCodeAnalysis analysis;
    private final Map<String, String> varClasses = new ConcurrentHashMap<>();
    private volatile boolean stopped;

    public JShellEvaluator() {
        this(List.of());
    }

    /** With imports beyond {@link #DEFAULT_IMPORTS} (e.g. {@code "static brokkr.kernel.Notebook.*"}). */
    public JShellEvaluator(List<String> extraImports) {
        CapturingExecutionControl.Provider provider = new CapturingExecutionControl.Provider();
        this.shell = JShell.builder().executionEngine(provider, Map.of()).build();
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!entry.isBlank()) shell.addToClasspath(entry);
        }
        this.analysis = shell.sourceCodeAnalysis();
        for (String i : DEFAULT_IMPORTS) shell.eval("import " + i + ";");
        for (String i : extraImports) shell.eval("import " + i + ";");
        this.control = provider.control();
    }

    /** Compiles and runs a trivial snippet, so the first user cell does not pay the compiler's start-up. */
    public void warmUp() {
        eval("int $warm = 1 + 1;");
        shell.drop(shell.snippets()
                .filter(s -> s instanceof VarSnippet v && v.name().equals("$warm"))
                .findFirst()
                .orElseThrow());
    }

    /** A piece of source with its offset in the cell. */
    private record Piece(String source, int start, int end, SourceCodeAnalysis.Completeness completeness) {}

    private List<Piece> split(String code) {
        List<Piece> out = new ArrayList<>();
        String remaining = code;
        while (!remaining.isBlank()) {
            int start = code.length() - remaining.length();
            SourceCodeAnalysis.CompletionInfo info = analysis.analyzeCompletion(remaining);
            SourceCodeAnalysis.Completeness c = info.completeness();
            if (c == SourceCodeAnalysis.Completeness.EMPTY) break;
            if (!c.isComplete()) {
                out.add(new Piece(remaining, start, code.length(), c));
                break;
            }
            String rest = info.remaining();
            out.add(new Piece(info.source(), start, code.length() - rest.length(), c));
            remaining = rest;
        }
        return out;
    }

    /** Evaluates a Java cell (no magics); a failure is a {@link CellException}. */
    public Value eval(String code) {
        Value last = Value.NONE;
        for (Piece p : split(code)) {
            if (stopped) throw interrupted();
            last = evalSnippet(p.source(), code, p.start());
            // IPython's convention: a statement ending in ';' shows no value (System.out.printf(...); returns a
            // PrintStream)
            if (last.present() && code.substring(p.start(), p.end()).strip().endsWith(";")) last = Value.NONE;
            // a stopped snippet comes back from JShell like a finished one (StoppedException leaves no event exception)
            if (stopped) throw interrupted();
        }
        return last;
    }

    private Value evalSnippet(String source, String cell, int start) {
        List<SnippetEvent> events = shell.eval(source);
        Value value = Value.NONE;
        for (SnippetEvent e : events) {
            if (e.causeSnippet() != null) continue;
            Snippet s = e.snippet();
            if (e.status() == Snippet.Status.REJECTED) throw compileError(s, cell, start);
            if (e.exception() != null) throw runtimeError(e.exception());
            if (e.status() == Snippet.Status.RECOVERABLE_DEFINED
                    || e.status() == Snippet.Status.RECOVERABLE_NOT_DEFINED) {
                List<String> unresolved = shell.unresolvedDependencies((jdk.jshell.DeclarationSnippet) s)
                        .toList();
                if (!unresolved.isEmpty()) {
                    System.err.println("note: " + s.kind().name().toLowerCase(Locale.ROOT)
                            + " defined but cannot be used until " + String.join(", ", unresolved) + " is declared");
                }
            }
            if (s instanceof VarSnippet v && e.status() == Snippet.Status.VALID) {
                String cls = control.lastClass();
                if (cls != null) varClasses.put(v.name(), cls);
                if (v.name().startsWith("$")) value = new Value(true, read(v.name()));
            } else if (s instanceof ExpressionSnippet x
                    && e.status() == Snippet.Status.VALID
                    && !"void".equals(x.typeName())) {
                value = new Value(true, read(x.name()));
            }
        }
        return value;
    }

    private Object read(String var) {
        String cls = varClasses.get(var);
        if (cls == null) return null;
        try {
            return control.field(cls, var);
        } catch (ReflectiveOperationException ex) {
            return null;
        }
    }

    private CellException compileError(Snippet s, String cell, int start) {
        List<String> lines = new ArrayList<>();
        List<Diag> diags = shell.diagnostics(s).filter(Diag::isError).toList();
        String first = null;
        String src = s.source();
        for (Diag d : diags) {
            String msg = JShellNames.scrub(d.getMessage(Locale.ROOT));
            if (first == null) first = msg.lines().findFirst().orElse(msg);
            int pos = (int) Math.max(0, Math.min(d.getStartPosition(), src.length()));
            int lineStart = src.lastIndexOf('\n', pos - 1) + 1;
            int lineEnd = src.indexOf('\n', pos);
            if (lineEnd < 0) lineEnd = src.length();
            int cellLine = lineOf(cell, start)
                    + (int) src.substring(0, lineStart)
                            .chars()
                            .filter(c -> c == '\n')
                            .count();
            lines.add("line " + cellLine + ": " + msg);
            lines.add("    " + src.substring(lineStart, lineEnd));
            long endPos = Math.max(d.getStartPosition() + 1, Math.min(d.getEndPosition(), lineEnd));
            lines.add("    " + " ".repeat(pos - lineStart) + "^" + "~".repeat((int) Math.max(0, endPos - pos - 1)));
        }
        if (first == null) first = "the snippet was rejected";
        return new CellException(CellException.Kind.COMPILE, "CompilationError", first, lines);
    }

    private static int lineOf(String cell, int offset) {
        int n = 1;
        for (int i = 0; i < offset && i < cell.length(); i++) if (cell.charAt(i) == '\n') n++;
        return n;
    }

    private CellException runtimeError(JShellException ex) {
        if (ex instanceof UnresolvedReferenceException u) {
            String what = u.getSnippet().source().strip();
            List<String> missing = shell.unresolvedDependencies(u.getSnippet()).toList();
            String msg = "'" + firstLine(what) + "' uses " + String.join(", ", missing) + ", which is not declared";
            return new CellException(CellException.Kind.RUNTIME, "UnresolvedReference", msg, List.of(msg));
        }
        if (ex instanceof EvalException ev) {
            if (ev.getExceptionClassName() != null && ev.getExceptionClassName().equals("java.lang.ThreadDeath")) {
                return interrupted();
            }
            List<String> tb = new ArrayList<>();
            appendTrace(ev, tb, "");
            String msg = ev.getMessage() == null ? "" : JShellNames.scrub(ev.getMessage());
            return new CellException(
                    CellException.Kind.RUNTIME, JShellNames.scrub(ev.getExceptionClassName()), msg, tb);
        }
        return new CellException(
                CellException.Kind.RUNTIME,
                ex.getClass().getSimpleName(),
                String.valueOf(ex.getMessage()),
                List.of(String.valueOf(ex.getMessage())));
    }

    static CellException interrupted() {
        return new CellException(
                CellException.Kind.INTERRUPTED,
                "Interrupted",
                "the cell was interrupted; the session and its variables are intact",
                // the traceback's one line is the head itself: shown once, never "Interrupted" twice
                List.of("Interrupted: the cell was interrupted; the session and its variables are intact"));
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl) + " ...";
    }

    /**
     * The user's exception with the frames of the kernel, JShell and reflection left out; snippet frames read
     * "at cell", JShell's wrapper names are taken out, and a frame repeated (a runaway recursion's thousand
     * lines) is shown once with the count.
     */
    private static void appendTrace(Throwable t, List<String> out, String prefix) {
        String name = t instanceof EvalException ev
                ? ev.getExceptionClassName()
                : t.getClass().getName();
        out.add(prefix
                + JShellNames.scrub(name)
                + (t.getMessage() == null ? "" : ": " + JShellNames.scrub(t.getMessage())));
        List<String> frames = new ArrayList<>();
        for (StackTraceElement f : t.getStackTrace()) {
            String c = f.getClassName();
            if (internal(c)) continue;
            String file = f.getFileName();
            if (file != null && file.startsWith("#")) {
                // JShell renames snippet frames to class "" and file "#<snippet id>" (jdk.jshell.Eval.asEvalException)
                String where = f.getMethodName().isEmpty()
                        ? "top level"
                        : (c.isEmpty() ? "" : JShellNames.scrub(c) + ".") + f.getMethodName();
                frames.add("\tat cell: " + where + " (snippet " + file + ", line " + f.getLineNumber() + ")");
            } else if (c.startsWith("REPL.$JShell$")) frames.add("\tat cell: " + f.getMethodName());
            else frames.add("\tat " + f);
        }
        out.addAll(collapseRepeats(frames));
        if (t.getCause() != null && t.getCause() != t) appendTrace(t.getCause(), out, "Caused by: ");
    }

    /** Runs of one line repeated more than twice: the line twice, then how often it repeats. */
    static List<String> collapseRepeats(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); ) {
            int j = i;
            while (j < lines.size() && lines.get(j).equals(lines.get(i))) j++;
            int run = j - i;
            out.add(lines.get(i));
            if (run > 1) out.add(lines.get(i));
            if (run > 2) out.add("\t... the frame above " + (run - 2) + " more times");
            i = j;
        }
        return out;
    }

    static boolean internal(String className) {
        return className.startsWith("jdk.jshell.")
                || className.startsWith("java.lang.reflect.")
                || className.startsWith("jdk.internal.")
                || className.startsWith("brokkr.kernel.")
                || className.startsWith("java.lang.Thread")
                || className.startsWith("org.dflib.jjava.")
                || JShellNames.machinery(className);
    }

    /** Stops the running snippet (its next backward branch or method entry throws); the session survives. */
    /**
     * Stops the running cell: its snippet at the next loop edge, or, asked for before the snippet's code runs,
     * the snippet before it starts; the cell's later snippets do not run. Holds until {@link #beginCell()}.
     */
    public void stop() {
        stopped = true;
        control.requestStop();
        shell.stop();
    }

    /** A new cell begins: an earlier {@link #stop()} no longer applies. */
    public void beginCell() {
        stopped = false;
        control.clearStop();
    }

    // ---- completion, inspection, completeness ----

    private Piece pieceAt(String code, int cursor) {
        for (Piece p : split(code)) if (cursor >= p.start() && cursor <= p.end()) return p;
        return new Piece(
                code.substring(0, Math.min(cursor, code.length())), 0, cursor, SourceCodeAnalysis.Completeness.UNKNOWN);
    }

    /** Completion candidates at {@code cursor}, and the range [start, cursor) they replace. */
    public record Completion(List<String> matches, int start, int end) {}

    public Completion complete(String code, int cursor) {
        Piece p = pieceAt(code, cursor);
        String text = code.substring(p.start(), Math.min(code.length(), Math.max(p.end(), cursor)));
        int rel = cursor - p.start();
        int[] anchor = new int[1];
        List<SourceCodeAnalysis.Suggestion> s = analysis.completionSuggestions(text, rel, anchor);
        Set<String> matches = new LinkedHashSet<>();
        s.stream().filter(SourceCodeAnalysis.Suggestion::matchesType).forEach(x -> matches.add(x.continuation()));
        s.forEach(x -> matches.add(x.continuation()));
        return new Completion(List.copyOf(matches), p.start() + anchor[0], cursor);
    }

    /** The documentation of a symbol: signatures and Javadoc, as plain text and as Markdown. */
    public record Inspection(String text, String markdown) {}

    /**
     * The signature and Javadoc of the symbol at the cursor (in, or at the end of, an identifier, or in an
     * invocation's arguments), or null when there is none. Overloads documented alike are listed together
     * above their one description.
     */
    public Inspection inspect(String code, int cursor) {
        Piece p = pieceAt(code, cursor);
        String text = code.substring(p.start(), Math.min(code.length(), Math.max(p.end(), cursor)));
        int rel = Math.min(cursor - p.start(), text.length());
        // documentation() looks at the invocation or identifier ending at the cursor; step over the rest of an
        // identifier
        while (rel < text.length() && Character.isJavaIdentifierPart(text.charAt(rel))) rel++;
        List<SourceCodeAnalysis.Documentation> docs = analysis.documentation(text, rel, true);
        if (docs.isEmpty() && rel < text.length() && text.charAt(rel) == '(')
            docs = analysis.documentation(text, rel + 1, true);
        // a method name not yet followed by its parentheses ("Math.max|"): asked as the invocation it starts
        if (docs.isEmpty() && rel > 0 && Character.isJavaIdentifierPart(text.charAt(rel - 1))) {
            docs = analysis.documentation(text.substring(0, rel) + "(", rel + 1, true);
        }
        if (docs.isEmpty()) return null;
        Map<String, List<String>> byJavadoc = new LinkedHashMap<>();
        for (SourceCodeAnalysis.Documentation d : docs) {
            byJavadoc
                    .computeIfAbsent(d.javadoc() == null ? "" : d.javadoc().strip(), k -> new ArrayList<>())
                    .add(JShellNames.scrub(d.signature()));
        }
        StringBuilder plain = new StringBuilder(), md = new StringBuilder();
        for (var e : byJavadoc.entrySet()) {
            if (!plain.isEmpty()) {
                plain.append("\n\n");
                md.append("\n\n---\n\n");
            }
            plain.append(String.join("\n", e.getValue()));
            md.append("```java\n").append(String.join("\n", e.getValue())).append("\n```");
            if (!e.getKey().isEmpty()) {
                plain.append("\n\n").append(Javadoc.render(e.getKey(), Javadoc.Style.PLAIN));
                md.append("\n\n").append(Javadoc.render(e.getKey(), Javadoc.Style.MARKDOWN));
            }
        }
        return new Inspection(plain.toString(), md.toString());
    }

    /** Jupyter's {@code is_complete}: "complete", "incomplete" with an indent, or "invalid". */
    public record Completeness(String status, String indent) {}

    public Completeness isComplete(String code) {
        List<Piece> pieces = split(code);
        if (pieces.isEmpty()) return new Completeness("complete", "");
        SourceCodeAnalysis.Completeness last = pieces.getLast().completeness();
        return switch (last) {
            case COMPLETE, COMPLETE_WITH_SEMI, EMPTY -> new Completeness("complete", "");
            case DEFINITELY_INCOMPLETE, CONSIDERED_INCOMPLETE -> new Completeness("incomplete", "    ");
            case UNKNOWN -> new Completeness("invalid", "");
        };
    }

    /** The names of the session's variables, for the REPL's completer and tests. */
    public List<String> variables() {
        return shell.variables().map(VarSnippet::name).toList();
    }

    /** A variable the user declared: its name, its declared type as written, and its value now. */
    public record Variable(String name, String type, Object value) {}

    /** The variables the user declared and that hold a value, in declaration order (JShell's {@code $1} temporaries left out). */
    public List<Variable> userVariables() {
        return shell.variables()
                .filter(v ->
                        shell.status(v) == Snippet.Status.VALID && !v.name().startsWith("$"))
                .map(v -> new Variable(v.name(), JShellNames.scrub(v.typeName()), read(v.name())))
                .toList();
    }

    /** Adds a jar or classes directory to what cells compile against and load from. */
    public void addToClasspath(Path entry) {
        shell.addToClasspath(entry.toString());
    }

    /** The class loader of the cells' classes (and of what {@link #addToClasspath} added), a child of the kernel's. */
    public ClassLoader classLoader() {
        return control.classLoader();
    }

    @Override
    public void close() {
        shell.close();
    }
}
