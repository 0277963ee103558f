package brokkr.kernel;

import brokkr.magics.MagicCompletion;
import brokkr.magics.MagicInfo;
import brokkr.magics.MagicUsageException;
import brokkr.magics.Session;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.dflib.jjava.jupyter.channels.ShellReplyEnvironment;
import org.dflib.jjava.jupyter.kernel.BaseKernel;
import org.dflib.jjava.jupyter.kernel.HelpLink;
import org.dflib.jjava.jupyter.kernel.LanguageInfo;
import org.dflib.jjava.jupyter.kernel.ReplacementOptions;
import org.dflib.jjava.jupyter.kernel.comm.CommManager;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;
import org.dflib.jjava.jupyter.kernel.display.Renderer;
import org.dflib.jjava.jupyter.kernel.history.HistoryEntry;
import org.dflib.jjava.jupyter.kernel.history.HistoryManager;
import org.dflib.jjava.jupyter.kernel.util.StringStyler;
import org.dflib.jjava.jupyter.messages.Message;
import org.dflib.jjava.jupyter.messages.MessageType;
import org.dflib.jjava.jupyter.messages.publish.PublishError;
import org.dflib.jjava.jupyter.messages.publish.PublishExecuteInput;
import org.dflib.jjava.jupyter.messages.publish.PublishExecuteResult;
import org.dflib.jjava.jupyter.messages.reply.ErrorReply;
import org.dflib.jjava.jupyter.messages.reply.ExecuteReply;
import org.dflib.jjava.jupyter.messages.request.ExecuteRequest;
import org.dflib.jjava.jupyter.messages.request.HistoryRequest;

/**
 * The Brokkr Jupyter kernel: JJava's {@link BaseKernel} messaging, Java evaluated by JShell in this
 * JVM ({@link JShellEvaluator}), Brokkr's magics ({@link CellEvaluator}) and renderers. Cells run on one
 * dedicated thread so an interrupt never touches the ZeroMQ threads; the JShell session is built in the
 * background while the sockets bind, so the first reply does not wait for the compiler to start.
 */
