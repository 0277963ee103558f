package brokkr.kernel;

import brokkr.command.Command;
import brokkr.command.ErrorMessages;
import brokkr.magics.Display;
import brokkr.magics.MagicCompletion;
import brokkr.magics.Session;
import brokkr.magics.builtin.ExperimentMagics;
import brokkr.magics.view.Figure;
import brokkr.magics.view.Rich;
import brokkr.magics.view.Tables;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;
import org.dflib.jjava.jupyter.kernel.display.Renderer;
import org.dflib.jjava.jupyter.kernel.display.mime.MIMEType;
import org.jline.reader.Candidate;
import org.jline.reader.EndOfFileException;
import org.jline.reader.History;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.terminal.impl.DumbTerminal;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

/**
 * {@code ./brokkr repl}: the kernel's evaluator and magics in a terminal (JLine: line editing, history kept
 * across sessions, tab completion from JShell and the magic names). Values print through the same renderer
 * registry as in notebooks: as text, tables fitted to the terminal's width, and charts as PNG and SVG files
 * (never overwriting one) whose paths are printed. Works on piped stdin.
 */
public record ReplCommand(Map<String, String> env) implements Command {
    public ReplCommand() {
        this(System.getenv());
    }

    @Override
    public String name() {
        return "repl";
    }

    @Override
    public String summary() {
        return "a terminal REPL: Java (JShell) and the magics, as in the kernel";
    }

    @Override
    public String usage() {
        return """
               usage: ./brokkr repl [--charts DIR] [--history FILE]

               Reads Java and magics (%help lists them) line by line; an unfinished statement continues on the
               next line, a %%cell magic takes the lines up to an empty one. Tables print fitted to the
               terminal's width (or $COLUMNS), other values as text; charts are written to DIR (default
               ./brokkr-charts) as PNG and SVG, named after their title and never overwriting a file, and their
               paths printed. The lines typed are kept across sessions in FILE (default
               ~/.cache/brokkr/repl-history, under $XDG_CACHE_HOME or -Dbrokkr.cache.dir when set); piped input
               is recorded only with --history. Ctrl-R searches them, /history lists them. Ctrl-C interrupts a
               running cell; Ctrl-D, /exit, exit or quit leaves.""";
    }

    /** The history file: under the per-user cache directory Brokkr uses ({@code -Dbrokkr.cache.dir}, {@code $XDG_CACHE_HOME/brokkr}, {@code ~/.cache/brokkr}). */
    public static Path defaultHistory(Map<String, String> env) {
        String dir = System.getProperty("brokkr.cache.dir");
        if (dir != null && !dir.isBlank()) return Path.of(dir, "repl-history");
        String xdg = env.get("XDG_CACHE_HOME");
        Path cache = xdg != null && !xdg.isBlank()
                ? Path.of(xdg)
                : KernelSpec.home(env).resolve(".cache");
        return cache.resolve("brokkr").resolve("repl-history");
    }

