package brokkr.cli;

import brokkr.kernel.CellEvaluator;
import brokkr.kernel.CellException;
import brokkr.kernel.JShellEvaluator;
import brokkr.magics.Display;
import brokkr.magics.MagicCompletion;
import brokkr.magics.Rendering;
import brokkr.magics.Session;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;
import org.dflib.jjava.jupyter.kernel.display.Renderer;
import org.dflib.jjava.jupyter.kernel.display.mime.MIMEType;
import org.jline.reader.Candidate;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.terminal.impl.DumbTerminal;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code ./brokkr repl}: the kernel's evaluator and magics in a terminal (JLine: line editing, history,
 * tab completion from JShell and the magic names). Values print through the same renderer registry as
 * in notebooks: as text, and charts as PNG and SVG files whose paths are printed. Works on piped stdin.
 */
public record ReplCommand() implements Command {
    @Override public String name() { return "repl"; }

    @Override public String summary() { return "a terminal REPL: Java (JShell) and the magics, as in the kernel"; }

    @Override public String usage() {
        return """
               usage: ./brokkr repl [--charts DIR]

               Reads Java and magics (%help lists them) line by line; an unfinished statement continues on the
               next line, a %%cell magic takes the lines up to an empty one. Tables and other values print as
               text; charts are written to DIR (default ./brokkr-charts) as PNG and SVG and their paths printed.
               Ctrl-C interrupts a running cell; Ctrl-D or /exit leaves.""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        Path charts = Path.of("brokkr-charts");
        if (!args.isEmpty()) {
            if (args.size() == 2 && args.get(0).equals("--charts")) charts = Path.of(args.get(1));
            else throw new UsageException("unexpected argument '" + args.getFirst() + "'");
        }
        if (Files.exists(charts) && !Files.isDirectory(charts)) throw new InputException("--charts " + charts + " is not a directory");
        System.setProperty("java.awt.headless", "true");
        Renderer renderer = Rendering.registerAll(new Renderer());
        Printer printer = new Printer(renderer, charts, out);
        Session session = new Session();
        session.display(new Display() {
            @Override public String show(Object value) { printer.print(value); return String.valueOf(printer.count.get()); }
            @Override public void update(String id, Object value) { printer.print(value); }
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
            Terminal terminal = tty ? TerminalBuilder.builder().system(true).build()
                    : new DumbTerminal("brokkr", "dumb", System.in, out, StandardCharsets.UTF_8);
            if (!tty) terminal.echo(false);
            LineReader reader = LineReaderBuilder.builder().terminal(terminal)
                    .completer((r, line, candidates) -> {
                        String buf = line.line();
                        int cursor = line.cursor();
                        MagicCompletion.Result mc = MagicCompletion.complete(session, buf, cursor);
                        if (mc != null) {
                            String before = buf.substring(0, mc.start());
                            for (String x : mc.matches()) candidates.add(new Candidate(before + x, x, null, null, null, null, true));
                            return;
                        }
                        JShellEvaluator.Completion c = java.complete(buf, cursor);
                        String prefix = buf.substring(0, c.start());
                        for (String m : c.matches()) candidates.add(new Candidate(prefix + m, m, null, null, null, null, false));
                    })
                    .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                    .build();
            terminal.handle(Terminal.Signal.INT, s -> cells.interrupt());
            if (tty) out.println("Brokkr REPL (Java " + Runtime.version().feature() + "): Java and %magics; %help, /exit");
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
                if (cell.isEmpty() && line.strip().equals("/exit")) break;
                cell.append(line).append('\n');
                String code = cell.toString();
                String s = code.strip();
                if (s.isEmpty()) {
                    cell.setLength(0);
                    continue;
                }
                boolean cellMagic = s.startsWith("%%");
                if (cellMagic ? !line.isBlank() : (!s.startsWith("%") && java.isComplete(code).status().equals("incomplete"))) continue;
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
            terminal.close();
        } finally {
            System.setOut(sysOut);
            System.setErr(sysErr);
        }
        return 0;
    }

    /** Prints a value through the renderer registry: text, or chart files. */
    static final class Printer {
        private final Renderer renderer;
        private final Path charts;
        private final PrintStream out;
        final AtomicInteger count = new AtomicInteger();

        Printer(Renderer renderer, Path charts, PrintStream out) {
            this.renderer = renderer;
            this.charts = charts;
            this.out = out;
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
                    int n = count.incrementAndGet();
                    Path png = charts.resolve("chart-" + n + ".png").toAbsolutePath();
                    Files.write(png, Base64.getDecoder().decode(String.valueOf(d.getData(MIMEType.IMAGE_PNG))));
                    out.println("chart written to " + png);
                    if (d.hasDataForType(MIMEType.IMAGE_SVG)) {
                        Path svg = charts.resolve("chart-" + n + ".svg").toAbsolutePath();
                        Files.writeString(svg, String.valueOf(d.getData(MIMEType.IMAGE_SVG)));
                        out.println("chart written to " + svg);
                    }
                } catch (IOException e) {
                    out.println("could not write the chart: " + ErrorMessages.describe(e));
                }
                // a composite (pass^k: chart and numbers) has its numbers as text; a bare chart's text is just its title
                if (!(o instanceof org.knowm.xchart.internal.chartpart.Chart<?, ?>)) out.println(d.getData(MIMEType.TEXT_PLAIN));
                return;
            }
            out.println(d.getData(MIMEType.TEXT_PLAIN));
        }
    }
}