public class BrokkrKernel extends BaseKernel {
    private final Future<CellEvaluator> cells;
    private final Session session;
    private final BrokkrIO bio;
    private final SessionHistory history;
    private final CellOutput output = new CellOutput();
    private volatile boolean shuttingDown;
    private final ExecutorService cellThread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "brokkr-cell");
        t.setDaemon(true);
        return t;
    });

    protected BrokkrKernel(
            String name,
            String version,
            LanguageInfo languageInfo,
            List<HelpLink> helpLinks,
            SessionHistory history,
            BrokkrIO io,
            CommManager commManager,
            Renderer renderer,
            boolean extensionsEnabled,
            StringStyler errorStyler,
            Session session,
            Future<CellEvaluator> cells) {
        super(
                name,
                version,
                languageInfo,
                helpLinks,
                history,
                io,
                commManager,
                renderer,
                null,
                null,
                extensionsEnabled,
                errorStyler);
        this.bio = io;
        this.history = history;
        this.session = session;
        this.cells = cells;
        session.display(new KernelDisplay());
        Session.publish(session);
    }

    public Session session() {
        return session;
    }

    /** The evaluator, waiting for the background start-up when a request comes before it finished. */
    protected CellEvaluator cells() {
        try {
            return cells.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the Java session was starting", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the Java session failed to start: " + e.getCause(), e.getCause());
        }
    }

    /** Publishes {@code display_data} and, for the same id, {@code update_display_data}. */
    private final class KernelDisplay implements brokkr.magics.Display {
        @Override
        public String show(Object value) {
            DisplayData d = value instanceof DisplayData dd ? dd : renderer.render(value);
            String id = UUID.randomUUID().toString();
            d.setDisplayId(id);
            if (io.display.isAttached()) io.display.display(d);
            return id;
        }

        @Override
        public void update(String id, Object value) {
            DisplayData d = value instanceof DisplayData dd ? new DisplayData(dd) : renderer.render(value);
            if (io.display.isAttached()) io.display.updateDisplay(id, d);
        }
    }

    @Override
    public Object evalRaw(String code) {
        JShellEvaluator.Value v = cells().eval(code, o -> display(o instanceof DisplayData d ? d : renderer.render(o)));
        return v.present() ? v.object() : null;
    }

    @Override
    protected synchronized void handleExecuteRequest(ShellReplyEnvironment env, Message<ExecuteRequest> message) {
        commManager.setMessageContext(message);
        ExecuteRequest request = message.getContent();
        int count = executionCount.getAndIncrement();
        env.setBusyDeferIdle();
        env.publish(new PublishExecuteInput(request.getCode(), count));
        if (request.shouldStoreHistory()) history.add(count, request.getCode());
        output.attach(env);
        bio.attach(env, request.isStdinEnabled());
        env.defer(() -> bio.detach(env));
        try {
            cells().beginCell(); // on this thread: an interrupt arriving before the cell thread starts still counts
            Object out = CompletableFuture.supplyAsync(() -> evalRaw(request.getCode()), cellThread)
                    .get();
            System.out.flush();
            System.err.flush();
            if (out != null && !request.isSilent()) {
                env.publish(new PublishExecuteResult(count, out instanceof DisplayData d ? d : renderer.render(out)));
            }
            env.defer().reply(new ExecuteReply(count, Map.of()));
        } catch (Exception e) {
            System.out.flush();
            System.err.flush();
            CellException ce = asCellException(e);
            List<String> tb =
                    CellException.lines(ce).stream().map(errorStyler::secondary).toList();
            env.publish(new PublishError(ce.ename(), ce.evalue(), tb));
            ErrorReply error = new ErrorReply(ce.ename(), ce.evalue(), tb);
            error.setExecutionCount(count);
            env.defer().replyError(ExecuteReply.MESSAGE_TYPE.error(), error);
        }
    }

    /**
     * {@code history_request}, answered with the protocol's tuples {@code [session, line, input]}: JJava
     * 1.0-a6 sends its {@code HistoryEntry} objects as JSON objects ({@code {"session":..,"cellNumber":..}}),
     * which front ends cannot read.
     */
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    protected void handleHistoryRequest(ShellReplyEnvironment env, Message<HistoryRequest> message) {
        env.setBusyDeferIdle();
        HistoryRequest request = message.getContent();
        Set<HistoryManager.ResultFlag> flags = EnumSet.noneOf(HistoryManager.ResultFlag.class);
        List<HistoryEntry> entries = switch (request) {
            case HistoryRequest.Tail t -> history.lookupTail(t.getMaxReturnLength(), flags);
            case HistoryRequest.Range r -> history.lookupRange(r.getSessionIndex(), r.getStart(), r.getStop(), flags);
            case HistoryRequest.Search s -> {
                if (s.filterUnique()) flags.add(HistoryManager.ResultFlag.UNIQUE);
                yield history.search(s.getPattern(), s.getMaxReturnLength(), flags);
            }
            default -> List.of();
        };
        List<List<Object>> tuples = entries.stream()
                .map(e -> List.<Object>of(e.getSession(), e.getCellNumber(), e.getInput()))
                .toList();
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("status", "ok");
        content.put("history", tuples);
        env.reply(new Message(message, (MessageType) MessageType.HISTORY_REPLY, content));
    }

    static CellException asCellException(Throwable e) {
        Throwable t = e;
        while ((t instanceof ExecutionException || t instanceof java.util.concurrent.CompletionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof CellException ce) return ce;
        if (t instanceof MagicUsageException mu) {
            return new CellException(
                    CellException.Kind.USAGE,
                    "UsageError",
                    mu.getMessage(),
                    mu.getMessage().lines().toList());
        }
        List<String> tb = new ArrayList<>();
        tb.add(t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage()));
        for (StackTraceElement f : t.getStackTrace())
            if (!JShellEvaluator.internal(f.getClassName())) tb.add("\tat " + f);
        return new CellException(
                CellException.Kind.RUNTIME, t.getClass().getName(), String.valueOf(t.getMessage()), tb);
    }

    @Override
    public void interrupt() {
        if (cells.isDone()) cells().interrupt();
    }

    /** Magic names and magic arguments on a {@code %} line ({@link MagicCompletion}); JShell's suggestions elsewhere. */
    @Override
    public ReplacementOptions complete(String code, int at) {
        int lineStart = code.lastIndexOf('\n', Math.max(0, at - 1)) + 1;
        int lineEnd = code.indexOf('\n', at);
        String line = code.substring(lineStart, lineEnd < 0 ? code.length() : lineEnd);
        MagicCompletion.Result m = MagicCompletion.complete(session, line, at - lineStart);
        if (m != null) return new ReplacementOptions(m.matches(), lineStart + m.start(), at);
        JShellEvaluator.Completion c = cells().java().complete(code, at);
        return new ReplacementOptions(c.matches(), c.start(), c.end());
    }

    /** A magic's usage on a {@code %name}; the symbol's signature and Javadoc elsewhere. */
    @Override
    public DisplayData inspect(String code, int at, boolean extraDetail) {
        int lineStart = code.lastIndexOf('\n', Math.max(0, at - 1)) + 1;
        int lineEnd = code.indexOf('\n', at);
        String line =
                code.substring(lineStart, lineEnd < 0 ? code.length() : lineEnd).strip();
        if (line.startsWith("%")) {
            String name = line.split("\\s+")[0];
            try {
                MagicInfo i = session.magics().info(name);
                return new DisplayData(i.synopsis() + "\n\n" + i.help());
            } catch (MagicUsageException e) {
                return null;
            }
        }
        JShellEvaluator.Inspection doc = cells().java().inspect(code, at);
        if (doc == null) return null;
        DisplayData d = new DisplayData(doc.text());
        d.putMarkdown(doc.markdown());
        return d;
    }

    @Override
    public String isComplete(String code) {
        String s = code.strip();
        if (s.startsWith("%") && !s.contains("\n")) return IS_COMPLETE_YES;
        if (s.startsWith("%%")) return IS_COMPLETE_YES;
        JShellEvaluator.Completeness c = cells().java().isComplete(code);
        return switch (c.status()) {
            case "complete" -> IS_COMPLETE_YES;
            case "incomplete" -> c.indent();
            default -> IS_COMPLETE_BAD;
        };
    }

    /** Routes the process's output to the cells ({@link CellOutput}) and arms the exit notice. */
    @Override
    public void onStartup() {
        super.onStartup();
        output.install(io.in);
        Runtime.getRuntime()
                .addShutdownHook(Thread.ofPlatform().name("brokkr-exit-notice").unstarted(this::exitNotice));
    }

    static final String EXIT_NOTICE =
            "Kernel exiting: code outside the cell's own (System.exit called by a library or by"
                    + " reflection) or a termination signal is ending the kernel's JVM; the session is lost and the front end"
                    + " restarts the kernel.";

    /**
     * The JVM is ending but nobody asked the kernel to shut down: an exit the {@link ExitGuard} does not see.
     * Says so in the running (or last) cell, so the notebook shows why its kernel died.
     */
    private void exitNotice() {
        if (shuttingDown || !output.routing()) return;
        System.err.println(EXIT_NOTICE);
        System.err.flush();
        try {
            Thread.sleep(300); // ZeroMQ sends on its own I/O thread, which the exit does not wait for
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void onShutdown(boolean isRestarting) {
        shuttingDown = true;
        super.onShutdown(isRestarting);
        if (cells.isDone()) {
            try {
                cells().interrupt();
                cells().java().close();
            } catch (RuntimeException ignored) {
                // shutting down: a session that failed to start has nothing to close
            }
        }
        cellThread.shutdownNow();
        output.uninstall();
    }
}