    /**
     * Where JLine extracts its native library: a private directory beside the history (owner-only), not the
     * system temporary directory, where every session left a {@code jlinenative-*.so} for all to see. A
     * {@code -Djline.tmpdir} given on the command line is kept.
     */
    static Path privateNativeDir(Map<String, String> env) throws java.io.IOException {
        String given = System.getProperty("jline.tmpdir");
        if (given != null && !given.isBlank()) return Path.of(given);
        Path dir = defaultHistory(env).getParent().resolve("jline");
        Files.createDirectories(dir);
        if (dir.getFileSystem().supportedFileAttributeViews().contains("posix"))
            Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        System.setProperty("jline.tmpdir", dir.toString());
        return dir;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        Path charts = Path.of("brokkr-charts");
        Path history = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if ((a.equals("--charts") || a.equals("--history")) && i + 1 < args.size()) {
                Path p = Path.of(args.get(++i));
                if (a.equals("--charts")) charts = p;
                else history = p;
            } else if (a.equals("--charts") || a.equals("--history")) {
                throw new UsageException(a + " needs a value");
            } else {
                throw new UsageException("unexpected argument '" + a + "'");
            }
        }
        if (Files.exists(charts) && !Files.isDirectory(charts))
            throw new InputException("--charts " + charts + " is not a directory");
        System.setProperty("java.awt.headless", "true");
        Renderer renderer = ReadableValues.renderer();
        Printer printer = new Printer(renderer, charts, out);
        Session session = new Session();
        session.display(new Display() {
            private final AtomicInteger shown = new AtomicInteger();

            @Override
            public String show(Object value) {
                printer.print(value);
                return String.valueOf(shown.incrementAndGet());
            }

            @Override
            public void update(String id, Object value) {
                printer.print(value);
            }
        });
        Session.publish(session);
        // snippets print to System.out/err (they run in this JVM): point those at the REPL's streams
        PrintStream sysOut = System.out, sysErr = System.err;
        System.setOut(out);
        System.setErr(err);
        try (JShellEvaluator java = new JShellEvaluator(List.of("static brokkr.kernel.Notebook.*"))) {
            CellEvaluator cells = new CellEvaluator(java, session);
            boolean tty = System.console() != null && System.console().isTerminal();
            // piped input: a plain dumb terminal on the streams (no PTY, no native library, no echo of the input)
            if (tty) privateNativeDir(env);
            Terminal terminal = tty
                    ? TerminalBuilder.builder().system(true).build()
                    : new DumbTerminal("brokkr", "dumb", System.in, out, StandardCharsets.UTF_8);
            if (!tty) terminal.echo(false);
            printer.width(() -> tty ? terminal.getWidth() : columns());
            Path historyFile = history != null ? history : tty ? defaultHistory(env) : null;
            if (historyFile != null && historyFile.toAbsolutePath().getParent() != null) {
                Files.createDirectories(historyFile.toAbsolutePath().getParent());
            }
            LineReaderBuilder builder = LineReaderBuilder.builder().terminal(terminal);
            if (historyFile != null) {
                builder.variable(LineReader.HISTORY_FILE, historyFile.toAbsolutePath())
                        .variable(LineReader.HISTORY_FILE_SIZE, 10_000)
                        .variable(LineReader.HISTORY_IGNORE, "/exit:/history:exit:quit");
            }
            LineReader reader = builder.completer((r, line, candidates) -> {
                        String buf = line.line();
                        int cursor = line.cursor();
                        MagicCompletion.Result mc = MagicCompletion.complete(session, buf, cursor);
                        if (mc != null) {
                            String before = buf.substring(0, mc.start());
                            for (String x : mc.matches())
                                candidates.add(new Candidate(before + x, x, null, null, null, null, true));
                            return;
                        }
                        JShellEvaluator.Completion c = java.complete(buf, cursor);
                        String prefix = buf.substring(0, c.start());
                        for (String m : c.matches())
                            candidates.add(new Candidate(prefix + m, m, null, null, null, null, false));
                    })
                    .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                    // JLine drops lines that start with a space from history by default, and trims the others: a
                    // %%experiment cell's indented YAML lines are lines like any other, and their indent is YAML
                    .option(LineReader.Option.HISTORY_IGNORE_SPACE, false)
                    .option(LineReader.Option.HISTORY_REDUCE_BLANKS, false)
                    .build();
            terminal.handle(Terminal.Signal.INT, s -> cells.interrupt());
            if (tty)
                out.println("Brokkr REPL (Java " + Runtime.version().feature() + "): Java and %magics; %help, exit");
            StringBuilder cell = new StringBuilder();
            while (true) {
                String line;
                try {
                    line = reader.readLine(!tty ? "" : cell.isEmpty() ? "brokkr> " : "   ...> ");
                } catch (UserInterruptException e) {
                    cell.setLength(0);
                    continue;
                } catch (EndOfFileException e) {
                    break;
                }
                // exit and quit leave as /exit does (as in jshell and Python); inside a cell they are its text
                if (cell.isEmpty() && CellEvaluator.LEAVE_WORDS.contains(line.strip())) break;
                if (cell.isEmpty() && line.strip().equals("/history")) {
                    for (History.Entry e : reader.getHistory()) out.printf("%5d  %s%n", e.index() + 1, e.line());
                    continue;
                }
                cell.append(line).append('\n');
                String code = cell.toString();
                String s = code.strip();
                if (s.isEmpty()) {
                    cell.setLength(0);
                    continue;
                }
                boolean cellMagic = s.startsWith("%%");
                if (cellMagic
                        ? !line.isBlank()
                        : (!s.startsWith("%") && java.isComplete(code).status().equals("incomplete"))) continue;
                cell.setLength(0);
                try {
                    JShellEvaluator.Value v = cells.eval(code, printer::print);
                    out.flush();
                    if (v.present()) printer.print(v.object());
                } catch (CellException e) {
                    CellException.lines(e).forEach(err::println);
                } catch (RuntimeException e) {
                    err.println(e.getClass().getName() + ": " + e.getMessage());
                }
                out.flush();
                err.flush();
            }
            if (historyFile != null) reader.getHistory().save();
            terminal.close();
        } finally {
            System.setOut(sysOut);
            System.setErr(sysErr);
        }
        return 0;
    }

    /** Without a terminal (piped): {@code $COLUMNS} when set, else 0, and nothing is fitted. */
    int columns() {
        try {
            return Math.max(0, Integer.parseInt(env.getOrDefault("COLUMNS", "0").strip()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Prints a value through the renderer registry: text (tables fitted to the width), or chart files. */
    static final class Printer {
        private final Renderer renderer;
        private final Path charts;
        private final PrintStream out;
        private IntSupplier width = () -> 0;

        Printer(Renderer renderer, Path charts, PrintStream out) {
            this.renderer = renderer;
            this.charts = charts;
            this.out = out;
        }

        void width(IntSupplier width) {
            this.width = width;
        }

        void print(Object o) {
            if (o == null) {
                out.println("null");
                return;
            }
            DisplayData d = renderer.render(o);
            if (d.hasDataForType(MIMEType.IMAGE_PNG)) {
                try {
                    Files.createDirectories(charts);
                    Path png = newChartFile(charts, stem(o));
                    Files.write(png, Base64.getDecoder().decode(String.valueOf(d.getData(MIMEType.IMAGE_PNG))));
                    out.println("chart written to " + png);
                    if (d.hasDataForType(MIMEType.IMAGE_SVG)) {
                        Path svg =
                                png.resolveSibling(png.getFileName().toString().replaceFirst("\\.png$", ".svg"));
                        Files.writeString(
                                svg,
                                String.valueOf(d.getData(MIMEType.IMAGE_SVG)),
                                StandardOpenOption.CREATE_NEW,
                                StandardOpenOption.WRITE);
                        out.println("chart written to " + svg);
                    }
                } catch (IOException e) {
                    out.println("could not write the chart: " + ErrorMessages.describe(e));
                }
                // a composite (pass^k: chart and numbers) has its numbers as text; a bare chart's text is just its
                // title
                if (!(o instanceof Chart<?, ?>)) out.println(text(o, d));
                return;
            }
            out.println(text(o, d));
        }

        /** A table, or a value whose text is just its table, fitted to the width; anything else its plain text. */
        private String text(Object o, DisplayData d) {
            Table t = o instanceof Table table ? table : tableOf(o, String.valueOf(d.getData(MIMEType.TEXT_PLAIN)));
            if (t != null) return TerminalTable.text(t, width.getAsInt());
            // a value with wide tables of its own (a scorecard) fits them to the terminal itself
            return o instanceof Rich r ? r.text(width.getAsInt()) : String.valueOf(d.getData(MIMEType.TEXT_PLAIN));
        }

        /** The public {@code table()} of a value whose text is exactly that table's ({@code DomainSummary}, pass^k), else null. */
        private static Table tableOf(Object o, String text) {
            try {
                Method m = o.getClass().getMethod("table");
                if (m.getParameterCount() == 0
                        && Table.class.isAssignableFrom(m.getReturnType())
                        && m.invoke(o) instanceof Table t
                        && Tables.text(t).equals(text)) {
                    return t;
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                // not a table view: printed as its text
            }
            return null;
        }

        /** A chart's file name: its title as a slug ("pass^k by candidate" is passk-by-candidate), else "chart". */
        static String stem(Object o) {
            // a composite (pass^k and its numbers, a figure and its tables) is named after its chart's title
            Chart<?, ?> chart = switch (o) {
                case Chart<?, ?> c -> c;
                case ExperimentMagics.PassKView v -> v.chart();
                case Figure f -> f.chart();
                default -> null;
            };
            String title = chart != null
                    ? chart.getTitle()
                    : o.getClass().getSimpleName().replaceAll("View$", "");
            String slug = title == null
                    ? ""
                    : title.toLowerCase(Locale.ROOT)
                            .replace("^", "")
                            .replaceAll("[^a-z0-9]+", "-")
                            .replaceAll("^-|-$", "");
            if (slug.length() > 40) slug = slug.substring(0, 40).replaceAll("-$", "");
            return slug.isEmpty() ? "chart" : slug;
        }

        /**
         * A new file {@code DIR/STEM-N.png} whose SVG sibling does not exist either, created atomically (so two
         * REPLs writing into one directory, or a second session, never overwrite a chart).
         */
        static Path newChartFile(Path dir, String stem) throws IOException {
            for (int n = 1; ; n++) {
                Path png = dir.resolve(stem + "-" + n + ".png").toAbsolutePath();
                if (Files.exists(png.resolveSibling(stem + "-" + n + ".svg"))) continue;
                try {
                    return Files.createFile(png);
                } catch (FileAlreadyExistsException e) {
                    // taken: try the next number
                }
            }
        }
    }
}
